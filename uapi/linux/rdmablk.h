/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * rdmablk generic netlink interface.
 *
 * This header is the ABI between rdmablk.ko and userspace (rdmablkd and the
 * test tools). Userspace includes this very file; never copy its enums.
 *
 * Family "rdmablk", version RDMABLK_GENL_VERSION, one multicast group
 * "events". Every operation requires CAP_NET_ADMIN (GENL_ADMIN_PERM), and so
 * does joining "events"; each is validated with a strict per-operation
 * policy: unknown attributes, wrong types and out-of-range values are
 * rejected with an extack message that names the attribute. EXPORT_ADD
 * opens the device only for a caller who could open it itself, for reading
 * and, unless READ_ONLY, for writing (its node's permissions, a nodev mount):
 * CAP_NET_ADMIN grants no access to block devices.
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
 *   RDMABLK_CMD_EXPORT_ADD        request (target role):
 *       RDMABLK_ATTR_EXPORT_NAME      string  [A-Za-z0-9._:-], < RDMABLK_EXPORT_NAME_MAX
 *       RDMABLK_ATTR_EXPORT_PATH      string  block device path, e.g. /dev/nullb0
 *       RDMABLK_ATTR_UUID             binary  RDMABLK_UUID_SIZE bytes
 *       [RDMABLK_ATTR_READ_ONLY]      flag
 *       [RDMABLK_ATTR_AUTH_REQUIRED]  flag    only hosts that authenticate (HOST_SET)
 *                                     may open it or see it in discovery
 *       [RDMABLK_ATTR_ALLOWED_HOSTS]  nested: RDMABLK_ATTR_HOSTID, repeated
 *                                     (at most RDMABLK_MAX_ALLOWED_HOSTS);
 *                                     absent or empty: every host may connect
 *   RDMABLK_CMD_EXPORT_DEL        request: RDMABLK_ATTR_EXPORT_NAME; live
 *                                 connections to the export are closed
 *   RDMABLK_CMD_EXPORT_GET        dump; one message per export:
 *       EXPORT_NAME, EXPORT_PATH, UUID, [READ_ONLY], SIZE,
 *       LOGICAL_BLOCK_SIZE, PHYSICAL_BLOCK_SIZE, [AUTH_REQUIRED], [ALLOWED_HOSTS],
 *       RDMABLK_ATTR_NR_CONNECTIONS   u32     queues connected to it now
 *
 *   RDMABLK_CMD_HOST_SET          request (target role): a host's keys; replaces
 *                                 the host's earlier keys for new connections
 *                                 (live ones stay up: key rotation)
 *       RDMABLK_ATTR_HOSTID
 *       RDMABLK_ATTR_AUTH_KEY         binary  the secret the host proves itself with:
 *                                             32, 48 or 64 bytes for HMAC-SHA-256,
 *                                             -384, -512
 *       [RDMABLK_ATTR_AUTH_TARGET_KEY] binary the secret this target proves itself
 *                                             to that host with, when it asks; as
 *                                             AUTH_KEY
 *       [RDMABLK_ATTR_HOST_REAUTH]    flag    close the host's live connections too:
 *                                             its initiators reconnect and
 *                                             authenticate with the new keys
 *                                 A host with keys must authenticate to open any
 *                                 export or list any in discovery. Keys are
 *                                 never reported, logged or sent in an event.
 *   RDMABLK_CMD_HOST_DEL          request: RDMABLK_ATTR_HOSTID; forgets the host's
 *                                 keys and closes its live connections (every
 *                                 connection that named this host id), so that
 *                                 a revoked key opens nothing more
 *   RDMABLK_CMD_HOST_GET          dump; one message per host with keys:
 *       RDMABLK_ATTR_HOSTID
 *       RDMABLK_ATTR_AUTH_HMAC        u32     enum rdmablk_auth_hmac of AUTH_KEY
 *       [RDMABLK_ATTR_AUTH_TARGET_HMAC] u32   of AUTH_TARGET_KEY, when there is one
 *       RDMABLK_ATTR_AUTH_OK          u64     exchanges that succeeded
 *       RDMABLK_ATTR_AUTH_FAILED      u64     exchanges refused
 *   RDMABLK_CMD_ATTACH            request (initiator role):
 *       RDMABLK_ATTR_ADDR, [RDMABLK_ATTR_PORT]   the target
 *       RDMABLK_ATTR_EXPORT_NAME
 *       RDMABLK_ATTR_HOSTID           binary  RDMABLK_UUID_SIZE bytes
 *       [RDMABLK_ATTR_NR_QUEUES]      u32     default: one per CPU, capped by the target
 *       [RDMABLK_ATTR_NR_POLL_QUEUES] u32     polled queues besides those, default 0:
 *                                             completed without interrupts for
 *                                             polled I/O (io_uring IOPOLL,
 *                                             RWF_HIPRI); the target's cap goes to
 *                                             NR_QUEUES first; with NR_QUEUES at most
 *                                             RDMABLK_MAX_QUEUES
 *       [RDMABLK_ATTR_QUEUE_DEPTH]    u32     default 128, capped by the target
 *       [RDMABLK_ATTR_RECONNECT_DELAY]  u32   seconds between reconnect attempts, default 10
 *       [RDMABLK_ATTR_CTRL_LOSS_TMO]    s32   seconds of reconnecting before giving up,
 *                                             default 600, -1 = never give up
 *       [RDMABLK_ATTR_FAST_IO_FAIL_TMO] s32   seconds after which queued I/O fails while
 *                                             reconnecting goes on, default -1 = off
 *       [RDMABLK_ATTR_KEEPALIVE_TMO]    u32   seconds; a silent peer is dead after it, default 5
 *       [RDMABLK_ATTR_AUTH_KEY]       binary  this host's secret: every connection (and
 *                                             reconnection) authenticates with it
 *                                             before OPEN; the target must agree
 *       [RDMABLK_ATTR_AUTH_TARGET_KEY] binary the target's secret for this host: the
 *                                             target must prove it holds it (mutual
 *                                             authentication); needs AUTH_KEY
 *     reply: the device, as one DEV_GET message. EEXIST when that export of
 *     that target, or that export (its UUID) through another address, is a
 *     device already: the extended ack's cookie (NLMSGERR_ATTR_COOKIE) then
 *     holds the device's UUID, RDMABLK_UUID_SIZE bytes, so that the address
 *     can be added as its path (PATH_ADD) instead
 *   RDMABLK_CMD_DEV_SET           request: RDMABLK_ATTR_DEV_INDEX and any of
 *                                 RECONNECT_DELAY, CTRL_LOSS_TMO, FAST_IO_FAIL_TMO,
 *                                 KEEPALIVE_TMO, AUTH_KEY [AUTH_TARGET_KEY] (new keys
 *                                 for the next connections; live ones stay up,
 *                                 RECONNECT makes every queue authenticate with
 *                                 them now; without AUTH_TARGET_KEY the device
 *                                 keeps the target key it has: a new host key
 *                                 never drops mutual authentication); takes effect at once, but for
 *                                 KEEPALIVE_TMO, which the target learns at
 *                                 connect: a new value applies from the next
 *                                 connect, and a live device reconnects at once
 *                                 for it (a reset: in-flight I/O is requeued)
 *   RDMABLK_CMD_RECONNECT         request: RDMABLK_ATTR_DEV_INDEX; a device that is
 *                                 reconnecting tries now instead of at its next timer,
 *                                 one that gave up starts again, a live one drops
 *                                 and re-establishes its connections (a reset)
 *   RDMABLK_CMD_DETACH            request: RDMABLK_ATTR_DEV_INDEX
 *   RDMABLK_CMD_DEV_GET           dump; one message per attached device:
 *       RDMABLK_ATTR_DEV_INDEX        u32     N of /dev/rdmablkN
 *       RDMABLK_ATTR_DEV_NAME         string  "rdmablkN"
 *       ADDR, PORT, EXPORT_NAME, UUID, SIZE, LOGICAL_BLOCK_SIZE,
 *       PHYSICAL_BLOCK_SIZE, [READ_ONLY], NR_QUEUES, QUEUE_DEPTH,
 *       RDMABLK_ATTR_NR_POLL_QUEUES   u32     polled queues, after the NR_QUEUES others
 *       RDMABLK_ATTR_DEV_STATE        u32     enum rdmablk_dev_state
 *       RECONNECT_DELAY, CTRL_LOSS_TMO, FAST_IO_FAIL_TMO, KEEPALIVE_TMO
 *       RDMABLK_ATTR_RECONNECT_ATTEMPT u32    attempts since the connection was lost
 *       RDMABLK_ATTR_RECONNECT_MAX    u32     attempts before giving up, 0 = unlimited
 *       RDMABLK_ATTR_NEXT_ATTEMPT_MS  u32     when reconnecting: time to the next attempt
 *       [RDMABLK_ATTR_LAST_ERROR]     string  why the connection was lost or the last
 *                                             attempt failed
 *       RDMABLK_ATTR_AUTH             u32     enum rdmablk_auth_mode the connections
 *                                             are made with
 *       RDMABLK_ATTR_QUEUES           nested: RDMABLK_ATTR_QUEUE, repeated, each nested:
 *         RDMABLK_ATTR_QUEUE_ID         u32
 *         RDMABLK_ATTR_QUEUE_STATE      u32   enum rdmablk_queue_state
 *         RDMABLK_ATTR_QUEUE_COMMANDS   u64   commands sent
 *         RDMABLK_ATTR_QUEUE_ERRORS     u64   commands completed with an error
 *         RDMABLK_ATTR_QUEUE_COMPLETED  u64   requests completed, with or without
 *                                             an error (a request put back after a
 *                                             loss counts once, when it completes)
 *         RDMABLK_ATTR_QUEUE_REQUEUED   u64   requests put back after a loss, to be
 *                                             sent again once reconnected
 *         RDMABLK_ATTR_QUEUE_READ_BYTES u64   bytes of the reads completed without
 *                                             an error
 *         RDMABLK_ATTR_QUEUE_WRITE_BYTES u64  bytes of the writes completed without
 *                                             an error
 *         RDMABLK_ATTR_QUEUE_LATENCY_US u64   the completed requests' latencies
 *                                             added up, each from the request's
 *                                             allocation to its completion (what
 *                                             /sys/block/X/stat measures): over an
 *                                             interval, its growth divided by
 *                                             COMPLETED's is the mean latency
 *       RDMABLK_ATTR_RECONNECTS       u32     successful reconnects since attach
 *       RDMABLK_ATTR_MP_POLICY        u32     enum rdmablk_mp_policy
 *       RDMABLK_ATTR_PATHS            nested: RDMABLK_ATTR_PATH, repeated, each nested:
 *         RDMABLK_ATTR_PATH_ID          u32   the path's number in the device
 *         ADDR, PORT                          the target address of the path
 *         RDMABLK_ATTR_PATH_STATE       u32   enum rdmablk_dev_state of the path
 *         RDMABLK_ATTR_PATH_STANDBY     u8    1: used only while no other path is live
 *         RDMABLK_ATTR_PATH_INFLIGHT    u32   requests sent on it, not completed
 *         RDMABLK_ATTR_PATH_LATENCY_US  u64   moving average of its latencies
 *         QUEUE_COMMANDS, QUEUE_COMPLETED, QUEUE_ERRORS, QUEUE_REQUEUED: its
 *                                             queues' counters added up
 *         RDMABLK_ATTR_PATH_FAILOVERS   u32   times its loss moved its requests
 *         [RDMABLK_ATTR_PATH_FAILOVER_AGE_MS] u64 since the last of those
 *         RECONNECT_ATTEMPT, NEXT_ATTEMPT_MS, RECONNECTS, [LAST_ERROR]: as
 *                                             the device's, for the path
 *       The device's ADDR, PORT, RECONNECT_ATTEMPT, NEXT_ATTEMPT_MS, LAST_ERROR and
 *       RECONNECTS are its first path's; its QUEUES add up every path's queues
 *       of that number.
 *
 *   RDMABLK_CMD_PATH_ADD          request: a new path to an attached device:
 *       RDMABLK_ATTR_DEV_INDEX, RDMABLK_ATTR_ADDR, [RDMABLK_ATTR_PORT]
 *       [RDMABLK_ATTR_PATH_STANDBY]   u8      0 or 1, default 0
 *                                 it connects as many queues as the device has,
 *                                 and must lead to the same export (UUID, size,
 *                                 block size, read-only) with at least its
 *                                 credits and I/O sizes; reply: the device, as
 *                                 one DEV_GET message
 *   RDMABLK_CMD_PATH_DEL          request: RDMABLK_ATTR_DEV_INDEX, RDMABLK_ATTR_ADDR,
 *                                 [RDMABLK_ATTR_PORT]; its requests go to the
 *                                 other paths; the last path is not removed
 *                                 (detach the device)
 *   RDMABLK_CMD_PATH_SET          request: RDMABLK_ATTR_DEV_INDEX, RDMABLK_ATTR_ADDR,
 *                                 [RDMABLK_ATTR_PORT], RDMABLK_ATTR_PATH_STANDBY
 *
 *   RDMABLK_CMD_EVENT             multicast on "events", never a request:
 *       RDMABLK_ATTR_EVENT            u32     enum rdmablk_event
 *       ...                           the attributes of the object concerned
 *                                     (listener: ADDR, PORT; export:
 *                                     EXPORT_NAME, UUID; device: as DEV_GET)
 *       [RDMABLK_ATTR_REASON]         string  what caused a state change
 *       [RDMABLK_ATTR_PATH_ID]        u32     the path a PATH_* event is about
 */
