// SPDX-License-Identifier: GPL-2.0
/*
 * The queue pair of a target connection: how large its queues are, and
 * the depth granted so that they are large enough.
 *
 * The send queue holds, at once, a response for each request context and
 * the RDMA READs and WRITEs moving the payload of every command that holds
 * pages (rdmablk_tqp_rw_units()). Nothing waits for room in it: a post
 * that finds it full fails the command's transfer and drops the
 * connection. So it must hold the worst case, and devices grant less than
 * that may ask for: ib_core caps the send queue at the device's max_qp_wr
 * (rdma_rw_init_qp()), 4,096 or fewer on some hardware, soft-RoCE's is a
 * million. rdmablk_tqp_fit() therefore lowers the queue depth the
 * connection grants (the initiator keeps no more commands outstanding
 * than granted) until the queues it needs fit what the device, and the
 * max_send_wr parameter, allow; and rdmablk_tqp_create() checks the grant.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/moduleparam.h>
#include <rdma/rdma_cm.h>
#include <rdma/rw.h>

#include "tconn.h"

/*
 * SGEs a send work request of the QP may gather. One RDMA READ or WRITE
 * takes a command's pages up to that many at once; a batch of responses
 * takes one SGE each (up to RDMABLK_RSP_BATCH_MAX). Providers size every
 * send queue entry for the most SGEs the QP asks for (soft-RoCE: 208
 * bytes and 16 a SGE, rounded up to a power of two, so the device's 32
 * make entries of 1 KiB and 16 make 512 bytes), and the send queue holds
 * about a thousand entries at the default depth, so 16 rather than the
 * device's 32 halve it: 512 KiB less per connection. A 128 KiB payload
 * then takes two work requests instead of one.
 */
static unsigned int rdmablk_send_sge = 16;
module_param_named(send_sge, rdmablk_send_sge, uint, 0644);
MODULE_PARM_DESC(send_sge,
		 "Target: most SGEs of a send work request, so pages one RDMA READ or WRITE moves; fewer make each send queue entry smaller; 0: the device's most; applies to new connections (default: 16)");

/*
 * Most work requests of one connection's send queue, below the device's
 * own bound: with the send queue entries' size it bounds the memory the
 * queue takes, and a connection whose depth would need more is granted a
 * lower depth.
 */
static unsigned int rdmablk_max_send_wr;
module_param_named(max_send_wr, rdmablk_max_send_wr, uint, 0644);
MODULE_PARM_DESC(max_send_wr,
		 "Target: most work requests in the send queue of one connection; a connection that would need more at the queue depth asked for is granted a lower one; 0: the device's most; applies to new connections (default: 0)");

static void rdmablk_tqp_event(struct ib_event *ev, void *ctx)
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

/* Units of @per pages (0: the device's MRs) that move @pages pages. */
static unsigned int rdmablk_tqp_units_of(struct rdmablk_tconn *conn,
					 unsigned int per, unsigned int pages)
{
	return per ? DIV_ROUND_UP(pages, per) :
		     rdma_rw_mr_factor(conn->dev, conn->port_num, pages);
}

/*
 * Units of RDMA READ/WRITE the send queue must hold at once: a unit is
 * one work request of up to @per pages (@per 0: one MR with its
 * registration and invalidation, rdma_rw_mr_factor()), and every command
 * with a payload takes at least one. Sized for every command at the
 * largest size, that is nr_reqs * 16 at 16 SGEs, 4,096 units for the
 * default depth: a 4 MiB ring on soft-RoCE. But the payload budget bounds
 * the pages that the commands of a connection hold at once (tbudget.c: at
 * most max(budget, one command)), and so the units: a command of p >= 1
 * pages takes ceil(p / u) <= 1 + (p - 1) / u units of u pages, so n
 * commands holding P pages in all take at most n + (P - n) / u, most for
 * n = nr_reqs. Only a connection without a budget needs the full product.
 */
static unsigned int rdmablk_tqp_rw_units(struct rdmablk_tconn *conn,
					 unsigned int per)
{
	unsigned int max_io_pages = RDMABLK_MAX_IO_SIZE >> PAGE_SHIFT;
	unsigned int all, bounded;
	u64 pages;

	all = conn->nr_reqs * rdmablk_tqp_units_of(conn, per, max_io_pages);
	if (!conn->budget.max)
		return all;
	pages = max_t(u64, conn->budget.max >> PAGE_SHIFT, max_io_pages);
	if (pages > UINT_MAX)
		return all;
	pages -= min_t(u64, pages, conn->nr_reqs);
	bounded = conn->nr_reqs + rdmablk_tqp_units_of(conn, per, pages);
	return min(all, bounded);
}

