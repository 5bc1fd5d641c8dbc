// SPDX-License-Identifier: GPL-2.0
/*
 * Initiator queues: one RDMA connection per blk-mq hardware queue.
 *
 * A request's data pages are registered per I/O with fast registration
 * (FRWR, from the QP's MR pool) and the registration's rkey travels in the
 * command; the target invalidates it with SEND_WITH_INV when it answers,
 * else the request invalidates it locally before completing. Writes of at
 * most a push slot (RDMABLK_CONN_WRITE_PUSH, isubmit.c) go by RDMA WRITE
 * into a slot of the target's ahead of their command, or else, up to
 * inline_max bytes, inline; either straight from the request's pages.
 * There is never a global rkey. Where both ends speak it
 * (RDMABLK_CONN_READ_IMM, not on iWARP), a successful READ is completed by
 * the immediate data of the target's last RDMA WRITE instead of a response:
 * two packets fewer per read; its registration is invalidated locally.
 * A READ of at most RDMABLK_READ_SEND_MAX bytes, where both ends speak it
 * (RDMABLK_CONN_READ_SEND, read_send), registers nothing: the target
 * sends its data in a SEND_WITH_IMM, into a receive (each one sized for
 * it), and the data is copied from there into the request's pages. The
 * copy of at most a page costs less than what it saves: the registration
 * and the local invalidation, two work requests, the invalidation's fence
 * and its completion.
 *
 * Lifetime: a request completes to blk-mq when its reference count drops
 * to zero: one reference for the SEND's completion, one for the answer (a
 * response, a READ's immediate data, or its data), which takes another for
 * a local invalidation it has to post. Where both ends speak it
 * (RDMABLK_CONN_CMD_BATCH), the commands of a batch share one SEND
 * (isubmit.c): its completion puts the SEND's reference of each of them.
 * Completions run in softirq (IB_POLL_SOFTIRQ), but those of a poll
 * queue (queue->polled, HCTX_TYPE_POLL), which has no completion interrupts:
 * they run in the process context of whoever reaps its CQ (polled bios
 * must end there, not with bottom halves disabled): blk-mq's .poll
 * (rdmablk_iqueue_poll()), this file's waits for control answers and each
 * keep-alive round, so that a queue nobody polls still answers keep-alives
 * and sees its connection's loss, and ib_drain_qp(). Reapers may run at
 * once on several CPUs: a request's reference count and arming decide who
 * completes it, as they do between its SEND's and its answer's handlers.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blk-mq.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <rdma/mr_pool.h>
#include <rdma/rdma_cm.h>

#include "initiator.h"
#include "../trace.h"

static bool rdmablk_write_push = true;
module_param_named(write_push, rdmablk_write_push, bool, 0644);
MODULE_PARM_DESC(write_push,
		 "Offer to RDMA WRITE the payload of small writes into the target's push slots ahead of their commands, which may then share SENDs, on new connections (default on)");

static bool rdmablk_cmd_batch = true;
module_param_named(cmd_batch, rdmablk_cmd_batch, bool, 0644);
MODULE_PARM_DESC(cmd_batch,
		 "Offer to carry the commands of a batch in one SEND on new connections (default on)");

static bool rdmablk_read_send = true;
module_param_named(read_send, rdmablk_read_send, bool, 0644);
MODULE_PARM_DESC(read_send,
		 "Offer to take the data of reads of up to 4 KiB in a SEND, copied out of a receive, instead of registering their pages, on new connections (default on)");

/*
 * Off by default: fio verifying at depth 32, its submissions slower than
 * the round trip, drained the path 16 commands at a time, had a third of
 * its commands marked and ran 13% to 18% slower (performance.md).
 */
static bool rdmablk_lone_hint;
module_param_named(lone_hint, rdmablk_lone_hint, bool, 0644);
MODULE_PARM_DESC(lone_hint,
		 "Offer to mark the reads and writes sent alone, on a path whose commands go one at a time, for the target to answer at once, on new connections; off by default: a submitter keeping 32 in flight but slower than the round trip was measured slower with it (default off)");

static bool rdmablk_rsp_batch = true;
module_param_named(rsp_batch, rdmablk_rsp_batch, bool, 0644);
MODULE_PARM_DESC(rsp_batch,
		 "Offer to take the responses the target has ready together in one SEND on new connections (default on)");

/*
 * Receive buffers hold the longest answer and a batch of responses; and a
 * READ's data where a READ may have it sent (RDMABLK_CONN_READ_SEND).
 */
#define RDMABLK_IRECV_SIZE	max_t(size_t, RDMABLK_RSP_BUF_SIZE, \
				      RDMABLK_RSP_BATCH_SIZE)

#define RDMABLK_CM_TIMEOUT_MS	3000
#define RDMABLK_CONNECT_TIMEOUT	(10 * HZ)

static void rdmablk_iqueue_lost(struct rdmablk_iqueue *queue, const char *why)
{
	if (test_bit(RDMABLK_IQ_LIVE, &queue->flags))
		iq_err(queue, "connection lost: %s\n", why);
	rdmablk_ipath_conn_lost(queue->path, why);
}

static int rdmablk_irecv_post(struct rdmablk_irecv *recv)
{
	struct rdmablk_iqueue *queue = recv->queue;

	ib_dma_sync_single_for_device(queue->dev, recv->sge.addr,
				      recv->sge.length, DMA_FROM_DEVICE);
	return ib_post_recv(queue->qp, &recv->wr, NULL);
}

static void rdmablk_ireq_put(struct request *rq)
{
	struct rdmablk_ireq *req = blk_mq_rq_to_pdu(rq);

	if (refcount_dec_and_test(&req->ref))
		blk_mq_complete_request(rq);
}

/*
 * A SEND of commands completed: it carried @req's command, and those of
 * the requests linked from it by msg_next. They are counted off the
 * queue's unacked before any is put, so that a request the put completes
 * (its answer came first) finds the next one's command free to go; the
 * last SEND in flight posts what was held for it (cmd_cork). A failed
 * one leaves them to recovery, which ends every request in flight once
 * the queue is drained.
 */
void rdmablk_ireq_send_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rdmablk_ireq *req = container_of(wc->wr_cqe, struct rdmablk_ireq,
						send_cqe);
	struct rdmablk_iqueue *queue = req->queue;
	struct rdmablk_ireq *next;
	unsigned int cmds = 0;

	/* The device is done with the batch's buffer, whatever the status. */
	if (req->msg_slot >= 0)
		clear_bit_unlock(req->msg_slot, &req->queue->msg_busy);
	if (unlikely(wc->status != IB_WC_SUCCESS)) {
		if (wc->status != IB_WC_WR_FLUSH_ERR)
			iq_err(req->queue, "send failed: %s\n",
			       ib_wc_status_msg(wc->status));
		rdmablk_iqueue_lost(req->queue, "send failed");
		return;
	}
	for (next = req; next; next = next->msg_next)
		cmds++;
	rdmablk_iqueue_acked(queue, cmds);
	/* Read before the put: the request may be reused right after it. */
	do {
		next = req->msg_next;
		rdmablk_ireq_put(blk_mq_rq_from_pdu(req));
		req = next;
	} while (req);
}