#ifndef _UAPI_LINUX_RDMABLK_H
#define _UAPI_LINUX_RDMABLK_H

#include <linux/types.h>
#include <linux/rdmablk_proto.h>

#define RDMABLK_GENL_NAME		"rdmablk"
#define RDMABLK_GENL_VERSION		1
#define RDMABLK_GENL_MCGRP_EVENTS	"events"

/* rdma_cm service port a listener uses when none is given. */
#define RDMABLK_DEFAULT_PORT		7471

/* Longest address string accepted, including an IPv6 scope ("%ifname"). */
#define RDMABLK_ADDR_MAX_LEN		64

/* Longest export path accepted, including the NUL. */
#define RDMABLK_PATH_MAX		256

/* Limits of ATTACH's optional attributes. */
#define RDMABLK_MAX_QUEUES		64
#define RDMABLK_MAX_QUEUE_DEPTH		1024
#define RDMABLK_DEFAULT_QUEUE_DEPTH	128

/* Recovery defaults and limits (seconds). */
#define RDMABLK_DEFAULT_RECONNECT_DELAY	10
#define RDMABLK_DEFAULT_CTRL_LOSS_TMO	600
#define RDMABLK_DEFAULT_KEEPALIVE_TMO	5
#define RDMABLK_MAX_TMO			(7 * 24 * 3600)
#define RDMABLK_TMO_OFF			(-1)

