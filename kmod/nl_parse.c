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
#include <linux/stringify.h>
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
			       "missing RDMABLK_ATTR_ADDR: give an IPv4 or IPv6 address");
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

/* An export's name, as EXPORT_ADD, EXPORT_DEL and ATTACH take it. */
#define RDMABLK_NL_EXPORT_NAME_POLICY	{ .type = NLA_NUL_STRING, \
					  .len = RDMABLK_EXPORT_NAME_MAX - 1 }

static const struct nla_policy rdmablk_nl_allowed_policy[RDMABLK_ATTR_MAX + 1] = {
	[RDMABLK_ATTR_HOSTID] = NLA_POLICY_EXACT_LEN(RDMABLK_UUID_SIZE),
};

const struct nla_policy rdmablk_nl_export_policy[RDMABLK_ATTR_MAX + 1] = {
	[RDMABLK_ATTR_EXPORT_NAME] = RDMABLK_NL_EXPORT_NAME_POLICY,
	[RDMABLK_ATTR_EXPORT_PATH] = { .type = NLA_NUL_STRING,
				       .len = RDMABLK_PATH_MAX - 1 },
	[RDMABLK_ATTR_UUID] = NLA_POLICY_EXACT_LEN(RDMABLK_UUID_SIZE),
	[RDMABLK_ATTR_READ_ONLY] = { .type = NLA_FLAG },
	[RDMABLK_ATTR_AUTH_REQUIRED] = { .type = NLA_FLAG },
	[RDMABLK_ATTR_ALLOWED_HOSTS] =
		NLA_POLICY_NESTED(rdmablk_nl_allowed_policy),
};

/* EXPORT_DEL names the export, nothing else. */
const struct nla_policy rdmablk_nl_export_del_policy[RDMABLK_ATTR_MAX + 1] = {
	[RDMABLK_ATTR_EXPORT_NAME] = RDMABLK_NL_EXPORT_NAME_POLICY,
};

/* A secret: as long as the digest of the HMAC it is for (32, 48, 64). */
#define RDMABLK_NL_KEY_POLICY	NLA_POLICY_RANGE(NLA_BINARY, 32, \
						 RDMABLK_AUTH_MAC_MAX)

/* Not const: the 6.1 policy holds a non-const pointer to them. */
static struct netlink_range_validation rdmablk_tmo_range = {
	.min = 1,
	.max = RDMABLK_MAX_TMO,
};

static struct netlink_range_validation_signed rdmablk_tmo_range_signed = {
	.min = RDMABLK_TMO_OFF,
	.max = RDMABLK_MAX_TMO,
};

/* The recovery timeouts, taken by ATTACH and DEV_SET alike. */
#define RDMABLK_NL_TMO_POLICY						\
	[RDMABLK_ATTR_RECONNECT_DELAY] =				\
		NLA_POLICY_FULL_RANGE(NLA_U32, &rdmablk_tmo_range),	\
	[RDMABLK_ATTR_CTRL_LOSS_TMO] =					\
		NLA_POLICY_FULL_RANGE_SIGNED(NLA_S32, &rdmablk_tmo_range_signed), \
	[RDMABLK_ATTR_FAST_IO_FAIL_TMO] =				\
		NLA_POLICY_FULL_RANGE_SIGNED(NLA_S32, &rdmablk_tmo_range_signed), \
	[RDMABLK_ATTR_KEEPALIVE_TMO] = NLA_POLICY_RANGE(NLA_U32, 1, 3600)

#define RDMABLK_NL_MP_POLICY						\
	NLA_POLICY_RANGE(NLA_U32, RDMABLK_MP_QUEUE_DEPTH, __RDMABLK_MP_MAX - 1)

