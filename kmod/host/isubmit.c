// SPDX-License-Identifier: GPL-2.0
/*
 * Initiator requests: a block request's data mapped (pushed into a slot
 * of the target's, inline, or one fast registration from the queue's MR
 * pool) and its command posted on the hardware context's queue (iqueue.c
 * has the queue, the answers and the request's lifetime).
 *
 * Push (write_push, where the target granted RDMABLK_CONN_WRITE_PUSH): a
 * write of at most a slot takes a free slot of the queue's push area
 * (@push_busy) and an RDMA WRITE of its pages to that slot goes in the
 * chain before the SEND carrying its command, which then has no payload:
 * it may share a SEND and wait in the held list like a read's. Reliable
 * connection order puts the data in place before the SEND arrives. The
 * slot is given back when the request ends: the target answers only once
 * it is done with the slot, and a lost connection's area is not the next
 * one's.
 *
 * Batches: while blk-mq says more requests follow (!bd->last), a request
 * joins the queue's batch instead of being posted; the last one, or
 * blk-mq's commit_rqs, posts the whole batch as one chain of work requests
 * with one ib_post_send(): one doorbell for the lot (batch_submit=0: one
 * each). Where both ends speak RDMABLK_CONN_CMD_BATCH, consecutive
 * commands of a batch that carry no payload inline also share one SEND
 * (up to RDMABLK_CMD_BATCH_MAX, copied to one of the queue's batch
 * buffers): one message, one packet on the wire for up to 16 commands,
 * and one acknowledgment. A
 * request in a batch is started and POSTING: an answer that comes for it
 * before it is armed is kept for the poster (RDMABLK_ARM_*). The batch is
 * under the queue's post_lock, which the post itself is not: blk-mq
 * ends every dispatch that queued with more to come with a last request
 * or commit_rqs, before a quiesce returns, so recovery, which quiesces
 * first (detach's err_work too), never finds one (rdmablk_iqueue_stop()
 * drops a batch all the same: its requests are in flight and requeued
 * like the others).
 *
 * Corking (cmd_cork, on interrupt-driven queues of connections that batch
 * commands): a command without inline payload that blk-mq hands over last
 * while commands the queue sent earlier are still in SENDs not completed
 * (@unacked) does not go out alone: it waits in the queue's held list,
 * and the completion that brings @unacked to 0 posts everything held, a
 * batch, one SEND for up to RDMABLK_CMD_BATCH_MAX commands. There is no
 * timer: at queue depth 1 nothing is in flight when a command comes and
 * it goes at once; under load commands gather while the transport works,
 * as TCP's autocorking gathers writes behind a busy device. On a reliable
 * connection a SEND completes when the peer acknowledged it, so under
 * load the commands that come during one SEND's round trip share the
 * next SEND, its packet and its acknowledgment. A request in the
 * held list is started and POSTING like one in a batch; a command with
 * inline payload takes what is held with it; rdmablk_iqueue_stop() drops
 * the held list with the batch.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blk-mq.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <rdma/mr_pool.h>

#include "initiator.h"
#include "../trace.h"

static bool rdmablk_batch_submit = true;
module_param_named(batch_submit, rdmablk_batch_submit, bool, 0644);
MODULE_PARM_DESC(batch_submit,
		 "Post the commands blk-mq hands over together as one chain, one doorbell (default on)");

static bool rdmablk_cmd_cork = true;
module_param_named(cmd_cork, rdmablk_cmd_cork, bool, 0644);
MODULE_PARM_DESC(cmd_cork,
		 "A command that comes while earlier ones are in SENDs not yet acknowledged waits for them and goes with the others that came meanwhile in one SEND (default on)");

/* Commands alone in a row after which the next alone is marked lone. */
#define RDMABLK_LONE_STREAK	16

static bool rdmablk_idle_inline = true;
module_param_named(idle_inline, rdmablk_idle_inline, bool, 0644);
MODULE_PARM_DESC(idle_inline,
		 "A lone command posted on an idle poll queue runs the softirq work its post raised in the submitting thread, not later in ksoftirqd (default on)");

/* Take @queue's batch for posting. Under post_lock. */
static struct rdmablk_ireq *__rdmablk_iqueue_take_batch(struct rdmablk_iqueue *queue)
{
	struct rdmablk_ireq *head = queue->batch_head;

	lockdep_assert_held(&queue->post_lock);
	queue->batch_head = NULL;
	queue->batch_tail = NULL;
	queue->batch_pinned = false;
	return head;
}

