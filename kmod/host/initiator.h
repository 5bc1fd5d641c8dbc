/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Initiator role: attached devices (idev.c: their life; irecover.c: their
 * recovery; iblk.c: the block device; ireport.c: what they report), and
 * their RDMA queues (iqueue.c) and the requests posted on them (isubmit.c).
 */
#ifndef RDMABLK_INITIATOR_H
#define RDMABLK_INITIATOR_H

#include <linux/blk-mq.h>
#include <linux/completion.h>
#include <linux/llist.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/scatterlist.h>
#include <rdma/ib_verbs.h>

#include "proto.h"
#include "roles.h"
#include "state.h"

struct rdma_cm_id;
struct rdmablk_idev;
struct rdmablk_ipath;

/*
 * struct rdmablk_ireq.arm: whether an answer for the request is accepted.
 * IDLE: no (not sent, or answered). POSTING: its work requests are being
 * posted (or wait in the queue's batch to be); an answer naming the
 * generation it is sent with that comes now (the target can answer before
 * ib_post_send() returned) is kept: EARLY, what it said in @early_*, and
 * the poster acts on it once the post returned (rdmablk_ireq_posted()).
 * ARMED: posted; the first answer naming its generation takes it back to
 * IDLE. Every change is one atomic step, and no lock is held across a
 * submitter's post (a SEND's completion posts the commands held for it
 * under hold_lock, in softirq already): a post under a lock that disables
 * bottom halves ended in running the softirqs it raised (soft-RoCE's
 * whole send path, completions) in the submitter, which serialised the
 * queue: 4 KiB reads at queue depth 32 completed no faster than at
 * depth 1 (performance.md). Answers of one
 * queue are handled one at a time (its CQ's poller, or under @poll_lock),
 * so only the poster races with an answer. An answer that names another
 * generation (made up, or meant for an earlier sending of the tag), or
 * comes for a request that is IDLE or EARLY already, is refused.
 */
enum {
	RDMABLK_ARM_IDLE,
	RDMABLK_ARM_POSTING,
	RDMABLK_ARM_EARLY,
	RDMABLK_ARM_ARMED,
};

/*
 * Times a request is sent again after a loss (or a failure to post it)
 * before it fails, like nvme_max_retries: a command that always times out
 * or cannot be mapped must not be retried forever while every reconnect
 * succeeds and ctrl_loss_tmo never trips.
 */
#define RDMABLK_MAX_RETRIES	5

/* Data segments a request carries inline with its SG list. */
#define RDMABLK_INLINE_SG_CNT	2
/* Page segments an inline or pushed write may have. */
#define RDMABLK_INLINE_SGE	2
/* Most push slots a queue uses (RDMABLK_CONN_WRITE_PUSH): its credits. */
#define RDMABLK_IPUSH_SLOTS	256
/*
 * SENDs carrying a batch of commands (RDMABLK_CONN_CMD_BATCH) a queue has
 * in flight at once: each has a buffer of RDMABLK_CMD_BATCH_MAX commands,
 * 1 KiB; with none free, commands go a SEND each.
 */
#define RDMABLK_MSG_SLOTS	8

enum {
	RDMABLK_IQ_ALLOCATED,	/* verbs resources exist */
	RDMABLK_IQ_LIVE,	/* connected; I/O may be posted */
	RDMABLK_IQ_CTL_PENDING,	/* an OPEN or AUTH_* awaits its response */
	RDMABLK_IQ_KA_PENDING,	/* a keep-alive awaits its response */
	RDMABLK_IQ_POLLABLE,	/* polled queue: its CQ may be reaped */
};

/**
 * struct rdmablk_irecv - a receive buffer for responses
 * @cqe: completion entry
 * @queue: owner
 * @buf: &rdmablk_iqueue.recv_size bytes
 * @sge: @buf
 * @wr: the receive work request
 */
struct rdmablk_irecv {
	struct ib_cqe cqe;
	struct rdmablk_iqueue *queue;
	void *buf;
	struct ib_sge sge;
	struct ib_recv_wr wr;
};