/* Most hosts one export's allow list may name. */
#define RDMABLK_MAX_ALLOWED_HOSTS	64

enum rdmablk_nl_cmd {
	RDMABLK_CMD_UNSPEC,
	RDMABLK_CMD_GET_INFO,
	RDMABLK_CMD_LISTEN_ADD,
	RDMABLK_CMD_LISTEN_DEL,
	RDMABLK_CMD_LISTEN_GET,
	RDMABLK_CMD_EVENT,
	RDMABLK_CMD_EXPORT_ADD,
	RDMABLK_CMD_EXPORT_DEL,
	RDMABLK_CMD_EXPORT_GET,
	RDMABLK_CMD_ATTACH,
	RDMABLK_CMD_DETACH,
	RDMABLK_CMD_DEV_GET,
	RDMABLK_CMD_DEV_SET,
	RDMABLK_CMD_RECONNECT,
	RDMABLK_CMD_HOST_SET,
	RDMABLK_CMD_HOST_DEL,
	RDMABLK_CMD_HOST_GET,
	RDMABLK_CMD_PATH_ADD,
	RDMABLK_CMD_PATH_DEL,
	RDMABLK_CMD_PATH_SET,

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
	RDMABLK_ATTR_EXPORT_NAME,	/* string, < RDMABLK_EXPORT_NAME_MAX */
	RDMABLK_ATTR_EXPORT_PATH,	/* string, < RDMABLK_PATH_MAX */
	RDMABLK_ATTR_UUID,		/* binary, RDMABLK_UUID_SIZE */
	RDMABLK_ATTR_READ_ONLY,		/* flag */
	RDMABLK_ATTR_SIZE,		/* u64, bytes */
	RDMABLK_ATTR_LOGICAL_BLOCK_SIZE,	/* u32, bytes */
	RDMABLK_ATTR_PHYSICAL_BLOCK_SIZE,	/* u32, bytes */
	RDMABLK_ATTR_NR_CONNECTIONS,	/* u32 */
	RDMABLK_ATTR_HOSTID,		/* binary, RDMABLK_UUID_SIZE */
	RDMABLK_ATTR_NR_QUEUES,		/* u32, 1..RDMABLK_MAX_QUEUES */
	RDMABLK_ATTR_QUEUE_DEPTH,	/* u32, 1..RDMABLK_MAX_QUEUE_DEPTH */
	RDMABLK_ATTR_DEV_INDEX,		/* u32 */
	RDMABLK_ATTR_DEV_NAME,		/* string */
	RDMABLK_ATTR_DEV_STATE,		/* u32, enum rdmablk_dev_state */
	RDMABLK_ATTR_ALLOWED_HOSTS,	/* nested, RDMABLK_ATTR_HOSTID */
	RDMABLK_ATTR_RECONNECT_DELAY,	/* u32, seconds */
	RDMABLK_ATTR_CTRL_LOSS_TMO,	/* s32, seconds, -1 = never */
	RDMABLK_ATTR_FAST_IO_FAIL_TMO,	/* s32, seconds, -1 = off */
	RDMABLK_ATTR_KEEPALIVE_TMO,	/* u32, seconds */
	RDMABLK_ATTR_RECONNECT_ATTEMPT,	/* u32 */
	RDMABLK_ATTR_RECONNECT_MAX,	/* u32, 0 = unlimited */
	RDMABLK_ATTR_NEXT_ATTEMPT_MS,	/* u32 */
	RDMABLK_ATTR_LAST_ERROR,	/* string */
	RDMABLK_ATTR_REASON,		/* string */
	RDMABLK_ATTR_QUEUES,		/* nested, RDMABLK_ATTR_QUEUE */
	RDMABLK_ATTR_QUEUE,		/* nested */
	RDMABLK_ATTR_QUEUE_ID,		/* u32 */
	RDMABLK_ATTR_QUEUE_STATE,	/* u32, enum rdmablk_queue_state */
	RDMABLK_ATTR_QUEUE_COMMANDS,	/* u64 */
	RDMABLK_ATTR_QUEUE_ERRORS,	/* u64 */
	RDMABLK_ATTR_QUEUE_COMPLETED,	/* u64 */
	RDMABLK_ATTR_QUEUE_REQUEUED,	/* u64 */
	RDMABLK_ATTR_QUEUE_READ_BYTES,	/* u64 */
	RDMABLK_ATTR_QUEUE_WRITE_BYTES,	/* u64 */
	RDMABLK_ATTR_QUEUE_LATENCY_US,	/* u64 */
	RDMABLK_ATTR_RECONNECTS,	/* u32 */
	RDMABLK_ATTR_AUTH_KEY,		/* binary, 32, 48 or 64 bytes; never reported */
	RDMABLK_ATTR_AUTH_TARGET_KEY,	/* binary, as AUTH_KEY; never reported */
	RDMABLK_ATTR_AUTH_REQUIRED,	/* flag */
	RDMABLK_ATTR_AUTH,		/* u32, enum rdmablk_auth_mode */
	RDMABLK_ATTR_AUTH_HMAC,		/* u32, enum rdmablk_auth_hmac */
	RDMABLK_ATTR_AUTH_TARGET_HMAC,	/* u32, enum rdmablk_auth_hmac */
	RDMABLK_ATTR_AUTH_OK,		/* u64 */
	RDMABLK_ATTR_AUTH_FAILED,	/* u64 */
	RDMABLK_ATTR_HOST_REAUTH,	/* flag */
	RDMABLK_ATTR_NR_POLL_QUEUES,	/* u32, 0..RDMABLK_MAX_QUEUES - 1 */
	RDMABLK_ATTR_MP_POLICY,		/* u32, enum rdmablk_mp_policy */
	RDMABLK_ATTR_PATHS,		/* nested, RDMABLK_ATTR_PATH */
	RDMABLK_ATTR_PATH,		/* nested */
	RDMABLK_ATTR_PATH_ID,		/* u32 */
	RDMABLK_ATTR_PATH_STATE,	/* u32, enum rdmablk_dev_state */
	RDMABLK_ATTR_PATH_STANDBY,	/* u8, 0 or 1 */
	RDMABLK_ATTR_PATH_INFLIGHT,	/* u32 */
	RDMABLK_ATTR_PATH_LATENCY_US,	/* u64 */
	RDMABLK_ATTR_PATH_FAILOVERS,	/* u32 */
	RDMABLK_ATTR_PATH_FAILOVER_AGE_MS,	/* u64 */

