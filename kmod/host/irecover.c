// SPDX-License-Identifier: GPL-2.0
/*
 * Initiator devices: recovery. A lost connection takes the queues down
 * (err_work), reconnect_work tries again every reconnect_delay until
 * ctrl_loss_tmo, fail_fast_work fails queued I/O at fast_io_fail_tmo,
 * ka_work notices a silent target; every state change goes through the
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

/*
 * Change the state if the table in state.c allows it; with @why, also
 * record why. The caller holds @idev->state_lock. Return: whether the
 * state changed.
 */
bool __rdmablk_idev_change_state(struct rdmablk_idev *idev, u32 new,
				 const char *why)
{
	lockdep_assert_held(&idev->state_lock);
	if (!rdmablk_dev_state_change_ok(idev->state, new))
		return false;
	trace_rdmablk_dev_state(idev->name, idev->state, new, why);
	idev->state = new;
	if (why)
		strscpy(idev->last_error, why, sizeof(idev->last_error));
	return true;
}

static bool rdmablk_idev_change_state(struct rdmablk_idev *idev, u32 new,
				      const char *why)
{
	unsigned long flags;
	bool changed;

	spin_lock_irqsave(&idev->state_lock, flags);
	changed = __rdmablk_idev_change_state(idev, new, why);
	spin_unlock_irqrestore(&idev->state_lock, flags);
	return changed;
}

/*
 * (Re-)arm one of the recovery works, only while the device is in @state.
 * Checked and queued under state_lock, so once detach made the device
 * DELETING no work is armed again and its cancel_*_sync() is final.
 * @now: run at once even if already pending later.
 */
