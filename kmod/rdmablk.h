/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rdmablk internal API, shared by the files of the module.
 *
 * The uapi headers (netlink and wire protocol) are the ABI; this one is not.
 */
#ifndef RDMABLK_H
#define RDMABLK_H

#include <linux/blkdev.h>
#include <linux/list.h>
#include <linux/log2.h>
#include <linux/netlink.h>
#include <linux/socket.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <net/genetlink.h>

#include <linux/rdmablk.h>

#include "auth.h"
#include "proto.h"

#define RDMABLK_VERSION		"0.1.0"

struct net;
struct rdma_cm_id;

/* Workqueue for listener repair and, later, session recovery (main.c). */
extern struct workqueue_struct *rdmablk_wq;

/* addr.c: address parsing and formatting, no verbs. */
int rdmablk_addr_parse(struct net *net, const char *addr, u16 port,
		       struct sockaddr_storage *ss);
bool rdmablk_addr_equal(const struct sockaddr_storage *a,
			const struct sockaddr_storage *b);
bool rdmablk_addr_same_host(const struct sockaddr *a, const struct sockaddr *b);
u16 rdmablk_addr_port(const struct sockaddr_storage *ss);
int rdmablk_addr_format(const struct sockaddr_storage *ss, char *buf,
			size_t len);

/* nl_parse.c: strict policies and request decoding, no verbs. */
extern const struct nla_policy rdmablk_nl_info_policy[RDMABLK_ATTR_MAX + 1];
extern const struct nla_policy rdmablk_nl_listen_policy[RDMABLK_ATTR_MAX + 1];

/**
 * struct rdmablk_listen_req - a decoded LISTEN_ADD / LISTEN_DEL request
 * @addr: where to listen, port included
 */
struct rdmablk_listen_req {
	struct sockaddr_storage addr;
};

int rdmablk_nl_parse_listen(struct net *net, struct nlattr **attrs,
			    struct rdmablk_listen_req *req,
			    struct netlink_ext_ack *extack);

/**
 * struct rdmablk_export_req - a decoded EXPORT_ADD request
 * @name: export name
 * @path: block device path
 * @uuid: identity
 * @read_only: refuse writes
 * @auth_required: only authenticated hosts may open or discover it
 * @nr_allowed: entries in @allowed; 0 lets every host connect
 * @allowed: host ids allowed to open the export
 */
struct rdmablk_export_req {
	char name[RDMABLK_EXPORT_NAME_MAX];
	char path[RDMABLK_PATH_MAX];
	u8 uuid[RDMABLK_UUID_SIZE];
	bool read_only;
	bool auth_required;
	u32 nr_allowed;
	u8 allowed[RDMABLK_MAX_ALLOWED_HOSTS][RDMABLK_UUID_SIZE];
};

/**
 * struct rdmablk_tmo - recovery settings of an attached device, in seconds
 * @reconnect_delay: between reconnect attempts
 * @ctrl_loss_tmo: reconnecting this long gives up; RDMABLK_TMO_OFF: never
 * @fast_io_fail_tmo: I/O fails after this long reconnecting;
 *	RDMABLK_TMO_OFF: I/O waits for the reconnect
 * @keepalive_tmo: a peer silent this long is gone
 */
struct rdmablk_tmo {
	u32 reconnect_delay;
	s32 ctrl_loss_tmo;
	s32 fast_io_fail_tmo;
	u32 keepalive_tmo;
};

/* Which fields of a struct rdmablk_tmo a DEV_SET request carries. */
#define RDMABLK_TMO_SET_RECONNECT_DELAY		BIT(0)
#define RDMABLK_TMO_SET_CTRL_LOSS		BIT(1)
#define RDMABLK_TMO_SET_FAST_IO_FAIL		BIT(2)
#define RDMABLK_TMO_SET_KEEPALIVE		BIT(3)
/* ... and that it carries new keys. */
#define RDMABLK_DEV_SET_KEYS			BIT(4)
#define RDMABLK_DEV_SET_POLICY			BIT(5)
#define RDMABLK_DEV_SET_TARGET_KEY		BIT(6)

