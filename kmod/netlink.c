// SPDX-License-Identifier: GPL-2.0
/*
 * The "rdmablk" generic netlink family: operations and events.
 *
 * Every operation is admin-only (CAP_NET_ADMIN), and so is joining the
 * events group; each is strictly validated against its own policy
 * (nl_parse.c). EXPORT_ADD opens a device only for a caller who could open
 * it itself (export.c). Operations run in parallel (attach may wait seconds
 * for a target); the objects they touch have their own locks.
 * Unregistration waits for running operations.
 *
 * The commands reach the roles only through the operations they registered
 * (roles.h, which says when registration may happen); a command whose role
 * is not registered fails with -EOPNOTSUPP. The roles send their events
 * through rdmablk_nl_event_*().
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <net/genetlink.h>

#include <linux/rdmablk_proto.h>

#include "roles.h"

enum rdmablk_mcgrp {
	RDMABLK_MCGRP_EVENTS,
};

/* The events say what the admin-only dumps say: joined with CAP_NET_ADMIN. */
static const struct genl_multicast_group rdmablk_mcgrps[] = {
	[RDMABLK_MCGRP_EVENTS] = { .name = RDMABLK_GENL_MCGRP_EVENTS,
				   .flags = GENL_MCAST_CAP_NET_ADMIN },
};

static struct genl_family rdmablk_genl_family;

/* Room for the largest single message: a device with its queues and paths. */
#define RDMABLK_NL_MSG_SIZE	12288

/*
 * Set while the family is registered; events are dropped otherwise, and
 * the roles may (un)register only while it is clear. rdmablk_nl_up_sem
 * (read: an event's header put and its multicast; write: the flag
 * cleared at exit, before the family is unregistered) keeps an event from
 * reaching a family id or group that unregistration has released.
 */
static bool rdmablk_nl_up;
static DECLARE_RWSEM(rdmablk_nl_up_sem);

/*
 * The roles' operations, NULL for a role not registered. Written only
 * while the family is not registered (roles.h), read without a lock.
 */
static const struct rdmablk_target_ops *rdmablk_nl_target;
static const struct rdmablk_host_ops *rdmablk_nl_host;

/**
 * rdmablk_nl_register_target() - give the commands of the target role
 * @ops: what they call; must stay valid until unregistered
 *
 * Only while the family is not registered: at the target role's init.
 *
 * Return: 0, or -EBUSY when called at another time or twice.
 */
int rdmablk_nl_register_target(const struct rdmablk_target_ops *ops)
{
	if (WARN_ON_ONCE(READ_ONCE(rdmablk_nl_up) || rdmablk_nl_target))
		return -EBUSY;
	rdmablk_nl_target = ops;
	return 0;
}

/**
 * rdmablk_nl_unregister_target() - take the target role's commands back
 * @ops: as registered
 *
 * Only while the family is not registered: at the target role's exit.
 */
void rdmablk_nl_unregister_target(const struct rdmablk_target_ops *ops)
{
	WARN_ON_ONCE(READ_ONCE(rdmablk_nl_up) || rdmablk_nl_target != ops);
	rdmablk_nl_target = NULL;
}

/**
 * rdmablk_nl_register_host() - give the commands of the initiator role
 * @ops: what they call; must stay valid until unregistered
 *
 * Only while the family is not registered: at the initiator role's init.
 *
 * Return: 0, or -EBUSY when called at another time or twice.
 */
int rdmablk_nl_register_host(const struct rdmablk_host_ops *ops)
{
	if (WARN_ON_ONCE(READ_ONCE(rdmablk_nl_up) || rdmablk_nl_host))
		return -EBUSY;
	rdmablk_nl_host = ops;
	return 0;
}

/**
 * rdmablk_nl_unregister_host() - take the initiator role's commands back
 * @ops: as registered
 *
 * Only while the family is not registered: at the initiator role's exit.
 */
void rdmablk_nl_unregister_host(const struct rdmablk_host_ops *ops)
{
	WARN_ON_ONCE(READ_ONCE(rdmablk_nl_up) || rdmablk_nl_host != ops);
	rdmablk_nl_host = NULL;
}

/* The target role's operations, or NULL with @extack saying why. */
static const struct rdmablk_target_ops *
rdmablk_nl_target_ops(struct netlink_ext_ack *extack)
{
	if (!rdmablk_nl_target)
		NL_SET_ERR_MSG(extack, "the target role is not available");
	return rdmablk_nl_target;
}

/* The initiator role's operations, or NULL with @extack saying why. */
static const struct rdmablk_host_ops *
rdmablk_nl_host_ops(struct netlink_ext_ack *extack)
{
	if (!rdmablk_nl_host)
		NL_SET_ERR_MSG(extack, "the initiator role is not available");
	return rdmablk_nl_host;
}