const struct nla_policy rdmablk_nl_attach_policy[RDMABLK_ATTR_MAX + 1] = {
	[RDMABLK_ATTR_ADDR] = { .type = NLA_NUL_STRING,
				.len = RDMABLK_ADDR_MAX_LEN - 1 },
	[RDMABLK_ATTR_PORT] = NLA_POLICY_MIN(NLA_U16, 1),
	[RDMABLK_ATTR_EXPORT_NAME] = RDMABLK_NL_EXPORT_NAME_POLICY,
	[RDMABLK_ATTR_HOSTID] = NLA_POLICY_EXACT_LEN(RDMABLK_UUID_SIZE),
	[RDMABLK_ATTR_NR_QUEUES] = NLA_POLICY_RANGE(NLA_U32, 1,
						    RDMABLK_MAX_QUEUES),
	[RDMABLK_ATTR_QUEUE_DEPTH] = NLA_POLICY_RANGE(NLA_U32, 1,
						      RDMABLK_MAX_QUEUE_DEPTH),
	RDMABLK_NL_TMO_POLICY,
	[RDMABLK_ATTR_AUTH_KEY] = RDMABLK_NL_KEY_POLICY,
	[RDMABLK_ATTR_AUTH_TARGET_KEY] = RDMABLK_NL_KEY_POLICY,
	[RDMABLK_ATTR_NR_POLL_QUEUES] = NLA_POLICY_MAX(NLA_U32,
						       RDMABLK_MAX_QUEUES - 1),
	[RDMABLK_ATTR_MP_POLICY] = RDMABLK_NL_MP_POLICY,
};

/* PATH_ADD, PATH_DEL and PATH_SET: which device, which path. */
const struct nla_policy rdmablk_nl_path_policy[RDMABLK_ATTR_MAX + 1] = {
	[RDMABLK_ATTR_DEV_INDEX] = { .type = NLA_U32 },
	[RDMABLK_ATTR_ADDR] = { .type = NLA_NUL_STRING,
				.len = RDMABLK_ADDR_MAX_LEN - 1 },
	[RDMABLK_ATTR_PORT] = NLA_POLICY_MIN(NLA_U16, 1),
	[RDMABLK_ATTR_PATH_STANDBY] = NLA_POLICY_MAX(NLA_U8, 1),
};

const struct nla_policy rdmablk_nl_host_policy[RDMABLK_ATTR_MAX + 1] = {
	[RDMABLK_ATTR_HOSTID] = NLA_POLICY_EXACT_LEN(RDMABLK_UUID_SIZE),
	[RDMABLK_ATTR_AUTH_KEY] = RDMABLK_NL_KEY_POLICY,
	[RDMABLK_ATTR_AUTH_TARGET_KEY] = RDMABLK_NL_KEY_POLICY,
	[RDMABLK_ATTR_HOST_REAUTH] = { .type = NLA_FLAG },
};

const struct nla_policy rdmablk_nl_dev_set_policy[RDMABLK_ATTR_MAX + 1] = {
	[RDMABLK_ATTR_DEV_INDEX] = { .type = NLA_U32 },
	RDMABLK_NL_TMO_POLICY,
	[RDMABLK_ATTR_MP_POLICY] = RDMABLK_NL_MP_POLICY,
	[RDMABLK_ATTR_AUTH_KEY] = RDMABLK_NL_KEY_POLICY,
	[RDMABLK_ATTR_AUTH_TARGET_KEY] = RDMABLK_NL_KEY_POLICY,
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

/* ALLOWED_HOSTS: a nest of HOSTID attributes, validated by the policy. */
static int rdmablk_nl_parse_allowed(const struct nlattr *nest,
				    struct rdmablk_export_req *req,
				    struct netlink_ext_ack *extack)
{
	const struct nlattr *attr;
	int rem;

	if (!nest)
		return 0;
	nla_for_each_nested(attr, nest, rem) {
		if (nla_type(attr) != RDMABLK_ATTR_HOSTID) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "ALLOWED_HOSTS holds HOSTID attributes only");
			return -EINVAL;
		}
		if (req->nr_allowed == RDMABLK_MAX_ALLOWED_HOSTS) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "too many allowed hosts for one export");
			return -E2BIG;
		}
		nla_memcpy(req->allowed[req->nr_allowed++], attr,
			   RDMABLK_UUID_SIZE);
	}
	return 0;
}

