// SPDX-License-Identifier: GPL-2.0
/*
 * What both roles ask of their reliable-connected queue pairs beyond what
 * rdma_cm chooses: how long a queue pair waits for an acknowledgment
 * before it sends again (the local ACK timeout).
 *
 * Over RoCE rdma_cm derives that timeout from a fixed packet lifetime
 * (CMA_IBOE_PACKET_LIFETIME), which gives 4.096 us * 2^19, about 2.1 s.
 * Where the link loses the last packet of a message or its
 * acknowledgment, nothing else makes the sender notice (a lost packet in
 * the middle of a message is NAKed at once by the receiver), so each such
 * loss stalls the queue pair for the whole timeout, and two on one queue
 * pair outlast the keep-alive timeout (5 s by default): the connection is
 * taken for lost, the I/O on it is sent again, and after enough of that
 * it fails. A shorter timeout resends sooner. On hardware a queue pair
 * errors out after its retry count (7) of resends in a row without an
 * acknowledgment, 8 timeouts: about 2.1 s of silence at 268 ms, inside the
 * keep-alive. Soft-RoCE takes a retry count of 7 for "never"; there only
 * the keep-alive ends the connection.
 *
 * rdma_set_ack_timeout() sets more than the queue pair's timeout: on the
 * initiator, over RoCE, rdma_cm also takes the path's packet lifetime from
 * it, which scales the CM's own timers (the REQ's resend, TIME_WAIT) and
 * the timeout the connect request offers the target. A target left at 0
 * takes that one. RDMABLK_ACK_TIMEOUT_MS_MAX keeps the REQ's resend (two
 * packet lifetimes plus 4.1 s) inside the 10 s an attach waits for its
 * connection. iWARP has no such timeout: the setting does nothing there.
 */
#include <linux/moduleparam.h>
#include <rdma/rdma_cm.h>

#include "rdmablk.h"

static unsigned int rdmablk_ack_timeout_ms = RDMABLK_ACK_TIMEOUT_MS_DEFAULT;

static int rdmablk_param_set_ack_timeout(const char *val,
					 const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 0, RDMABLK_ACK_TIMEOUT_MS_MAX);
}

static const struct kernel_param_ops rdmablk_ack_timeout_ops = {
	.set = rdmablk_param_set_ack_timeout,
	.get = param_get_uint,
};
module_param_cb(ack_timeout_ms, &rdmablk_ack_timeout_ops,
		&rdmablk_ack_timeout_ms, 0644);
MODULE_PARM_DESC(ack_timeout_ms,
		 "Milliseconds a queue pair waits for an acknowledgment before sending again, rounded up to 4.096 us * 2^n; 0 keeps rdma_cm's (about 2.1 s over RoCE; on a target, what the initiator offers); 1-"
		 __stringify(RDMABLK_ACK_TIMEOUT_MS_MAX) " (default "
		 __stringify(RDMABLK_ACK_TIMEOUT_MS_DEFAULT)
		 "); for connections made afterwards, on both roles");

/**
 * rdmablk_rc_set_ack_timeout() - give @id's queue pair the ack_timeout_ms
 * @id: an RC id, before rdma_connect() (initiator) or rdma_accept() (target)
 *
 * Return: 0, or the error of rdma_set_ack_timeout().
 */
int rdmablk_rc_set_ack_timeout(struct rdma_cm_id *id)
{
	u8 exp = rdmablk_ack_timeout_exp(READ_ONCE(rdmablk_ack_timeout_ms));

	return exp ? rdma_set_ack_timeout(id, exp) : 0;
}
