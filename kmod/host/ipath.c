// SPDX-License-Identifier: GPL-2.0
/*
 * Initiator paths: the ways to one export. A device has 1 to
 * RDMABLK_MAX_PATHS paths, each a target address with its own queues
 * (one per hardware queue), keep-alive and recovery (irecover.c). Every
 * request picks a live path when it is dispatched (policy: queue-depth,
 * round-robin or min-latency; standby paths only while no other is live)
 * and is sent on that path's queue of its hardware queue. A path's loss
 * sends its requests back to blk-mq at once, which dispatches them to
 * another live path (rdmablk_ipath_teardown()).
 *
 * Paths are added (PATH_ADD, or ATTACH's first) and removed (PATH_DEL,
 * detach) under the device's paths_lock; the array changes under
 * state_lock too, since the device's state is computed from it, and is
 * read by the dispatcher under RCU. A removed path is freed after a
 * grace period (its teardown quiesced the queue, which waits for one).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blk-mq.h>
#include <linux/slab.h>

#include "initiator.h"

/**
 * rdmablk_ipath_alloc() - a new path, NEW, not yet in the device
 * @idev: the device it leads to
 * @addr: the target
 * @standby: used only while no other path is live
 *
 * Return: the path, or NULL.
 */
struct rdmablk_ipath *rdmablk_ipath_alloc(struct rdmablk_idev *idev,
					  const struct sockaddr_storage *addr,
					  bool standby)
{
	struct rdmablk_ipath *path;

	path = kzalloc(sizeof(*path), GFP_KERNEL);
	if (!path)
		return NULL;
	path->idev = idev;
	path->addr = *addr;
	path->standby = standby;
	path->state = RDMABLK_DEV_NEW;
	mutex_init(&path->recovery_lock);
	INIT_WORK(&path->err_work, rdmablk_ipath_err_work);
	INIT_DELAYED_WORK(&path->reconnect_work, rdmablk_ipath_reconnect_work);
	INIT_DELAYED_WORK(&path->ka_work, rdmablk_ipath_ka_work);
	return path;
}

/**
 * rdmablk_ipath_free() - free a path whose queues are freed
 * @path: no longer in its device's array, its works cancelled
 */
void rdmablk_ipath_free(struct rdmablk_ipath *path)
{
	mutex_destroy(&path->recovery_lock);
	kfree(path->queues);
	kfree(path);
}

/*
 * An average older than this is not trusted: min-latency sends the path a
 * request to learn what it costs now (a path it left for a faster one
 * would keep its old figure for ever), and that request's latency starts
 * the average again.
 */
#define RDMABLK_LATENCY_STALE	HZ

/**
 * rdmablk_idev_select_path() - the path a request on queue @qid goes on
 * @idev: the device
 * @qid: its hardware queue
 *
 * Among the live paths whose queue @qid is live, by the device's policy
 * (rdmablk_mp_choose()), those with a credit left on it first. Called
 * under RCU (the dispatch's).
 *
 * Return: the path, or NULL when none is usable now.
 */
struct rdmablk_ipath *rdmablk_idev_select_path(struct rdmablk_idev *idev,
					       u32 qid)
{
	struct rdmablk_ipath *paths[RDMABLK_MAX_PATHS], *path;
	struct rdmablk_mp_cand cand[RDMABLK_MAX_PATHS];
	bool full[RDMABLK_MAX_PATHS], room[2] = {};
	u32 i, n = 0;
	int pick;

	for (i = 0; i < RDMABLK_MAX_PATHS; i++) {
		path = rcu_dereference(idev->paths[i]);
		if (!path)
			continue;
		paths[n] = path;
		cand[n].usable = READ_ONCE(path->state) == RDMABLK_DEV_LIVE &&
				 test_bit(RDMABLK_IQ_LIVE,
					  &path->queues[qid].flags);
		/* Granted less than the tags, and all of it in flight. */
		full[n] = cand[n].usable &&
			  !rdmablk_iqueue_has_credit(idev, &path->queues[qid]);
		cand[n].standby = READ_ONCE(path->standby);
		cand[n].inflight = max(atomic_read(&path->inflight), 0);
		/* A stale average counts as none: the path gets a request. */
		cand[n].latency_ns = time_after(jiffies,
						READ_ONCE(path->latency_at) +
						RDMABLK_LATENCY_STALE) ?
				     0 : READ_ONCE(path->latency_ns);
		n++;
	}
	/* One path: nothing to choose, and no shared counter to bump. */
	if (n == 1)
		return cand[0].usable ? paths[0] : NULL;
	/*
	 * A path with no credit left on this queue is passed over while
	 * another of its kind (active, or standby) has one, so that the
	 * policy's choice between the kinds stays: with none, one is chosen
	 * all the same, and the request waits for its credit
	 * (rdmablk_queue_rq()).
	 */
	for (i = 0; i < n; i++)
		if (cand[i].usable && !full[i])
			room[cand[i].standby] = true;
	for (i = 0; i < n; i++)
		if (full[i] && room[cand[i].standby])
			cand[i].usable = false;
	pick = rdmablk_mp_choose(READ_ONCE(idev->policy), cand, n,
				 atomic_inc_return(&idev->rr));
	return pick < 0 ? NULL : paths[pick];
}