	__RDMABLK_ATTR_MAX,
};

#define RDMABLK_ATTR_MAX (__RDMABLK_ATTR_MAX - 1)

/* RDMABLK_ATTR_FEATURES: what this module implements. */
#define RDMABLK_FEAT_LISTEN		(1ULL << 0)	/* target listeners */
#define RDMABLK_FEAT_EXPORT		(1ULL << 1)	/* target exports */
#define RDMABLK_FEAT_ATTACH		(1ULL << 2)	/* initiator devices */
#define RDMABLK_FEAT_AUTH		(1ULL << 3)	/* HOST_*, AUTH_* attributes */
#define RDMABLK_FEAT_POLL		(1ULL << 4)	/* NR_POLL_QUEUES */
#define RDMABLK_FEAT_MULTIPATH		(1ULL << 5)	/* PATH_*, MP_POLICY */

/* Most paths one attached device has. */
#define RDMABLK_MAX_PATHS		8

/*
 * RDMABLK_ATTR_MP_POLICY: which live path a request goes on. Paths marked
 * standby are used only while no other path is live.
 */
enum rdmablk_mp_policy {
	RDMABLK_MP_QUEUE_DEPTH = 1,	/* fewest requests in flight (default) */
	RDMABLK_MP_ROUND_ROBIN,		/* each in turn */
	RDMABLK_MP_MIN_LATENCY,		/* lowest moving average of latency */
	__RDMABLK_MP_MAX,
};

