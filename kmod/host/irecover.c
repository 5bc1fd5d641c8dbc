// SPDX-License-Identifier: GPL-2.0
/*
 * Initiator devices: recovery, path by path. A path's lost connection
 * takes its queues down (err_work): the requests that got no answer go
 * at once to another live path, or wait for one. reconnect_work tries the
 * path again, at once if it was stable (rdmablk_first_attempt_hold()),
 * then every reconnect_delay until ctrl_loss_tmo; ka_work notices a
 * silent target. The device's state follows its paths'
 * (rdmablk_idev_update_state()); fail_fast_work fails queued I/O when no
 * path was live for fast_io_fail_tmo. Every state change goes through the
 * table of state.c. The states, the locks and what each work may do are
 * described at the top of idev.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blk-mq.h>
#include <rdma/ib_verbs.h>

#include "initiator.h"
#include "../trace.h"

u32 rdmablk_idev_state(struct rdmablk_idev *idev)
{
	unsigned long flags;
	u32 state;

	spin_lock_irqsave(&idev->state_lock, flags);
	state = idev->state;
	spin_unlock_irqrestore(&idev->state_lock, flags);
	return state;
}

u32 rdmablk_ipath_state(struct rdmablk_ipath *path)
{
	unsigned long flags;
	u32 state;

	spin_lock_irqsave(&path->idev->state_lock, flags);
	state = path->state;
	spin_unlock_irqrestore(&path->idev->state_lock, flags);
	return state;
}

/*
 * Change the device's state if the table in state.c allows it. The caller
 * holds @idev->state_lock. Return: whether the state changed.
 */
bool __rdmablk_idev_change_state(struct rdmablk_idev *idev, u32 new,
				 const char *why)
{
	lockdep_assert_held(&idev->state_lock);
	if (!rdmablk_dev_state_change_ok(idev->state, new))
		return false;
	trace_rdmablk_dev_state(idev->name, -1, idev->state, new, why);
	idev->state = new;
	return true;
}

/*
 * The device's state from its paths' (rdmablk_dev_state_of_paths()).
 * Losing the last live path starts fast_io_fail_tmo and ends the holds of
 * flapping paths (rdmablk_ipath_arm_reconnect()); a live path, or none
 * left to try, stops it. Under state_lock.
 */
static void rdmablk_idev_update_state(struct rdmablk_idev *idev,
				      const char *why)
{
	struct rdmablk_ipath *paths[RDMABLK_MAX_PATHS];
	u32 states[RDMABLK_MAX_PATHS];
	s32 fail_tmo;
	u32 i, n, new;

	lockdep_assert_held(&idev->state_lock);
	n = rdmablk_idev_paths(idev, paths);
	for (i = 0; i < n; i++)
		states[i] = paths[i]->state;
	new = rdmablk_dev_state_of_paths(idev->state, states, n);
	if (new == idev->state)
		return;
	/*
	 * Through RECONNECTING, as the table wants: a device that gave up
	 * before it is live again, a live one before it gives up (its last
	 * live path removed while the others are dead).
	 */
	if ((idev->state == RDMABLK_DEV_DEAD && new == RDMABLK_DEV_LIVE) ||
	    (idev->state == RDMABLK_DEV_LIVE && new == RDMABLK_DEV_DEAD))
		__rdmablk_idev_change_state(idev, RDMABLK_DEV_RECONNECTING, why);
	if (!__rdmablk_idev_change_state(idev, new, why))
		return;
	if (new != RDMABLK_DEV_RECONNECTING) {
		cancel_delayed_work(&idev->fail_fast_work);
		return;
	}
	idev->lost_at = jiffies;
	/* No path is live: a flapping path held back is tried now. */
	for (i = 0; i < n; i++) {
		if (!paths[i]->held)
			continue;
		paths[i]->held = false;
		if (paths[i]->state == RDMABLK_DEV_RECONNECTING &&
		    delayed_work_pending(&paths[i]->reconnect_work))
			mod_delayed_work(rdmablk_wq, &paths[i]->reconnect_work, 0);
	}
	fail_tmo = READ_ONCE(idev->tmo.fast_io_fail_tmo);
	if (fail_tmo >= 0)
		queue_delayed_work(rdmablk_wq, &idev->fail_fast_work,
				   fail_tmo * HZ);
}

/*
 * Change a path's state if the table in state.c allows it; with @why,
 * also record why. The device's state follows. The caller holds
 * idev->state_lock. Return: whether the path's state changed.
 */
bool __rdmablk_ipath_change_state(struct rdmablk_ipath *path, u32 new,
				  const char *why)
{
	struct rdmablk_idev *idev = path->idev;

	lockdep_assert_held(&idev->state_lock);
	if (!rdmablk_dev_state_change_ok(path->state, new))
		return false;
	trace_rdmablk_dev_state(idev->name, path->id, path->state, new, why);
	path->state = new;
	if (why)
		strscpy(path->last_error, why, sizeof(path->last_error));
	rdmablk_idev_update_state(idev, why);
	return true;
}

static bool rdmablk_ipath_change_state(struct rdmablk_ipath *path, u32 new,
				       const char *why)
{
	unsigned long flags;
	bool changed;

	spin_lock_irqsave(&path->idev->state_lock, flags);
	changed = __rdmablk_ipath_change_state(path, new, why);
	spin_unlock_irqrestore(&path->idev->state_lock, flags);
	return changed;
}

/*
 * (Re-)arm one of a path's recovery works, only while the path is in
 * @state and the device is not being detached. Checked and queued under
 * state_lock, so once detach (or the path's removal) changed the state no
 * work is armed again and its cancel_*_sync() is final.
 *
 * One exception: a LIVE path's keep-alives while the device is being
 * detached. Detach leaves live paths up for the I/O in flight and
 * del_gendisk()'s writeback, which may take longer than the two
 * keep-alive timeouts after which the target drops a silent queue, and
 * that would fail the writeback. rdmablk_ipath_destroy() makes the path
 * DELETING before its final cancel.
 * @now: run at once even if already pending later.
 */