/**
 * rdmablk_ipath_account() - a request sent on @path completed
 * @path: the path
 * @latency_ns: its latency
 *
 * Updates the moving average min-latency compares: 1/8 of each new one,
 * or the new one alone after RDMABLK_LATENCY_STALE without a request.
 * Concurrent updates may lose one sample; the average does not notice.
 */
void rdmablk_ipath_account(struct rdmablk_ipath *path, u64 latency_ns)
{
	u64 avg = READ_ONCE(path->latency_ns);

	if (!avg || time_after(jiffies, READ_ONCE(path->latency_at) +
					 RDMABLK_LATENCY_STALE))
		avg = latency_ns;
	else
		avg = avg - (avg >> 3) + (latency_ns >> 3);
	WRITE_ONCE(path->latency_ns, avg);
	WRITE_ONCE(path->latency_at, jiffies);
}

/* Publish @path in a free slot; under paths_lock. Return: 0 or -ENOSPC. */
static int rdmablk_idev_link_path(struct rdmablk_idev *idev,
				  struct rdmablk_ipath *path)
{
	unsigned long flags;
	u32 slot;

	lockdep_assert_held(&idev->paths_lock);
	for (slot = 0; slot < RDMABLK_MAX_PATHS; slot++)
		if (!rcu_access_pointer(idev->paths[slot]))
			break;
	if (slot == RDMABLK_MAX_PATHS)
		return -ENOSPC;
	spin_lock_irqsave(&idev->state_lock, flags);
	rcu_assign_pointer(idev->paths[slot], path);
	spin_unlock_irqrestore(&idev->state_lock, flags);
	return 0;
}

/*
 * Take @path out of the array and mark it DELETING (a path being
 * connected may still fail first: it stays NEW then, and nothing else
 * follows it); the device's state follows. Under paths_lock.
 */
static void rdmablk_idev_unlink_path(struct rdmablk_idev *idev,
				     struct rdmablk_ipath *path)
{
	unsigned long flags;
	u32 i;

	lockdep_assert_held(&idev->paths_lock);
	spin_lock_irqsave(&idev->state_lock, flags);
	for (i = 0; i < RDMABLK_MAX_PATHS; i++)
		if (rcu_access_pointer(idev->paths[i]) == path)
			RCU_INIT_POINTER(idev->paths[i], NULL);
	__rdmablk_ipath_change_state(path, RDMABLK_DEV_DELETING, NULL);
	spin_unlock_irqrestore(&idev->state_lock, flags);
}

/* @idev's path to @addr; under paths_lock. */
static struct rdmablk_ipath *rdmablk_idev_find_path(struct rdmablk_idev *idev,
						    const struct sockaddr_storage *addr)
{
	struct rdmablk_ipath *paths[RDMABLK_MAX_PATHS];
	struct rdmablk_ipath *path;
	u32 i, n;

	lockdep_assert_held(&idev->paths_lock);
	n = rdmablk_idev_paths(idev, paths);
	for (i = 0; i < n; i++) {
		path = paths[i];
		if (rdmablk_addr_equal(&path->addr, addr))
			return path;
	}
	return NULL;
}

/**
 * rdmablk_ipath_destroy() - take a path out of service and free it
 * @path: a path of its device, linked or not
 * @requeue: its I/O goes to the other paths (removal); else it fails
 *	(detach)
 *
 * The caller holds the device's paths_lock. Marks the path DELETING,
 * after which none of its works is armed again, cancels them, tears its
 * queues down and frees it once no dispatcher can still see it.
 */
static void rdmablk_ipath_destroy(struct rdmablk_ipath *path, bool requeue)
{
	struct rdmablk_idev *idev = path->idev;

	rdmablk_idev_unlink_path(idev, path);
	cancel_delayed_work_sync(&path->ka_work);
	cancel_delayed_work_sync(&path->reconnect_work);
	flush_work(&path->err_work);
	mutex_lock(&path->recovery_lock);
	rdmablk_ipath_teardown(path, requeue);
	mutex_unlock(&path->recovery_lock);
	/*
	 * Dispatchers, pollers, reports and timeout handlers read the array,
	 * or a request's queue on the path, under RCU; a handler may still
	 * report a loss, which queues err_work for a detached device: wait
	 * for them, then for the work.
	 */
	synchronize_rcu();
	cancel_work_sync(&path->err_work);
	rdmablk_ipath_free(path);
}