static struct rdmablk_ireq *rdmablk_iqueue_take_batch(struct rdmablk_iqueue *queue)
{
	struct rdmablk_ireq *head;

	spin_lock(&queue->post_lock);
	head = __rdmablk_iqueue_take_batch(queue);
	spin_unlock(&queue->post_lock);
	return head;
}

/*
 * Take what waits in @queue's held list, the oldest first, linked by
 * batch_next and followed by @batch (NULL or a batch taken from the
 * queue, newer): a batch to post. Any context; the list may be added to
 * meanwhile (what comes after is for the next taker).
 */
static struct rdmablk_ireq *rdmablk_iqueue_take_held(struct rdmablk_iqueue *queue,
						     struct rdmablk_ireq *batch)
{
	struct llist_node *node;
	struct rdmablk_ireq *head = NULL, **link = &head, *req;

	if (likely(llist_empty(&queue->held)))
		return batch;
	node = llist_reverse_order(llist_del_all(&queue->held));
	llist_for_each_entry(req, node, hold_node) {
		*link = req;
		link = &req->batch_next;
	}
	*link = batch;
	return head;
}

/*
 * Give @msg, the first command of a batch sharing a SEND, one of the
 * queue's batch buffers (its own command goes there first). Return:
 * false when all are in SENDs still in flight.
 */
static bool rdmablk_msg_start(struct rdmablk_iqueue *queue,
			      struct rdmablk_ireq *msg)
{
	int slot;

	for (slot = 0; slot < RDMABLK_MSG_SLOTS; slot++) {
		if (test_and_set_bit_lock(slot, &queue->msg_busy))
			continue;
		msg->msg_slot = slot;
		msg->msg_cmds = 0;
		return true;
	}
	return false;
}

/* Copy @req's command into @msg's batch buffer, marked as one of a batch. */
static void rdmablk_msg_add(struct rdmablk_iqueue *queue,
			    struct rdmablk_ireq *msg, struct rdmablk_ireq *req)
{
	struct rdmablk_cmd *cmd = queue->cmd_buf + queue->msg_first +
				  msg->msg_slot * RDMABLK_CMD_BATCH_MAX +
				  msg->msg_cmds++;

	*cmd = *req->cmd;
	cmd->flags |= RDMABLK_CMD_BATCH;
}

/*
 * May @req's command go in @msg's SEND? Both without inline payload, room
 * for one more, a batch of commands agreed on the connection and, for the
 * second command, a free batch buffer.
 */
static bool rdmablk_msg_joins(struct rdmablk_iqueue *queue,
			      struct rdmablk_ireq *msg,
			      const struct rdmablk_ireq *req)
{
	if (!(queue->params.flags & RDMABLK_CONN_CMD_BATCH) ||
	    (msg->cmd->flags & RDMABLK_CMD_INLINE) ||
	    (req->cmd->flags & RDMABLK_CMD_INLINE))
		return false;
	if (msg->msg_slot >= 0)
		return msg->msg_cmds < RDMABLK_CMD_BATCH_MAX;
	if (!rdmablk_msg_start(queue, msg))
		return false;
	rdmablk_msg_add(queue, msg, msg);
	return true;
}

/* Append @msg's SEND at *@link: its batch's buffer, or its own command. */
static struct ib_send_wr **rdmablk_msg_close(struct rdmablk_iqueue *queue,
					     struct rdmablk_ireq *msg,
					     struct ib_send_wr **link)
{
	u32 first, len = sizeof(struct rdmablk_cmd);
	u64 dma;

	if (msg->msg_slot >= 0) {
		first = queue->msg_first + msg->msg_slot * RDMABLK_CMD_BATCH_MAX;
		len *= msg->msg_cmds;
	} else {
		first = msg->cmd - queue->cmd_buf;
	}
	dma = queue->cmd_dma + first * sizeof(struct rdmablk_cmd);
	ib_dma_sync_single_for_device(queue->dev, dma, len, DMA_TO_DEVICE);
	msg->sge[0].addr = dma;
	msg->sge[0].length = len;
	*link = &msg->send_wr;
	return &msg->send_wr.next;
}

/*
 * Chain the work requests of the batch @head for one post: each request's
 * registration, then its SEND. Consecutive commands without inline
 * payload share the first one's SEND (RDMABLK_CONN_CMD_BATCH), copied to
 * one of the queue's batch buffers, and that SEND follows all their
 * registrations. Return: the first work request.
 */
static struct ib_send_wr *rdmablk_iqueue_chain(struct rdmablk_iqueue *queue,
					       struct rdmablk_ireq *head)
{
	struct ib_send_wr *first = NULL, **link = &first;
	struct rdmablk_ireq *req, *msg = NULL, *last = NULL;
	unsigned int sends = 0, cmds = 0;

