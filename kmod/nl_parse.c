// SPDX-License-Identifier: GPL-2.0
/*
 * Strict netlink policies and request decoding. One policy per operation:
 * an attribute an operation does not take is rejected, not ignored. Every
 * rejection carries an extack message naming what to fix.
 *
 * No verbs here, so KUnit can exercise every rejection.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <net/netlink.h>

#include "rdmablk.h"

/* GET_INFO takes no attributes. */
const struct nla_policy rdmablk_nl_info_policy[RDMABLK_ATTR_MAX + 1] = {
};

const struct nla_policy rdmablk_nl_listen_policy[RDMABLK_ATTR_MAX + 1] = {
	[RDMABLK_ATTR_ADDR] = { .type = NLA_NUL_STRING,
				.len = RDMABLK_ADDR_MAX_LEN - 1 },
	[RDMABLK_ATTR_PORT] = NLA_POLICY_MIN(NLA_U16, 1),
};

/**
 * rdmablk_nl_parse_listen() - decode a LISTEN_ADD or LISTEN_DEL request
 * @net: namespace of the requester, for IPv6 scope names
 * @attrs: attributes validated against rdmablk_nl_listen_policy
 * @req: result
 * @extack: where a rejection is explained
 *
 * Return: 0, or -EINVAL with @extack set.
 */
int rdmablk_nl_parse_listen(struct net *net, struct nlattr **attrs,
			    struct rdmablk_listen_req *req,
			    struct netlink_ext_ack *extack)
{
	u16 port = RDMABLK_DEFAULT_PORT;

	if (NL_REQ_ATTR_CHECK(extack, NULL, attrs, RDMABLK_ATTR_ADDR)) {
		NL_SET_ERR_MSG(extack,
			       "missing RDMABLK_ATTR_ADDR: give the IPv4 or IPv6 address to listen on");
		return -EINVAL;
	}
	if (attrs[RDMABLK_ATTR_PORT])
		port = nla_get_u16(attrs[RDMABLK_ATTR_PORT]);

	if (rdmablk_addr_parse(net, nla_data(attrs[RDMABLK_ATTR_ADDR]), port,
			       &req->addr)) {
		NL_SET_ERR_MSG_ATTR(extack, attrs[RDMABLK_ATTR_ADDR],
				    "not an IPv4 or IPv6 address literal (host names are not resolved)");
		return -EINVAL;
	}
	return 0;
}
