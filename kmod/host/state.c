// SPDX-License-Identifier: GPL-2.0
/*
 * The initiator device's state machine, as one table, in the style of
 * nvme_change_ctrl_state(): every change goes through
 * rdmablk_dev_state_change_ok(), so no path can bring a device back from
 * DELETING or make it LIVE without a successful connect.
 *
 *   NEW ----------(attached)------------> LIVE
 *   LIVE ---------(connection lost)-----> RECONNECTING
 *   RECONNECTING -(attempt succeeded)---> LIVE
 *   RECONNECTING -(ctrl_loss_tmo, or
 *                  another export)------> DEAD
 *   DEAD ---------(RECONNECT command)---> RECONNECTING
 *   any but DELETING --(detach)---------> DELETING, terminal
 *
 * Also the mapping of wire statuses: whatever a target sends, a request
 * ends with a status of enum rdmablk_status this side knows.
 */
#include <linux/rdmablk.h>
#include <linux/rdmablk_proto.h>

#include "state.h"

bool rdmablk_dev_state_valid(u32 state)
{
	switch (state) {
	case RDMABLK_DEV_NEW:
	case RDMABLK_DEV_LIVE:
	case RDMABLK_DEV_DEAD:
	case RDMABLK_DEV_DELETING:
	case RDMABLK_DEV_RECONNECTING:
		return true;
	default:
		return false;
	}
}

/**
 * rdmablk_dev_state_name() - what sysfs and the log call a state
 * @state: enum rdmablk_dev_state or RDMABLK_DEV_NEW
 *
 * Return: the name rdmablkctl uses too; "unknown" for no state.
 */
const char *rdmablk_dev_state_name(u32 state)
{
	switch (state) {
	case RDMABLK_DEV_NEW:
		return "new";
	case RDMABLK_DEV_LIVE:
		return "live";
	case RDMABLK_DEV_DEAD:
		return "dead";
	case RDMABLK_DEV_DELETING:
		return "deleting";
	case RDMABLK_DEV_RECONNECTING:
		return "reconnecting";
	default:
		return "unknown";
	}
}

/**
 * rdmablk_dev_state_change_ok() - may a device go from @old to @new?
 * @old: current state
 * @new: wanted state
 *
 * Return: true when the change is in the table above.
 */
bool rdmablk_dev_state_change_ok(u32 old, u32 new)
{
	if (!rdmablk_dev_state_valid(old))
		return false;
	switch (new) {
	case RDMABLK_DEV_LIVE:
		return old == RDMABLK_DEV_NEW ||
		       old == RDMABLK_DEV_RECONNECTING;
	case RDMABLK_DEV_RECONNECTING:
		return old == RDMABLK_DEV_LIVE || old == RDMABLK_DEV_DEAD;
	case RDMABLK_DEV_DEAD:
		return old == RDMABLK_DEV_RECONNECTING;
	case RDMABLK_DEV_DELETING:
		return old != RDMABLK_DEV_DELETING;
	default:
		return false;
	}
}

/**
 * rdmablk_wire_status() - a status received from the target, checked
 * @wire: as received, untrusted
 *
 * Return: @wire when it is a status of the protocol, else
 * RDMABLK_S_IO_ERROR: a status this side does not know fails the I/O.
 */
u16 rdmablk_wire_status(u16 wire)
{
	switch (wire) {
	case RDMABLK_S_OK:
	case RDMABLK_S_INVALID:
	case RDMABLK_S_RANGE:
	case RDMABLK_S_READ_ONLY:
	case RDMABLK_S_IO_ERROR:
	case RDMABLK_S_NO_EXPORT:
	case RDMABLK_S_DENIED:
	case RDMABLK_S_NOT_OPEN:
	case RDMABLK_S_UNSUPPORTED:
	case RDMABLK_S_NO_SPACE:
		return wire;
	default:
		return RDMABLK_S_IO_ERROR;
	}
}

/**
 * rdmablk_status_to_blk() - the block layer's view of a request's status
 * @status: enum rdmablk_status
 *
 * Return: the blk_status_t the request ends with.
 */