void rdmablk_ireq_inv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rdmablk_ireq *req = container_of(wc->wr_cqe, struct rdmablk_ireq,
						inv_cqe);

	if (unlikely(wc->status != IB_WC_SUCCESS)) {
		/*
		 * The CQ's queue, not the request's: a flushed invalidation
		 * then needs nothing of a request recovery may be ending.
		 */
		struct rdmablk_iqueue *queue = cq->cq_context;

		if (wc->status != IB_WC_WR_FLUSH_ERR)
			iq_err(queue, "local invalidate failed: %s\n",
			       ib_wc_status_msg(wc->status));
		rdmablk_iqueue_lost(queue, "invalidate failed");
		return;
	}
	req->mr_valid = false;
	rdmablk_ireq_put(blk_mq_rq_from_pdu(req));
}

static void rdmablk_iqueue_ka_send_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rdmablk_iqueue *queue = container_of(wc->wr_cqe,
						    struct rdmablk_iqueue, ka_cqe);

	if (unlikely(wc->status != IB_WC_SUCCESS)) {
		if (wc->status != IB_WC_WR_FLUSH_ERR)
			iq_err(queue, "keep-alive send failed: %s\n",
			       ib_wc_status_msg(wc->status));
		rdmablk_iqueue_lost(queue, "keep-alive send failed");
	}
}

/**
 * rdmablk_iqueue_keepalive() - keep the connection proven alive
 * @queue: the queue
 * @kato: keep-alive timeout, in jiffies
 *
 * Sends a keep-alive with the reserved credit when the queue has been
 * quiet for a look's interval and none is outstanding (rdmablk_ka_check():
 * traffic proves both ends alive).
 *
 * Return: 0; -ETIMEDOUT when nothing arrived for @kato and the keep-alive
 * outstanding had half of it to be answered; a posting error.
 */
int rdmablk_iqueue_keepalive(struct rdmablk_iqueue *queue, unsigned long kato)
{
	unsigned long last_rx = READ_ONCE(queue->last_rx);

	u16 tag = rdmablk_iqueue_ka_tag(queue);
	struct rdmablk_cmd_info c = {
		.opcode = RDMABLK_OP_KEEPALIVE,
		.tag = tag,
	};
	struct ib_sge sge = {
		.addr = queue->cmd_dma + tag * sizeof(struct rdmablk_cmd),
		.length = sizeof(struct rdmablk_cmd),
		.lkey = queue->pd->local_dma_lkey,
	};
	struct ib_send_wr wr = {
		.wr_cqe = &queue->ka_cqe,
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = IB_WR_SEND,
		.send_flags = IB_SEND_SIGNALED,
	};

	if (!test_bit(RDMABLK_IQ_LIVE, &queue->flags))
		return 0;
	/* Nothing else may have reaped a polled queue's answers lately. */
	if (queue->polled) {
		rdmablk_iqueue_poll(queue);
		last_rx = READ_ONCE(queue->last_rx);
	}
	switch (rdmablk_ka_check(jiffies, last_rx, queue->ka_sent,
				 test_bit(RDMABLK_IQ_KA_PENDING, &queue->flags),
				 kato)) {
	case RDMABLK_KA_LOST:
		return -ETIMEDOUT;
	case RDMABLK_KA_WAIT:
		return 0;
	case RDMABLK_KA_SEND:
		break;
	}
	rdmablk_cmd_encode(&queue->cmd_buf[tag], &c);
	ib_dma_sync_single_for_device(queue->dev, sge.addr, sge.length,
				      DMA_TO_DEVICE);
	queue->ka_sent = jiffies;
	set_bit(RDMABLK_IQ_KA_PENDING, &queue->flags);
	return ib_post_send(queue->qp, &wr, NULL);
}

/*
 * The answer to the control command this side waits for (OPEN,
 * AUTH_CHALLENGE, AUTH_REPLY): one, and of the opcode sent. What follows
 * it is kept for the waiter to decode.
 */
static void rdmablk_iqueue_ctl_done(struct rdmablk_iqueue *queue,
				    const struct rdmablk_rsp *rsp, u32 len)
{
	if (rsp->opcode != READ_ONCE(queue->ctl_opcode) ||
	    !test_and_clear_bit(RDMABLK_IQ_CTL_PENDING, &queue->flags)) {
		rdmablk_iqueue_lost(queue, "a response to no outstanding OPEN or AUTH command");
		return;
	}
	queue->ctl_status = le16_to_cpu(rsp->status);
	queue->ctl_rsp_len = min_t(u32, len - sizeof(*rsp),
				   sizeof(queue->ctl_rsp));
	memcpy(queue->ctl_rsp, rsp + 1, queue->ctl_rsp_len);
	complete(&queue->ctl_done);
}

/*
 * The request a response names: outstanding on this queue and of the
 * opcode the response is for. NULL for anything else, and for everything
 * before the tag set exists: an attach connects its first path before it
 * allocates the tag set (whose sizes the connection negotiates), and a
 * target may answer meanwhile. Whether the answer is taken is
 * rdmablk_ireq_take()'s decision.
 */
static struct request *rdmablk_iqueue_find(struct rdmablk_iqueue *queue,
					   u16 tag, u8 opcode)
{
	/* Pairs with rdmablk_idev_alloc_disk()'s release. */
	struct blk_mq_tags **all = smp_load_acquire(&queue->idev->tags);
	struct rdmablk_ireq *req;
	struct request *rq;

	/*
	 * The disk's tags, below the keep-alive's; a lower grant has them
	 * all. The depth is read after the tags' acquire: set before them.
	 */
	if (!all || !all[queue->qid] || tag >= queue->idev->queue_depth)
		return NULL;
	rq = blk_mq_tag_to_rq(all[queue->qid], tag);
	/*
	 * tags->rqs[] keeps the last request each driver tag was given to: a
	 * request requeued under an I/O scheduler is in flight again under
	 * another tag, and must not be found under its old one.
	 */
	if (!rq || rq->tag != tag || blk_mq_rq_state(rq) != MQ_RQ_IN_FLIGHT)
		return NULL;
	req = blk_mq_rq_to_pdu(rq);
	if (req->queue != queue || opcode != req->opcode)
		return NULL;
	return rq;
}

/*
 * Take the answer for @req, which names generation @gen: 1 when the
 * request is armed and was sent with @gen (consumed, atomically: a second
 * answer finds it IDLE); 0 when its command is being posted: the answer is
 * kept (EARLY) for the poster; -EPROTO when no such answer is expected
 * (not sent, answered already, or sent with another generation). See
 * RDMABLK_ARM_*: only the poster changes @req->arm meanwhile, once.
 */
static int rdmablk_ireq_take(struct rdmablk_ireq *req, u16 gen, u16 status,
			     const struct ib_wc *wc)
{
	int arm;

	for (;;) {
		/*
		 * @arm first, with acquire: a request the poster made POSTING
		 * (a release, after its new @gen) is compared with that @gen,
		 * so a stale answer meant for the tag's previous sending is
		 * refused, not kept EARLY for this one.
		 */
		arm = atomic_read_acquire(&req->arm);
		if (READ_ONCE(req->gen) != gen)
			return -EPROTO;
		switch (arm) {
		case RDMABLK_ARM_ARMED:
			if (atomic_cmpxchg(&req->arm, RDMABLK_ARM_ARMED,
					   RDMABLK_ARM_IDLE) == RDMABLK_ARM_ARMED)
				return 1;
			break;
		case RDMABLK_ARM_POSTING:
			/* Published by the cmpxchg, read by the poster. */
			req->early_status = status;
			req->early_wc_flags = wc->wc_flags;
			req->early_inv_rkey = wc->ex.invalidate_rkey;
			if (atomic_cmpxchg(&req->arm, RDMABLK_ARM_POSTING,
					   RDMABLK_ARM_EARLY) ==
			    RDMABLK_ARM_POSTING)
				return 0;
			break;
		default:
			return -EPROTO;
		}
	}
}

