// SPDX-License-Identifier: GPL-2.0
/*
 * Initiator devices: an attached export as the blk-mq disk /dev/rdmablkN.
 * This file has their life (attach, detach, settings, lookups, RDMA
 * device events); irecover.c their recovery when the connection is lost,
 * iblk.c the block device, ireport.c what they report. The states and
 * the locks of all four are described here.
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
 *  - idev->recovery_lock (mutex) serialises err_work, reconnect_work, the
 *    RECONNECT command and teardown, and protects what they change: the
 *    queues' connections.
 *  - idev->quiesce_lock (mutex, taken inside recovery_lock) protects
 *    quiesced and fail_fast and is held across quiescing the request queue
 *    and unquiescing it. fail_fast_work takes it alone: a reconnect attempt
 *    holds recovery_lock while it connects, and fast_io_fail_tmo must not
 *    wait for that.
 *    Lookups find a device only once it is RDMABLK_IDEV_ATTACHED, which
 *    attach sets under this lock as its last step.
 *  - Keep-alives are sent by ka_work once the device is LIVE (under
 *    recovery_lock), and before that by the thread connecting the queues
 *    of an attach or a reconnect attempt, to the queues it opened already
 *    (rdmablk_idev_keep_open_alive()): never by both at once.
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
#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "initiator.h"

static LIST_HEAD(rdmablk_idevs);
static DEFINE_MUTEX(rdmablk_idevs_lock);
static DEFINE_IDA(rdmablk_index_ida);
int rdmablk_major;

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
	mutex_destroy(&idev->quiesce_lock);
	mutex_destroy(&idev->recovery_lock);
	kfree(idev->queues);
	ida_free(&rdmablk_index_ida, idev->index);
	rdmablk_key_wipe(&idev->key);
	rdmablk_key_wipe(&idev->target_key);
	kfree_sensitive(idev);
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
	idev->key = req->key;
	idev->target_key = req->target_key;
	idev->tmo = req->tmo;
	spin_lock_init(&idev->state_lock);
	mutex_init(&idev->recovery_lock);
	mutex_init(&idev->quiesce_lock);
	INIT_WORK(&idev->err_work, rdmablk_idev_err_work);
	INIT_WORK(&idev->add_work, rdmablk_idev_add_work);
	INIT_DELAYED_WORK(&idev->reconnect_work, rdmablk_idev_reconnect_work);
	INIT_DELAYED_WORK(&idev->fail_fast_work, rdmablk_idev_fail_fast_work);
	INIT_DELAYED_WORK(&idev->ka_work, rdmablk_idev_ka_work);
	idev->index = ida_alloc_max(&rdmablk_index_ida, (1 << MINORBITS) / 16 - 1,
				    GFP_KERNEL);
	if (idev->index < 0) {
		rdmablk_key_wipe(&idev->key);
		rdmablk_key_wipe(&idev->target_key);
		kfree_sensitive(idev);
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
	/* No work left to change quiesced; the others hold recovery_lock. */
	mutex_lock(&idev->recovery_lock);
	if (old != RDMABLK_DEV_LIVE || READ_ONCE(idev->quiesced) ||
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
	/*
	 * New keys serve the next connections, which are made under
	 * recovery_lock: live ones stay up (key rotation); RECONNECT makes
	 * every queue authenticate with them now.
	 */
	if (req->mask & RDMABLK_DEV_SET_KEYS) {
		mutex_lock(&idev->recovery_lock);
		idev->key = req->key;
		idev->target_key = req->target_key;
		mutex_unlock(&idev->recovery_lock);
		pr_info("%s: new authentication keys, for the next connections\n",
			idev->name);
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
		rdmablk_idev_quiesce_unless_failing(idev);
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
