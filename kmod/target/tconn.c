// SPDX-License-Identifier: GPL-2.0
/*
 * Target connections: one per initiator queue. Commands arrive by RECV,
 * payload moves by RDMA READ/WRITE straight between the initiator's
 * registered pages and the pages of the bio sent to the backing device
 * (the kernel's rdma_rw API), responses leave by SEND; a successful small
 * READ is answered by the immediate data of its last RDMA WRITE instead
 * (RDMABLK_CONN_READ_IMM). Payload pages come from the connection's own
 * cache (tpages.c), uncleared but never holding another connection's bytes.
 *
 * Locking and lifetime:
 *  - rdmablk_tconns_lock (spinlock) protects rdmablk_tconns, the list of
 *    every connection, used at device removal and module unload, and
 *    rdmablk_disc_conns, the discovery sessions told of export changes.
 *  - tconn->lock (spinlock, taken from bio completion, so irq-safe)
 *    protects @free_reqs, @nr_free, @pending, @outstanding and the
 *    discovery session's waiting command (@disc_wait and what it asked).
 *  - The CQ is polled from a workqueue (IB_POLL_WORKQUEUE), so command
 *    handling may sleep (bio and SG allocation, export lookup). Receive
 *    completions of one connection are handled one at a time, so @exp is
 *    written (at OPEN) and read without a lock there; teardown reads it
 *    after the QP is drained and every request context came back.
 *  - A discovery session (RDMABLK_CONN_DISCOVERY) opens no export; it
 *    answers DISC_LOG at once and holds one DISC_WAIT until the export
 *    list's generation moves, which rdmablk_tconn_disc_notify() signals
 *    through @disc_work.
 *  - A connection is torn down once, by rdmablk_tconn_release() on
 *    rdmablk_wq, scheduled by rdmablk_tconn_close() (idempotent through
 *    RDMABLK_TCONN_CLOSING). It disconnects, drains the QP, waits for every
 *    request context to come back (a bio in flight completes first), then
 *    reads @exp (final only then: OPEN may have run until the drain),
 *    unlinks from it and drops its reference. The cm id is destroyed
 *    before the QP (rdma_destroy_id() waits for a running event handler
 *    of the id), then the QP, CQ, buffers and PD.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/dma-mapping.h>
#include <linux/moduleparam.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <net/ipv6.h>
#include <rdma/ib_cm.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>
#include <rdma/rw.h>

#include "target.h"
#include "tpages.h"

/* Most commands one connection may have outstanding. */
#define RDMABLK_TARGET_MAX_QD	256
/* A connection that has not opened an export by then is dropped. */
#define RDMABLK_OPEN_TIMEOUT	(15 * HZ)

/*
 * Largest READ answered by immediate data. It saves two packets per READ,
 * but costs the initiator a local invalidation whose completion waits for
 * the completions posted before it: measured a gain for 4 KiB reads and a
 * loss from 16 KiB up (performance.md).
 */
static unsigned int rdmablk_read_imm_max = 4096;
module_param_named(read_imm_max, rdmablk_read_imm_max, uint, 0644);
MODULE_PARM_DESC(read_imm_max,
		 "Target: largest READ, in bytes, completed by RDMA WRITE_WITH_IMM instead of a response when the initiator offers it; 0: never; applies to new connections (default: 4096)");

/*
 * Admission: every connection costs a PD, a CQ, a QP and buffers before
 * its initiator has proven anything, so how many the target takes is
 * bounded, in all and per initiator address.
 */
static unsigned int rdmablk_max_conns = 1024;
module_param_named(max_connections, rdmablk_max_conns, uint, 0644);
MODULE_PARM_DESC(max_connections,
		 "Target: most connections (I/O queues and discovery sessions) of all initiators together; beyond, connect requests are refused with REJ_RESOURCES (default: 1024)");

static unsigned int rdmablk_max_conns_per_host = 256;
module_param_named(max_connections_per_host, rdmablk_max_conns_per_host,
		   uint, 0644);
MODULE_PARM_DESC(max_connections_per_host,
		 "Target: most connections from one initiator address; beyond, connect requests are refused with REJ_RESOURCES; 0: only max_connections applies (default: 256, four attachments of 64 queues)");

/*
 * RNR retries of our SENDs asked for in the REP; the QP's own count comes
 * from the initiator's REQ, so a peer that stops posting receives can make
 * them retry for ever. RDMABLK_SEND_DEADLINE bounds that: a connection
 * whose posted SENDs and RDMA WRITEs made no progress for that long is
 * dropped, and the payload pages of its commands freed.
 */
#define RDMABLK_TARGET_RNR_RETRY	6
#define RDMABLK_SEND_DEADLINE		(10 * HZ)

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
 * @page: inline payload
 * @len: bytes received
 * @sge: command and payload
 * @wr: the receive work request
 */
struct rdmablk_trecv {
	struct ib_cqe cqe;
	struct rdmablk_tconn *conn;
	struct list_head node;
	struct rdmablk_cmd *cmd;
	struct page *page;
	u32 len;
	struct ib_sge sge[2];
	struct ib_recv_wr wr;
};

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
 * @rw: RDMA READ/WRITE context, valid when @sgl is set and @rw_ready
 * @rw_ready: @rw was initialised and not destroyed yet: @sgl is mapped
 * @keyed: the command's rkey was used, so the response may invalidate it
 * @sgl: data pages, from @conn->tpages: stale until overwritten
 * @nents: entries in @sgl
 * @status: enum rdmablk_status to answer with
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
	struct rdma_rw_ctx rw;
	bool rw_ready;
	bool keyed;
	struct scatterlist *sgl;
	unsigned int nents;
	u16 status;
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
 * @exp_node: entry in @exp->conns
 * @disc_node: entry in rdmablk_disc_conns (discovery sessions)
 * @tpages: payload pages this connection's commands reuse
 * @rsp_size: bytes of each response buffer
 * @recvs: @nr_recvs receive buffers
 * @nr_recvs: count
 * @reqs: @nr_reqs request contexts
 * @nr_reqs: count
 * @lock: protects the fields below it
 * @free_reqs: free request contexts
 * @nr_free: their number
 * @pending: receives waiting for a free request context
 * @failed: request contexts whose WR chain was posted only in part, so
 *	the device may still read their pages: they are given back by
 *	teardown, after the QP is drained
 * @nr_failed: their number
 * @outstanding: commands received and not answered yet
 * @disc_wait: the DISC_WAIT being held, or NULL
 * @disc_gen: the generation @disc_wait's host has seen
 * @disc_hostid: the host @disc_wait asks for
 * @wq: teardown waits here for request contexts to come back
 * @flags: RDMABLK_TCONN_*
 * @release_work: teardown
 * @last_rx: jiffies of the last command received
 * @tx_inflight: response chains posted and not completed
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
	struct list_head exp_node;
	struct list_head disc_node;
	struct rdmablk_tpages tpages;
	u32 rsp_size;
	struct rdmablk_trecv *recvs;
	unsigned int nr_recvs;
	struct rdmablk_treq *reqs;
	unsigned int nr_reqs;

	spinlock_t lock;	/* see the locking notes at the top */
	struct list_head free_reqs;
	unsigned int nr_free;
	struct list_head pending;
	struct list_head failed;
	unsigned int nr_failed;
	unsigned int outstanding;
	struct rdmablk_treq *disc_wait;
	u64 disc_gen;
	u8 disc_hostid[RDMABLK_UUID_SIZE];

	wait_queue_head_t wq;
	unsigned long flags;
	struct work_struct release_work;
	unsigned long last_rx;
	atomic_t tx_inflight;
	unsigned long tx_progress;
	struct delayed_work ka_work;
	struct delayed_work open_work;
	struct work_struct disc_work;
};