/*
 * Account for the answer to @rq; its registration must not outlive it.
 * @wc: the answer's completion
 */
static void rdmablk_iqueue_answered(struct rdmablk_iqueue *queue,
				    struct request *rq, u16 status,
				    const struct ib_wc *wc)
{
	struct rdmablk_ireq *req = blk_mq_rq_to_pdu(rq);

	req->status = status;

	if (wc->wc_flags & IB_WC_WITH_INVALIDATE) {
		if (!req->mr || wc->ex.invalidate_rkey != req->mr->rkey) {
			rdmablk_iqueue_lost(queue, "target invalidated a key it was not given");
			return;
		}
		req->mr_valid = false;
	} else if (req->mr) {
		/* Invalidate before the pages go back to their owner. */
		refcount_inc(&req->ref);
		req->inv_wr.ex.invalidate_rkey = req->mr->rkey;
		if (ib_post_send(queue->qp, &req->inv_wr, NULL)) {
			rdmablk_iqueue_lost(queue, "cannot post a local invalidate");
			return;
		}
	}
	rdmablk_ireq_put(rq);
}

/*
 * Take an answer for @rq, naming generation @gen; drop the connection if
 * none is expected. Return: false when it was dropped.
 */
static bool rdmablk_iqueue_answer(struct rdmablk_iqueue *queue,
				  struct request *rq, u16 gen, u16 status,
				  struct ib_wc *wc)
{
	int ret = rdmablk_ireq_take(blk_mq_rq_to_pdu(rq), gen, status, wc);

	if (ret < 0) {
		rdmablk_iqueue_lost(queue, "answer for a command not outstanding");
		return false;
	}
	if (ret)
		rdmablk_iqueue_answered(queue, rq, status, wc);
	return true;
}

/**
 * rdmablk_ireq_posted() - arm a request whose command was posted
 * @queue: its queue
 * @rq: the request, POSTING or EARLY
 *
 * An answer that came while the command was being posted is acted on
 * now, as if it had come after.
 * Context: the poster's: process, or the queue's CQ handler posting
 * commands held for a SEND's completion (none of the queue's answers is
 * handled meanwhile there, so only an answer the target made up could be
 * EARLY there; it is handled the same).
 */
void rdmablk_ireq_posted(struct rdmablk_iqueue *queue, struct request *rq)
{
	struct rdmablk_ireq *req = blk_mq_rq_to_pdu(rq);
	struct ib_wc wc = {};

	if (atomic_cmpxchg(&req->arm, RDMABLK_ARM_POSTING,
			   RDMABLK_ARM_ARMED) == RDMABLK_ARM_POSTING)
		return;
	/* EARLY: a failed cmpxchg orders nothing; pairs with the answer's. */
	smp_rmb();
	atomic_set(&req->arm, RDMABLK_ARM_IDLE);
	wc.wc_flags = req->early_wc_flags;
	wc.ex.invalidate_rkey = req->early_inv_rkey;
	rdmablk_iqueue_answered(queue, rq, req->early_status, &wc);
}

/*
 * Is @req a READ that asked for its data by SEND, and not answered yet
 * (POSTING or ARMED: an EARLY one was, and its poster may be ending it)?
 * Read as rdmablk_ireq_take() reads @gen: after @arm, with acquire. Only
 * the poster moves @arm meanwhile (POSTING to ARMED), as answers of a
 * queue are taken one at a time: such a request stays the answer's until
 * rdmablk_ireq_take().
 */
static bool rdmablk_ireq_awaits_data(struct rdmablk_ireq *req)
{
	int arm = atomic_read_acquire(&req->arm);

	return (arm == RDMABLK_ARM_POSTING || arm == RDMABLK_ARM_ARMED) &&
	       READ_ONCE(req->send_data);
}

/*
 * A response arrived: find its request and account for it.
 * Return: false when the connection was dropped for it.
 */
static bool rdmablk_iqueue_response(struct rdmablk_iqueue *queue,
				    const struct rdmablk_rsp *rsp,
				    struct ib_wc *wc)
{
	struct request *rq = rdmablk_iqueue_find(queue, le16_to_cpu(rsp->tag),
						 rsp->opcode);
	u16 status = rdmablk_wire_status(le16_to_cpu(rsp->status));
	struct rdmablk_ireq *req;

	if (!rq) {
		rdmablk_iqueue_lost(queue, "response for no outstanding command");
		return false;
	}
	/*
	 * A READ that asked for its data succeeds only with the data; once
	 * its failure is taken, it awaits none.
	 */
	req = blk_mq_rq_to_pdu(rq);
	if (status == RDMABLK_S_OK && rdmablk_ireq_awaits_data(req)) {
		rdmablk_iqueue_lost(queue, "a read's success without its data");
		return false;
	}
	/* An unknown status fails the I/O, whatever its value. */
	return rdmablk_iqueue_answer(queue, rq, le16_to_cpu(rsp->gen), status,
				     wc);
}

/*
 * The target's RDMA WRITE_WITH_IMM finished a READ's data: that is the
 * READ's successful answer (RDMABLK_CONN_READ_IMM). The receive buffer
 * was not written.
 */
static void rdmablk_iqueue_read_imm(struct rdmablk_iqueue *queue,
				    struct ib_wc *wc)
{
	struct rdmablk_ireq *req;
	struct request *rq;
	u16 tag, gen;

	if (!(queue->params.flags & RDMABLK_CONN_READ_IMM) ||
	    !(wc->wc_flags & IB_WC_WITH_IMM)) {
		rdmablk_iqueue_lost(queue, "unexpected immediate data");
		return;
	}
	rdmablk_read_imm_decode(be32_to_cpu(wc->ex.imm_data), &tag, &gen);
	rq = rdmablk_iqueue_find(queue, tag, RDMABLK_OP_READ);
	req = rq ? blk_mq_rq_to_pdu(rq) : NULL;
	/*
	 * Only a READ with a registration can have been written to. Like a
	 * response saying OK, the immediate is the target's word that all of
	 * the data was placed: byte_len covers only the last WRITE.
	 */
	if (!req || !req->mr) {
		rdmablk_iqueue_lost(queue, "read data for no outstanding read");
		return;
	}
	rdmablk_iqueue_answer(queue, rq, gen, RDMABLK_S_OK, wc);
}

/*
 * A SEND_WITH_IMM brought a READ's data into @recv (RDMABLK_CONN_READ_SEND):
 * that is the READ's successful answer. Only a READ that asked for it,
 * of exactly its length, and not answered yet: the data is copied into
 * the request's pages before the answer is taken, which may end the
 * request; once taken (IDLE, or EARLY for its poster), no second answer,
 * data or response, gets to copy.
 * Return: false when the connection was dropped for it.
 */