/**
 * struct rdmablk_dev_set_req - a decoded DEV_SET request
 * @index: N of rdmablkN
 * @mask: RDMABLK_TMO_SET_* present in @tmo, RDMABLK_DEV_SET_KEYS,
 *	RDMABLK_DEV_SET_TARGET_KEY (with it: @target_key replaces the
 *	device's; without, the device keeps its own, so that rotating the
 *	host's key never drops mutual authentication), RDMABLK_DEV_SET_POLICY
 * @tmo: new settings
 * @key: with RDMABLK_DEV_SET_KEYS, the secret the next connections use
 * @target_key: with RDMABLK_DEV_SET_TARGET_KEY, the target's secret they
 *	expect
 * @policy: with RDMABLK_DEV_SET_POLICY, enum rdmablk_mp_policy
 *
 * Whoever decoded one wipes it with rdmablk_dev_set_req_wipe().
 */
struct rdmablk_dev_set_req {
	u32 index;
	u32 mask;
	u32 policy;
	struct rdmablk_tmo tmo;
	struct rdmablk_key key;
	struct rdmablk_key target_key;
};

static inline void rdmablk_dev_set_req_wipe(struct rdmablk_dev_set_req *req)
{
	rdmablk_key_wipe(&req->key);
	rdmablk_key_wipe(&req->target_key);
}

/**
 * struct rdmablk_attach_req - a decoded ATTACH request
 * @addr: the target
 * @export_name: the export
 * @hostid: our identity
 * @nr_queues: 0 for one per CPU
 * @nr_poll_queues: polled queues besides those
 * @queue_depth: requested credits per queue
 * @tmo: recovery settings
 * @key: our secret, or none (@key.hmac 0): do not authenticate
 * @target_key: the target's secret for us, or none: do not ask the target
 *	to prove itself
 * @policy: enum rdmablk_mp_policy
 *
 * Whoever decoded one wipes it with rdmablk_attach_req_wipe().
 */
struct rdmablk_attach_req {
	struct sockaddr_storage addr;
	u32 policy;
	char export_name[RDMABLK_EXPORT_NAME_MAX];
	u8 hostid[RDMABLK_UUID_SIZE];
	u32 nr_queues;
	u32 nr_poll_queues;
	u32 queue_depth;
	struct rdmablk_tmo tmo;
	struct rdmablk_key key;
	struct rdmablk_key target_key;
};

static inline void rdmablk_attach_req_wipe(struct rdmablk_attach_req *req)
{
	rdmablk_key_wipe(&req->key);
	rdmablk_key_wipe(&req->target_key);
}

/**
 * struct rdmablk_path_req - a decoded PATH_ADD, PATH_DEL or PATH_SET request
 * @index: N of rdmablkN
 * @addr: the path's target address and port
 * @standby: the path is used only while no other is live
 * @has_standby: @standby was given
 */
struct rdmablk_path_req {
	u32 index;
	struct sockaddr_storage addr;
	bool standby;
	bool has_standby;
};

/**
 * struct rdmablk_host_req - a decoded HOST_SET or HOST_DEL request
 * @hostid: the host
 * @key: the secret it proves itself with (HOST_SET)
 * @target_key: the secret the target proves itself to it with, or none
 * @reauth: HOST_SET closes the host's live connections too
 *
 * Whoever decoded one wipes it with rdmablk_host_req_wipe().
 */
struct rdmablk_host_req {
	u8 hostid[RDMABLK_UUID_SIZE];
	struct rdmablk_key key;
	struct rdmablk_key target_key;
	bool reauth;
};

static inline void rdmablk_host_req_wipe(struct rdmablk_host_req *req)
{
	rdmablk_key_wipe(&req->key);
	rdmablk_key_wipe(&req->target_key);
}