static LIST_HEAD(rdmablk_tconns);
static LIST_HEAD(rdmablk_disc_conns);
static DEFINE_SPINLOCK(rdmablk_tconns_lock);

#define tconn_err_ratelimited(conn, fmt, ...)				\
	pr_err_ratelimited("target %pISpc: " fmt,			\
			   &(conn)->cm_id->route.addr.dst_addr, ##__VA_ARGS__)

static void rdmablk_tconn_handle(struct rdmablk_tconn *conn,
				 struct rdmablk_treq *req,
				 struct rdmablk_trecv *recv);

/**
 * rdmablk_tconn_close() - schedule teardown of a connection, once
 * @conn: the connection
 *
 * Safe from any context and to call more than once.
 */
static void rdmablk_tconn_close(struct rdmablk_tconn *conn)
{
	if (!test_and_set_bit(RDMABLK_TCONN_CLOSING, &conn->flags))
		queue_work(rdmablk_wq, &conn->release_work);
}

static void rdmablk_tconn_protocol_error(struct rdmablk_tconn *conn,
					 const char *what)
{
	tconn_err_ratelimited(conn, "protocol violation: %s; disconnecting\n",
			      what);
	rdmablk_tconn_close(conn);
}

static int rdmablk_trecv_post(struct rdmablk_trecv *recv)
{
	struct rdmablk_tconn *conn = recv->conn;
	int ret;

	ib_dma_sync_single_for_device(conn->dev, recv->sge[0].addr,
				      recv->sge[0].length, DMA_FROM_DEVICE);
	ib_dma_sync_single_for_device(conn->dev, recv->sge[1].addr,
				      recv->sge[1].length, DMA_FROM_DEVICE);
	ret = ib_post_recv(conn->qp, &recv->wr, NULL);
	if (ret) {
		tconn_err_ratelimited(conn, "cannot post a receive: %d\n", ret);
		rdmablk_tconn_close(conn);
	}
	return ret;
}

/* Give a request context back, or hand it to a command that waited. */
static void rdmablk_treq_free(struct rdmablk_treq *req)
{
	struct rdmablk_tconn *conn = req->conn;
	struct rdmablk_trecv *recv = NULL;
	unsigned long flags;

	req->recv = NULL;
	req->sgl = NULL;
	req->rw_ready = false;
	req->keyed = false;

	spin_lock_irqsave(&conn->lock, flags);
	if (!list_empty(&conn->pending) &&
	    !test_bit(RDMABLK_TCONN_CLOSING, &conn->flags)) {
		recv = list_first_entry(&conn->pending, struct rdmablk_trecv,
					node);
		list_del(&recv->node);
	} else {
		list_add(&req->node, &conn->free_reqs);
		conn->nr_free++;
	}
	spin_unlock_irqrestore(&conn->lock, flags);

	if (recv)
		rdmablk_tconn_handle(conn, req, recv);
	else
		wake_up(&conn->wq);
}

static void rdmablk_treq_unmap(struct rdmablk_treq *req)
{
	struct rdmablk_tconn *conn = req->conn;
	enum dma_data_direction dir = req->cmd.opcode == RDMABLK_OP_READ ?
				      DMA_TO_DEVICE : DMA_FROM_DEVICE;

	if (req->rw_ready)
		rdma_rw_ctx_destroy(&req->rw, conn->qp, conn->port_num,
				    req->sgl, req->nents, dir);
	rdmablk_tpages_free(&conn->tpages, req->sgl, req->nents);
}

static void rdmablk_tconn_send_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rdmablk_treq *req = container_of(wc->wr_cqe, struct rdmablk_treq,
						rsp_cqe);
	struct rdmablk_tconn *conn = req->conn;

	WRITE_ONCE(conn->tx_progress, jiffies);
	atomic_dec(&conn->tx_inflight);
	/*
	 * A flushed response may be the only trace of a failed RDMA WRITE
	 * chained before it (those carry no completion of their own): any
	 * failure closes the connection; closing twice is harmless.
	 */
	if (unlikely(wc->status != IB_WC_SUCCESS)) {
		if (wc->status != IB_WC_WR_FLUSH_ERR)
			tconn_err_ratelimited(conn, "send failed: %s\n",
					      ib_wc_status_msg(wc->status));
		rdmablk_tconn_close(conn);
	}
	rdmablk_treq_unmap(req);
	rdmablk_treq_free(req);
}

/*
 * The WRs pushing a successful READ's data, the last of them carrying the
 * READ's tag as immediate data instead of a response following
 * (RDMABLK_CONN_READ_IMM, for reads up to @read_imm_max). Its completion,
 * signalled, frees @req.
 */
static struct ib_send_wr *rdmablk_treq_read_imm_wrs(struct rdmablk_treq *req)
{
	struct rdmablk_tconn *conn = req->conn;
	struct ib_send_wr *first, *last;

	first = rdma_rw_ctx_wrs(&req->rw, conn->qp, conn->port_num,
				&req->rsp_cqe, NULL);
	for (last = first; last->next; last = last->next)
		;
	WARN_ON_ONCE(last->opcode != IB_WR_RDMA_WRITE);
	last->opcode = IB_WR_RDMA_WRITE_WITH_IMM;
	last->ex.imm_data = cpu_to_be32(rdmablk_read_imm_encode(req->cmd.tag));
	return first;
}

/*
 * A READ's pages were mapped for the device before the backing device
 * filled them: with bounce buffering (swiotlb) the mapping still holds
 * what the pages held then. Hand the data to the device now.
 */
static void rdmablk_treq_sync_read(struct rdmablk_treq *req)
{
	struct ib_device *dev = req->conn->dev;

	if (!ib_uses_virt_dma(dev))
		dma_sync_sg_for_device(dev->dma_device, req->sgl, req->nents,
				       DMA_TO_DEVICE);
}