/* Most hosts a target holds keys for. */
#define RDMABLK_MAX_AUTH_HOSTS		1024

/* RDMABLK_ATTR_AUTH: how an attached device's connections authenticate. */
enum rdmablk_auth_mode {
	RDMABLK_AUTH_MODE_NONE,		/* not at all */
	RDMABLK_AUTH_MODE_HOST,		/* the host proves itself to the target */
	RDMABLK_AUTH_MODE_MUTUAL,	/* and the target to the host */
};

enum rdmablk_listener_state {
	RDMABLK_LISTENER_LISTENING = 1,	/* bound and accepting */
	RDMABLK_LISTENER_DEVICE_GONE,	/* RDMA device removed, retrying */
};

/*
 * DEAD: gave up (ctrl_loss_tmo expired, or another export is behind the
 * name now); I/O fails until detached or reconnected by RDMABLK_CMD_RECONNECT.
 * RECONNECTING: connection lost; I/O waits, or fails once fast_io_fail_tmo
 * expired, while the kernel reconnects every reconnect_delay.
 */
enum rdmablk_dev_state {
	RDMABLK_DEV_LIVE = 1,		/* connected, I/O flows */
	RDMABLK_DEV_DEAD,
	RDMABLK_DEV_DELETING,		/* being detached */
	RDMABLK_DEV_RECONNECTING,
};

