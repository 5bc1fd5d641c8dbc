// SPDX-License-Identifier: GPL-2.0
/*
 * Target connections: one per initiator queue. This file owns a
 * connection's life: the connect request (admission limits, the REP), its
 * PD and buffers (its QP and CQ are tqp.c's, tcq.c's), OPEN binding it to
 * an export, the keep-alive and open timers, rdma_cm events, teardown,
 * and closing connections when their export, their RDMA device or the
 * module goes. Commands are in
 * tio.c, discovery sessions in disc.c; tconn.h has the structures.
 *
 * Locking (the whole picture is in tconn.h):
 *  - rdmablk_tconns_lock (spinlock) protects rdmablk_tconns and
 *    rdmablk_disc_conns; connect checks the limits again under it while
 *    linking, so two connect requests cannot both take the last place.
 *  - exp->conns_lock protects the export's list of connections and its
 *    dead flag: OPEN links under it unless the export is dead, teardown
 *    unlinks under it.
 *  - Teardown (rdmablk_tconn_release()) runs once, on rdmablk_tconn_wq
 *    (teardowns only, so that a device removal waits for them alone), after
 *    RDMABLK_TCONN_CLOSING was set; it reads @exp only once the QP is
 *    drained and every request context came back, commands that waited
 *    for the payload budget handed over by rdmablk_tbudget_close().
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/log2.h>
#include <linux/moduleparam.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <rdma/ib_cm.h>

#include "tconn.h"

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
 * Largest write payload a command's SEND may carry, and so what each
 * receive holds besides the command. 4 KiB lets a small write that goes
 * alone (queue depth 1) go in one message even where it could be pushed
 * (RDMABLK_CONN_WRITE_PUSH); 1 KiB lets four receives share a page, 384
 * KiB less per connection at the default depth, and sends every write of
 * 1 to 4 KiB either pushed or with its pages registered. A receive holds
 * a batch of commands, so not less than RDMABLK_PUSH_INLINE_MAX.
 */
static unsigned int rdmablk_inline_max = RDMABLK_INLINE_MAX;

static int rdmablk_param_set_inline_max(const char *val,
					const struct kernel_param *kp)
{
	unsigned int n;
	int ret;

	ret = kstrtouint(val, 0, &n);
	if (ret)
		return ret;
	if (n < RDMABLK_PUSH_INLINE_MAX || n > RDMABLK_INLINE_MAX ||
	    !is_power_of_2(n))
		return -EINVAL;
	WRITE_ONCE(*(unsigned int *)kp->arg, n);
	return 0;
}

static const struct kernel_param_ops rdmablk_inline_max_ops = {
	.set = rdmablk_param_set_inline_max,
	.get = param_get_uint,
};
module_param_cb(inline_max, &rdmablk_inline_max_ops, &rdmablk_inline_max,
		0644);
MODULE_PARM_DESC(inline_max,
		 "Target: largest write payload, in bytes, carried inline in a command's SEND: 1024, 2048 or 4096; below 4096 receives share pages and writes above it go pushed (write push) or registered; applies to new connections (default: 4096)");

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
 * Payload: every READ and keyed WRITE (neither inline nor pushed) pins
 * pages for its payload until its answer completed. Credits bound the
 * commands (queue depth, up to 256) and max_io_size their size (1 MiB),
 * which would let one connection pin 256 MiB; the budget bounds the bytes
 * (tbudget.c). The default lets an initiator at the default depth of 128
 * run 128 KiB commands unhindered and keep 32 of 1 MiB in flight, plenty
 * for any link.
 */
static unsigned int rdmablk_max_payload = SZ_32M;
module_param_named(max_payload_per_connection, rdmablk_max_payload, uint,
		   0644);
MODULE_PARM_DESC(max_payload_per_connection,
		 "Target: most payload bytes the commands of one connection may hold pages for at once; a READ or WRITE beyond it waits until earlier ones are done, one larger than the bound runs alone; 0: no bound; applies to new connections (default: 33554432, 32 MiB)");

/*
 * RNR retries of our SENDs asked for in the REP; the QP's own count comes
 * from the initiator's REQ, so a peer that stops posting receives can make
 * them retry for ever. RDMABLK_SEND_DEADLINE bounds that: a connection
 * whose posted SENDs and RDMA WRITEs made no progress for that long is
 * dropped, and the payload pages of its commands freed.
 */