bool rdmablk_idev_arm(struct rdmablk_idev *idev,
		      struct delayed_work *dwork, unsigned long delay,
		      u32 state, bool now)
{
	unsigned long flags;
	bool armed = false;

	spin_lock_irqsave(&idev->state_lock, flags);
	if (idev->state == state) {
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

/* Try to reconnect now, outside the reconnect_delay schedule. */
void rdmablk_idev_attempt_now(struct rdmablk_idev *idev)
{
	unsigned long flags;

	spin_lock_irqsave(&idev->state_lock, flags);
	if (idev->state == RDMABLK_DEV_RECONNECTING) {
		idev->extra_attempts++;
		mod_delayed_work(rdmablk_wq, &idev->reconnect_work, 0);
	}
	spin_unlock_irqrestore(&idev->state_lock, flags);
}

/**
 * rdmablk_idev_conn_lost() - a queue lost its connection
 * @idev: the device
 * @why: what happened, for the log and the event; a constant string
 *
 * Any context. A live device starts recovering; for one being detached,
 * the in-flight I/O is failed rather than waited for. A loss while the
 * queues are being connected (NEW, or RECONNECTING) is remembered for
 * rdmablk_idev_go_live(), which the attempt ends with.
 */
void rdmablk_idev_conn_lost(struct rdmablk_idev *idev, const char *why)
{
	unsigned long flags;
	bool stop = false;

	spin_lock_irqsave(&idev->state_lock, flags);
	if (idev->state == RDMABLK_DEV_LIVE &&
	    __rdmablk_idev_change_state(idev, RDMABLK_DEV_RECONNECTING, why)) {
		idev->lost_at = jiffies;
		idev->attempt = 0;
		idev->extra_attempts = 0;
		stop = true;
	} else if (idev->state == RDMABLK_DEV_DELETING) {
		stop = true;
	} else if ((idev->state == RDMABLK_DEV_NEW ||
		    idev->state == RDMABLK_DEV_RECONNECTING) && !idev->lost_why) {
		idev->lost_why = why;
	}
	spin_unlock_irqrestore(&idev->state_lock, flags);
	if (stop)
		queue_work(rdmablk_wq, &idev->err_work);
}

/*
 * The queues of an attach or a reconnect attempt are connected: make the
 * device LIVE, unless one of them reported a loss meanwhile (an answer
 * that broke the rules right after OPEN, a disconnect), which nothing
 * acted on then: the attempt fails with that reason (@why). Return: 0;
 * -ECONNRESET for such a loss; -ENODEV when the device is being detached.
 */
int rdmablk_idev_go_live(struct rdmablk_idev *idev, const char **why)
{
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&idev->state_lock, flags);
	if (idev->lost_why) {
		*why = idev->lost_why;
		ret = -ECONNRESET;
	} else if (!__rdmablk_idev_change_state(idev, RDMABLK_DEV_LIVE, NULL)) {
		ret = -ENODEV;
	}
	spin_unlock_irqrestore(&idev->state_lock, flags);
	return ret;
}

/* Before an attempt: losses of the queues torn down are not its own. */
static void rdmablk_idev_forget_loss(struct rdmablk_idev *idev)
{
	unsigned long flags;

	spin_lock_irqsave(&idev->state_lock, flags);
	idev->lost_why = NULL;
	spin_unlock_irqrestore(&idev->state_lock, flags);
}

/* After the queues are stopped: requeue or fail what got no response. */
static bool rdmablk_cancel_rq(struct request *rq, void *data)
{
	struct rdmablk_ireq *req = blk_mq_rq_to_pdu(rq);
	bool requeue = *(bool *)data;

	if (blk_mq_rq_state(rq) != MQ_RQ_IN_FLIGHT)
		return true;
	/* The queue is stopped: no answer can come any more. */
	atomic_set(&req->arm, RDMABLK_ARM_IDLE);
	if (requeue && ++req->retries > RDMABLK_MAX_RETRIES) {
		pr_warn_ratelimited("%s: a command was sent %u times without an answer; failing it\n",
				    req->queue->idev->name, req->retries);
		requeue = false;
	}
	/*
	 * Apart from the status, which only ever holds a status of the
	 * protocol (rdmablk_wire_status()).
	 */
	req->requeue = requeue;
	req->status = RDMABLK_S_IO_ERROR;
	blk_mq_complete_request(rq);
	return true;
}

/* Stop every queue, then requeue (or fail) what is still outstanding. */
static void rdmablk_idev_stop_queues(struct rdmablk_idev *idev, bool requeue)
{
	u32 i;

	lockdep_assert_held(&idev->recovery_lock);
	for (i = 0; i < idev->nr_queues; i++)
		rdmablk_iqueue_stop(&idev->queues[i]);
	if (idev->tag_set.tags) {
		blk_mq_tagset_busy_iter(&idev->tag_set, rdmablk_cancel_rq,
					&requeue);
		blk_mq_tagset_wait_completed_request(&idev->tag_set);
	}
}

void rdmablk_idev_free_queues(struct rdmablk_idev *idev)
{
	u32 i;

	for (i = 0; idev->queues && i < idev->nr_queues; i++)
		rdmablk_iqueue_free(&idev->queues[i]);
}

/*
 * Quiescing is under quiesce_lock, which recovery_lock's holders take inside
 * it: fail_fast_work takes quiesce_lock alone, so that fast_io_fail_tmo is
 * kept while a reconnect attempt holds recovery_lock for as long as its
 * connect takes (up to the CM's timeouts when the target is unreachable).
 *
 * Not once del_gendisk() made the queue dying: nothing dispatches then.
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
	blk_mq_kick_requeue_list(idev->disk->queue);
}

void rdmablk_idev_quiesce(struct rdmablk_idev *idev)
{
	mutex_lock(&idev->quiesce_lock);
	__rdmablk_idev_quiesce(idev);
	mutex_unlock(&idev->quiesce_lock);
}

/*
 * rdmablk_idev_quiesce_unless_failing() - quiesce for a reconnect, unless
 * fast_io_fail_tmo expired (then I/O keeps failing while it reconnects).
 * Checked and done under quiesce_lock, against fail_fast_work.
 */
void rdmablk_idev_quiesce_unless_failing(struct rdmablk_idev *idev)
{
	mutex_lock(&idev->quiesce_lock);
	if (!idev->fail_fast)
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
 * rdmablk_idev_teardown() - take every queue down; shared by err_work,
 *	RDMA device removal and detach
 * @idev: the device
 * @requeue: the I/O that got no answer is sent again after a reconnect
 *	(recovery); else it fails (detach)
 *
 * Quiesces the request queue (blk_mq_quiesce_queue() waits for a dispatch
 * in progress: none posts on a queue being freed), stops every queue
 * (disconnect, drain: none of its completions runs afterwards), cancels
 * the keep-alive, completes what got no answer, waits for those
 * completions, and frees the queues' verbs resources. Recovery leaves new
 * I/O waiting for the reconnect, unless fast_io_fail_tmo expired; detach
 * unquiesces, so that what waits fails (the device is DELETING) and
 * del_gendisk() can drain. Idempotent; the caller holds recovery_lock.
 */
void rdmablk_idev_teardown(struct rdmablk_idev *idev, bool requeue)
{
	lockdep_assert_held(&idev->recovery_lock);
	rdmablk_idev_quiesce(idev);
	rdmablk_idev_stop_queues(idev, requeue);
	cancel_delayed_work(&idev->ka_work);
	rdmablk_idev_free_queues(idev);
	mutex_lock(&idev->quiesce_lock);
	if ((!requeue || idev->fail_fast) && idev->quiesced)
		__rdmablk_idev_unquiesce(idev);
	mutex_unlock(&idev->quiesce_lock);
}

void rdmablk_idev_err_work(struct work_struct *work)
{
	struct rdmablk_idev *idev = container_of(work, struct rdmablk_idev,
						 err_work);
	char why[RDMABLK_ERROR_LEN];
	unsigned long flags;
	s32 fail_tmo;

	mutex_lock(&idev->recovery_lock);
	if (rdmablk_idev_state(idev) == RDMABLK_DEV_DELETING) {
		/* Detach waits for in-flight I/O: fail it instead. */
		rdmablk_idev_stop_queues(idev, false);
		goto out_unlock;
	}
	if (rdmablk_idev_state(idev) != RDMABLK_DEV_RECONNECTING)
		goto out_unlock;

	spin_lock_irqsave(&idev->state_lock, flags);
	strscpy(why, idev->last_error, sizeof(why));
	spin_unlock_irqrestore(&idev->state_lock, flags);
	pr_warn("%s: connection to %pISpc lost (%s); reconnecting every %u s\n",
		idev->name, &idev->addr, why,
		READ_ONCE(idev->tmo.reconnect_delay));

	rdmablk_idev_teardown(idev, true);

	fail_tmo = READ_ONCE(idev->tmo.fast_io_fail_tmo);
	if (fail_tmo >= 0)
		rdmablk_idev_arm(idev, &idev->fail_fast_work, fail_tmo * HZ,
				 RDMABLK_DEV_RECONNECTING, false);
	if (test_and_clear_bit(RDMABLK_IDEV_RESET, &idev->flags))
		rdmablk_idev_attempt_now(idev);
	else
		rdmablk_idev_arm(idev, &idev->reconnect_work,
				 READ_ONCE(idev->tmo.reconnect_delay) * HZ,
				 RDMABLK_DEV_RECONNECTING, false);
	rdmablk_idev_event(idev, RDMABLK_EVENT_DEVICE_STATE, why);
out_unlock:
	mutex_unlock(&idev->recovery_lock);
}

void rdmablk_idev_fail_fast_work(struct work_struct *work)
{
	struct rdmablk_idev *idev = container_of(to_delayed_work(work),
						 struct rdmablk_idev,
						 fail_fast_work);

	/*
	 * Not recovery_lock: a reconnect attempt holds it while it connects.
	 * A reconnect that succeeds makes the device LIVE before it clears
	 * fail_fast under quiesce_lock, so whichever of the two takes the
	 * lock last decides, and a LIVE device never keeps fail_fast.
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

void rdmablk_idev_ka_work(struct work_struct *work)
{
	struct rdmablk_idev *idev = container_of(to_delayed_work(work),
						 struct rdmablk_idev, ka_work);
	u32 kato = READ_ONCE(idev->tmo.keepalive_tmo);
	u32 i;
	int ret;

	/* Recovery frees queues under this lock; hold it while sending. */
	mutex_lock(&idev->recovery_lock);
	if (rdmablk_idev_state(idev) != RDMABLK_DEV_LIVE)
		goto out_unlock;
	for (i = 0; i < idev->nr_queues; i++) {
		ret = rdmablk_iqueue_keepalive(&idev->queues[i], kato * HZ);
		if (ret) {
			rdmablk_idev_conn_lost(idev, ret == -ETIMEDOUT ?
					       "keep-alive timeout" :
					       "cannot send a keep-alive");
			goto out_unlock;
		}
	}
	/* Look twice per interval: a loss is noticed within 1.5 intervals. */
	rdmablk_idev_arm(idev, &idev->ka_work, kato * HZ / 2, RDMABLK_DEV_LIVE,
			 false);
out_unlock:
	mutex_unlock(&idev->recovery_lock);
}

/*
 * While the queues of an attach or a reconnect attempt connect, keep those
 * already open (0 to @n - 1) proven alive, as ka_work does once the
 * device is live: the target drops a queue silent for twice the keep-alive
 * interval, and connecting many queues to a slow or distant target takes
 * longer than that. Only the thread connecting the queues sends here;
 * ka_work sends nothing before the device is LIVE.
 */
static int rdmablk_idev_keep_open_alive(struct rdmablk_idev *idev, u32 n,
					struct netlink_ext_ack *extack)
{
	unsigned long kato = READ_ONCE(idev->tmo.keepalive_tmo) * HZ;
	u32 i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = rdmablk_iqueue_keepalive(&idev->queues[i], kato);
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
 * Connect and open queue @i. With @learn (the first queue of a new
 * attachment) the device takes its limits from what the target granted;
 * otherwise the queue must grant at least the device's credits and, but
 * for queue 0, name the same export (UUID, size) as queue 0. Then the
 * queues before it are kept alive.
 */
static int rdmablk_idev_connect_queue(struct rdmablk_idev *idev, u32 i,
				      bool learn, struct netlink_ext_ack *extack)
{
	struct rdmablk_iqueue *q = &idev->queues[i];
	u32 fr_pages, pages;
	int ret;

	ret = rdmablk_iqueue_connect(q, idev->want_qd,
				     READ_ONCE(idev->tmo.keepalive_tmo) * 1000,
				     extack);
	if (ret)
		return ret;
	if (idev->key.hmac) {
		ret = rdmablk_iqueue_auth(q, extack);
		if (ret)
			return ret;
	}
	ret = rdmablk_iqueue_open(q, extack);
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
		idev->want_qd = q->params.queue_depth;
		idev->max_io_size = min_t(u32, q->params.max_io_size,
					  (fr_pages - 1) * SZ_4K);
		idev->inline_max = q->params.inline_max;
	} else if (q->params.queue_depth - 1 < idev->queue_depth) {
		NL_SET_ERR_MSG(extack, "the target grants fewer credits than the device uses");
		return -EPROTO;
	} else if (q->params.max_io_size < idev->max_io_size ||
		   q->params.inline_max < idev->inline_max) {
		/* The disk's limits were set from the first connect. */
		NL_SET_ERR_MSG(extack, "the target's I/O size limits shrank");
		return -EPROTO;
	}
	pages = idev->max_io_size / SZ_4K + 1;
	if (pages > fr_pages) {
		NL_SET_ERR_MSG(extack, "the RDMA device cannot register max_io_size");
		return -EOPNOTSUPP;
	}
	if (i && (memcmp(q->open_info.uuid, idev->queues[0].open_info.uuid,
			 RDMABLK_UUID_SIZE) ||
		  q->open_info.size != idev->queues[0].open_info.size)) {
		NL_SET_ERR_MSG(extack, "the target's queues disagree about the export");
		return -EPROTO;
	}
	ret = rdmablk_iqueue_init_mrs(q, pages);
	if (ret)
		return ret;
	return rdmablk_idev_keep_open_alive(idev, i, extack);
}

/*
 * First connection: connect every queue and learn the limits. The
 * interrupt-driven queues come first, then the polled ones; when the
 * target accepts fewer queues than asked for, the polled ones go first
 * (as nvme-rdma's poll queues get what the default ones leave).
 */
int rdmablk_idev_connect(struct rdmablk_idev *idev,
			 const struct rdmablk_attach_req *req,
			 struct netlink_ext_ack *extack)
{
	struct rdmablk_iqueue *q0;
	u32 i, want, poll;
	int ret;

	/* At most RDMABLK_MAX_QUEUES together (nl_parse.c checked). */
	poll = req->nr_poll_queues;
	want = req->nr_queues ? req->nr_queues : num_online_cpus();
	want = min_t(u32, want, RDMABLK_MAX_QUEUES - poll);
	idev->queues = kcalloc(want + poll, sizeof(*idev->queues), GFP_KERNEL);
	if (!idev->queues)
		return -ENOMEM;
	for (i = 0; i < want + poll; i++) {
		idev->queues[i].idev = idev;
		idev->queues[i].qid = i;
		idev->queues[i].polled = i >= want;
		spin_lock_init(&idev->queues[i].poll_lock);
	}

	/* One credit more than the tags: the keep-alive's. */
	idev->want_qd = min_t(u32, req->queue_depth + 1, U16_MAX);
	idev->max_io_size = RDMABLK_MAX_IO_SIZE;
	q0 = &idev->queues[0];
	idev->nr_queues = 1;
	ret = rdmablk_idev_connect_queue(idev, 0, true, extack);
	if (ret)
		return ret;

	want = min_t(u32, want, q0->params.max_queues);
	poll = min_t(u32, poll, q0->params.max_queues - want);
	/* The polled queues move down behind the interrupt-driven ones. */
	for (i = 0; i < poll; i++)
		idev->queues[want + i].polled = true;
	idev->nr_poll_queues = poll;
	for (i = 1; i < want + poll; i++) {
		idev->nr_queues = i + 1;
		ret = rdmablk_idev_connect_queue(idev, i, false, extack);
		if (ret)
			return ret;
	}
	return 0;
}

/* Reconnect attempt: every queue again, and the same export behind it. */
static int rdmablk_idev_reconnect_queues(struct rdmablk_idev *idev,
					 const char **why)
{
	struct rdmablk_open_info *info = &idev->queues[0].open_info;
	struct netlink_ext_ack extack = {};
	u32 i;
	int ret;

	for (i = 0; i < idev->nr_queues; i++) {
		ret = rdmablk_idev_connect_queue(idev, i, false, &extack);
		if (ret) {
			*why = extack._msg ?: "cannot connect";
			return ret;
		}
	}
	if (memcmp(info->uuid, idev->info.uuid, RDMABLK_UUID_SIZE)) {
		*why = "a different export (other UUID) is behind this name now";
		return -ESTALE;
	}
	if ((info->flags ^ idev->info.flags) & RDMABLK_EXP_READ_ONLY ||
	    info->logical_block_size != idev->info.logical_block_size) {
		*why = "the export changed its block size or read-only setting";
		return -ESTALE;
	}
	return 0;
}

static void rdmablk_idev_resize(struct rdmablk_idev *idev, u64 size)
{
	pr_info("%s: export %s resized from %llu to %llu bytes\n", idev->name,
		idev->export_name, idev->info.size, size);
	idev->info.size = size;
	set_capacity_and_notify(idev->disk, size >> SECTOR_SHIFT);
	rdmablk_idev_event(idev, RDMABLK_EVENT_DEVICE_RESIZED, "export resized");
}

static void rdmablk_idev_give_up(struct rdmablk_idev *idev, const char *why)
{
	lockdep_assert_held(&idev->recovery_lock);
	if (!rdmablk_idev_change_state(idev, RDMABLK_DEV_DEAD, why))
		return;	/* being detached */
	cancel_delayed_work(&idev->fail_fast_work);
	pr_err("%s: giving up on %s at %pISpc: %s; I/O fails until detached or reconnected\n",
	       idev->name, idev->export_name, &idev->addr, why);
	rdmablk_idev_unquiesce(idev);
	rdmablk_idev_event(idev, RDMABLK_EVENT_DEVICE_STATE, why);
}

void rdmablk_idev_reconnect_work(struct work_struct *work)
{
	struct rdmablk_idev *idev = container_of(to_delayed_work(work),
						 struct rdmablk_idev,
						 reconnect_work);
	const char *why = NULL;
	unsigned long flags, lost_at;
	u32 attempt, max;
	s32 loss_tmo;
	int ret;

	mutex_lock(&idev->recovery_lock);
	if (rdmablk_idev_state(idev) != RDMABLK_DEV_RECONNECTING)
		goto out_unlock;

	spin_lock_irqsave(&idev->state_lock, flags);
	attempt = ++idev->attempt;
	lost_at = idev->lost_at;
	max = rdmablk_idev_max_attempts(&idev->tmo, idev->extra_attempts);
	spin_unlock_irqrestore(&idev->state_lock, flags);

	rdmablk_idev_forget_loss(idev);
	ret = rdmablk_idev_reconnect_queues(idev, &why);
	/* Detach may have begun meanwhile: it takes the queues down. */
	if (!ret)
		ret = rdmablk_idev_go_live(idev, &why);
	if (ret == -ENODEV)
		goto out_unlock;
	trace_rdmablk_reconnect(idev->name, attempt, max, ret, why);
	if (ret == -ESTALE) {
		rdmablk_idev_free_queues(idev);
		rdmablk_idev_give_up(idev, why);
		goto out_unlock;
	}
	if (ret) {
		rdmablk_idev_free_queues(idev);
		spin_lock_irqsave(&idev->state_lock, flags);
		strscpy(idev->last_error, why, sizeof(idev->last_error));
		spin_unlock_irqrestore(&idev->state_lock, flags);
		loss_tmo = READ_ONCE(idev->tmo.ctrl_loss_tmo);
		if (loss_tmo >= 0 &&
		    time_after_eq(jiffies, lost_at + (unsigned long)loss_tmo * HZ)) {
			rdmablk_idev_give_up(idev, "ctrl_loss_tmo expired");
			goto out_unlock;
		}
		if (max)
			pr_info("%s: reconnect attempt %u of %u failed: %s (%pe)\n",
				idev->name, attempt, max, why, ERR_PTR(ret));
		else
			pr_info("%s: reconnect attempt %u failed: %s (%pe)\n",
				idev->name, attempt, why, ERR_PTR(ret));
		rdmablk_idev_arm(idev, &idev->reconnect_work,
				 READ_ONCE(idev->tmo.reconnect_delay) * HZ,
				 RDMABLK_DEV_RECONNECTING, false);
		rdmablk_idev_event(idev, RDMABLK_EVENT_DEVICE_STATE, why);
		goto out_unlock;
	}

	WRITE_ONCE(idev->reconnects, idev->reconnects + 1);
	if (idev->queues[0].open_info.size != idev->info.size)
		rdmablk_idev_resize(idev, idev->queues[0].open_info.size);
	cancel_delayed_work(&idev->fail_fast_work);
	mutex_lock(&idev->quiesce_lock);
	WRITE_ONCE(idev->fail_fast, false);
	__rdmablk_idev_unquiesce(idev);
	mutex_unlock(&idev->quiesce_lock);
	rdmablk_idev_arm(idev, &idev->ka_work,
			 READ_ONCE(idev->tmo.keepalive_tmo) * HZ / 2,
			 RDMABLK_DEV_LIVE, false);
	pr_info("%s: reconnected to %pISpc after %u attempt%s\n", idev->name,
		&idev->addr, attempt, attempt == 1 ? "" : "s");
	rdmablk_idev_event(idev, RDMABLK_EVENT_DEVICE_STATE, "reconnected");
out_unlock:
	mutex_unlock(&idev->recovery_lock);
}
