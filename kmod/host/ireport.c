// SPDX-License-Identifier: GPL-2.0
/*
 * What an attached disk reports: a snapshot for DEV_GET and the events
 * (rdmablk_idev_snapshot(), rdmablk_idev_event()), and its files in
 * /sys/block/rdmablkN/rdmablk/:
 *
 *   export, uuid, target   its identity, for udev (stable names) and admins
 *                          (target: every path's address, the first one's
 *                          first);
 *                          fixed for the life of the disk: a reconnect to a
 *                          different export is refused
 *   state                  live, reconnecting, dead or deleting
 *   reconnects             successful reconnects since attach, every
 *                          path's
 *   mp_policy              queue-depth, round-robin or min-latency
 *   paths                  a line per path: id, target, state, standby
 *                          or active, in flight, commands, failovers
 *   queue_state            per queue: live or down
 *   queue_commands         per queue: commands sent (again after a loss too)
 *   queue_completed        per queue: requests completed
 *   queue_errors           per queue: of those, completed with an error
 *   queue_requeued         per queue: requests put back after a loss
 *   queue_read_bytes       per queue: bytes read without an error
 *   queue_write_bytes      per queue: bytes written without an error
 *   queue_latency_us       per queue: the completed requests' latencies
 *                          added up (struct rdmablk_ireq.start_ns on)
 *
 * A per-queue file holds one value per queue, queue 0 first, separated by
 * spaces: an array of one type, as sysfs allows; each value adds up
 * every path's queue of that number (live: live on some path). The counters are those
 * of struct rdmablk_iqueue_stats, which DEV_GET reports too.
 *
 * The files exist from device_add_disk() to del_gendisk(), which waits for
 * their readers: the device and its queues outlive every read.
 */
#include <linux/blk-mq.h>
#include <linux/kobject.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <linux/uuid.h>

#include "initiator.h"

/**
 * rdmablk_iqueue_stats_read() - snapshot a queue's state and counters
 * @queue: the queue
 * @qi: filled in
 */
void rdmablk_iqueue_stats_read(struct rdmablk_iqueue *queue,
			       struct rdmablk_queue_info *qi)
{
	const struct rdmablk_iqueue_stats *st = &queue->stats;

	qi->state = test_bit(RDMABLK_IQ_LIVE, &queue->flags) ?
		    RDMABLK_QUEUE_LIVE : RDMABLK_QUEUE_DOWN;
	qi->commands = atomic64_read(&st->commands);
	qi->completed = atomic64_read(&st->completed);
	qi->errors = atomic64_read(&st->errors);
	qi->requeued = atomic64_read(&st->requeued);
	qi->read_bytes = atomic64_read(&st->read_bytes);
	qi->write_bytes = atomic64_read(&st->write_bytes);
	qi->latency_us = div_u64(atomic64_read(&st->latency_ns), NSEC_PER_USEC);
	qi->doorbells = atomic64_read(&st->doorbells);
	qi->sends = atomic64_read(&st->sends);
	qi->inline_posts = atomic64_read(&st->inline_posts);
	qi->held = atomic64_read(&st->held);
	qi->pushed = atomic64_read(&st->pushed);
	qi->read_sends = atomic64_read(&st->read_sends);
	qi->lone = atomic64_read(&st->lone);
}

/* Add @qi's counters to @sum; @sum is live when either is. */
static void rdmablk_queue_info_add(struct rdmablk_queue_info *sum,
				   const struct rdmablk_queue_info *qi)
{
	if (qi->state == RDMABLK_QUEUE_LIVE || !sum->state)
		sum->state = qi->state;
	sum->commands += qi->commands;
	sum->completed += qi->completed;
	sum->errors += qi->errors;
	sum->requeued += qi->requeued;
	sum->read_bytes += qi->read_bytes;
	sum->write_bytes += qi->write_bytes;
	sum->latency_us += qi->latency_us;
	sum->doorbells += qi->doorbells;
	sum->sends += qi->sends;
	sum->inline_posts += qi->inline_posts;
	sum->held += qi->held;
	sum->pushed += qi->pushed;
	sum->read_sends += qi->read_sends;
	sum->lone += qi->lone;
}

