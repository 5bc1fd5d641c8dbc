// SPDX-License-Identifier: GPL-2.0
/*
 * Initiator devices: an attached export as the blk-mq disk /dev/rdmablkN.
 * This file has their life (attach, detach, settings, lookups, RDMA
 * device events); irecover.c their recovery when the connection is lost,
 * iblk.c the block device, ireport.c what they report. The states and
 * the locks of all four are described here.
 *
 * A device has 1 to RDMABLK_MAX_PATHS paths (ipath.c), each a target
 * address with its own queues, keep-alive and recovery. Paths and the
 * device have states of enum rdmablk_dev_state, changed only through the
 * table of state.c (rdmablk_dev_state_change_ok()):
 *
 *   path:   NEW --> LIVE --(loss)--> RECONNECTING --(attempt ok)--> LIVE
 *                                  +--(ctrl_loss_tmo, or another export
 *                                  |   behind it)--> DEAD
 *           DEAD --(RECONNECT command)--> RECONNECTING
 *           any --(PATH_DEL, detach)--> DELETING, terminal
 *   device: LIVE while a path is LIVE; RECONNECTING while none is and
 *           one is being connected (fast_io_fail_tmo runs from the last
 *           live path's loss: I/O then fails, retrying goes on); DEAD when
 *           every path is (I/O fails); NEW until its first path is live;
 *           DELETING from detach on, terminal
 *
 * On a path's loss its err_work takes its queues down with
 * rdmablk_ipath_teardown() (quiesce for the while, stop and drain,
 * requeue what got no answer, free): the requests go to another live path
 * at once, or wait (the queue stays quiesced) until one is live.
 * reconnect_work then tries the path, at once if it had been stable for
 * RDMABLK_FLAP_WINDOW, then every reconnect_delay. A successful
 * attempt checks the export's UUID (a different export behind the address
 * is never written to) and size (a resize resizes the disk) and makes the
 * path LIVE. The works are (re-)armed only through rdmablk_ipath_arm(),
 * which checks the state they need under state_lock.
 *
 * Locking and lifetime:
 *  - rdmablk_idevs_lock (mutex) protects rdmablk_idevs. Held across
 *    attach's lookup and insertion, not across connecting, so a slow
 *    target does not block other requests; a device being attached is
 *    listed (without a disk) so it cannot be attached twice.
 *  - idev->paths_lock (mutex, taken inside rdmablk_idevs_lock) serialises
 *    adding and removing paths with each other and with detach, which
 *    takes it before it frees the device; held across connecting a new
 *    path.
 *  - idev->state_lock (spinlock, irq-safe: losses are noticed in
 *    completion context) protects the device's state and lost_at, and
 *    each path's state, attempt, extra_attempts, last_error, lost_why,
 *    live_at, flaps and held; the path array changes under it too.
 *  - path->recovery_lock (mutex, inside paths_lock) serialises the path's
 *    err_work, reconnect_work, the RECONNECT command and its teardown, and
 *    protects its queues' connections.
 *  - idev->quiesce_lock (mutex, taken inside a recovery_lock) protects
 *    quiesced and fail_fast and is held across quiescing the request queue
 *    for want of a live path and unquiescing it. fail_fast_work takes it
 *    alone: a reconnect attempt holds its recovery_lock while it connects,
 *    and fast_io_fail_tmo must not wait for that.
 *    Lookups find a device only once it is RDMABLK_IDEV_ATTACHED, which
 *    attach sets under rdmablk_idevs_lock as its last step.
 *  - Keep-alives are sent by a path's ka_work once it is LIVE (under its
 *    recovery_lock), and before that by the thread connecting its queues
 *    (attach, PATH_ADD, a reconnect attempt), to the queues it opened
 *    already: never by both at once.
 *  - Attach connects the first path (state NEW), makes it and the device
 *    LIVE and returns; add_work adds the disk, whose partition read is I/O
 *    like any other: the ATTACH request never waits for the target's
 *    answers.
 *  - Detach marks the device DELETING (after which no work is armed),
 *    cancels the recovery works, fails I/O if the device is not live or
 *    its disk is still being added, waits for add_work, removes the disk
 *    (waiting for in-flight I/O; the writeback of a disk still open goes
 *    over the live paths, which a DELETING device still sends on; a path
 *    lost meanwhile hands its I/O to another live one, irecover.c), then
 *    tears the paths down with the same helper as recovery and frees the
 *    device.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blk-mq.h>
#include <linux/idr.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "initiator.h"

static LIST_HEAD(rdmablk_idevs);
static DEFINE_MUTEX(rdmablk_idevs_lock);
/* Under rdmablk_idevs_lock: the last dump id given out. */
static unsigned long rdmablk_idevs_ids;
static DEFINE_IDA(rdmablk_index_ida);
int rdmablk_major;