	for (req = head; req; req = req->batch_next) {
		cmds++;
		req->msg_next = NULL;
		req->msg_slot = -1;
		if (msg && rdmablk_msg_joins(queue, msg, req)) {
			rdmablk_msg_add(queue, msg, req);
			last->msg_next = req;
		} else {
			if (msg)
				link = rdmablk_msg_close(queue, msg, link);
			msg = req;
			sends++;
		}
		req->msg = msg;
		last = req;
		if (req->mr) {
			*link = &req->reg_wr.wr;
			link = &req->reg_wr.wr.next;
		}
		/* Placed before the SEND carrying its command arrives. */
		if (req->push_slot >= 0) {
			*link = &req->push_wr.wr;
			link = &req->push_wr.wr.next;
		}
	}
	link = rdmablk_msg_close(queue, msg, link);
	*link = NULL;
	atomic64_add(sends, &queue->stats.sends);
	/* Before the post: their completions may come before it returns. */
	atomic_add(cmds, &queue->unacked);
	return first;
}

/*
 * After a post that failed at @bad: which registrations, pushes and SENDs
 * of the chain @first went out, those before @bad; all of them when the
 * driver did not say (a registration wrongly thought invalid could go back
 * to the pool while the target still reaches the pages). Each request
 * learns whether its command's SEND (or its push) went out before any is
 * armed: an armed one may complete and be reused at once.
 * Return: true when a push went out without its command's SEND.
 */
static bool rdmablk_iqueue_sort_failed(struct rdmablk_ireq *head,
				       const struct ib_send_wr *first,
				       const struct ib_send_wr *bad)
{
	const struct ib_send_wr *wr;
	struct rdmablk_ireq *req;
	bool stray = false;

	for (req = head; req; req = req->batch_next) {
		req->mr_valid = false;
		req->msg_sent = false;
		req->push_sent = false;
	}
	for (wr = first; wr && wr != bad; wr = wr->next) {
		if (wr->opcode == IB_WR_REG_MR)
			container_of(wr, struct rdmablk_ireq,
				     reg_wr.wr)->mr_valid = true;
		else if (wr->opcode == IB_WR_RDMA_WRITE)
			container_of(wr, struct rdmablk_ireq,
				     push_wr.wr)->push_sent = true;
		else
			container_of(wr, struct rdmablk_ireq,
				     send_wr)->msg_sent = true;
	}
	for (req = head; req; req = req->batch_next)
		req->msg_sent = req->msg->msg_sent;
	/*
	 * A pushed payload's WRITE that went out without its command: the
	 * device may still read the request's pages, so it counts as sent,
	 * in flight until recovery has drained the queue and requeues it.
	 */
	for (req = head; req; req = req->batch_next) {
		stray |= req->push_sent && !req->msg_sent;
		req->msg_sent |= req->push_sent;
	}
	return stray;
}

/*
 * Does the post of @head run the softirq work it raises (soft-RoCE sends,
 * loops back and completes there; a hardware device raises none) in this
 * thread, by ending a bottom-half section right after it? Only a lone
 * command on a poll queue with nothing else in flight (idle_inline): its
 * submitter reaps the completion itself and would otherwise spin while
 * ksoftirqd waits for its CPU. Not on an interrupt-driven queue: there
 * the round trip done inside the post completes the command before the
 * submitter can queue the next one, so the path is idle again at every
 * post and a submitter that keeps 32 commands in flight runs them one at
 * a time (performance.md). Only in task context: a softirq runs what it
 * raises on its way out anyway.
 */
static bool rdmablk_post_runs_inline(struct rdmablk_iqueue *queue,
				     const struct rdmablk_ireq *head)
{
	return queue->polled && READ_ONCE(rdmablk_idle_inline) &&
	       !head->batch_next &&
	       atomic_read(&queue->path->inflight) <= 1 && in_task() &&
	       !irqs_disabled();
}

/*
 * Post the batch @head with one ib_post_send(), then arm what it posted;
 * no lock held, but hold_lock when a SEND's completion posts what was
 * held (rdmablk_iqueue_acked()). Return: 0, or the post's error with
 * *@unposted the first request whose command it did not post (it and
 * those after it go back to IDLE and are counted off unacked; one whose
 * registration went out is marked so).
 */