static bool rdmablk_iqueue_read_send(struct rdmablk_iqueue *queue,
				     struct rdmablk_irecv *recv,
				     struct ib_wc *wc)
{
	struct rdmablk_ireq *req;
	struct req_iterator iter;
	struct request *rq;
	struct bio_vec bv;
	u32 off = 0;
	u16 tag, gen;

	if (!(queue->params.flags & RDMABLK_CONN_READ_SEND)) {
		rdmablk_iqueue_lost(queue, "immediate data on a response");
		return false;
	}
	rdmablk_read_imm_decode(be32_to_cpu(wc->ex.imm_data), &tag, &gen);
	rq = rdmablk_iqueue_find(queue, tag, RDMABLK_OP_READ);
	req = rq ? blk_mq_rq_to_pdu(rq) : NULL;
	if (!req || !rdmablk_ireq_awaits_data(req) ||
	    READ_ONCE(req->gen) != gen) {
		rdmablk_iqueue_lost(queue, "read data for no read that asked for it");
		return false;
	}
	if (wc->byte_len != blk_rq_bytes(rq)) {
		rdmablk_iqueue_lost(queue, "read data not of the read's length");
		return false;
	}
	ib_dma_sync_single_for_cpu(queue->dev, recv->sge.addr, wc->byte_len,
				   DMA_FROM_DEVICE);
	rq_for_each_segment(bv, rq, iter) {
		memcpy_to_bvec(&bv, recv->buf + off);
		off += bv.bv_len;
	}
	atomic64_inc(&queue->stats.read_sends);
	return rdmablk_iqueue_answer(queue, rq, gen, RDMABLK_S_OK, wc);
}

/*
 * Several responses in one SEND (RDMABLK_CONN_RSP_BATCH): the whole batch
 * is checked first, then each is taken as if it had come alone. A batch
 * invalidates nothing: each request invalidates its own registration.
 * Return: false when the connection was dropped (the rest not taken).
 */
static bool rdmablk_iqueue_batch(struct rdmablk_iqueue *queue,
				 const struct rdmablk_rsp *rsp,
				 struct ib_wc *wc)
{
	struct ib_wc one = *wc;
	int i, n;

	n = rdmablk_rsp_batch_count(rsp, wc->byte_len, queue->params.flags);
	if (n < 0) {
		rdmablk_iqueue_lost(queue, "malformed batch of responses");
		return false;
	}
	if (wc->wc_flags & IB_WC_WITH_INVALIDATE) {
		rdmablk_iqueue_lost(queue, "a batch of responses invalidated a registration");
		return false;
	}
	one.wc_flags &= ~IB_WC_WITH_INVALIDATE;
	for (i = 0; i < n; i++)
		if (!rdmablk_iqueue_response(queue, &rsp[i], &one))
			return false;
	return true;
}

static void rdmablk_iqueue_recv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rdmablk_irecv *recv = container_of(wc->wr_cqe,
						  struct rdmablk_irecv, cqe);
	struct rdmablk_iqueue *queue = recv->queue;
	struct rdmablk_rsp *rsp = recv->buf;

	if (unlikely(wc->status != IB_WC_SUCCESS)) {
		if (wc->status != IB_WC_WR_FLUSH_ERR)
			iq_err(queue, "receive failed: %s\n",
			       ib_wc_status_msg(wc->status));
		rdmablk_iqueue_lost(queue, "receive failed");
		return;
	}
	WRITE_ONCE(queue->last_rx, jiffies);
	if (wc->opcode == IB_WC_RECV_RDMA_WITH_IMM) {
		rdmablk_iqueue_read_imm(queue, wc);
		goto repost;
	}
	if (wc->wc_flags & IB_WC_WITH_IMM) {
		if (!rdmablk_iqueue_read_send(queue, recv, wc))
			return;
		goto repost;
	}
	/* The device bounds byte_len by the receive: 4 KiB under READ_SEND. */
	ib_dma_sync_single_for_cpu(queue->dev, recv->sge.addr,
				   min(wc->byte_len, recv->sge.length),
				   DMA_FROM_DEVICE);
	if (unlikely(wc->byte_len < sizeof(*rsp))) {
		rdmablk_iqueue_lost(queue, "short response");
		return;
	}
	if (rsp->flags & RDMABLK_RSP_BATCH) {
		if (!rdmablk_iqueue_batch(queue, rsp, wc))
			return;
		goto repost;
	}

	if (rsp->opcode == RDMABLK_OP_OPEN ||
	    rsp->opcode == RDMABLK_OP_AUTH_CHALLENGE ||
	    rsp->opcode == RDMABLK_OP_AUTH_REPLY) {
		rdmablk_iqueue_ctl_done(queue, rsp, wc->byte_len);
	} else if (rsp->opcode == RDMABLK_OP_KEEPALIVE) {
		if (le16_to_cpu(rsp->tag) != rdmablk_iqueue_ka_tag(queue) ||
		    rsp->status != cpu_to_le16(RDMABLK_S_OK) ||
		    !test_and_clear_bit(RDMABLK_IQ_KA_PENDING, &queue->flags))
			rdmablk_iqueue_lost(queue, "bad or unexpected keep-alive response");
	} else {
		rdmablk_iqueue_response(queue, rsp, wc);
	}

repost:
	if (rdmablk_irecv_post(recv))
		rdmablk_iqueue_lost(queue, "cannot post a receive");
}

/* What this side offers on a connection over @queue->dev. */
static u32 rdmablk_iqueue_conn_flags(const struct rdmablk_iqueue *queue)
{
	u32 flags = RDMABLK_CONN_REMOTE_INV;

	/* iWARP has no immediate data. */
	if (!rdma_protocol_iwarp(queue->dev, queue->cm_id->port_num))
		flags |= RDMABLK_CONN_READ_IMM;
	if (queue->idev->key.hmac)
		flags |= RDMABLK_CONN_AUTH;
	if (READ_ONCE(rdmablk_cmd_batch))
		flags |= RDMABLK_CONN_CMD_BATCH;
	if (READ_ONCE(rdmablk_rsp_batch))
		flags |= RDMABLK_CONN_RSP_BATCH;
	if (READ_ONCE(rdmablk_write_push))
		flags |= RDMABLK_CONN_WRITE_PUSH;
	/* SEND_WITH_IMM: not on iWARP either. */
	if (READ_ONCE(rdmablk_read_send) &&
	    !rdma_protocol_iwarp(queue->dev, queue->cm_id->port_num))
		flags |= RDMABLK_CONN_READ_SEND;
	if (READ_ONCE(rdmablk_lone_hint))
		flags |= RDMABLK_CONN_LONE;
	return flags;
}

static int rdmablk_iqueue_cm_handler(struct rdma_cm_id *cm_id,
				     struct rdma_cm_event *ev)
{
	struct rdmablk_iqueue *queue = cm_id->context;
	struct rdmablk_conn_params req = {
		.queue_id = queue->qid,
		.queue_depth = queue->params.queue_depth,
	};
	int err = 0;