/*
 * The device with a path to @addr serving @export_name, attached or being
 * attached (its first path is linked before it connects). The caller
 * holds rdmablk_idevs_lock; each device's paths are read under its
 * state_lock.
 */
static struct rdmablk_idev *rdmablk_idev_find(const struct sockaddr_storage *addr,
					      const char *export_name)
{
	struct rdmablk_ipath *paths[RDMABLK_MAX_PATHS];
	struct rdmablk_ipath *path;
	struct rdmablk_idev *idev;
	unsigned long flags;
	bool found;
	u32 i, n;

	lockdep_assert_held(&rdmablk_idevs_lock);
	list_for_each_entry(idev, &rdmablk_idevs, node) {
		if (strcmp(idev->export_name, export_name))
			continue;
		found = false;
		spin_lock_irqsave(&idev->state_lock, flags);
		n = rdmablk_idev_paths(idev, paths);
		for (i = 0; i < n; i++) {
			path = paths[i];
			found |= rdmablk_addr_equal(&path->addr, addr);
		}
		spin_unlock_irqrestore(&idev->state_lock, flags);
		if (found)
			return idev;
	}
	return NULL;
}

/* The attached device of the export with @uuid; under rdmablk_idevs_lock. */
static struct rdmablk_idev *rdmablk_idev_find_uuid(const u8 *uuid)
{
	struct rdmablk_idev *idev;

	lockdep_assert_held(&rdmablk_idevs_lock);
	list_for_each_entry(idev, &rdmablk_idevs, node)
		if (test_bit(RDMABLK_IDEV_ATTACHED, &idev->flags) &&
		    !memcmp(idev->info.uuid, uuid, RDMABLK_UUID_SIZE))
			return idev;
	return NULL;
}

static void rdmablk_idev_free(struct rdmablk_idev *idev)
{
	mutex_destroy(&idev->quiesce_lock);
	mutex_destroy(&idev->paths_lock);
	ida_free(&rdmablk_index_ida, idev->index);
	rdmablk_key_wipe(&idev->key);
	rdmablk_key_wipe(&idev->target_key);
	kfree_sensitive(idev);
}

/*
 * An ATTACH refused because @other is that export already: the refusal's
 * cookie names @other's UUID (once known), so that userspace can add the
 * address as a path of @other instead.
 */
static void rdmablk_idev_exists(struct netlink_ext_ack *extack,
				const struct rdmablk_idev *other)
{
	BUILD_BUG_ON(RDMABLK_UUID_SIZE > NETLINK_MAX_COOKIE_LEN);
	if (!extack || !memchr_inv(other->info.uuid, 0, RDMABLK_UUID_SIZE))
		return;
	memcpy(extack->cookie, other->info.uuid, RDMABLK_UUID_SIZE);
	extack->cookie_len = RDMABLK_UUID_SIZE;
}

/**
 * rdmablk_idev_attach() - attach an export as /dev/rdmablkN
 * @req: what to attach
 * @info: the new device, on success
 * @extack: where a failure is explained
 *
 * Return: 0, -EEXIST when that export of that target, or that export (its
 * UUID) through another address, is attached already (@info then describes
 * it, and @extack's cookie holds its UUID), or a negative errno.
 */
static int rdmablk_idev_attach(const struct rdmablk_attach_req *req,
			       struct rdmablk_dev_info *info,
			       struct netlink_ext_ack *extack)
{
	struct rdmablk_idev *idev, *other;
	struct rdmablk_ipath *path;
	const char *why;
	int ret;

