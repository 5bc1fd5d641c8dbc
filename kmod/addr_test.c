// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for addr.c: which address strings are accepted, what they
 * parse to, and how addresses compare and print.
 */
#include <kunit/test.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <net/net_namespace.h>

#include "rdmablk.h"

struct addr_case {
	const char *in;
	u16 port;
	int ret;		/* expected return of rdmablk_addr_parse() */
	sa_family_t family;	/* expected family when ret == 0 */
	const char *printed;	/* expected rdmablk_addr_format() output */
};

static const struct addr_case addr_cases[] = {
	{ "192.0.2.1", 7471, 0, AF_INET, "192.0.2.1" },
	{ "0.0.0.0", 1, 0, AF_INET, "0.0.0.0" },
	{ "255.255.255.255", 65535, 0, AF_INET, "255.255.255.255" },
	{ "2001:db8::1", 7471, 0, AF_INET6, "2001:db8::1" },
	{ "2001:0db8:0000::0001", 7471, 0, AF_INET6, "2001:db8::1" },
	{ "::", 7471, 0, AF_INET6, "::" },
	{ "::ffff:192.0.2.1", 7471, 0, AF_INET6, "::ffff:192.0.2.1" },
	{ "fe80::1%7", 7471, 0, AF_INET6, "fe80::1%7" },
	{ "", 7471, -EINVAL },
	{ "192.0.2", 7471, -EINVAL },
	{ "192.0.2.256", 7471, -EINVAL },
	{ "192.0.2.1:7471", 7471, -EINVAL },
	{ "[2001:db8::1]", 7471, -EINVAL },
	{ "2001:db8:::1", 7471, -EINVAL },
	{ "target.example", 7471, -EINVAL },
	{ "fe80::1%no-such-if", 7471, -EINVAL },
	{ " 192.0.2.1", 7471, -EINVAL },
	{ "192.0.2.1 ", 7471, -EINVAL },
	{ "192.0.2.1.5", 7471, -EINVAL },
	{ "2001:db8::1]", 7471, -EINVAL },
	{ "2001:db8::1:7471:1:2:3:4:5", 7471, -EINVAL },
};

static void addr_case_desc(const struct addr_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"%s\"", c->in);
}

KUNIT_ARRAY_PARAM(addr, addr_cases, addr_case_desc);

static void rdmablk_addr_parse_test(struct kunit *test)
{
	const struct addr_case *c = test->param_value;
	struct sockaddr_storage ss;
	char buf[RDMABLK_ADDR_MAX_LEN];
	int ret;

	ret = rdmablk_addr_parse(&init_net, c->in, c->port, &ss);
	KUNIT_ASSERT_EQ(test, ret, c->ret);
	if (ret)
		return;

	KUNIT_EXPECT_EQ(test, ss.ss_family, c->family);
	KUNIT_EXPECT_EQ(test, rdmablk_addr_port(&ss), c->port);
	rdmablk_addr_format(&ss, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, c->printed);
}

static void rdmablk_addr_equal_test(struct kunit *test)
{
	struct sockaddr_storage a, b;

	KUNIT_ASSERT_EQ(test, rdmablk_addr_parse(&init_net, "192.0.2.1", 7471, &a), 0);
	KUNIT_ASSERT_EQ(test, rdmablk_addr_parse(&init_net, "192.0.2.1", 7471, &b), 0);
	KUNIT_EXPECT_TRUE(test, rdmablk_addr_equal(&a, &b));

	/* Same address, other port. */
	KUNIT_ASSERT_EQ(test, rdmablk_addr_parse(&init_net, "192.0.2.1", 7472, &b), 0);
	KUNIT_EXPECT_FALSE(test, rdmablk_addr_equal(&a, &b));

	/* Other address. */
	KUNIT_ASSERT_EQ(test, rdmablk_addr_parse(&init_net, "192.0.2.2", 7471, &b), 0);
	KUNIT_EXPECT_FALSE(test, rdmablk_addr_equal(&a, &b));

	/* A v4-mapped IPv6 address is another endpoint than the IPv4 one. */
	KUNIT_ASSERT_EQ(test, rdmablk_addr_parse(&init_net, "::ffff:192.0.2.1", 7471, &b), 0);
	KUNIT_EXPECT_FALSE(test, rdmablk_addr_equal(&a, &b));

	/* IPv6: spelling does not matter, the scope does. */
	KUNIT_ASSERT_EQ(test, rdmablk_addr_parse(&init_net, "fe80::1%3", 7471, &a), 0);
	KUNIT_ASSERT_EQ(test, rdmablk_addr_parse(&init_net, "fe80:0::0:1%3", 7471, &b), 0);
	KUNIT_EXPECT_TRUE(test, rdmablk_addr_equal(&a, &b));
	KUNIT_ASSERT_EQ(test, rdmablk_addr_parse(&init_net, "fe80::1%4", 7471, &b), 0);
	KUNIT_EXPECT_FALSE(test, rdmablk_addr_equal(&a, &b));
}

static struct kunit_case rdmablk_addr_test_cases[] = {
	KUNIT_CASE_PARAM(rdmablk_addr_parse_test, addr_gen_params),
	KUNIT_CASE(rdmablk_addr_equal_test),
	{}
};

static struct kunit_suite rdmablk_addr_test_suite = {
	.name = "rdmablk-addr",
	.test_cases = rdmablk_addr_test_cases,
};
kunit_test_suite(rdmablk_addr_test_suite);