/**
 * rdmablk_idev_destroy_paths() - take every path down, failing their I/O
 * @idev: a device being detached
 */
void rdmablk_idev_destroy_paths(struct rdmablk_idev *idev)
{
	struct rdmablk_ipath *path;
	u32 i;

	mutex_lock(&idev->paths_lock);
	for (i = 0; i < RDMABLK_MAX_PATHS; i++) {
		path = rcu_dereference_protected(idev->paths[i],
						 lockdep_is_held(&idev->paths_lock));
		if (path)
			rdmablk_ipath_destroy(path, false);
	}
	mutex_unlock(&idev->paths_lock);
}

/**
 * rdmablk_idev_add_first_path() - connect an attach's path
 * @idev: the device being attached (NEW, listed, no disk yet)
 * @req: the ATTACH request
 * @extack: where a failure is explained
 *
 * Return: 0 with the path connected and linked, NEW; or a negative errno,
 * with nothing left behind.
 */
int rdmablk_idev_add_first_path(struct rdmablk_idev *idev,
				const struct rdmablk_attach_req *req,
				struct netlink_ext_ack *extack)
{
	struct rdmablk_ipath *path;
	int ret;

	path = rdmablk_ipath_alloc(idev, &req->addr, false);
	if (!path)
		return -ENOMEM;
	path->id = idev->next_path_id++;
	mutex_lock(&idev->paths_lock);
	ret = rdmablk_idev_link_path(idev, path);
	if (!ret) {
		mutex_lock(&path->recovery_lock);
		ret = rdmablk_ipath_connect(path, true, req, extack);
		mutex_unlock(&path->recovery_lock);
		if (ret)
			rdmablk_ipath_destroy(path, false);
	} else {
		rdmablk_ipath_free(path);
	}
	mutex_unlock(&idev->paths_lock);
	return ret;
}

/**
 * rdmablk_idev_path_add() - PATH_ADD: connect another path to a device
 * @req: which device, which address
 * @info: the device, on success
 * @extack: where a failure is explained
 *
 * Connects as many queues as the device has; they must lead to the same
 * export (UUID, size, block size, read-only) with at least the device's
 * I/O size (fewer credits than the device's limit what each queue sends:
 * rdmablk_ipath_connect_queue()). The path takes requests as soon as it
 * is live; a device that had no live path sends what waited at once.
 *
 * Return: 0; -ENOENT, -EEXIST (a path to that address exists), -ENOSPC
 * (RDMABLK_MAX_PATHS), -ENODEV (detached meanwhile), or why connecting
 * failed.
 */
int rdmablk_idev_path_add(const struct rdmablk_path_req *req,
			  struct rdmablk_dev_info *info,
			  struct netlink_ext_ack *extack)
{
	struct rdmablk_ipath *path;
	struct rdmablk_idev *idev;
	const char *why = NULL;
	int ret;

	/* With paths_lock, which detach takes before it frees the device. */
	idev = rdmablk_idev_get_locked(req->index);
	if (!idev) {
		NL_SET_ERR_MSG(extack, "no attached device with this index");
		return -ENOENT;
	}
	if (rdmablk_idev_find_path(idev, &req->addr)) {
		NL_SET_ERR_MSG(extack, "the device has a path to this address already");
		ret = -EEXIST;
		goto out_unlock;
	}
	path = rdmablk_ipath_alloc(idev, &req->addr, req->standby);
	if (!path) {
		ret = -ENOMEM;
		goto out_unlock;
	}
	path->id = idev->next_path_id;
	ret = rdmablk_idev_link_path(idev, path);
	if (ret) {
		NL_SET_ERR_MSG(extack, "the device has the most paths it can have");
		rdmablk_ipath_free(path);
		goto out_unlock;
	}
	idev->next_path_id++;
	mutex_lock(&path->recovery_lock);
	ret = rdmablk_ipath_connect(path, false, NULL, extack);
	if (!ret) {
		ret = rdmablk_ipath_go_live(path, &why);
		if (ret == -ECONNRESET)
			NL_SET_ERR_MSG(extack,
				       "the target broke the connection while the path was added; see the kernel log");
		else if (ret)
			NL_SET_ERR_MSG(extack, "the device is being detached");
	}
	mutex_unlock(&path->recovery_lock);
	if (ret) {
		if (why)
			pr_err("%s: connection to %pISpc lost while adding it as a path: %s\n",
			       idev->name, &req->addr, why);
		rdmablk_ipath_destroy(path, true);
		/* Under paths_lock since: the id goes to the next path. */
		idev->next_path_id--;
		goto out_unlock;
	}
	rdmablk_ipath_arm(path, &path->ka_work,
			  rdmablk_ka_interval(path->kato),
			  RDMABLK_DEV_LIVE, false);
	rdmablk_idev_path_live(idev);
	/* Another live path may let a stale one take a new keepalive_tmo. */
	rdmablk_idev_ka_roll(idev);
	pr_info("%s: path %u to %pISpc added%s\n", idev->name, path->id,
		&path->addr, path->standby ? " (standby)" : "");
	rdmablk_idev_snapshot(idev, info);
	rdmablk_idev_event(idev, RDMABLK_EVENT_PATH_ADDED, path, NULL);
out_unlock:
	mutex_unlock(&idev->paths_lock);
	return ret;
}