/**
 * struct rdmablk_iqueue_stats - what a queue did since attach
 * @commands: commands sent (handed to the RDMA device, counted just
 *	before); a request sent again after a loss counts again
 * @completed: requests completed, with or without an error
 * @errors: of those, the ones completed with an error
 * @requeued: requests put back after a loss, to be sent again
 * @read_bytes: bytes of the reads completed without an error
 * @write_bytes: bytes of the writes completed without an error
 * @latency_ns: the completed requests' latencies added up, each from the
 *	request's start (&struct rdmablk_ireq.start_ns) to its completion
 * @doorbells: ib_post_send() calls that carried commands: one per batch
 * @sends: SENDs that carried commands: fewer than @commands when several
 *	shared one (RDMABLK_CONN_CMD_BATCH)
 * @inline_posts: of the @doorbells, posts of a lone command on an idle
 *	poll queue whose softirq work ran in the submitter (idle_inline)
 * @held: commands that waited for the completion of the SENDs before them
 *	and went with those that came meanwhile (cmd_cork)
 * @pushed: writes whose payload went ahead of the command by RDMA WRITE
 *	into a push slot of the target (write_push)
 * @read_sends: reads whose data came in a SEND, copied out of a receive
 *	(read_send)
 * @lone: commands sent marked lone (RDMABLK_CMD_LONE, lone_hint)
 *
 * Lock-free: each counter is updated atomically on its own, so a reader
 * may see two of them from slightly different moments. Rates over an
 * interval (rdmablkctl stat) do not notice.
 */
struct rdmablk_iqueue_stats {
	atomic64_t commands;
	atomic64_t completed;
	atomic64_t errors;
	atomic64_t requeued;
	atomic64_t read_bytes;
	atomic64_t write_bytes;
	atomic64_t latency_ns;
	atomic64_t doorbells;
	atomic64_t sends;
	atomic64_t inline_posts;
	atomic64_t held;
	atomic64_t pushed;
	atomic64_t read_sends;
	atomic64_t lone;
};