	idev = kzalloc(sizeof(*idev), GFP_KERNEL);
	if (!idev)
		return -ENOMEM;
	strscpy(idev->export_name, req->export_name, sizeof(idev->export_name));
	memcpy(idev->hostid, req->hostid, sizeof(idev->hostid));
	idev->key = req->key;
	idev->target_key = req->target_key;
	idev->tmo = req->tmo;
	idev->policy = req->policy;
	spin_lock_init(&idev->state_lock);
	mutex_init(&idev->paths_lock);
	init_rwsem(&idev->key_sem);
	mutex_init(&idev->quiesce_lock);
	INIT_WORK(&idev->add_work, rdmablk_idev_add_work);
	INIT_DELAYED_WORK(&idev->fail_fast_work, rdmablk_idev_fail_fast_work);
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
		rdmablk_idev_exists(extack, other);
		mutex_unlock(&rdmablk_idevs_lock);
		NL_SET_ERR_MSG(extack, "this export of this target is attached already");
		rdmablk_idev_free(idev);
		return -EEXIST;
	}
	list_add_tail(&idev->node, &rdmablk_idevs);
	mutex_unlock(&rdmablk_idevs_lock);

	ret = rdmablk_idev_add_first_path(idev, req, extack);
	if (ret)
		goto out_unlist;
	path = rcu_dereference_protected(idev->paths[0], 1);
	ret = rdmablk_idev_alloc_disk(idev);
	if (ret) {
		NL_SET_ERR_MSG(extack, "cannot create the block device");
		goto out_free_paths;
	}
	/*
	 * Published under rdmablk_idevs_lock: until RDMABLK_IDEV_ATTACHED is
	 * set, no lookup finds the device, so nothing can detach it under us.
	 */
	mutex_lock(&rdmablk_idevs_lock);
	other = rdmablk_idev_find_uuid(idev->info.uuid);
	if (other) {
		/* Two disks over one export would let two caches write it. */
		rdmablk_idev_snapshot(other, info);
		rdmablk_idev_exists(extack, other);
		mutex_unlock(&rdmablk_idevs_lock);
		NL_SET_ERR_MSG(extack,
			       "this export (its UUID) is attached already through another address: add this address as a path of that device");
		ret = -EEXIST;
		goto out_free_disk;
	}
	ret = rdmablk_ipath_go_live(path, &why);
	if (ret) {
		mutex_unlock(&rdmablk_idevs_lock);
		pr_err("%s: connection to %pISpc lost while attaching %s: %s\n",
		       idev->name, &path->addr, idev->export_name, why);
		NL_SET_ERR_MSG(extack,
			       "the target broke the connection while attaching; see the kernel log");
		goto out_free_disk;
	}
	rdmablk_ipath_arm(path, &path->ka_work,
			  rdmablk_ka_interval(path->kato),
			  RDMABLK_DEV_LIVE, false);
	set_bit(RDMABLK_IDEV_ADDING, &idev->flags);
	queue_work(rdmablk_wq, &idev->add_work);
	/*
	 * Its dump id, and its place at the tail where ids rise (roles.h),
	 * when dumps start to see it: a dump that passed it while it was
	 * attaching still lists it.
	 */
	idev->dump_id = ++rdmablk_idevs_ids;
	list_move_tail(&idev->node, &rdmablk_idevs);
	set_bit(RDMABLK_IDEV_ATTACHED, &idev->flags);
	pr_info("%s: attached %s on %pISpc, %llu bytes, %u queues of depth %u\n",
		idev->name, idev->export_name, &path->addr, idev->info.size,
		idev->nr_queues, idev->queue_depth);
	rdmablk_idev_snapshot(idev, info);
	rdmablk_idev_event(idev, RDMABLK_EVENT_DEVICE_ATTACHED, NULL, NULL);
	mutex_unlock(&rdmablk_idevs_lock);
	return 0;

out_free_disk:
	/*
	 * The paths first: until their queues are stopped, an answer
	 * arriving on one looks its request up in the tags (a target that
	 * broke the connection while attaching may still be sending).
	 */
	rdmablk_idev_destroy_paths(idev);
	rdmablk_idev_free_disk(idev);
out_free_paths:
	rdmablk_idev_destroy_paths(idev);