	switch (ev->event) {
	case RDMA_CM_EVENT_ADDR_RESOLVED:
	case RDMA_CM_EVENT_ROUTE_RESOLVED:
		break;
	case RDMA_CM_EVENT_ESTABLISHED:
		/* What was offered: the switches may have changed since. */
		req.flags = queue->offered_flags;
		if (rdmablk_conn_rep_decode(ev->param.conn.private_data,
					    ev->param.conn.private_data_len,
					    &req, &queue->params))
			err = -EPROTO;
		break;
	case RDMA_CM_EVENT_REJECTED:
		queue->rej_reason = rdmablk_conn_rej_decode(ev->param.conn.private_data,
							    ev->param.conn.private_data_len);
		err = -ECONNREFUSED;
		break;
	case RDMA_CM_EVENT_ADDR_ERROR:
	case RDMA_CM_EVENT_ROUTE_ERROR:
		err = -EHOSTUNREACH;
		break;
	case RDMA_CM_EVENT_CONNECT_ERROR:
	case RDMA_CM_EVENT_UNREACHABLE:
		err = -ECONNRESET;
		break;
	case RDMA_CM_EVENT_DISCONNECTED:
	case RDMA_CM_EVENT_ADDR_CHANGE:
	case RDMA_CM_EVENT_TIMEWAIT_EXIT:
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		/* The ib_client tears down resources at device removal. */
		rdmablk_iqueue_lost(queue, rdma_event_msg(ev->event));
		return 0;
	default:
		return 0;
	}
	queue->cm_error = err;
	complete(&queue->cm_done);
	return 0;
}

static int rdmablk_iqueue_wait_cm(struct rdmablk_iqueue *queue)
{
	if (!wait_for_completion_timeout(&queue->cm_done,
					 RDMABLK_CONNECT_TIMEOUT))
		return -ETIMEDOUT;
	reinit_completion(&queue->cm_done);
	return queue->cm_error;
}

static void rdmablk_iqueue_free_recvs(struct rdmablk_iqueue *queue)
{
	unsigned int i;

	for (i = 0; queue->recvs && i < queue->nr_recvs; i++) {
		struct rdmablk_irecv *recv = &queue->recvs[i];

		if (recv->sge.addr)
			ib_dma_unmap_single(queue->dev, recv->sge.addr,
					    queue->recv_size, DMA_FROM_DEVICE);
		kfree(recv->buf);
	}
	kfree(queue->recvs);
	queue->recvs = NULL;
}

static int rdmablk_iqueue_alloc_recvs(struct rdmablk_iqueue *queue)
{
	unsigned int i;

	queue->recvs = kcalloc(queue->nr_recvs, sizeof(*queue->recvs),
			       GFP_KERNEL);
	if (!queue->recvs)
		return -ENOMEM;
	for (i = 0; i < queue->nr_recvs; i++) {
		struct rdmablk_irecv *recv = &queue->recvs[i];
		u64 dma;

		recv->queue = queue;
		recv->cqe.done = rdmablk_iqueue_recv_done;
		recv->buf = kzalloc(queue->recv_size, GFP_KERNEL);
		if (!recv->buf)
			goto out_free;
		dma = ib_dma_map_single(queue->dev, recv->buf,
					queue->recv_size, DMA_FROM_DEVICE);
		if (ib_dma_mapping_error(queue->dev, dma))
			goto out_free;
		recv->sge.addr = dma;
		recv->sge.length = queue->recv_size;
		recv->sge.lkey = queue->pd->local_dma_lkey;
		recv->wr.wr_cqe = &recv->cqe;
		recv->wr.sg_list = &recv->sge;
		recv->wr.num_sge = 1;
	}
	return 0;

out_free:
	rdmablk_iqueue_free_recvs(queue);
	return -ENOMEM;
}

static void rdmablk_iqueue_qp_event(struct ib_event *ev, void *ctx)
{
	struct rdmablk_iqueue *queue = ctx;

	if (ev->event == IB_EVENT_QP_FATAL ||
	    ev->event == IB_EVENT_QP_REQ_ERR ||
	    ev->event == IB_EVENT_QP_ACCESS_ERR)
		rdmablk_iqueue_lost(queue, ib_event_msg(ev->event));
}

static int rdmablk_iqueue_create_qp(struct rdmablk_iqueue *queue, u16 qd)
{
	struct ib_qp_init_attr attr = {};
	int ret;

	queue->cq = ib_alloc_cq_any(queue->dev, queue, 3 * qd + queue->nr_recvs + 2,
				    queue->polled ? IB_POLL_DIRECT :
						    IB_POLL_SOFTIRQ);
	if (IS_ERR(queue->cq))
		return PTR_ERR(queue->cq);

	attr.qp_context = queue;
	attr.event_handler = rdmablk_iqueue_qp_event;
	attr.send_cq = queue->cq;
	attr.recv_cq = queue->cq;
	attr.sq_sig_type = IB_SIGNAL_REQ_WR;
	attr.qp_type = IB_QPT_RC;
	/* REG_MR + SEND + LOCAL_INV per request, +1 for ib_drain_qp() */
	attr.cap.max_send_wr = 3 * qd + 1;
	attr.cap.max_send_sge = 1 + RDMABLK_INLINE_SGE;
	attr.cap.max_recv_wr = queue->nr_recvs + 1;
	attr.cap.max_recv_sge = 1;

	ret = rdma_create_qp(queue->cm_id, queue->pd, &attr);
	if (ret) {
		ib_free_cq(queue->cq);
		return ret;
	}
	queue->qp = queue->cm_id->qp;
	return 0;
}

/* Commands in a queue's cmd_buf, and its size in bytes. */
static u32 rdmablk_iqueue_cmd_bufs(const struct rdmablk_iqueue *queue)
{
	return queue->msg_first + RDMABLK_MSG_SLOTS * RDMABLK_CMD_BATCH_MAX;
}

static size_t rdmablk_iqueue_cmd_buf_size(const struct rdmablk_iqueue *queue)
{
	return rdmablk_iqueue_cmd_bufs(queue) * sizeof(struct rdmablk_cmd);
}

/**
 * rdmablk_iqueue_connect() - connect a queue to the target
 * @queue: the queue, with @idev and @qid set
 * @queue_depth: credits to ask for
 * @keepalive_ms: keep-alive interval announced to the target
 * @extack: where a failure is explained
 *
 * Resolves the address and route, creates the verbs resources and
 * connects; the target may grant fewer credits than asked.
 *
 * Return: 0, or a negative errno with @extack set.
 */