/**
 * struct rdmablk_iqueue - one RDMA connection of a path of an attached device
 * @idev: the device
 * @path: owner
 * @qid: index, also the blk-mq hardware queue index
 * @polled: a poll queue (HCTX_TYPE_POLL): its CQ has no completion
 *	interrupts and is reaped by rdmablk_iqueue_poll() only; set at attach
 * @poll_lock: serialises reaping a polled queue's CQ with stopping it:
 *	rdmablk_iqueue_poll() reaps only under it with RDMABLK_IQ_POLLABLE
 *	set, which rdmablk_iqueue_stop() clears under it before draining the
 *	QP (the drain is then the only reaper). Taken in
 *	process context only. Initialised once at attach: a poller may wait
 *	on it while the queue reconnects
 * @cm_id: rdma_cm id
 * @dev: RDMA device, known once the address is resolved
 * @pd: protection domain
 * @cq: send and receive completions, polled in softirq, or by
 *	rdmablk_iqueue_poll() when @polled
 * @qp: the queue pair
 * @params: negotiated at connect
 * @offered_flags: RDMABLK_CONN_* this side offered in its connect request:
 *	the reply may grant no other
 * @flags: RDMABLK_IQ_*
 * @cm_done: completed by the cm handler at each step of connecting
 * @cm_error: result of the step, 0 or a negative errno
 * @rej_reason: enum rdmablk_rej_reason when the target rejected us
 * @ctl_done: completed when the response to the control command (OPEN,
 *	AUTH_CHALLENGE, AUTH_REPLY) being sent arrived
 * @ctl_sent: completed when its SEND completed
 * @ctl_cqe: completion of that SEND
 * @ctl_send_status: its ib_wc_status
 * @ctl_opcode: its opcode, the only one a response is taken for
 * @ctl_status: the response's enum rdmablk_status
 * @ctl_rsp_len: bytes in @ctl_rsp
 * @ctl_rsp: what followed the response, untrusted
 * @open_info: what OPEN said about the export, the push area included
 *	(RDMABLK_CONN_WRITE_PUSH); its slots are used from OPEN's answer on
 * @push_slots: slots of the push area in use, 0 before OPEN answered and
 *	without one; at most RDMABLK_IPUSH_SLOTS
 * @push_busy: bit N set while a request's payload is in slot N: taken by
 *	its submitter (test_and_set_bit_lock()), given back when the request
 *	ends (rdmablk_ireq_unmap()), after the target answered (or the
 *	connection was lost). Kept across reconnects: a bit set for a
 *	request of a lost connection is given back by that request, and a
 *	new connection's slots are the same numbers in a new area
 * @recvs: @nr_recvs receive buffers
 * @nr_recvs: count
 * @recv_size: bytes of each: the longest answer and a batch of responses,
 *	or RDMABLK_READ_SEND_MAX where RDMABLK_CONN_READ_SEND is offered
 * @max_pages: pages one fast registration maps
 * @stale_lock: protects @stale_mrs; irq-safe, requests complete in any
 *	context
 * @post_lock: protects @batch_head, @batch_tail and @batch_pinned; never
 *	held across a post (see RDMABLK_ARM_*), only taken in process context
 * @hold_lock: taken by a SEND's completion around posting what was @held
 *	for it, and by rdmablk_iqueue_stop() to wait for such a post to end:
 *	no completion posts once the queue is no longer live (a submitter's
 *	post is kept out by quiescing the request queue before the stop)
 * @stale_mrs: registrations taken from the pool that may still be valid
 *	(their request ended without an invalidation): never returned to the
 *	pool, deregistered when the queue is freed
 * @batch_head: requests whose commands wait to be posted together (see
 *	isubmit.c), linked by &struct rdmablk_ireq.batch_next; their work
 *	requests are chained when the batch is posted; NULL when none
 * @batch_tail: the last of them
 * @batch_pinned: one of them cannot wait for an earlier SEND's completion
 *	(its payload goes inline, a SEND of its own): the batch is posted
 * @held: requests whose commands wait for the SENDs in flight to complete
 *	(cmd_cork, see isubmit.c), linked by &struct rdmablk_ireq.hold_node,
 *	the newest first; taken whole (llist_del_all()) by whoever posts them
 * @unacked: commands in SENDs posted and not completed yet: raised before
 *	each post, lowered by the SENDs' successful completions and for the
 *	commands a post refused. A SEND that failed is not counted off: the
 *	queue is lost, and connecting sets it to 0
 * @cmd_buf: every command the queue sends, in one buffer mapped for the
 *	RDMA device once per connection: first @msg_first commands, one
 *	per credit asked for, indexed by tag (where each request's command
 *	is written; the last credit's is the keep-alive's); then RDMABLK_MSG_SLOTS buffers of
 *	RDMABLK_CMD_BATCH_MAX commands, where the commands of a batch
 *	sharing a SEND are copied
 * @cmd_dma: its DMA address
 * @msg_first: index in @cmd_buf of the first batch buffer
 * @msg_busy: bit N set while buffer N is in a SEND: taken by the poster
 *	(test_and_set_bit_lock()), given back by the SEND's completion, or
 *	by the poster when the SEND could not be posted
 * @ka_cqe: completion of its SEND
 * @ka_sent: jiffies when it was sent
 * @last_rx: jiffies of the last successful receive (response or immediate)
 * @credits: commands it may have in flight: the target's grant less the
 *	keep-alive's credit, set at connect before the queue is live, 0 from
 *	its stop on. Below the device's queue depth where the target granted
 *	less than to the attach's first queue (another queue, another path, a
 *	reconnect): the disk's tags, sized then, would let more go, and
 *	rdmablk_queue_rq() holds them back (@used)
 * @used: requests in flight on it, counted while @credits is below the
 *	device's queue depth, by those with &rdmablk_ireq.credit
 * @lone_streak: the queue's last commands in a row that went alone on
 *	their path, counted up to RDMABLK_LONE_STREAK to mark commands lone;
 *	updated without a lock: submitters racing may lose an update, which
 *	only shifts when marking starts or stops
 * @stats: what the queue did since attach; kept across reconnects
 */
struct rdmablk_iqueue {
	struct rdmablk_idev *idev;
	struct rdmablk_ipath *path;
	u16 qid;
	bool polled;
	spinlock_t poll_lock;	/* see above */
	struct rdma_cm_id *cm_id;
	struct ib_device *dev;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *qp;
	struct rdmablk_conn_params params;
	u32 offered_flags;
	unsigned long flags;

	struct completion cm_done;
	int cm_error;
	int rej_reason;