/* Answer a command; for a successful READ, push its data first. */
static void rdmablk_treq_respond(struct rdmablk_treq *req)
{
	struct rdmablk_tconn *conn = req->conn;
	struct rdmablk_rsp *rsp = req->rsp;
	struct ib_send_wr *first = &req->rsp_wr;
	const struct ib_send_wr *bad = NULL;
	unsigned long flags;
	bool keyed, read_ok;
	int ret;

	if (req->recv) {
		rdmablk_trecv_post(req->recv);
		req->recv = NULL;
	}

	read_ok = req->rw_ready && req->cmd.opcode == RDMABLK_OP_READ &&
		  req->status == RDMABLK_S_OK;
	if (read_ok)
		rdmablk_treq_sync_read(req);
	if (read_ok && (conn->params.flags & RDMABLK_CONN_READ_IMM) &&
	    req->cmd.length <= conn->read_imm_max) {
		first = rdmablk_treq_read_imm_wrs(req);
		goto post;
	}

	rsp->opcode = req->cmd.opcode;
	rsp->tag = cpu_to_le16(req->cmd.tag);
	rsp->status = cpu_to_le16(req->status);
	req->rsp_sge.length = sizeof(*rsp);
	if (req->status == RDMABLK_S_OK)
		req->rsp_sge.length += req->rsp_extra;
	ib_dma_sync_single_for_device(conn->dev, req->rsp_dma,
				      req->rsp_sge.length, DMA_TO_DEVICE);

	/* The initiator's registration is invalidated by our response. */
	keyed = req->keyed && (conn->params.flags & RDMABLK_CONN_REMOTE_INV);
	if (keyed) {
		req->rsp_wr.opcode = IB_WR_SEND_WITH_INV;
		req->rsp_wr.ex.invalidate_rkey = req->cmd.rkey;
	} else {
		req->rsp_wr.opcode = IB_WR_SEND;
	}

	if (read_ok)
		first = rdma_rw_ctx_wrs(&req->rw, conn->qp, conn->port_num,
					NULL, &req->rsp_wr);

post:
	spin_lock_irqsave(&conn->lock, flags);
	conn->outstanding--;
	spin_unlock_irqrestore(&conn->lock, flags);

	if (atomic_inc_return(&conn->tx_inflight) == 1)
		WRITE_ONCE(conn->tx_progress, jiffies);
	ret = ib_post_send(conn->qp, first, &bad);
	if (unlikely(ret)) {
		if (bad == first)
			atomic_dec(&conn->tx_inflight);
		tconn_err_ratelimited(conn, "cannot post a response: %d\n", ret);
		rdmablk_tconn_close(conn);
		if (bad != first) {
			/* Posted in part: no completion comes, the pages may
			 * still be read. Teardown gives them back after the drain.
			 */
			spin_lock_irqsave(&conn->lock, flags);
			list_add(&req->node, &conn->failed);
			conn->nr_failed++;
			spin_unlock_irqrestore(&conn->lock, flags);
			wake_up(&conn->wq);
			return;
		}
		rdmablk_treq_unmap(req);
		rdmablk_treq_free(req);
	}
}

static u16 rdmablk_blk_status(blk_status_t sts)
{
	switch (sts) {
	case BLK_STS_OK:
		return RDMABLK_S_OK;
	case BLK_STS_NOSPC:
		return RDMABLK_S_NO_SPACE;
	case BLK_STS_NOTSUPP:
		return RDMABLK_S_UNSUPPORTED;
	default:
		return RDMABLK_S_IO_ERROR;
	}
}

static void rdmablk_treq_bio_done(struct bio *bio)
{
	struct rdmablk_treq *req = bio->bi_private;

	req->status = rdmablk_blk_status(bio->bi_status);
	bio_put(bio);
	rdmablk_treq_respond(req);
}

/* Build and submit the bio(s) for @nents pages of @sgl. */
static void rdmablk_treq_submit_sgl(struct rdmablk_treq *req,
				    struct scatterlist *sgl,
				    unsigned int nents, blk_opf_t opf)
{
	struct block_device *bdev = req->conn->exp->bdev;
	sector_t sector = req->cmd.offset >> RDMABLK_SECTOR_SHIFT;
	struct scatterlist *sg;
	struct bio *bio;
	unsigned int i;

	bio = bio_alloc(bdev, bio_max_segs(nents), opf, GFP_KERNEL);
	bio->bi_iter.bi_sector = sector;
	bio->bi_private = req;
	bio->bi_end_io = rdmablk_treq_bio_done;

	for_each_sg(sgl, sg, nents, i) {
		while (bio_add_page(bio, sg_page(sg), sg->length, sg->offset) !=
		       sg->length) {
			struct bio *prev = bio;

			bio = bio_alloc(bdev, bio_max_segs(nents - i), opf,
					GFP_KERNEL);
			bio->bi_iter.bi_sector = sector;
			bio_chain(bio, prev);
			submit_bio(prev);
		}
		sector += sg->length >> RDMABLK_SECTOR_SHIFT;
	}
	submit_bio(bio);
}

static void rdmablk_treq_submit_write(struct rdmablk_treq *req)
{
	blk_opf_t opf = REQ_OP_WRITE | REQ_SYNC | REQ_IDLE;

	if (req->cmd.flags & RDMABLK_CMD_FUA)
		opf |= REQ_FUA;
	rdmablk_treq_submit_sgl(req, req->sgl, req->nents, opf);
}

static void rdmablk_treq_rw_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rdmablk_treq *req = container_of(wc->wr_cqe, struct rdmablk_treq,
						rw_cqe);

	if (unlikely(wc->status != IB_WC_SUCCESS)) {
		if (wc->status != IB_WC_WR_FLUSH_ERR)
			tconn_err_ratelimited(req->conn,
					      "RDMA READ of write data failed: %s\n",
					      ib_wc_status_msg(wc->status));
		rdmablk_tconn_close(req->conn);
		req->status = RDMABLK_S_IO_ERROR;
		rdmablk_treq_respond(req);
		return;
	}
	/*
	 * Unmap before the device reads the pages: with bounce buffering
	 * (swiotlb) the data is in the page only once unmapped.
	 */
	rdma_rw_ctx_destroy(&req->rw, req->conn->qp, req->conn->port_num,
			    req->sgl, req->nents, DMA_FROM_DEVICE);
	req->rw_ready = false;
	rdmablk_treq_submit_write(req);
}

/* Allocate pages for the payload and set up the RDMA READ or WRITE. */
static int rdmablk_treq_map(struct rdmablk_treq *req,
			    enum dma_data_direction dir)
{
	struct rdmablk_tconn *conn = req->conn;
	int ret;

	/* Stale pages: the device or the RDMA READ overwrites all of them. */
	req->sgl = rdmablk_tpages_alloc(&conn->tpages, req->cmd.length,
					&req->nents);
	if (!req->sgl)
		return -ENOMEM;
	ret = rdma_rw_ctx_init(&req->rw, conn->qp, conn->port_num, req->sgl,
			       req->nents, 0, req->cmd.addr, req->cmd.rkey, dir);
	if (ret < 0) {
		rdmablk_tpages_free(&conn->tpages, req->sgl, req->nents);
		req->sgl = NULL;
		return ret;
	}
	req->rw_ready = true;
	req->keyed = true;
	return 0;
}

static void rdmablk_treq_exec_rw(struct rdmablk_treq *req)
{
	struct rdmablk_tconn *conn = req->conn;
	struct scatterlist sg;
	int ret;

	if (req->cmd.opcode == RDMABLK_OP_WRITE && req->recv) {
		/* Inline payload: the receive page goes to the device as is. */
		sg_init_table(&sg, 1);
		sg_set_page(&sg, req->recv->page, req->cmd.length, 0);
		rdmablk_treq_submit_sgl(req, &sg, 1,
					REQ_OP_WRITE | REQ_SYNC | REQ_IDLE |
					((req->cmd.flags & RDMABLK_CMD_FUA) ?
					 REQ_FUA : 0));
		return;
	}

	if (req->cmd.opcode == RDMABLK_OP_READ) {
		ret = rdmablk_treq_map(req, DMA_TO_DEVICE);
		if (ret)
			goto out_err;
		rdmablk_treq_submit_sgl(req, req->sgl, req->nents, REQ_OP_READ);
		return;
	}

	ret = rdmablk_treq_map(req, DMA_FROM_DEVICE);
	if (ret)
		goto out_err;
	ret = rdma_rw_ctx_post(&req->rw, conn->qp, conn->port_num,
			       &req->rw_cqe, NULL);
	if (ret)
		goto out_err;
	return;

out_err:
	tconn_err_ratelimited(conn, "cannot set up a %u-byte transfer: %d\n",
			      req->cmd.length, ret);
	req->status = RDMABLK_S_IO_ERROR;
	rdmablk_treq_respond(req);
}