/* When @dwork of a path in @state fires next, in ms from now; 0 if not. */
static u32 rdmablk_next_attempt_ms(u32 state, struct delayed_work *dwork)
{
	unsigned long when;

	if (state != RDMABLK_DEV_RECONNECTING || !delayed_work_pending(dwork))
		return 0;
	when = READ_ONCE(dwork->timer.expires);
	return time_after(when, jiffies) ? jiffies_to_msecs(when - jiffies) : 0;
}

/*
 * What DEV_GET says of @path; its queues' counters are also added to
 * @info's per-queue sums. The caller holds the device's paths_lock, or
 * RCU with the path seen in the array (its queues outlive it then).
 */
static void rdmablk_ipath_snapshot(struct rdmablk_ipath *path,
				   struct rdmablk_dev_info *info,
				   struct rdmablk_path_info *pi)
{
	struct rdmablk_idev *idev = path->idev;
	struct rdmablk_queue_info qi;
	unsigned long flags, at;
	u32 i;

	memset(pi, 0, sizeof(*pi));
	pi->id = path->id;
	pi->addr = path->addr;
	pi->standby = READ_ONCE(path->standby);
	pi->inflight = max(atomic_read(&path->inflight), 0);
	pi->latency_us = div_u64(READ_ONCE(path->latency_ns), NSEC_PER_USEC);
	pi->failovers = READ_ONCE(path->failovers);
	at = READ_ONCE(path->failover_at);
	if (pi->failovers)
		pi->failover_age_ms = jiffies_to_msecs(jiffies - at);
	pi->reconnects = READ_ONCE(path->reconnects);
	spin_lock_irqsave(&idev->state_lock, flags);
	pi->state = path->state;
	pi->attempt = path->attempt;
	strscpy(pi->last_error, path->last_error, sizeof(pi->last_error));
	spin_unlock_irqrestore(&idev->state_lock, flags);
	pi->next_attempt_ms = rdmablk_next_attempt_ms(pi->state,
						      &path->reconnect_work);
	for (i = 0; i < min_t(u32, idev->nr_queues, RDMABLK_MAX_QUEUES); i++) {
		if (!path->queues)
			break;
		rdmablk_iqueue_stats_read(&path->queues[i], &qi);
		pi->commands += qi.commands;
		pi->completed += qi.completed;
		pi->errors += qi.errors;
		pi->requeued += qi.requeued;
		rdmablk_queue_info_add(&info->queue[i], &qi);
	}
}

/**
 * rdmablk_idev_snapshot() - what DEV_GET and the events say of a device
 * @idev: the device
 * @info: filled in
 *
 * The device's address, attempt, error and reconnects are its first
 * path's; its queues' counters add up every path's queue of that number.
 */
void rdmablk_idev_snapshot(struct rdmablk_idev *idev,
			   struct rdmablk_dev_info *info)
{
	struct rdmablk_ipath *path;
	struct rdmablk_path_info *first = NULL;
	unsigned long flags;
	u32 i, n = 0, extra = 0;

	memset(info, 0, sizeof(*info));
	info->index = idev->index;
	strscpy(info->name, idev->name, sizeof(info->name));
	strscpy(info->export_name, idev->export_name,
		sizeof(info->export_name));
	info->info = idev->info;
	info->nr_queues = idev->nr_queues;
	info->nr_poll_queues = idev->nr_poll_queues;
	info->queue_depth = idev->queue_depth;
	info->policy = READ_ONCE(idev->policy);
	info->tmo.reconnect_delay = READ_ONCE(idev->tmo.reconnect_delay);
	info->tmo.ctrl_loss_tmo = READ_ONCE(idev->tmo.ctrl_loss_tmo);
	info->tmo.fast_io_fail_tmo = READ_ONCE(idev->tmo.fast_io_fail_tmo);
	info->tmo.keepalive_tmo = READ_ONCE(idev->tmo.keepalive_tmo);
	spin_lock_irqsave(&idev->state_lock, flags);
	info->state = idev->state;
	spin_unlock_irqrestore(&idev->state_lock, flags);
	/* Every connection of a live device authenticated so, or failed. */
	info->auth = idev->target_key.hmac ? RDMABLK_AUTH_MODE_MUTUAL :
		     idev->key.hmac ? RDMABLK_AUTH_MODE_HOST :
				      RDMABLK_AUTH_MODE_NONE;