/**
 * struct rdmablk_queue_info - snapshot of one initiator queue
 * @state: enum rdmablk_queue_state
 * @commands: commands sent
 * @errors: commands that completed with an error
 * @completed: requests completed
 * @requeued: requests put back after a loss
 * @read_bytes: bytes read without an error
 * @write_bytes: bytes written without an error
 * @latency_us: the completed requests' latencies added up
 * @doorbells: posts that carried commands (fewer than @commands when
 *	commands went in batches); sysfs only
 * @sends: SENDs that carried commands (fewer than @commands when several
 *	shared one); sysfs only
 * @inline_posts: posts whose softirq work ran in the submitter
 *	(idle_inline); sysfs only
 * @pushed: writes whose payload went ahead by RDMA WRITE (write_push)
 * @held: commands that waited for earlier SENDs' completion (cmd_cork);
 *	sysfs only
 * @read_sends: reads whose data came by SEND (read_send); sysfs only
 * @lone: commands sent marked lone (lone_hint); sysfs only
 */
struct rdmablk_queue_info {
	u32 state;
	u64 commands;
	u64 errors;
	u64 completed;
	u64 requeued;
	u64 read_bytes;
	u64 write_bytes;
	u64 latency_us;
	u64 doorbells;
	u64 sends;
	u64 inline_posts;
	u64 held;
	u64 pushed;
	u64 read_sends;
	u64 lone;
};

#define RDMABLK_ERROR_LEN	96

/**
 * struct rdmablk_path_info - snapshot of one path of an attached device
 * @id: its number in the device
 * @addr: its target address and port
 * @state: enum rdmablk_dev_state of the path
 * @standby: used only while no other path is live
 * @inflight: requests sent on it and not completed
 * @latency_us: moving average of its requests' latencies
 * @commands: its queues' counters (struct rdmablk_queue_info) added up
 * @completed: likewise
 * @errors: likewise
 * @requeued: likewise
 * @failovers: times its loss moved its requests
 * @failover_age_ms: since the last of those, when @failovers
 * @attempt: reconnect attempts since it was lost
 * @next_attempt_ms: time to its next attempt, when reconnecting
 * @reconnects: successful reconnects
 * @last_error: why it was lost or its last attempt failed
 */
struct rdmablk_path_info {
	u32 id;
	struct sockaddr_storage addr;
	u32 state;
	bool standby;
	u32 inflight;
	u64 latency_us;
	u64 commands;
	u64 completed;
	u64 errors;
	u64 requeued;
	u32 failovers;
	u64 failover_age_ms;
	u32 attempt;
	u32 next_attempt_ms;
	u32 reconnects;
	char last_error[RDMABLK_ERROR_LEN];
};

/**
 * struct rdmablk_dev_info - snapshot of an attached device
 * @index: N of rdmablkN
 * @name: "rdmablkN"
 * @addr: target
 * @export_name: export
 * @info: export geometry
 * @nr_queues: queues, the polled ones included
 * @nr_poll_queues: of those, polled ones: the last ones
 * @queue_depth: credits per queue
 * @state: enum rdmablk_dev_state
 * @tmo: recovery settings
 * @attempt: reconnect attempts since the connection was lost
 * @max_attempts: attempts before giving up, 0 = unlimited
 * @next_attempt_ms: time to the next attempt, when reconnecting
 * @last_error: why the connection was lost or the last attempt failed
 * @reconnects: successful reconnects since attach
 * @auth: enum rdmablk_auth_mode of the connections
 * @queue: per-queue state and counters, @nr_queues of them, each the
 *	sum of every path's queue of that number
 * @policy: enum rdmablk_mp_policy
 * @nr_paths: paths
 * @path: @nr_paths of them
 */
