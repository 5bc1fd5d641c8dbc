// SPDX-License-Identifier: GPL-2.0
/*
 * The "rdmablk" generic netlink family: operations and events.
 *
 * Every operation is admin-only and strictly validated against its own
 * policy (nl_parse.c). Operations run under genl_mutex (no parallel_ops),
 * which serialises them against each other and against unregistration.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <net/genetlink.h>

#include <linux/rdmablk_proto.h>

#include "rdmablk.h"

enum rdmablk_mcgrp {
	RDMABLK_MCGRP_EVENTS,
};

static const struct genl_multicast_group rdmablk_mcgrps[] = {
	[RDMABLK_MCGRP_EVENTS] = { .name = RDMABLK_GENL_MCGRP_EVENTS },
};

static struct genl_family rdmablk_genl_family;

/* Set while the family is registered; events are dropped otherwise. */
static bool rdmablk_nl_up;

static int rdmablk_nl_get_info(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;

	hdr = genlmsg_put_reply(msg, info, &rdmablk_genl_family, 0,
				RDMABLK_CMD_GET_INFO);
	if (!hdr)
		goto out_free;

	if (nla_put_string(msg, RDMABLK_ATTR_MODULE_VERSION, RDMABLK_VERSION) ||
	    nla_put_u32(msg, RDMABLK_ATTR_GENL_VERSION, RDMABLK_GENL_VERSION) ||
	    nla_put_u32(msg, RDMABLK_ATTR_PROTO_VERSION, RDMABLK_PROTO_VERSION) ||
	    nla_put_u64_64bit(msg, RDMABLK_ATTR_FEATURES, RDMABLK_FEAT_LISTEN,
			      RDMABLK_ATTR_PAD))
		goto out_free;

	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

out_free:
	nlmsg_free(msg);
	return -EMSGSIZE;
}

static int rdmablk_nl_put_addr(struct sk_buff *msg,
			       const struct sockaddr_storage *addr)
{
	char buf[RDMABLK_ADDR_MAX_LEN];

	rdmablk_addr_format(addr, buf, sizeof(buf));
	if (nla_put_string(msg, RDMABLK_ATTR_ADDR, buf) ||
	    nla_put_u16(msg, RDMABLK_ATTR_PORT, rdmablk_addr_port(addr)))
		return -EMSGSIZE;
	return 0;
}

static int rdmablk_nl_listen_add(struct sk_buff *skb, struct genl_info *info)
{
	struct rdmablk_listen_req req;
	int ret;

	ret = rdmablk_nl_parse_listen(genl_info_net(info), info->attrs, &req,
				      info->extack);
	if (ret)
		return ret;
	return rdmablk_listener_add(&req.addr, info->extack);
}

static int rdmablk_nl_listen_del(struct sk_buff *skb, struct genl_info *info)
{
	struct rdmablk_listen_req req;
	int ret;

	ret = rdmablk_nl_parse_listen(genl_info_net(info), info->attrs, &req,
				      info->extack);
	if (ret)
		return ret;
	return rdmablk_listener_del(&req.addr, info->extack);
}

/* cb->args[0]: index of the next listener to dump. */
static int rdmablk_nl_listen_dump(struct sk_buff *skb,
				  struct netlink_callback *cb)
{
	struct rdmablk_listener_info li;
	unsigned long idx = cb->args[0];
	void *hdr;

	for (; !rdmablk_listener_get(idx, &li); idx++) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &rdmablk_genl_family,
				  NLM_F_MULTI, RDMABLK_CMD_LISTEN_GET);
		if (!hdr)
			break;
		if (rdmablk_nl_put_addr(skb, &li.addr) ||
		    nla_put_u32(skb, RDMABLK_ATTR_LISTENER_STATE, li.state)) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
	cb->args[0] = idx;
	return skb->len;
}

/**
 * rdmablk_nl_event_listener() - tell the events group about a listener
 * @event: RDMABLK_EVENT_LISTENER_*
 * @addr: the listener's address
 *
 * Best effort: an event nobody listens to, or that cannot be allocated, is
 * dropped; the state can always be read back with a dump.
 */
void rdmablk_nl_event_listener(enum rdmablk_event event,
			       const struct sockaddr_storage *addr)
{
	struct sk_buff *msg;
	void *hdr;

	if (!READ_ONCE(rdmablk_nl_up))
		return;

	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return;
	hdr = genlmsg_put(msg, 0, 0, &rdmablk_genl_family, 0,
			  RDMABLK_CMD_EVENT);
	if (!hdr)
		goto out_free;
	if (nla_put_u32(msg, RDMABLK_ATTR_EVENT, event) ||
	    rdmablk_nl_put_addr(msg, addr))
		goto out_free;
	genlmsg_end(msg, hdr);
	genlmsg_multicast(&rdmablk_genl_family, msg, 0, RDMABLK_MCGRP_EVENTS,
			  GFP_KERNEL);
	return;

out_free:
	nlmsg_free(msg);
}

static const struct genl_ops rdmablk_genl_ops[] = {
	{
		.cmd = RDMABLK_CMD_GET_INFO,
		.flags = GENL_ADMIN_PERM,
		.policy = rdmablk_nl_info_policy,
		.maxattr = RDMABLK_ATTR_MAX,
		.doit = rdmablk_nl_get_info,
	},
	{
		.cmd = RDMABLK_CMD_LISTEN_ADD,
		.flags = GENL_ADMIN_PERM,
		.policy = rdmablk_nl_listen_policy,
		.maxattr = RDMABLK_ATTR_MAX,
		.doit = rdmablk_nl_listen_add,
	},
	{
		.cmd = RDMABLK_CMD_LISTEN_DEL,
		.flags = GENL_ADMIN_PERM,
		.policy = rdmablk_nl_listen_policy,
		.maxattr = RDMABLK_ATTR_MAX,
		.doit = rdmablk_nl_listen_del,
	},
	{
		.cmd = RDMABLK_CMD_LISTEN_GET,
		.flags = GENL_ADMIN_PERM,
		.policy = rdmablk_nl_info_policy,
		.maxattr = RDMABLK_ATTR_MAX,
		.dumpit = rdmablk_nl_listen_dump,
	},
};

static struct genl_family rdmablk_genl_family __ro_after_init = {
	.name = RDMABLK_GENL_NAME,
	.version = RDMABLK_GENL_VERSION,
	.netnsok = false,
	.module = THIS_MODULE,
	.ops = rdmablk_genl_ops,
	.n_ops = ARRAY_SIZE(rdmablk_genl_ops),
	.resv_start_op = RDMABLK_CMD_GET_INFO,
	.mcgrps = rdmablk_mcgrps,
	.n_mcgrps = ARRAY_SIZE(rdmablk_mcgrps),
};

int rdmablk_nl_init(void)
{
	int ret;

	ret = genl_register_family(&rdmablk_genl_family);
	if (ret)
		return ret;
	WRITE_ONCE(rdmablk_nl_up, true);
	return 0;
}

void rdmablk_nl_exit(void)
{
	WRITE_ONCE(rdmablk_nl_up, false);
	genl_unregister_family(&rdmablk_genl_family);
}