bool rdmablk_ipath_arm(struct rdmablk_ipath *path, struct delayed_work *dwork,
		       unsigned long delay, u32 state, bool now)
{
	struct rdmablk_idev *idev = path->idev;
	unsigned long flags;
	bool armed = false;

	spin_lock_irqsave(&idev->state_lock, flags);
	if (path->state == state &&
	    (idev->state != RDMABLK_DEV_DELETING ||
	     (dwork == &path->ka_work && state == RDMABLK_DEV_LIVE))) {
		if (now)
			mod_delayed_work(rdmablk_wq, dwork, 0);
		else
			queue_delayed_work(rdmablk_wq, dwork, delay);
		armed = true;
	}
	spin_unlock_irqrestore(&idev->state_lock, flags);
	return armed;
}

/*
 * The most attempts before ctrl_loss_tmo: one per reconnect_delay, plus
 * those made at once (a reset, RECONNECT, a port coming up). 0: no bound.
 */
u32 rdmablk_idev_max_attempts(const struct rdmablk_tmo *tmo, u32 extra)
{
	if (tmo->ctrl_loss_tmo < 0)
		return 0;
	return max_t(u32, 1, DIV_ROUND_UP(tmo->ctrl_loss_tmo,
					  tmo->reconnect_delay)) + extra;
}

/*
 * Try to reconnect a path now, outside the reconnect_delay schedule;
 * unless @force (RECONNECT), not a path held back for flapping, which a
 * port coming up (a link that flaps) does not hurry. Returns whether an
 * attempt was armed: false for a path that is not reconnecting, a device
 * being deleted, or a held path without @force.
 */
bool rdmablk_ipath_attempt_now(struct rdmablk_ipath *path, bool force)
{
	unsigned long flags;
	bool armed;

	spin_lock_irqsave(&path->idev->state_lock, flags);
	armed = path->state == RDMABLK_DEV_RECONNECTING &&
		path->idev->state != RDMABLK_DEV_DELETING &&
		(force || !path->held);
	if (armed) {
		path->held = false;
		path->extra_attempts++;
		mod_delayed_work(rdmablk_wq, &path->reconnect_work, 0);
	}
	spin_unlock_irqrestore(&path->idev->state_lock, flags);
	return armed;
}

/*
 * Arm a lost path's first reconnect attempt @hold from now, held back
 * (@hold longer than reconnect_delay, a flapping path) only while another
 * path is live: checked under state_lock, where losing the last live
 * path ends every hold (rdmablk_idev_update_state()).
 */
static void rdmablk_ipath_arm_reconnect(struct rdmablk_ipath *path,
					unsigned long hold)
{
	struct rdmablk_idev *idev = path->idev;
	unsigned long flags, delay;

	delay = READ_ONCE(idev->tmo.reconnect_delay) * HZ;
	spin_lock_irqsave(&idev->state_lock, flags);
	if (path->state == RDMABLK_DEV_RECONNECTING &&
	    idev->state != RDMABLK_DEV_DELETING) {
		if (idev->state != RDMABLK_DEV_LIVE)
			hold = delay;
		path->held = hold > delay;
		queue_delayed_work(rdmablk_wq, &path->reconnect_work, hold);
	}
	spin_unlock_irqrestore(&idev->state_lock, flags);
}

/*
 * @path, LIVE, lost its connection for @why: RECONNECTING, its err_work
 * to be queued by the caller. Under idev->state_lock. Return: true when
 * the state changed.
 */
static bool __rdmablk_ipath_lose_live(struct rdmablk_ipath *path,
				      const char *why)
{
	lockdep_assert_held(&path->idev->state_lock);
	if (!__rdmablk_ipath_change_state(path, RDMABLK_DEV_RECONNECTING, why))
		return false;
	path->lost_at = jiffies;
	/* A reset asked for (RECONNECT, a new keepalive_tmo) is no flap. */
	if (!test_bit(RDMABLK_IPATH_RESET, &path->flags))
		path->flaps = rdmablk_flaps_after_loss(path->flaps,
						       jiffies - path->live_at);
	path->attempt = 0;
	path->extra_attempts = 0;
	return true;
}

/**
 * rdmablk_ipath_conn_lost() - a queue of a path lost its connection
 * @path: the path
 * @why: what happened, for the log and the event; a constant string
 *
 * Any context. A live path starts recovering: its requests go to another
 * path. For a device being detached its in-flight I/O goes to another
 * live path, or fails (rdmablk_ipath_lost_detaching()); a path being
 * removed is torn down by its removal. A loss while the path's queues are
 * being connected (NEW, or RECONNECTING) is remembered for
 * rdmablk_ipath_go_live(), which the attempt ends with.
 */
void rdmablk_ipath_conn_lost(struct rdmablk_ipath *path, const char *why)
{
	struct rdmablk_idev *idev = path->idev;
	unsigned long flags;
	bool stop = false;

	spin_lock_irqsave(&idev->state_lock, flags);
	if (path->state == RDMABLK_DEV_DELETING) {
		/* Being removed: rdmablk_ipath_destroy() tears it down. */
	} else if (idev->state == RDMABLK_DEV_DELETING) {
		/*
		 * err_work hands its I/O on; the path stays as it is. The
		 * first reason is the one: the drain's flushed work requests
		 * report more. Only for a live path: an attempt connecting
		 * (NEW, RECONNECTING) ends at go_live's DELETING check.
		 */
		if (path->state == RDMABLK_DEV_LIVE && !path->lost_why) {
			path->lost_why = why;
			strscpy(path->last_error, why, sizeof(path->last_error));
		}
		stop = true;
	} else if (path->state == RDMABLK_DEV_LIVE &&
		   __rdmablk_ipath_lose_live(path, why)) {
		stop = true;
	} else if ((path->state == RDMABLK_DEV_NEW ||
		    path->state == RDMABLK_DEV_RECONNECTING) &&
		   !path->lost_why) {
		path->lost_why = why;
	}
	spin_unlock_irqrestore(&idev->state_lock, flags);
	if (stop)
		queue_work(rdmablk_wq, &path->err_work);
}

