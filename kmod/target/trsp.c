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
 * Quiet answers (rsp_signal_every): an answer whose request contexts hold
 * no payload pages (writes whose data came inline or pushed, FLUSH,
 * DISCARD, WRITE_ZEROES, READs refused before any page was taken) is
 * posted unsignalled, but for one in @signal_every: no completion, so no
 * CQ event and no pass run only to give its contexts back. A send queue
 * completes in order, so when a signalled WR completes, every WR posted
 * before it has: the contexts of the quiet answers posted before a
 * signalled one (@quiet) ride on it (@req->quiet) and come back with it.
 * For a program that waits for each I/O that saves a wake-up of the CQ
 * work per answer.
 *
 * Quiet answers hold at most @quiet_max contexts (a batch holds one per
 * answer it carries), a quarter of the connection's, half its depth: the
 * commands in flight hold at most the depth, so whenever no context is
 * free, at least a quarter of them belong to answers that signal or are
 * about to be sent, and a completion comes that gives contexts back.
 * Without that bound, batches of quiet answers could hold every context,
 * and a command waiting for one would wait for ever with nothing in
 * flight to free it. A connection of depth 1 has no quiet answer. An
 * answer also signals while a command waits for a context (a hint read
 * without the lock; the bound is what guarantees progress), and on a
 * connection that is closing. Answers carrying read data, and those to
 * commands other than I/O (keep-alives among them: the deadline in
 * rdmablk_tconn_ka_work() sees a send queue that stopped moving through
 * those), always signal. A quiet WR that fails still completes, with an
 * error, into rdmablk_tconn_quiet_done(), which closes the connection and
 * nothing else: its contexts are given back by the signalled answer it
 * rides on, flushed in turn, or by teardown after the drain
 * (rdmablk_tconn_quiet_reclaim()), the one owner of the quiet ones left.
 *
 * Locking: tconn->lock (irq-safe: bio completion answers here) guards
 * @outstanding, @rsp_ready and the clearing of @rsp_defer (set without
 * it: an answer that missed it only queues a pass). A batched SEND's
 * request contexts stay with the one that carries it (@batch) until its
 * completion, which gives them all back: their buffers are what the SEND
 * gathers. tconn->tx_lock (irq-safe; no lock of rdmablk's nests in it,
 * the device's own send queue lock does) is held across deciding whether
 * an answer signals and posting it, so that @quiet lists the quiet
 * answers in the order the send queue has them, and a signalled answer
 * takes exactly those posted before it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/dma-mapping.h>
#include <linux/moduleparam.h>
#include <linux/scatterlist.h>

#include "tconn.h"
#include "../trace.h"

static unsigned int rdmablk_rsp_signal_every = 16;
module_param_named(rsp_signal_every, rdmablk_rsp_signal_every, uint, 0644);
MODULE_PARM_DESC(rsp_signal_every,
		 "Target: of the answers that hold no payload pages, ask for the completion of one in this many; the others come back with it (they hold at most a quarter of a connection's request contexts); 0 or 1: every answer signals; applies to new connections (default: 16)");

/**
 * rdmablk_trsp_setup() - set how many of @conn's answers may go quiet
 * @conn: the connection, its depth granted (rdmablk_tqp_fit())
 */
void rdmablk_trsp_setup(struct rdmablk_tconn *conn)
{
	conn->signal_every = READ_ONCE(rdmablk_rsp_signal_every);
	conn->quiet_max = conn->signal_every > 1 ? conn->nr_reqs / 4 : 0;
}

/* Give back the request contexts of @list, and empty it. */
static void rdmablk_treq_free_list(struct list_head *list)
{
	struct rdmablk_treq *m, *next;

	list_for_each_entry_safe(m, next, list, node) {
		list_del(&m->node);
		rdmablk_treq_unmap(m);
		rdmablk_treq_free(m);
	}
}

/*
 * Give back the request contexts whose responses @req's SEND carried, and
 * those of the quiet answers posted before it.
 */
static void rdmablk_treq_free_batch(struct rdmablk_treq *req)
{
	rdmablk_treq_free_list(&req->batch);
	rdmablk_treq_free_list(&req->quiet);
}

/**
 * rdmablk_tconn_quiet_done() - a quiet answer completed: it failed
 * @cq: the CQ
 * @wc: its work completion, never a successful one
 *
 * Its request contexts are given back by the signalled answer it rides on
 * or by teardown, not here.
 */
void rdmablk_tconn_quiet_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rdmablk_treq *req = container_of(wc->wr_cqe, struct rdmablk_treq,
						quiet_cqe);
	struct rdmablk_tconn *conn = req->conn;

	if (wc->status != IB_WC_WR_FLUSH_ERR)
		tconn_err_ratelimited(conn, "send failed: %s\n",
				      ib_wc_status_msg(wc->status));
	rdmablk_tconn_close(conn);
}

/**
 * rdmablk_tconn_quiet_reclaim() - give back the contexts of the quiet
 *	answers no signalled one followed
 * @conn: the connection, closing, its QP drained
 *
 * Every answer posted from now on signals (the connection is closing), and
 * every WR posted before the drain has completed.
 */
