// SPDX-License-Identifier: GPL-2.0
/*
 * Socket address helpers: parse the address strings netlink requests carry,
 * compare and print addresses. No verbs here, so KUnit can test all of it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/in.h>
#include <linux/in6.h>
#include <linux/inet.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <net/ipv6.h>

#include "rdmablk.h"

/**
 * rdmablk_addr_parse() - parse an IPv4 or IPv6 literal and a port
 * @net: namespace used to resolve an IPv6 scope given as an interface name
 * @addr: "192.0.2.1", "2001:db8::1" or "fe80::1%eth0"; no host names
 * @port: port in host order
 * @ss: result, zeroed first
 *
 * Return: 0, or -EINVAL when @addr is not an address literal.
 */
int rdmablk_addr_parse(struct net *net, const char *addr, u16 port,
		       struct sockaddr_storage *ss)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;
	const char *end;
	char portstr[8];

	memset(ss, 0, sizeof(*ss));
	if (!*addr)
		return -EINVAL;

	/*
	 * in4_pton() stops at a ':' and reports success, which would take
	 * "192.0.2.1:7471" for 192.0.2.1: require the whole string.
	 */
	if (!strchr(addr, ':')) {
		if (!in4_pton(addr, -1, (u8 *)&sin->sin_addr.s_addr, -1, &end) ||
		    *end)
			return -EINVAL;
		sin->sin_family = AF_INET;
		sin->sin_port = htons(port);
		return 0;
	}

	snprintf(portstr, sizeof(portstr), "%u", port);
	return inet_pton_with_scope(net, AF_INET6, addr, portstr, ss);
}

/**
 * rdmablk_addr_same_host() - compare family and address, not port
 * @a: first address
 * @b: second address
 *
 * Return: true when @a and @b are addresses of the same host.
 */
bool rdmablk_addr_same_host(const struct sockaddr *a, const struct sockaddr *b)
{
	if (a->sa_family != b->sa_family)
		return false;
	if (a->sa_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	if (a->sa_family == AF_INET6)
		return ipv6_addr_equal(&((const struct sockaddr_in6 *)a)->sin6_addr,
				       &((const struct sockaddr_in6 *)b)->sin6_addr);
	return false;
}

/**
 * rdmablk_addr_equal() - compare family, address, port and IPv6 scope
 * @a: first address
 * @b: second address
 *
 * Return: true when @a and @b name the same endpoint.
 */
bool rdmablk_addr_equal(const struct sockaddr_storage *a,
			const struct sockaddr_storage *b)
{
	if (a->ss_family != b->ss_family)
		return false;

	if (a->ss_family == AF_INET) {
		const struct sockaddr_in *a4 = (const struct sockaddr_in *)a;
		const struct sockaddr_in *b4 = (const struct sockaddr_in *)b;

		return a4->sin_port == b4->sin_port &&
		       a4->sin_addr.s_addr == b4->sin_addr.s_addr;
	}
	if (a->ss_family == AF_INET6) {
		const struct sockaddr_in6 *a6 = (const struct sockaddr_in6 *)a;
		const struct sockaddr_in6 *b6 = (const struct sockaddr_in6 *)b;

		return a6->sin6_port == b6->sin6_port &&
		       a6->sin6_scope_id == b6->sin6_scope_id &&
		       ipv6_addr_equal(&a6->sin6_addr, &b6->sin6_addr);
	}
	return false;
}

/**
 * rdmablk_addr_port() - the port of an IPv4 or IPv6 address
 * @ss: the address
 *
 * Return: the port in host order, 0 for another family.
 */
u16 rdmablk_addr_port(const struct sockaddr_storage *ss)
{
	if (ss->ss_family == AF_INET)
		return ntohs(((const struct sockaddr_in *)ss)->sin_port);
	if (ss->ss_family == AF_INET6)
		return ntohs(((const struct sockaddr_in6 *)ss)->sin6_port);
	return 0;
}

/**
 * rdmablk_addr_format() - print the address part, without the port
 * @ss: the address
 * @buf: output
 * @len: size of @buf, RDMABLK_ADDR_MAX_LEN is always enough
 *
 * IPv6 is printed compressed, with "%<scope id>" when it has a scope.
 *
 * Return: the length printed (as snprintf).
 */
int rdmablk_addr_format(const struct sockaddr_storage *ss, char *buf,
			size_t len)
{
	const struct sockaddr_in6 *a6 = (const struct sockaddr_in6 *)ss;

	if (ss->ss_family == AF_INET6 && a6->sin6_scope_id)
		return snprintf(buf, len, "%pI6c%%%u", &a6->sin6_addr,
				a6->sin6_scope_id);
	return snprintf(buf, len, "%pISc", ss);
}