	rcu_read_lock();
	for (i = 0; i < RDMABLK_MAX_PATHS; i++) {
		path = rcu_dereference(idev->paths[i]);
		if (!path)
			continue;
		rdmablk_ipath_snapshot(path, info, &info->path[n]);
		if (!first) {
			first = &info->path[n];
			extra = READ_ONCE(path->extra_attempts);
		}
		n++;
	}
	rcu_read_unlock();
	info->nr_paths = n;
	if (first) {
		info->addr = first->addr;
		info->attempt = first->attempt;
		info->next_attempt_ms = first->next_attempt_ms;
		strscpy(info->last_error, first->last_error,
			sizeof(info->last_error));
	}
	for (i = 0; i < n; i++)
		info->reconnects += info->path[i].reconnects;
	info->max_attempts = rdmablk_idev_max_attempts(&info->tmo, extra);
}

/**
 * rdmablk_idev_event() - multicast an event about a device
 * @idev: the device
 * @event: what happened
 * @path: the path a PATH_* event is about, or NULL
 * @reason: why, or NULL
 *
 * Process context. An event that cannot be allocated is not sent: the
 * daemon's periodic check finds the state anyway.
 */
void rdmablk_idev_event(struct rdmablk_idev *idev, enum rdmablk_event event,
			const struct rdmablk_ipath *path, const char *reason)
{
	struct rdmablk_dev_info *info;

	info = kmalloc(sizeof(*info), GFP_KERNEL);
	if (!info)
		return;
	rdmablk_idev_snapshot(idev, info);
	rdmablk_nl_event_dev(event, info, path ? path->id : -1, reason);
	kfree(info);
}

static struct rdmablk_idev *rdmablk_dev_to_idev(struct device *dev)
{
	return dev_to_disk(dev)->private_data;
}

static ssize_t export_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "%s\n", rdmablk_dev_to_idev(dev)->export_name);
}
static DEVICE_ATTR_RO(export);

static ssize_t uuid_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%pUb\n", rdmablk_dev_to_idev(dev)->info.uuid);
}
static DEVICE_ATTR_RO(uuid);

/* The first path's target, and every other path's after it. */
static ssize_t target_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	struct rdmablk_idev *idev = rdmablk_dev_to_idev(dev);
	struct rdmablk_ipath *path;
	int i, len = 0;

	rcu_read_lock();
	for (i = 0; i < RDMABLK_MAX_PATHS; i++) {
		path = rcu_dereference(idev->paths[i]);
		if (path)
			len += sysfs_emit_at(buf, len, "%s%pISpc", len ? " " : "",
					     &path->addr);
	}
	rcu_read_unlock();
	return len + sysfs_emit_at(buf, len, "\n");
}
static DEVICE_ATTR_RO(target);

static ssize_t state_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct rdmablk_idev *idev = rdmablk_dev_to_idev(dev);
	unsigned long flags;
	u32 state;

	spin_lock_irqsave(&idev->state_lock, flags);
	state = idev->state;
	spin_unlock_irqrestore(&idev->state_lock, flags);
	return sysfs_emit(buf, "%s\n", rdmablk_dev_state_name(state));
}
static DEVICE_ATTR_RO(state);

static ssize_t reconnects_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct rdmablk_idev *idev = rdmablk_dev_to_idev(dev);
	struct rdmablk_ipath *path;
	u32 i, n = 0;

	rcu_read_lock();
	for (i = 0; i < RDMABLK_MAX_PATHS; i++) {
		path = rcu_dereference(idev->paths[i]);
		if (path)
			n += READ_ONCE(path->reconnects);
	}
	rcu_read_unlock();
	return sysfs_emit(buf, "%u\n", n);
}
static DEVICE_ATTR_RO(reconnects);