blk_status_t rdmablk_status_to_blk(u16 status)
{
	switch (status) {
	case RDMABLK_S_OK:
		return BLK_STS_OK;
	case RDMABLK_S_NO_SPACE:
		return BLK_STS_NOSPC;
	case RDMABLK_S_UNSUPPORTED:
		return BLK_STS_NOTSUPP;
	case RDMABLK_S_RANGE:
	case RDMABLK_S_READ_ONLY:
		return BLK_STS_TARGET;
	default:
		return BLK_STS_IOERR;
	}
}

/**
 * rdmablk_dev_state_of_paths() - a device's state from its paths'
 * @old: the device's state now
 * @path_states: each path's enum rdmablk_dev_state (RDMABLK_DEV_NEW for
 *	one being connected)
 * @n: paths
 *
 * LIVE while a path is live; RECONNECTING while none is and one is being
 * connected; DEAD when every path gave up (or none is left). A device
 * being attached (NEW) stays NEW until a path is live, one being detached
 * stays DELETING.
 *
 * Return: the state the device should be in.
 */
u32 rdmablk_dev_state_of_paths(u32 old, const u32 *path_states, u32 n)
{
	bool trying = false;
	u32 i;

	if (old == RDMABLK_DEV_DELETING)
		return old;
	for (i = 0; i < n; i++) {
		if (path_states[i] == RDMABLK_DEV_LIVE)
			return RDMABLK_DEV_LIVE;
		if (path_states[i] == RDMABLK_DEV_NEW ||
		    path_states[i] == RDMABLK_DEV_RECONNECTING)
			trying = true;
	}
	if (old == RDMABLK_DEV_NEW)
		return old;
	return trying ? RDMABLK_DEV_RECONNECTING : RDMABLK_DEV_DEAD;
}

/**
 * rdmablk_mp_choose() - the path a request goes on
 * @policy: enum rdmablk_mp_policy
 * @cand: the paths
 * @n: how many
 * @rr: a counter that grows by one a request: round-robin's turn, and
 *	where the others start looking
 *
 * Among the usable paths not on standby, or if there is none the usable
 * ones on standby: the one with the fewest requests in flight
 * (queue-depth, and any unknown policy), the lowest moving average of
 * latency (min-latency; one without a sample yet is lowest, so it gets
 * one), or the next in turn (round-robin). Ties go to the first from
 * path @rr % @n on: equally loaded paths take turns, so that a light load
 * (where each request completes before the next is sent) uses them all.
 *
 * Return: its index in @cand, or -1 when none is usable.
 */
int rdmablk_mp_choose(u32 policy, const struct rdmablk_mp_cand *cand, u32 n,
		      u32 rr)
{
	u32 i, k, standby, count;
	int best;

	for (standby = 0; standby < 2; standby++) {
		best = -1;
		count = 0;
		for (k = 0; k < n; k++) {
			i = (k + rr) % n;
			if (!cand[i].usable || cand[i].standby != standby)
				continue;
			count++;
			if (best < 0 ||
			    (policy == RDMABLK_MP_MIN_LATENCY ?
			     cand[i].latency_ns < cand[best].latency_ns :
			     cand[i].inflight < cand[best].inflight))
				best = i;
		}
		if (!count)
			continue;
		if (policy != RDMABLK_MP_ROUND_ROBIN)
			return best;
		rr %= count;
		for (i = 0; i < n; i++) {
			if (!cand[i].usable || cand[i].standby != standby)
				continue;
			if (!rr--)
				return i;
		}
	}
	return -1;
}

/**
 * rdmablk_ka_check() - the keep-alive rule of one queue
 * @now: jiffies
 * @last_rx: when the queue last received anything from the peer
 * @ka_sent: when its keep-alive was sent, if @ka_pending
 * @ka_pending: a keep-alive is outstanding
 * @kato: the keep-alive timeout, in jiffies
 *
 * Any receive proves the peer alive. A queue quiet for a look's interval
 * (rdmablk_ka_interval(), a quarter of @kato) sends a keep-alive; the peer
 * is lost once nothing at all came from it for @kato and the keep-alive
 * has had half of @kato to be answered. Looked at every interval, a peer
 * that falls silent is found lost between @kato and about 1.25 @kato later
 * (the looks' own delays and timer slack aside), busy or idle: never
 * before the timeout.
 *
 * Return: what to do now.
 */