static void rdmablk_treq_exec_other(struct rdmablk_treq *req)
{
	struct block_device *bdev = req->conn->exp->bdev;
	sector_t sector = req->cmd.offset >> RDMABLK_SECTOR_SHIFT;
	sector_t nr = req->cmd.length >> RDMABLK_SECTOR_SHIFT;
	struct bio *bio = NULL;
	int ret = 0;

	switch (req->cmd.opcode) {
	case RDMABLK_OP_FLUSH:
		bio = bio_alloc(bdev, 0, REQ_OP_WRITE | REQ_PREFLUSH,
				GFP_KERNEL);
		break;
	case RDMABLK_OP_DISCARD:
		ret = __blkdev_issue_discard(bdev, sector, nr, GFP_KERNEL, &bio);
		break;
	case RDMABLK_OP_WRITE_ZEROES:
		ret = __blkdev_issue_zeroout(bdev, sector, nr, GFP_KERNEL, &bio,
					     (req->cmd.flags & RDMABLK_CMD_NOUNMAP) ?
					     BLKDEV_ZERO_NOUNMAP : 0);
		break;
	}

	if (!bio) {
		req->status = ret ? RDMABLK_S_IO_ERROR : RDMABLK_S_OK;
		rdmablk_treq_respond(req);
		return;
	}
	bio->bi_private = req;
	bio->bi_end_io = rdmablk_treq_bio_done;
	submit_bio(bio);
}

static u16 rdmablk_tconn_open(struct rdmablk_tconn *conn,
			      struct rdmablk_treq *req,
			      struct rdmablk_trecv *recv, u32 inline_len)
{
	struct rdmablk_open_rsp *wire = req->rsp + sizeof(struct rdmablk_rsp);
	const struct rdmablk_open_req *oreq;
	struct rdmablk_open_info info = {};
	struct rdmablk_export *exp;
	char name[RDMABLK_EXPORT_NAME_MAX];
	bool dead;

	if (conn->exp || inline_len != sizeof(*oreq) ||
	    !(req->cmd.flags & RDMABLK_CMD_INLINE))
		return RDMABLK_S_INVALID;
	oreq = page_address(recv->page);
	if (strnlen(oreq->name, sizeof(oreq->name)) == sizeof(oreq->name))
		return RDMABLK_S_INVALID;
	strscpy(name, oreq->name, sizeof(name));
	if (!rdmablk_export_name_valid(name))
		return RDMABLK_S_NO_EXPORT;

	exp = rdmablk_export_lookup(name);
	if (!exp)
		return RDMABLK_S_NO_EXPORT;
	if (!rdmablk_export_allows(exp, oreq->hostid)) {
		pr_warn_ratelimited("export %s: host %pUb at %pISpc is not on the allow list\n",
				    exp->name, oreq->hostid,
				    &conn->cm_id->route.addr.dst_addr);
		rdmablk_export_put(exp);
		return RDMABLK_S_DENIED;
	}

	/* An export being removed takes no new connection. */
	spin_lock(&exp->conns_lock);
	dead = exp->dead;
	if (!dead)
		list_add_tail(&conn->exp_node, &exp->conns);
	spin_unlock(&exp->conns_lock);
	if (dead) {
		rdmablk_export_put(exp);
		return RDMABLK_S_NO_EXPORT;
	}
	WRITE_ONCE(conn->exp, exp);

	req->rsp_extra = sizeof(*wire);
	memcpy(info.uuid, exp->uuid, sizeof(info.uuid));
	info.size = exp->params.size;
	info.logical_block_size = exp->params.logical_block_size;
	info.physical_block_size = exp->physical_block_size;
	info.flags = exp->params.flags;
	info.max_discard_sectors = exp->params.max_discard_sectors;
	info.discard_granularity = exp->discard_granularity;
	rdmablk_open_rsp_encode(wire, &info);
	return RDMABLK_S_OK;
}

/* A page of the export list, as the asking host may see it. */
static u16 rdmablk_tconn_disc_log(struct rdmablk_treq *req,
				  const struct rdmablk_disc_req_info *dreq)
{
	struct rdmablk_disc_log *log = req->rsp + sizeof(struct rdmablk_rsp);
	struct rdmablk_disc_entry *entries = (void *)(log + 1);
	u32 count, total;
	u64 gen;

	count = rdmablk_export_disc_log(dreq->hostid, dreq->start, entries,
					RDMABLK_DISC_MAX_ENTRIES, &gen, &total);
	rdmablk_disc_log_encode(log, gen, total, count);
	req->rsp_extra = sizeof(*log) + count * sizeof(*entries);
	return RDMABLK_S_OK;
}

/* Answer the held DISC_WAIT if the export list moved on since. */
static void rdmablk_tconn_disc_work(struct work_struct *work)
{
	struct rdmablk_tconn *conn = container_of(work, struct rdmablk_tconn,
						  disc_work);
	struct rdmablk_disc_req_info dreq = {};
	struct rdmablk_treq *req = NULL;
	unsigned long flags;
	u32 total;
	u64 gen;

	spin_lock_irqsave(&conn->lock, flags);
	if (conn->disc_wait) {
		memcpy(dreq.hostid, conn->disc_hostid, sizeof(dreq.hostid));
		dreq.generation = conn->disc_gen;
	}
	spin_unlock_irqrestore(&conn->lock, flags);
	rdmablk_export_disc_log(dreq.hostid, 0, NULL, 0, &gen, &total);

	spin_lock_irqsave(&conn->lock, flags);
	if (conn->disc_wait && conn->disc_gen != gen) {
		req = conn->disc_wait;
		conn->disc_wait = NULL;
	}
	spin_unlock_irqrestore(&conn->lock, flags);
	if (!req)
		return;

	rdmablk_disc_log_encode(req->rsp + sizeof(struct rdmablk_rsp), gen,
				total, 0);
	req->rsp_extra = sizeof(struct rdmablk_disc_log);
	req->status = RDMABLK_S_OK;
	rdmablk_treq_respond(req);
}

/**
 * rdmablk_tconn_disc_notify() - the export list changed: wake discovery
 *	sessions waiting for that
 */
void rdmablk_tconn_disc_notify(void)
{
	struct rdmablk_tconn *conn;

	spin_lock(&rdmablk_tconns_lock);
	list_for_each_entry(conn, &rdmablk_disc_conns, disc_node)
		queue_work(rdmablk_wq, &conn->disc_work);
	spin_unlock(&rdmablk_tconns_lock);
}