/**
 * rdmablk_idev_ka_roll() - reset the next path still held to an old
 *	keepalive_tmo, if that leaves a path live
 * @idev: the device
 *
 * The target holds a connection to the keep-alive interval it was made
 * with, so a new keepalive_tmo takes a new connection. The live paths
 * that still have the old one are reset one at a time, each while
 * another path is live, so that a disk with several paths keeps serving
 * I/O throughout: called when keepalive_tmo changes and whenever a path
 * becomes live. A disk with one path resets it at once (its I/O waits
 * for it, as after RECONNECT); the one live path of several waits until
 * another is live. Any context.
 */
void rdmablk_idev_ka_roll(struct rdmablk_idev *idev)
{
	struct rdmablk_ipath *paths[RDMABLK_MAX_PATHS];
	struct rdmablk_ipath *stale = NULL;
	u32 kato = READ_ONCE(idev->tmo.keepalive_tmo);
	u32 i, n, live = 0;
	unsigned long flags;

	spin_lock_irqsave(&idev->state_lock, flags);
	if (idev->state == RDMABLK_DEV_DELETING)
		goto out_unlock;
	n = rdmablk_idev_paths(idev, paths);
	for (i = 0; i < n; i++) {
		if (paths[i]->state != RDMABLK_DEV_LIVE)
			continue;
		live++;
		if (!stale && paths[i]->kato != kato)
			stale = paths[i];
	}
	if (!stale || (live < 2 && n > 1))
		goto out_unlock;
	set_bit(RDMABLK_IPATH_RESET, &stale->flags);
	/* Queued under the lock: a path leaves LIVE before it is removed. */
	if (__rdmablk_ipath_lose_live(stale, "keep-alive interval changed"))
		queue_work(rdmablk_wq, &stale->err_work);
out_unlock:
	spin_unlock_irqrestore(&idev->state_lock, flags);
}

/*
 * The queues of an attach, a new path or a reconnect attempt are
 * connected: make the path LIVE, unless one of them reported a loss
 * meanwhile (an answer that broke the rules right after OPEN, a
 * disconnect), which nothing acted on then: the attempt fails with that
 * reason (@why). Return: 0; -ECONNRESET for such a loss; -ENODEV when the
 * device is being detached or the path removed.
 */
int rdmablk_ipath_go_live(struct rdmablk_ipath *path, const char **why)
{
	struct rdmablk_idev *idev = path->idev;
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&idev->state_lock, flags);
	if (path->lost_why) {
		*why = path->lost_why;
		ret = -ECONNRESET;
	} else if (idev->state == RDMABLK_DEV_DELETING ||
		   !__rdmablk_ipath_change_state(path, RDMABLK_DEV_LIVE, NULL)) {
		ret = -ENODEV;
	} else {
		path->live_at = jiffies;
	}
	spin_unlock_irqrestore(&idev->state_lock, flags);
	return ret;
}

/* Before an attempt: losses of the queues torn down are not its own. */
static void rdmablk_ipath_forget_loss(struct rdmablk_ipath *path)
{
	unsigned long flags;

	spin_lock_irqsave(&path->idev->state_lock, flags);
	path->lost_why = NULL;
	spin_unlock_irqrestore(&path->idev->state_lock, flags);
}

struct rdmablk_cancel {
	struct rdmablk_ipath *path;
	bool requeue;
	u32 count;
};

/*
 * After a path's queues are stopped: requeue (to another path, or until
 * one is back) or fail what they got no answer for.
 */
static bool rdmablk_cancel_rq(struct request *rq, void *data)
{
	struct rdmablk_ireq *req = blk_mq_rq_to_pdu(rq);
	struct rdmablk_cancel *c = data;
	bool requeue = c->requeue;

	if (blk_mq_rq_state(rq) != MQ_RQ_IN_FLIGHT || !req->queue ||
	    req->queue->path != c->path)
		return true;
	/* The queue is stopped: no answer can come any more. */
	atomic_set(&req->arm, RDMABLK_ARM_IDLE);
	if (requeue && ++req->retries > RDMABLK_MAX_RETRIES) {
		pr_warn_ratelimited("%s: a command was sent %u times without an answer; failing it\n",
				    c->path->idev->name, req->retries);
		requeue = false;
	}
	/*
	 * Apart from the status, which only ever holds a status of the
	 * protocol (rdmablk_wire_status()).
	 */
	req->requeue = requeue;
	req->status = RDMABLK_S_IO_ERROR;
	c->count++;
	blk_mq_complete_request(rq);
	return true;
}

/*
 * Stop every queue of @path, then requeue (or fail) what is still
 * outstanding on them. Return: requests requeued or failed.
 */
static u32 rdmablk_ipath_stop_queues(struct rdmablk_ipath *path,
				     bool requeue)
{
	struct rdmablk_idev *idev = path->idev;
	struct rdmablk_cancel c = { .path = path, .requeue = requeue };
	u32 i;

	lockdep_assert_held(&path->recovery_lock);
	for (i = 0; path->queues && i < idev->nr_queues; i++)
		rdmablk_iqueue_stop(&path->queues[i]);
	if (idev->tag_set.tags) {
		blk_mq_tagset_busy_iter(&idev->tag_set, rdmablk_cancel_rq, &c);
		blk_mq_tagset_wait_completed_request(&idev->tag_set);
	}
	return c.count;
}

/*
 * Whether a queue of @path has @flag: holds verbs resources (ALLOCATED),
 * or is connected and not stopped (LIVE). Under recovery_lock.
 */
static bool rdmablk_ipath_any_queue(struct rdmablk_ipath *path, int flag)
{
	u32 i;

	lockdep_assert_held(&path->recovery_lock);
	for (i = 0; path->queues && i < path->idev->nr_queues; i++)
		if (test_bit(flag, &path->queues[i].flags))
			return true;
	return false;
}

void rdmablk_ipath_free_queues(struct rdmablk_ipath *path)
{
	u32 i;

	for (i = 0; path->queues && i < path->idev->nr_queues; i++)
		rdmablk_iqueue_free(&path->queues[i]);
}