	struct completion ctl_done;
	struct completion ctl_sent;
	struct ib_cqe ctl_cqe;
	int ctl_send_status;
	u8 ctl_opcode;
	u16 ctl_status;
	u32 ctl_rsp_len;
	u8 ctl_rsp[RDMABLK_RSP_BUF_SIZE - sizeof(struct rdmablk_rsp)];
	struct rdmablk_open_info open_info;
	u16 push_slots;
	DECLARE_BITMAP(push_busy, RDMABLK_IPUSH_SLOTS);

	struct rdmablk_irecv *recvs;
	unsigned int nr_recvs;
	u32 recv_size;
	u32 max_pages;
	spinlock_t stale_lock;	/* see above */
	spinlock_t post_lock;	/* see above */
	spinlock_t hold_lock;	/* see above */
	struct list_head stale_mrs;
	struct rdmablk_ireq *batch_head;
	struct rdmablk_ireq *batch_tail;
	bool batch_pinned;
	struct llist_head held;
	atomic_t unacked;

	struct rdmablk_cmd *cmd_buf;
	u64 cmd_dma;
	u32 msg_first;
	unsigned long msg_busy;
	struct ib_cqe ka_cqe;
	unsigned long ka_sent;
	unsigned long last_rx;
	u16 credits;
	atomic_t used;
	unsigned int lone_streak;

	struct rdmablk_iqueue_stats stats;
};

/*
 * The keep-alive's tag: the last of the credits asked for (@msg_first of
 * them), after every tag of the disk, whatever the target granted.
 */
static inline u16 rdmablk_iqueue_ka_tag(const struct rdmablk_iqueue *queue)
{
	return queue->msg_first - 1;
}

/**
 * struct rdmablk_ireq - per-request data (blk-mq pdu)
 * @queue: queue it was sent on
 * @cmd: the command, in its queue's cmd_buf at its tag's place; valid
 *	while the request is being posted
 * @opcode: its opcode, which an answer must name
 * @mr: fast registration of the data, NULL when none
 * @mr_valid: @mr may be valid: its registration was posted and neither a
 *	remote nor a local invalidation of it has been seen
 * @arm: RDMABLK_ARM_*, see there
 * @gen: generation of the command last sent: a new one for each sending,
 *	starting from a random one, so that the target cannot name it without
 *	having received the command; written before the request is
 *	POSTING, read by the answer path before it looks at @arm
 * @early_status: with @arm EARLY, the status of the answer that came
 *	while the command was being posted
 * @early_wc_flags: and its completion's flags
 * @early_inv_rkey: and the key it invalidated remotely, if it did
 * @sgt: data SG table
 * @nents: mapped entries in @sgt
 * @ref: send completion + answer (+ local invalidation)
 * @status: enum rdmablk_status of the answer; only statuses of the
 *	protocol, an unknown one from the wire is RDMABLK_S_IO_ERROR
 * @requeue: recovery put the request back: it is sent again after a
 *	reconnect rather than completed
 * @retries: times it was put back, at most RDMABLK_MAX_RETRIES
 * @credit: counted in its queue's &rdmablk_iqueue.used
 * @send_data: a READ that asked for its data by SEND
 *	(RDMABLK_CMD_SEND_DATA): nothing of it is mapped or registered
 * @start_ns: when the request began, for its latency: blk-mq's time stamp
 *	(taken with iostats on or an I/O scheduler), else its first dispatch
 * @sge: command, then inline or pushed payload; or the buffer of a batch
 *	of commands in its first request's SEND
 * @send_cqe: completion of the SEND
 * @inv_cqe: completion of a local invalidation
 * @reg_wr: fast registration
 * @push_wr: the RDMA WRITE of a pushed payload into push slot @push_slot
 * @push_slot: the push slot the request's payload is in, or -1
 * @push_sent: its RDMA WRITE was posted (while a post's failure is
 *	sorted out)
 * @send_wr: the command SEND
 * @batch_next: the next request in its queue's batch, under post_lock,
 *	then the poster's
 * @hold_node: in its queue's @held list while its command waits there
 * @msg: the request whose SEND carries this one's command: itself, or
 *	the first of a batch of commands (RDMABLK_CONN_CMD_BATCH); the
 *	poster's
 * @msg_next: in @msg's SEND, the command after this one, NULL for the
 *	last; read by @msg's send completion, which puts every request the
 *	SEND carried
 * @msg_sent: the SEND carrying this request's command was posted (while
 *	a post's failure is sorted out)
 * @msg_slot: the batch buffer of its queue's cmd_buf its SEND carries, -1 for its own command
 * @msg_cmds: commands in that buffer
 * @inv_wr: local invalidation
 * @first_sgl: inline SG chunk, keep last
 */