static void rdmablk_tconn_disc_handle(struct rdmablk_tconn *conn,
				      struct rdmablk_treq *req,
				      struct rdmablk_trecv *recv,
				      u32 inline_len)
{
	struct rdmablk_disc_req_info dreq;
	unsigned long flags;
	bool busy = false;

	switch (req->cmd.opcode) {
	case RDMABLK_OP_DISC_LOG:
		req->status = rdmablk_disc_req_decode(&req->cmd,
						      page_address(recv->page),
						      inline_len, &dreq);
		if (req->status == RDMABLK_S_OK)
			req->status = rdmablk_tconn_disc_log(req, &dreq);
		break;
	case RDMABLK_OP_DISC_WAIT:
		req->status = rdmablk_disc_req_decode(&req->cmd,
						      page_address(recv->page),
						      inline_len, &dreq);
		if (req->status != RDMABLK_S_OK)
			break;
		spin_lock_irqsave(&conn->lock, flags);
		if (conn->disc_wait) {
			busy = true;
		} else {
			conn->disc_wait = req;
			conn->disc_gen = dreq.generation;
			memcpy(conn->disc_hostid, dreq.hostid,
			       sizeof(conn->disc_hostid));
		}
		spin_unlock_irqrestore(&conn->lock, flags);
		if (busy) {
			req->status = RDMABLK_S_INVALID;
			break;
		}
		/* Answered now if the host is behind already, else later. */
		queue_work(rdmablk_wq, &conn->disc_work);
		return;
	default:
		/* No OPEN, no I/O on a discovery session. */
		req->status = RDMABLK_S_INVALID;
		break;
	}
	rdmablk_treq_respond(req);
}

static void rdmablk_tconn_handle(struct rdmablk_tconn *conn,
				 struct rdmablk_treq *req,
				 struct rdmablk_trecv *recv)
{
	u32 inline_len = recv->len - sizeof(struct rdmablk_cmd);

	rdmablk_cmd_decode(recv->cmd, &req->cmd);
	req->recv = recv;
	req->rsp_extra = 0;

	if ((conn->params.flags & RDMABLK_CONN_DISCOVERY) &&
	    req->cmd.opcode != RDMABLK_OP_KEEPALIVE) {
		rdmablk_tconn_disc_handle(conn, req, recv, inline_len);
		return;
	}
	if (req->cmd.opcode == RDMABLK_OP_OPEN) {
		req->status = rdmablk_tconn_open(conn, req, recv, inline_len);
		rdmablk_treq_respond(req);
		return;
	}
	if (req->cmd.opcode == RDMABLK_OP_KEEPALIVE) {
		req->status = req->cmd.flags || req->cmd.length ||
			      req->cmd.offset || inline_len ?
			      RDMABLK_S_INVALID : RDMABLK_S_OK;
		rdmablk_treq_respond(req);
		return;
	}
	if (!conn->exp)
		req->status = RDMABLK_S_NOT_OPEN;
	else
		req->status = rdmablk_cmd_check(&req->cmd, &conn->exp->params,
						inline_len);
	if (req->status != RDMABLK_S_OK) {
		rdmablk_treq_respond(req);
		return;
	}

	/* Only an inline payload keeps its receive buffer busy. */
	if (!inline_len) {
		req->recv = NULL;
		if (rdmablk_trecv_post(recv)) {
			req->status = RDMABLK_S_IO_ERROR;
			rdmablk_treq_respond(req);
			return;
		}
	}

	if (req->cmd.opcode == RDMABLK_OP_READ ||
	    req->cmd.opcode == RDMABLK_OP_WRITE)
		rdmablk_treq_exec_rw(req);
	else
		rdmablk_treq_exec_other(req);
}

static void rdmablk_tconn_recv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rdmablk_trecv *recv = container_of(wc->wr_cqe,
						  struct rdmablk_trecv, cqe);
	struct rdmablk_tconn *conn = recv->conn;
	struct rdmablk_treq *req = NULL;
	unsigned long flags;

	if (unlikely(wc->status != IB_WC_SUCCESS)) {
		if (wc->status != IB_WC_WR_FLUSH_ERR)
			tconn_err_ratelimited(conn, "receive failed: %s\n",
					      ib_wc_status_msg(wc->status));
		/* A flushed receive means the QP is in error: done. */
		rdmablk_tconn_close(conn);
		return;
	}
	if (unlikely(wc->byte_len < sizeof(struct rdmablk_cmd))) {
		rdmablk_tconn_protocol_error(conn, "short command");
		return;
	}
	recv->len = wc->byte_len;
	WRITE_ONCE(conn->last_rx, jiffies);
	ib_dma_sync_single_for_cpu(conn->dev, recv->sge[0].addr,
				   recv->sge[0].length, DMA_FROM_DEVICE);
	ib_dma_sync_single_for_cpu(conn->dev, recv->sge[1].addr,
				   recv->sge[1].length, DMA_FROM_DEVICE);

	spin_lock_irqsave(&conn->lock, flags);
	if (conn->outstanding >= conn->params.queue_depth) {
		spin_unlock_irqrestore(&conn->lock, flags);
		rdmablk_tconn_protocol_error(conn, "more commands than credits");
		return;
	}
	conn->outstanding++;
	if (list_empty(&conn->free_reqs)) {
		list_add_tail(&recv->node, &conn->pending);
	} else {
		req = list_first_entry(&conn->free_reqs, struct rdmablk_treq,
				       node);
		list_del(&req->node);
		conn->nr_free--;
	}
	spin_unlock_irqrestore(&conn->lock, flags);

	if (req)
		rdmablk_tconn_handle(conn, req, recv);
}

static void rdmablk_tconn_free_bufs(struct rdmablk_tconn *conn)
{
	unsigned int i;

	for (i = 0; conn->recvs && i < conn->nr_recvs; i++) {
		struct rdmablk_trecv *recv = &conn->recvs[i];

		if (recv->sge[1].addr)
			ib_dma_unmap_page(conn->dev, recv->sge[1].addr,
					  PAGE_SIZE, DMA_FROM_DEVICE);
		if (recv->sge[0].addr)
			ib_dma_unmap_single(conn->dev, recv->sge[0].addr,
					    sizeof(*recv->cmd), DMA_FROM_DEVICE);
		if (recv->page)
			__free_page(recv->page);
		kfree(recv->cmd);
	}
	kfree(conn->recvs);
	conn->recvs = NULL;

	for (i = 0; conn->reqs && i < conn->nr_reqs; i++) {
		struct rdmablk_treq *req = &conn->reqs[i];

		if (req->rsp_dma)
			ib_dma_unmap_single(conn->dev, req->rsp_dma,
					    conn->rsp_size, DMA_TO_DEVICE);
		kfree(req->rsp);
	}
	kfree(conn->reqs);
	conn->reqs = NULL;
}