int rdmablk_iqueue_connect(struct rdmablk_iqueue *queue, u16 queue_depth,
			   u32 keepalive_ms, struct netlink_ext_ack *extack)
{
	struct rdma_conn_param param = {};
	struct rdmablk_conn_params p = {
		.version = RDMABLK_PROTO_VERSION,
		.queue_id = queue->qid,
		.queue_depth = queue_depth,
		.keepalive_ms = keepalive_ms,
	};
	struct rdmablk_conn_req creq;
	unsigned int i;
	int ret;

	init_completion(&queue->cm_done);
	INIT_LIST_HEAD(&queue->stale_mrs);
	queue->batch_head = NULL;
	queue->batch_tail = NULL;
	queue->batch_pinned = false;
	init_llist_head(&queue->held);
	atomic_set(&queue->unacked, 0);
	init_completion(&queue->ctl_done);
	init_completion(&queue->ctl_sent);
	clear_bit(RDMABLK_IQ_CTL_PENDING, &queue->flags);
	clear_bit(RDMABLK_IQ_KA_PENDING, &queue->flags);
	memset(&queue->params, 0, sizeof(queue->params));
	queue->params.queue_depth = queue_depth;
	/* No push slot is used before this connection's OPEN names them. */
	WRITE_ONCE(queue->push_slots, 0);
	queue->nr_recvs = queue_depth + 1;
	queue->rej_reason = 0;
	queue->max_pages = 0;
	queue->last_rx = jiffies;
	queue->ka_cqe.done = rdmablk_iqueue_ka_send_done;

	queue->cm_id = rdma_create_id(&init_net, rdmablk_iqueue_cm_handler,
				      queue, RDMA_PS_TCP, IB_QPT_RC);
	if (IS_ERR(queue->cm_id)) {
		ret = PTR_ERR(queue->cm_id);
		queue->cm_id = NULL;
		NL_SET_ERR_MSG(extack, "cannot create an rdma_cm id");
		return ret;
	}
	/* Applied when the REP moves the QP to RTS. */
	ret = rdmablk_rc_set_ack_timeout(queue->cm_id);
	if (ret) {
		NL_SET_ERR_MSG(extack, "cannot set the queue pair's ACK timeout");
		goto out_destroy_id;
	}

	ret = rdma_resolve_addr(queue->cm_id, NULL,
				(struct sockaddr *)&queue->path->addr,
				RDMABLK_CM_TIMEOUT_MS);
	if (!ret)
		ret = rdmablk_iqueue_wait_cm(queue);
	if (ret) {
		NL_SET_ERR_MSG(extack,
			       "cannot resolve the target address to an RDMA device: is an RDMA link (e.g. rxe) up on the route to it?");
		goto out_destroy_id;
	}
	queue->dev = queue->cm_id->device;

	ret = rdma_resolve_route(queue->cm_id, RDMABLK_CM_TIMEOUT_MS);
	if (!ret)
		ret = rdmablk_iqueue_wait_cm(queue);
	if (ret) {
		NL_SET_ERR_MSG(extack, "cannot resolve a route to the target");
		goto out_destroy_id;
	}

	queue->pd = ib_alloc_pd(queue->dev, 0);
	if (IS_ERR(queue->pd)) {
		ret = PTR_ERR(queue->pd);
		NL_SET_ERR_MSG(extack, "cannot allocate a protection domain");
		goto out_destroy_id;
	}
	ret = rdmablk_iqueue_create_qp(queue, queue_depth);
	if (ret) {
		NL_SET_ERR_MSG(extack, "cannot create a queue pair");
		goto out_dealloc_pd;
	}
	/* What is offered sizes the receives: fixed for the connection. */
	p.flags = rdmablk_iqueue_conn_flags(queue);
	queue->offered_flags = p.flags;
	queue->recv_size = RDMABLK_IRECV_SIZE;
	if (p.flags & RDMABLK_CONN_READ_SEND)
		queue->recv_size = max_t(u32, queue->recv_size,
					 RDMABLK_READ_SEND_MAX);
	ret = rdmablk_iqueue_alloc_recvs(queue);
	if (ret)
		goto out_destroy_qp;
	/* Granted credits are at most those asked for: tags fit. */
	queue->msg_first = queue_depth;
	/* Pages, not kmalloc()'s power of two: 20 KiB rather than 32. */
	queue->cmd_buf = alloc_pages_exact(rdmablk_iqueue_cmd_buf_size(queue),
					   GFP_KERNEL | __GFP_ZERO);
	if (!queue->cmd_buf) {
		ret = -ENOMEM;
		goto out_free_recvs;
	}
	queue->cmd_dma = ib_dma_map_single(queue->dev, queue->cmd_buf,
					   rdmablk_iqueue_cmd_buf_size(queue),
					   DMA_TO_DEVICE);
	if (ib_dma_mapping_error(queue->dev, queue->cmd_dma)) {
		ret = -ENOMEM;
		goto out_free_cmds;
	}
	queue->msg_busy = 0;
	for (i = 0; i < queue->nr_recvs; i++) {
		ret = rdmablk_irecv_post(&queue->recvs[i]);
		if (ret)
			goto out_unmap_cmds;
	}

	rdmablk_conn_req_encode(&creq, &p);
	param.private_data = &creq;
	param.private_data_len = sizeof(creq);
	param.responder_resources = queue->dev->attrs.max_qp_rd_atom;
	param.initiator_depth = 0;
	param.flow_control = 1;
	param.retry_count = 7;
	param.rnr_retry_count = 7;
	ret = rdma_connect(queue->cm_id, &param);
	if (!ret)
		ret = rdmablk_iqueue_wait_cm(queue);
	if (ret) {
		if (ret == -ECONNREFUSED && !queue->rej_reason)
			NL_SET_ERR_MSG(extack,
				       "connection refused: nothing listens there (rdmablkctl listen on the target?)");
		else if (ret == -ECONNREFUSED)
			NL_SET_ERR_MSG(extack,
				       "the target rejected the connection (protocol version or resources)");
		else if (ret == -EPROTO)
			NL_SET_ERR_MSG(extack, "the target answered with an invalid connect reply");
		else
			NL_SET_ERR_MSG(extack, "cannot connect to the target");
		goto out_drain;
	}
	if (queue->params.queue_depth < 2) {
		NL_SET_ERR_MSG(extack, "the target granted fewer than 2 credits");
		ret = -EPROTO;
		goto out_drain;
	}
	/* Less one for the keep-alives; queue_rq reads it once LIVE. */
	WRITE_ONCE(queue->credits, queue->params.queue_depth - 1);
	/* Never a silent fall back to no authentication. */
	if (queue->idev->key.hmac &&
	    !(queue->params.flags & RDMABLK_CONN_AUTH)) {
		NL_SET_ERR_MSG(extack,
			       "the target does not authenticate (an rdmablk without authentication): attach without a key, or update the target");
		ret = -EPROTONOSUPPORT;
		goto out_drain;
	}
	set_bit(RDMABLK_IQ_ALLOCATED, &queue->flags);
	if (queue->polled) {
		/* After the CQ is set up, for rdmablk_iqueue_poll(). */
		spin_lock(&queue->poll_lock);
		set_bit(RDMABLK_IQ_POLLABLE, &queue->flags);
		spin_unlock(&queue->poll_lock);
	}
	/* The grant (@credits) before the queue can be chosen. */
	smp_mb__before_atomic();
	set_bit(RDMABLK_IQ_LIVE, &queue->flags);
	return 0;

out_drain:
	rdma_disconnect(queue->cm_id);
	ib_drain_qp(queue->qp);
out_unmap_cmds:
	ib_dma_unmap_single(queue->dev, queue->cmd_dma,
			    rdmablk_iqueue_cmd_buf_size(queue), DMA_TO_DEVICE);
out_free_cmds:
	free_pages_exact(queue->cmd_buf, rdmablk_iqueue_cmd_buf_size(queue));
	queue->cmd_buf = NULL;
out_free_recvs:
	rdmablk_iqueue_free_recvs(queue);
out_destroy_qp:
	rdma_destroy_qp(queue->cm_id);
	ib_free_cq(queue->cq);
out_dealloc_pd:
	ib_dealloc_pd(queue->pd);
out_destroy_id:
	rdma_destroy_id(queue->cm_id);
	queue->cm_id = NULL;
	return ret;
}