struct rdmablk_ireq {
	struct rdmablk_iqueue *queue;
	struct rdmablk_cmd *cmd;
	u8 opcode;
	struct ib_mr *mr;
	bool mr_valid;
	atomic_t arm;
	u16 gen;
	u16 early_status;
	int early_wc_flags;
	u32 early_inv_rkey;
	struct sg_table sgt;
	int nents;
	refcount_t ref;
	u16 status;
	bool requeue;
	u8 retries;
	bool credit;
	bool send_data;
	u64 start_ns;
	struct ib_sge sge[1 + RDMABLK_INLINE_SGE];
	struct ib_cqe send_cqe;
	struct ib_cqe inv_cqe;
	struct ib_reg_wr reg_wr;
	struct ib_rdma_wr push_wr;
	s16 push_slot;
	bool push_sent;
	struct ib_send_wr send_wr;
	struct rdmablk_ireq *batch_next;
	struct llist_node hold_node;
	struct rdmablk_ireq *msg;
	struct rdmablk_ireq *msg_next;
	bool msg_sent;
	s8 msg_slot;
	u8 msg_cmds;
	struct ib_send_wr inv_wr;
	struct scatterlist first_sgl[];
};

/**
 * struct rdmablk_ipath - one way to the export: a target address and the
 *	queues connected to it
 * @idev: the device it leads to
 * @id: its number in the device, from 0, never reused while attached
 * @addr: the target
 * @standby: used only while no other path is live
 * @queues: idev->nr_queues queues, one per hardware queue
 * @state: enum rdmablk_dev_state of the path, under idev->state_lock
 * @lost_at: jiffies when its connection was lost
 * @live_at: jiffies when it last became live; under idev->state_lock
 * @flaps: its losses in a row that each came soon after it became live
 *	(rdmablk_flaps_after_loss()); under idev->state_lock
 * @held: its next reconnect attempt is held back for flapping, past
 *	reconnect_delay; under idev->state_lock
 * @attempt: reconnect attempts since then
 * @extra_attempts: of those, made at once rather than after reconnect_delay
 * @last_error: why the connection was lost or the last attempt failed
 * @lost_why: the first loss a queue reported while an attach or reconnect
 *	attempt was connecting, or while the device is being detached (a
 *	constant string), NULL when none
 * @recovery_lock: serialises err_work, reconnect_work and the path's
 *	teardown; protects the queues' connections
 * @err_work: takes the queues down after the connection was lost: their
 *	requests go to another path at once, or wait for one
 * @reconnect_work: the next reconnect attempt
 * @ka_work: sends keep-alives, and notices unanswered ones
 * @want_qd: credits asked for per queue, the keep-alive one included
 * @kato: the keepalive_tmo (seconds) its queues connected with, which the
 *	target holds them to until they connect again; set as queue 0
 *	connects, under @recovery_lock, read under idev->state_lock by
 *	rdmablk_idev_ka_roll() once the path is LIVE
 * @reconnects: successful reconnects; written under @recovery_lock
 * @inflight: requests sent on the path and not completed yet (policy
 *	queue-depth)
 * @latency_ns: a moving average of its requests' latencies (policy
 *	min-latency), 0 before the first
 * @latency_at: jiffies of the last request it averages
 * @failovers: times its loss sent its requests to another path or made
 *	them wait for one
 * @failover_at: jiffies of the last of those, 0 for none
 * @flags: RDMABLK_IPATH_*
 */
struct rdmablk_ipath {
	struct rdmablk_idev *idev;
	u32 id;
	struct sockaddr_storage addr;
	bool standby;
	struct rdmablk_iqueue *queues;
	u32 state;

