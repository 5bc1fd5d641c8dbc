// SPDX-License-Identifier: GPL-2.0
/*
 * Discovery sessions of the target: connections made with
 * RDMABLK_CONN_DISCOVERY, which open no export. DISC_LOG is answered at
 * once with a page of the exports the asking host may see; one DISC_WAIT
 * is held until the export list's generation moves past what its host
 * has seen, which rdmablk_tconn_disc_notify() signals through @disc_work.
 *
 * Locking: rdmablk_tconns_lock protects rdmablk_disc_conns (a session is
 * linked by connect and unlinked first thing in teardown); tconn->lock
 * protects the held DISC_WAIT (@disc_wait, @disc_gen, @disc_hostid).
 * Teardown takes the session off the list and cancels @disc_work, drains
 * the QP, cancels it again (a DISC_WAIT handled before the drain may have
 * queued it) and only then frees a DISC_WAIT still held.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include "tconn.h"

LIST_HEAD(rdmablk_disc_conns);

/* A page of the export list, as the asking host may see it. */
static u16 rdmablk_tconn_disc_log(struct rdmablk_tconn *conn,
				  struct rdmablk_treq *req,
				  const struct rdmablk_disc_req_info *dreq)
{
	struct rdmablk_disc_log *log = req->rsp + sizeof(struct rdmablk_rsp);
	struct rdmablk_disc_entry *entries = (void *)(log + 1);
	u32 count, total;
	u64 gen;

	count = rdmablk_export_disc_log(dreq->hostid,
					conn->auth_mode != RDMABLK_AUTH_MODE_NONE,
					dreq->start, entries,
					RDMABLK_DISC_MAX_ENTRIES, &gen, &total);
	rdmablk_disc_log_encode(log, gen, total, count);
	req->rsp_extra = sizeof(*log) + count * sizeof(*entries);
	return RDMABLK_S_OK;
}

/* Answer the held DISC_WAIT if the export list moved on since. */
void rdmablk_tconn_disc_work(struct work_struct *work)
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
	rdmablk_export_disc_log(dreq.hostid,
				conn->auth_mode != RDMABLK_AUTH_MODE_NONE, 0,
				NULL, 0, &gen, &total);

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

/*
 * A DISC_* request, and whether the session may list as the host it
 * names (docs/protocol.md, "Authentication"). After the first one, the
 * session can no longer authenticate.
 */
static u16 rdmablk_tconn_disc_decode(struct rdmablk_tconn *conn,
				     struct rdmablk_treq *req,
				     struct rdmablk_trecv *recv, u32 inline_len,
				     struct rdmablk_disc_req_info *dreq)
{
	u16 status;

	conn->disc_used = true;
	status = rdmablk_disc_req_decode(&req->cmd, rdmablk_trecv_data(recv),
					 inline_len, dreq);
	if (status != RDMABLK_S_OK)
		return status;
	return rdmablk_tconn_auth_admit(conn, dreq->hostid, "", false);
}

/**
 * rdmablk_tconn_disc_handle() - a command of a discovery session
 * @conn: the session
 * @req: the command
 * @recv: receive buffer holding its inline request
 * @inline_len: bytes of that request
 *
 * Context: CQ work.
 */
void rdmablk_tconn_disc_handle(struct rdmablk_tconn *conn,
			       struct rdmablk_treq *req,
			       struct rdmablk_trecv *recv, u32 inline_len)
{
	struct rdmablk_disc_req_info dreq;
	unsigned long flags;
	bool busy = false;

	switch (req->cmd.opcode) {
	case RDMABLK_OP_DISC_LOG:
		req->status = rdmablk_tconn_disc_decode(conn, req, recv,
							inline_len, &dreq);
		if (req->status == RDMABLK_S_OK)
			req->status = rdmablk_tconn_disc_log(conn, req, &dreq);
		break;
	case RDMABLK_OP_DISC_WAIT:
		req->status = rdmablk_tconn_disc_decode(conn, req, recv,
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

/**
 * rdmablk_tconn_disc_stop() - tell a connection of no more export changes
 * @conn: the connection, being torn down
 *
 * Teardown's first step, for every connection: off rdmablk_disc_conns (a
 * no-op for an I/O queue), and no @disc_work running or queued. A
 * DISC_WAIT handled until the QP is drained may still queue it.
 */
void rdmablk_tconn_disc_stop(struct rdmablk_tconn *conn)
{
	spin_lock(&rdmablk_tconns_lock);
	list_del_init(&conn->disc_node);
	spin_unlock(&rdmablk_tconns_lock);
	cancel_work_sync(&conn->disc_work);
}

/**
 * rdmablk_tconn_disc_release() - give back the DISC_WAIT a session holds
 * @conn: the connection, its QP drained
 *
 * After the drain no command is handled any more, so @disc_work, once
 * cancelled, cannot be queued again, and the held DISC_WAIT, if any, is
 * given back here and nowhere else.
 */
void rdmablk_tconn_disc_release(struct rdmablk_tconn *conn)
{
	struct rdmablk_treq *wait;

	/* A DISC_WAIT handled before the drain may have queued it again. */
	cancel_work_sync(&conn->disc_work);
	spin_lock_irq(&conn->lock);
	wait = conn->disc_wait;
	conn->disc_wait = NULL;
	spin_unlock_irq(&conn->lock);
	if (wait)
		rdmablk_treq_free(wait);
}
