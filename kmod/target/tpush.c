// SPDX-License-Identifier: GPL-2.0
/*
 * Write push (RDMABLK_CONN_WRITE_PUSH): a connection's push area, slots of
 * RDMABLK_PUSH_SLOT_SIZE bytes that its initiator RDMA WRITEs small WRITE
 * payloads into, ahead of their commands. Such a command carries no
 * payload, so it may share a SEND with others (a batch of commands): a
 * 4 KiB write then costs its four data packets and a share of one SEND,
 * where inline it took a SEND of five packets of its own. The slot's
 * page goes to the backing device as is, as an inline payload's receive
 * page does: no copy, and nothing pinned per command.
 *
 * The area is allocated with the connection's buffers (when the flag was
 * agreed; one that cannot be allocated withdraws the flag before the reply
 * is sent) and registered, FRWR, zero-based, for remote write once OPEN
 * succeeded: the registration is posted before OPEN's response, which
 * names the area, so the initiator can write to it only once it is valid.
 * A read-only export, or a device that needs stable pages while it writes
 * them (the initiator can write into a slot at any time), gets none. It
 * is deregistered after the QP is destroyed, with the buffers.
 *
 * Slots: the initiator owns a slot from the answer to the command that
 * used it; the target holds it from the command's arrival (a command
 * naming a slot another outstanding command holds is answered
 * RDMABLK_S_INVALID) to its answer, which is made only after the bio
 * reading the slot ended. @busy's bits are taken and given back with
 * atomic bit operations: from CQ work, and from bio completion.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/moduleparam.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

#include "tconn.h"

static unsigned int rdmablk_push_slots = 32;
module_param_named(push_slots, rdmablk_push_slots, uint, 0644);
MODULE_PARM_DESC(push_slots,
		 "Target: slots of 4 KiB per connection that initiators may RDMA WRITE small WRITE payloads into, ahead of commands that then share SENDs; at most the queue depth; 0: none; applies to new connections (default: 32)");

/**
 * rdmablk_tpush_want() - slots a new connection would have
 * @dev: its RDMA device: one registration maps the whole area
 * @queue_depth: its granted credits
 *
 * Return: the number of slots, 0 for none.
 */
unsigned int rdmablk_tpush_want(struct ib_device *dev,
				unsigned int queue_depth)
{
	return min3(READ_ONCE(rdmablk_push_slots), queue_depth,
		    dev->attrs.max_fast_reg_page_list_len *
		    (unsigned int)RDMABLK_PUSH_SLOTS_PER_PAGE);
}

/* Where the bytes of push slot @slot are, for the RDMA device. */
static u64 rdmablk_tpush_dma(const struct rdmablk_tpush *push,
			     unsigned int slot)
{
	unsigned int off, idx = rdmablk_tpush_locate(slot, &off);

	return push->dma[idx] + off;
}

static unsigned int rdmablk_tpush_pages(const struct rdmablk_tpush *push)
{
	return DIV_ROUND_UP(push->nr, RDMABLK_PUSH_SLOTS_PER_PAGE);
}

/**
 * rdmablk_tpush_free() - give the push area back
 * @conn: the connection, its QP destroyed (or never used)
 *
 * Idempotent; also undoes a rdmablk_tpush_alloc() that failed half way.
 */
void rdmablk_tpush_free(struct rdmablk_tconn *conn)
{
	struct rdmablk_tpush *push = &conn->push;
	unsigned int i;

	if (push->mr) {
		ib_dereg_mr(push->mr);
		push->mr = NULL;
	}
	for (i = 0; push->pages && push->dma && i < rdmablk_tpush_pages(push);
	     i++) {
		if (push->dma[i])
			ib_dma_unmap_page(conn->dev, push->dma[i], PAGE_SIZE,
					  DMA_FROM_DEVICE);
		if (push->pages[i])
			__free_page(push->pages[i]);
	}
	kfree(push->pages);
	kfree(push->dma);
	bitmap_free(push->busy);
	push->pages = NULL;
	push->dma = NULL;
	push->busy = NULL;
	push->nr = 0;
}

/* Map the area's pages into push->mr, one page per entry. */
static int rdmablk_tpush_map_mr(struct rdmablk_tconn *conn)
{
	struct rdmablk_tpush *push = &conn->push;
	unsigned int i, n = rdmablk_tpush_pages(push);
	struct scatterlist *sgl;
	int ret;

	sgl = kmalloc_array(n, sizeof(*sgl), GFP_KERNEL);
	if (!sgl)
		return -ENOMEM;
	sg_init_table(sgl, n);
	for (i = 0; i < n; i++) {
		sg_set_page(&sgl[i], push->pages[i], PAGE_SIZE, 0);
		sg_dma_address(&sgl[i]) = push->dma[i];
		sg_dma_len(&sgl[i]) = PAGE_SIZE;
	}
	ret = ib_map_mr_sg(push->mr, sgl, n, NULL, PAGE_SIZE);
	kfree(sgl);
	if (ret != n)
		return ret < 0 ? ret : -EINVAL;
	return 0;
}

/**
 * rdmablk_tpush_alloc() - allocate and map a connection's push area
 * @conn: the connection, its PD and QP made, @conn->push.nr slots wanted
 *	(rdmablk_tpush_want(), not 0)
 *
 * Return: 0, or a negative errno with nothing left to free but what
 * rdmablk_tpush_free() frees.
 */