static int rdmablk_iqueue_post_batch(struct rdmablk_iqueue *queue,
				     struct rdmablk_ireq *head,
				     struct rdmablk_ireq **unposted)
{
	const struct ib_send_wr *bad_wr = NULL;
	struct rdmablk_ireq *req, *next;
	unsigned int unsent = 0;
	struct ib_send_wr *first;
	bool inline_bh;
	int ret;

	*unposted = NULL;
	if (!head)
		return 0;
	first = rdmablk_iqueue_chain(queue, head);
	inline_bh = rdmablk_post_runs_inline(queue, head);
	if (inline_bh)
		local_bh_disable();
	ret = ib_post_send(queue->qp, first, &bad_wr);
	/* Answers that come meanwhile are kept for the arming below. */
	if (inline_bh) {
		local_bh_enable();
		atomic64_inc(&queue->stats.inline_posts);
	}
	atomic64_inc(&queue->stats.doorbells);
	/* Only a drain makes a stray push's pages safe to give back. */
	if (unlikely(ret) && rdmablk_iqueue_sort_failed(head, first, bad_wr))
		rdmablk_ipath_conn_lost(queue->path, "a payload went out without its command");
	for (req = head; req; req = next) {
		next = req->batch_next;
		req->batch_next = NULL;
		if (likely(!ret) || req->msg_sent) {
			if (!ret)
				req->mr_valid = !!req->mr;
			rdmablk_ireq_posted(queue, blk_mq_rq_from_pdu(req));
			continue;
		}
		if (!*unposted)
			*unposted = req;
		unsent++;
		/* No completion gives its batch buffer back. */
		if (req->msg_slot >= 0)
			clear_bit_unlock(req->msg_slot, &queue->msg_busy);
		if (atomic_xchg(&req->arm, RDMABLK_ARM_IDLE) ==
		    RDMABLK_ARM_EARLY)
			rdmablk_ipath_conn_lost(queue->path, "answer for a command not sent");
	}
	/*
	 * Never completed, so never counted off: a post refused for want of
	 * room (the request is retried, the connection stays) would leave
	 * unacked above 0 for good and every command after it held. What is
	 * held then goes with the next command the queue is given.
	 */
	if (unlikely(unsent))
		atomic_sub(unsent, &queue->unacked);
	return ret;
}

/**
 * rdmablk_iqueue_commit() - post what a dispatch left in the batch
 * @queue: the queue
 *
 * blk-mq's commit_rqs: the requests queued with more to come were the
 * last ones after all. One that cannot be posted is a lost connection:
 * recovery requeues it.
 */
void rdmablk_iqueue_commit(struct rdmablk_iqueue *queue)
{
	struct rdmablk_ireq *head = rdmablk_iqueue_take_batch(queue);
	struct rdmablk_ireq *unposted;
	int ret;

	/* What was held goes too, rather than wait behind this post. */
	if (head)
		head = rdmablk_iqueue_take_held(queue, head);
	ret = rdmablk_iqueue_post_batch(queue, head, &unposted);
	if (ret) {
		iq_err(queue, "cannot send a batch of commands: %d\n", ret);
		rdmablk_ipath_conn_lost(queue->path, "cannot post a command");
	}
}

/**
 * rdmablk_iqueue_drop_batch() - forget a batch that will never be posted
 * @queue: the queue, stopped: its requests are requeued as in flight
 *
 * What was held goes too.
 */
void rdmablk_iqueue_drop_batch(struct rdmablk_iqueue *queue)
{
	rdmablk_iqueue_take_batch(queue);
	rdmablk_iqueue_take_held(queue, NULL);
}

/* Post what waits in @queue's held list; a failure loses the connection. */
static void rdmablk_iqueue_post_held(struct rdmablk_iqueue *queue)
{
	struct rdmablk_ireq *unposted;

	if (rdmablk_iqueue_post_batch(queue, rdmablk_iqueue_take_held(queue, NULL),
				      &unposted)) {
		iq_err(queue, "cannot send the commands held for a SEND's completion\n");
		rdmablk_ipath_conn_lost(queue->path, "cannot post a command");
	}
}

/**
 * rdmablk_iqueue_acked() - SENDs of commands completed
 * @queue: their queue
 * @cmds: the commands they carried
 *
 * The last in flight posts what was held for it (cmd_cork), unless the
 * queue is being stopped. Context: its CQ's handler: no answer of the
 * queue is taken meanwhile, so the post may be made under hold_lock (a
 * poll queue's handler runs in process context, but never holds any).
 */