out_unlist:
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
	struct rdmablk_ipath *paths[RDMABLK_MAX_PATHS];
	struct rdmablk_dev_info *info;
	struct rdmablk_ipath *path;
	unsigned long flags;
	u32 old, i, n;

	spin_lock_irqsave(&idev->state_lock, flags);
	old = idev->state;
	__rdmablk_idev_change_state(idev, RDMABLK_DEV_DELETING, NULL);
	spin_unlock_irqrestore(&idev->state_lock, flags);
	cancel_delayed_work_sync(&idev->fail_fast_work);

	/*
	 * Not live, a reconnect ran meanwhile, or the disk is still being
	 * added (its partition read may wait on a target that does not
	 * answer): nothing will answer in-flight I/O; fail it, and the
	 * requeued I/O, now. New I/O then finds no live path and fails: a
	 * DELETING device reconnects none.
	 */
	mutex_lock(&idev->paths_lock);
	n = rdmablk_idev_paths(idev, paths);
	for (i = 0; i < n; i++) {
		path = paths[i];
		cancel_delayed_work_sync(&path->ka_work);
		cancel_delayed_work_sync(&path->reconnect_work);
		flush_work(&path->err_work);
		/* No work left to change quiesced; the others hold recovery_lock. */
		mutex_lock(&path->recovery_lock);
		if (old != RDMABLK_DEV_LIVE || READ_ONCE(idev->quiesced) ||
		    test_bit(RDMABLK_IDEV_ADDING, &idev->flags))
			rdmablk_ipath_teardown(path, false);
		else
			/* Left up for del_gendisk(): keep proving it alive. */
			rdmablk_ipath_arm(path, &path->ka_work,
					  rdmablk_ka_interval(path->kato),
					  RDMABLK_DEV_LIVE, false);
		mutex_unlock(&path->recovery_lock);
	}
	mutex_unlock(&idev->paths_lock);
	rdmablk_idev_unquiesce(idev);
	flush_work(&idev->add_work);
	/* In-flight I/O completes over the live queues, or is failed. */
	if (test_bit(RDMABLK_IDEV_ADDED, &idev->flags))
		del_gendisk(idev->disk);

	/* The event describes the device with its paths, as it was. */
	info = kmalloc(sizeof(*info), GFP_KERNEL);
	if (info)
		rdmablk_idev_snapshot(idev, info);
	rdmablk_idev_destroy_paths(idev);
	rdmablk_idev_free_disk(idev);
	pr_info("%s: detached\n", idev->name);
	if (info)
		rdmablk_nl_event_dev(RDMABLK_EVENT_DEVICE_DETACHED, info, -1, NULL);
	kfree(info);
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
 * rdmablk_idev_get_locked() - an attached device, its paths_lock held
 * @index: N of rdmablkN
 *
 * Detach takes paths_lock before it frees the device: the caller may use
 * it until it releases the lock.
 *
 * Return: the device, or NULL.
 */
struct rdmablk_idev *rdmablk_idev_get_locked(int index)
{
	struct rdmablk_idev *idev;

	mutex_lock(&rdmablk_idevs_lock);
	idev = rdmablk_idev_by_index(index);
	if (idev)
		mutex_lock(&idev->paths_lock);
	mutex_unlock(&rdmablk_idevs_lock);
	return idev;
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

