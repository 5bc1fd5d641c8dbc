// SPDX-License-Identifier: GPL-2.0
/*
 * Answers of a target connection. A command is answered by a struct
 * rdmablk_rsp sent by SEND (SEND_WITH_INV of the command's rkey under
 * RDMABLK_CONN_REMOTE_INV), behind the RDMA WRITEs of a READ's data; a
 * successful small READ is answered by the immediate data of its last
 * RDMA WRITE instead (RDMABLK_CONN_READ_IMM), or, when it asked for its
 * data by SEND (RDMABLK_CMD_SEND_DATA), by one SEND_WITH_IMM carrying
 * the data itself.
 *
 * Coalescing (RDMABLK_CONN_RSP_BATCH): the plain responses to I/O
 * commands that are ready together leave in one SEND, gathered from their
 * buffers, one work request, one completion and one message on the wire
 * for up to RDMABLK_RSP_BATCH_MAX of them. A response joins @rsp_ready
 * while a pass of the connection's CQ runs (@rsp_defer, tcq.c: a backing
 * device that completes at once answers inside the receive completion,
 * before the next command of the pass was even counted), or while other
 * commands of the connection are outstanding. The ready ones go when the
 * pass ends, when a SEND's worth is ready, or, for an answer made outside
 * a pass (bio completion), when no command is left outstanding or at the
 * end of the pass it queues. No answer waits for a command that is still
 * running, nor for anything to arrive.
 *
 * Locking: tconn->lock (irq-safe: bio completion answers here) guards
 * @outstanding, @rsp_ready and the clearing of @rsp_defer (set without
 * it: an answer that missed it only queues a pass). A batched SEND's
 * request contexts stay with the one that carries it (@batch) until its
 * completion, which gives them all back: their buffers are what the SEND
 * gathers.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/dma-mapping.h>
#include <linux/scatterlist.h>

#include "tconn.h"
#include "../trace.h"

/* Give back the request contexts whose responses @req's SEND carried. */
static void rdmablk_treq_free_batch(struct rdmablk_treq *req)
{
	struct rdmablk_treq *m, *next;

	list_for_each_entry_safe(m, next, &req->batch, node) {
		list_del(&m->node);
		rdmablk_treq_unmap(m);
		rdmablk_treq_free(m);
	}
}

/* Completion of a response, or of the WRITE_WITH_IMM ending a READ. */
void rdmablk_tconn_send_done(struct ib_cq *cq, struct ib_wc *wc)
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
	rdmablk_treq_free_batch(req);
	rdmablk_treq_unmap(req);
	rdmablk_treq_run_waiting(conn);
	rdmablk_treq_free(req);
}

/*
 * The WRs pushing a successful READ's data, the last of them carrying the
 * READ's tag and generation as immediate data instead of a response following
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
	last->ex.imm_data =
		cpu_to_be32(rdmablk_read_imm_encode(req->cmd.tag, req->cmd.gen));
	return first;
}

/*
 * The SEND_WITH_IMM carrying a successful READ's data into a receive of
 * the initiator's, the immediate naming the READ as READ_IMM's does
 * (RDMABLK_CMD_SEND_DATA). Its completion, signalled, frees @req.
 */