	unsigned long lost_at;
	unsigned long live_at;
	u32 flaps;
	u32 kato;
	bool held;
	u32 attempt;
	u32 extra_attempts;
	char last_error[RDMABLK_ERROR_LEN];
	const char *lost_why;

	struct mutex recovery_lock;	/* see above */
	struct work_struct err_work;
	struct delayed_work reconnect_work;
	struct delayed_work ka_work;
	u16 want_qd;
	u32 reconnects;
	atomic_t inflight;
	u64 latency_ns;
	unsigned long latency_at;
	u32 failovers;
	unsigned long failover_at;
	unsigned long flags;
};

enum {
	RDMABLK_IPATH_RESET,	/* reconnect at once, not after reconnect_delay */
};

/**
 * struct rdmablk_idev - an attached export: /dev/rdmablkN
 * @node: entry in rdmablk_idevs, under rdmablk_idevs_lock
 * @dump_id: its dump cursor (roles.h), given out under rdmablk_idevs_lock
 *	when it becomes RDMABLK_IDEV_ATTACHED
 * @index: N
 * @name: "rdmablkN"
 * @export_name: the export
 * @hostid: our identity, sent at OPEN
 * @key: our secret, or none (@key.hmac 0): connections authenticate with
 *	it before OPEN; wiped when the device is freed
 * @target_key: the target's secret for us, or none: the target must prove
 *	it holds it; wiped when the device is freed
 * @key_sem: protects @key and @target_key: read while a queue connects,
 *	written by DEV_SET
 * @info: what the target said about the export
 * @nr_queues: connections per path, one per hardware queue, the polled
 *	ones included
 * @nr_poll_queues: of those, polled ones (HCTX_TYPE_POLL): the last ones
 * @queue_depth: credits per queue
 * @max_io_size: bytes, negotiated
 * @paths: its paths, in slots (a removed path leaves a hole); changed
 *	under @paths_lock and @state_lock, published with RCU for the
 *	dispatcher (rdmablk_idev_select_path())
 * @next_path_id: the id the next path gets
 * @policy: enum rdmablk_mp_policy
 * @rr: grows by one a request sent with several paths: round-robin's
 *	turn, and where the policies start looking (ties take turns)
 * @paths_lock: serialises adding and removing paths with each other and
 *	with detach; held across connecting a new path
 * @tag_set: blk-mq tags
 * @tags: @tag_set's tags, NULL until blk_mq_alloc_tag_set() has returned
 *	them whole: published with smp_store_release() by
 *	rdmablk_idev_alloc_disk(), read with smp_load_acquire() by the
 *	answer path, which runs from the first path's connection on, before
 *	the tag set exists (an answer a target sends while attaching);
 *	cleared before the tag set is freed, once the queues are stopped
 * @disk: the block device, NULL until it exists
 * @state: enum rdmablk_dev_state of the device, under @state_lock: LIVE
 *	while a path is live; RECONNECTING while none is and one
 *	reconnects; DEAD when every path gave up; derived from the paths'
 *	(rdmablk_idev_update_state())
 * @state_lock: protects @state, @lost_at and the paths' state, attempt,
 *	extra_attempts, last_error and lost_why
 * @add_work: adds the disk (and reads its partition table) after attach
 * @tmo: recovery settings; read without a lock, written by DEV_SET
 * @lost_at: jiffies when the last live path was lost
 * @quiesce_lock: taken inside a path's recovery_lock, or alone by
 *	fail_fast_work; protects @quiesced and @fail_fast, held while
 *	(un)quiescing for want of a live path
 * @quiesced: the request queue is quiesced: no path is live
 * @fail_fast: fast_io_fail_tmo expired: I/O fails while reconnecting
 * @fail_fast_work: fires fast_io_fail_tmo after the last live path's loss
 * @flags: RDMABLK_IDEV_*
 */
