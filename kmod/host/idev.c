// SPDX-License-Identifier: GPL-2.0
/*
 * Initiator devices: an attached export as the blk-mq disk /dev/rdmablkN,
 * and its recovery when the connection is lost.
 *
 * States (enum rdmablk_dev_state), changed only through the table of
 * state.c (rdmablk_dev_state_change_ok()):
 *
 *   attach (NEW) --> LIVE --(loss)--> RECONNECTING --(attempt ok)--> LIVE
 *                                   |  fast_io_fail_tmo: I/O fails, retrying goes on
 *                                   +--(ctrl_loss_tmo, or another export
 *                                   |   behind the name)--> DEAD: I/O fails
 *              DEAD --(RECONNECT command)--> RECONNECTING
 *   any --(detach)--> DELETING, terminal
 *
 * On a loss err_work takes the queues down with rdmablk_idev_teardown()
 * (quiesce, stop and drain, requeue what got no answer, free);
 * reconnect_work then tries every reconnect_delay. A successful attempt
 * checks the export's UUID (a different export behind the same name is
 * never written to) and size (a resize resizes the disk), and restarts the
 * queue: the requeued requests are sent again. The works are (re-)armed
 * only through rdmablk_idev_arm(), which checks the state they need under
 * state_lock.
 *
 * Locking and lifetime:
 *  - rdmablk_idevs_lock (mutex) protects rdmablk_idevs. Held across
 *    attach's lookup and insertion, not across connecting, so a slow
 *    target does not block other requests; a device being attached is
 *    listed (without a disk) so it cannot be attached twice.
 *  - idev->state_lock (spinlock, irq-safe: losses are noticed in
 *    completion context) protects state, lost_at, attempt, last_error.
 *  - idev->recovery_lock (mutex) serialises err_work, reconnect_work,
 *    fail_fast_work, the RECONNECT command and teardown, and protects what
 *    they change: the queues' connections, quiesced, fail_fast.
 *    Lookups find a device only once it is RDMABLK_IDEV_ATTACHED, which
 *    attach sets under this lock as its last step.
 *  - Attach connects the queues (state NEW), makes the device LIVE and
 *    returns; add_work adds the disk, whose partition read is I/O like any
 *    other: the ATTACH request never waits for the target's answers.
 *  - Detach marks the device DELETING (after which no work is armed),
 *    cancels the recovery works, fails I/O if the device is not live or
 *    its disk is still being added, waits for add_work, removes the disk
 *    (waiting for in-flight I/O), then tears the queues down with the same
 *    helper as recovery and frees the device.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blk-mq.h>
#include <linux/idr.h>
#include <linux/moduleparam.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <linux/uuid.h>
#include <rdma/ib_verbs.h>

#include "initiator.h"
#include "../trace.h"

static LIST_HEAD(rdmablk_idevs);
static DEFINE_MUTEX(rdmablk_idevs_lock);
static DEFINE_IDA(rdmablk_index_ida);
static int rdmablk_major;

/*
 * Seconds an answer may take before the connection counts as lost (the
 * blk-mq timeout), for disks attached from then on, as nvme_core's
 * io_timeout; /sys/block/rdmablkN/queue/io_timeout changes one disk. The
 * partition read of an attach is bound by it too.
 */
static unsigned int rdmablk_io_timeout = 30;

static int rdmablk_param_set_io_timeout(const char *val,
					const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 1, 3600);
}

static const struct kernel_param_ops rdmablk_io_timeout_ops = {
	.set = rdmablk_param_set_io_timeout,
	.get = param_get_uint,
};
module_param_cb(io_timeout, &rdmablk_io_timeout_ops, &rdmablk_io_timeout, 0644);
MODULE_PARM_DESC(io_timeout,
		 "Seconds before an unanswered command counts as a lost connection, 1-3600 (default 30); for disks attached afterwards");

