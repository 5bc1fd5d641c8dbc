/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of a target connection share: the connection, its
 * receive buffers and request contexts. tconn.c owns the connection's
 * life (connect, admission, QP and buffers, OPEN, keep-alive, teardown),
 * tio.c the commands (receive, dispatch, I/O), trsp.c their answers
 * (responses, coalesced ones), tpush.c the push area small WRITEs' data
 * is written into, disc.c the discovery session.
 *
 * Locking and lifetime:
 *  - rdmablk_tconns_lock (spinlock) protects rdmablk_tconns, the list of
 *    every connection, used at device removal and module unload, and
 *    rdmablk_disc_conns, the discovery sessions told of export changes,
 *    each connection's @hostid and @hostid_set (the host it claims to
 *    be, which HOST_SET with HOST_REAUTH and HOST_DEL close by), and
 *    rdmablk_tdevs_gone, the RDMA devices being removed, on which no
 *    connection is taken.
 *  - tconn->lock (spinlock, taken from bio completion, so irq-safe)
 *    protects @free_reqs, @nr_free, @pending (and which command of a
 *    pending batch is next), @failed, @nr_failed, @outstanding, the
 *    responses waiting to be sent together (@rsp_ready, @nr_ready and
 *    their counters) and the discovery session's waiting command
 *    (@disc_wait and what it asked).
 *  - tconn->tx_lock (irq-safe; never taken with tconn->lock held nor the
 *    other way round; the device's send queue lock nests in it) is held
 *    across deciding whether an answer signals and posting it, and
 *    protects the quiet answers' contexts waiting for a signalled one
 *    (@quiet and its counts, trsp.c).
 *  - The push area's slots (@push.busy) are taken and given back with
 *    atomic bit operations (tpush.c), no lock.
 *  - tconn->budget.lock (irq-safe, innermost) protects the payload the
 *    commands pin and the commands waiting for it (tbudget.c). A command
 *    holds its request context while it waits; waiting ones are started
 *    from send completions, in CQ work, never once the connection is
 *    closing; teardown takes those still waiting, after the drain.
 *  - The CQ is polled by rdmablk's own pass on a workqueue (tcq.c), so
 *    command handling may sleep (bio and SG allocation, export lookup).
 *    Receive completions of one connection are handled one at a time, so
 *    @exp is written (at OPEN) and read without a lock there; teardown
 *    reads it after the QP is drained and every request context came back.
 *  - A discovery session (RDMABLK_CONN_DISCOVERY) opens no export; it
 *    answers DISC_LOG at once and holds one DISC_WAIT until the export
 *    list's generation moves, which rdmablk_tconn_disc_notify() signals
 *    through @disc_work.
 *  - A connection is torn down once, by rdmablk_tconn_release() on its own
 *    workqueue (rdmablk_tconn_wq), scheduled by rdmablk_tconn_close() (idempotent through
 *    RDMABLK_TCONN_CLOSING). It disconnects, drains the QP, gives back the
 *    contexts of commands still waiting for the payload budget, waits for
 *    every request context to come back (a bio in flight completes first), then
 *    reads @exp (final only then: OPEN may have run until the drain),
 *    unlinks from it and drops its reference. The cm id is destroyed
 *    before the QP (rdma_destroy_id() waits for a running event handler
 *    of the id), then the QP, CQ, buffers and PD.
 */
#ifndef RDMABLK_TCONN_H
#define RDMABLK_TCONN_H

#include <linux/atomic.h>
#include <linux/bio.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>
#include <rdma/rw.h>

#include "../auth.h"
#include "target.h"
#include "tbudget.h"
#include "tpages.h"

enum {
	RDMABLK_TCONN_CLOSING,
};

struct rdmablk_tconn;

/**
 * struct rdmablk_trecv - a posted receive buffer
 * @cqe: completion entry
 * @conn: owner
 * @node: entry in @conn->pending while waiting for a request context
 * @cmd: the command
 * @page: inline payload, or the commands after the first of a batch, at
 *	@off; receives of payloads under a page share one (the first owns
 *	it and its mapping)
 * @off: where in @page the payload lands
 * @len: bytes received
 * @nr_cmds: commands it holds: 1, or those of a batch (RDMABLK_CMD_BATCH)
 * @next_cmd: the next of them to be given a request context, under
 *	@conn->lock once the receive was handed to dispatch; the receive is
 *	posted again once the last one was decoded (a batch carries no
 *	payload)
 * @sge: command and payload
 * @wr: the receive work request
 */
struct rdmablk_trecv {
	struct ib_cqe cqe;
	struct rdmablk_tconn *conn;
	struct list_head node;
	struct rdmablk_cmd *cmd;
	struct page *page;
	u32 off;
	u32 len;
	u8 nr_cmds;
	u8 next_cmd;
	struct ib_sge sge[2];
	struct ib_recv_wr wr;
};

/* Pages a command's own bio holds (struct rdmablk_treq): 16 KiB. */
#define RDMABLK_TREQ_INLINE_VECS	4

/**
 * struct rdmablk_treq - context of one command being executed
 * @node: entry in @conn->free_reqs while free
 * @conn: owner
 * @cmd: the decoded command
 * @recv: receive buffer still holding an inline payload, else NULL
 * @rsp: response buffer (struct rdmablk_rsp, for OPEN followed by
 *	 struct rdmablk_open_rsp, for discovery by a struct rdmablk_disc_log)
 * @rsp_extra: bytes after struct rdmablk_rsp a successful answer carries
 * @rsp_dma: its DMA address
 * @rsp_sge: response SGE
 * @rsp_wr: response SEND
 * @rsp_cqe: completion of @rsp_wr, or of the WRITE_WITH_IMM ending a READ
 * @rw_cqe: completion of the RDMA READ of a write payload
 * @batch: the request contexts whose responses this one's SEND carried
 *	with its own (RDMABLK_CONN_RSP_BATCH), given back with it when the
 *	SEND completes
 * @quiet: the request contexts of the quiet answers posted before this
 *	one's signalled answer, given back with it (trsp.c)
 * @quiet_cqe: completion of this one's answer posted quiet: only a failed
 *	one completes
 * @rw: RDMA READ/WRITE context, valid when @sgl is set and @rw_ready
 * @rw_ready: @rw was initialised and not destroyed yet: @sgl is mapped
 * @send_mapped: @sgl is mapped for a READ's data sent by SEND_WITH_IMM
 *	(RDMABLK_CMD_SEND_DATA), through @data_sge, not @rw
 * @data_sge: the one page of such a READ's data
 * @keyed: the command's rkey was used, so the response may invalidate it
 * @sgl: data pages, from @conn->tpages: stale until overwritten
 * @nents: entries in @sgl
 * @pin: claim on @conn->budget for the payload pages
 * @pinned: bytes counted in @conn->budget, given back with the pages
 * @status: enum rdmablk_status to answer with
 * @push_slot: the push slot a pushed WRITE holds until its answer, or -1
 * @inline_bio: the bio of a transfer of up to RDMABLK_TREQ_INLINE_VECS
 *	pages, or of a FLUSH: no allocation on the hot path
 * @inline_bvec: its vector
 */
struct rdmablk_treq {
	struct list_head node;
	struct rdmablk_tconn *conn;
	struct rdmablk_cmd_info cmd;
	struct rdmablk_trecv *recv;
	void *rsp;
	u32 rsp_extra;
	u64 rsp_dma;
	struct ib_sge rsp_sge;
	struct ib_send_wr rsp_wr;
	struct ib_cqe rsp_cqe;
	struct ib_cqe rw_cqe;
	struct list_head batch;
	struct list_head quiet;
	struct ib_cqe quiet_cqe;
	struct rdma_rw_ctx rw;
	bool rw_ready;
	bool send_mapped;
	struct ib_sge data_sge;
	bool keyed;
	struct scatterlist *sgl;
	unsigned int nents;
	struct rdmablk_tbudget_wait pin;
	u32 pinned;
	u16 status;
	int push_slot;
	struct bio inline_bio;
	struct bio_vec inline_bvec[RDMABLK_TREQ_INLINE_VECS];
};

/**
 * struct rdmablk_tpush - a connection's push area (tpush.c)
 * @pages: its pages, RDMABLK_PUSH_SLOT_SIZE-byte slots back to back
 * @dma: their DMA addresses
 * @busy: bit N set while an outstanding command holds slot N
 * @mr: the registration the initiator writes through
 * @reg_wr: its registration, posted at OPEN
 * @reg_cqe: its completion
 * @nr: slots; 0: no push area
 * @registered: the registration was posted: OPEN named the area
 */
struct rdmablk_tpush {
	struct page **pages;
	u64 *dma;
	unsigned long *busy;
	struct ib_mr *mr;
	struct ib_reg_wr reg_wr;
	struct ib_cqe reg_cqe;
	u16 nr;
	bool registered;
};

/**
 * struct rdmablk_tconn - one connection of the target
 * @node: entry in rdmablk_tconns
 * @cm_id: its rdma_cm id
 * @dev: RDMA device
 * @port_num: port of @cm_id
 * @pd: protection domain
 * @cq: send and receive completions
 * @qp: the queue pair
 * @params: negotiated at connect
 * @read_imm_max: largest READ answered by immediate data under
 *	RDMABLK_CONN_READ_IMM (read_imm_max when the connection was made)
 * @exp: export opened by OPEN, NULL before
 * @auth: the authentication exchange, once begun (tauth.c)
 * @auth_mode: enum rdmablk_auth_mode the exchange ended in
 * @disc_used: a discovery session answered a DISC_* command: too late to
 *	authenticate
 * @hostid: the host id this connection claimed first (AUTH_CHALLENGE, OPEN,
 *	DISC_*; it may claim no other), valid with @hostid_set;
 *	rdmablk_tconns_lock
 * @hostid_set: @hostid holds a claim
 * @exp_node: entry in @exp->conns
 * @disc_node: entry in rdmablk_disc_conns (discovery sessions)
 * @push: the push area (RDMABLK_CONN_WRITE_PUSH), or none
 * @tpages: payload pages this connection's commands reuse
 * @budget: payload its commands may pin at once, and the commands waiting
 *	for it (max_payload_per_connection when the connection was made)
 * @rsp_size: bytes of each response buffer
 * @recvs: @nr_recvs receive buffers
 * @nr_recvs: count
 * @reqs: @nr_reqs request contexts
 * @nr_reqs: count
 * @send_sge: the send_sge parameter when the connection was made
 * @send_wr: work requests the send queue holds (responses and RDMA
 *	READ/WRITE, tqp.c), for statistics
 * @rsp_batch_max: most responses one SEND carries (RDMABLK_CONN_RSP_BATCH:
 *	RDMABLK_RSP_BATCH_MAX, or fewer where the device gathers fewer SGEs)
 * @signal_every: of the answers that may go quiet, one in this many
 *	signals (trsp.c); 0 or 1: all do
 * @quiet_max: most request contexts quiet answers hold (a quarter of
 *	@nr_reqs; 0: none goes quiet)
 * @rsp_defer: a pass of the CQ is running (tcq.c): answers made meanwhile
 *	wait for its end
 * @cq_work: the pass polling @cq (tcq.c)
 * @cq_dead: teardown stopped the passes
 * @lock: protects the fields below it
 * @free_reqs: free request contexts
 * @nr_free: their number
 * @pending: receives waiting for a free request context
 * @failed: request contexts whose WR chain was posted only in part, so
 *	the device may still read their pages: they are given back by
 *	teardown, after the QP is drained
 * @nr_failed: their number
 * @outstanding: commands received and not answered yet
 * @rsp_ready: request contexts whose responses are ready and wait to go
 *	in one SEND, at most @rsp_batch_max; sent when no other command is
 *	outstanding, when full, or at the end of a pass: never held for more
 *	to come
 * @nr_ready: their number
 * @rsp_batches: batched SENDs posted, for statistics
 * @rsp_batched: responses they carried
 * @disc_wait: the DISC_WAIT being held, or NULL
 * @disc_gen: the generation @disc_wait's host has seen
 * @disc_hostid: the host @disc_wait asks for
 * @tx_lock: held across deciding whether an answer signals and posting
 *	it; protects the fields below it (trsp.c)
 * @quiet: request contexts of the answers posted quiet since the last
 *	signalled one, in the order they were posted
 * @nr_quiet: answers among them (a batch counts once)
 * @nr_quiet_reqs: request contexts among them (a batch's each count)
 * @quiet_answers: answers posted quiet, for statistics
 * @wq: teardown waits here for request contexts to come back
 * @flags: RDMABLK_TCONN_*
 * @release_work: teardown
 * @last_rx: jiffies of the last command received
 * @tx_inflight: response chains posted and not completed
 * @lone_answers: answers to lone commands sent at once (trsp.c), for
 *	statistics
 * @tx_progress: jiffies of the last post onto an idle send queue or of
 *	the last send completion
 * @ka_work: drops the connection when the initiator fell silent
 * @open_work: drops the connection when no export was opened in time
 *	(abandoned connects, idle hostile peers)
 * @disc_work: answers @disc_wait once the export list changed
 */
struct rdmablk_tconn {
	struct list_head node;
	struct rdma_cm_id *cm_id;
	struct ib_device *dev;
	u32 port_num;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *qp;
	struct rdmablk_conn_params params;
	u32 read_imm_max;
	struct rdmablk_export *exp;
	struct rdmablk_auth *auth;
	u8 auth_mode;
	bool disc_used;
	u8 hostid[RDMABLK_UUID_SIZE];
	bool hostid_set;
	struct list_head exp_node;
	struct list_head disc_node;
	struct rdmablk_tpush push;
	struct rdmablk_tpages tpages;
	struct rdmablk_tbudget budget;
	u32 rsp_size;
	struct rdmablk_trecv *recvs;
	unsigned int nr_recvs;
	struct rdmablk_treq *reqs;
	unsigned int nr_reqs;
	unsigned int send_sge;
	unsigned int send_wr;
	unsigned int rsp_batch_max;
	unsigned int signal_every;
	unsigned int quiet_max;
	bool rsp_defer;
	struct work_struct cq_work;
	bool cq_dead;

	spinlock_t lock;	/* see the locking notes at the top of tconn.h */
	struct list_head free_reqs;
	unsigned int nr_free;
	struct list_head pending;
	struct list_head failed;
	unsigned int nr_failed;
	unsigned int outstanding;
	struct list_head rsp_ready;
	unsigned int nr_ready;
	u64 rsp_batches;
	u64 rsp_batched;
	struct rdmablk_treq *disc_wait;
	u64 disc_gen;
	u8 disc_hostid[RDMABLK_UUID_SIZE];

	spinlock_t tx_lock;	/* see trsp.c */
	struct list_head quiet;
	unsigned int nr_quiet;
	unsigned int nr_quiet_reqs;
	u64 quiet_answers;

	wait_queue_head_t wq;
	unsigned long flags;
	struct work_struct release_work;
	unsigned long last_rx;
	atomic_t tx_inflight;
	atomic64_t lone_answers;
	unsigned long tx_progress;
	struct delayed_work ka_work;
	struct delayed_work open_work;
	struct work_struct disc_work;
};

extern struct list_head rdmablk_disc_conns;
extern spinlock_t rdmablk_tconns_lock;

#define tconn_err_ratelimited(conn, fmt, ...)				\
	pr_err_ratelimited("target %pISpc: " fmt,			\
			   &(conn)->cm_id->route.addr.dst_addr, ##__VA_ARGS__)
#define tconn_info_ratelimited(conn, fmt, ...)				\
	pr_info_ratelimited("target %pISpc: " fmt,			\
			    &(conn)->cm_id->route.addr.dst_addr, ##__VA_ARGS__)

#define RDMABLK_PUSH_SLOTS_PER_PAGE	(PAGE_SIZE / RDMABLK_PUSH_SLOT_SIZE)

/* Push slot @slot: the index of its page in the area, *@off in it. */
static inline unsigned int rdmablk_tpush_locate(unsigned int slot,
						unsigned int *off)
{
	*off = (slot % RDMABLK_PUSH_SLOTS_PER_PAGE) * RDMABLK_PUSH_SLOT_SIZE;
	return slot / RDMABLK_PUSH_SLOTS_PER_PAGE;
}

static inline struct page *rdmablk_tpush_page(const struct rdmablk_tpush *push,
					      unsigned int slot,
					      unsigned int *off)
{
	return push->pages[rdmablk_tpush_locate(slot, off)];
}

/* The payload a receive holds (inline data, or a batch's commands). */
static inline void *rdmablk_trecv_data(const struct rdmablk_trecv *recv)
{
	return page_address(recv->page) + recv->off;
}

/* tconn.c */
void rdmablk_tconn_close(struct rdmablk_tconn *conn);
bool rdmablk_tconn_claim_host(struct rdmablk_tconn *conn, const u8 *hostid);
unsigned int rdmablk_tconn_close_host(const u8 *hostid);
u16 rdmablk_tconn_open(struct rdmablk_tconn *conn, struct rdmablk_treq *req,
		       struct rdmablk_trecv *recv, u32 inline_len);

/* tauth.c */
u16 rdmablk_tconn_auth(struct rdmablk_tconn *conn, struct rdmablk_treq *req,
		       struct rdmablk_trecv *recv, u32 inline_len);
u16 rdmablk_tconn_auth_admit(struct rdmablk_tconn *conn, const u8 *hostid,
			     const char *name, bool auth_required);
void rdmablk_tconn_auth_release(struct rdmablk_tconn *conn);

/* tio.c */
void rdmablk_tconn_recv_done(struct ib_cq *cq, struct ib_wc *wc);
int rdmablk_trecv_post(struct rdmablk_trecv *recv);
void rdmablk_treq_rw_done(struct ib_cq *cq, struct ib_wc *wc);
void rdmablk_treq_unmap(struct rdmablk_treq *req);
void rdmablk_treq_run_waiting(struct rdmablk_tconn *conn);
void rdmablk_treq_free(struct rdmablk_treq *req);

/* trsp.c */
void rdmablk_treq_post_failed(struct rdmablk_treq *req, bool posted,
			      bool unanswered);
void rdmablk_tconn_send_done(struct ib_cq *cq, struct ib_wc *wc);
void rdmablk_tconn_quiet_done(struct ib_cq *cq, struct ib_wc *wc);
void rdmablk_tconn_quiet_reclaim(struct rdmablk_tconn *conn);
void rdmablk_trsp_setup(struct rdmablk_tconn *conn);
void rdmablk_tconn_pass_begin(struct rdmablk_tconn *conn);
void rdmablk_tconn_pass_end(struct rdmablk_tconn *conn);

/* tqp.c */
int rdmablk_tqp_fit(struct rdmablk_tconn *conn, u16 depth);
int rdmablk_tqp_create(struct rdmablk_tconn *conn);
void rdmablk_tqp_destroy(struct rdmablk_tconn *conn);

/* tcq.c */
int rdmablk_tconn_create_cq(struct rdmablk_tconn *conn, unsigned int nr_cqe);
void rdmablk_tconn_destroy_cq(struct rdmablk_tconn *conn);
void rdmablk_tconn_kick(struct rdmablk_tconn *conn);
int rdmablk_tcq_init(void);
void rdmablk_tcq_exit(void);
void rdmablk_treq_respond(struct rdmablk_treq *req);

/* tpush.c */
unsigned int rdmablk_tpush_want(struct ib_device *dev,
				unsigned int queue_depth);
int rdmablk_tpush_alloc(struct rdmablk_tconn *conn);
void rdmablk_tpush_free(struct rdmablk_tconn *conn);
void rdmablk_tpush_register(struct rdmablk_tconn *conn,
			    struct rdmablk_open_info *info);
bool rdmablk_tpush_claim(struct rdmablk_tconn *conn, struct rdmablk_treq *req);
void rdmablk_tpush_release(struct rdmablk_treq *req);

/* disc.c */
void rdmablk_tconn_disc_handle(struct rdmablk_tconn *conn,
			       struct rdmablk_treq *req,
			       struct rdmablk_trecv *recv, u32 inline_len);
void rdmablk_tconn_disc_work(struct work_struct *work);
void rdmablk_tconn_disc_stop(struct rdmablk_tconn *conn);
void rdmablk_tconn_disc_release(struct rdmablk_tconn *conn);

#endif /* RDMABLK_TCONN_H */