struct rdmablk_idev {
	struct list_head node;
	unsigned long dump_id;
	int index;
	char name[DISK_NAME_LEN];
	char export_name[RDMABLK_EXPORT_NAME_MAX];
	u8 hostid[RDMABLK_UUID_SIZE];
	struct rdmablk_key key;
	struct rdmablk_key target_key;
	struct rw_semaphore key_sem;	/* see above */
	struct rdmablk_open_info info;
	u32 nr_queues;
	u32 nr_poll_queues;
	u32 queue_depth;
	u32 max_io_size;
	struct rdmablk_ipath __rcu *paths[RDMABLK_MAX_PATHS];
	u32 next_path_id;
	u32 policy;
	atomic_t rr;
	struct mutex paths_lock;	/* see above */
	struct blk_mq_tag_set tag_set;
	struct blk_mq_tags **tags;
	struct gendisk *disk;
	u32 state;
	spinlock_t state_lock;	/* see above; irq-safe */
	struct work_struct add_work;

	struct rdmablk_tmo tmo;
	unsigned long lost_at;

	struct mutex quiesce_lock;	/* see above */
	bool quiesced;
	bool fail_fast;
	struct delayed_work fail_fast_work;
	unsigned long flags;
};

enum {
	RDMABLK_IDEV_ATTACHED,	/* attach finished: lookups find the device */
	RDMABLK_IDEV_ADDING,	/* add_work is queued or running */
	RDMABLK_IDEV_ADDED,	/* the disk was added: del_gendisk() at detach */
};

/*
 * Whether @queue has a credit left for one more request: always where the
 * target granted the disk's tags, else while fewer than the grant are in
 * flight (&rdmablk_iqueue.credits). A glance, for choosing a path; taking
 * one is rdmablk_queue_rq()'s.
 */
static inline bool rdmablk_iqueue_has_credit(const struct rdmablk_idev *idev,
					     const struct rdmablk_iqueue *queue)
{
	u16 credits = READ_ONCE(queue->credits);

	return credits >= idev->queue_depth ||
	       atomic_read(&queue->used) < credits;
}

/*
 * The paths of @idev, in slot order, into @paths; their count. The caller
 * holds the device's paths_lock or its state_lock, which both are held
 * to change the array.
 */
static inline u32 rdmablk_idev_paths(struct rdmablk_idev *idev,
				     struct rdmablk_ipath **paths)
{
	u32 i, n = 0;

	for (i = 0; i < RDMABLK_MAX_PATHS; i++) {
		paths[n] = rcu_dereference_protected(idev->paths[i], 1);
		if (paths[n])
			n++;
	}
	return n;
}

