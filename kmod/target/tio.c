// SPDX-License-Identifier: GPL-2.0
/*
 * Commands of a target connection: receive, dispatch and execution.
 * Commands arrive by RECV, payload moves by RDMA READ/WRITE straight
 * between the initiator's registered pages and the pages of the bio sent
 * to the backing device (the kernel's rdma_rw API); the answer is
 * trsp.c's. Payload pages
 * come from the connection's own cache (tpages.c), uncleared but never
 * holding another connection's bytes; how many bytes of them a
 * connection's commands hold at once is bounded by its payload budget
 * (tbudget.c): a READ or non-inline WRITE that does not fit waits, with
 * its request context, until a send completion gives payload back.
 *
 * Locking (see tconn.h): tconn->lock, irq-safe, guards the request
 * contexts (@free_reqs, @pending, @failed) and @outstanding; it is taken
 * from bio completion, where a command is answered. Commands are handled
 * in CQ work, one receive completion at a time, and may sleep there; a
 * command that waited for a request context is handled where one comes
 * back, and one that waited for the budget is started where payload
 * comes back in a send completion: CQ work too, and neither happens once
 * the connection is closing (teardown gives those contexts back).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/dma-mapping.h>
#include <linux/scatterlist.h>

#include "tconn.h"
#include "../trace.h"

static void rdmablk_tconn_handle(struct rdmablk_tconn *conn,
				 struct rdmablk_treq *req,
				 struct rdmablk_trecv *recv, unsigned int idx);

static void rdmablk_tconn_protocol_error(struct rdmablk_tconn *conn,
					 const char *what)
{
	tconn_err_ratelimited(conn, "protocol violation: %s; disconnecting\n",
			      what);
	rdmablk_tconn_close(conn);
}

int rdmablk_trecv_post(struct rdmablk_trecv *recv)
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

/**
 * rdmablk_treq_free() - give a request context back
 * @req: the context, its payload pages given back already
 *
 * A command that waited for a context gets it, unless the connection is
 * closing: it is handled here, which needs CQ work context then.
 */
void rdmablk_treq_free(struct rdmablk_treq *req)
{
	struct rdmablk_tconn *conn = req->conn;
	struct rdmablk_trecv *recv = NULL;
	unsigned int idx = 0;
	unsigned long flags;

	req->recv = NULL;
	req->sgl = NULL;
	req->rw_ready = false;
	req->send_mapped = false;
	req->keyed = false;

	spin_lock_irqsave(&conn->lock, flags);
	if (!list_empty(&conn->pending) &&
	    !test_bit(RDMABLK_TCONN_CLOSING, &conn->flags)) {
		recv = list_first_entry(&conn->pending, struct rdmablk_trecv,
					node);
		idx = recv->next_cmd++;
		if (recv->next_cmd == recv->nr_cmds)
			list_del(&recv->node);
	} else {
		list_add(&req->node, &conn->free_reqs);
		conn->nr_free++;
	}
	spin_unlock_irqrestore(&conn->lock, flags);

	if (recv)
		rdmablk_tconn_handle(conn, req, recv, idx);
	else
		wake_up(&conn->wq);
}

/**
 * rdmablk_treq_unmap() - undo the RDMA mapping of a command's payload and
 *	give its pages and its share of the payload budget back
 * @req: the command
 *
 * Commands waiting for the budget are not started here: see
 * rdmablk_treq_run_waiting().
 *
 * Safe in any context.
 */
void rdmablk_treq_unmap(struct rdmablk_treq *req)
{
	struct rdmablk_tconn *conn = req->conn;
	enum dma_data_direction dir = req->cmd.opcode == RDMABLK_OP_READ ?
				      DMA_TO_DEVICE : DMA_FROM_DEVICE;

	if (req->rw_ready)
		rdma_rw_ctx_destroy(&req->rw, conn->qp, conn->port_num,
				    req->sgl, req->nents, dir);
	if (req->send_mapped) {
		ib_dma_unmap_sg(conn->dev, req->sgl, req->nents, DMA_TO_DEVICE);
		req->send_mapped = false;
	}
	rdmablk_tpages_free(&conn->tpages, req->sgl, req->nents);
	if (req->pinned) {
		rdmablk_tbudget_put(&conn->budget, req->pinned);
		req->pinned = 0;
	}
}

static void rdmablk_treq_exec_payload(struct rdmablk_treq *req);

/*
 * Start the commands that waited for the payload budget and fit now,
 * oldest first. Called where payload came back in CQ work: the commands
 * are started in the context they would have run in. A connection that
 * is closing starts none; its teardown gives their contexts back.
 */