static int rdmablk_tconn_alloc_bufs(struct rdmablk_tconn *conn)
{
	unsigned int i;

	conn->recvs = kcalloc(conn->nr_recvs, sizeof(*conn->recvs), GFP_KERNEL);
	conn->reqs = kcalloc(conn->nr_reqs, sizeof(*conn->reqs), GFP_KERNEL);
	if (!conn->recvs || !conn->reqs)
		goto out_free;

	for (i = 0; i < conn->nr_recvs; i++) {
		struct rdmablk_trecv *recv = &conn->recvs[i];
		u64 dma;

		recv->conn = conn;
		recv->cqe.done = rdmablk_tconn_recv_done;
		recv->cmd = kmalloc(sizeof(*recv->cmd), GFP_KERNEL);
		recv->page = alloc_page(GFP_KERNEL);
		if (!recv->cmd || !recv->page)
			goto out_free;
		dma = ib_dma_map_single(conn->dev, recv->cmd, sizeof(*recv->cmd),
					DMA_FROM_DEVICE);
		if (ib_dma_mapping_error(conn->dev, dma))
			goto out_free;
		recv->sge[0].addr = dma;
		recv->sge[0].length = sizeof(*recv->cmd);
		recv->sge[0].lkey = conn->pd->local_dma_lkey;
		dma = ib_dma_map_page(conn->dev, recv->page, 0, PAGE_SIZE,
				      DMA_FROM_DEVICE);
		if (ib_dma_mapping_error(conn->dev, dma))
			goto out_free;
		recv->sge[1].addr = dma;
		recv->sge[1].length = RDMABLK_INLINE_MAX;
		recv->sge[1].lkey = conn->pd->local_dma_lkey;
		recv->wr.wr_cqe = &recv->cqe;
		recv->wr.sg_list = recv->sge;
		recv->wr.num_sge = 2;
	}

	for (i = 0; i < conn->nr_reqs; i++) {
		struct rdmablk_treq *req = &conn->reqs[i];

		req->conn = conn;
		req->rsp = kzalloc(conn->rsp_size, GFP_KERNEL);
		if (!req->rsp)
			goto out_free;
		req->rsp_dma = ib_dma_map_single(conn->dev, req->rsp,
						 conn->rsp_size, DMA_TO_DEVICE);
		if (ib_dma_mapping_error(conn->dev, req->rsp_dma)) {
			req->rsp_dma = 0;
			goto out_free;
		}
		req->rsp_sge.addr = req->rsp_dma;
		req->rsp_sge.lkey = conn->pd->local_dma_lkey;
		req->rsp_cqe.done = rdmablk_tconn_send_done;
		req->rw_cqe.done = rdmablk_treq_rw_done;
		req->rsp_wr.wr_cqe = &req->rsp_cqe;
		req->rsp_wr.sg_list = &req->rsp_sge;
		req->rsp_wr.num_sge = 1;
		req->rsp_wr.send_flags = IB_SEND_SIGNALED;
		list_add_tail(&req->node, &conn->free_reqs);
	}
	conn->nr_free = conn->nr_reqs;
	return 0;

out_free:
	rdmablk_tconn_free_bufs(conn);
	return -ENOMEM;
}

static void rdmablk_tconn_qp_event(struct ib_event *ev, void *ctx)
{
	struct rdmablk_tconn *conn = ctx;

	switch (ev->event) {
	case IB_EVENT_COMM_EST:
		rdma_notify(conn->cm_id, ev->event);
		break;
	case IB_EVENT_QP_FATAL:
	case IB_EVENT_QP_REQ_ERR:
	case IB_EVENT_QP_ACCESS_ERR:
		tconn_err_ratelimited(conn, "QP error: %s\n",
				      ib_event_msg(ev->event));
		rdmablk_tconn_close(conn);
		break;
	default:
		break;
	}
}

static int rdmablk_tconn_create_qp(struct rdmablk_tconn *conn)
{
	struct ib_device *dev = conn->dev;
	struct ib_qp_init_attr attr = {};
	unsigned int factor;
	int ret;

	factor = rdma_rw_mr_factor(dev, conn->port_num,
				   RDMABLK_MAX_IO_SIZE >> PAGE_SHIFT);

	conn->cq = ib_alloc_cq_any(dev, conn, conn->nr_recvs + 2 * conn->nr_reqs + 2,
				   IB_POLL_WORKQUEUE);
	if (IS_ERR(conn->cq))
		return PTR_ERR(conn->cq);

	attr.qp_context = conn;
	attr.event_handler = rdmablk_tconn_qp_event;
	attr.send_cq = conn->cq;
	attr.recv_cq = conn->cq;
	attr.sq_sig_type = IB_SIGNAL_REQ_WR;
	attr.qp_type = IB_QPT_RC;
	attr.port_num = conn->port_num;
	/* +1 for ib_drain_qp() */
	attr.cap.max_send_wr = conn->nr_reqs + 1;
	attr.cap.max_rdma_ctxs = conn->nr_reqs * factor;
	attr.cap.max_send_sge = max(dev->attrs.max_sge_rd,
				    dev->attrs.max_send_sge);
	attr.cap.max_recv_wr = conn->nr_recvs + 1;
	attr.cap.max_recv_sge = 2;

	ret = rdma_create_qp(conn->cm_id, conn->pd, &attr);
	if (ret) {
		ib_free_cq(conn->cq);
		return ret;
	}
	conn->qp = conn->cm_id->qp;
	return 0;
}

static void rdmablk_tconn_destroy_qp(struct rdmablk_tconn *conn)
{
	rdma_destroy_qp(conn->cm_id);
	ib_free_cq(conn->cq);
}

/*
 * Initiators send keep-alives; one silent for two intervals is gone. So is
 * one that took none of our SENDs for RDMABLK_SEND_DEADLINE.
 */
static void rdmablk_tconn_ka_work(struct work_struct *work)
{
	struct rdmablk_tconn *conn = container_of(to_delayed_work(work),
						  struct rdmablk_tconn, ka_work);
	unsigned long kato = msecs_to_jiffies(conn->params.keepalive_ms);

	if (time_after(jiffies, READ_ONCE(conn->last_rx) + 2 * kato)) {
		tconn_err_ratelimited(conn, "no keep-alive for %u ms; dropping the connection\n",
				      2 * conn->params.keepalive_ms);
		rdmablk_tconn_close(conn);
		return;
	}
	if (atomic_read(&conn->tx_inflight) &&
	    time_after(jiffies, READ_ONCE(conn->tx_progress) +
			       RDMABLK_SEND_DEADLINE)) {
		tconn_err_ratelimited(conn, "answers not taken for %u s; dropping the connection\n",
				      RDMABLK_SEND_DEADLINE / HZ);
		rdmablk_tconn_close(conn);
		return;
	}
	queue_delayed_work(rdmablk_wq, &conn->ka_work,
			   min(kato, RDMABLK_SEND_DEADLINE / 4));
}

static void rdmablk_tconn_open_work(struct work_struct *work)
{
	struct rdmablk_tconn *conn = container_of(to_delayed_work(work),
						  struct rdmablk_tconn, open_work);

	/* Written by OPEN in completion context; a stale NULL only delays. */
	if (!READ_ONCE(conn->exp)) {
		tconn_err_ratelimited(conn, "no export opened within %u s; dropping the connection\n",
				      RDMABLK_OPEN_TIMEOUT / HZ);
		rdmablk_tconn_close(conn);
	}
}