/**
 * rdmablk_iqueue_init_mrs() - create the fast registration pool
 * @queue: a connected queue
 * @max_pages: pages one registration maps
 *
 * Return: 0 or a negative errno.
 */
int rdmablk_iqueue_init_mrs(struct rdmablk_iqueue *queue, u32 max_pages)
{
	queue->max_pages = max_pages;
	return ib_mr_pool_init(queue->qp, &queue->qp->rdma_mrs,
			       queue->params.queue_depth, IB_MR_TYPE_MEM_REG,
			       max_pages, 0);
}

/**
 * rdmablk_iqueue_poll() - reap a polled queue's completions
 * @queue: a queue with @polled set
 *
 * Runs the completions' handlers in the caller's (process) context. Safe
 * at any time: a queue whose verbs resources are being freed, or not yet
 * set up, is not touched.
 *
 * Return: completions reaped.
 */
int rdmablk_iqueue_poll(struct rdmablk_iqueue *queue)
{
	int n = 0;

	spin_lock(&queue->poll_lock);
	if (test_bit(RDMABLK_IQ_POLLABLE, &queue->flags))
		n = ib_process_cq_direct(queue->cq, queue->nr_recvs);
	spin_unlock(&queue->poll_lock);
	return n;
}

/*
 * Wait up to @timeout for @done, which one of @queue's completions
 * completes. A polled queue has no completion interrupts: its CQ is
 * reaped here meanwhile, once a jiffy. Return: true once @done completed.
 */
static bool rdmablk_iqueue_wait(struct rdmablk_iqueue *queue,
				struct completion *done, unsigned long timeout)
{
	unsigned long end = jiffies + timeout;

	if (!queue->polled)
		return wait_for_completion_timeout(done, timeout);
	do {
		rdmablk_iqueue_poll(queue);
		if (wait_for_completion_timeout(done, 1))
			return true;
	} while (time_before(jiffies, end));
	return false;
}

static void rdmablk_iqueue_ctl_send_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rdmablk_iqueue *queue = container_of(wc->wr_cqe,
						    struct rdmablk_iqueue,
						    ctl_cqe);

	queue->ctl_send_status = wc->status;
	complete(&queue->ctl_sent);
}

/*
 * Send a control command with its inline payload on a connected queue and
 * wait for its answer: 0 with @queue->ctl_status and @queue->ctl_rsp set,
 * or a negative errno with @extack saying why.
 */
static int rdmablk_iqueue_ctl(struct rdmablk_iqueue *queue, u8 opcode,
			      const void *payload, u32 len,
			      struct netlink_ext_ack *extack)
{
	struct rdmablk_cmd_info c = {
		.opcode = opcode,
		.flags = RDMABLK_CMD_INLINE,
		.length = len,
	};
	size_t size = sizeof(struct rdmablk_cmd) + len;
	struct ib_send_wr wr = {};
	struct ib_sge sge;
	u8 *msg;
	u64 dma;
	int ret;

	msg = kzalloc(size, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	rdmablk_cmd_encode((struct rdmablk_cmd *)msg, &c);
	memcpy(msg + sizeof(struct rdmablk_cmd), payload, len);

	dma = ib_dma_map_single(queue->dev, msg, size, DMA_TO_DEVICE);
	if (ib_dma_mapping_error(queue->dev, dma)) {
		ret = -ENOMEM;
		goto out_free;
	}
	sge.addr = dma;
	sge.length = size;
	sge.lkey = queue->pd->local_dma_lkey;
	queue->ctl_cqe.done = rdmablk_iqueue_ctl_send_done;
	wr.wr_cqe = &queue->ctl_cqe;
	wr.opcode = IB_WR_SEND;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	/* Signaled: @msg is freed only once the SEND completed. */
	wr.send_flags = IB_SEND_SIGNALED;
	reinit_completion(&queue->ctl_done);
	reinit_completion(&queue->ctl_sent);
	WRITE_ONCE(queue->ctl_opcode, opcode);
	set_bit(RDMABLK_IQ_CTL_PENDING, &queue->flags);
	ret = ib_post_send(queue->qp, &wr, NULL);
	if (ret) {
		clear_bit(RDMABLK_IQ_CTL_PENDING, &queue->flags);
		NL_SET_ERR_MSG(extack, "cannot send to the target");
		goto out_unmap;
	}
	if (!rdmablk_iqueue_wait(queue, &queue->ctl_done,
				 RDMABLK_CONNECT_TIMEOUT) ||
	    !rdmablk_iqueue_wait(queue, &queue->ctl_sent,
				 RDMABLK_CONNECT_TIMEOUT)) {
		clear_bit(RDMABLK_IQ_CTL_PENDING, &queue->flags);
		if (opcode == RDMABLK_OP_OPEN)
			NL_SET_ERR_MSG(extack, "the target did not answer OPEN in time");
		else
			NL_SET_ERR_MSG(extack,
				       "the target did not answer the authentication in time");
		/* The QP may still read @msg: stop it before freeing. */
		rdmablk_iqueue_stop(queue);
		ret = -ETIMEDOUT;
		goto out_unmap;
	}
	if (queue->ctl_send_status != IB_WC_SUCCESS) {
		NL_SET_ERR_MSG(extack, "cannot send to the target");
		ret = -ECONNRESET;
	}

out_unmap:
	ib_dma_unmap_single(queue->dev, dma, size, DMA_TO_DEVICE);
out_free:
	kfree_sensitive(msg);
	return ret;
}

/**
 * rdmablk_iqueue_auth() - authenticate a connected queue before OPEN
 * @queue: the queue, connected with RDMABLK_CONN_AUTH agreed
 * @extack: where a failure is explained
 *
 * Proves this host holds its key, and has the target prove it holds the
 * target key when there is one (docs/protocol.md, "Authentication").
 *
 * Return: 0 when authenticated, -EKEYREJECTED when the target
 * refused, -EBADMSG when the target failed to prove itself, -EPROTO for
 * an answer that breaks the protocol, or another negative errno.
 */
int rdmablk_iqueue_auth(struct rdmablk_iqueue *queue,
			struct netlink_ext_ack *extack)
{
	struct rdmablk_idev *idev = queue->idev;
	bool mutual = idev->target_key.hmac;
	u8 nonce[RDMABLK_AUTH_NONCE_SIZE];
	struct {
		struct rdmablk_auth a;
		struct rdmablk_auth_chal_req chal;
		struct rdmablk_auth_reply_req reply;
	} *s;
	int ret;

	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	get_random_bytes(nonce, sizeof(nonce));
	ret = rdmablk_auth_host_begin(&s->a, idev->export_name, idev->hostid,
				      &idev->key,
				      mutual ? &idev->target_key : NULL,
				      nonce, &s->chal);
	if (!ret)
		ret = rdmablk_iqueue_ctl(queue, RDMABLK_OP_AUTH_CHALLENGE,
					 &s->chal, sizeof(s->chal), extack);
	if (ret)
		goto out;
	ret = rdmablk_auth_host_reply(&s->a, queue->ctl_status, queue->ctl_rsp,
				      queue->ctl_rsp_len, &s->reply);
	if (!ret) {
		ret = rdmablk_iqueue_ctl(queue, RDMABLK_OP_AUTH_REPLY,
					 &s->reply, sizeof(s->reply), extack);
		if (ret)
			goto out;
		ret = rdmablk_auth_host_finish(&s->a, queue->ctl_status,
					       queue->ctl_rsp,
					       queue->ctl_rsp_len);
	}
	switch (ret) {
	case 0:
		break;
	case -EACCES:
		NL_SET_ERR_MSG(extack,
			       "the target refused this host's authentication (its kernel log says why): it must hold this host id's key, and a target key too for mutual authentication (rdmablkctl host add on the target)");
		ret = -EKEYREJECTED;
		break;
	case -EKEYREJECTED:
		NL_SET_ERR_MSG(extack,
			       "the target failed to prove it holds the target key: another machine answers at that address, or the target holds another target key for this host");
		ret = -EBADMSG;
		break;
	default:
		NL_SET_ERR_MSG(extack, "the target broke the authentication protocol");
		ret = -EPROTO;
		break;
	}
out:
	rdmablk_auth_wipe(&s->a);
	kfree_sensitive(s);
	return ret;
}

/**
 * rdmablk_iqueue_open() - open the export on a connected queue
 * @queue: the queue
 * @extack: where a failure is explained
 *
 * Return: 0 with @queue->open_info filled, or a negative errno.
 */
int rdmablk_iqueue_open(struct rdmablk_iqueue *queue,
			struct netlink_ext_ack *extack)
{
	struct rdmablk_idev *idev = queue->idev;
	struct rdmablk_open_req oreq = {};
	int ret;