/*
 * Does @conn's device move RDMA READs through MRs (ib_core's rule in
 * rw.c, but for its rdma_rw_force_mr debugging switch)? iWARP does for
 * every READ, a device with max_sgl_rd for those of more pages.
 */
static bool rdmablk_tqp_reads_register(struct rdmablk_tconn *conn)
{
	return rdma_protocol_iwarp(conn->dev, conn->port_num) ||
	       conn->dev->attrs.max_sgl_rd;
}

/*
 * The capabilities to ask rdma_create_qp() for at @conn's depth, into
 * @cap; returns the work requests its send queue then has, as
 * rdma_rw_init_qp() adds those of the RDMA READ/WRITE contexts: one each,
 * or three (registration, transfer, invalidation) where reads register.
 */
static u32 rdmablk_tqp_caps(struct rdmablk_tconn *conn, struct ib_qp_cap *cap)
{
	struct ib_device *dev = conn->dev;
	unsigned int writes = 0, factor = 1;

	memset(cap, 0, sizeof(*cap));
	cap->max_send_sge = max(dev->attrs.max_sge_rd, dev->attrs.max_send_sge);
	if (conn->send_sge && conn->send_sge < cap->max_send_sge)
		cap->max_send_sge = conn->send_sge;
	if (rdmablk_tqp_reads_register(conn)) {
		/* ib_core adds a registration and an invalidation to each. */
		cap->max_rdma_ctxs = rdmablk_tqp_rw_units(conn, 0);
		/* RDMA WRITEs still gather pages, max_send_sge at a time. */
		writes = rdmablk_tqp_rw_units(conn, cap->max_send_sge);
		factor = 3;
	} else {
		/* An RDMA READ scatters into no more than max_sge_rd. */
		cap->max_rdma_ctxs =
			rdmablk_tqp_rw_units(conn, min_t(u32, cap->max_send_sge,
							 dev->attrs.max_sge_rd));
	}
	/* +1 for ib_drain_qp(), +1 for the push area's registration */
	cap->max_send_wr = conn->nr_reqs + 2 + writes;
	cap->max_recv_wr = conn->nr_recvs + 1;
	cap->max_recv_sge = 2;
	return cap->max_send_wr + factor * cap->max_rdma_ctxs;
}

/* The CQ's entries: every receive and send WR that signals, and a drain. */
static u32 rdmablk_tqp_cqes(const struct rdmablk_tconn *conn)
{
	/* +1 each: the push area's registration (tpush.c) */
	return conn->nr_recvs + 2 * conn->nr_reqs + 3;
}

static void rdmablk_tqp_set_depth(struct rdmablk_tconn *conn, u16 depth)
{
	conn->params.queue_depth = depth;
	conn->nr_recvs = depth + 1;
	/* Responses may complete after the initiator reused their credit. */
	conn->nr_reqs = 2 * depth;
}

/*
 * Which of @conn's queues at its depth does not fit: the send queue within
 * @max_send (max_send_wr, or the device's max_qp_wr), the receive queue
 * within the device's max_qp_wr, the CQ within its max_cqe. NULL when all
 * do.
 */
static const char *rdmablk_tqp_misfit(struct rdmablk_tconn *conn,
				      u32 max_send)
{
	struct ib_qp_cap cap;

	if (rdmablk_tqp_caps(conn, &cap) > max_send)
		return "send queue";
	if (cap.max_recv_wr > conn->dev->attrs.max_qp_wr)
		return "receive queue";
	if (rdmablk_tqp_cqes(conn) > conn->dev->attrs.max_cqe)
		return "completion queue";
	return NULL;
}

/**
 * rdmablk_tqp_fit() - size a new connection's queues for @depth commands,
 *	or as many fewer as its device's queues hold
 * @conn: the connection, its parameters negotiated but for the depth
 * @depth: the queue depth asked for, at least 1
 *
 * Sets the granted queue depth (conn->params.queue_depth) and the
 * receives and request contexts that go with it, the largest depth up to
 * @depth whose queues fit. Not below 2 unless asked for: an initiator
 * keeps one credit for its keep-alives, and one would leave it none for
 * I/O.
 *
 * Return: 0, or -ENOSPC when not even that fits.
 */