/*
 * The request queue is quiesced (quiesced set) while no path is live, so
 * that I/O waits for one; quiesced and fail_fast change under
 * quiesce_lock, which a path's recovery_lock holders take inside it:
 * fail_fast_work takes quiesce_lock alone, so that fast_io_fail_tmo is
 * kept while a reconnect attempt holds recovery_lock for as long as its
 * connect takes (up to the CM's timeouts when the target is unreachable).
 *
 * Not once del_gendisk() made the queue dying: it waits for the I/O in
 * flight, which must go to a live path or fail then, not wait for one.
 */
static void __rdmablk_idev_quiesce(struct rdmablk_idev *idev)
{
	lockdep_assert_held(&idev->quiesce_lock);
	if (!idev->quiesced && idev->disk &&
	    !blk_queue_dying(idev->disk->queue)) {
		blk_mq_quiesce_queue(idev->disk->queue);
		idev->quiesced = true;
	}
}

static void __rdmablk_idev_unquiesce(struct rdmablk_idev *idev)
{
	lockdep_assert_held(&idev->quiesce_lock);
	if (idev->quiesced) {
		blk_mq_unquiesce_queue(idev->disk->queue);
		idev->quiesced = false;
	}
	if (idev->disk)
		blk_mq_kick_requeue_list(idev->disk->queue);
}

/* I/O waits for a path: none is live, one reconnects, and not failing. */
static bool rdmablk_idev_io_waits(struct rdmablk_idev *idev)
{
	lockdep_assert_held(&idev->quiesce_lock);
	return !idev->fail_fast &&
	       rdmablk_idev_state(idev) == RDMABLK_DEV_RECONNECTING;
}

/*
 * rdmablk_idev_quiesce_unless_failing() - hold I/O until a path is live,
 * while the device reconnects: not when a path is live (I/O goes there),
 * nor when fast_io_fail_tmo expired or every path gave up (I/O fails).
 * Checked and done under quiesce_lock, against fail_fast_work and a path
 * coming up.
 */
void rdmablk_idev_quiesce_unless_failing(struct rdmablk_idev *idev)
{
	mutex_lock(&idev->quiesce_lock);
	if (rdmablk_idev_io_waits(idev))
		__rdmablk_idev_quiesce(idev);
	mutex_unlock(&idev->quiesce_lock);
}

void rdmablk_idev_unquiesce(struct rdmablk_idev *idev)
{
	mutex_lock(&idev->quiesce_lock);
	__rdmablk_idev_unquiesce(idev);
	mutex_unlock(&idev->quiesce_lock);
}

/**
 * rdmablk_ipath_revive() - RECONNECT on a path that gave up
 * @path: the path
 *
 * A DEAD path reconnects again, its timeouts counted from now. A device
 * that had given up (every path DEAD) counts fast_io_fail_tmo from now
 * too: becoming RECONNECTING arms fail_fast_work again, and an expiry of
 * before is forgotten, so that its I/O waits for a path again instead of
 * failing at once. Under quiesce_lock, so that fail_fast_work (a
 * fast_io_fail_tmo of 0 runs at once) decides after this.
 * Context: process, under @path's recovery_lock.
 */
void rdmablk_ipath_revive(struct rdmablk_ipath *path)
{
	struct rdmablk_idev *idev = path->idev;
	unsigned long flags;
	bool dev_dead;

	lockdep_assert_held(&path->recovery_lock);
	mutex_lock(&idev->quiesce_lock);
	spin_lock_irqsave(&idev->state_lock, flags);
	dev_dead = idev->state == RDMABLK_DEV_DEAD;
	if (path->state == RDMABLK_DEV_DEAD &&
	    __rdmablk_ipath_change_state(path, RDMABLK_DEV_RECONNECTING, NULL)) {
		path->lost_at = jiffies;
		path->attempt = 0;
		path->extra_attempts = 0;
		if (dev_dead)
			WRITE_ONCE(idev->fail_fast, false);
	}
	spin_unlock_irqrestore(&idev->state_lock, flags);
	/* A device that gave up was unquiesced to fail I/O. */
	if (rdmablk_idev_io_waits(idev))
		__rdmablk_idev_quiesce(idev);
	mutex_unlock(&idev->quiesce_lock);
}

/**
 * rdmablk_idev_path_live() - a path became live: I/O flows again
 * @idev: the device
 *
 * Process context, after rdmablk_ipath_go_live(). fast_io_fail_tmo no
 * longer applies, and what waited for a live path is sent. Under
 * quiesce_lock, against fail_fast_work and the loss of another path.
 */
void rdmablk_idev_path_live(struct rdmablk_idev *idev)
{
	mutex_lock(&idev->quiesce_lock);
	if (rdmablk_idev_state(idev) == RDMABLK_DEV_LIVE) {
		WRITE_ONCE(idev->fail_fast, false);
		__rdmablk_idev_unquiesce(idev);
	}
	mutex_unlock(&idev->quiesce_lock);
}

/**
 * rdmablk_ipath_teardown() - take every queue of a path down; shared by
 *	err_work, RDMA device removal, path removal and detach
 * @path: the path
 * @requeue: the I/O it got no answer for is sent again, on another live
 *	path at once or once one is back (recovery); else it fails (detach)
 *
 * Quiesces the request queue for the while (blk_mq_quiesce_queue() waits
 * for a dispatch in progress: none posts on a queue being freed, and
 * none that starts later picks a path that is not live), stops the
 * path's queues (disconnect, drain: none of their completions runs
 * afterwards), cancels its keep-alive, completes what got no answer,
 * waits for those completions, and frees the queues' verbs resources.
 * With no live path left, recovery leaves I/O waiting for one, unless
 * fast_io_fail_tmo expired; detach unquiesces, so that what waits fails
 * (the device is DELETING) and del_gendisk() can drain. Idempotent; the
 * caller holds the path's recovery_lock.
 */
