// SPDX-License-Identifier: GPL-2.0
/*
 * Strict netlink policies and request decoding. One policy per operation:
 * an attribute an operation does not take is rejected, not ignored. Every
 * rejection carries an extack message naming what to fix.
 *
 * No verbs here, so KUnit can exercise every rejection.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/inet.h>
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

const struct nla_policy rdmablk_nl_export_policy[RDMABLK_ATTR_MAX + 1] = {
	[RDMABLK_ATTR_EXPORT_NAME] = { .type = NLA_NUL_STRING,
				       .len = RDMABLK_EXPORT_NAME_MAX - 1 },
	[RDMABLK_ATTR_EXPORT_PATH] = { .type = NLA_NUL_STRING,
				       .len = RDMABLK_PATH_MAX - 1 },
	[RDMABLK_ATTR_UUID] = NLA_POLICY_EXACT_LEN(RDMABLK_UUID_SIZE),
	[RDMABLK_ATTR_READ_ONLY] = { .type = NLA_FLAG },
};

const struct nla_policy rdmablk_nl_attach_policy[RDMABLK_ATTR_MAX + 1] = {
	[RDMABLK_ATTR_ADDR] = { .type = NLA_NUL_STRING,
				.len = RDMABLK_ADDR_MAX_LEN - 1 },
	[RDMABLK_ATTR_PORT] = NLA_POLICY_MIN(NLA_U16, 1),
	[RDMABLK_ATTR_EXPORT_NAME] = { .type = NLA_NUL_STRING,
				       .len = RDMABLK_EXPORT_NAME_MAX - 1 },
	[RDMABLK_ATTR_HOSTID] = NLA_POLICY_EXACT_LEN(RDMABLK_UUID_SIZE),
	[RDMABLK_ATTR_NR_QUEUES] = NLA_POLICY_RANGE(NLA_U32, 1,
						    RDMABLK_MAX_QUEUES),
	[RDMABLK_ATTR_QUEUE_DEPTH] = NLA_POLICY_RANGE(NLA_U32, 1,
						      RDMABLK_MAX_QUEUE_DEPTH),
};

const struct nla_policy rdmablk_nl_detach_policy[RDMABLK_ATTR_MAX + 1] = {
	[RDMABLK_ATTR_DEV_INDEX] = { .type = NLA_U32 },
};

static int rdmablk_nl_parse_name(struct nlattr **attrs, char *name,
				 struct netlink_ext_ack *extack)
{
	if (NL_REQ_ATTR_CHECK(extack, NULL, attrs, RDMABLK_ATTR_EXPORT_NAME)) {
		NL_SET_ERR_MSG(extack, "missing RDMABLK_ATTR_EXPORT_NAME: name the export");
		return -EINVAL;
	}
	nla_strscpy(name, attrs[RDMABLK_ATTR_EXPORT_NAME],
		    RDMABLK_EXPORT_NAME_MAX);
	if (!rdmablk_export_name_valid(name)) {
		NL_SET_ERR_MSG_ATTR(extack, attrs[RDMABLK_ATTR_EXPORT_NAME],
				    "export names use letters, digits and . _ : - only");
		return -EINVAL;
	}
	return 0;
}

/**
 * rdmablk_nl_parse_export() - decode EXPORT_ADD or EXPORT_DEL
 * @attrs: attributes validated against rdmablk_nl_export_policy
 * @add: EXPORT_ADD, which needs a path and a UUID
 * @req: result
 * @extack: where a rejection is explained
 *
 * Return: 0, or -EINVAL with @extack set.
 */
int rdmablk_nl_parse_export(struct nlattr **attrs, bool add,
			    struct rdmablk_export_req *req,
			    struct netlink_ext_ack *extack)
{
	static const u8 nil[RDMABLK_UUID_SIZE];
	int ret;

	memset(req, 0, sizeof(*req));
	ret = rdmablk_nl_parse_name(attrs, req->name, extack);
	if (ret || !add)
		return ret;

	if (NL_REQ_ATTR_CHECK(extack, NULL, attrs, RDMABLK_ATTR_EXPORT_PATH)) {
		NL_SET_ERR_MSG(extack,
			       "missing RDMABLK_ATTR_EXPORT_PATH: give the block device to export");
		return -EINVAL;
	}
	nla_strscpy(req->path, attrs[RDMABLK_ATTR_EXPORT_PATH],
		    sizeof(req->path));
	if (req->path[0] != '/') {
		NL_SET_ERR_MSG_ATTR(extack, attrs[RDMABLK_ATTR_EXPORT_PATH],
				    "the block device path must be absolute");
		return -EINVAL;
	}
	if (NL_REQ_ATTR_CHECK(extack, NULL, attrs, RDMABLK_ATTR_UUID)) {
		NL_SET_ERR_MSG(extack,
			       "missing RDMABLK_ATTR_UUID: every export has a persistent UUID");
		return -EINVAL;
	}
	nla_memcpy(req->uuid, attrs[RDMABLK_ATTR_UUID], sizeof(req->uuid));
	if (!memcmp(req->uuid, nil, sizeof(nil))) {
		NL_SET_ERR_MSG_ATTR(extack, attrs[RDMABLK_ATTR_UUID],
				    "the nil UUID cannot identify an export");
		return -EINVAL;
	}
	req->read_only = nla_get_flag(attrs[RDMABLK_ATTR_READ_ONLY]);
	return 0;
}

/**
 * rdmablk_nl_parse_attach() - decode ATTACH
 * @net: namespace of the requester, for IPv6 scope names
 * @attrs: attributes validated against rdmablk_nl_attach_policy
 * @req: result
 * @extack: where a rejection is explained
 *
 * Return: 0, or -EINVAL with @extack set.
 */
int rdmablk_nl_parse_attach(struct net *net, struct nlattr **attrs,
			    struct rdmablk_attach_req *req,
			    struct netlink_ext_ack *extack)
{
	struct rdmablk_listen_req where;
	int ret;

	memset(req, 0, sizeof(*req));
	ret = rdmablk_nl_parse_listen(net, attrs, &where, extack);
	if (ret)
		return ret;
	req->addr = where.addr;
	if (inet_addr_is_any((struct sockaddr *)&req->addr)) {
		NL_SET_ERR_MSG_ATTR(extack, attrs[RDMABLK_ATTR_ADDR],
				    "attach needs the target's address, not a wildcard");
		return -EINVAL;
	}
	ret = rdmablk_nl_parse_name(attrs, req->export_name, extack);
	if (ret)
		return ret;
	if (NL_REQ_ATTR_CHECK(extack, NULL, attrs, RDMABLK_ATTR_HOSTID)) {
		NL_SET_ERR_MSG(extack, "missing RDMABLK_ATTR_HOSTID: the host's identity");
		return -EINVAL;
	}
	nla_memcpy(req->hostid, attrs[RDMABLK_ATTR_HOSTID], sizeof(req->hostid));
	req->nr_queues = attrs[RDMABLK_ATTR_NR_QUEUES] ?
			 nla_get_u32(attrs[RDMABLK_ATTR_NR_QUEUES]) : 0;
	req->queue_depth = attrs[RDMABLK_ATTR_QUEUE_DEPTH] ?
			   nla_get_u32(attrs[RDMABLK_ATTR_QUEUE_DEPTH]) :
			   RDMABLK_DEFAULT_QUEUE_DEPTH;
	return 0;
}