int rdmablk_tpush_alloc(struct rdmablk_tconn *conn)
{
	struct rdmablk_tpush *push = &conn->push;
	unsigned int i, n = rdmablk_tpush_pages(push);

	push->pages = kcalloc(n, sizeof(*push->pages), GFP_KERNEL);
	push->dma = kcalloc(n, sizeof(*push->dma), GFP_KERNEL);
	push->busy = bitmap_zalloc(push->nr, GFP_KERNEL);
	if (!push->pages || !push->dma || !push->busy)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		u64 dma;

		/* Zeroed: the initiator sees nothing of earlier connections. */
		push->pages[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		if (!push->pages[i])
			return -ENOMEM;
		dma = ib_dma_map_page(conn->dev, push->pages[i], 0, PAGE_SIZE,
				      DMA_FROM_DEVICE);
		if (ib_dma_mapping_error(conn->dev, dma))
			return -ENOMEM;
		push->dma[i] = dma;
	}
	push->mr = ib_alloc_mr(conn->pd, IB_MR_TYPE_MEM_REG, n);
	if (IS_ERR(push->mr)) {
		int ret = PTR_ERR(push->mr);

		push->mr = NULL;
		return ret;
	}
	return rdmablk_tpush_map_mr(conn);
}

static void rdmablk_tpush_reg_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rdmablk_tconn *conn = container_of(wc->wr_cqe,
						  struct rdmablk_tconn,
						  push.reg_cqe);

	if (unlikely(wc->status != IB_WC_SUCCESS)) {
		if (wc->status != IB_WC_WR_FLUSH_ERR)
			tconn_err_ratelimited(conn, "cannot register the push area: %s\n",
					      ib_wc_status_msg(wc->status));
		rdmablk_tconn_close(conn);
	}
}

/**
 * rdmablk_tpush_register() - open the push area to the initiator
 * @conn: the connection, OPEN succeeding: the registration is posted
 *	before OPEN's response, which names the area in @info
 * @info: OPEN's answer, given the area's address, key and slots
 *
 * Without an area, or when it cannot be registered, @info names none and
 * the initiator sends every write as before.
 */
void rdmablk_tpush_register(struct rdmablk_tconn *conn,
			    struct rdmablk_open_info *info)
{
	struct rdmablk_tpush *push = &conn->push;
	struct ib_reg_wr *wr = &push->reg_wr;
	int ret;

	if (!push->mr || push->registered)
		return;
	/*
	 * Zero-based: the peer learns nothing of where the pages are (the
	 * DMA address, or a kernel address on soft-RoCE).
	 */
	push->mr->iova = 0;
	ib_update_fast_reg_key(push->mr, ib_inc_rkey(push->mr->rkey));
	push->reg_cqe.done = rdmablk_tpush_reg_done;
	memset(wr, 0, sizeof(*wr));
	wr->wr.opcode = IB_WR_REG_MR;
	wr->wr.wr_cqe = &push->reg_cqe;
	wr->wr.send_flags = IB_SEND_SIGNALED;
	wr->mr = push->mr;
	wr->key = push->mr->rkey;
	wr->access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE;
	ret = ib_post_send(conn->qp, &wr->wr, NULL);
	if (ret) {
		tconn_err_ratelimited(conn, "cannot post the push area's registration: %d; writes go without it\n",
				      ret);
		return;
	}
	push->registered = true;
	info->push_addr = push->mr->iova;
	info->push_rkey = push->mr->rkey;
	info->push_slots = push->nr;
}

/**
 * rdmablk_tpush_claim() - a pushed WRITE arrived: hold its slot
 * @conn: the connection
 * @req: the command, RDMABLK_CMD_PUSHED, checked by rdmablk_cmd_check()
 *
 * Return: true with @req->push_slot set and the slot's bytes visible to
 * the CPU; false when the connection has no such slot or another
 * outstanding command holds it.
 */
bool rdmablk_tpush_claim(struct rdmablk_tconn *conn, struct rdmablk_treq *req)
{
	struct rdmablk_tpush *push = &conn->push;
	u64 slot = req->cmd.addr;

	if (!push->registered || slot >= push->nr ||
	    test_and_set_bit_lock(slot, push->busy))
		return false;
	req->push_slot = slot;
	ib_dma_sync_single_for_cpu(conn->dev, rdmablk_tpush_dma(push, slot),
				   req->cmd.length, DMA_FROM_DEVICE);
	return true;
}

/**
 * rdmablk_tpush_release() - a pushed WRITE is answered: its slot is free
 * @req: the command, its bio ended
 *
 * Safe in any context; nothing to do for a command without a slot.
 */
void rdmablk_tpush_release(struct rdmablk_treq *req)
{
	struct rdmablk_tconn *conn = req->conn;
	struct rdmablk_tpush *push = &conn->push;

	if (req->push_slot < 0)
		return;
	ib_dma_sync_single_for_device(conn->dev,
				      rdmablk_tpush_dma(push, req->push_slot),
				      RDMABLK_PUSH_SLOT_SIZE, DMA_FROM_DEVICE);
	clear_bit_unlock(req->push_slot, push->busy);
	req->push_slot = -1;
}