static struct ib_send_wr *rdmablk_treq_read_send_wr(struct rdmablk_treq *req)
{
	req->rsp_wr.opcode = IB_WR_SEND_WITH_IMM;
	req->rsp_wr.sg_list = &req->data_sge;
	req->rsp_wr.num_sge = 1;
	req->rsp_wr.ex.imm_data =
		cpu_to_be32(rdmablk_read_imm_encode(req->cmd.tag, req->cmd.gen));
	req->rsp_wr.next = NULL;
	return &req->rsp_wr;
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

/**
 * rdmablk_treq_post_failed() - a post of @req's WR chain failed
 * @req: the request context
 * @posted: whether a part of the chain was posted (ib_post_send()'s bad
 *	WR is not its first)
 * @unanswered: @req's command was not answered: it still counts in
 *	@outstanding
 *
 * The connection closes, and the initiator sends the command again on its
 * next one. Nothing posted: @req (and its @batch) is given back now.
 * Posted in part: no completion comes and the device may still read or
 * write the pages, so @req waits in @conn->failed for teardown, which
 * gives it back after the drain.
 */
void rdmablk_treq_post_failed(struct rdmablk_treq *req, bool posted,
			      bool unanswered)
{
	struct rdmablk_tconn *conn = req->conn;
	unsigned long flags;

	rdmablk_tconn_close(conn);
	spin_lock_irqsave(&conn->lock, flags);
	if (unanswered)
		conn->outstanding--;
	if (posted) {
		list_add(&req->node, &conn->failed);
		conn->nr_failed++;
	}
	spin_unlock_irqrestore(&conn->lock, flags);
	if (posted) {
		wake_up(&conn->wq);
		return;
	}
	rdmablk_treq_free_batch(req);
	rdmablk_treq_unmap(req);
	rdmablk_treq_free(req);
}

/*
 * Does the post answering @req run the softirq work it raises (soft-RoCE
 * builds and sends the packets there; a hardware device raises none) in
 * this thread, by ending a bottom-half section right after it, rather
 * than in ksoftirqd once the thread is done? Only for a lone command
 * (RDMABLK_CMD_LONE: the initiator waits for this answer and nothing else)
 * with nothing else outstanding here, and only in task context: a softirq
 * runs what it raises on its way out anyway. Doing it for every answer
 * broke up the batches at depth 32 (performance.md, pass_bh).
 */
static bool rdmablk_treq_post_runs_inline(const struct rdmablk_treq *req)
{
	return (req->cmd.flags & RDMABLK_CMD_LONE) &&
	       !READ_ONCE(req->conn->outstanding) && in_task() &&
	       !irqs_disabled();
}

/*
 * Post @first, the WR chain answering @req (and those of @req->batch),
 * counted in @conn->tx_inflight. On failure the connection closes.
 */
static void rdmablk_treq_post(struct rdmablk_treq *req,
			      const struct ib_send_wr *first)
{
	struct rdmablk_tconn *conn = req->conn;
	const struct ib_send_wr *bad = NULL;
	bool bh;
	int ret;

	if (atomic_inc_return(&conn->tx_inflight) == 1)
		WRITE_ONCE(conn->tx_progress, jiffies);
	bh = rdmablk_treq_post_runs_inline(req);
	if (bh)
		local_bh_disable();
	ret = ib_post_send(conn->qp, first, &bad);
	if (bh) {
		local_bh_enable();
		atomic64_inc(&conn->lone_answers);
	}
	if (likely(!ret))
		return;
	if (bad == first)
		atomic_dec(&conn->tx_inflight);
	tconn_err_ratelimited(conn, "cannot post a response: %d\n", ret);
	rdmablk_treq_post_failed(req, bad != first, false);
}

/*
 * Send the responses of @ready, whose contexts it holds, in SENDs of up
 * to @conn->rsp_batch_max: one alone goes as it was built, several are
 * flagged RDMABLK_RSP_BATCH and gathered from their buffers by one plain
 * SEND, which the first of them carries.
 */
static void rdmablk_tconn_send_ready(struct rdmablk_tconn *conn,
				     struct list_head *ready)
{
	struct ib_sge sge[RDMABLK_RSP_BATCH_MAX];
	struct rdmablk_treq *head, *req;
	struct ib_send_wr wr;
	unsigned long flags;
	unsigned int n;

