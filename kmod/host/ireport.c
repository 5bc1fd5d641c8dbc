// SPDX-License-Identifier: GPL-2.0
/*
 * What an attached disk reports: a snapshot for DEV_GET and the events
 * (rdmablk_idev_snapshot(), rdmablk_idev_event()), and its files in
 * /sys/block/rdmablkN/rdmablk/:
 *
 *   export, uuid, target   its identity, for udev (stable names) and admins;
 *                          fixed for the life of the disk: a reconnect to a
 *                          different export is refused
 *   state                  live, reconnecting, dead or deleting
 *   reconnects             successful reconnects since attach
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
 * spaces: an array of one type, as sysfs allows. The counters are those
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
}

/**
 * rdmablk_idev_snapshot() - what DEV_GET and the events say of a device
 * @idev: the device
 * @info: filled in
 */
void rdmablk_idev_snapshot(struct rdmablk_idev *idev,
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
	info->nr_poll_queues = idev->nr_poll_queues;
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
	/* Every connection of a live device authenticated so, or failed. */
	info->auth = idev->target_key.hmac ? RDMABLK_AUTH_MODE_MUTUAL :
		     idev->key.hmac ? RDMABLK_AUTH_MODE_HOST :
				      RDMABLK_AUTH_MODE_NONE;

	info->next_attempt_ms = 0;
	if (info->state == RDMABLK_DEV_RECONNECTING &&
	    delayed_work_pending(&idev->reconnect_work)) {
		when = READ_ONCE(idev->reconnect_work.timer.expires);
		if (time_after(when, jiffies))
			info->next_attempt_ms = jiffies_to_msecs(when - jiffies);
	}

	for (i = 0; i < idev->nr_queues && i < RDMABLK_MAX_QUEUES; i++)
		rdmablk_iqueue_stats_read(&idev->queues[i], &info->queue[i]);
}

/**
 * rdmablk_idev_event() - multicast an event about a device
 * @idev: the device
 * @event: what happened
 * @reason: why, or NULL
 *
 * Process context. An event that cannot be allocated is not sent: the
 * daemon's periodic check finds the state anyway.
 */
void rdmablk_idev_event(struct rdmablk_idev *idev, enum rdmablk_event event,
			const char *reason)
{
	struct rdmablk_dev_info *info;

	info = kmalloc(sizeof(*info), GFP_KERNEL);
	if (!info)
		return;
	rdmablk_idev_snapshot(idev, info);
	rdmablk_nl_event_dev(event, info, reason);
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

static ssize_t target_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "%pISpc\n", &rdmablk_dev_to_idev(dev)->addr);
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
	return sysfs_emit(buf, "%u\n",
			  READ_ONCE(rdmablk_dev_to_idev(dev)->reconnects));
}
static DEVICE_ATTR_RO(reconnects);

static ssize_t queue_state_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct rdmablk_idev *idev = rdmablk_dev_to_idev(dev);
	int len = 0;
	u32 i;

	for (i = 0; i < idev->nr_queues; i++)
		len += sysfs_emit_at(buf, len, "%s%s", i ? " " : "",
				     test_bit(RDMABLK_IQ_LIVE,
					      &idev->queues[i].flags) ?
				     "live" : "down");
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

/* One counter of every queue: @off is its place in rdmablk_queue_info. */
static ssize_t rdmablk_queue_counter_show(struct device *dev, char *buf,
					  size_t off)
{
	struct rdmablk_idev *idev = rdmablk_dev_to_idev(dev);
	struct rdmablk_queue_info qi;
	int len = 0;
	u32 i;

	for (i = 0; i < idev->nr_queues; i++) {
		rdmablk_iqueue_stats_read(&idev->queues[i], &qi);
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

static struct attribute *rdmablk_disk_attrs[] = {
	&dev_attr_export.attr,
	&dev_attr_uuid.attr,
	&dev_attr_target.attr,
	&dev_attr_state.attr,
	&dev_attr_reconnects.attr,
	&dev_attr_queue_state.attr,
	&dev_attr_poll_queues.attr,
	&dev_attr_queue_commands.attr,
	&dev_attr_queue_completed.attr,
	&dev_attr_queue_errors.attr,
	&dev_attr_queue_requeued.attr,
	&dev_attr_queue_read_bytes.attr,
	&dev_attr_queue_write_bytes.attr,
	&dev_attr_queue_latency_us.attr,
	&dev_attr_queue_doorbells.attr,
	&dev_attr_queue_sends.attr,
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
	char target[sizeof("RDMABLK_TARGET=") + 64];
	char *envp[4] = { exp, uuid, target, NULL };

	snprintf(exp, sizeof(exp), "RDMABLK_EXPORT=%s", idev->export_name);
	snprintf(uuid, sizeof(uuid), "RDMABLK_UUID=%pUb", idev->info.uuid);
	snprintf(target, sizeof(target), "RDMABLK_TARGET=%pISpc", &idev->addr);
	kobject_uevent_env(&disk_to_dev(idev->disk)->kobj, KOBJ_CHANGE, envp);
}