/**
 * rdmablk_nl_parse_export() - decode EXPORT_ADD or EXPORT_DEL
 * @attrs: attributes validated against rdmablk_nl_export_policy (add) or
 *	rdmablk_nl_export_del_policy
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
	req->auth_required = nla_get_flag(attrs[RDMABLK_ATTR_AUTH_REQUIRED]);
	return rdmablk_nl_parse_allowed(attrs[RDMABLK_ATTR_ALLOWED_HOSTS], req,
					extack);
}

/*
 * A secret, its HMAC told by its length (as in the RDMABLK-1 key strings).
 * A key of zero bytes only is refused: it is what an unset secret reads as.
 */
static int rdmablk_nl_parse_key(const struct nlattr *attr,
				struct rdmablk_key *key,
				struct netlink_ext_ack *extack)
{
	static const u8 hmacs[] = {
		RDMABLK_AUTH_HMAC_SHA256,
		RDMABLK_AUTH_HMAC_SHA384,
		RDMABLK_AUTH_HMAC_SHA512,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(hmacs); i++) {
		if (nla_len(attr) != rdmablk_auth_mac_len(hmacs[i]))
			continue;
		if (!memchr_inv(nla_data(attr), 0, nla_len(attr))) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "a key of zero bytes only is no secret: make one with rdmablkctl key generate");
			return -EINVAL;
		}
		return rdmablk_key_set(key, hmacs[i], nla_data(attr),
				       nla_len(attr));
	}
	NL_SET_ERR_MSG_ATTR(extack, attr,
			    "a key is 32, 48 or 64 bytes, for HMAC-SHA-256, -384 or -512");
	return -EINVAL;
}

/* AUTH_KEY and AUTH_TARGET_KEY; @need_key: AUTH_KEY must be there. */
static int rdmablk_nl_parse_keys(struct nlattr **attrs, bool need_key,
				 struct rdmablk_key *key,
				 struct rdmablk_key *target_key,
				 struct netlink_ext_ack *extack)
{
	int ret;

	if (!attrs[RDMABLK_ATTR_AUTH_KEY]) {
		if (need_key) {
			NL_SET_ERR_MSG(extack, "missing RDMABLK_ATTR_AUTH_KEY: the host's key");
			return -EINVAL;
		}
		if (attrs[RDMABLK_ATTR_AUTH_TARGET_KEY]) {
			NL_SET_ERR_MSG_ATTR(extack, attrs[RDMABLK_ATTR_AUTH_TARGET_KEY],
					    "a target key needs a host key: the target proves itself only to a host that authenticated");
			return -EINVAL;
		}
		return 0;
	}
	ret = rdmablk_nl_parse_key(attrs[RDMABLK_ATTR_AUTH_KEY], key, extack);
	if (!ret && attrs[RDMABLK_ATTR_AUTH_TARGET_KEY])
		ret = rdmablk_nl_parse_key(attrs[RDMABLK_ATTR_AUTH_TARGET_KEY],
					   target_key, extack);
	if (ret) {
		rdmablk_key_wipe(key);
		rdmablk_key_wipe(target_key);
	}
	return ret;
}

/* Take the timeouts present in @attrs; return which were present. */
static u32 rdmablk_nl_parse_tmo(struct nlattr **attrs, struct rdmablk_tmo *tmo)
{
	u32 mask = 0;

	if (attrs[RDMABLK_ATTR_RECONNECT_DELAY]) {
		tmo->reconnect_delay = nla_get_u32(attrs[RDMABLK_ATTR_RECONNECT_DELAY]);
		mask |= RDMABLK_TMO_SET_RECONNECT_DELAY;
	}
	if (attrs[RDMABLK_ATTR_CTRL_LOSS_TMO]) {
		tmo->ctrl_loss_tmo = nla_get_s32(attrs[RDMABLK_ATTR_CTRL_LOSS_TMO]);
		mask |= RDMABLK_TMO_SET_CTRL_LOSS;
	}
	if (attrs[RDMABLK_ATTR_FAST_IO_FAIL_TMO]) {
		tmo->fast_io_fail_tmo = nla_get_s32(attrs[RDMABLK_ATTR_FAST_IO_FAIL_TMO]);
		mask |= RDMABLK_TMO_SET_FAST_IO_FAIL;
	}
	if (attrs[RDMABLK_ATTR_KEEPALIVE_TMO]) {
		tmo->keepalive_tmo = nla_get_u32(attrs[RDMABLK_ATTR_KEEPALIVE_TMO]);
		mask |= RDMABLK_TMO_SET_KEEPALIVE;
	}
	return mask;
}