enum rdmablk_ka_action rdmablk_ka_check(unsigned long now,
					unsigned long last_rx,
					unsigned long ka_sent, bool ka_pending,
					unsigned long kato)
{
	if (ka_pending)
		return time_after(now, last_rx + kato) &&
		       time_after(now, ka_sent + kato / 2) ?
		       RDMABLK_KA_LOST : RDMABLK_KA_WAIT;
	if (time_before(now, last_rx + kato / 4))
		return RDMABLK_KA_WAIT;
	return RDMABLK_KA_SEND;
}

/**
 * rdmablk_flaps_after_loss() - count a path's loss as a flap or not
 * @flaps: losses in a row that came within RDMABLK_FLAP_WINDOW of the
 *	path becoming live, before this one
 * @live_for: how long the path was live before this loss, in jiffies
 *
 * Return: the count with this loss: one more when the path was live for
 * less than the window, else 0 (it was stable again).
 */
u32 rdmablk_flaps_after_loss(u32 flaps, unsigned long live_for)
{
	if (live_for >= RDMABLK_FLAP_WINDOW)
		return 0;
	return min_t(u32, flaps + 1, RDMABLK_FLAPS_MAX);
}

/**
 * rdmablk_flap_hold() - how long a flapping path waits to reconnect
 * @delay: reconnect_delay, in jiffies
 * @flaps: rdmablk_flaps_after_loss() of its last loss
 * @loss_tmo: ctrl_loss_tmo in jiffies, ULONG_MAX for none
 *
 * The delay doubles with each flap in a row from the second on: a path
 * that comes up and falls again is not hammered, and each of its losses,
 * which costs the live paths a quiesce, comes ever more rarely. At most
 * RDMABLK_FLAP_HOLD_MAX, and never past ctrl_loss_tmo, so that a path
 * still gives up when it would have.
 *
 * Return: the wait before its first reconnect attempt, in jiffies.
 */
unsigned long rdmablk_flap_hold(unsigned long delay, u32 flaps,
				unsigned long loss_tmo)
{
	unsigned long hold = delay;

	while (flaps-- > 1 && hold < RDMABLK_FLAP_HOLD_MAX)
		hold *= 2;
	hold = min_t(unsigned long, hold, RDMABLK_FLAP_HOLD_MAX);
	return max(min(hold, loss_tmo), delay);
}

/**
 * rdmablk_first_attempt_hold() - how long a lost path waits before its
 *	first reconnect attempt
 * @delay: reconnect_delay, in jiffies
 * @flaps: rdmablk_flaps_after_loss() of this loss
 * @others_live: another path of the device is live and carries its I/O
 * @loss_tmo: ctrl_loss_tmo in jiffies, ULONG_MAX for none
 *
 * A path that was stable (this loss is no flap) tries again at once:
 * what took it down (the target closing its connections, a transport
 * error on a link that still works) is most often over by then, and a
 * disk with no other live path would only hold its I/O up for
 * reconnect_delay. An attempt that fails leaves the rest to the
 * reconnect_delay schedule, so an outage costs one attempt more, not
 * a faster cadence; a path that flaps gets no attempt at once until it
 * has been stable again. A flapping path waits reconnect_delay, and
 * while other paths are live rdmablk_flap_hold().
 *
 * Return: the wait in jiffies, 0 for at once.
 */
unsigned long rdmablk_first_attempt_hold(unsigned long delay, u32 flaps,
					 bool others_live,
					 unsigned long loss_tmo)
{
	if (!flaps)
		return 0;
	return others_live ? rdmablk_flap_hold(delay, flaps, loss_tmo) : delay;
}