static void rdmablk_tconn_release(struct work_struct *work)
{
	struct rdmablk_tconn *conn = container_of(work, struct rdmablk_tconn,
						  release_work);
	struct rdmablk_export *exp;
	struct rdmablk_treq *wait;

	/* No export change reaches the session once it is off the list. */
	spin_lock(&rdmablk_tconns_lock);
	list_del_init(&conn->disc_node);
	spin_unlock(&rdmablk_tconns_lock);
	cancel_work_sync(&conn->disc_work);
	cancel_delayed_work_sync(&conn->ka_work);
	cancel_delayed_work_sync(&conn->open_work);
	rdma_disconnect(conn->cm_id);
	ib_drain_qp(conn->qp);
	/* A DISC_WAIT handled before the drain may have queued it again. */
	cancel_work_sync(&conn->disc_work);
	spin_lock_irq(&conn->lock);
	wait = conn->disc_wait;
	conn->disc_wait = NULL;
	spin_unlock_irq(&conn->lock);
	if (wait)
		rdmablk_treq_free(wait);
	/* A bio still in flight answers into the drained QP, then frees. */
	wait_event(conn->wq, READ_ONCE(conn->nr_free) +
			     READ_ONCE(conn->nr_failed) == conn->nr_reqs);
	/* Drained: nothing reads the pages of a half-posted chain now. */
	while (!list_empty(&conn->failed)) {
		struct rdmablk_treq *req = list_first_entry(&conn->failed,
							    struct rdmablk_treq,
							    node);

		spin_lock_irq(&conn->lock);
		list_del(&req->node);
		conn->nr_failed--;
		spin_unlock_irq(&conn->lock);
		rdmablk_treq_unmap(req);
		rdmablk_treq_free(req);
	}

	/*
	 * OPEN runs in receive completion work, or where a request context
	 * comes back to a command that waited for one. The drain ended the
	 * first, every context is back and CLOSING keeps waiting commands
	 * from being handled: only now is @exp final. Read before, an OPEN
	 * still running would leave this connection linked on its export.
	 */
	exp = conn->exp;
	if (exp) {
		spin_lock(&exp->conns_lock);
		list_del(&conn->exp_node);
		spin_unlock(&exp->conns_lock);
		rdmablk_export_put(exp);
	}
	spin_lock(&rdmablk_tconns_lock);
	list_del(&conn->node);
	spin_unlock(&rdmablk_tconns_lock);
	/* Every request context is back: so are all payload pages. */
	rdmablk_tpages_drain(&conn->tpages);

	/*
	 * The id goes first, as in nvmet: the listener tells a connection's
	 * events from its own by cm_id->qp, which rdma_destroy_qp() clears,
	 * so an event arriving between the two would be taken for the
	 * listener's with @conn as its context. rdma_destroy_id() waits for
	 * a running handler, and no event comes after it.
	 */
	rdma_destroy_id(conn->cm_id);
	ib_destroy_qp(conn->qp);
	ib_free_cq(conn->cq);
	rdmablk_tconn_free_bufs(conn);
	ib_dealloc_pd(conn->pd);
	kfree(conn);
}