void rdmablk_tconn_quiet_reclaim(struct rdmablk_tconn *conn)
{
	unsigned long flags;
	LIST_HEAD(quiet);

	spin_lock_irqsave(&conn->tx_lock, flags);
	list_splice_init(&conn->quiet, &quiet);
	conn->nr_quiet = 0;
	conn->nr_quiet_reqs = 0;
	spin_unlock_irqrestore(&conn->tx_lock, flags);
	rdmablk_treq_free_list(&quiet);
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

/* Does @req hold payload pages, a mapping of them or a share of the budget? */
static bool rdmablk_treq_holds_pages(const struct rdmablk_treq *req)
{
	return req->sgl || req->rw_ready || req->send_mapped || req->pinned;
}

/*
 * The request contexts of @req's answer (@req and those of its @batch), or
 * 0 if one of them holds payload pages.
 */
static unsigned int rdmablk_treq_contexts_bare(const struct rdmablk_treq *req)
{
	const struct rdmablk_treq *m;
	unsigned int n = 1;

	if (rdmablk_treq_holds_pages(req))
		return 0;
	list_for_each_entry(m, &req->batch, node) {
		if (rdmablk_treq_holds_pages(m))
			return 0;
		n++;
	}
	return n;
}

/*
 * Contexts @first, answering @req, would hold quiet: a lone answer of an I/O
 * command whose contexts hold no pages; else 0. Read before tx_lock.
 */
static unsigned int rdmablk_treq_quiet_want(const struct rdmablk_treq *req,
					    const struct ib_send_wr *first)
{
	if (first->next || !req->conn->quiet_max ||
	    !rdmablk_opcode_is_io(req->cmd.opcode))
		return 0;
	return rdmablk_treq_contexts_bare(req);
}

/*
 * May an answer holding @n contexts go quiet? Under tx_lock: fewer than
 * @signal_every - 1 quiet since the last signalled one, @quiet_max not
 * exceeded, no command waiting for a context, not closing.
 */
static bool rdmablk_tconn_quiet_ok(struct rdmablk_tconn *conn, unsigned int n)
{
	bool waiting;

	lockdep_assert_held(&conn->tx_lock);
	/* @pending is read without its lock: a hint, see above. */
	waiting = !data_race(list_empty(&conn->pending));
	return n && !waiting && conn->nr_quiet + 1 < conn->signal_every &&
	       conn->nr_quiet_reqs + n <= conn->quiet_max &&
	       !test_bit(RDMABLK_TCONN_CLOSING, &conn->flags);
}

/*
 * Post @first, the WR chain answering @req (and those of @req->batch):
 * quiet, or signalled and counted in @conn->tx_inflight, taking the quiet
 * ones before it along. On failure the connection closes.
 */
static void rdmablk_treq_post(struct rdmablk_treq *req,
			      const struct ib_send_wr *first)
{
	struct rdmablk_tconn *conn = req->conn;
	const struct ib_send_wr *bad = NULL;
	unsigned int n = rdmablk_treq_quiet_want(req, first);
	unsigned int nr_quiet = 0, nr_quiet_reqs = 0;
	struct ib_send_wr quiet_wr;
	unsigned long flags;
	bool bh, quiet;
	int ret;

	bh = rdmablk_treq_post_runs_inline(req);
	if (bh)
		local_bh_disable();
	spin_lock_irqsave(&conn->tx_lock, flags);
	quiet = rdmablk_tconn_quiet_ok(conn, n);
	if (quiet) {
		quiet_wr = *first;
		quiet_wr.send_flags &= ~IB_SEND_SIGNALED;
		quiet_wr.wr_cqe = &req->quiet_cqe;
		first = &quiet_wr;
	} else {
		if (atomic_inc_return(&conn->tx_inflight) == 1)
			WRITE_ONCE(conn->tx_progress, jiffies);
		/* Before the post: its completion may come at once. */
		list_splice_init(&conn->quiet, &req->quiet);
		nr_quiet = conn->nr_quiet;
		nr_quiet_reqs = conn->nr_quiet_reqs;
		conn->nr_quiet = 0;
		conn->nr_quiet_reqs = 0;
	}
	ret = ib_post_send(conn->qp, first, &bad);
	if (likely(!ret) && quiet) {
		list_add_tail(&req->node, &conn->quiet);
		list_splice_tail_init(&req->batch, &conn->quiet);
		conn->nr_quiet++;
		conn->nr_quiet_reqs += n;
		conn->quiet_answers++;
	} else if (unlikely(ret) && !quiet) {
		/*
		 * The quiet ones are still in flight, and @req's signalled
		 * WR was not posted: the next signalled answer takes them,
		 * or teardown does after the drain.
		 */
		list_splice_init(&req->quiet, &conn->quiet);
		conn->nr_quiet = nr_quiet;
		conn->nr_quiet_reqs = nr_quiet_reqs;
		if (bad == first)
			atomic_dec(&conn->tx_inflight);
	}
	spin_unlock_irqrestore(&conn->tx_lock, flags);
	if (bh) {
		local_bh_enable();
		atomic64_inc(&conn->lone_answers);
	}
	if (likely(!ret))
		return;
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

	return (conn->params.flags & RDMABLK_CONN_RSP_BATCH) && !keyed &&
	       req->rsp_sge.length == sizeof(struct rdmablk_rsp) &&
	       rdmablk_opcode_is_io(req->cmd.opcode);
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