#define iq_err(q, fmt, ...)						\
	do {								\
		const struct rdmablk_iqueue *__q = (q);			\
									\
		pr_err_ratelimited("%s: path %u queue %u: " fmt,	\
				   __q->idev->name, __q->path->id,	\
				   __q->qid, ##__VA_ARGS__);		\
	} while (0)

/* iqueue.c */
int rdmablk_iqueue_connect(struct rdmablk_iqueue *queue, u16 queue_depth,
			   u32 keepalive_ms, struct netlink_ext_ack *extack);
int rdmablk_iqueue_keepalive(struct rdmablk_iqueue *queue, unsigned long kato);
int rdmablk_iqueue_auth(struct rdmablk_iqueue *queue,
			struct netlink_ext_ack *extack);
int rdmablk_iqueue_open(struct rdmablk_iqueue *queue,
			struct netlink_ext_ack *extack);
void rdmablk_iqueue_stop(struct rdmablk_iqueue *queue);
void rdmablk_iqueue_free(struct rdmablk_iqueue *queue);
int rdmablk_iqueue_init_mrs(struct rdmablk_iqueue *queue, u32 max_pages);
int rdmablk_iqueue_poll(struct rdmablk_iqueue *queue);
void rdmablk_ireq_send_done(struct ib_cq *cq, struct ib_wc *wc);
void rdmablk_ireq_posted(struct rdmablk_iqueue *queue, struct request *rq);
void rdmablk_ireq_inv_done(struct ib_cq *cq, struct ib_wc *wc);

/* isubmit.c */
blk_status_t rdmablk_iqueue_submit(struct rdmablk_iqueue *queue,
				   struct request *rq, bool more);
void rdmablk_iqueue_commit(struct rdmablk_iqueue *queue);
void rdmablk_iqueue_drop_batch(struct rdmablk_iqueue *queue);
void rdmablk_iqueue_acked(struct rdmablk_iqueue *queue, unsigned int cmds);
void rdmablk_ireq_unmap(struct request *rq);
void rdmablk_ireq_reset(struct request *rq);

/* idev.c */
extern int rdmablk_major;	/* registered at init, for every disk */

/* ipath.c: paths, their life and their choice per request */
struct rdmablk_ipath *rdmablk_ipath_alloc(struct rdmablk_idev *idev,
					  const struct sockaddr_storage *addr,
					  bool standby);
void rdmablk_ipath_free(struct rdmablk_ipath *path);
struct rdmablk_ipath *rdmablk_idev_select_path(struct rdmablk_idev *idev,
					       u32 qid);
void rdmablk_ipath_account(struct rdmablk_ipath *path, u64 latency_ns);
int rdmablk_idev_path_add(const struct rdmablk_path_req *req,
			  struct rdmablk_dev_info *info,
			  struct netlink_ext_ack *extack);
int rdmablk_idev_path_del(const struct rdmablk_path_req *req,
			  struct netlink_ext_ack *extack);
int rdmablk_idev_path_set(const struct rdmablk_path_req *req,
			  struct netlink_ext_ack *extack);
int rdmablk_idev_add_first_path(struct rdmablk_idev *idev,
				const struct rdmablk_attach_req *req,
				struct netlink_ext_ack *extack);
void rdmablk_idev_destroy_paths(struct rdmablk_idev *idev);
struct rdmablk_idev *rdmablk_idev_get_locked(int index);

/* irecover.c: state changes and recovery; see the notes atop idev.c */
u32 rdmablk_idev_state(struct rdmablk_idev *idev);
bool __rdmablk_idev_change_state(struct rdmablk_idev *idev, u32 new,
				 const char *why);
u32 rdmablk_ipath_state(struct rdmablk_ipath *path);
bool __rdmablk_ipath_change_state(struct rdmablk_ipath *path, u32 new,
				  const char *why);
bool rdmablk_ipath_arm(struct rdmablk_ipath *path, struct delayed_work *dwork,
		       unsigned long delay, u32 state, bool now);
u32 rdmablk_idev_max_attempts(const struct rdmablk_tmo *tmo, u32 extra);
bool rdmablk_ipath_attempt_now(struct rdmablk_ipath *path, bool force);
void rdmablk_ipath_conn_lost(struct rdmablk_ipath *path, const char *why);
void rdmablk_idev_ka_roll(struct rdmablk_idev *idev);
int rdmablk_ipath_go_live(struct rdmablk_ipath *path, const char **why);
int rdmablk_ipath_connect(struct rdmablk_ipath *path, bool learn,
			  const struct rdmablk_attach_req *req,
			  struct netlink_ext_ack *extack);
void rdmablk_ipath_free_queues(struct rdmablk_ipath *path);
void rdmablk_idev_quiesce_unless_failing(struct rdmablk_idev *idev);
void rdmablk_idev_unquiesce(struct rdmablk_idev *idev);
void rdmablk_idev_path_live(struct rdmablk_idev *idev);
void rdmablk_ipath_revive(struct rdmablk_ipath *path);
void rdmablk_ipath_teardown(struct rdmablk_ipath *path, bool requeue);
void rdmablk_ipath_err_work(struct work_struct *work);
void rdmablk_ipath_reconnect_work(struct work_struct *work);
void rdmablk_idev_fail_fast_work(struct work_struct *work);
void rdmablk_ipath_ka_work(struct work_struct *work);

/* iblk.c: the block device */
int rdmablk_idev_alloc_disk(struct rdmablk_idev *idev);
void rdmablk_idev_free_disk(struct rdmablk_idev *idev);
void rdmablk_idev_add_work(struct work_struct *work);

/* ireport.c: DEV_GET snapshots, events, sysfs */
extern const struct attribute_group *rdmablk_disk_groups[];
void rdmablk_iqueue_stats_read(struct rdmablk_iqueue *queue,
			       struct rdmablk_queue_info *qi);
void rdmablk_idev_snapshot(struct rdmablk_idev *idev,
			   struct rdmablk_dev_info *info);
void rdmablk_idev_event(struct rdmablk_idev *idev, enum rdmablk_event event,
			const struct rdmablk_ipath *path, const char *reason);
void rdmablk_idev_uevent(struct rdmablk_idev *idev);

#endif /* RDMABLK_INITIATOR_H */