	strscpy(oreq.name, idev->export_name, sizeof(oreq.name));
	memcpy(oreq.hostid, idev->hostid, sizeof(oreq.hostid));
	ret = rdmablk_iqueue_ctl(queue, RDMABLK_OP_OPEN, &oreq, sizeof(oreq),
				 extack);
	if (ret)
		return ret;
	if (queue->ctl_status == RDMABLK_S_OK &&
	    (queue->ctl_rsp_len < sizeof(struct rdmablk_open_rsp) ||
	     rdmablk_open_rsp_decode((const void *)queue->ctl_rsp,
				     &queue->open_info)))
		queue->ctl_status = RDMABLK_S_INVALID;
	/* A push area only where agreed, and no more slots than credits. */
	if (queue->ctl_status == RDMABLK_S_OK && queue->open_info.push_slots &&
	    (!(queue->params.flags & RDMABLK_CONN_WRITE_PUSH) ||
	     queue->open_info.push_slots > queue->params.queue_depth)) {
		NL_SET_ERR_MSG(extack, "the target named a push area it may not have");
		return -EPROTO;
	}
	ret = rdmablk_status_to_errno(queue->ctl_status);
	if (!ret)
		WRITE_ONCE(queue->push_slots,
			   min_t(u16, queue->open_info.push_slots,
				 RDMABLK_IPUSH_SLOTS));
	if (queue->ctl_status == RDMABLK_S_NO_EXPORT)
		NL_SET_ERR_MSG(extack,
			       "the target has no export of this name (rdmablkctl export list on the target)");
	else if (queue->ctl_status == RDMABLK_S_DENIED)
		NL_SET_ERR_MSG(extack,
			       "the target's allow list for this export does not name this host's id (/etc/rdmablk/hostid)");
	else if (queue->ctl_status == RDMABLK_S_AUTH_REQUIRED && idev->key.hmac)
		NL_SET_ERR_MSG(extack,
			       "the target requires authentication for another export or host id than this connection proved");
	else if (queue->ctl_status == RDMABLK_S_AUTH_REQUIRED)
		NL_SET_ERR_MSG(extack,
			       "the target requires authentication for this host or export: attach with this host's key (rdmablkctl key generate; rdmablkctl host add on the target)");
	else if (ret)
		NL_SET_ERR_MSG(extack, "the target refused to open the export");
	return ret;
}

/**
 * rdmablk_iqueue_stop() - disconnect and flush everything posted
 * @queue: the queue; idempotent
 *
 * After this no completion of the queue runs any more.
 */
void rdmablk_iqueue_stop(struct rdmablk_iqueue *queue)
{
	if (!test_and_clear_bit(RDMABLK_IQ_LIVE, &queue->flags))
		return;
	/*
	 * No grant until the next connect's: a dispatch that sees that one
	 * stale sees none, and waits, rather than this connection's.
	 */
	WRITE_ONCE(queue->credits, 0);
	/*
	 * A poller in one of the CQ's handlers holds poll_lock: once it is
	 * ours, none is, and none starts; ib_drain_qp() reaps the rest.
	 * Else a handler could still run after the drain, while recovery
	 * ends and requeues the requests. Connecting sets it again.
	 */
	spin_lock(&queue->poll_lock);
	clear_bit(RDMABLK_IQ_POLLABLE, &queue->flags);
	spin_unlock(&queue->poll_lock);
	/*
	 * A completion posting held commands (cmd_cork) saw the queue live
	 * under hold_lock: once it is ours, that post is done, before the
	 * drain's, and none follows. The drop below forgets what is held.
	 */
	spin_lock_bh(&queue->hold_lock);
	spin_unlock_bh(&queue->hold_lock);
	rdma_disconnect(queue->cm_id);
	ib_drain_qp(queue->qp);
	rdmablk_iqueue_drop_batch(queue);
}

/* Deregister the registrations that were not known to be invalid. */
static void rdmablk_iqueue_free_stale_mrs(struct rdmablk_iqueue *queue)
{
	struct ib_mr *mr, *tmp;
	unsigned long flags;
	LIST_HEAD(mrs);

	spin_lock_irqsave(&queue->stale_lock, flags);
	list_splice_init(&queue->stale_mrs, &mrs);
	spin_unlock_irqrestore(&queue->stale_lock, flags);
	list_for_each_entry_safe(mr, tmp, &mrs, qp_entry) {
		list_del(&mr->qp_entry);
		/* Taken by ib_mr_pool_get(), which counted it in use. */
		spin_lock_irqsave(&queue->qp->mr_lock, flags);
		queue->qp->mrs_used--;
		spin_unlock_irqrestore(&queue->qp->mr_lock, flags);
		ib_dereg_mr(mr);
	}
}

/**
 * rdmablk_iqueue_free() - free the verbs resources of a stopped queue
 * @queue: the queue; idempotent
 */
void rdmablk_iqueue_free(struct rdmablk_iqueue *queue)
{
	rdmablk_iqueue_stop(queue);
	if (!test_and_clear_bit(RDMABLK_IQ_ALLOCATED, &queue->flags))
		return;
	/* rdmablk_iqueue_stop() turned the pollers away. */
	rdmablk_iqueue_free_stale_mrs(queue);
	if (queue->max_pages)
		ib_mr_pool_destroy(queue->qp, &queue->qp->rdma_mrs);
	rdma_destroy_qp(queue->cm_id);
	ib_free_cq(queue->cq);
	rdmablk_iqueue_free_recvs(queue);
	ib_dma_unmap_single(queue->dev, queue->cmd_dma,
			    rdmablk_iqueue_cmd_buf_size(queue), DMA_TO_DEVICE);
	free_pages_exact(queue->cmd_buf, rdmablk_iqueue_cmd_buf_size(queue));
	queue->cmd_buf = NULL;
	ib_dealloc_pd(queue->pd);
	rdma_destroy_id(queue->cm_id);
	queue->cm_id = NULL;
}