static u32 rdmablk_idev_state(struct rdmablk_idev *idev)
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
static bool __rdmablk_idev_change_state(struct rdmablk_idev *idev, u32 new,
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
static bool rdmablk_idev_arm(struct rdmablk_idev *idev,
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
static u32 rdmablk_idev_max_attempts(const struct rdmablk_tmo *tmo, u32 extra)
{
	if (tmo->ctrl_loss_tmo < 0)
		return 0;
	return max_t(u32, 1, DIV_ROUND_UP(tmo->ctrl_loss_tmo,
					  tmo->reconnect_delay)) + extra;
}

/* Try to reconnect now, outside the reconnect_delay schedule. */
static void rdmablk_idev_attempt_now(struct rdmablk_idev *idev)
{
	unsigned long flags;

	spin_lock_irqsave(&idev->state_lock, flags);
	if (idev->state == RDMABLK_DEV_RECONNECTING) {
		idev->extra_attempts++;
		mod_delayed_work(rdmablk_wq, &idev->reconnect_work, 0);
	}
	spin_unlock_irqrestore(&idev->state_lock, flags);
}

static void rdmablk_idev_snapshot(struct rdmablk_idev *idev,
				  struct rdmablk_dev_info *info)
{
	unsigned long flags, when;
	u32 i;

	info->index = idev->index;
	strscpy(info->name, idev->name, sizeof(info->name));
	info->addr = idev->addr;
	strscpy(info->export_name, idev->export_name,
		sizeof(info->export_name));
	info->info = idev->info;
	info->nr_queues = idev->nr_queues;
	info->queue_depth = idev->queue_depth;
	info->tmo.reconnect_delay = READ_ONCE(idev->tmo.reconnect_delay);
	info->tmo.ctrl_loss_tmo = READ_ONCE(idev->tmo.ctrl_loss_tmo);
	info->tmo.fast_io_fail_tmo = READ_ONCE(idev->tmo.fast_io_fail_tmo);
	info->tmo.keepalive_tmo = READ_ONCE(idev->tmo.keepalive_tmo);
	spin_lock_irqsave(&idev->state_lock, flags);
	info->max_attempts = rdmablk_idev_max_attempts(&info->tmo,
						       idev->extra_attempts);
	info->state = idev->state;
	info->attempt = idev->attempt;
	strscpy(info->last_error, idev->last_error, sizeof(info->last_error));
	spin_unlock_irqrestore(&idev->state_lock, flags);
	info->reconnects = READ_ONCE(idev->reconnects);

	info->next_attempt_ms = 0;
	if (info->state == RDMABLK_DEV_RECONNECTING &&
	    delayed_work_pending(&idev->reconnect_work)) {
		when = READ_ONCE(idev->reconnect_work.timer.expires);
		if (time_after(when, jiffies))
			info->next_attempt_ms = jiffies_to_msecs(when - jiffies);
	}

	for (i = 0; i < idev->nr_queues && i < RDMABLK_MAX_QUEUES; i++) {
		struct rdmablk_iqueue *q = &idev->queues[i];

		info->queue[i].state = test_bit(RDMABLK_IQ_LIVE, &q->flags) ?
				       RDMABLK_QUEUE_LIVE : RDMABLK_QUEUE_DOWN;
		rdmablk_iqueue_stats_read(q, &info->queue[i]);
	}
}

static void rdmablk_idev_event(struct rdmablk_idev *idev,
			       enum rdmablk_event event, const char *reason)
{
	struct rdmablk_dev_info *info;

	info = kmalloc(sizeof(*info), GFP_KERNEL);
	if (!info)
		return;
	rdmablk_idev_snapshot(idev, info);
	rdmablk_nl_event_dev(event, info, reason);
	kfree(info);
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
static int rdmablk_idev_go_live(struct rdmablk_idev *idev, const char **why)
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

static void rdmablk_idev_free_queues(struct rdmablk_idev *idev)
{
	u32 i;

	for (i = 0; idev->queues && i < idev->nr_queues; i++)
		rdmablk_iqueue_free(&idev->queues[i]);
}

/* Not once del_gendisk() made the queue dying: nothing dispatches then. */
static void rdmablk_idev_quiesce(struct rdmablk_idev *idev)
{
	lockdep_assert_held(&idev->recovery_lock);
	if (!idev->quiesced && idev->disk &&
	    !blk_queue_dying(idev->disk->queue)) {
		blk_mq_quiesce_queue(idev->disk->queue);
		idev->quiesced = true;
	}
}

static void rdmablk_idev_unquiesce(struct rdmablk_idev *idev)
{
	lockdep_assert_held(&idev->recovery_lock);
	if (idev->quiesced) {
		blk_mq_unquiesce_queue(idev->disk->queue);
		idev->quiesced = false;
	}
	blk_mq_kick_requeue_list(idev->disk->queue);
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
static void rdmablk_idev_teardown(struct rdmablk_idev *idev, bool requeue)
{
	lockdep_assert_held(&idev->recovery_lock);
	rdmablk_idev_quiesce(idev);
	rdmablk_idev_stop_queues(idev, requeue);
	cancel_delayed_work(&idev->ka_work);
	rdmablk_idev_free_queues(idev);
	if ((!requeue || READ_ONCE(idev->fail_fast)) && idev->quiesced)
		rdmablk_idev_unquiesce(idev);
}

static void rdmablk_idev_err_work(struct work_struct *work)
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

static void rdmablk_idev_fail_fast_work(struct work_struct *work)
{
	struct rdmablk_idev *idev = container_of(to_delayed_work(work),
						 struct rdmablk_idev,
						 fail_fast_work);

	mutex_lock(&idev->recovery_lock);
	if (rdmablk_idev_state(idev) == RDMABLK_DEV_RECONNECTING) {
		pr_warn("%s: fast_io_fail_tmo expired; failing I/O while reconnecting\n",
			idev->name);
		WRITE_ONCE(idev->fail_fast, true);
		rdmablk_idev_unquiesce(idev);
	}
	mutex_unlock(&idev->recovery_lock);
}

static void rdmablk_idev_ka_work(struct work_struct *work)
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
 * Connect and open queue @i. With @learn (the first queue of a new
 * attachment) the device takes its limits from what the target granted;
 * otherwise the queue must grant at least the device's credits and, but
 * for queue 0, name the same export (UUID, size) as queue 0.
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
	return rdmablk_iqueue_init_mrs(q, pages);
}

/* First connection: connect every queue and learn the limits. */
static int rdmablk_idev_connect(struct rdmablk_idev *idev,
				const struct rdmablk_attach_req *req,
				struct netlink_ext_ack *extack)
{
	struct rdmablk_iqueue *q0;
	u32 i, want;
	int ret;

	want = req->nr_queues ? req->nr_queues : num_online_cpus();
	want = min_t(u32, want, RDMABLK_MAX_QUEUES);
	idev->queues = kcalloc(want, sizeof(*idev->queues), GFP_KERNEL);
	if (!idev->queues)
		return -ENOMEM;
	for (i = 0; i < want; i++) {
		idev->queues[i].idev = idev;
		idev->queues[i].qid = i;
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
	for (i = 1; i < want; i++) {
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

static void rdmablk_idev_reconnect_work(struct work_struct *work)
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
	WRITE_ONCE(idev->fail_fast, false);
	cancel_delayed_work(&idev->fail_fast_work);
	rdmablk_idev_unquiesce(idev);
	rdmablk_idev_arm(idev, &idev->ka_work,
			 READ_ONCE(idev->tmo.keepalive_tmo) * HZ / 2,
			 RDMABLK_DEV_LIVE, false);
	pr_info("%s: reconnected to %pISpc after %u attempt%s\n", idev->name,
		&idev->addr, attempt, attempt == 1 ? "" : "s");
	rdmablk_idev_event(idev, RDMABLK_EVENT_DEVICE_STATE, "reconnected");
out_unlock:
	mutex_unlock(&idev->recovery_lock);
}

static blk_status_t rdmablk_queue_rq(struct blk_mq_hw_ctx *hctx,
				     const struct blk_mq_queue_data *bd)
{
	struct rdmablk_iqueue *queue = hctx->driver_data;
	struct rdmablk_idev *idev = queue->idev;
	struct request *rq = bd->rq;
	struct rdmablk_ireq *req = blk_mq_rq_to_pdu(rq);
	blk_status_t sts;

	switch (rdmablk_idev_state(idev)) {
	case RDMABLK_DEV_LIVE:
		break;
	case RDMABLK_DEV_RECONNECTING:
		/* Quiesced while reconnecting, unless I/O is to fail fast. */
		if (!READ_ONCE(idev->fail_fast))
			return BLK_STS_RESOURCE;
		return BLK_STS_IOERR;
	default:
		return BLK_STS_IOERR;
	}
	if (unlikely(!test_bit(RDMABLK_IQ_LIVE, &queue->flags)))
		return BLK_STS_RESOURCE;

	/* A new request, not one sent again: its retries start at 0. */
	if (!(rq->rq_flags & RQF_DONTPREP)) {
		req->retries = 0;
		rq->rq_flags |= RQF_DONTPREP;
	}
	rdmablk_ireq_reset(rq);
	blk_mq_start_request(rq);
	sts = rdmablk_iqueue_submit(queue, rq);
	if (unlikely(sts == BLK_STS_IOERR)) {
		rdmablk_idev_conn_lost(idev, "cannot post a command");
		if (++req->retries > RDMABLK_MAX_RETRIES)
			return BLK_STS_IOERR;
		/* Not sent: the request goes back with the others. */
		atomic64_inc(&queue->stats.requeued);
		blk_mq_requeue_request(rq, false);
		return BLK_STS_OK;
	}
	return sts;
}

/*
 * Count a request that ends on @queue (or is put back, @requeue) and trace
 * it. Latency is measured from blk-mq's time stamp, which it takes unless
 * the disk's iostats are off.
 */
static void rdmablk_account_rq(struct rdmablk_iqueue *queue,
			       struct request *rq, bool requeue)
{
	struct rdmablk_iqueue_stats *st = &queue->stats;
	struct rdmablk_ireq *req = blk_mq_rq_to_pdu(rq);
	u64 latency = 0;

	if (rq->start_time_ns)
		latency = ktime_get_ns() - rq->start_time_ns;
	trace_rdmablk_cmd_complete(queue->idev->name, queue->qid, rq->tag,
				   req->gen, req->status, requeue, latency);
	if (requeue) {
		atomic64_inc(&st->requeued);
		return;
	}
	atomic64_inc(&st->completed);
	atomic64_add(latency, &st->latency_ns);
	if (req->status != RDMABLK_S_OK)
		atomic64_inc(&st->errors);
	else if (req_op(rq) == REQ_OP_READ)
		atomic64_add(blk_rq_bytes(rq), &st->read_bytes);
	else if (req_op(rq) == REQ_OP_WRITE)
		atomic64_add(blk_rq_bytes(rq), &st->write_bytes);
}

static void rdmablk_complete_rq(struct request *rq)
{
	struct rdmablk_ireq *req = blk_mq_rq_to_pdu(rq);

	rdmablk_ireq_unmap(rq);
	if (req->queue)
		rdmablk_account_rq(req->queue, rq, req->requeue);
	if (req->requeue) {
		req->requeue = false;
		blk_mq_requeue_request(rq, false);
		return;
	}
	blk_mq_end_request(rq, rdmablk_status_to_blk(req->status));
}

static enum blk_eh_timer_return rdmablk_timeout(struct request *rq)
{
	struct rdmablk_ireq *req = blk_mq_rq_to_pdu(rq);

	pr_warn_ratelimited("%s: command timed out; treating the connection as lost\n",
			    req->queue->idev->name);
	/* err_work requeues this request once the queues are stopped. */
	rdmablk_idev_conn_lost(req->queue->idev, "command timed out");
	return BLK_EH_RESET_TIMER;
}

static int rdmablk_init_hctx(struct blk_mq_hw_ctx *hctx, void *data,
			     unsigned int hctx_idx)
{
	struct rdmablk_idev *idev = data;

	hctx->driver_data = &idev->queues[hctx_idx];
	return 0;
}

static int rdmablk_init_request(struct blk_mq_tag_set *set, struct request *rq,
				unsigned int hctx_idx, unsigned int numa_node)
{
	struct rdmablk_ireq *req = blk_mq_rq_to_pdu(rq);

	req->cmd = kzalloc_node(sizeof(*req->cmd), GFP_KERNEL, numa_node);
	if (!req->cmd)
		return -ENOMEM;
	/* Not guessable by a target that never received the command. */
	req->gen = get_random_u16();
	return 0;
}

static void rdmablk_exit_request(struct blk_mq_tag_set *set, struct request *rq,
				 unsigned int hctx_idx)
{
	struct rdmablk_ireq *req = blk_mq_rq_to_pdu(rq);

	kfree(req->cmd);
}

static const struct blk_mq_ops rdmablk_mq_ops = {
	.queue_rq = rdmablk_queue_rq,
	.complete = rdmablk_complete_rq,
	.timeout = rdmablk_timeout,
	.init_hctx = rdmablk_init_hctx,
	.init_request = rdmablk_init_request,
	.exit_request = rdmablk_exit_request,
};

static const struct block_device_operations rdmablk_bdev_ops = {
	.owner = THIS_MODULE,
};

static void rdmablk_idev_set_limits(struct rdmablk_idev *idev)
{
	struct request_queue *q = idev->disk->queue;
	const struct rdmablk_open_info *info = &idev->info;
	u32 max_zero = min_t(u32, info->max_discard_sectors,
			     UINT_MAX >> SECTOR_SHIFT);

	blk_queue_logical_block_size(q, info->logical_block_size);
	blk_queue_physical_block_size(q, info->physical_block_size);
	blk_queue_io_min(q, info->physical_block_size);
	blk_queue_max_hw_sectors(q, idev->max_io_size >> SECTOR_SHIFT);
	blk_queue_max_segments(q, idev->max_io_size / SZ_4K);
	/* Each segment must be a whole number of FRWR pages but the ends. */
	blk_queue_virt_boundary(q, SZ_4K - 1);
	blk_queue_write_cache(q, info->flags & RDMABLK_EXP_FLUSH,
			      info->flags & RDMABLK_EXP_FUA);
	if (info->flags & RDMABLK_EXP_DISCARD) {
		blk_queue_max_discard_sectors(q, max_zero);
		q->limits.discard_granularity = info->discard_granularity ?:
						info->logical_block_size;
	}
	if (info->flags & RDMABLK_EXP_WRITE_ZEROES)
		blk_queue_max_write_zeroes_sectors(q, max_zero);
	if (info->flags & RDMABLK_EXP_ROTATIONAL)
		blk_queue_flag_clear(QUEUE_FLAG_NONROT, q);
	else
		blk_queue_flag_set(QUEUE_FLAG_NONROT, q);
	set_capacity(idev->disk, info->size >> SECTOR_SHIFT);
	set_disk_ro(idev->disk, info->flags & RDMABLK_EXP_READ_ONLY);
}

/*
 * The tag set and the disk, not added yet: rdmablk_idev_add_work() does.
 * On failure the tag set may remain: rdmablk_idev_free_disk() frees it,
 * once the queues are stopped.
 */
static int rdmablk_idev_alloc_disk(struct rdmablk_idev *idev)
{
	struct blk_mq_tag_set *set = &idev->tag_set;
	int ret;

	set->ops = &rdmablk_mq_ops;
	set->nr_hw_queues = idev->nr_queues;
	set->queue_depth = idev->queue_depth;
	set->numa_node = NUMA_NO_NODE;
	set->cmd_size = sizeof(struct rdmablk_ireq) +
			sizeof(struct scatterlist) * RDMABLK_INLINE_SG_CNT;
	set->flags = BLK_MQ_F_SHOULD_MERGE;
	set->timeout = READ_ONCE(rdmablk_io_timeout) * HZ;
	set->driver_data = idev;
	ret = blk_mq_alloc_tag_set(set);
	if (ret)
		return ret;

	idev->disk = blk_mq_alloc_disk(set, idev);
	if (IS_ERR(idev->disk)) {
		ret = PTR_ERR(idev->disk);
		idev->disk = NULL;
		return ret;
	}
	idev->disk->major = rdmablk_major;
	idev->disk->first_minor = idev->index * 16;
	idev->disk->minors = 16;
	idev->disk->fops = &rdmablk_bdev_ops;
	idev->disk->private_data = idev;
	strscpy(idev->disk->disk_name, idev->name, DISK_NAME_LEN);
	rdmablk_idev_set_limits(idev);
	return 0;
}

/*
 * The disk and the tag set, whichever exist. Only once the queues are
 * freed: the answer path looks requests up in the tags.
 */
static void rdmablk_idev_free_disk(struct rdmablk_idev *idev)
{
	if (idev->disk) {
		put_disk(idev->disk);
		idev->disk = NULL;
	}
	if (idev->tag_set.tags)
		blk_mq_free_tag_set(&idev->tag_set);
}

/*
 * Add the disk, out of the ATTACH request's context as nvme's scan work
 * does: device_add_disk() reads the partition table, and a target that
 * does not answer that read must hold neither the netlink caller nor the
 * daemon. The read ends like any I/O, within the device's timeouts (or at
 * detach, which fails it). RDMABLK_IDEV_ADDING is set while this is queued
 * or running; RDMABLK_IDEV_ADDED once the disk is there.
 */
static void rdmablk_idev_add_work(struct work_struct *work)
{
	struct rdmablk_idev *idev = container_of(work, struct rdmablk_idev,
						 add_work);
	int ret;

	ret = device_add_disk(NULL, idev->disk, rdmablk_disk_groups);
	if (ret) {
		pr_err("%s: cannot create the block device: %d; detach it\n",
		       idev->name, ret);
		rdmablk_idev_event(idev, RDMABLK_EVENT_DEVICE_STATE,
				   "cannot create the block device");
	} else {
		set_bit(RDMABLK_IDEV_ADDED, &idev->flags);
		rdmablk_idev_uevent(idev);
	}
	clear_bit(RDMABLK_IDEV_ADDING, &idev->flags);
}

static struct rdmablk_idev *rdmablk_idev_find(const struct sockaddr_storage *addr,
					      const char *export_name)
{
	struct rdmablk_idev *idev;

	lockdep_assert_held(&rdmablk_idevs_lock);
	list_for_each_entry(idev, &rdmablk_idevs, node)
		if (rdmablk_addr_equal(&idev->addr, addr) &&
		    !strcmp(idev->export_name, export_name))
			return idev;
	return NULL;
}

static void rdmablk_idev_free(struct rdmablk_idev *idev)
{
	mutex_destroy(&idev->recovery_lock);
	kfree(idev->queues);
	ida_free(&rdmablk_index_ida, idev->index);
	kfree(idev);
}

/**
 * rdmablk_idev_attach() - attach an export as /dev/rdmablkN
 * @req: what to attach
 * @info: the new device, on success
 * @extack: where a failure is explained
 *
 * Return: 0, -EEXIST when that export of that target is attached already
 * (@info then describes it), or a negative errno.
 */
static int rdmablk_idev_attach(const struct rdmablk_attach_req *req,
			       struct rdmablk_dev_info *info,
			       struct netlink_ext_ack *extack)
{
	struct rdmablk_idev *idev, *other;
	const char *why;
	int ret;

	idev = kzalloc(sizeof(*idev), GFP_KERNEL);
	if (!idev)
		return -ENOMEM;
	idev->addr = req->addr;
	strscpy(idev->export_name, req->export_name, sizeof(idev->export_name));
	memcpy(idev->hostid, req->hostid, sizeof(idev->hostid));
	idev->tmo = req->tmo;
	spin_lock_init(&idev->state_lock);
	mutex_init(&idev->recovery_lock);
	INIT_WORK(&idev->err_work, rdmablk_idev_err_work);
	INIT_WORK(&idev->add_work, rdmablk_idev_add_work);
	INIT_DELAYED_WORK(&idev->reconnect_work, rdmablk_idev_reconnect_work);
	INIT_DELAYED_WORK(&idev->fail_fast_work, rdmablk_idev_fail_fast_work);
	INIT_DELAYED_WORK(&idev->ka_work, rdmablk_idev_ka_work);
	idev->index = ida_alloc_max(&rdmablk_index_ida, (1 << MINORBITS) / 16 - 1,
				    GFP_KERNEL);
	if (idev->index < 0) {
		kfree(idev);
		return -ENOSPC;
	}
	snprintf(idev->name, sizeof(idev->name), "rdmablk%d", idev->index);

	mutex_lock(&rdmablk_idevs_lock);
	other = rdmablk_idev_find(&req->addr, req->export_name);
	if (other) {
		rdmablk_idev_snapshot(other, info);
		mutex_unlock(&rdmablk_idevs_lock);
		NL_SET_ERR_MSG(extack, "this export of this target is attached already");
		rdmablk_idev_free(idev);
		return -EEXIST;
	}
	list_add_tail(&idev->node, &rdmablk_idevs);
	mutex_unlock(&rdmablk_idevs_lock);

	ret = rdmablk_idev_connect(idev, req, extack);
	if (ret)
		goto out_free_queues;
	ret = rdmablk_idev_alloc_disk(idev);
	if (ret) {
		NL_SET_ERR_MSG(extack, "cannot create the block device");
		goto out_free_disk;
	}
	/*
	 * Published under rdmablk_idevs_lock: until RDMABLK_IDEV_ATTACHED is
	 * set, no lookup finds the device, so nothing can detach it under us.
	 */
	mutex_lock(&rdmablk_idevs_lock);
	ret = rdmablk_idev_go_live(idev, &why);
	if (ret) {
		mutex_unlock(&rdmablk_idevs_lock);
		pr_err("%s: connection to %pISpc lost while attaching %s: %s\n",
		       idev->name, &idev->addr, idev->export_name, why);
		NL_SET_ERR_MSG(extack,
			       "the target broke the connection while attaching; see the kernel log");
		goto out_free_disk;
	}
	rdmablk_idev_arm(idev, &idev->ka_work, idev->tmo.keepalive_tmo * HZ / 2,
			 RDMABLK_DEV_LIVE, false);
	set_bit(RDMABLK_IDEV_ADDING, &idev->flags);
	queue_work(rdmablk_wq, &idev->add_work);
	set_bit(RDMABLK_IDEV_ATTACHED, &idev->flags);
	pr_info("%s: attached %s on %pISpc, %llu bytes, %u queues of depth %u\n",
		idev->name, idev->export_name, &idev->addr, idev->info.size,
		idev->nr_queues, idev->queue_depth);
	rdmablk_idev_snapshot(idev, info);
	rdmablk_idev_event(idev, RDMABLK_EVENT_DEVICE_ATTACHED, NULL);
	mutex_unlock(&rdmablk_idevs_lock);
	return 0;

out_free_disk:
	/*
	 * The queues first: until they are stopped, an answer arriving on
	 * one looks its request up in the tags (a target that broke the
	 * connection while attaching may still be sending).
	 */
	rdmablk_idev_free_queues(idev);
	rdmablk_idev_free_disk(idev);
out_free_queues:
	rdmablk_idev_free_queues(idev);
	/* Our own disconnect may have queued err_work. */
	cancel_work_sync(&idev->err_work);
	mutex_lock(&rdmablk_idevs_lock);
	list_del(&idev->node);
	mutex_unlock(&rdmablk_idevs_lock);
	rdmablk_idev_free(idev);
	return ret;
}

/*
 * Detach. DELETING is terminal and every (re-)arming of a recovery work
 * checks the state under state_lock (rdmablk_idev_arm()), so once the
 * state is DELETING no work arms another, and the cancels below are
 * final: a reconnect that was running finds it cannot make the device
 * LIVE and leaves its queues to the teardown here.
 */
static void rdmablk_idev_destroy(struct rdmablk_idev *idev)
{
	unsigned long flags;
	u32 old;

	spin_lock_irqsave(&idev->state_lock, flags);
	old = idev->state;
	__rdmablk_idev_change_state(idev, RDMABLK_DEV_DELETING, NULL);
	spin_unlock_irqrestore(&idev->state_lock, flags);
	cancel_delayed_work_sync(&idev->ka_work);
	cancel_delayed_work_sync(&idev->reconnect_work);
	cancel_delayed_work_sync(&idev->fail_fast_work);
	flush_work(&idev->err_work);

	/*
	 * Not live, a reconnect ran meanwhile, or the disk is still being
	 * added (its partition read may wait on a target that does not
	 * answer): nothing will answer in-flight I/O; fail it, and the
	 * requeued I/O, now. New I/O fails: the device is DELETING.
	 */
	mutex_lock(&idev->recovery_lock);
	if (old != RDMABLK_DEV_LIVE || idev->quiesced ||
	    test_bit(RDMABLK_IDEV_ADDING, &idev->flags)) {
		rdmablk_idev_teardown(idev, false);
		rdmablk_idev_unquiesce(idev);
	}
	mutex_unlock(&idev->recovery_lock);
	flush_work(&idev->add_work);
	/* In-flight I/O completes over the live queues, or is failed. */
	if (test_bit(RDMABLK_IDEV_ADDED, &idev->flags))
		del_gendisk(idev->disk);

	mutex_lock(&idev->recovery_lock);
	rdmablk_idev_teardown(idev, false);
	mutex_unlock(&idev->recovery_lock);
	/*
	 * Our own disconnect reports a loss that queues err_work; with the
	 * cm ids destroyed nothing can queue it any more.
	 */
	cancel_work_sync(&idev->err_work);
	rdmablk_idev_free_disk(idev);
	pr_info("%s: detached\n", idev->name);
	rdmablk_idev_event(idev, RDMABLK_EVENT_DEVICE_DETACHED, NULL);
	rdmablk_idev_free(idev);
}

/* An attached device by index; the caller holds rdmablk_idevs_lock. */
static struct rdmablk_idev *rdmablk_idev_by_index(int index)
{
	struct rdmablk_idev *idev;

	lockdep_assert_held(&rdmablk_idevs_lock);
	list_for_each_entry(idev, &rdmablk_idevs, node)
		if (idev->index == index &&
		    test_bit(RDMABLK_IDEV_ATTACHED, &idev->flags))
			return idev;
	return NULL;
}

/**
 * rdmablk_idev_detach() - remove /dev/rdmablkN
 * @index: N
 * @extack: where a failure is explained
 *
 * Return: 0, or -ENOENT.
 */
static int rdmablk_idev_detach(int index, struct netlink_ext_ack *extack)
{
	struct rdmablk_idev *idev;

	mutex_lock(&rdmablk_idevs_lock);
	idev = rdmablk_idev_by_index(index);
	if (idev)
		list_del(&idev->node);
	mutex_unlock(&rdmablk_idevs_lock);
	if (!idev) {
		NL_SET_ERR_MSG(extack, "no attached device with this index");
		return -ENOENT;
	}
	rdmablk_idev_destroy(idev);
	return 0;
}

/**
 * rdmablk_idev_set() - change the recovery settings of an attached device
 * @req: which device, which settings
 * @extack: where a failure is explained
 *
 * Return: 0, or -ENOENT.
 */
static int rdmablk_idev_set(const struct rdmablk_dev_set_req *req,
			    struct netlink_ext_ack *extack)
{
	struct rdmablk_idev *idev;
	int ret = 0;

	mutex_lock(&rdmablk_idevs_lock);
	idev = rdmablk_idev_by_index(req->index);
	if (!idev) {
		NL_SET_ERR_MSG(extack, "no attached device with this index");
		ret = -ENOENT;
		goto out_unlock;
	}
	if (req->mask & RDMABLK_TMO_SET_RECONNECT_DELAY)
		WRITE_ONCE(idev->tmo.reconnect_delay, req->tmo.reconnect_delay);
	if (req->mask & RDMABLK_TMO_SET_CTRL_LOSS)
		WRITE_ONCE(idev->tmo.ctrl_loss_tmo, req->tmo.ctrl_loss_tmo);
	if (req->mask & RDMABLK_TMO_SET_FAST_IO_FAIL)
		WRITE_ONCE(idev->tmo.fast_io_fail_tmo, req->tmo.fast_io_fail_tmo);
	/*
	 * The target's window for a silent connection was fixed at connect:
	 * a new interval applies from the next connect, which a live device
	 * makes at once (a reset: its in-flight I/O is requeued).
	 */
	if ((req->mask & RDMABLK_TMO_SET_KEEPALIVE) &&
	    req->tmo.keepalive_tmo != idev->tmo.keepalive_tmo) {
		WRITE_ONCE(idev->tmo.keepalive_tmo, req->tmo.keepalive_tmo);
		if (rdmablk_idev_state(idev) == RDMABLK_DEV_LIVE) {
			set_bit(RDMABLK_IDEV_RESET, &idev->flags);
			rdmablk_idev_conn_lost(idev, "keep-alive interval changed");
		}
	}
	pr_info("%s: reconnect_delay %u s, ctrl_loss_tmo %d s, fast_io_fail_tmo %d s, keep-alive %u s\n",
		idev->name, idev->tmo.reconnect_delay, idev->tmo.ctrl_loss_tmo,
		idev->tmo.fast_io_fail_tmo, idev->tmo.keepalive_tmo);
out_unlock:
	mutex_unlock(&rdmablk_idevs_lock);
	return ret;
}

/**
 * rdmablk_idev_reconnect() - try to reconnect now
 * @index: N of rdmablkN
 * @extack: where a failure is explained
 *
 * A reconnecting device tries at once instead of at its next timer; a
 * device that gave up starts reconnecting again, with its timeouts
 * counted from now; a live device drops its connections and reconnects
 * at once (a reset: its in-flight I/O is requeued, not failed).
 *
 * Return: 0, or -ENOENT.
 */
static int rdmablk_idev_reconnect(int index, struct netlink_ext_ack *extack)
{
	struct rdmablk_idev *idev;
	unsigned long flags;
	int ret = 0;

	mutex_lock(&rdmablk_idevs_lock);
	idev = rdmablk_idev_by_index(index);
	if (!idev) {
		NL_SET_ERR_MSG(extack, "no attached device with this index");
		ret = -ENOENT;
		goto out_unlock;
	}
	mutex_lock(&idev->recovery_lock);
	spin_lock_irqsave(&idev->state_lock, flags);
	switch (idev->state) {
	case RDMABLK_DEV_DEAD:
		__rdmablk_idev_change_state(idev, RDMABLK_DEV_RECONNECTING,
					    NULL);
		idev->lost_at = jiffies;
		idev->attempt = 0;
		idev->extra_attempts = 0;
		fallthrough;
	case RDMABLK_DEV_RECONNECTING:
		spin_unlock_irqrestore(&idev->state_lock, flags);
		/* A device that gave up was unquiesced to fail I/O. */
		if (!READ_ONCE(idev->fail_fast))
			rdmablk_idev_quiesce(idev);
		rdmablk_idev_attempt_now(idev);
		break;
	case RDMABLK_DEV_LIVE:
		spin_unlock_irqrestore(&idev->state_lock, flags);
		set_bit(RDMABLK_IDEV_RESET, &idev->flags);
		rdmablk_idev_conn_lost(idev, "reset requested");
		break;
	default:
		spin_unlock_irqrestore(&idev->state_lock, flags);
		NL_SET_ERR_MSG(extack, "the device is being detached");
		ret = -EBUSY;
		break;
	}
	mutex_unlock(&idev->recovery_lock);
out_unlock:
	mutex_unlock(&rdmablk_idevs_lock);
	return ret;
}

/**
 * rdmablk_idev_get() - snapshot the @idx-th attached device, for dumps
 * @idx: position in the list
 * @info: result
 *
 * Return: 0, or -ENOENT past the end.
 */
static int rdmablk_idev_get(unsigned long idx, struct rdmablk_dev_info *info)
{
	struct rdmablk_idev *idev;
	int ret = -ENOENT;

	mutex_lock(&rdmablk_idevs_lock);
	list_for_each_entry(idev, &rdmablk_idevs, node) {
		if (!test_bit(RDMABLK_IDEV_ATTACHED, &idev->flags) || idx--)
			continue;
		rdmablk_idev_snapshot(idev, info);
		ret = 0;
		break;
	}
	mutex_unlock(&rdmablk_idevs_lock);
	return ret;
}

/*
 * Fabric events: when an RDMA device appears or one of its ports becomes
 * active, a path that was lost may be back; devices that are reconnecting
 * try at once instead of at their next timer. Handlers may run in atomic
 * context, so they only queue rdmablk_idev_kick_work.
 *
 * The kick runs on the system workqueue, not on rdmablk_wq: it takes
 * rdmablk_idevs_lock, and rdmablk_initiator_remove_one() waits for an
 * err_work on rdmablk_wq with that lock held. rdmablk_wq has a rescuer
 * (WQ_MEM_RECLAIM), which runs its works one by one: a kick it ran would
 * wait for the lock and the err_work behind it would never run. The kick
 * only hastens what the reconnect timer does anyway, so it needs no
 * reclaim guarantee.
 */
static void rdmablk_idev_kick(struct work_struct *work)
{
	struct rdmablk_idev *idev;
	unsigned long flags;
	bool kick;

	mutex_lock(&rdmablk_idevs_lock);
	list_for_each_entry(idev, &rdmablk_idevs, node) {
		spin_lock_irqsave(&idev->state_lock, flags);
		kick = test_bit(RDMABLK_IDEV_ATTACHED, &idev->flags) &&
		       idev->state == RDMABLK_DEV_RECONNECTING;
		spin_unlock_irqrestore(&idev->state_lock, flags);
		if (!kick)
			continue;
		pr_info("%s: an RDMA device or port came up; reconnecting now\n",
			idev->name);
		rdmablk_idev_attempt_now(idev);
	}
	mutex_unlock(&rdmablk_idevs_lock);
}
static DECLARE_WORK(rdmablk_idev_kick_work, rdmablk_idev_kick);

static struct ib_client rdmablk_initiator_client;

static void rdmablk_initiator_event(struct ib_event_handler *handler,
				    struct ib_event *ev)
{
	if (ev->event == IB_EVENT_PORT_ACTIVE)
		schedule_work(&rdmablk_idev_kick_work);
}

static int rdmablk_initiator_add_one(struct ib_device *dev)
{
	struct ib_event_handler *handler;

	handler = kzalloc(sizeof(*handler), GFP_KERNEL);
	if (!handler)
		return -ENOMEM;
	INIT_IB_EVENT_HANDLER(handler, dev, rdmablk_initiator_event);
	ib_register_event_handler(handler);
	ib_set_client_data(dev, &rdmablk_initiator_client, handler);
	schedule_work(&rdmablk_idev_kick_work);
	return 0;
}

/* Whether a queue of @idev holds resources of @dev; under recovery_lock. */
static bool rdmablk_idev_uses(struct rdmablk_idev *idev, struct ib_device *dev)
{
	u32 i;

	lockdep_assert_held(&idev->recovery_lock);
	for (i = 0; idev->queues && i < idev->nr_queues; i++)
		if (test_bit(RDMABLK_IQ_ALLOCATED, &idev->queues[i].flags) &&
		    idev->queues[i].dev == dev)
			return true;
	return false;
}

/*
 * The RDMA device goes away: every queue on it must be freed before this
 * returns; devices with no queue on it are left alone, as
 * nvme_rdma_remove_one() does. A live device is taken down by err_work
 * (quiesced, then its queues freed) and recovers like after any loss, once
 * a device is back; a device that is not live has no I/O on its queues and
 * frees them here.
 */
static void rdmablk_initiator_remove_one(struct ib_device *dev, void *data)
{
	struct ib_event_handler *handler = data;
	struct rdmablk_idev *idev;
	bool live;

	if (handler) {
		ib_unregister_event_handler(handler);
		kfree(handler);
	}

	mutex_lock(&rdmablk_idevs_lock);
	list_for_each_entry(idev, &rdmablk_idevs, node) {
		if (!test_bit(RDMABLK_IDEV_ATTACHED, &idev->flags))
			continue;
		for (;;) {
			mutex_lock(&idev->recovery_lock);
			if (!rdmablk_idev_uses(idev, dev)) {
				mutex_unlock(&idev->recovery_lock);
				break;
			}
			live = rdmablk_idev_state(idev) == RDMABLK_DEV_LIVE;
			if (!live)
				rdmablk_idev_teardown(idev, true);
			mutex_unlock(&idev->recovery_lock);
			if (!live)
				break;
			rdmablk_idev_conn_lost(idev, "RDMA device removed");
			flush_work(&idev->err_work);
		}
	}
	mutex_unlock(&rdmablk_idevs_lock);
}

static struct ib_client rdmablk_initiator_client = {
	.name = "rdmablk_initiator",
	.add = rdmablk_initiator_add_one,
	.remove = rdmablk_initiator_remove_one,
};

/* What the netlink commands of the initiator role call (roles.h). */
static const struct rdmablk_host_ops rdmablk_host_ops = {
	.attach = rdmablk_idev_attach,
	.detach = rdmablk_idev_detach,
	.set = rdmablk_idev_set,
	.reconnect = rdmablk_idev_reconnect,
	.get = rdmablk_idev_get,
};

/**
 * rdmablk_initiator_init() - start the initiator role, at module load
 *
 * Runs before the netlink family is registered; registers the role's
 * operations with it last.
 *
 * Return: 0 or a negative errno.
 */
int rdmablk_initiator_init(void)
{
	int ret;

	rdmablk_major = register_blkdev(0, "rdmablk");
	if (rdmablk_major < 0)
		return rdmablk_major;
	ret = ib_register_client(&rdmablk_initiator_client);
	if (ret)
		goto out_unregister_blkdev;
	ret = rdmablk_nl_register_host(&rdmablk_host_ops);
	if (ret)
		goto out_unregister_client;
	return 0;

out_unregister_client:
	ib_unregister_client(&rdmablk_initiator_client);
out_unregister_blkdev:
	unregister_blkdev(rdmablk_major, "rdmablk");
	return ret;
}

/**
 * rdmablk_initiator_exit() - stop the initiator role, at module unload
 *
 * The netlink family must be gone, so no device can be attached.
 */
void rdmablk_initiator_exit(void)
{
	struct rdmablk_idev *idev;

	rdmablk_nl_unregister_host(&rdmablk_host_ops);
	for (;;) {
		mutex_lock(&rdmablk_idevs_lock);
		idev = list_first_entry_or_null(&rdmablk_idevs,
						struct rdmablk_idev, node);
		if (idev)
			list_del(&idev->node);
		mutex_unlock(&rdmablk_idevs_lock);
		if (!idev)
			break;
		rdmablk_idev_destroy(idev);
	}
	ib_unregister_client(&rdmablk_initiator_client);
	cancel_work_sync(&rdmablk_idev_kick_work);
	unregister_blkdev(rdmablk_major, "rdmablk");
}