void rdmablk_iqueue_acked(struct rdmablk_iqueue *queue, unsigned int cmds)
{
	/* Fully ordered: pairs with the holder's llist_add() then read. */
	if (atomic_sub_return(cmds, &queue->unacked) ||
	    llist_empty(&queue->held))
		return;
	spin_lock_bh(&queue->hold_lock);
	if (test_bit(RDMABLK_IQ_LIVE, &queue->flags))
		rdmablk_iqueue_post_held(queue);
	spin_unlock_bh(&queue->hold_lock);
}

/* Would commands of @queue wait for the SENDs in flight (cmd_cork)? */
static bool rdmablk_iqueue_corked(struct rdmablk_iqueue *queue)
{
	return READ_ONCE(rdmablk_cmd_cork) && READ_ONCE(rdmablk_batch_submit) &&
	       !queue->polled &&
	       (queue->params.flags & RDMABLK_CONN_CMD_BATCH) &&
	       atomic_read(&queue->unacked);
}

/*
 * May the batch @queue is about to post wait for the SENDs in flight?
 * Under post_lock.
 */
static bool rdmablk_iqueue_may_hold(struct rdmablk_iqueue *queue)
{
	lockdep_assert_held(&queue->post_lock);
	return !queue->batch_pinned && rdmablk_iqueue_corked(queue);
}

/*
 * Would a command that blk-mq hands to @queue now (@more: more follow in
 * this batch) go in a SEND of its own? Not where the connection shares
 * SENDs and others would go with it: more of this batch, some batched or
 * held already, or SENDs in flight it would wait behind. Read without
 * post_lock, so a guess: a wrong one costs a message, never a command.
 */
static bool rdmablk_iqueue_goes_alone(struct rdmablk_iqueue *queue, bool more)
{
	if (!(queue->params.flags & RDMABLK_CONN_CMD_BATCH))
		return true;
	if (more && READ_ONCE(rdmablk_batch_submit))
		return false;
	/* post_lock's, but a stale view costs a message at most */
	return !data_race(queue->batch_head) && llist_empty(&queue->held) &&
	       !rdmablk_iqueue_corked(queue);
}

/*
 * Leave the batch @head in @queue's held list, for the completion that
 * brings unacked to 0; post it now if that came meanwhile.
 */
static void rdmablk_iqueue_hold(struct rdmablk_iqueue *queue,
				struct rdmablk_ireq *head)
{
	struct rdmablk_ireq *req, *next;
	unsigned int n = 0;

	for (req = head; req; req = next, n++) {
		next = req->batch_next;
		llist_add(&req->hold_node, &queue->held);
	}
	atomic64_add(n, &queue->stats.held);
	/*
	 * llist_add() is fully ordered, as is the completions' decrement:
	 * either this sees unacked at 0, or that completion sees the list.
	 */
	if (!atomic_read(&queue->unacked))
		rdmablk_iqueue_post_held(queue);
}

static u8 rdmablk_rq_opcode(struct request *rq)
{
	switch (req_op(rq)) {
	case REQ_OP_READ:
		return RDMABLK_OP_READ;
	case REQ_OP_WRITE:
		return RDMABLK_OP_WRITE;
	case REQ_OP_FLUSH:
		return RDMABLK_OP_FLUSH;
	case REQ_OP_DISCARD:
		return RDMABLK_OP_DISCARD;
	case REQ_OP_WRITE_ZEROES:
		return RDMABLK_OP_WRITE_ZEROES;
	default:
		return 0;
	}
}

/**
 * rdmablk_ireq_unmap() - release a request's DMA mappings and registration
 * @rq: the request
 */
void rdmablk_ireq_unmap(struct request *rq)
{
	struct rdmablk_ireq *req = blk_mq_rq_to_pdu(rq);
	struct rdmablk_iqueue *queue = req->queue;

	if (req->mr && req->mr_valid) {
		unsigned long flags;

		/* The target may still reach the pages through it. */
		spin_lock_irqsave(&queue->stale_lock, flags);
		list_add_tail(&req->mr->qp_entry, &queue->stale_mrs);
		spin_unlock_irqrestore(&queue->stale_lock, flags);
		req->mr = NULL;
		req->mr_valid = false;
	} else if (req->mr) {
		ib_mr_pool_put(queue->qp, &queue->qp->rdma_mrs, req->mr);
		req->mr = NULL;
	}
	/*
	 * The target answered, so it is done with the slot; or the
	 * connection is lost, and the next has an area of its own.
	 */
	if (req->push_slot >= 0) {
		clear_bit_unlock(req->push_slot, queue->push_busy);
		req->push_slot = -1;
	}
	if (req->nents) {
		ib_dma_unmap_sg(queue->dev, req->sgt.sgl, req->sgt.nents,
				rq_dma_dir(rq));
		req->nents = 0;
	}
	if (req->sgt.sgl) {
		sg_free_table_chained(&req->sgt, RDMABLK_INLINE_SG_CNT);
		req->sgt.sgl = NULL;
	}
}