/* The target address of ATTACH or PATH_*: a unicast one. */
static int rdmablk_nl_parse_target(struct net *net, struct nlattr **attrs,
				   struct sockaddr_storage *addr,
				   struct netlink_ext_ack *extack)
{
	struct rdmablk_listen_req where;
	int ret;

	ret = rdmablk_nl_parse_listen(net, attrs, &where, extack);
	if (ret)
		return ret;
	*addr = where.addr;
	if (inet_addr_is_any((struct sockaddr *)addr)) {
		NL_SET_ERR_MSG_ATTR(extack, attrs[RDMABLK_ATTR_ADDR],
				    "attach needs the target's address, not a wildcard");
		return -EINVAL;
	}
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
	int ret;

	memset(req, 0, sizeof(*req));
	ret = rdmablk_nl_parse_target(net, attrs, &req->addr, extack);
	if (ret)
		return ret;
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
	req->nr_poll_queues = attrs[RDMABLK_ATTR_NR_POLL_QUEUES] ?
			      nla_get_u32(attrs[RDMABLK_ATTR_NR_POLL_QUEUES]) : 0;
	if (req->nr_queues + req->nr_poll_queues > RDMABLK_MAX_QUEUES) {
		NL_SET_ERR_MSG_ATTR(extack, attrs[RDMABLK_ATTR_NR_POLL_QUEUES],
				    "queues and poll queues together exceed "
				    __stringify(RDMABLK_MAX_QUEUES));
		return -EINVAL;
	}
	req->queue_depth = attrs[RDMABLK_ATTR_QUEUE_DEPTH] ?
			   nla_get_u32(attrs[RDMABLK_ATTR_QUEUE_DEPTH]) :
			   RDMABLK_DEFAULT_QUEUE_DEPTH;
	req->tmo.reconnect_delay = RDMABLK_DEFAULT_RECONNECT_DELAY;
	req->tmo.ctrl_loss_tmo = RDMABLK_DEFAULT_CTRL_LOSS_TMO;
	req->tmo.fast_io_fail_tmo = RDMABLK_TMO_OFF;
	req->tmo.keepalive_tmo = RDMABLK_DEFAULT_KEEPALIVE_TMO;
	rdmablk_nl_parse_tmo(attrs, &req->tmo);
	req->policy = attrs[RDMABLK_ATTR_MP_POLICY] ?
		      nla_get_u32(attrs[RDMABLK_ATTR_MP_POLICY]) :
		      RDMABLK_MP_QUEUE_DEPTH;
	return rdmablk_nl_parse_keys(attrs, false, &req->key, &req->target_key,
				     extack);
}

/**
 * rdmablk_nl_parse_path() - decode a PATH_ADD, PATH_DEL or PATH_SET request
 * @net: namespace of the requester, for IPv6 scope names
 * @attrs: attributes validated against rdmablk_nl_path_policy
 * @cmd: RDMABLK_CMD_PATH_*
 * @req: result
 * @extack: where a rejection is explained
 *
 * Return: 0, or -EINVAL with @extack set.
 */
int rdmablk_nl_parse_path(struct net *net, struct nlattr **attrs, int cmd,
			  struct rdmablk_path_req *req,
			  struct netlink_ext_ack *extack)
{
	int ret;