	idev = rdmablk_idev_get_locked(req->index);
	if (!idev) {
		NL_SET_ERR_MSG(extack, "no attached device with this index");
		return -ENOENT;
	}
	if (req->mask & RDMABLK_TMO_SET_RECONNECT_DELAY)
		WRITE_ONCE(idev->tmo.reconnect_delay, req->tmo.reconnect_delay);
	if (req->mask & RDMABLK_TMO_SET_CTRL_LOSS)
		WRITE_ONCE(idev->tmo.ctrl_loss_tmo, req->tmo.ctrl_loss_tmo);
	if (req->mask & RDMABLK_TMO_SET_FAST_IO_FAIL)
		WRITE_ONCE(idev->tmo.fast_io_fail_tmo, req->tmo.fast_io_fail_tmo);
	if (req->mask & RDMABLK_DEV_SET_POLICY)
		WRITE_ONCE(idev->policy, req->policy);
	/*
	 * The target's window for a silent connection was fixed at connect:
	 * a new interval applies from the next connect, which the live paths
	 * make one at a time, each while another is live (a disk with one
	 * path resets it at once: its I/O waits, as after RECONNECT).
	 */
	if ((req->mask & RDMABLK_TMO_SET_KEEPALIVE) &&
	    req->tmo.keepalive_tmo != idev->tmo.keepalive_tmo) {
		WRITE_ONCE(idev->tmo.keepalive_tmo, req->tmo.keepalive_tmo);
		rdmablk_idev_ka_roll(idev);
	}
	/*
	 * New keys serve the next connections, which read them under
	 * key_sem: live ones stay up (key rotation); RECONNECT makes every
	 * queue authenticate with them now.
	 */
	if (req->mask & RDMABLK_DEV_SET_KEYS) {
		down_write(&idev->key_sem);
		idev->key = req->key;
		/* Without one, the target key stays: see rdmablk_dev_set_req. */
		if (req->mask & RDMABLK_DEV_SET_TARGET_KEY)
			idev->target_key = req->target_key;
		up_write(&idev->key_sem);
		pr_info("%s: new authentication keys, for the next connections\n",
			idev->name);
	}
	pr_info("%s: reconnect_delay %u s, ctrl_loss_tmo %d s, fast_io_fail_tmo %d s, keep-alive %u s, path policy %u\n",
		idev->name, idev->tmo.reconnect_delay, idev->tmo.ctrl_loss_tmo,
		idev->tmo.fast_io_fail_tmo, idev->tmo.keepalive_tmo,
		idev->policy);
	mutex_unlock(&idev->paths_lock);
	return 0;
}

/*
 * RECONNECT for one path: a reconnecting one tries at once, one that
 * gave up starts again with its timeouts counted from now, a live one
 * drops its connections and reconnects at once (a reset).
 */
static void rdmablk_ipath_reconnect(struct rdmablk_ipath *path)
{
	struct rdmablk_idev *idev = path->idev;
	unsigned long flags;

	mutex_lock(&path->recovery_lock);
	spin_lock_irqsave(&idev->state_lock, flags);
	switch (path->state) {
	case RDMABLK_DEV_DEAD:
		spin_unlock_irqrestore(&idev->state_lock, flags);
		rdmablk_ipath_revive(path);
		rdmablk_ipath_attempt_now(path, true);
		break;
	case RDMABLK_DEV_RECONNECTING:
		spin_unlock_irqrestore(&idev->state_lock, flags);
		rdmablk_idev_quiesce_unless_failing(idev);
		rdmablk_ipath_attempt_now(path, true);
		break;
	case RDMABLK_DEV_LIVE:
		spin_unlock_irqrestore(&idev->state_lock, flags);
		set_bit(RDMABLK_IPATH_RESET, &path->flags);
		rdmablk_ipath_conn_lost(path, "reset requested");
		break;
	default:
		spin_unlock_irqrestore(&idev->state_lock, flags);
		break;
	}
	mutex_unlock(&path->recovery_lock);
}

/**
 * rdmablk_idev_reconnect() - try to reconnect now
 * @index: N of rdmablkN
 * @extack: where a failure is explained
 *
 * Every path: a reconnecting one tries at once instead of at its next
 * timer; one that gave up starts reconnecting again, with its timeouts
 * counted from now; a live one drops its connections and reconnects at
 * once (a reset: its in-flight I/O is requeued, not failed).
 *
 * Return: 0, -ENOENT, or -EBUSY while the device is being detached.
 */
static int rdmablk_idev_reconnect(int index, struct netlink_ext_ack *extack)
{
	struct rdmablk_ipath *paths[RDMABLK_MAX_PATHS];
	struct rdmablk_ipath *path;
	struct rdmablk_idev *idev;
	u32 i, n;

	idev = rdmablk_idev_get_locked(index);
	if (!idev) {
		NL_SET_ERR_MSG(extack, "no attached device with this index");
		return -ENOENT;
	}
	if (rdmablk_idev_state(idev) == RDMABLK_DEV_DELETING) {
		mutex_unlock(&idev->paths_lock);
		NL_SET_ERR_MSG(extack, "the device is being detached");
		return -EBUSY;
	}
	n = rdmablk_idev_paths(idev, paths);
	for (i = 0; i < n; i++) {
		path = paths[i];
		rdmablk_ipath_reconnect(path);
	}
	mutex_unlock(&idev->paths_lock);
	return 0;
}