/*
 * Take a free push slot of @queue for @req's payload, mapped in
 * @req->sge[1...] already, and make the RDMA WRITE that puts it there,
 * chained before the command's SEND. Return: false when all are taken.
 */
static bool rdmablk_ireq_push(struct rdmablk_iqueue *queue,
			      struct rdmablk_ireq *req,
			      struct rdmablk_cmd_info *c)
{
	unsigned int slot, n = READ_ONCE(queue->push_slots);

	do {
		slot = find_first_zero_bit(queue->push_busy, n);
		if (slot >= n)
			return false;
	} while (test_and_set_bit_lock(slot, queue->push_busy));

	req->push_slot = slot;
	req->push_wr.wr.opcode = IB_WR_RDMA_WRITE;
	req->push_wr.wr.sg_list = &req->sge[1];
	req->push_wr.wr.num_sge = req->nents;
	/* Its SEND's completion says it is done; a failure fails that too. */
	req->push_wr.wr.send_flags = 0;
	req->push_wr.wr.wr_cqe = NULL;
	req->push_wr.remote_addr = queue->open_info.push_addr +
				   (u64)slot * RDMABLK_PUSH_SLOT_SIZE;
	req->push_wr.rkey = queue->open_info.push_rkey;
	c->flags |= RDMABLK_CMD_PUSHED;
	c->addr = slot;
	c->rkey = 0;
	atomic64_inc(&queue->stats.pushed);
	return true;
}

/*
 * Map the data; small writes pushed into a slot of the target's, or
 * inline, else one fast registration. A write that would go in a SEND of
 * its own (rdmablk_iqueue_goes_alone(), @more as blk-mq said) and fits
 * inline goes inline: pushed, it would take two messages, the payload's
 * and the command's, where inline it takes one; pushing pays where the
 * command shares its SEND. Only such writes ask whether they go alone.
 */
static int rdmablk_ireq_map_data(struct rdmablk_iqueue *queue,
				 struct request *rq, struct rdmablk_cmd_info *c,
				 bool more)
{
	struct rdmablk_ireq *req = blk_mq_rq_to_pdu(rq);
	struct scatterlist *sg;
	int i, n, ret;

	req->sgt.sgl = req->first_sgl;
	ret = sg_alloc_table_chained(&req->sgt, blk_rq_nr_phys_segments(rq),
				     req->sgt.sgl, RDMABLK_INLINE_SG_CNT);
	if (ret) {
		req->sgt.sgl = NULL;
		return -ENOMEM;
	}
	req->sgt.nents = blk_rq_map_sg(rq->q, rq, req->sgt.sgl);
	req->nents = ib_dma_map_sg(queue->dev, req->sgt.sgl, req->sgt.nents,
				   rq_dma_dir(rq));
	if (!req->nents)
		return -EIO;

	if (rq_data_dir(rq) == WRITE && req->nents <= RDMABLK_INLINE_SGE &&
	    c->length <= max(queue->params.inline_max, RDMABLK_PUSH_SLOT_SIZE)) {
		for_each_sg(req->sgt.sgl, sg, req->nents, i) {
			req->sge[1 + i].addr = sg_dma_address(sg);
			req->sge[1 + i].length = sg_dma_len(sg);
			req->sge[1 + i].lkey = queue->pd->local_dma_lkey;
		}
		/* A pushed command may share a SEND; an inline one may not. */
		if (c->length <= RDMABLK_PUSH_SLOT_SIZE &&
		    !(c->length <= queue->params.inline_max &&
		      rdmablk_iqueue_goes_alone(queue, more)) &&
		    rdmablk_ireq_push(queue, req, c))
			return 0;
		if (c->length <= queue->params.inline_max) {
			req->send_wr.num_sge = 1 + req->nents;
			c->flags |= RDMABLK_CMD_INLINE;
			return 0;
		}
	}

	req->mr = ib_mr_pool_get(queue->qp, &queue->qp->rdma_mrs);
	if (!req->mr)
		return -EAGAIN;
	n = ib_map_mr_sg(req->mr, req->sgt.sgl, req->nents, NULL, SZ_4K);
	if (n != req->nents)
		return n < 0 ? n : -EINVAL;
	ib_update_fast_reg_key(req->mr, ib_inc_rkey(req->mr->rkey));

	req->reg_wr.wr.opcode = IB_WR_REG_MR;
	req->reg_wr.wr.num_sge = 0;
	req->reg_wr.wr.send_flags = 0;
	req->reg_wr.wr.wr_cqe = NULL;
	req->reg_wr.mr = req->mr;
	req->reg_wr.key = req->mr->rkey;
	req->reg_wr.access = rq_data_dir(rq) == WRITE ?
			     IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_READ :
			     IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE;
	c->addr = req->mr->iova;
	c->rkey = req->mr->rkey;
	return 0;
}