	memset(req, 0, sizeof(*req));
	if (NL_REQ_ATTR_CHECK(extack, NULL, attrs, RDMABLK_ATTR_DEV_INDEX)) {
		NL_SET_ERR_MSG(extack,
			       "missing RDMABLK_ATTR_DEV_INDEX: which rdmablkN the path leads to");
		return -EINVAL;
	}
	req->index = nla_get_u32(attrs[RDMABLK_ATTR_DEV_INDEX]);
	ret = rdmablk_nl_parse_target(net, attrs, &req->addr, extack);
	if (ret)
		return ret;
	if (attrs[RDMABLK_ATTR_PATH_STANDBY]) {
		if (cmd == RDMABLK_CMD_PATH_DEL) {
			NL_SET_ERR_MSG_ATTR(extack, attrs[RDMABLK_ATTR_PATH_STANDBY],
					    "removing a path takes no standby setting");
			return -EINVAL;
		}
		req->has_standby = true;
		req->standby = nla_get_u8(attrs[RDMABLK_ATTR_PATH_STANDBY]);
	} else if (cmd == RDMABLK_CMD_PATH_SET) {
		NL_SET_ERR_MSG(extack, "missing RDMABLK_ATTR_PATH_STANDBY: nothing to change");
		return -EINVAL;
	}
	return 0;
}

/**
 * rdmablk_nl_parse_dev_set() - decode DEV_SET
 * @attrs: attributes validated against rdmablk_nl_dev_set_policy
 * @req: result
 * @extack: where a rejection is explained
 *
 * Return: 0, or -EINVAL with @extack set.
 */
int rdmablk_nl_parse_dev_set(struct nlattr **attrs,
			     struct rdmablk_dev_set_req *req,
			     struct netlink_ext_ack *extack)
{
	int ret;

	memset(req, 0, sizeof(*req));
	if (NL_REQ_ATTR_CHECK(extack, NULL, attrs, RDMABLK_ATTR_DEV_INDEX)) {
		NL_SET_ERR_MSG(extack, "missing RDMABLK_ATTR_DEV_INDEX: which rdmablkN to change");
		return -EINVAL;
	}
	req->index = nla_get_u32(attrs[RDMABLK_ATTR_DEV_INDEX]);
	req->mask = rdmablk_nl_parse_tmo(attrs, &req->tmo);
	ret = rdmablk_nl_parse_keys(attrs, false, &req->key, &req->target_key,
				    extack);
	if (ret)
		return ret;
	if (req->key.hmac)
		req->mask |= RDMABLK_DEV_SET_KEYS;
	if (req->target_key.hmac)
		req->mask |= RDMABLK_DEV_SET_TARGET_KEY;
	if (attrs[RDMABLK_ATTR_MP_POLICY]) {
		req->mask |= RDMABLK_DEV_SET_POLICY;
		req->policy = nla_get_u32(attrs[RDMABLK_ATTR_MP_POLICY]);
	}
	if (!req->mask) {
		NL_SET_ERR_MSG(extack,
			       "nothing to change: give a timeout, a key or a path policy to set");
		return -EINVAL;
	}
	return 0;
}

/**
 * rdmablk_nl_parse_host() - decode HOST_SET or HOST_DEL
 * @attrs: attributes validated against rdmablk_nl_host_policy
 * @set: HOST_SET, which needs a key
 * @req: result; wipe it with rdmablk_host_req_wipe()
 * @extack: where a rejection is explained
 *
 * Return: 0, or -EINVAL with @extack set (and @req wiped).
 */
int rdmablk_nl_parse_host(struct nlattr **attrs, bool set,
			  struct rdmablk_host_req *req,
			  struct netlink_ext_ack *extack)
{
	memset(req, 0, sizeof(*req));
	if (NL_REQ_ATTR_CHECK(extack, NULL, attrs, RDMABLK_ATTR_HOSTID)) {
		NL_SET_ERR_MSG(extack, "missing RDMABLK_ATTR_HOSTID: which host");
		return -EINVAL;
	}
	nla_memcpy(req->hostid, attrs[RDMABLK_ATTR_HOSTID], sizeof(req->hostid));
	if (!set) {
		if (attrs[RDMABLK_ATTR_AUTH_KEY] ||
		    attrs[RDMABLK_ATTR_AUTH_TARGET_KEY] ||
		    attrs[RDMABLK_ATTR_HOST_REAUTH]) {
			NL_SET_ERR_MSG(extack,
				       "HOST_DEL takes a host id only (it always closes the host's connections)");
			return -EINVAL;
		}
		return 0;
	}
	req->reauth = nla_get_flag(attrs[RDMABLK_ATTR_HOST_REAUTH]);
	return rdmablk_nl_parse_keys(attrs, true, &req->key, &req->target_key,
				     extack);
}