void rdmablk_ipath_teardown(struct rdmablk_ipath *path, bool requeue)
{
	struct rdmablk_idev *idev = path->idev;
	struct request_queue *q = NULL;
	u32 moved;

	lockdep_assert_held(&path->recovery_lock);
	/*
	 * Even once del_gendisk() made the queue dying: it dispatches until
	 * the I/O it waits for is done. Quiesces nest (quiesce_depth).
	 */
	if (idev->disk) {
		q = idev->disk->queue;
		blk_mq_quiesce_queue(q);
	}
	moved = rdmablk_ipath_stop_queues(path, requeue);
	cancel_delayed_work(&path->ka_work);
	rdmablk_ipath_free_queues(path);
	if (requeue && moved) {
		WRITE_ONCE(path->failovers, path->failovers + 1);
		WRITE_ONCE(path->failover_at, jiffies ?: 1);
	}
	mutex_lock(&idev->quiesce_lock);
	if (requeue && rdmablk_idev_io_waits(idev))
		__rdmablk_idev_quiesce(idev);
	else if (idev->quiesced)
		__rdmablk_idev_unquiesce(idev);
	mutex_unlock(&idev->quiesce_lock);
	if (q) {
		blk_mq_unquiesce_queue(q);
		/* What was requeued goes to a live path now. */
		blk_mq_kick_requeue_list(q);
	}
}

/*
 * A path lost while its device is being detached (before del_gendisk() or
 * during it). Detach waits for the I/O in flight, the writeback of a disk
 * held open among it: what this path got no answer for is sent again on
 * another live path, and fails if there is none (iblk.c's queue_rq for
 * DELETING), so that the wait ends either way. No reconnect: a DELETING
 * device makes none, and the path stays LIVE with its queues stopped (not
 * chosen: rdmablk_idev_select_path()) until detach tears it down.
 *
 * Quiesced for the while, as in rdmablk_ipath_teardown(): a dispatch that
 * picked this path posts before its queues stop, not on a drained one;
 * later ones pick another path. del_gendisk() has made the queue dying by
 * now, or is about to, and dispatches until what it waits for is done.
 * Context: err_work, under the path's recovery_lock.
 */
static void rdmablk_ipath_lost_detaching(struct rdmablk_ipath *path)
{
	struct rdmablk_idev *idev = path->idev;
	unsigned long flags;
	const char *why;
	u32 moved;

	lockdep_assert_held(&path->recovery_lock);
	spin_lock_irqsave(&idev->state_lock, flags);
	why = path->lost_why ?: "lost";
	path->lost_why = NULL;
	spin_unlock_irqrestore(&idev->state_lock, flags);
	/* Stopped already: by an earlier run, or by the teardown. */
	if (rdmablk_ipath_any_queue(path, RDMABLK_IQ_LIVE)) {
		if (idev->disk)
			blk_mq_quiesce_queue(idev->disk->queue);
		moved = rdmablk_ipath_stop_queues(path, true);
		if (idev->disk)
			blk_mq_unquiesce_queue(idev->disk->queue);
		pr_warn("%s: path %u to %pISpc lost while detaching (%s); %u commands without an answer go to another live path, or fail if none is left\n",
			idev->name, path->id, &path->addr, why, moved);
	}
	/*
	 * The requests requeued above, and one whose post failed (put back
	 * unkicked), are sent again now, or del_gendisk() would wait for
	 * them for ever.
	 */
	if (idev->disk)
		blk_mq_kick_requeue_list(idev->disk->queue);
}

void rdmablk_ipath_err_work(struct work_struct *work)
{
	struct rdmablk_ipath *path = container_of(work, struct rdmablk_ipath,
						  err_work);
	struct rdmablk_idev *idev = path->idev;
	char why[RDMABLK_ERROR_LEN];
	unsigned long flags, delay, hold;
	bool dev_down, reset;
	s32 loss_tmo;
	u32 flaps;

	mutex_lock(&path->recovery_lock);
	if (rdmablk_idev_state(idev) == RDMABLK_DEV_DELETING) {
		rdmablk_ipath_lost_detaching(path);
		goto out_unlock;
	}
	if (rdmablk_ipath_state(path) != RDMABLK_DEV_RECONNECTING) {
		/*
		 * A reconnect came first (RECONNECT again, a port coming up):
		 * the reset this was for is over, and the path's next loss is
		 * a loss, counted as a flap.
		 */
		clear_bit(RDMABLK_IPATH_RESET, &path->flags);
		goto out_unlock;
	}

	spin_lock_irqsave(&idev->state_lock, flags);
	strscpy(why, path->last_error, sizeof(why));
	dev_down = idev->state != RDMABLK_DEV_LIVE;
	flaps = path->flaps;
	spin_unlock_irqrestore(&idev->state_lock, flags);
	reset = test_bit(RDMABLK_IPATH_RESET, &path->flags);
	/*
	 * A stable path tries again at once, a reset too; a path that
	 * keeps falling soon after it came up waits, and longer while
	 * other paths carry the I/O (rdmablk_first_attempt_hold()).
	 */
	delay = READ_ONCE(idev->tmo.reconnect_delay) * HZ;
	loss_tmo = READ_ONCE(idev->tmo.ctrl_loss_tmo);
	hold = reset ? 0 :
	       rdmablk_first_attempt_hold(delay, flaps, !dev_down,
					  loss_tmo < 0 ? ULONG_MAX :
					  (unsigned long)loss_tmo * HZ);
	if (dev_down)
		pr_warn("%s: connection to %pISpc lost (%s); reconnecting every %u s%s\n",
			idev->name, &path->addr, why,
			READ_ONCE(idev->tmo.reconnect_delay),
			hold ? "" : ", the first attempt now");
	else if (hold > delay)
		pr_warn("%s: path %u to %pISpc lost (%s) soon after it came up, %u%s times in a row; its I/O goes to the other paths, next attempt in %lu s\n",
			idev->name, path->id, &path->addr, why, flaps,
			flaps >= RDMABLK_FLAPS_MAX ? " or more" : "", hold / HZ);
	else
		pr_warn("%s: path %u to %pISpc lost (%s); its I/O goes to the other paths, reconnecting every %u s%s\n",
			idev->name, path->id, &path->addr, why,
			READ_ONCE(idev->tmo.reconnect_delay),
			hold ? "" : ", the first attempt now");

	rdmablk_ipath_teardown(path, true);

	/*
	 * An attempt made at once counts on top of the reconnect_delay
	 * schedule's (rdmablk_idev_max_attempts()).
	 */
	if (test_and_clear_bit(RDMABLK_IPATH_RESET, &path->flags))
		rdmablk_ipath_attempt_now(path, true);
	else if (!hold)
		rdmablk_ipath_attempt_now(path, false);
	else
		rdmablk_ipath_arm_reconnect(path, hold);
	rdmablk_idev_event(idev, RDMABLK_EVENT_PATH_FAILOVER, path, why);
	if (dev_down)
		rdmablk_idev_event(idev, RDMABLK_EVENT_DEVICE_STATE, NULL, why);
out_unlock:
	mutex_unlock(&path->recovery_lock);
}