/* Every path's queue @qid, added up. */
static void rdmablk_idev_queue_sum(struct rdmablk_idev *idev, u32 qid,
				   struct rdmablk_queue_info *sum)
{
	struct rdmablk_queue_info qi;
	struct rdmablk_ipath *path;
	u32 i;

	memset(sum, 0, sizeof(*sum));
	rcu_read_lock();
	for (i = 0; i < RDMABLK_MAX_PATHS; i++) {
		path = rcu_dereference(idev->paths[i]);
		if (!path || !path->queues)
			continue;
		rdmablk_iqueue_stats_read(&path->queues[qid], &qi);
		rdmablk_queue_info_add(sum, &qi);
	}
	rcu_read_unlock();
}

/* Per queue: live when it is on some path. */
static ssize_t queue_state_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct rdmablk_idev *idev = rdmablk_dev_to_idev(dev);
	struct rdmablk_queue_info qi;
	int len = 0;
	u32 i;

	for (i = 0; i < idev->nr_queues; i++) {
		rdmablk_idev_queue_sum(idev, i, &qi);
		len += sysfs_emit_at(buf, len, "%s%s", i ? " " : "",
				     qi.state == RDMABLK_QUEUE_LIVE ?
				     "live" : "down");
	}
	return len + sysfs_emit_at(buf, len, "\n");
}
static DEVICE_ATTR_RO(queue_state);

/* How many of the queues above are polled: the last ones. */
static ssize_t poll_queues_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", rdmablk_dev_to_idev(dev)->nr_poll_queues);
}
static DEVICE_ATTR_RO(poll_queues);

/* The path policy: queue-depth, round-robin or min-latency. */
static ssize_t mp_policy_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	static const char * const names[] = {
		[RDMABLK_MP_QUEUE_DEPTH] = "queue-depth",
		[RDMABLK_MP_ROUND_ROBIN] = "round-robin",
		[RDMABLK_MP_MIN_LATENCY] = "min-latency",
	};
	u32 policy = READ_ONCE(rdmablk_dev_to_idev(dev)->policy);

	return sysfs_emit(buf, "%s\n", policy < ARRAY_SIZE(names) &&
			  names[policy] ? names[policy] : "unknown");
}
static DEVICE_ATTR_RO(mp_policy);

/*
 * One line per path: its id, target, state, standby or active, requests
 * in flight, commands sent, failovers.
 */
static ssize_t paths_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct rdmablk_idev *idev = rdmablk_dev_to_idev(dev);
	struct rdmablk_ipath *path;
	struct rdmablk_queue_info qi;
	u64 commands;
	int len = 0;
	u32 i, q;

	rcu_read_lock();
	for (i = 0; i < RDMABLK_MAX_PATHS; i++) {
		path = rcu_dereference(idev->paths[i]);
		if (!path)
			continue;
		commands = 0;
		for (q = 0; path->queues && q < idev->nr_queues; q++) {
			rdmablk_iqueue_stats_read(&path->queues[q], &qi);
			commands += qi.commands;
		}
		len += sysfs_emit_at(buf, len, "%u %pISpc %s %s %d %llu %u\n",
				     path->id, &path->addr,
				     rdmablk_dev_state_name(READ_ONCE(path->state)),
				     READ_ONCE(path->standby) ? "standby" : "active",
				     atomic_read(&path->inflight), commands,
				     READ_ONCE(path->failovers));
	}
	rcu_read_unlock();
	return len;
}
static DEVICE_ATTR_RO(paths);

/* One counter of every queue: @off is its place in rdmablk_queue_info. */
static ssize_t rdmablk_queue_counter_show(struct device *dev, char *buf,
					  size_t off)
{
	struct rdmablk_idev *idev = rdmablk_dev_to_idev(dev);
	struct rdmablk_queue_info qi;
	int len = 0;
	u32 i;

	for (i = 0; i < idev->nr_queues; i++) {
		rdmablk_idev_queue_sum(idev, i, &qi);
		len += sysfs_emit_at(buf, len, "%s%llu", i ? " " : "",
				     *(u64 *)((char *)&qi + off));
	}
	return len + sysfs_emit_at(buf, len, "\n");
}