/**
 * rdmablk_ireq_reset() - forget a request's previous life
 * @rq: the request, before blk_mq_start_request(): no answer is taken
 *	for it until its new command is posted
 */
void rdmablk_ireq_reset(struct request *rq)
{
	struct rdmablk_ireq *req = blk_mq_rq_to_pdu(rq);

	atomic_set(&req->arm, RDMABLK_ARM_IDLE);
	req->requeue = false;
	req->status = RDMABLK_S_IO_ERROR;
	req->mr = NULL;
	req->mr_valid = false;
	req->nents = 0;
	req->sgt.sgl = NULL;
	req->send_wr.num_sge = 1;
	req->msg_slot = -1;
	req->push_slot = -1;
	req->send_data = false;
	refcount_set(&req->ref, 2);
}

/*
 * Is the command @c, about to go on @queue, lone (RDMABLK_CMD_LONE)? A
 * READ or WRITE that goes by itself (no more of the blk-mq batch follow)
 * with no other command of the path in flight, after RDMABLK_LONE_STREAK
 * commands of the queue in a row that found the path so: its submitter
 * waits for each command, so its answer goes alone too, and the target
 * sends it at once. The streak keeps the hint from submitters that keep
 * several commands in flight: those drain the path now and then (at
 * depth 8 about every other command found it so, performance.md), and
 * answers sent at once there would break up the target's batches as it
 * refills. Nothing is counted where the hint was not agreed.
 */
static bool rdmablk_iqueue_lone(struct rdmablk_iqueue *queue,
				const struct rdmablk_cmd_info *c, bool more)
{
	unsigned int streak;

	if (!(queue->params.flags & RDMABLK_CONN_LONE))
		return false;
	streak = READ_ONCE(queue->lone_streak);
	if (more || atomic_read(&queue->path->inflight) > 1) {
		if (streak)
			WRITE_ONCE(queue->lone_streak, 0);
		return false;
	}
	if (streak < RDMABLK_LONE_STREAK) {
		WRITE_ONCE(queue->lone_streak, streak + 1);
		return false;
	}
	return c->opcode == RDMABLK_OP_READ || c->opcode == RDMABLK_OP_WRITE;
}

/**
 * rdmablk_iqueue_submit() - send a block request to the target
 * @queue: a live queue
 * @rq: the request, started
 * @more: blk-mq hands over more requests right after this one
 *	(!bd->last): with batch_submit, the command joins the queue's batch
 *	and goes with the last one, or with commit_rqs
 *
 * Return: BLK_STS_OK once posted (or batched); BLK_STS_RESOURCE to be
 * retried; BLK_STS_IOERR when it cannot be posted.
 */
blk_status_t rdmablk_iqueue_submit(struct rdmablk_iqueue *queue,
				   struct request *rq, bool more)
{
	struct rdmablk_ireq *req = blk_mq_rq_to_pdu(rq);
	struct rdmablk_cmd_info c = {};
	struct rdmablk_ireq *unposted, *head;
	bool send_data;
	int ret;

	c.opcode = rdmablk_rq_opcode(rq);
	if (!c.opcode)
		return BLK_STS_NOTSUPP;
	c.tag = rq->tag;
	/*
	 * A new generation, drawn at random: no answer to an earlier sending
	 * matches it, and a target that saw this tag's last sending cannot
	 * name the next one before it arrives.
	 */
	c.gen = get_random_u16();
	if (c.gen == req->gen)
		c.gen ^= 1;
	WRITE_ONCE(req->gen, c.gen);
	c.offset = (u64)blk_rq_pos(rq) << SECTOR_SHIFT;
	c.length = blk_rq_bytes(rq);
	if (c.opcode == RDMABLK_OP_WRITE && (rq->cmd_flags & REQ_FUA))
		c.flags |= RDMABLK_CMD_FUA;
	if (c.opcode == RDMABLK_OP_WRITE_ZEROES && (rq->cmd_flags & REQ_NOUNMAP))
		c.flags |= RDMABLK_CMD_NOUNMAP;
	if (c.opcode == RDMABLK_OP_FLUSH)
		c.length = 0, c.offset = 0;