void rdmablk_treq_run_waiting(struct rdmablk_tconn *conn)
{
	struct rdmablk_tbudget_wait *w;
	struct rdmablk_treq *req;

	while (!test_bit(RDMABLK_TCONN_CLOSING, &conn->flags)) {
		w = rdmablk_tbudget_next(&conn->budget);
		if (!w)
			break;
		req = container_of(w, struct rdmablk_treq, pin);
		req->pinned = w->bytes;
		rdmablk_treq_exec_payload(req);
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

/*
 * A bio ends outside the connection's CQ work, which teardown flushes.
 * Once the answer gives the request context back (or another CPU sends
 * and frees it), teardown may see every context back; what the answer
 * still does to the connection after that (the end of a post, a kick of
 * the CQ work, a wake-up) is inside this RCU read-side section, which
 * rdmablk_tconn_release() waits for before it frees anything.
 */
static void rdmablk_treq_bio_done(struct bio *bio)
{
	struct rdmablk_treq *req = bio->bi_private;

	req->status = rdmablk_blk_status(bio->bi_status);
	if (bio == &req->inline_bio)
		bio_uninit(bio);
	else
		bio_put(bio);
	rcu_read_lock();
	rdmablk_treq_respond(req);
	rcu_read_unlock();
}

/*
 * The first bio of @req's command, for @nr_vecs pages: the request
 * context's own where they fit (as nvmet's inline bio), else allocated.
 * rdmablk_treq_bio_done() tells the two apart.
 */
static struct bio *rdmablk_treq_bio(struct rdmablk_treq *req,
				    struct block_device *bdev,
				    unsigned int nr_vecs, blk_opf_t opf)
{
	if (nr_vecs <= ARRAY_SIZE(req->inline_bvec)) {
		bio_init(&req->inline_bio, bdev, req->inline_bvec,
			 ARRAY_SIZE(req->inline_bvec), opf);
		return &req->inline_bio;
	}
	return bio_alloc(bdev, bio_max_segs(nr_vecs), opf, GFP_KERNEL);
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

	bio = rdmablk_treq_bio(req, bdev, nents, opf);
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

/* Completion of the RDMA READ of a write payload. */
void rdmablk_treq_rw_done(struct ib_cq *cq, struct ib_wc *wc)
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

/*
 * Allocate pages for the payload and map them for the device: for an
 * RDMA READ or WRITE of the initiator's buffer, or, for a READ whose data
 * goes by SEND_WITH_IMM (RDMABLK_CMD_SEND_DATA, which proto.c admits for
 * at most RDMABLK_READ_SEND_MAX bytes: one page, one SGE), as that SGE.
 */
static int rdmablk_treq_map(struct rdmablk_treq *req,
			    enum dma_data_direction dir)
{
	struct rdmablk_tconn *conn = req->conn;
	int ret;

	BUILD_BUG_ON(RDMABLK_READ_SEND_MAX > PAGE_SIZE);
	/* Stale pages: the device or the RDMA READ overwrites all of them. */
	req->sgl = rdmablk_tpages_alloc(&conn->tpages, req->cmd.length,
					&req->nents);
	if (!req->sgl)
		return -ENOMEM;
	if (req->cmd.flags & RDMABLK_CMD_SEND_DATA) {
		if (ib_dma_map_sg(conn->dev, req->sgl, req->nents, dir) != 1) {
			ret = -EIO;
			goto out_free;
		}
		req->data_sge.addr = sg_dma_address(req->sgl);
		req->data_sge.length = req->cmd.length;
		req->data_sge.lkey = conn->pd->local_dma_lkey;
		req->send_mapped = true;
		return 0;
	}
	ret = rdma_rw_ctx_init(&req->rw, conn->qp, conn->port_num, req->sgl,
			       req->nents, 0, req->cmd.addr, req->cmd.rkey, dir);
	if (ret < 0)
		goto out_free;
	req->rw_ready = true;
	req->keyed = true;
	return 0;

out_free:
	rdmablk_tpages_free(&conn->tpages, req->sgl, req->nents);
	req->sgl = NULL;
	return ret;
}

/*
 * A READ or non-inline WRITE whose payload the budget let through: map
 * its pages, then read the device or RDMA READ the payload.
 */
static void rdmablk_treq_exec_payload(struct rdmablk_treq *req)
{
	struct rdmablk_tconn *conn = req->conn;
	const struct ib_send_wr *first, *bad = NULL;
	int ret;

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
	/* rdma_rw_ctx_post(), but for knowing what was posted. */
	first = rdma_rw_ctx_wrs(&req->rw, conn->qp, conn->port_num,
				&req->rw_cqe, NULL);
	ret = ib_post_send(conn->qp, first, &bad);
	if (unlikely(ret)) {
		/*
		 * Not answered: READs posted may still land in the pages,
		 * and a send queue that took none will not take the answer.
		 */
		tconn_err_ratelimited(conn, "cannot post the RDMA READ of a %u-byte write: %d\n",
				      req->cmd.length, ret);
		rdmablk_treq_post_failed(req, bad != first, true);
	}
	return;

out_err:
	tconn_err_ratelimited(conn, "cannot set up a %u-byte transfer: %d\n",
			      req->cmd.length, ret);
	req->status = RDMABLK_S_IO_ERROR;
	rdmablk_treq_respond(req);
}

static void rdmablk_treq_exec_rw(struct rdmablk_treq *req)
{
	struct rdmablk_tconn *conn = req->conn;
	struct scatterlist sg;

	if (req->cmd.opcode == RDMABLK_OP_WRITE &&
	    (req->recv || req->push_slot >= 0)) {
		struct page *page;
		unsigned int off;

		/*
		 * Inline or pushed payload: the receive's page, or the push
		 * slot's, goes to the device as is.
		 */
		if (req->recv) {
			page = req->recv->page;
			off = req->recv->off;
		} else {
			page = rdmablk_tpush_page(&conn->push, req->push_slot,
						  &off);
		}
		sg_init_table(&sg, 1);
		sg_set_page(&sg, page, req->cmd.length, off);
		rdmablk_treq_submit_sgl(req, &sg, 1,
					REQ_OP_WRITE | REQ_SYNC | REQ_IDLE |
					((req->cmd.flags & RDMABLK_CMD_FUA) ?
					 REQ_FUA : 0));
		return;
	}

	/*
	 * The pages it pins count against the connection's budget; if they
	 * do not fit, the command waits, its request context and credit
	 * held, until rdmablk_treq_run_waiting() starts it.
	 */
	if (!rdmablk_tbudget_get(&conn->budget, &req->pin,
				 PAGE_ALIGN(req->cmd.length)))
		return;
	req->pinned = req->pin.bytes;
	rdmablk_treq_exec_payload(req);
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
		bio = rdmablk_treq_bio(req, bdev, 0,
				       REQ_OP_WRITE | REQ_PREFLUSH);
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

/*
 * Command @idx of a batch, checked whole on arrival: decoded from the
 * receive buffer, which goes back to the device once the last one is.
 * Return: 0, or -EIO when it cannot (the connection is closing).
 */
static int rdmablk_tconn_batch_cmd(struct rdmablk_tconn *conn,
				   struct rdmablk_treq *req,
				   struct rdmablk_trecv *recv, unsigned int idx)
{
	const struct rdmablk_cmd *cmd = recv->cmd;

	if (idx)
		cmd = (const struct rdmablk_cmd *)rdmablk_trecv_data(recv) +
		      idx - 1;
	rdmablk_cmd_batch_decode(cmd, &req->cmd);
	trace_rdmablk_target_cmd(conn->qp->qp_num, &req->cmd);
	if (idx + 1 == recv->nr_cmds && rdmablk_trecv_post(recv))
		return -EIO;
	return 0;
}

/*
 * Execute command @idx of @recv with request context @req. Commands of a
 * connection are handled one at a time, in the order they arrived.
 */
static void rdmablk_tconn_handle(struct rdmablk_tconn *conn,
				 struct rdmablk_treq *req,
				 struct rdmablk_trecv *recv, unsigned int idx)
{
	u32 inline_len = recv->len - sizeof(struct rdmablk_cmd);

	req->rsp_extra = 0;
	req->push_slot = -1;
	if (recv->nr_cmds > 1) {
		/* Commands of a batch carry no payload: I/O only. */
		req->recv = NULL;
		inline_len = 0;
		if (rdmablk_tconn_batch_cmd(conn, req, recv, idx)) {
			req->status = RDMABLK_S_IO_ERROR;
			rdmablk_treq_respond(req);
			return;
		}
		goto io;
	}

	rdmablk_cmd_decode(recv->cmd, &req->cmd);
	trace_rdmablk_target_cmd(conn->qp->qp_num, &req->cmd);
	req->recv = recv;

	if (req->cmd.opcode == RDMABLK_OP_AUTH_CHALLENGE ||
	    req->cmd.opcode == RDMABLK_OP_AUTH_REPLY) {
		req->status = rdmablk_tconn_auth(conn, req, recv, inline_len);
		rdmablk_treq_respond(req);
		return;
	}
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
io:
	if (!conn->exp)
		req->status = RDMABLK_S_NOT_OPEN;
	else
		req->status = rdmablk_cmd_check(&req->cmd, &conn->exp->params,
						inline_len);
	/* A pushed payload is in a slot of this connection's push area. */
	if (req->status == RDMABLK_S_OK &&
	    (req->cmd.flags & RDMABLK_CMD_PUSHED) &&
	    !rdmablk_tpush_claim(conn, req))
		req->status = RDMABLK_S_INVALID;
	/* Data by SEND only where the initiator sized its receives for it. */
	if ((req->cmd.flags & RDMABLK_CMD_SEND_DATA) &&
	    !(conn->params.flags & RDMABLK_CONN_READ_SEND))
		req->status = RDMABLK_S_INVALID;
	if ((req->cmd.flags & RDMABLK_CMD_LONE) &&
	    !(conn->params.flags & RDMABLK_CONN_LONE))
		req->status = RDMABLK_S_INVALID;
	if (req->status != RDMABLK_S_OK) {
		rdmablk_treq_respond(req);
		return;
	}

	/* Only an inline payload keeps its receive buffer busy. */
	if (!inline_len && req->recv) {
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

/*
 * Give the commands of @recv request contexts, in order, and handle them;
 * those left without one wait in @conn->pending for rdmablk_treq_free().
 * Once the connection is closing (a command of the batch may have closed
 * it), the rest are dropped with the connection, as rdmablk_treq_free()
 * drops what waits.
 */
static void rdmablk_tconn_dispatch(struct rdmablk_tconn *conn,
				   struct rdmablk_trecv *recv)
{
	unsigned int idx, n = recv->nr_cmds;
	struct rdmablk_treq *req;
	unsigned long flags;

	do {
		spin_lock_irqsave(&conn->lock, flags);
		if (test_bit(RDMABLK_TCONN_CLOSING, &conn->flags)) {
			spin_unlock_irqrestore(&conn->lock, flags);
			return;
		}
		if (list_empty(&conn->free_reqs)) {
			list_add_tail(&recv->node, &conn->pending);
			spin_unlock_irqrestore(&conn->lock, flags);
			return;
		}
		req = list_first_entry(&conn->free_reqs, struct rdmablk_treq,
				       node);
		list_del(&req->node);
		conn->nr_free--;
		idx = recv->next_cmd++;
		spin_unlock_irqrestore(&conn->lock, flags);

		rdmablk_tconn_handle(conn, req, recv, idx);
	} while (idx + 1 < n);
}

/* Commands arrived: take request contexts for them, or make them wait. */
void rdmablk_tconn_recv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rdmablk_trecv *recv = container_of(wc->wr_cqe,
						  struct rdmablk_trecv, cqe);
	struct rdmablk_tconn *conn = recv->conn;
	unsigned long flags;
	int n;

	if (unlikely(wc->status != IB_WC_SUCCESS)) {
		if (wc->status != IB_WC_WR_FLUSH_ERR)
			tconn_err_ratelimited(conn, "receive failed: %s\n",
					      ib_wc_status_msg(wc->status));
		/* A flushed receive means the QP is in error: done. */
		rdmablk_tconn_close(conn);
		return;
	}
	/*
	 * Only a SEND fills a receive. An RDMA WRITE with immediate data
	 * (into the push area, the one region the initiator may write) takes
	 * one too, with the buffers left as the last command left them and
	 * byte_len the length written there: never to be read as a command.
	 */
	if (unlikely(wc->opcode != IB_WC_RECV ||
		     (wc->wc_flags & IB_WC_WITH_IMM))) {
		rdmablk_tconn_protocol_error(conn, "a receive not filled by a plain SEND");
		return;
	}
	if (unlikely(wc->byte_len < sizeof(struct rdmablk_cmd))) {
		rdmablk_tconn_protocol_error(conn, "short command");
		return;
	}
	/* The device bounds a SEND by the receive; nothing is taken on trust. */
	if (unlikely(wc->byte_len > recv->sge[0].length + recv->sge[1].length)) {
		rdmablk_tconn_protocol_error(conn, "a command longer than its receive");
		return;
	}
	recv->len = wc->byte_len;
	WRITE_ONCE(conn->last_rx, jiffies);
	ib_dma_sync_single_for_cpu(conn->dev, recv->sge[0].addr,
				   recv->sge[0].length, DMA_FROM_DEVICE);
	ib_dma_sync_single_for_cpu(conn->dev, recv->sge[1].addr,
				   recv->sge[1].length, DMA_FROM_DEVICE);
	n = rdmablk_cmd_batch_count(recv->cmd, rdmablk_trecv_data(recv),
				    recv->len, conn->params.flags);
	if (unlikely(n < 0)) {
		rdmablk_tconn_protocol_error(conn, "malformed batch of commands");
		return;
	}
	recv->nr_cmds = n;
	recv->next_cmd = 0;

	spin_lock_irqsave(&conn->lock, flags);
	if (n > conn->params.queue_depth - conn->outstanding) {
		spin_unlock_irqrestore(&conn->lock, flags);
		rdmablk_tconn_protocol_error(conn, "more commands than credits");
		return;
	}
	conn->outstanding += n;
	spin_unlock_irqrestore(&conn->lock, flags);

	rdmablk_tconn_dispatch(conn, recv);
}