#define RDMABLK_TARGET_RNR_RETRY	6
#define RDMABLK_SEND_DEADLINE		(10 * HZ)

static LIST_HEAD(rdmablk_tconns);
DEFINE_SPINLOCK(rdmablk_tconns_lock);
static struct workqueue_struct *rdmablk_tconn_wq;

/**
 * struct rdmablk_tdev_gone - an RDMA device whose removal has begun
 * @node: entry in rdmablk_tdevs_gone, under rdmablk_tconns_lock
 * @dev: the device; compared, never dereferenced
 *
 * From the start of its removal until the device is unregistered, its
 * listeners still take connect requests (rdma_cm's removal comes after
 * this client's), and a connection accepted then would tear down on a
 * device already freed: rdma_cm's removal waits for its id, which a
 * teardown destroys first (see rdmablk_tconn_release()). Such requests are
 * refused. The entry stays until a device is added at that address again
 * (rdmablk_target_add_one()) or the module goes.
 */
struct rdmablk_tdev_gone {
	struct list_head node;
	struct ib_device *dev;
};

static LIST_HEAD(rdmablk_tdevs_gone);

/* <debugfs>/rdmablk-target/connections: per-connection payload counts. */
static struct dentry *rdmablk_target_debugfs;

/**
 * rdmablk_tconn_close() - schedule teardown of a connection, once
 * @conn: the connection
 *
 * Safe from any context and to call more than once.
 */
void rdmablk_tconn_close(struct rdmablk_tconn *conn)
{
	if (!test_and_set_bit(RDMABLK_TCONN_CLOSING, &conn->flags))
		queue_work(rdmablk_tconn_wq, &conn->release_work);
}

/**
 * rdmablk_tconn_open() - OPEN: bind the connection to an export
 * @conn: the connection
 * @req: the command; its response buffer gets the export's description
 * @recv: receive buffer holding the inline open request
 * @inline_len: its bytes
 *
 * Context: CQ work, one receive completion of @conn at a time.
 *
 * Return: the status to answer with.
 */
u16 rdmablk_tconn_open(struct rdmablk_tconn *conn, struct rdmablk_treq *req,
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
	oreq = rdmablk_trecv_data(recv);
	if (strnlen(oreq->name, sizeof(oreq->name)) == sizeof(oreq->name))
		return RDMABLK_S_INVALID;
	strscpy(name, oreq->name, sizeof(name));
	if (!rdmablk_export_name_valid(name))
		return RDMABLK_S_NO_EXPORT;

	exp = rdmablk_export_lookup(name);
	if (!exp)
		return RDMABLK_S_NO_EXPORT;
	if (rdmablk_tconn_auth_admit(conn, oreq->hostid, name,
				     exp->auth_required) != RDMABLK_S_OK) {
		pr_warn_ratelimited("export %s: host %pUb at %pISpc did not authenticate\n",
				    exp->name, oreq->hostid,
				    &conn->cm_id->route.addr.dst_addr);
		rdmablk_export_put(exp);
		return RDMABLK_S_AUTH_REQUIRED;
	}
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
	/*
	 * Only writes use the push area, and only where the device does not
	 * need a write's pages to stay put while it works: the initiator may
	 * write into a slot at any time.
	 */
	if (!(exp->params.flags & RDMABLK_EXP_READ_ONLY) &&
	    !bdev_stable_writes(exp->bdev))
		rdmablk_tpush_register(conn, &info);
	rdmablk_open_rsp_encode(wire, &info);
	return RDMABLK_S_OK;
}