	req->queue = queue;
	if (rdmablk_iqueue_lone(queue, &c, more)) {
		c.flags |= RDMABLK_CMD_LONE;
		atomic64_inc(&queue->stats.lone);
	}

	/* A small READ may have its data sent: no mapping, no registration. */
	send_data = c.opcode == RDMABLK_OP_READ &&
		    (queue->params.flags & RDMABLK_CONN_READ_SEND) &&
		    c.length <= RDMABLK_READ_SEND_MAX;
	/* Published by the release of @arm below, as @gen is. */
	WRITE_ONCE(req->send_data, send_data);
	if (send_data) {
		c.flags |= RDMABLK_CMD_SEND_DATA;
	} else if (blk_rq_nr_phys_segments(rq) &&
		   (c.opcode == RDMABLK_OP_READ ||
		    c.opcode == RDMABLK_OP_WRITE)) {
		ret = rdmablk_ireq_map_data(queue, rq, &c, more);
		if (ret)
			goto out_unmap;
	}

	/* Tags are below the credits asked for: the place is the tag's. */
	req->cmd = &queue->cmd_buf[rq->tag];
	req->opcode = c.opcode;
	rdmablk_cmd_encode(req->cmd, &c);
	/* Its address and length: when the SEND is chained. */
	req->sge[0].lkey = queue->pd->local_dma_lkey;

	req->send_cqe.done = rdmablk_ireq_send_done;
	req->send_wr.next = NULL;
	req->send_wr.wr_cqe = &req->send_cqe;
	req->send_wr.sg_list = req->sge;
	req->send_wr.opcode = IB_WR_SEND;
	req->send_wr.send_flags = IB_SEND_SIGNALED;

	req->inv_cqe.done = rdmablk_ireq_inv_done;
	req->inv_wr.next = NULL;
	req->inv_wr.opcode = IB_WR_LOCAL_INV;
	req->inv_wr.wr_cqe = &req->inv_cqe;
	req->inv_wr.send_flags = IB_SEND_SIGNALED;
	req->inv_wr.num_sge = 0;

	/*
	 * Counted and traced before the post: its answer, and with it the
	 * completion's count and trace, may come before the post returns.
	 */
	atomic64_inc(&queue->stats.commands);
	trace_rdmablk_cmd_submit(queue->idev->name, queue->qid, &c);

	/*
	 * From here an answer naming this generation is kept, once the
	 * request is armed it is taken (RDMABLK_ARM_*).
	 */
	req->batch_next = NULL;
	/* Release: an answer that sees POSTING sees the new @gen (iqueue.c). */
	atomic_set_release(&req->arm, RDMABLK_ARM_POSTING);
	spin_lock(&queue->post_lock);
	if (queue->batch_tail)
		queue->batch_tail->batch_next = req;
	else
		queue->batch_head = req;
	queue->batch_tail = req;
	if (req->cmd->flags & RDMABLK_CMD_INLINE)
		queue->batch_pinned = true;
	if (more && READ_ONCE(rdmablk_batch_submit)) {
		spin_unlock(&queue->post_lock);
		return BLK_STS_OK;
	}
	if (rdmablk_iqueue_may_hold(queue)) {
		head = __rdmablk_iqueue_take_batch(queue);
		spin_unlock(&queue->post_lock);
		rdmablk_iqueue_hold(queue, head);
		return BLK_STS_OK;
	}
	head = __rdmablk_iqueue_take_batch(queue);
	spin_unlock(&queue->post_lock);
	ret = rdmablk_iqueue_post_batch(queue, rdmablk_iqueue_take_held(queue, head),
					&unposted);
	if (likely(!ret))
		return BLK_STS_OK;
	if (unposted != req) {
		/* Batched ones were not posted: recovery requeues them. */
		rdmablk_ipath_conn_lost(queue->path, "cannot post a command");
		/*
		 * All of it went out (the driver did not say what failed), or
		 * this one's SEND or pushed payload did: it is armed, and its
		 * pages are the device's until recovery's drain.
		 */
		if (!unposted || req->msg_sent)
			return BLK_STS_OK;
		ret = -EIO;
	}

out_unmap:
	rdmablk_ireq_unmap(rq);
	if (ret == -EAGAIN || ret == -ENOMEM)
		return BLK_STS_RESOURCE;
	iq_err(queue, "cannot send a command: %d\n", ret);
	return BLK_STS_IOERR;
}