static int rdmablk_nl_get_info(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;
	u64 features = 0;
	void *hdr;

	if (rdmablk_nl_target)
		features |= RDMABLK_FEAT_LISTEN | RDMABLK_FEAT_EXPORT |
			    RDMABLK_FEAT_AUTH;
	if (rdmablk_nl_host)
		features |= RDMABLK_FEAT_ATTACH | RDMABLK_FEAT_AUTH |
			    RDMABLK_FEAT_POLL | RDMABLK_FEAT_MULTIPATH;

	msg = genlmsg_new(RDMABLK_NL_MSG_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;

	hdr = genlmsg_put_reply(msg, info, &rdmablk_genl_family, 0,
				RDMABLK_CMD_GET_INFO);
	if (!hdr)
		goto out_free;

	if (nla_put_string(msg, RDMABLK_ATTR_MODULE_VERSION, RDMABLK_VERSION) ||
	    nla_put_u32(msg, RDMABLK_ATTR_GENL_VERSION, RDMABLK_GENL_VERSION) ||
	    nla_put_u32(msg, RDMABLK_ATTR_PROTO_VERSION, RDMABLK_PROTO_VERSION) ||
	    nla_put_u64_64bit(msg, RDMABLK_ATTR_FEATURES, features,
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

static struct sk_buff *rdmablk_nl_event_new(enum rdmablk_event event,
					    void **hdr)
{
	struct sk_buff *msg = NULL;

	down_read(&rdmablk_nl_up_sem);
	if (!rdmablk_nl_up)
		goto out;
	msg = genlmsg_new(RDMABLK_NL_MSG_SIZE, GFP_KERNEL);
	if (!msg)
		goto out;
	*hdr = genlmsg_put(msg, 0, 0, &rdmablk_genl_family, 0,
			   RDMABLK_CMD_EVENT);
	if (!*hdr || nla_put_u32(msg, RDMABLK_ATTR_EVENT, event)) {
		nlmsg_free(msg);
		msg = NULL;
	}
out:
	up_read(&rdmablk_nl_up_sem);
	return msg;
}

/* Dropped if the family began to go away since rdmablk_nl_event_new(). */
static void rdmablk_nl_event_send(struct sk_buff *msg, void *hdr)
{
	genlmsg_end(msg, hdr);
	down_read(&rdmablk_nl_up_sem);
	if (rdmablk_nl_up)
		genlmsg_multicast(&rdmablk_genl_family, msg, 0,
				  RDMABLK_MCGRP_EVENTS, GFP_KERNEL);
	else
		nlmsg_free(msg);
	up_read(&rdmablk_nl_up_sem);
}

static int rdmablk_nl_listen_add(struct sk_buff *skb, struct genl_info *info)
{
	const struct rdmablk_target_ops *ops = rdmablk_nl_target_ops(info->extack);
	struct rdmablk_listen_req req;
	int ret;

	if (!ops)
		return -EOPNOTSUPP;
	ret = rdmablk_nl_parse_listen(genl_info_net(info), info->attrs, &req,
				      info->extack);
	if (ret)
		return ret;
	return ops->listener_add(&req.addr, info->extack);
}

static int rdmablk_nl_listen_del(struct sk_buff *skb, struct genl_info *info)
{
	const struct rdmablk_target_ops *ops = rdmablk_nl_target_ops(info->extack);
	struct rdmablk_listen_req req;
	int ret;

	if (!ops)
		return -EOPNOTSUPP;
	ret = rdmablk_nl_parse_listen(genl_info_net(info), info->attrs, &req,
				      info->extack);
	if (ret)
		return ret;
	return ops->listener_del(&req.addr, info->extack);
}

/* cb->args[0]: the dump cursor (roles.h) of the next listener. */
static int rdmablk_nl_listen_dump(struct sk_buff *skb,
				  struct netlink_callback *cb)
{
	const struct rdmablk_target_ops *ops = rdmablk_nl_target_ops(cb->extack);
	struct rdmablk_listener_info li;
	unsigned long pos = cb->args[0], next;
	void *hdr;

	if (!ops)
		return -EOPNOTSUPP;
	for (next = pos; !ops->listener_get(&next, &li); pos = next) {
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
	cb->args[0] = pos;
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

	msg = rdmablk_nl_event_new(event, &hdr);
	if (!msg)
		return;
	if (rdmablk_nl_put_addr(msg, addr)) {
		nlmsg_free(msg);
		return;
	}
	rdmablk_nl_event_send(msg, hdr);
}

static int rdmablk_nl_export_add(struct sk_buff *skb, struct genl_info *info)
{
	const struct rdmablk_target_ops *ops = rdmablk_nl_target_ops(info->extack);
	struct rdmablk_export_req *req;
	int ret;

	if (!ops)
		return -EOPNOTSUPP;
	req = kmalloc(sizeof(*req), GFP_KERNEL);
	if (!req)
		return -ENOMEM;
	ret = rdmablk_nl_parse_export(info->attrs, true, req, info->extack);
	if (!ret)
		ret = ops->export_add(req, info->extack);
	kfree(req);
	return ret;
}

static int rdmablk_nl_export_del(struct sk_buff *skb, struct genl_info *info)
{
	const struct rdmablk_target_ops *ops = rdmablk_nl_target_ops(info->extack);
	struct rdmablk_export_req *req;
	int ret;

	if (!ops)
		return -EOPNOTSUPP;
	req = kmalloc(sizeof(*req), GFP_KERNEL);
	if (!req)
		return -ENOMEM;
	ret = rdmablk_nl_parse_export(info->attrs, false, req, info->extack);
	if (!ret)
		ret = ops->export_del(req->name, info->extack);
	kfree(req);
	return ret;
}

static int rdmablk_nl_put_allowed(struct sk_buff *msg,
				  const struct rdmablk_export_info *ei)
{
	struct nlattr *nest;
	u32 i;

	if (!ei->nr_allowed)
		return 0;
	nest = nla_nest_start(msg, RDMABLK_ATTR_ALLOWED_HOSTS);
	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < ei->nr_allowed; i++) {
		if (nla_put(msg, RDMABLK_ATTR_HOSTID, RDMABLK_UUID_SIZE,
			    ei->allowed[i])) {
			nla_nest_cancel(msg, nest);
			return -EMSGSIZE;
		}
	}
	nla_nest_end(msg, nest);
	return 0;
}

/* cb->args[0]: the dump cursor (roles.h) of the next export. */
static int rdmablk_nl_export_dump(struct sk_buff *skb,
				  struct netlink_callback *cb)
{
	const struct rdmablk_target_ops *ops = rdmablk_nl_target_ops(cb->extack);
	unsigned long pos = cb->args[0], next;
	struct rdmablk_export_info *ei;
	void *hdr;

	if (!ops)
		return -EOPNOTSUPP;
	ei = kmalloc(sizeof(*ei), GFP_KERNEL);
	if (!ei)
		return -ENOMEM;
	for (next = pos; !ops->export_get(&next, ei); pos = next) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &rdmablk_genl_family,
				  NLM_F_MULTI, RDMABLK_CMD_EXPORT_GET);
		if (!hdr)
			break;
		if (nla_put_string(skb, RDMABLK_ATTR_EXPORT_NAME, ei->name) ||
		    nla_put_string(skb, RDMABLK_ATTR_EXPORT_PATH, ei->path) ||
		    nla_put(skb, RDMABLK_ATTR_UUID, RDMABLK_UUID_SIZE, ei->uuid) ||
		    (ei->read_only && nla_put_flag(skb, RDMABLK_ATTR_READ_ONLY)) ||
		    nla_put_u64_64bit(skb, RDMABLK_ATTR_SIZE, ei->size,
				      RDMABLK_ATTR_PAD) ||
		    nla_put_u32(skb, RDMABLK_ATTR_LOGICAL_BLOCK_SIZE,
				ei->logical_block_size) ||
		    nla_put_u32(skb, RDMABLK_ATTR_PHYSICAL_BLOCK_SIZE,
				ei->physical_block_size) ||
		    (ei->auth_required &&
		     nla_put_flag(skb, RDMABLK_ATTR_AUTH_REQUIRED)) ||
		    nla_put_u32(skb, RDMABLK_ATTR_NR_CONNECTIONS, ei->nr_conns) ||
		    rdmablk_nl_put_allowed(skb, ei)) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
	kfree(ei);
	cb->args[0] = pos;
	return skb->len;
}

/* HOST_SET and HOST_DEL: the request, and its secrets, wiped after use. */
static int rdmablk_nl_host_change(struct genl_info *info, bool set)
{
	const struct rdmablk_target_ops *ops = rdmablk_nl_target_ops(info->extack);
	struct rdmablk_host_req *req;
	int ret;

	if (!ops)
		return -EOPNOTSUPP;
	req = kmalloc(sizeof(*req), GFP_KERNEL);
	if (!req)
		return -ENOMEM;
	ret = rdmablk_nl_parse_host(info->attrs, set, req, info->extack);
	if (!ret)
		ret = set ? ops->host_set(req, info->extack) :
			    ops->host_del(req->hostid, info->extack);
	rdmablk_host_req_wipe(req);
	kfree_sensitive(req);
	return ret;
}

static int rdmablk_nl_host_set(struct sk_buff *skb, struct genl_info *info)
{
	return rdmablk_nl_host_change(info, true);
}

static int rdmablk_nl_host_del(struct sk_buff *skb, struct genl_info *info)
{
	return rdmablk_nl_host_change(info, false);
}

/* cb->args[0]: the dump cursor (roles.h) of the next host. Never a secret. */
static int rdmablk_nl_host_dump(struct sk_buff *skb,
				struct netlink_callback *cb)
{
	const struct rdmablk_target_ops *ops = rdmablk_nl_target_ops(cb->extack);
	unsigned long pos = cb->args[0], next;
	struct rdmablk_host_info hi;
	void *hdr;

	if (!ops)
		return -EOPNOTSUPP;
	for (next = pos; !ops->host_get(&next, &hi); pos = next) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &rdmablk_genl_family,
				  NLM_F_MULTI, RDMABLK_CMD_HOST_GET);
		if (!hdr)
			break;
		if (nla_put(skb, RDMABLK_ATTR_HOSTID, RDMABLK_UUID_SIZE,
			    hi.hostid) ||
		    nla_put_u32(skb, RDMABLK_ATTR_AUTH_HMAC, hi.hmac) ||
		    (hi.target_hmac &&
		     nla_put_u32(skb, RDMABLK_ATTR_AUTH_TARGET_HMAC,
				 hi.target_hmac)) ||
		    nla_put_u64_64bit(skb, RDMABLK_ATTR_AUTH_OK, hi.auth_ok,
				      RDMABLK_ATTR_PAD) ||
		    nla_put_u64_64bit(skb, RDMABLK_ATTR_AUTH_FAILED,
				      hi.auth_failed, RDMABLK_ATTR_PAD)) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
	cb->args[0] = pos;
	return skb->len;
}

static int rdmablk_nl_put_queues(struct sk_buff *msg,
				 const struct rdmablk_dev_info *di)
{
	struct nlattr *queues, *q;
	u32 i;

	queues = nla_nest_start(msg, RDMABLK_ATTR_QUEUES);
	if (!queues)
		return -EMSGSIZE;
	for (i = 0; i < di->nr_queues && i < RDMABLK_MAX_QUEUES; i++) {
		q = nla_nest_start(msg, RDMABLK_ATTR_QUEUE);
		if (!q ||
		    nla_put_u32(msg, RDMABLK_ATTR_QUEUE_ID, i) ||
		    nla_put_u32(msg, RDMABLK_ATTR_QUEUE_STATE, di->queue[i].state) ||
		    nla_put_u64_64bit(msg, RDMABLK_ATTR_QUEUE_COMMANDS,
				      di->queue[i].commands, RDMABLK_ATTR_PAD) ||
		    nla_put_u64_64bit(msg, RDMABLK_ATTR_QUEUE_ERRORS,
				      di->queue[i].errors, RDMABLK_ATTR_PAD) ||
		    nla_put_u64_64bit(msg, RDMABLK_ATTR_QUEUE_COMPLETED,
				      di->queue[i].completed, RDMABLK_ATTR_PAD) ||
		    nla_put_u64_64bit(msg, RDMABLK_ATTR_QUEUE_REQUEUED,
				      di->queue[i].requeued, RDMABLK_ATTR_PAD) ||
		    nla_put_u64_64bit(msg, RDMABLK_ATTR_QUEUE_READ_BYTES,
				      di->queue[i].read_bytes, RDMABLK_ATTR_PAD) ||
		    nla_put_u64_64bit(msg, RDMABLK_ATTR_QUEUE_WRITE_BYTES,
				      di->queue[i].write_bytes, RDMABLK_ATTR_PAD) ||
		    nla_put_u64_64bit(msg, RDMABLK_ATTR_QUEUE_LATENCY_US,
				      di->queue[i].latency_us, RDMABLK_ATTR_PAD)) {
			nla_nest_cancel(msg, queues);
			return -EMSGSIZE;
		}
		nla_nest_end(msg, q);
	}
	nla_nest_end(msg, queues);
	return 0;
}

static int rdmablk_nl_put_path(struct sk_buff *msg,
			       const struct rdmablk_path_info *pi)
{
	struct nlattr *p = nla_nest_start(msg, RDMABLK_ATTR_PATH);

	if (!p ||
	    nla_put_u32(msg, RDMABLK_ATTR_PATH_ID, pi->id) ||
	    rdmablk_nl_put_addr(msg, &pi->addr) ||
	    nla_put_u32(msg, RDMABLK_ATTR_PATH_STATE, pi->state) ||
	    nla_put_u8(msg, RDMABLK_ATTR_PATH_STANDBY, pi->standby) ||
	    nla_put_u32(msg, RDMABLK_ATTR_PATH_INFLIGHT, pi->inflight) ||
	    nla_put_u64_64bit(msg, RDMABLK_ATTR_PATH_LATENCY_US,
			      pi->latency_us, RDMABLK_ATTR_PAD) ||
	    nla_put_u64_64bit(msg, RDMABLK_ATTR_QUEUE_COMMANDS, pi->commands,
			      RDMABLK_ATTR_PAD) ||
	    nla_put_u64_64bit(msg, RDMABLK_ATTR_QUEUE_COMPLETED, pi->completed,
			      RDMABLK_ATTR_PAD) ||
	    nla_put_u64_64bit(msg, RDMABLK_ATTR_QUEUE_ERRORS, pi->errors,
			      RDMABLK_ATTR_PAD) ||
	    nla_put_u64_64bit(msg, RDMABLK_ATTR_QUEUE_REQUEUED, pi->requeued,
			      RDMABLK_ATTR_PAD) ||
	    nla_put_u32(msg, RDMABLK_ATTR_PATH_FAILOVERS, pi->failovers) ||
	    (pi->failovers &&
	     nla_put_u64_64bit(msg, RDMABLK_ATTR_PATH_FAILOVER_AGE_MS,
			       pi->failover_age_ms, RDMABLK_ATTR_PAD)) ||
	    nla_put_u32(msg, RDMABLK_ATTR_RECONNECT_ATTEMPT, pi->attempt) ||
	    nla_put_u32(msg, RDMABLK_ATTR_NEXT_ATTEMPT_MS, pi->next_attempt_ms) ||
	    nla_put_u32(msg, RDMABLK_ATTR_RECONNECTS, pi->reconnects) ||
	    (pi->last_error[0] &&
	     nla_put_string(msg, RDMABLK_ATTR_LAST_ERROR, pi->last_error)))
		return -EMSGSIZE;
	nla_nest_end(msg, p);
	return 0;
}

static int rdmablk_nl_put_paths(struct sk_buff *msg,
				const struct rdmablk_dev_info *di)
{
	struct nlattr *paths;
	u32 i;

	paths = nla_nest_start(msg, RDMABLK_ATTR_PATHS);
	if (!paths)
		return -EMSGSIZE;
	for (i = 0; i < di->nr_paths && i < RDMABLK_MAX_PATHS; i++) {
		if (rdmablk_nl_put_path(msg, &di->path[i])) {
			nla_nest_cancel(msg, paths);
			return -EMSGSIZE;
		}
	}
	nla_nest_end(msg, paths);
	return 0;
}

static int rdmablk_nl_put_dev(struct sk_buff *msg,
			      const struct rdmablk_dev_info *di)
{
	if (nla_put_u32(msg, RDMABLK_ATTR_DEV_INDEX, di->index) ||
	    nla_put_string(msg, RDMABLK_ATTR_DEV_NAME, di->name) ||
	    rdmablk_nl_put_addr(msg, &di->addr) ||
	    nla_put_string(msg, RDMABLK_ATTR_EXPORT_NAME, di->export_name) ||
	    nla_put(msg, RDMABLK_ATTR_UUID, RDMABLK_UUID_SIZE, di->info.uuid) ||
	    nla_put_u64_64bit(msg, RDMABLK_ATTR_SIZE, di->info.size,
			      RDMABLK_ATTR_PAD) ||
	    nla_put_u32(msg, RDMABLK_ATTR_LOGICAL_BLOCK_SIZE,
			di->info.logical_block_size) ||
	    nla_put_u32(msg, RDMABLK_ATTR_PHYSICAL_BLOCK_SIZE,
			di->info.physical_block_size) ||
	    ((di->info.flags & RDMABLK_EXP_READ_ONLY) &&
	     nla_put_flag(msg, RDMABLK_ATTR_READ_ONLY)) ||
	    nla_put_u32(msg, RDMABLK_ATTR_NR_QUEUES,
			di->nr_queues - di->nr_poll_queues) ||
	    nla_put_u32(msg, RDMABLK_ATTR_NR_POLL_QUEUES, di->nr_poll_queues) ||
	    nla_put_u32(msg, RDMABLK_ATTR_QUEUE_DEPTH, di->queue_depth) ||
	    nla_put_u32(msg, RDMABLK_ATTR_DEV_STATE, di->state) ||
	    nla_put_u32(msg, RDMABLK_ATTR_RECONNECT_DELAY, di->tmo.reconnect_delay) ||
	    nla_put_s32(msg, RDMABLK_ATTR_CTRL_LOSS_TMO, di->tmo.ctrl_loss_tmo) ||
	    nla_put_s32(msg, RDMABLK_ATTR_FAST_IO_FAIL_TMO,
			di->tmo.fast_io_fail_tmo) ||
	    nla_put_u32(msg, RDMABLK_ATTR_KEEPALIVE_TMO, di->tmo.keepalive_tmo) ||
	    nla_put_u32(msg, RDMABLK_ATTR_RECONNECT_ATTEMPT, di->attempt) ||
	    nla_put_u32(msg, RDMABLK_ATTR_RECONNECT_MAX, di->max_attempts) ||
	    nla_put_u32(msg, RDMABLK_ATTR_RECONNECTS, di->reconnects) ||
	    nla_put_u32(msg, RDMABLK_ATTR_AUTH, di->auth) ||
	    nla_put_u32(msg, RDMABLK_ATTR_NEXT_ATTEMPT_MS, di->next_attempt_ms) ||
	    (di->last_error[0] &&
	     nla_put_string(msg, RDMABLK_ATTR_LAST_ERROR, di->last_error)) ||
	    nla_put_u32(msg, RDMABLK_ATTR_MP_POLICY, di->policy) ||
	    rdmablk_nl_put_queues(msg, di) ||
	    rdmablk_nl_put_paths(msg, di))
		return -EMSGSIZE;
	return 0;
}

/* Reply to @info's request with the device @di. */
static int rdmablk_nl_reply_dev(struct genl_info *info,
				const struct rdmablk_dev_info *di)
{
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(RDMABLK_NL_MSG_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &rdmablk_genl_family, 0,
				info->genlhdr->cmd);
	if (!hdr || rdmablk_nl_put_dev(msg, di)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

static int rdmablk_nl_attach(struct sk_buff *skb, struct genl_info *info)
{
	const struct rdmablk_host_ops *ops = rdmablk_nl_host_ops(info->extack);
	struct rdmablk_attach_req req;
	struct rdmablk_dev_info *di;
	int ret;

	if (!ops)
		return -EOPNOTSUPP;
	ret = rdmablk_nl_parse_attach(genl_info_net(info), info->attrs, &req,
				      info->extack);
	if (ret)
		return ret;
	di = kzalloc(sizeof(*di), GFP_KERNEL);
	if (!di) {
		rdmablk_attach_req_wipe(&req);
		return -ENOMEM;
	}
	ret = ops->attach(&req, di, info->extack);
	rdmablk_attach_req_wipe(&req);
	if (!ret)
		ret = rdmablk_nl_reply_dev(info, di);
	kfree(di);
	return ret;
}

/* PATH_ADD, PATH_DEL, PATH_SET. */
static int rdmablk_nl_path(struct sk_buff *skb, struct genl_info *info)
{
	const struct rdmablk_host_ops *ops = rdmablk_nl_host_ops(info->extack);
	u8 cmd = info->genlhdr->cmd;
	struct rdmablk_path_req req;
	struct rdmablk_dev_info *di;
	int ret;

	if (!ops)
		return -EOPNOTSUPP;
	ret = rdmablk_nl_parse_path(genl_info_net(info), info->attrs, cmd,
				    &req, info->extack);
	if (ret)
		return ret;
	if (cmd == RDMABLK_CMD_PATH_DEL)
		return ops->path_del(&req, info->extack);
	if (cmd == RDMABLK_CMD_PATH_SET)
		return ops->path_set(&req, info->extack);
	di = kzalloc(sizeof(*di), GFP_KERNEL);
	if (!di)
		return -ENOMEM;
	ret = ops->path_add(&req, di, info->extack);
	if (!ret)
		ret = rdmablk_nl_reply_dev(info, di);
	kfree(di);
	return ret;
}

static int rdmablk_nl_dev_set(struct sk_buff *skb, struct genl_info *info)
{
	const struct rdmablk_host_ops *ops = rdmablk_nl_host_ops(info->extack);
	struct rdmablk_dev_set_req req;
	int ret;

	if (!ops)
		return -EOPNOTSUPP;
	ret = rdmablk_nl_parse_dev_set(info->attrs, &req, info->extack);
	if (!ret)
		ret = ops->set(&req, info->extack);
	rdmablk_dev_set_req_wipe(&req);
	return ret;
}

static int rdmablk_nl_reconnect(struct sk_buff *skb, struct genl_info *info)
{
	const struct rdmablk_host_ops *ops = rdmablk_nl_host_ops(info->extack);

	if (!ops)
		return -EOPNOTSUPP;
	if (GENL_REQ_ATTR_CHECK(info, RDMABLK_ATTR_DEV_INDEX)) {
		NL_SET_ERR_MSG(info->extack,
			       "missing RDMABLK_ATTR_DEV_INDEX: which rdmablkN to reconnect");
		return -EINVAL;
	}
	return ops->reconnect(nla_get_u32(info->attrs[RDMABLK_ATTR_DEV_INDEX]),
			      info->extack);
}

static int rdmablk_nl_detach(struct sk_buff *skb, struct genl_info *info)
{
	const struct rdmablk_host_ops *ops = rdmablk_nl_host_ops(info->extack);

	if (!ops)
		return -EOPNOTSUPP;
	if (GENL_REQ_ATTR_CHECK(info, RDMABLK_ATTR_DEV_INDEX)) {
		NL_SET_ERR_MSG(info->extack,
			       "missing RDMABLK_ATTR_DEV_INDEX: which rdmablkN to detach");
		return -EINVAL;
	}
	return ops->detach(nla_get_u32(info->attrs[RDMABLK_ATTR_DEV_INDEX]),
			   info->extack);
}

/*
 * Every part of a device dump has room for the largest device: the first
 * part is made before the reader's buffer size is known, and would hold
 * only NLMSG_GOODSIZE, too little for a device of many queues.
 */
static int rdmablk_nl_dev_dump_start(struct netlink_callback *cb)
{
	cb->min_dump_alloc = RDMABLK_NL_MSG_SIZE;
	return 0;
}

/* cb->args[0]: the dump cursor (roles.h) of the next device. */
static int rdmablk_nl_dev_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct rdmablk_host_ops *ops = rdmablk_nl_host_ops(cb->extack);
	unsigned long pos = cb->args[0], next;
	struct rdmablk_dev_info *di;
	bool full = false;
	void *hdr;

	if (!ops)
		return -EOPNOTSUPP;
	di = kmalloc(sizeof(*di), GFP_KERNEL);
	if (!di)
		return -ENOMEM;
	for (next = pos; !ops->get(&next, di); pos = next) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &rdmablk_genl_family,
				  NLM_F_MULTI, RDMABLK_CMD_DEV_GET);
		if (!hdr) {
			full = true;
			break;
		}
		if (rdmablk_nl_put_dev(skb, di)) {
			genlmsg_cancel(skb, hdr);
			full = true;
			break;
		}
		genlmsg_end(skb, hdr);
	}
	kfree(di);
	cb->args[0] = pos;
	/*
	 * A device that does not fit even an empty buffer (many queues and a
	 * small receive buffer) ends the dump with an error: an empty part
	 * would end it as if no device followed.
	 */
	if (full && !skb->len)
		return -EMSGSIZE;
	return skb->len;
}

/**
 * rdmablk_nl_event_export() - tell the events group about an export
 * @event: RDMABLK_EVENT_EXPORT_*
 * @name: export name
 * @uuid: export UUID
 */
void rdmablk_nl_event_export(enum rdmablk_event event, const char *name,
			     const u8 *uuid)
{
	struct sk_buff *msg;
	void *hdr;

	msg = rdmablk_nl_event_new(event, &hdr);
	if (!msg)
		return;
	if (nla_put_string(msg, RDMABLK_ATTR_EXPORT_NAME, name) ||
	    nla_put(msg, RDMABLK_ATTR_UUID, RDMABLK_UUID_SIZE, uuid)) {
		nlmsg_free(msg);
		return;
	}
	rdmablk_nl_event_send(msg, hdr);
}

/**
 * rdmablk_nl_event_dev() - tell the events group about a device
 * @event: RDMABLK_EVENT_DEVICE_* or RDMABLK_EVENT_PATH_*
 * @di: the device
 * @path_id: the path a PATH_* event is about, or -1
 * @reason: what caused it, or NULL
 */
void rdmablk_nl_event_dev(enum rdmablk_event event,
			  const struct rdmablk_dev_info *di, s32 path_id,
			  const char *reason)
{
	struct sk_buff *msg;
	void *hdr;

	msg = rdmablk_nl_event_new(event, &hdr);
	if (!msg)
		return;
	if (rdmablk_nl_put_dev(msg, di) ||
	    (path_id >= 0 && nla_put_u32(msg, RDMABLK_ATTR_PATH_ID, path_id)) ||
	    (reason && nla_put_string(msg, RDMABLK_ATTR_REASON, reason))) {
		nlmsg_free(msg);
		return;
	}
	rdmablk_nl_event_send(msg, hdr);
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
	{
		.cmd = RDMABLK_CMD_EXPORT_ADD,
		.flags = GENL_ADMIN_PERM,
		.policy = rdmablk_nl_export_policy,
		.maxattr = RDMABLK_ATTR_MAX,
		.doit = rdmablk_nl_export_add,
	},
	{
		.cmd = RDMABLK_CMD_EXPORT_DEL,
		.flags = GENL_ADMIN_PERM,
		.policy = rdmablk_nl_export_del_policy,
		.maxattr = RDMABLK_ATTR_MAX,
		.doit = rdmablk_nl_export_del,
	},
	{
		.cmd = RDMABLK_CMD_EXPORT_GET,
		.flags = GENL_ADMIN_PERM,
		.policy = rdmablk_nl_info_policy,
		.maxattr = RDMABLK_ATTR_MAX,
		.dumpit = rdmablk_nl_export_dump,
	},
	{
		.cmd = RDMABLK_CMD_ATTACH,
		.flags = GENL_ADMIN_PERM,
		.policy = rdmablk_nl_attach_policy,
		.maxattr = RDMABLK_ATTR_MAX,
		.doit = rdmablk_nl_attach,
	},
	{
		.cmd = RDMABLK_CMD_DETACH,
		.flags = GENL_ADMIN_PERM,
		.policy = rdmablk_nl_detach_policy,
		.maxattr = RDMABLK_ATTR_MAX,
		.doit = rdmablk_nl_detach,
	},
	{
		.cmd = RDMABLK_CMD_DEV_SET,
		.flags = GENL_ADMIN_PERM,
		.policy = rdmablk_nl_dev_set_policy,
		.maxattr = RDMABLK_ATTR_MAX,
		.doit = rdmablk_nl_dev_set,
	},
	{
		.cmd = RDMABLK_CMD_RECONNECT,
		.flags = GENL_ADMIN_PERM,
		.policy = rdmablk_nl_detach_policy,
		.maxattr = RDMABLK_ATTR_MAX,
		.doit = rdmablk_nl_reconnect,
	},
	{
		.cmd = RDMABLK_CMD_DEV_GET,
		.flags = GENL_ADMIN_PERM,
		.policy = rdmablk_nl_info_policy,
		.maxattr = RDMABLK_ATTR_MAX,
		.start = rdmablk_nl_dev_dump_start,
		.dumpit = rdmablk_nl_dev_dump,
	},
	{
		.cmd = RDMABLK_CMD_HOST_SET,
		.flags = GENL_ADMIN_PERM,
		.policy = rdmablk_nl_host_policy,
		.maxattr = RDMABLK_ATTR_MAX,
		.doit = rdmablk_nl_host_set,
	},
	{
		.cmd = RDMABLK_CMD_HOST_DEL,
		.flags = GENL_ADMIN_PERM,
		.policy = rdmablk_nl_host_policy,
		.maxattr = RDMABLK_ATTR_MAX,
		.doit = rdmablk_nl_host_del,
	},
	{
		.cmd = RDMABLK_CMD_HOST_GET,
		.flags = GENL_ADMIN_PERM,
		.policy = rdmablk_nl_info_policy,
		.maxattr = RDMABLK_ATTR_MAX,
		.dumpit = rdmablk_nl_host_dump,
	},
	{
		.cmd = RDMABLK_CMD_PATH_ADD,
		.flags = GENL_ADMIN_PERM,
		.policy = rdmablk_nl_path_policy,
		.maxattr = RDMABLK_ATTR_MAX,
		.doit = rdmablk_nl_path,
	},
	{
		.cmd = RDMABLK_CMD_PATH_DEL,
		.flags = GENL_ADMIN_PERM,
		.policy = rdmablk_nl_path_policy,
		.maxattr = RDMABLK_ATTR_MAX,
		.doit = rdmablk_nl_path,
	},
	{
		.cmd = RDMABLK_CMD_PATH_SET,
		.flags = GENL_ADMIN_PERM,
		.policy = rdmablk_nl_path_policy,
		.maxattr = RDMABLK_ATTR_MAX,
		.doit = rdmablk_nl_path,
	},
};

static struct genl_family rdmablk_genl_family __ro_after_init = {
	.name = RDMABLK_GENL_NAME,
	.version = RDMABLK_GENL_VERSION,
	.netnsok = false,
	.parallel_ops = true,
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
	/* Waits for the events being sent; later ones are dropped. */
	down_write(&rdmablk_nl_up_sem);
	WRITE_ONCE(rdmablk_nl_up, false);
	up_write(&rdmablk_nl_up_sem);
	genl_unregister_family(&rdmablk_genl_family);
}