static void rdmablk_tconn_free_bufs(struct rdmablk_tconn *conn)
{
	unsigned int i;

	rdmablk_tpush_free(conn);
	for (i = 0; conn->recvs && i < conn->nr_recvs; i++) {
		struct rdmablk_trecv *recv = &conn->recvs[i];

		/* A shared payload page is its first receive's. */
		if (recv->sge[1].addr && !recv->off)
			ib_dma_unmap_page(conn->dev, recv->sge[1].addr,
					  PAGE_SIZE, DMA_FROM_DEVICE);
		if (recv->sge[0].addr)
			ib_dma_unmap_single(conn->dev, recv->sge[0].addr,
					    sizeof(*recv->cmd), DMA_FROM_DEVICE);
		if (recv->page && !recv->off)
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
	vfree(conn->reqs);
	conn->reqs = NULL;
}

/*
 * Receives and request contexts, and the push area. A receive's payload
 * (inline data, a batch's commands) is inline_max bytes: a page of its
 * own at 4 KiB, a share of one below.
 */
static int rdmablk_tconn_alloc_bufs(struct rdmablk_tconn *conn)
{
	unsigned int i, payload;
	int ret;

	/* First: a connection left without one sends writes another way. */
	if (conn->params.flags & RDMABLK_CONN_WRITE_PUSH) {
		ret = rdmablk_tpush_alloc(conn);
		if (ret) {
			tconn_err_ratelimited(conn, "no push area: %d; small writes go inline or registered\n",
					      ret);
			rdmablk_tpush_free(conn);
			conn->params.flags &= ~RDMABLK_CONN_WRITE_PUSH;
		}
	}
	payload = conn->params.inline_max;

	conn->recvs = kcalloc(conn->nr_recvs, sizeof(*conn->recvs), GFP_KERNEL);
	/*
	 * Pages, not kmalloc, which rounds up to a power of two: at the
	 * default depth, 256 contexts (134 KiB) would take 256 KiB there.
	 * The device never reads them: responses have buffers of their own.
	 */
	conn->reqs = vcalloc(conn->nr_reqs, sizeof(*conn->reqs));
	if (!conn->recvs || !conn->reqs)
		goto out_free;

	for (i = 0; i < conn->nr_recvs; i++) {
		struct rdmablk_trecv *recv = &conn->recvs[i];
		u64 dma;

		recv->conn = conn;
		recv->cqe.done = rdmablk_tconn_recv_done;
		recv->cmd = kmalloc(sizeof(*recv->cmd), GFP_KERNEL);
		if (!recv->cmd)
			goto out_free;
		dma = ib_dma_map_single(conn->dev, recv->cmd, sizeof(*recv->cmd),
					DMA_FROM_DEVICE);
		if (ib_dma_mapping_error(conn->dev, dma))
			goto out_free;
		recv->sge[0].addr = dma;
		recv->sge[0].length = sizeof(*recv->cmd);
		recv->sge[0].lkey = conn->pd->local_dma_lkey;
		recv->off = (i % (PAGE_SIZE / payload)) * payload;
		if (recv->off) {
			recv->page = recv[-1].page;
			dma = recv[-1].sge[1].addr + payload;
		} else {
			recv->page = alloc_page(GFP_KERNEL);
			if (!recv->page)
				goto out_free;
			dma = ib_dma_map_page(conn->dev, recv->page, 0,
					      PAGE_SIZE, DMA_FROM_DEVICE);
			if (ib_dma_mapping_error(conn->dev, dma))
				goto out_free;
		}
		recv->sge[1].addr = dma;
		recv->sge[1].length = payload;
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
		req->quiet_cqe.done = rdmablk_tconn_quiet_done;
		INIT_LIST_HEAD(&req->batch);
		INIT_LIST_HEAD(&req->quiet);
		req->push_slot = -1;
		list_add_tail(&req->node, &conn->free_reqs);
	}
	conn->nr_free = conn->nr_reqs;
	return 0;

out_free:
	rdmablk_tconn_free_bufs(conn);
	return -ENOMEM;
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
	/* An idle connection gives its spare payload pages back. */
	rdmablk_tpages_trim(&conn->tpages);
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
	struct rdmablk_tbudget_wait *w, *next;
	struct rdmablk_export *exp;
	LIST_HEAD(waiting);

	/* No export change reaches the session once it is off the list. */
	rdmablk_tconn_disc_stop(conn);
	cancel_delayed_work_sync(&conn->ka_work);
	cancel_delayed_work_sync(&conn->open_work);
	rdma_disconnect(conn->cm_id);
	/*
	 * An answer deciding to go quiet under tx_lock saw CLOSING clear
	 * and posts before the drain's WR; every later one sees it set and
	 * signals (trsp.c).
	 */
	spin_lock_irq(&conn->tx_lock);
	spin_unlock_irq(&conn->tx_lock);
	ib_drain_qp(conn->qp);
	/* A DISC_WAIT held by the session is given back. */
	rdmablk_tconn_disc_release(conn);
	/*
	 * Commands waiting for the payload budget never started: each is
	 * handed over here once, and none starts after this.
	 */
	rdmablk_tbudget_close(&conn->budget, &waiting);
	list_for_each_entry_safe(w, next, &waiting, node) {
		list_del_init(&w->node);
		rdmablk_treq_free(container_of(w, struct rdmablk_treq, pin));
	}
	/* Drained: every quiet answer's WR completed. */
	rdmablk_tconn_quiet_reclaim(conn);
	/*
	 * A bio still in flight answers into the drained QP, then frees;
	 * so do the responses waiting to be sent together, at the end of
	 * the pass that answer queued.
	 */
	wait_event(conn->wq, READ_ONCE(conn->nr_free) +
			     READ_ONCE(conn->nr_failed) == conn->nr_reqs);
	/*
	 * An answer from a bio's completion may still be on its way out of
	 * the connection after giving its context back: it runs under RCU
	 * (rdmablk_treq_bio_done()).
	 */
	synchronize_rcu();
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
	rdmablk_tconn_auth_release(conn);

	/*
	 * The id goes first, as in nvmet: the listener tells a connection's
	 * events from its own by cm_id->qp, which rdma_destroy_qp() clears,
	 * so an event arriving between the two would be taken for the
	 * listener's with @conn as its context. rdma_destroy_id() waits for
	 * a running handler, and no event comes after it. A device removal,
	 * which rdma_cm lets go on once the id is destroyed, waits for the
	 * rest: this runs on rdmablk_tconn_wq, which
	 * rdmablk_tconn_close_all() flushes.
	 */
	rdma_destroy_id(conn->cm_id);
	ib_destroy_qp(conn->qp);
	rdmablk_tconn_destroy_cq(conn);
	rdmablk_tconn_free_bufs(conn);
	ib_dealloc_pd(conn->pd);
	kfree(conn);
}

/* Whether @dev is being removed; under rdmablk_tconns_lock. */
static bool rdmablk_tdev_going(const struct ib_device *dev)
{
	struct rdmablk_tdev_gone *gone;

	lockdep_assert_held(&rdmablk_tconns_lock);
	list_for_each_entry(gone, &rdmablk_tdevs_gone, node)
		if (gone->dev == dev)
			return true;
	return false;
}

/*
 * Discovery sessions one host may hold at once, and all hosts together.
 * They need no export and no authentication, and idling does not end
 * them (DISC_WAIT waits for long): without bounds of their own, a few
 * addresses could take every place I/O connections need. rdmablkd holds
 * one per target address it discovers from.
 */
#define RDMABLK_DISC_PER_HOST	8
#define RDMABLK_DISC_MAX	128

/*
 * May one more connection from @peer be taken on @dev, a discovery
 * session if @disc? Not on a device being removed; and both kinds count
 * against max_connections(_per_host).
 *
 * Return: 0; -ENODEV if @dev is being removed; -EBUSY over a limit.
 */
static int rdmablk_tconn_admit(const struct ib_device *dev,
			       const struct sockaddr *peer, bool disc)
{
	unsigned int max_host = READ_ONCE(rdmablk_max_conns_per_host);
	unsigned int max = READ_ONCE(rdmablk_max_conns);
	unsigned int all = 0, host = 0, disc_all = 0, disc_host = 0;
	struct rdmablk_tconn *conn;
	bool same, is_disc;

	lockdep_assert_held(&rdmablk_tconns_lock);
	if (rdmablk_tdev_going(dev))
		return -ENODEV;
	list_for_each_entry(conn, &rdmablk_tconns, node) {
		same = rdmablk_addr_same_host(peer,
					      (struct sockaddr *)&conn->cm_id->route.addr.dst_addr);
		is_disc = conn->params.flags & RDMABLK_CONN_DISCOVERY;
		all++;
		host += same;
		disc_all += is_disc;
		disc_host += same && is_disc;
	}
	if (disc && (disc_all >= RDMABLK_DISC_MAX ||
		     disc_host >= RDMABLK_DISC_PER_HOST))
		return -EBUSY;
	if (all >= max || (max_host && host >= max_host))
		return -EBUSY;
	return 0;
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
	u16 depth;

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
	ret = rdmablk_tconn_admit(cm_id->device, peer,
				  req.flags & RDMABLK_CONN_DISCOVERY);
	spin_unlock(&rdmablk_tconns_lock);
	if (ret == -EBUSY)
		goto out_limit;
	if (ret)
		goto out_reject;

	conn = kzalloc(sizeof(*conn), GFP_KERNEL);
	if (!conn) {
		ret = -ENOMEM;
		goto out_reject;
	}
	conn->cm_id = cm_id;
	conn->dev = cm_id->device;
	conn->port_num = cm_id->port_num;
	spin_lock_init(&conn->lock);
	spin_lock_init(&conn->tx_lock);
	INIT_LIST_HEAD(&conn->quiet);
	INIT_LIST_HEAD(&conn->free_reqs);
	INIT_LIST_HEAD(&conn->pending);
	INIT_LIST_HEAD(&conn->failed);
	INIT_LIST_HEAD(&conn->rsp_ready);
	INIT_LIST_HEAD(&conn->exp_node);
	INIT_LIST_HEAD(&conn->disc_node);
	rdmablk_tpages_init(&conn->tpages);
	rdmablk_tbudget_init(&conn->budget, READ_ONCE(rdmablk_max_payload));
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
	depth = min_t(u16, req.queue_depth, RDMABLK_TARGET_MAX_QD);
	conn->params.flags = req.flags & (RDMABLK_CONN_REMOTE_INV |
					  RDMABLK_CONN_DISCOVERY |
					  RDMABLK_CONN_READ_IMM |
					  RDMABLK_CONN_AUTH |
					  RDMABLK_CONN_CMD_BATCH |
					  RDMABLK_CONN_RSP_BATCH |
					  RDMABLK_CONN_WRITE_PUSH |
					  RDMABLK_CONN_READ_SEND |
					  RDMABLK_CONN_LONE);
	/* iWARP has no immediate data. */
	if (rdma_protocol_iwarp(cm_id->device, cm_id->port_num))
		conn->params.flags &= ~(RDMABLK_CONN_READ_IMM |
					RDMABLK_CONN_READ_SEND);
	conn->read_imm_max = READ_ONCE(rdmablk_read_imm_max);
	if (!conn->read_imm_max)
		conn->params.flags &= ~RDMABLK_CONN_READ_IMM;
	conn->rsp_size = RDMABLK_RSP_BUF_SIZE;
	if (conn->params.flags & RDMABLK_CONN_DISCOVERY) {
		conn->params.flags &= ~(RDMABLK_CONN_REMOTE_INV |
					RDMABLK_CONN_READ_IMM |
					RDMABLK_CONN_CMD_BATCH |
					RDMABLK_CONN_RSP_BATCH |
					RDMABLK_CONN_WRITE_PUSH |
					RDMABLK_CONN_READ_SEND |
					RDMABLK_CONN_LONE);
		depth = min_t(u16, depth, RDMABLK_DISC_QUEUE_DEPTH);
		conn->rsp_size = RDMABLK_DISC_RSP_SIZE;
	}
	conn->params.max_queues = RDMABLK_MAX_QUEUES;
	conn->params.max_io_size = RDMABLK_MAX_IO_SIZE;
	conn->params.inline_max = READ_ONCE(rdmablk_inline_max);
	/* The depth granted: @depth, or less if the device's queues are short. */
	ret = rdmablk_tqp_fit(conn, depth);
	if (ret)
		goto out_free_conn;
	/* Read once: the parameter may change meanwhile. */
	conn->push.nr = rdmablk_tpush_want(conn->dev, conn->params.queue_depth);
	if (!conn->push.nr)
		conn->params.flags &= ~RDMABLK_CONN_WRITE_PUSH;
	rdmablk_trsp_setup(conn);

	/* Applied when rdma_accept() moves the QP to RTS. */
	ret = rdmablk_rc_set_ack_timeout(cm_id);
	if (ret)
		goto out_free_conn;

	conn->pd = ib_alloc_pd(conn->dev, 0);
	if (IS_ERR(conn->pd)) {
		ret = PTR_ERR(conn->pd);
		goto out_free_conn;
	}
	ret = rdmablk_tqp_create(conn);
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

	/* Before the connection is listed: debugfs shows its idle time. */
	conn->last_rx = jiffies;
	spin_lock(&rdmablk_tconns_lock);
	ret = rdmablk_tconn_admit(conn->dev, peer, conn->params.flags &
						   RDMABLK_CONN_DISCOVERY);
	if (!ret) {
		list_add_tail(&conn->node, &rdmablk_tconns);
		if (conn->params.flags & RDMABLK_CONN_DISCOVERY)
			list_add_tail(&conn->disc_node, &rdmablk_disc_conns);
		/*
		 * Queued as it is listed: a device removal that finds it
		 * there tears it down, and its teardown's cancels must find
		 * them queued, not see them queued after (it waits in
		 * rdma_destroy_id() for this handler, then frees @conn).
		 */
		if (!(conn->params.flags & RDMABLK_CONN_DISCOVERY))
			queue_delayed_work(rdmablk_wq, &conn->open_work,
					   RDMABLK_OPEN_TIMEOUT);
		queue_delayed_work(rdmablk_wq, &conn->ka_work,
				   min(msecs_to_jiffies(conn->params.keepalive_ms),
				       RDMABLK_SEND_DEADLINE / 4));
	}
	spin_unlock(&rdmablk_tconns_lock);
	if (ret)
		goto out_free_bufs;
	cm_id->context = conn;

	rdmablk_conn_rep_encode(&rep, &conn->params);
	param.private_data = &rep;
	param.private_data_len = sizeof(rep);
	param.rnr_retry_count = RDMABLK_TARGET_RNR_RETRY;
	param.flow_control = 1;
	param.initiator_depth = min_t(u8, ev->param.conn.initiator_depth,
				      conn->dev->attrs.max_qp_init_rd_atom);
	/* Nothing RDMA READs from the target: none, as nvmet grants. */
	param.responder_resources = 0;
	ret = rdma_accept(cm_id, &param);
	if (ret) {
		/* The id is ours now: tear down through the normal path. */
		pr_warn_ratelimited("cannot accept %pISpc: %d\n",
				    &cm_id->route.addr.dst_addr, ret);
		rdmablk_tconn_close(conn);
	}
	return 0;

out_free_bufs:
	/* The flushed receives' error completions queue no release. */
	set_bit(RDMABLK_TCONN_CLOSING, &conn->flags);
out_destroy_qp:
	/* First: destroying the QP flushes the receives posted into them. */
	rdmablk_tqp_destroy(conn);
	rdmablk_tconn_free_bufs(conn);
out_dealloc_pd:
	ib_dealloc_pd(conn->pd);
out_free_conn:
	kfree(conn);
	if (ret != -EBUSY)
		goto out_reject;
out_limit:
	pr_warn_ratelimited("connect request from %pISpc refused: connection limit (max_connections %u, max_connections_per_host %u; discovery sessions %u per host, %u in all)\n",
			    peer, READ_ONCE(rdmablk_max_conns),
			    READ_ONCE(rdmablk_max_conns_per_host),
			    RDMABLK_DISC_PER_HOST, RDMABLK_DISC_MAX);
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

/**
 * rdmablk_tconn_claim_host() - note the host id @conn says it is
 * @conn: the connection
 * @hostid: the host id of its AUTH_CHALLENGE, OPEN or DISC_* command
 *
 * Called before the command looks at the target's keys for @hostid, so
 * that a HOST_SET or HOST_DEL that changes them either is seen by the
 * command or finds the claim and closes the connection
 * (rdmablk_tconn_close_host()).
 *
 * A connection speaks for one host: its first claim stands. A command
 * naming another host id closes the connection. Were the claim to follow
 * the last command, a connection authenticated as one host could claim
 * another (an OPEN refused), let that host's keys be revoked without
 * being closed, and then OPEN as the first.
 *
 * Context: CQ work, one command of @conn at a time.
 *
 * Return: false when @conn claimed another host id before; it is closed.
 */
bool rdmablk_tconn_claim_host(struct rdmablk_tconn *conn, const u8 *hostid)
{
	bool same = true;

	spin_lock(&rdmablk_tconns_lock);
	if (!conn->hostid_set) {
		memcpy(conn->hostid, hostid, sizeof(conn->hostid));
		conn->hostid_set = true;
	} else {
		same = !memcmp(conn->hostid, hostid, sizeof(conn->hostid));
	}
	spin_unlock(&rdmablk_tconns_lock);
	if (!same) {
		tconn_err_ratelimited(conn,
				      "protocol violation: host %pUb named on a connection of host %pUb; disconnecting\n",
				      hostid, conn->hostid);
		rdmablk_tconn_close(conn);
	}
	return same;
}

/**
 * rdmablk_tconn_close_host() - close every connection that claimed @hostid
 * @hostid: the host whose keys changed or went
 *
 * Its initiators reconnect and, if they can, authenticate again with the
 * keys the target holds now. Does not wait for the teardown.
 *
 * Return: how many connections were closed.
 */
unsigned int rdmablk_tconn_close_host(const u8 *hostid)
{
	struct rdmablk_tconn *conn;
	unsigned int n = 0;

	spin_lock(&rdmablk_tconns_lock);
	list_for_each_entry(conn, &rdmablk_tconns, node) {
		if (!conn->hostid_set ||
		    memcmp(conn->hostid, hostid, sizeof(conn->hostid)))
			continue;
		if (!test_bit(RDMABLK_TCONN_CLOSING, &conn->flags))
			n++;
		rdmablk_tconn_close(conn);
	}
	spin_unlock(&rdmablk_tconns_lock);
	return n;
}

/*
 * Close the connections on @dev (all when NULL) and wait for them, and
 * for the teardowns already past their unlisting, which no scan finds.
 */
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
		flush_workqueue(rdmablk_tconn_wq);
		if (empty)
			break;
	}
}