int rdmablk_tqp_fit(struct rdmablk_tconn *conn, u16 depth)
{
	u32 max_send = conn->dev->attrs.max_qp_wr;
	u32 lim = READ_ONCE(rdmablk_max_send_wr);
	u16 lo = min_t(u16, depth, 2), hi = depth, mid;
	const char *misfit;

	/* Read once: the parameter may change before the QP is made. */
	conn->send_sge = READ_ONCE(rdmablk_send_sge);
	if (lim && lim < max_send)
		max_send = lim;
	/* The queues grow with the depth: the largest that fits. */
	while (lo < hi) {
		mid = hi - (hi - lo) / 2;
		rdmablk_tqp_set_depth(conn, mid);
		if (!rdmablk_tqp_misfit(conn, max_send))
			lo = mid;
		else
			hi = mid - 1;
	}
	rdmablk_tqp_set_depth(conn, lo);
	misfit = rdmablk_tqp_misfit(conn, max_send);
	if (misfit) {
		tconn_err_ratelimited(conn, "refused: its %s does not fit even at queue depth %u (send queue at most %u work requests: max_send_wr, or the device's max_qp_wr %u; max_cqe %u)\n",
				      misfit, lo, max_send,
				      conn->dev->attrs.max_qp_wr,
				      conn->dev->attrs.max_cqe);
		return -ENOSPC;
	}
	if (lo < depth) {
		rdmablk_tqp_set_depth(conn, lo + 1);
		misfit = rdmablk_tqp_misfit(conn, max_send);
		rdmablk_tqp_set_depth(conn, lo);
		tconn_info_ratelimited(conn, "queue depth %u granted, not the %u asked for: a deeper %s does not fit (send queue at most %u work requests: max_send_wr, or the device's max_qp_wr %u; max_cqe %u)\n",
				       lo, depth, misfit, max_send,
				       conn->dev->attrs.max_qp_wr,
				       conn->dev->attrs.max_cqe);
	}
	return 0;
}

/**
 * rdmablk_tqp_create() - create @conn's CQ and QP, sized by rdmablk_tqp_fit()
 * @conn: the connection
 *
 * Return: 0, -ENOSPC if the device granted a smaller send queue than the
 * depth needs, or another negative errno; nothing is left to destroy then.
 */
int rdmablk_tqp_create(struct rdmablk_tconn *conn)
{
	struct ib_qp_init_attr attr = {};
	u32 send_wr;
	int ret;

	ret = rdmablk_tconn_create_cq(conn, rdmablk_tqp_cqes(conn));
	if (ret)
		return ret;

	send_wr = rdmablk_tqp_caps(conn, &attr.cap);
	attr.qp_context = conn;
	attr.event_handler = rdmablk_tqp_event;
	attr.send_cq = conn->cq;
	attr.recv_cq = conn->cq;
	attr.sq_sig_type = IB_SIGNAL_REQ_WR;
	attr.qp_type = IB_QPT_RC;
	attr.port_num = conn->port_num;
	ret = rdma_create_qp(conn->cm_id, conn->pd, &attr);
	if (ret)
		goto out_destroy_cq;
	conn->qp = conn->cm_id->qp;
	/* ib_core's cap at max_qp_wr, which rdmablk_tqp_fit() kept below. */
	if (attr.cap.max_send_wr < send_wr) {
		tconn_err_ratelimited(conn, "the device granted a send queue of %u work requests, not %u\n",
				      attr.cap.max_send_wr, send_wr);
		ret = -ENOSPC;
		goto out_destroy_qp;
	}
	conn->send_wr = attr.cap.max_send_wr;
	/* A batched SEND gathers each response from its own buffer. */
	conn->rsp_batch_max = min_t(u32, RDMABLK_RSP_BATCH_MAX,
				    attr.cap.max_send_sge);
	if (conn->rsp_batch_max < 2)
		conn->params.flags &= ~RDMABLK_CONN_RSP_BATCH;
	return 0;

out_destroy_qp:
	rdma_destroy_qp(conn->cm_id);
	conn->qp = NULL;
out_destroy_cq:
	rdmablk_tconn_destroy_cq(conn);
	return ret;
}

void rdmablk_tqp_destroy(struct rdmablk_tconn *conn)
{
	rdma_destroy_qp(conn->cm_id);
	rdmablk_tconn_destroy_cq(conn);
}
