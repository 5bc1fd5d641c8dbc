/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * rdmablk generic netlink interface.
 *
 * This header is the ABI between rdmablk.ko and userspace (rdmablkd and the
 * test tools). Userspace includes this very file; never copy its enums.
 *
 * Family "rdmablk", version RDMABLK_GENL_VERSION, one multicast group
 * "events". Every operation requires CAP_NET_ADMIN (GENL_ADMIN_PERM) and is
 * validated with a strict per-operation policy: unknown attributes, wrong
 * types and out-of-range values are rejected with an extack message that
 * names the attribute.
 *
 * Attribute tree (all attributes live in one flat space, enum rdmablk_attr):
 *
 *   RDMABLK_CMD_GET_INFO          request: (none)
 *     reply:
 *       RDMABLK_ATTR_MODULE_VERSION   string
 *       RDMABLK_ATTR_GENL_VERSION     u32
 *       RDMABLK_ATTR_PROTO_VERSION    u32   wire protocol version spoken
 *       RDMABLK_ATTR_FEATURES         u64   RDMABLK_FEAT_* bitmask
 *
 *   RDMABLK_CMD_LISTEN_ADD        request:
 *       RDMABLK_ATTR_ADDR             string  IPv4 or IPv6 literal ("fe80::1%eth0")
 *       [RDMABLK_ATTR_PORT]           u16     default RDMABLK_DEFAULT_PORT
 *   RDMABLK_CMD_LISTEN_DEL        request: as LISTEN_ADD
 *   RDMABLK_CMD_LISTEN_GET        dump; one message per listener:
 *       RDMABLK_ATTR_ADDR, RDMABLK_ATTR_PORT
 *       RDMABLK_ATTR_LISTENER_STATE   u32     enum rdmablk_listener_state
 *
 *   RDMABLK_CMD_EVENT             multicast on "events", never a request:
 *       RDMABLK_ATTR_EVENT            u32     enum rdmablk_event
 *       ...                           the attributes of the object concerned
 *                                     (listener: ADDR, PORT)
 */
#ifndef _UAPI_LINUX_RDMABLK_H
#define _UAPI_LINUX_RDMABLK_H

#include <linux/types.h>

#define RDMABLK_GENL_NAME		"rdmablk"
#define RDMABLK_GENL_VERSION		1
#define RDMABLK_GENL_MCGRP_EVENTS	"events"

/* rdma_cm service port a listener uses when none is given. */
#define RDMABLK_DEFAULT_PORT		7471

/* Longest address string accepted, including an IPv6 scope ("%ifname"). */
#define RDMABLK_ADDR_MAX_LEN		64

enum rdmablk_cmd {
	RDMABLK_CMD_UNSPEC,
	RDMABLK_CMD_GET_INFO,
	RDMABLK_CMD_LISTEN_ADD,
	RDMABLK_CMD_LISTEN_DEL,
	RDMABLK_CMD_LISTEN_GET,
	RDMABLK_CMD_EVENT,

	__RDMABLK_CMD_MAX,
};

#define RDMABLK_CMD_MAX (__RDMABLK_CMD_MAX - 1)

enum rdmablk_attr {
	RDMABLK_ATTR_UNSPEC,
	RDMABLK_ATTR_PAD,
	RDMABLK_ATTR_MODULE_VERSION,	/* string */
	RDMABLK_ATTR_GENL_VERSION,	/* u32 */
	RDMABLK_ATTR_PROTO_VERSION,	/* u32 */
	RDMABLK_ATTR_FEATURES,		/* u64, RDMABLK_FEAT_* */
	RDMABLK_ATTR_ADDR,		/* string, < RDMABLK_ADDR_MAX_LEN */
	RDMABLK_ATTR_PORT,		/* u16, 1..65535 */
	RDMABLK_ATTR_LISTENER_STATE,	/* u32, enum rdmablk_listener_state */
	RDMABLK_ATTR_EVENT,		/* u32, enum rdmablk_event */

	__RDMABLK_ATTR_MAX,
};

#define RDMABLK_ATTR_MAX (__RDMABLK_ATTR_MAX - 1)

/* RDMABLK_ATTR_FEATURES: what this module implements. */
#define RDMABLK_FEAT_LISTEN		(1ULL << 0)	/* target listeners */

enum rdmablk_listener_state {
	RDMABLK_LISTENER_LISTENING = 1,	/* bound and accepting */
	RDMABLK_LISTENER_DEVICE_GONE,	/* RDMA device removed, retrying */
};

enum rdmablk_event {
	RDMABLK_EVENT_UNSPEC,
	RDMABLK_EVENT_LISTENER_ADDED,
	RDMABLK_EVENT_LISTENER_REMOVED,

	__RDMABLK_EVENT_MAX,
};

#define RDMABLK_EVENT_MAX (__RDMABLK_EVENT_MAX - 1)

#endif /* _UAPI_LINUX_RDMABLK_H */