static int rdmablk_tconns_show(struct seq_file *m, void *unused)
{
	struct rdmablk_tbudget_stats st;
	struct rdmablk_tconn *conn;

	spin_lock(&rdmablk_tconns_lock);
	list_for_each_entry(conn, &rdmablk_tconns, node) {
		unsigned long flags;
		u64 batches, batched, quiet;
		unsigned int quiet_waiting;

		rdmablk_tbudget_stats(&conn->budget, &st);
		spin_lock_irqsave(&conn->lock, flags);
		batches = conn->rsp_batches;
		batched = conn->rsp_batched;
		spin_unlock_irqrestore(&conn->lock, flags);
		spin_lock_irqsave(&conn->tx_lock, flags);
		quiet = conn->quiet_answers;
		quiet_waiting = conn->nr_quiet;
		spin_unlock_irqrestore(&conn->tx_lock, flags);
		seq_printf(m, "%pISpc %s queue_depth=%u payload_max=%llu pinned=%llu peak=%llu waiting=%llu waited=%llu cached=%u send_wr=%u keepalive_ms=%u idle_ms=%u rsp_batch=%s rsp_batches=%llu rsp_batched=%llu lone_answers=%lld signal_every=%u quiet_answers=%llu quiet_waiting=%u\n",
			   &conn->cm_id->route.addr.dst_addr,
			   conn->params.flags & RDMABLK_CONN_DISCOVERY ?
			   "discovery" : "io", conn->params.queue_depth,
			   st.max, st.pinned, st.peak, st.nr_waiting,
			   st.nr_waited, rdmablk_tpages_count(&conn->tpages),
			   conn->send_wr, conn->params.keepalive_ms,
			   jiffies_to_msecs(jiffies - READ_ONCE(conn->last_rx)),
			   conn->params.flags & RDMABLK_CONN_RSP_BATCH ?
			   "on" : "off", batches, batched,
			   atomic64_read(&conn->lone_answers),
			   conn->signal_every, quiet, quiet_waiting);
	}
	spin_unlock(&rdmablk_tconns_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rdmablk_tconns);

/* At unload, the client unregistered: no device is being removed. */
static void rdmablk_tdevs_gone_free(void)
{
	struct rdmablk_tdev_gone *gone, *tmp;

	list_for_each_entry_safe(gone, tmp, &rdmablk_tdevs_gone, node) {
		list_del(&gone->node);
		kfree(gone);
	}
}

/* A device at an address where one was removed before is a new one. */
static int rdmablk_target_add_one(struct ib_device *dev)
{
	struct rdmablk_tdev_gone *gone, *tmp;
	LIST_HEAD(stale);

	spin_lock(&rdmablk_tconns_lock);
	list_for_each_entry_safe(gone, tmp, &rdmablk_tdevs_gone, node)
		if (gone->dev == dev)
			list_move(&gone->node, &stale);
	spin_unlock(&rdmablk_tconns_lock);
	list_for_each_entry_safe(gone, tmp, &stale, node)
		kfree(gone);
	return 0;
}

/*
 * Refuse new connections on @dev, close those it carries and wait for
 * them, and for the teardowns already past their unlisting (as nvmet's
 * removal flushes nvmet_wq): nothing of this module's touches @dev once
 * this returns.
 */
static void rdmablk_target_remove_one(struct ib_device *dev, void *data)
{
	struct rdmablk_tdev_gone *gone = kzalloc(sizeof(*gone), GFP_KERNEL);

	/* Without it, only the requests of that window are not refused. */
	if (gone) {
		gone->dev = dev;
		spin_lock(&rdmablk_tconns_lock);
		list_add(&gone->node, &rdmablk_tdevs_gone);
		spin_unlock(&rdmablk_tconns_lock);
	}
	rdmablk_tconn_close_all(dev);
}

static struct ib_client rdmablk_target_client = {
	.name = "rdmablk_target",
	.add = rdmablk_target_add_one,
	.remove = rdmablk_target_remove_one,
};

/* What the netlink commands of the target role call (roles.h). */
static const struct rdmablk_target_ops rdmablk_target_ops = {
	.listener_add = rdmablk_listener_add,
	.listener_del = rdmablk_listener_del,
	.listener_get = rdmablk_listener_get,
	.export_add = rdmablk_export_add,
	.export_del = rdmablk_export_del,
	.export_get = rdmablk_export_get,
	.host_set = rdmablk_thost_set,
	.host_del = rdmablk_thost_del,
	.host_get = rdmablk_thost_get,
};

/**
 * rdmablk_target_init() - start the target role, at module load
 *
 * Runs before the netlink family is registered; registers the role's
 * operations with it last.
 *
 * Return: 0 or a negative errno.
 */
int rdmablk_target_init(void)
{
	int ret;

	rdmablk_tauth_init();
	rdmablk_tconn_wq = alloc_workqueue("rdmablk_teardown", WQ_MEM_RECLAIM, 0);
	if (!rdmablk_tconn_wq)
		return -ENOMEM;
	ret = rdmablk_tcq_init();
	if (ret)
		goto out_destroy_wq;
	/* Debugging aid only: a failure is no reason to fail loading. */
	rdmablk_target_debugfs = debugfs_create_dir("rdmablk-target", NULL);
	debugfs_create_file("connections", 0400, rdmablk_target_debugfs, NULL,
			    &rdmablk_tconns_fops);
	ret = ib_register_client(&rdmablk_target_client);
	if (ret)
		goto out_remove_debugfs;
	ret = rdmablk_nl_register_target(&rdmablk_target_ops);
	if (ret)
		goto out_unregister_client;
	return 0;

out_unregister_client:
	ib_unregister_client(&rdmablk_target_client);
out_remove_debugfs:
	debugfs_remove_recursive(rdmablk_target_debugfs);
	rdmablk_tcq_exit();
out_destroy_wq:
	destroy_workqueue(rdmablk_tconn_wq);
	return ret;
}

/**
 * rdmablk_target_exit() - stop the target role, at module unload
 *
 * The netlink family must be gone, so no listener or export can be added.
 * Listeners go first, so no connection can be added; then the exports,
 * closing their connections; then whatever connection is left.
 */
void rdmablk_target_exit(void)
{
	rdmablk_nl_unregister_target(&rdmablk_target_ops);
	rdmablk_listeners_exit();
	rdmablk_exports_exit();
	debugfs_remove_recursive(rdmablk_target_debugfs);
	rdmablk_tconn_close_all(NULL);
	ib_unregister_client(&rdmablk_target_client);
	rdmablk_tdevs_gone_free();
	rdmablk_tcq_exit();
	destroy_workqueue(rdmablk_tconn_wq);
	rdmablk_tauth_exit();
}
