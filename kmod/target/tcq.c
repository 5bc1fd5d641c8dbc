// SPDX-License-Identifier: GPL-2.0
/*
 * The completion queue of a target connection and the pass that polls it.
 *
 * rdmablk polls the CQ itself rather than through ib_core's
 * IB_POLL_WORKQUEUE so that it knows where a pass ends: the responses made
 * ready during a pass leave together at its end (trsp.c), and none waits
 * any longer than that. No timer is involved and nothing waits for more
 * completions to come.
 *
 * A pass is @cq_work on rdmablk_cq_wq (high priority, may sleep: command
 * handling allocates and submits bios). It runs the handlers of up to
 * RDMABLK_CQ_BUDGET completions with ib_process_cq_direct(), sends the
 * responses made ready meanwhile, and re-arms the CQ; it is queued again
 * at once when the budget ran out or a completion slipped in before the
 * re-arm (IB_CQ_REPORT_MISSED_EVENTS). It is queued by the CQ's
 * completion event and by an answer made outside a pass while other
 * commands are outstanding (trsp.c). A work item never runs twice at
 * once, so a connection's completions are handled one pass at a time, as
 * they were under IB_POLL_WORKQUEUE.
 *
 * Teardown: rdmablk_tconn_destroy_cq(), once the QP is gone, stops the
 * passes (@cq_dead), waits for the one running, destroys the CQ, and
 * cancels a pass its last event may have queued.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/workqueue.h>

#include "tconn.h"

/* Completions one pass handles before its responses go and it yields. */
#define RDMABLK_CQ_BUDGET	256

static struct workqueue_struct *rdmablk_cq_wq;

/**
 * rdmablk_tconn_kick() - run a pass of @conn soon
 * @conn: the connection
 *
 * Any context. Responses waiting for the end of a pass go at its end.
 */
void rdmablk_tconn_kick(struct rdmablk_tconn *conn)
{
	queue_work(rdmablk_cq_wq, &conn->cq_work);
}

/* The CQ's completion event: a pass polls what arrived. */
static void rdmablk_tconn_cq_event(struct ib_cq *cq, void *ctx)
{
	rdmablk_tconn_kick(ctx);
}

static void rdmablk_tconn_cq_work(struct work_struct *work)
{
	struct rdmablk_tconn *conn = container_of(work, struct rdmablk_tconn,
						  cq_work);
	int done;

	if (READ_ONCE(conn->cq_dead))
		return;
	rdmablk_tconn_pass_begin(conn);
	done = ib_process_cq_direct(conn->cq, RDMABLK_CQ_BUDGET);
	rdmablk_tconn_pass_end(conn);
	if (done >= RDMABLK_CQ_BUDGET ||
	    ib_req_notify_cq(conn->cq, IB_CQ_NEXT_COMP |
				       IB_CQ_REPORT_MISSED_EVENTS) > 0)
		rdmablk_tconn_kick(conn);
}

/**
 * rdmablk_tconn_create_cq() - create @conn's CQ of @nr_cqe entries, armed
 * @conn: the connection
 * @nr_cqe: entries
 *
 * Return: 0, or a negative errno.
 */
int rdmablk_tconn_create_cq(struct rdmablk_tconn *conn, unsigned int nr_cqe)
{
	static atomic_t next_vector = ATOMIC_INIT(0);
	struct ib_device *dev = conn->dev;
	struct ib_cq_init_attr attr = { .cqe = nr_cqe };
	int ret;

	/* Spread connections over the device's vectors, as ib_alloc_cq_any. */
	if (dev->num_comp_vectors > 1)
		attr.comp_vector = (u32)atomic_inc_return(&next_vector) %
				   dev->num_comp_vectors;
	INIT_WORK(&conn->cq_work, rdmablk_tconn_cq_work);
	conn->cq_dead = false;
	conn->cq = ib_create_cq(dev, rdmablk_tconn_cq_event, NULL, conn, &attr);
	if (IS_ERR(conn->cq))
		return PTR_ERR(conn->cq);
	ret = ib_req_notify_cq(conn->cq, IB_CQ_NEXT_COMP);
	if (ret) {
		ib_destroy_cq(conn->cq);
		return ret;
	}
	return 0;
}

/**
 * rdmablk_tconn_destroy_cq() - destroy @conn's CQ; no pass runs after
 * @conn: the connection, its QP destroyed
 */
void rdmablk_tconn_destroy_cq(struct rdmablk_tconn *conn)
{
	WRITE_ONCE(conn->cq_dead, true);
	flush_work(&conn->cq_work);
	ib_destroy_cq(conn->cq);
	cancel_work_sync(&conn->cq_work);
}

/**
 * rdmablk_tcq_init() - make the passes' workqueue, at module load
 *
 * Return: 0 or -ENOMEM.
 */
int rdmablk_tcq_init(void)
{
	rdmablk_cq_wq = alloc_workqueue("rdmablk_cq",
					WQ_HIGHPRI | WQ_MEM_RECLAIM, 0);
	return rdmablk_cq_wq ? 0 : -ENOMEM;
}

/** rdmablk_tcq_exit() - at module unload, every connection gone */
void rdmablk_tcq_exit(void)
{
	destroy_workqueue(rdmablk_cq_wq);
}