#define RDMABLK_QUEUE_COUNTER(field)					\
static ssize_t queue_##field##_show(struct device *dev,		\
				    struct device_attribute *attr,	\
				    char *buf)				\
{									\
	return rdmablk_queue_counter_show(dev, buf,			\
		offsetof(struct rdmablk_queue_info, field));		\
}									\
static DEVICE_ATTR_RO(queue_##field)

RDMABLK_QUEUE_COUNTER(commands);
RDMABLK_QUEUE_COUNTER(completed);
RDMABLK_QUEUE_COUNTER(errors);
RDMABLK_QUEUE_COUNTER(requeued);
RDMABLK_QUEUE_COUNTER(read_bytes);
RDMABLK_QUEUE_COUNTER(write_bytes);
RDMABLK_QUEUE_COUNTER(latency_us);
RDMABLK_QUEUE_COUNTER(doorbells);
RDMABLK_QUEUE_COUNTER(sends);
RDMABLK_QUEUE_COUNTER(inline_posts);
RDMABLK_QUEUE_COUNTER(held);
RDMABLK_QUEUE_COUNTER(pushed);
RDMABLK_QUEUE_COUNTER(read_sends);
RDMABLK_QUEUE_COUNTER(lone);

static struct attribute *rdmablk_disk_attrs[] = {
	&dev_attr_export.attr,
	&dev_attr_uuid.attr,
	&dev_attr_target.attr,
	&dev_attr_state.attr,
	&dev_attr_reconnects.attr,
	&dev_attr_queue_state.attr,
	&dev_attr_poll_queues.attr,
	&dev_attr_mp_policy.attr,
	&dev_attr_paths.attr,
	&dev_attr_queue_commands.attr,
	&dev_attr_queue_completed.attr,
	&dev_attr_queue_errors.attr,
	&dev_attr_queue_requeued.attr,
	&dev_attr_queue_read_bytes.attr,
	&dev_attr_queue_write_bytes.attr,
	&dev_attr_queue_latency_us.attr,
	&dev_attr_queue_doorbells.attr,
	&dev_attr_queue_sends.attr,
	&dev_attr_queue_inline_posts.attr,
	&dev_attr_queue_held.attr,
	&dev_attr_queue_pushed.attr,
	&dev_attr_queue_read_sends.attr,
	&dev_attr_queue_lone.attr,
	NULL,
};

static const struct attribute_group rdmablk_disk_group = {
	.name = "rdmablk",
	.attrs = rdmablk_disk_attrs,
};

const struct attribute_group *rdmablk_disk_groups[] = {
	&rdmablk_disk_group,
	NULL,
};

/**
 * rdmablk_idev_uevent() - announce the disk's identity
 * @idev: the device, its disk added
 *
 * The identity of the files above, in a change uevent, for rules that
 * match on properties.
 */
void rdmablk_idev_uevent(struct rdmablk_idev *idev)
{
	char exp[sizeof("RDMABLK_EXPORT=") + RDMABLK_EXPORT_NAME_MAX];
	char uuid[sizeof("RDMABLK_UUID=") + UUID_STRING_LEN];
	char target[sizeof("RDMABLK_TARGET=") + 64] = "RDMABLK_TARGET=";
	char *envp[4] = { exp, uuid, target, NULL };
	struct rdmablk_ipath *path;

	snprintf(exp, sizeof(exp), "RDMABLK_EXPORT=%s", idev->export_name);
	snprintf(uuid, sizeof(uuid), "RDMABLK_UUID=%pUb", idev->info.uuid);
	/* The first path's: the stable names hang on the export, not on it. */
	rcu_read_lock();
	path = rcu_dereference(idev->paths[0]);
	if (path)
		snprintf(target, sizeof(target), "RDMABLK_TARGET=%pISpc",
			 &path->addr);
	rcu_read_unlock();
	kobject_uevent_env(&disk_to_dev(idev->disk)->kobj, KOBJ_CHANGE, envp);
}