/**
 * rdmablk_idev_get_path_locked() - the path a PATH_DEL or PATH_SET names
 * @req: which device, which address
 * @extack: where a failure is explained
 *
 * Context: Process. Returns the path with its device's paths_lock held,
 * taken by rdmablk_idev_get_locked(): that lock is what keeps the path and
 * its device (->idev) from being freed (there is no reference to put), and
 * the caller releases it when done with both. Returns NULL with no lock
 * held.
 *
 * Return: the path, or NULL (-ENOENT: no such device, or no path of it to
 * that address).
 */
static struct rdmablk_ipath *
rdmablk_idev_get_path_locked(const struct rdmablk_path_req *req,
			     struct netlink_ext_ack *extack)
{
	struct rdmablk_ipath *path;
	struct rdmablk_idev *idev;

	idev = rdmablk_idev_get_locked(req->index);
	if (!idev) {
		NL_SET_ERR_MSG(extack, "no attached device with this index");
		return NULL;
	}
	path = rdmablk_idev_find_path(idev, &req->addr);
	if (!path) {
		NL_SET_ERR_MSG(extack, "the device has no path to this address");
		mutex_unlock(&idev->paths_lock);
	}
	return path;
}

/**
 * rdmablk_idev_path_del() - PATH_DEL: remove a path of a device
 * @req: which device, which address
 * @extack: where a failure is explained
 *
 * Its in-flight requests go to the other paths (or wait for one); none is
 * lost. The last path is not removed: detach the device.
 *
 * Return: 0, -ENOENT, or -EBUSY for the last path.
 */
int rdmablk_idev_path_del(const struct rdmablk_path_req *req,
			  struct netlink_ext_ack *extack)
{
	struct rdmablk_ipath *paths[RDMABLK_MAX_PATHS];
	struct rdmablk_ipath *path;
	struct rdmablk_idev *idev;
	u32 state;
	int ret = 0;

	path = rdmablk_idev_get_path_locked(req, extack);
	if (!path)
		return -ENOENT;
	/* The device outlives @path, freed below, while paths_lock is held. */
	idev = path->idev;
	/* @path is one of them. */
	if (rdmablk_idev_paths(idev, paths) == 1) {
		NL_SET_ERR_MSG(extack, "this is the device's last path: detach the device instead");
		ret = -EBUSY;
		goto out_unlock;
	}
	pr_info("%s: removing path %u to %pISpc\n", idev->name, path->id,
		&path->addr);
	rdmablk_idev_event(idev, RDMABLK_EVENT_PATH_REMOVED, path, NULL);
	state = rdmablk_idev_state(idev);
	rdmablk_ipath_destroy(path, true);
	if (rdmablk_idev_state(idev) != state)
		rdmablk_idev_event(idev, RDMABLK_EVENT_DEVICE_STATE, NULL,
				   "path removed");
out_unlock:
	mutex_unlock(&idev->paths_lock);
	return ret;
}

/**
 * rdmablk_idev_path_set() - PATH_SET: mark a path standby or active
 * @req: which device, which address, what setting
 * @extack: where a failure is explained
 *
 * Return: 0 or -ENOENT.
 */
int rdmablk_idev_path_set(const struct rdmablk_path_req *req,
			  struct netlink_ext_ack *extack)
{
	struct rdmablk_ipath *path;
	struct rdmablk_idev *idev;

	path = rdmablk_idev_get_path_locked(req, extack);
	if (!path)
		return -ENOENT;
	idev = path->idev;
	WRITE_ONCE(path->standby, req->standby);
	pr_info("%s: path %u to %pISpc is %s\n", idev->name, path->id,
		&path->addr, req->standby ? "on standby" : "active");
	rdmablk_idev_event(idev, RDMABLK_EVENT_PATH_STATE, path,
			   req->standby ? "standby" : "active");
	mutex_unlock(&idev->paths_lock);
	return 0;
}