void rdmablk_idev_fail_fast_work(struct work_struct *work)
{
	struct rdmablk_idev *idev = container_of(to_delayed_work(work),
						 struct rdmablk_idev,
						 fail_fast_work);

	/*
	 * Not a recovery_lock: a reconnect attempt holds its path's while it
	 * connects. A path that comes up makes the device LIVE before it
	 * clears fail_fast under quiesce_lock, so whichever of the two takes
	 * the lock last decides, and a LIVE device never keeps fail_fast.
	 */
	mutex_lock(&idev->quiesce_lock);
	if (rdmablk_idev_state(idev) == RDMABLK_DEV_RECONNECTING) {
		pr_warn("%s: fast_io_fail_tmo expired; failing I/O while reconnecting\n",
			idev->name);
		WRITE_ONCE(idev->fail_fast, true);
		__rdmablk_idev_unquiesce(idev);
	}
	mutex_unlock(&idev->quiesce_lock);
}

void rdmablk_ipath_ka_work(struct work_struct *work)
{
	struct rdmablk_ipath *path = container_of(to_delayed_work(work),
						  struct rdmablk_ipath, ka_work);
	u32 kato = READ_ONCE(path->kato);
	u32 i;
	int ret;

	/* Recovery frees queues under this lock; hold it while sending. */
	mutex_lock(&path->recovery_lock);
	if (rdmablk_ipath_state(path) != RDMABLK_DEV_LIVE)
		goto out_unlock;
	for (i = 0; i < path->idev->nr_queues; i++) {
		ret = rdmablk_iqueue_keepalive(&path->queues[i], kato * HZ);
		if (ret) {
			rdmablk_ipath_conn_lost(path, ret == -ETIMEDOUT ?
						"keep-alive timeout" :
						"cannot send a keep-alive");
			goto out_unlock;
		}
	}
	/* A loss is noticed within 1.25 timeouts (rdmablk_ka_check()). */
	rdmablk_ipath_arm(path, &path->ka_work, rdmablk_ka_interval(kato),
			  RDMABLK_DEV_LIVE, false);
out_unlock:
	mutex_unlock(&path->recovery_lock);
}

/*
 * While the queues of a path connect (attach, a new path, a reconnect
 * attempt), keep those already open (0 to @n - 1) proven alive, as
 * ka_work does once the path is live: the target drops a queue silent
 * for twice the keep-alive interval, and connecting many queues to a slow
 * or distant target takes longer than that. Only the thread connecting
 * the queues sends here; ka_work sends nothing before the path is LIVE.
 */
static int rdmablk_ipath_keep_open_alive(struct rdmablk_ipath *path, u32 n,
					 struct netlink_ext_ack *extack)
{
	unsigned long kato = path->kato * HZ;
	u32 i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = rdmablk_iqueue_keepalive(&path->queues[i], kato);
		if (ret == -ETIMEDOUT) {
			NL_SET_ERR_MSG(extack,
				       "a connected queue stopped answering keep-alives while the others connected");
			return ret;
		}
		if (ret) {
			NL_SET_ERR_MSG(extack, "cannot send a keep-alive");
			return ret;
		}
	}
	return 0;
}

/*
 * Connect and open queue @i of @path. With @learn (the first queue of a
 * new attachment) the device takes its limits from what the target
 * granted; otherwise the queue must grant at least the device's I/O size
 * and, but for queue 0, name the same export (UUID, size) as queue 0, and
 * fewer credits than the device's limit what is sent on it. Then the
 * queues before it are kept alive.
 */
static int rdmablk_ipath_connect_queue(struct rdmablk_ipath *path, u32 i,
				       bool learn,
				       struct netlink_ext_ack *extack)
{
	struct rdmablk_idev *idev = path->idev;
	struct rdmablk_iqueue *q = &path->queues[i];
	u32 fr_pages, pages;
	int ret;

	/* Every queue of the path with one interval, the one queue 0 took. */
	if (!i)
		WRITE_ONCE(path->kato, READ_ONCE(idev->tmo.keepalive_tmo));
	down_read(&idev->key_sem);
	ret = rdmablk_iqueue_connect(q, path->want_qd, path->kato * 1000,
				     extack);
	if (!ret && idev->key.hmac)
		ret = rdmablk_iqueue_auth(q, extack);
	if (!ret)
		ret = rdmablk_iqueue_open(q, extack);
	up_read(&idev->key_sem);
	if (ret)
		return ret;
	/* The disk's limits are whole FRWR pages. */
	if (q->params.max_io_size % SZ_4K) {
		NL_SET_ERR_MSG(extack, "the target's max_io_size is not a multiple of 4 KiB");
		return -EPROTO;
	}
	/* One page more than the size: a buffer need not start on a page. */
	fr_pages = q->dev->attrs.max_fast_reg_page_list_len;
	if (fr_pages < 2) {
		NL_SET_ERR_MSG(extack, "the RDMA device cannot register memory");
		return -EOPNOTSUPP;
	}
	if (learn) {
		idev->info = q->open_info;
		idev->queue_depth = q->params.queue_depth - 1;
		path->want_qd = q->params.queue_depth;
		idev->max_io_size = min_t(u32, q->params.max_io_size,
					  (fr_pages - 1) * SZ_4K);
	} else if (q->params.max_io_size < idev->max_io_size) {
		/* The disk's limits were set from the first connect. */
		NL_SET_ERR_MSG(extack, "the target's I/O size limits are below the device's");
		return -EPROTO;
	}
	/*
	 * Fewer credits than at attach (the target's max_send_wr lowered, a
	 * device with a smaller max_qp_wr behind another path): the disk's
	 * tags stay, and queue_rq keeps this queue within the grant. Said
	 * for the first queue with such a grant, and where it changes.
	 */
	if (q->credits < idev->queue_depth &&
	    (!i || path->queues[i - 1].credits != q->credits))
		pr_warn("%s: path %u to %pISpc: the target grants %u commands in flight a queue, fewer than the %u of the device; no more are sent on it\n",
			idev->name, path->id, &path->addr, q->credits,
			idev->queue_depth);
	pages = idev->max_io_size / SZ_4K + 1;
	if (pages > fr_pages) {
		NL_SET_ERR_MSG(extack, "the RDMA device cannot register max_io_size");
		return -EOPNOTSUPP;
	}
	if (i && (memcmp(q->open_info.uuid, path->queues[0].open_info.uuid,
			 RDMABLK_UUID_SIZE) ||
		  q->open_info.size != path->queues[0].open_info.size)) {
		NL_SET_ERR_MSG(extack, "the target's queues disagree about the export");
		return -EPROTO;
	}
	ret = rdmablk_iqueue_init_mrs(q, pages);
	if (ret)
		return ret;
	return rdmablk_ipath_keep_open_alive(path, i, extack);
}