/**
 * rdmablk_idev_get() - snapshot the next attached device of a dump
 * @pos: the dump cursor (roles.h), set past the device
 * @info: result
 *
 * Return: 0, or -ENOENT past the end.
 */
static int rdmablk_idev_get(unsigned long *pos, struct rdmablk_dev_info *info)
{
	struct rdmablk_idev *idev;
	int ret = -ENOENT;

	mutex_lock(&rdmablk_idevs_lock);
	list_for_each_entry(idev, &rdmablk_idevs, node) {
		if (idev->dump_id < *pos ||
		    !test_bit(RDMABLK_IDEV_ATTACHED, &idev->flags))
			continue;
		*pos = idev->dump_id + 1;
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
	struct rdmablk_ipath *paths[RDMABLK_MAX_PATHS];
	struct rdmablk_ipath *path;
	struct rdmablk_idev *idev;
	u32 i, n;

	mutex_lock(&rdmablk_idevs_lock);
	list_for_each_entry(idev, &rdmablk_idevs, node) {
		if (!test_bit(RDMABLK_IDEV_ATTACHED, &idev->flags))
			continue;
		mutex_lock(&idev->paths_lock);
		n = rdmablk_idev_paths(idev, paths);
		for (i = 0; i < n; i++) {
			path = paths[i];
			if (rdmablk_ipath_attempt_now(path, false))
				pr_info("%s: an RDMA device or port came up; reconnecting path %u now\n",
					idev->name, path->id);
		}
		mutex_unlock(&idev->paths_lock);
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

/* Whether a queue of @path holds resources of @dev; under recovery_lock. */
static bool rdmablk_ipath_uses(struct rdmablk_ipath *path,
			       struct ib_device *dev)
{
	u32 i;

	lockdep_assert_held(&path->recovery_lock);
	for (i = 0; path->queues && i < path->idev->nr_queues; i++)
		if (test_bit(RDMABLK_IQ_ALLOCATED, &path->queues[i].flags) &&
		    path->queues[i].dev == dev)
			return true;
	return false;
}

/*
 * The RDMA device goes away: every queue on it must be freed before this
 * returns; paths with no queue on it are left alone, as
 * nvme_rdma_remove_one() does. A live path is taken down by its err_work
 * (its requests go to another path, or wait), and recovers like after any
 * loss, once a device is back; a path that is not live has no I/O on its
 * queues and frees them here.
 */
static void rdmablk_initiator_remove_one(struct ib_device *dev, void *data)
{
	struct rdmablk_ipath *paths[RDMABLK_MAX_PATHS];
	struct ib_event_handler *handler = data;
	struct rdmablk_ipath *path;
	struct rdmablk_idev *idev;
	bool live;
	u32 i, n;

	if (handler) {
		ib_unregister_event_handler(handler);
		kfree(handler);
	}

	mutex_lock(&rdmablk_idevs_lock);
	list_for_each_entry(idev, &rdmablk_idevs, node) {
		if (!test_bit(RDMABLK_IDEV_ATTACHED, &idev->flags))
			continue;
		mutex_lock(&idev->paths_lock);
		n = rdmablk_idev_paths(idev, paths);
		for (i = 0; i < n; i++) {
			path = paths[i];
			for (;;) {
				mutex_lock(&path->recovery_lock);
				if (!rdmablk_ipath_uses(path, dev)) {
					mutex_unlock(&path->recovery_lock);
					break;
				}
				live = rdmablk_ipath_state(path) == RDMABLK_DEV_LIVE;
				if (!live)
					rdmablk_ipath_teardown(path, true);
				mutex_unlock(&path->recovery_lock);
				if (!live)
					break;
				rdmablk_ipath_conn_lost(path, "RDMA device removed");
				flush_work(&path->err_work);
			}
		}
		mutex_unlock(&idev->paths_lock);
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
	.path_add = rdmablk_idev_path_add,
	.path_del = rdmablk_idev_path_del,
	.path_set = rdmablk_idev_path_set,
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