	while (!list_empty(ready)) {
		head = list_first_entry(ready, struct rdmablk_treq, node);
		list_del(&head->node);
		if (list_empty(ready)) {
			rdmablk_treq_post(head, &head->rsp_wr);
			return;
		}
		n = 0;
		req = head;
		do {
			struct rdmablk_rsp *rsp = req->rsp;

			rsp->flags = RDMABLK_RSP_BATCH;
			ib_dma_sync_single_for_device(conn->dev, req->rsp_dma,
						      sizeof(*rsp),
						      DMA_TO_DEVICE);
			sge[n++] = req->rsp_sge;
			if (n == conn->rsp_batch_max || list_empty(ready))
				break;
			req = list_first_entry(ready, struct rdmablk_treq,
					       node);
			list_move_tail(&req->node, &head->batch);
		} while (true);

		wr = head->rsp_wr;
		wr.next = NULL;
		wr.opcode = IB_WR_SEND;
		wr.sg_list = sge;
		wr.num_sge = n;
		spin_lock_irqsave(&conn->lock, flags);
		conn->rsp_batches++;
		conn->rsp_batched += n;
		spin_unlock_irqrestore(&conn->lock, flags);
		rdmablk_treq_post(head, &wr);
	}
}

/**
 * rdmablk_tconn_pass_begin() - a pass of @conn's CQ starts (tcq.c)
 * @conn: the connection
 *
 * Responses made ready from now on wait for rdmablk_tconn_pass_end().
 */
void rdmablk_tconn_pass_begin(struct rdmablk_tconn *conn)
{
	WRITE_ONCE(conn->rsp_defer, true);
}

/**
 * rdmablk_tconn_pass_end() - a pass of @conn's CQ is over: send the
 *	responses it made ready, and those made ready outside it since
 * @conn: the connection
 */
void rdmablk_tconn_pass_end(struct rdmablk_tconn *conn)
{
	unsigned long flags;
	LIST_HEAD(ready);

	spin_lock_irqsave(&conn->lock, flags);
	conn->rsp_defer = false;
	list_splice_init(&conn->rsp_ready, &ready);
	conn->nr_ready = 0;
	spin_unlock_irqrestore(&conn->lock, flags);
	rdmablk_tconn_send_ready(conn, &ready);
}

/*
 * May @req's response, built, go in a batch? A plain response of its own
 * size to an I/O command, on a connection that agreed to batches: not one
 * that invalidates the initiator's registration (a batched SEND cannot),
 * nor one behind a READ's data.
 */
static bool rdmablk_treq_batchable(const struct rdmablk_treq *req, bool keyed)
{
	const struct rdmablk_tconn *conn = req->conn;

	if (!(conn->params.flags & RDMABLK_CONN_RSP_BATCH) || keyed ||
	    req->rsp_sge.length != sizeof(struct rdmablk_rsp))
		return false;
	switch (req->cmd.opcode) {
	case RDMABLK_OP_READ:
	case RDMABLK_OP_WRITE:
	case RDMABLK_OP_FLUSH:
	case RDMABLK_OP_DISCARD:
	case RDMABLK_OP_WRITE_ZEROES:
		return true;
	default:
		return false;
	}
}

/**
 * rdmablk_treq_respond() - answer a command with @req->status
 * @req: the command
 *
 * For a successful READ, its data is pushed first. Safe in any context
 * (bio completion answers here).
 */
void rdmablk_treq_respond(struct rdmablk_treq *req)
{
	struct rdmablk_tconn *conn = req->conn;
	struct rdmablk_rsp *rsp = req->rsp;
	struct ib_send_wr *first = &req->rsp_wr;
	unsigned long flags;
	bool keyed, read_ok, kick = false;
	LIST_HEAD(ready);

	trace_rdmablk_target_rsp(conn->qp->qp_num, &req->cmd, req->status);
	if (req->recv) {
		rdmablk_trecv_post(req->recv);
		req->recv = NULL;
	}
	/* The bio reading it ended: the initiator may write it again. */
	rdmablk_tpush_release(req);

	read_ok = (req->rw_ready || req->send_mapped) &&
		  req->cmd.opcode == RDMABLK_OP_READ &&
		  req->status == RDMABLK_S_OK;
	if (read_ok)
		rdmablk_treq_sync_read(req);
	if (read_ok && req->send_mapped) {
		first = rdmablk_treq_read_send_wr(req);
		goto post;
	}
	if (read_ok && (conn->params.flags & RDMABLK_CONN_READ_IMM) &&
	    req->cmd.length <= conn->read_imm_max) {
		first = rdmablk_treq_read_imm_wrs(req);
		goto post;
	}

	rsp->opcode = req->cmd.opcode;
	rsp->flags = 0;
	rsp->tag = cpu_to_le16(req->cmd.tag);
	rsp->status = cpu_to_le16(req->status);
	rsp->gen = cpu_to_le16(req->cmd.gen);
	req->rsp_sge.length = sizeof(*rsp);
	if (req->status == RDMABLK_S_OK)
		req->rsp_sge.length += req->rsp_extra;
	ib_dma_sync_single_for_device(conn->dev, req->rsp_dma,
				      req->rsp_sge.length, DMA_TO_DEVICE);

	req->rsp_wr.sg_list = &req->rsp_sge;
	req->rsp_wr.num_sge = 1;
	/* The initiator's registration is invalidated by our response. */
	keyed = req->keyed && (conn->params.flags & RDMABLK_CONN_REMOTE_INV);
	if (keyed) {
		req->rsp_wr.opcode = IB_WR_SEND_WITH_INV;
		req->rsp_wr.ex.invalidate_rkey = req->cmd.rkey;
	} else {
		req->rsp_wr.opcode = IB_WR_SEND;
	}

	if (read_ok) {
		first = rdma_rw_ctx_wrs(&req->rw, conn->qp, conn->port_num,
					NULL, &req->rsp_wr);
	} else if (rdmablk_treq_batchable(req, keyed)) {
		spin_lock_irqsave(&conn->lock, flags);
		conn->outstanding--;
		list_add_tail(&req->node, &conn->rsp_ready);
		if ((!conn->outstanding && !conn->rsp_defer) ||
		    ++conn->nr_ready >= conn->rsp_batch_max) {
			list_splice_init(&conn->rsp_ready, &ready);
			conn->nr_ready = 0;
		} else if (!conn->rsp_defer && conn->nr_ready == 1) {
			/* Outside a pass: one ends soon after this. */
			kick = true;
		}
		spin_unlock_irqrestore(&conn->lock, flags);
		if (kick)
			rdmablk_tconn_kick(conn);
		else
			rdmablk_tconn_send_ready(conn, &ready);
		return;
	}

post:
	spin_lock_irqsave(&conn->lock, flags);
	conn->outstanding--;
	spin_unlock_irqrestore(&conn->lock, flags);
	rdmablk_treq_post(req, first);
}