enum rdmablk_queue_state {
	RDMABLK_QUEUE_LIVE = 1,
	RDMABLK_QUEUE_DOWN,
};

enum rdmablk_event {
	RDMABLK_EVENT_UNSPEC,
	RDMABLK_EVENT_LISTENER_ADDED,
	RDMABLK_EVENT_LISTENER_REMOVED,
	RDMABLK_EVENT_EXPORT_ADDED,
	RDMABLK_EVENT_EXPORT_REMOVED,
	RDMABLK_EVENT_DEVICE_ATTACHED,
	RDMABLK_EVENT_DEVICE_DETACHED,
	RDMABLK_EVENT_DEVICE_STATE,	/* DEV_STATE changed, or a reconnect attempt failed */
	RDMABLK_EVENT_DEVICE_RESIZED,	/* the export's size changed; SIZE is the new one */
	RDMABLK_EVENT_PATH_ADDED,
	RDMABLK_EVENT_PATH_REMOVED,
	RDMABLK_EVENT_PATH_STATE,	/* a path's state changed, or its attempt failed */
	RDMABLK_EVENT_PATH_FAILOVER,	/* a path was lost: its requests moved */

	__RDMABLK_EVENT_MAX,
};

#define RDMABLK_EVENT_MAX (__RDMABLK_EVENT_MAX - 1)

#endif /* _UAPI_LINUX_RDMABLK_H */