/*
 * Whether the export behind a path's connected queues is the device's:
 * the same UUID, block size and read-only setting; with @same_size, the
 * same size too (a new path; a reconnect may find it resized). Return:
 * NULL, or what differs.
 */
static const char *rdmablk_ipath_differs(struct rdmablk_ipath *path,
					 bool same_size)
{
	const struct rdmablk_open_info *info = &path->queues[0].open_info;
	const struct rdmablk_open_info *want = &path->idev->info;

	if (memcmp(info->uuid, want->uuid, RDMABLK_UUID_SIZE))
		return "a different export (other UUID) is behind this name now";
	if ((info->flags ^ want->flags) & RDMABLK_EXP_READ_ONLY ||
	    info->logical_block_size != want->logical_block_size)
		return "the export changed its block size or read-only setting";
	if (same_size && info->size != want->size)
		return "the export has another size behind this path";
	return NULL;
}

/**
 * rdmablk_ipath_connect() - connect every queue of a new path
 * @path: the path, NEW, with no queues yet
 * @learn: the device's first path (attach): the device takes its queue
 *	count and limits from it, within what @req asks for
 * @req: with @learn, the ATTACH request
 * @extack: where a failure is explained
 *
 * The interrupt-driven queues come first, then the polled ones; when the
 * target of the first path accepts fewer queues than asked for, the
 * polled ones go first (as nvme-rdma's poll queues get what the default
 * ones leave). Every later path has as many queues as the device, of
 * the same kinds, and leads to the same export.
 *
 * Return: 0, or a negative errno with @extack set; the caller frees the
 * queues either way.
 */
int rdmablk_ipath_connect(struct rdmablk_ipath *path, bool learn,
			  const struct rdmablk_attach_req *req,
			  struct netlink_ext_ack *extack)
{
	struct rdmablk_idev *idev = path->idev;
	struct rdmablk_iqueue *queues;
	const char *why;
	u32 i, want, poll;
	int ret;

	if (learn) {
		/* At most RDMABLK_MAX_QUEUES together (nl_parse.c checked). */
		poll = req->nr_poll_queues;
		want = req->nr_queues ? req->nr_queues : num_online_cpus();
		want = min_t(u32, want, RDMABLK_MAX_QUEUES - poll);
		/* One credit more than the tags: the keep-alive's. */
		path->want_qd = min_t(u32, req->queue_depth + 1, U16_MAX);
		idev->max_io_size = RDMABLK_MAX_IO_SIZE;
	} else {
		poll = idev->nr_poll_queues;
		want = idev->nr_queues - poll;
		path->want_qd = idev->queue_depth + 1;
	}
	queues = kcalloc(want + poll, sizeof(*queues), GFP_KERNEL);
	if (!queues)
		return -ENOMEM;
	for (i = 0; i < want + poll; i++) {
		queues[i].idev = idev;
		queues[i].path = path;
		queues[i].qid = i;
		queues[i].polled = i >= want;
		/* Once: a dispatcher may take them while the queue reconnects. */
		spin_lock_init(&queues[i].poll_lock);
		spin_lock_init(&queues[i].post_lock);
		spin_lock_init(&queues[i].hold_lock);
		spin_lock_init(&queues[i].stale_lock);
	}
	/* The path is linked: readers (reports, pollers) may look already. */
	smp_store_release(&path->queues, queues);
	if (learn)
		idev->nr_queues = 1;

	ret = rdmablk_ipath_connect_queue(path, 0, learn, extack);
	if (ret)
		return ret;
	if (learn) {
		want = min_t(u32, want, path->queues[0].params.max_queues);
		poll = min_t(u32, poll,
			     path->queues[0].params.max_queues - want);
		/* The polled queues move down behind the interrupt-driven ones. */
		for (i = 0; i < want + poll; i++)
			path->queues[i].polled = i >= want;
		idev->nr_poll_queues = poll;
	} else {
		if (path->queues[0].params.max_queues < want + poll) {
			NL_SET_ERR_MSG(extack,
				       "the target accepts fewer queues than the device has");
			return -EPROTO;
		}
		why = rdmablk_ipath_differs(path, true);
		if (why) {
			NL_SET_ERR_MSG(extack,
				       "the path leads to another export, or one of another size or block size");
			return -ESTALE;
		}
	}
	for (i = 1; i < want + poll; i++) {
		if (learn)
			idev->nr_queues = i + 1;
		ret = rdmablk_ipath_connect_queue(path, i, false, extack);
		if (ret)
			return ret;
	}
	return 0;
}

/* Reconnect attempt: every queue again, and the same export behind it. */
static int rdmablk_ipath_reconnect_queues(struct rdmablk_ipath *path,
					  const char **why)
{
	struct netlink_ext_ack extack = {};
	u32 i;
	int ret;

	for (i = 0; i < path->idev->nr_queues; i++) {
		ret = rdmablk_ipath_connect_queue(path, i, false, &extack);
		if (ret) {
			*why = extack._msg ?: "cannot connect";
			return ret;
		}
	}
	*why = rdmablk_ipath_differs(path, false);
	return *why ? -ESTALE : 0;
}