static bool rdmablk_same_host(const struct sockaddr *a,
			      const struct sockaddr *b)
{
	if (a->sa_family != b->sa_family)
		return false;
	if (a->sa_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	if (a->sa_family == AF_INET6)
		return ipv6_addr_equal(&((const struct sockaddr_in6 *)a)->sin6_addr,
				       &((const struct sockaddr_in6 *)b)->sin6_addr);
	return false;
}

/* May one more connection from @peer be taken? */
static bool rdmablk_tconn_admit(const struct sockaddr *peer)
{
	unsigned int max_host = READ_ONCE(rdmablk_max_conns_per_host);
	unsigned int max = READ_ONCE(rdmablk_max_conns);
	unsigned int all = 0, host = 0;
	struct rdmablk_tconn *conn;

	lockdep_assert_held(&rdmablk_tconns_lock);
	list_for_each_entry(conn, &rdmablk_tconns, node) {
		all++;
		if (rdmablk_same_host(peer,
				      (struct sockaddr *)&conn->cm_id->route.addr.dst_addr))
			host++;
	}
	return all < max && (!max_host || host < max_host);
}

static void rdmablk_tconn_reject(struct rdma_cm_id *cm_id, u16 reason)
{
	struct rdmablk_conn_rej rej;

	rdmablk_conn_rej_encode(&rej, reason);
	rdma_reject(cm_id, &rej, sizeof(rej), IB_CM_REJ_CONSUMER_DEFINED);
}

/**
 * rdmablk_tconn_connect() - accept a connect request, or reject it
 * @cm_id: the new id, its context still the listener's
 * @ev: the CONNECT_REQUEST event
 *
 * Return: 0 once accepted; otherwise an error, and rdma_cm destroys @cm_id.
 */
int rdmablk_tconn_connect(struct rdma_cm_id *cm_id, struct rdma_cm_event *ev)
{
	struct rdmablk_conn_params req;
	struct rdma_conn_param param = {};
	struct sockaddr *peer = (struct sockaddr *)&cm_id->route.addr.dst_addr;
	struct rdmablk_conn_rep rep;
	struct rdmablk_tconn *conn;
	int reason, ret;
	bool admitted;

	reason = rdmablk_conn_req_decode(ev->param.conn.private_data,
					 ev->param.conn.private_data_len, &req);
	if (reason) {
		pr_warn_ratelimited("connect request from %pISpc rejected: reason %d\n",
				    peer, reason);
		rdmablk_tconn_reject(cm_id, reason);
		return -ECONNREFUSED;
	}
	/* Checked again when the connection is added, under the lock. */
	spin_lock(&rdmablk_tconns_lock);
	admitted = rdmablk_tconn_admit(peer);
	spin_unlock(&rdmablk_tconns_lock);
	if (!admitted) {
		ret = -EBUSY;
		goto out_limit;
	}

	conn = kzalloc(sizeof(*conn), GFP_KERNEL);
	if (!conn) {
		ret = -ENOMEM;
		goto out_reject;
	}
	conn->cm_id = cm_id;
	conn->dev = cm_id->device;
	conn->port_num = cm_id->port_num;
	spin_lock_init(&conn->lock);
	INIT_LIST_HEAD(&conn->free_reqs);
	INIT_LIST_HEAD(&conn->pending);
	INIT_LIST_HEAD(&conn->failed);
	INIT_LIST_HEAD(&conn->exp_node);
	INIT_LIST_HEAD(&conn->disc_node);
	rdmablk_tpages_init(&conn->tpages);
	init_waitqueue_head(&conn->wq);
	INIT_WORK(&conn->release_work, rdmablk_tconn_release);
	INIT_DELAYED_WORK(&conn->ka_work, rdmablk_tconn_ka_work);
	INIT_DELAYED_WORK(&conn->open_work, rdmablk_tconn_open_work);
	INIT_WORK(&conn->disc_work, rdmablk_tconn_disc_work);

	conn->params = req;
	/*
	 * Every session has a keep-alive (0 was refused); a hostile interval
	 * must not turn the timer into a busy loop.
	 */
	conn->params.keepalive_ms = clamp_t(u32, req.keepalive_ms, 1000,
					    RDMABLK_MAX_TMO * 1000U);
	conn->params.queue_depth = min_t(u16, req.queue_depth,
					 RDMABLK_TARGET_MAX_QD);
	conn->params.flags = req.flags & (RDMABLK_CONN_REMOTE_INV |
					  RDMABLK_CONN_DISCOVERY |
					  RDMABLK_CONN_READ_IMM);
	/* iWARP has no immediate data. */
	conn->read_imm_max = READ_ONCE(rdmablk_read_imm_max);
	if (!conn->read_imm_max ||
	    rdma_protocol_iwarp(cm_id->device, cm_id->port_num))
		conn->params.flags &= ~RDMABLK_CONN_READ_IMM;
	conn->rsp_size = RDMABLK_RSP_BUF_SIZE;
	if (conn->params.flags & RDMABLK_CONN_DISCOVERY) {
		conn->params.flags &= ~(RDMABLK_CONN_REMOTE_INV |
					RDMABLK_CONN_READ_IMM);
		conn->params.queue_depth = min_t(u16, req.queue_depth,
						 RDMABLK_DISC_QUEUE_DEPTH);
		conn->rsp_size = RDMABLK_DISC_RSP_SIZE;
	}
	conn->params.max_queues = RDMABLK_MAX_QUEUES;
	conn->params.max_io_size = RDMABLK_MAX_IO_SIZE;
	conn->params.inline_max = RDMABLK_INLINE_MAX;
	conn->nr_recvs = conn->params.queue_depth + 1;
	/* Responses may complete after the initiator reused their credit. */
	conn->nr_reqs = 2 * conn->params.queue_depth;

	conn->pd = ib_alloc_pd(conn->dev, 0);
	if (IS_ERR(conn->pd)) {
		ret = PTR_ERR(conn->pd);
		goto out_free_conn;
	}
	ret = rdmablk_tconn_create_qp(conn);
	if (ret)
		goto out_dealloc_pd;
	ret = rdmablk_tconn_alloc_bufs(conn);
	if (ret)
		goto out_destroy_qp;
	for (unsigned int i = 0; i < conn->nr_recvs; i++) {
		ret = ib_post_recv(conn->qp, &conn->recvs[i].wr, NULL);
		if (ret)
			goto out_free_bufs;
	}

	spin_lock(&rdmablk_tconns_lock);
	admitted = rdmablk_tconn_admit(peer);
	if (admitted) {
		list_add_tail(&conn->node, &rdmablk_tconns);
		if (conn->params.flags & RDMABLK_CONN_DISCOVERY)
			list_add_tail(&conn->disc_node, &rdmablk_disc_conns);
	}
	spin_unlock(&rdmablk_tconns_lock);
	if (!admitted) {
		ret = -EBUSY;
		goto out_free_bufs;
	}
	cm_id->context = conn;
	conn->last_rx = jiffies;
	if (!(conn->params.flags & RDMABLK_CONN_DISCOVERY))
		queue_delayed_work(rdmablk_wq, &conn->open_work,
				   RDMABLK_OPEN_TIMEOUT);
	queue_delayed_work(rdmablk_wq, &conn->ka_work,
			   min(msecs_to_jiffies(conn->params.keepalive_ms),
			       RDMABLK_SEND_DEADLINE / 4));

	rdmablk_conn_rep_encode(&rep, &conn->params);
	param.private_data = &rep;
	param.private_data_len = sizeof(rep);
	param.rnr_retry_count = RDMABLK_TARGET_RNR_RETRY;
	param.flow_control = 1;
	param.initiator_depth = min_t(u8, ev->param.conn.initiator_depth,
				      conn->dev->attrs.max_qp_init_rd_atom);
	param.responder_resources = ev->param.conn.responder_resources;
	ret = rdma_accept(cm_id, &param);
	if (ret) {
		/* The id is ours now: tear down through the normal path. */
		pr_warn_ratelimited("cannot accept %pISpc: %d\n",
				    &cm_id->route.addr.dst_addr, ret);
		rdmablk_tconn_close(conn);
	}
	return 0;

out_free_bufs:
	rdmablk_tconn_free_bufs(conn);
out_destroy_qp:
	rdmablk_tconn_destroy_qp(conn);
out_dealloc_pd:
	ib_dealloc_pd(conn->pd);
out_free_conn:
	kfree(conn);
	if (ret != -EBUSY)
		goto out_reject;
out_limit:
	pr_warn_ratelimited("connect request from %pISpc refused: connection limit (max_connections %u, max_connections_per_host %u)\n",
			    peer, READ_ONCE(rdmablk_max_conns),
			    READ_ONCE(rdmablk_max_conns_per_host));
out_reject:
	rdmablk_tconn_reject(cm_id, RDMABLK_REJ_RESOURCES);
	return ret;
}

/**
 * rdmablk_tconn_cm_event() - an rdma_cm event on an accepted connection
 * @cm_id: the connection's id
 * @ev: the event
 *
 * Return: always 0: the connection's id is destroyed by its teardown.
 */
int rdmablk_tconn_cm_event(struct rdma_cm_id *cm_id, struct rdma_cm_event *ev)
{
	struct rdmablk_tconn *conn = cm_id->context;

	switch (ev->event) {
	case RDMA_CM_EVENT_ESTABLISHED:
		break;
	case RDMA_CM_EVENT_DISCONNECTED:
	case RDMA_CM_EVENT_TIMEWAIT_EXIT:
	case RDMA_CM_EVENT_ADDR_CHANGE:
	case RDMA_CM_EVENT_CONNECT_ERROR:
	case RDMA_CM_EVENT_UNREACHABLE:
	case RDMA_CM_EVENT_REJECTED:
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		rdmablk_tconn_close(conn);
		break;
	default:
		break;
	}
	return 0;
}

/**
 * rdmablk_tconn_close_export() - close every connection of an export
 * @exp: being removed; no OPEN may attach to it after this
 */
void rdmablk_tconn_close_export(struct rdmablk_export *exp)
{
	struct rdmablk_tconn *conn;

	spin_lock(&exp->conns_lock);
	exp->dead = true;
	list_for_each_entry(conn, &exp->conns, exp_node)
		rdmablk_tconn_close(conn);
	spin_unlock(&exp->conns_lock);
}

/* Close the connections on @dev (all when NULL) and wait for them. */
static void rdmablk_tconn_close_all(struct ib_device *dev)
{
	struct rdmablk_tconn *conn;
	bool empty;

	for (;;) {
		spin_lock(&rdmablk_tconns_lock);
		empty = true;
		list_for_each_entry(conn, &rdmablk_tconns, node) {
			if (dev && conn->dev != dev)
				continue;
			empty = false;
			rdmablk_tconn_close(conn);
		}
		spin_unlock(&rdmablk_tconns_lock);
		if (empty)
			break;
		flush_workqueue(rdmablk_wq);
	}
}

static int rdmablk_target_add_one(struct ib_device *dev)
{
	return 0;
}

static void rdmablk_target_remove_one(struct ib_device *dev, void *data)
{
	rdmablk_tconn_close_all(dev);
}

static struct ib_client rdmablk_target_client = {
	.name = "rdmablk_target",
	.add = rdmablk_target_add_one,
	.remove = rdmablk_target_remove_one,
};

int rdmablk_target_init(void)
{
	return ib_register_client(&rdmablk_target_client);
}

/* Listeners must be gone, so no connection can be added. */
void rdmablk_target_exit(void)
{
	rdmablk_tconn_close_all(NULL);
	ib_unregister_client(&rdmablk_target_client);
}