struct rdmablk_dev_info {
	int index;
	char name[DISK_NAME_LEN];
	struct sockaddr_storage addr;
	char export_name[RDMABLK_EXPORT_NAME_MAX];
	struct rdmablk_open_info info;
	u32 nr_queues;
	u32 nr_poll_queues;
	u32 queue_depth;
	u32 state;
	struct rdmablk_tmo tmo;
	u32 attempt;
	u32 max_attempts;
	u32 next_attempt_ms;
	char last_error[RDMABLK_ERROR_LEN];
	u32 reconnects;
	u32 auth;
	struct rdmablk_queue_info queue[RDMABLK_MAX_QUEUES];
	u32 policy;
	u32 nr_paths;
	struct rdmablk_path_info path[RDMABLK_MAX_PATHS];
};

extern const struct nla_policy rdmablk_nl_export_policy[RDMABLK_ATTR_MAX + 1];
extern const struct nla_policy rdmablk_nl_export_del_policy[RDMABLK_ATTR_MAX + 1];
extern const struct nla_policy rdmablk_nl_attach_policy[RDMABLK_ATTR_MAX + 1];
extern const struct nla_policy rdmablk_nl_detach_policy[RDMABLK_ATTR_MAX + 1];
extern const struct nla_policy rdmablk_nl_dev_set_policy[RDMABLK_ATTR_MAX + 1];
extern const struct nla_policy rdmablk_nl_host_policy[RDMABLK_ATTR_MAX + 1];
extern const struct nla_policy rdmablk_nl_path_policy[RDMABLK_ATTR_MAX + 1];

int rdmablk_nl_parse_export(struct nlattr **attrs, bool add,
			    struct rdmablk_export_req *req,
			    struct netlink_ext_ack *extack);
int rdmablk_nl_parse_attach(struct net *net, struct nlattr **attrs,
			    struct rdmablk_attach_req *req,
			    struct netlink_ext_ack *extack);
int rdmablk_nl_parse_dev_set(struct nlattr **attrs,
			     struct rdmablk_dev_set_req *req,
			     struct netlink_ext_ack *extack);
int rdmablk_nl_parse_path(struct net *net, struct nlattr **attrs, int cmd,
			  struct rdmablk_path_req *req,
			  struct netlink_ext_ack *extack);
int rdmablk_nl_parse_host(struct nlattr **attrs, bool set,
			  struct rdmablk_host_req *req,
			  struct netlink_ext_ack *extack);

/* netlink.c: the generic netlink family. */
int rdmablk_nl_init(void);
void rdmablk_nl_exit(void);
void rdmablk_nl_event_listener(enum rdmablk_event event,
			       const struct sockaddr_storage *addr);
void rdmablk_nl_event_export(enum rdmablk_event event, const char *name,
			     const u8 *uuid);
void rdmablk_nl_event_dev(enum rdmablk_event event,
			  const struct rdmablk_dev_info *info, s32 path_id,
			  const char *reason);

/*
 * rc.c: the reliable-connection settings both roles give their queue pairs
 * (ack_timeout_ms). A local ACK timeout is 4.096 us * 2^n, n = 1-31.
 */
#define RDMABLK_ACK_TIMEOUT_MS_DEFAULT	250
#define RDMABLK_ACK_TIMEOUT_MS_MAX	4000

struct rdma_cm_id;

/**
 * rdmablk_ack_timeout_exp() - the local ACK timeout that covers @ms
 * @ms: milliseconds
 *
 * Return: the smallest n with 4.096 us * 2^n >= @ms (at most 31), or 0 for
 * @ms 0: in the encoding 0 means no timeout at all, so the caller keeps
 * rdma_cm's instead.
 */
static inline u8 rdmablk_ack_timeout_exp(unsigned int ms)
{
	/* 4.096 us is 4096 ns; 1 ms asks for 2^8 already. */
	u64 units = DIV_ROUND_UP_ULL((u64)ms * NSEC_PER_MSEC, 4096);

	return ms ? min_t(u64, order_base_2(units), 31) : 0;
}

int rdmablk_rc_set_ack_timeout(struct rdma_cm_id *id);

#endif /* RDMABLK_H */