static void rdmablk_idev_resize(struct rdmablk_idev *idev, u64 size)
{
	pr_info("%s: export %s resized from %llu to %llu bytes\n", idev->name,
		idev->export_name, idev->info.size, size);
	idev->info.size = size;
	set_capacity_and_notify(idev->disk, size >> SECTOR_SHIFT);
	rdmablk_idev_event(idev, RDMABLK_EVENT_DEVICE_RESIZED, NULL,
			   "export resized");
}

static void rdmablk_ipath_give_up(struct rdmablk_ipath *path, const char *why)
{
	struct rdmablk_idev *idev = path->idev;

	lockdep_assert_held(&path->recovery_lock);
	if (!rdmablk_ipath_change_state(path, RDMABLK_DEV_DEAD, why))
		return;	/* being detached or removed */
	pr_err("%s: giving up on path %u to %s at %pISpc: %s\n", idev->name,
	       path->id, idev->export_name, &path->addr, why);
	rdmablk_idev_event(idev, RDMABLK_EVENT_PATH_STATE, path, why);
	if (rdmablk_idev_state(idev) != RDMABLK_DEV_DEAD)
		return;
	pr_err("%s: no path left; I/O fails until detached or reconnected\n",
	       idev->name);
	rdmablk_idev_unquiesce(idev);
	rdmablk_idev_event(idev, RDMABLK_EVENT_DEVICE_STATE, NULL, why);
}

void rdmablk_ipath_reconnect_work(struct work_struct *work)
{
	struct rdmablk_ipath *path = container_of(to_delayed_work(work),
						  struct rdmablk_ipath,
						  reconnect_work);
	struct rdmablk_idev *idev = path->idev;
	const char *why = NULL;
	unsigned long flags, lost_at;
	u32 attempt, max;
	bool was_down;
	s32 loss_tmo;
	int ret;

	mutex_lock(&path->recovery_lock);
	if (rdmablk_ipath_state(path) != RDMABLK_DEV_RECONNECTING)
		goto out_unlock;

	spin_lock_irqsave(&idev->state_lock, flags);
	path->held = false;
	attempt = ++path->attempt;
	lost_at = path->lost_at;
	max = rdmablk_idev_max_attempts(&idev->tmo, path->extra_attempts);
	spin_unlock_irqrestore(&idev->state_lock, flags);

	/*
	 * Asked to try at once (RECONNECT, a port coming up) before err_work
	 * took the queues of the loss down: do that first.
	 */
	if (rdmablk_ipath_any_queue(path, RDMABLK_IQ_ALLOCATED))
		rdmablk_ipath_teardown(path, true);
	rdmablk_ipath_forget_loss(path);
	ret = rdmablk_ipath_reconnect_queues(path, &why);
	was_down = rdmablk_idev_state(idev) != RDMABLK_DEV_LIVE;
	if (!ret) {
		ret = rdmablk_ipath_go_live(path, &why);
		/*
		 * Detach or removal began meanwhile: it takes the queues
		 * down. Only go_live's -ENODEV says so; connecting fails
		 * with it too (a netdev going away under route resolution),
		 * and that is a failed attempt like any other.
		 */
		if (ret == -ENODEV)
			goto out_unlock;
	}
	trace_rdmablk_reconnect(idev->name, path->id, attempt, max, ret, why);
	if (ret == -ESTALE) {
		rdmablk_ipath_free_queues(path);
		rdmablk_ipath_give_up(path, why);
		goto out_unlock;
	}
	if (ret) {
		rdmablk_ipath_free_queues(path);
		spin_lock_irqsave(&idev->state_lock, flags);
		strscpy(path->last_error, why, sizeof(path->last_error));
		spin_unlock_irqrestore(&idev->state_lock, flags);
		/*
		 * Logged before the give-up below: an attempt that outlasted
		 * ctrl_loss_tmo failed too, and its reason is the last word
		 * on why the path was given up.
		 */
		if (max)
			pr_info("%s: reconnect attempt %u of %u failed on path %u: %s (%pe)\n",
				idev->name, attempt, max, path->id, why,
				ERR_PTR(ret));
		else
			pr_info("%s: reconnect attempt %u failed on path %u: %s (%pe)\n",
				idev->name, attempt, path->id, why,
				ERR_PTR(ret));
		loss_tmo = READ_ONCE(idev->tmo.ctrl_loss_tmo);
		if (loss_tmo >= 0 &&
		    time_after_eq(jiffies, lost_at + (unsigned long)loss_tmo * HZ)) {
			rdmablk_ipath_give_up(path, "ctrl_loss_tmo expired");
			goto out_unlock;
		}
		rdmablk_ipath_arm(path, &path->reconnect_work,
				  READ_ONCE(idev->tmo.reconnect_delay) * HZ,
				  RDMABLK_DEV_RECONNECTING, false);
		rdmablk_idev_event(idev, RDMABLK_EVENT_PATH_STATE, path, why);
		if (was_down)
			rdmablk_idev_event(idev, RDMABLK_EVENT_DEVICE_STATE,
					   NULL, why);
		goto out_unlock;
	}

	WRITE_ONCE(path->reconnects, path->reconnects + 1);
	if (path->queues[0].open_info.size != idev->info.size)
		rdmablk_idev_resize(idev, path->queues[0].open_info.size);
	rdmablk_idev_path_live(idev);
	rdmablk_ipath_arm(path, &path->ka_work, rdmablk_ka_interval(path->kato),
			  RDMABLK_DEV_LIVE, false);
	pr_info("%s: reconnected to %pISpc (path %u) after %u attempt%s\n",
		idev->name, &path->addr, path->id, attempt,
		attempt == 1 ? "" : "s");
	rdmablk_idev_event(idev, RDMABLK_EVENT_PATH_STATE, path, "reconnected");
	if (was_down)
		rdmablk_idev_event(idev, RDMABLK_EVENT_DEVICE_STATE, NULL,
				   "reconnected");
	/* A path live again may let the next one take a new keepalive_tmo. */
	rdmablk_idev_ka_roll(idev);
out_unlock:
	mutex_unlock(&path->recovery_lock);
}
