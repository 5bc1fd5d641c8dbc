// SPDX-License-Identifier: GPL-2.0
/*
 * Initiator devices: an attached export as the blk-mq disk /dev/rdmablkN.
 *
 * Locking and lifetime:
 *  - rdmablk_idevs_lock (mutex) protects rdmablk_idevs, the attached
 *    devices. Held across attach's lookup and insertion, not across
 *    connecting, so a slow target does not block other requests; a device
 *    being attached is listed (state 0) so it cannot be attached twice.
 *  - idev->state_lock (spinlock, taken from completion context) protects
 *    idev->state.
 *  - When a connection is lost, err_work stops every queue (after which no
 *    completion runs) and fails the requests still outstanding; the device
 *    stays and fails I/O until detached.
 *  - Detach removes the disk (waiting for in-flight I/O, which completes or
 *    fails), stops and frees the queues and frees the device.
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
static int rdmablk_major;

static void rdmablk_idev_set_state(struct rdmablk_idev *idev, u32 state)
{
	unsigned long flags;

	spin_lock_irqsave(&idev->state_lock, flags);
	idev->state = state;
	spin_unlock_irqrestore(&idev->state_lock, flags);
}

static u32 rdmablk_idev_state(struct rdmablk_idev *idev)
{
	unsigned long flags;
	u32 state;

	spin_lock_irqsave(&idev->state_lock, flags);
	state = idev->state;
	spin_unlock_irqrestore(&idev->state_lock, flags);
	return state;
}

static void rdmablk_idev_snapshot(struct rdmablk_idev *idev,
				  struct rdmablk_dev_info *info)
{
	info->index = idev->index;
	strscpy(info->name, idev->name, sizeof(info->name));
	info->addr = idev->addr;
	strscpy(info->export_name, idev->export_name,
		sizeof(info->export_name));
	info->info = idev->info;
	info->nr_queues = idev->nr_queues;
	info->queue_depth = idev->queue_depth;
	info->state = rdmablk_idev_state(idev);
}

static void rdmablk_idev_event(struct rdmablk_idev *idev,
			       enum rdmablk_event event)
{
	struct rdmablk_dev_info info;

	rdmablk_idev_snapshot(idev, &info);
	rdmablk_nl_event_dev(event, &info);
}

/**
 * rdmablk_idev_conn_lost() - a queue lost its connection
 * @idev: the device
 *
 * Any context. For a live device, or one being detached, schedules err_work
 * (once while it is pending).
 */
void rdmablk_idev_conn_lost(struct rdmablk_idev *idev)
{
	unsigned long flags;
	bool stop;

	spin_lock_irqsave(&idev->state_lock, flags);
	/* While detaching, in-flight I/O must still be failed, not waited for. */
	stop = idev->state == RDMABLK_DEV_LIVE ||
	       idev->state == RDMABLK_DEV_DELETING;
	if (idev->state == RDMABLK_DEV_LIVE)
		idev->state = RDMABLK_DEV_DEAD;
	spin_unlock_irqrestore(&idev->state_lock, flags);
	if (stop)
		queue_work(rdmablk_wq, &idev->err_work);
}

static bool rdmablk_cancel_rq(struct request *rq, void *data)
{
	struct rdmablk_ireq *req = blk_mq_rq_to_pdu(rq);

	if (blk_mq_rq_state(rq) != MQ_RQ_IN_FLIGHT)
		return true;
	req->status = RDMABLK_S_IO_ERROR;
	blk_mq_complete_request(rq);
	return true;
}

/* Stop every queue, then fail what is still outstanding. */
static void rdmablk_idev_stop_queues(struct rdmablk_idev *idev)
{
	u32 i;

	for (i = 0; i < idev->nr_queues; i++)
		rdmablk_iqueue_stop(&idev->queues[i]);
	if (idev->tag_set.tags) {
		blk_mq_tagset_busy_iter(&idev->tag_set, rdmablk_cancel_rq, NULL);
		blk_mq_tagset_wait_completed_request(&idev->tag_set);
	}
}

static void rdmablk_idev_err_work(struct work_struct *work)
{
	struct rdmablk_idev *idev = container_of(work, struct rdmablk_idev,
						 err_work);

	bool deleting = rdmablk_idev_state(idev) == RDMABLK_DEV_DELETING;

	if (!deleting)
		pr_warn("%s: connection to %pISpc lost; failing I/O until detached\n",
			idev->name, &idev->addr);
	rdmablk_idev_stop_queues(idev);
	if (!deleting)
		rdmablk_idev_event(idev, RDMABLK_EVENT_DEVICE_STATE);
}

static blk_status_t rdmablk_queue_rq(struct blk_mq_hw_ctx *hctx,
				     const struct blk_mq_queue_data *bd)
{
	struct rdmablk_iqueue *queue = hctx->driver_data;
	struct request *rq = bd->rq;
	blk_status_t sts;

	if (unlikely(!test_bit(RDMABLK_IQ_LIVE, &queue->flags) ||
		     rdmablk_idev_state(queue->idev) != RDMABLK_DEV_LIVE))
		return BLK_STS_IOERR;

	blk_mq_start_request(rq);
	sts = rdmablk_iqueue_submit(queue, rq);
	if (unlikely(sts == BLK_STS_IOERR))
		rdmablk_idev_conn_lost(queue->idev);
	return sts;
}

static void rdmablk_complete_rq(struct request *rq)
{
	struct rdmablk_ireq *req = blk_mq_rq_to_pdu(rq);
	blk_status_t sts;

	rdmablk_ireq_unmap(rq);
	switch (req->status) {
	case RDMABLK_S_OK:
		sts = BLK_STS_OK;
		break;
	case RDMABLK_S_NO_SPACE:
		sts = BLK_STS_NOSPC;
		break;
	case RDMABLK_S_UNSUPPORTED:
		sts = BLK_STS_NOTSUPP;
		break;
	case RDMABLK_S_RANGE:
	case RDMABLK_S_READ_ONLY:
		sts = BLK_STS_TARGET;
		break;
	default:
		sts = BLK_STS_IOERR;
		break;
	}
	blk_mq_end_request(rq, sts);
}

static enum blk_eh_timer_return rdmablk_timeout(struct request *rq)
{
	struct rdmablk_ireq *req = blk_mq_rq_to_pdu(rq);

	pr_warn_ratelimited("%s: command timed out; treating the connection as lost\n",
			    req->queue->idev->name);
	/* err_work fails this request once the queues are stopped. */
	rdmablk_idev_conn_lost(req->queue->idev);
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
	return req->cmd ? 0 : -ENOMEM;
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

static void rdmablk_idev_free_queues(struct rdmablk_idev *idev)
{
	u32 i;

	for (i = 0; idev->queues && i < idev->nr_queues; i++)
		rdmablk_iqueue_free(&idev->queues[i]);
}

/* Connect and open every queue; the first one learns the limits. */
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

	q0 = &idev->queues[0];
	idev->nr_queues = 1;
	ret = rdmablk_iqueue_connect(q0, req->queue_depth, extack);
	if (ret)
		return ret;
	ret = rdmablk_iqueue_open(q0, extack);
	if (ret)
		return ret;

	idev->info = q0->open_info;
	idev->queue_depth = q0->params.queue_depth;
	idev->max_io_size = q0->params.max_io_size;
	idev->inline_max = q0->params.inline_max;
	want = min_t(u32, want, q0->params.max_queues);

	for (i = 1; i < want; i++) {
		struct rdmablk_iqueue *q = &idev->queues[i];

		idev->nr_queues = i + 1;
		ret = rdmablk_iqueue_connect(q, idev->queue_depth, extack);
		if (ret)
			return ret;
		ret = rdmablk_iqueue_open(q, extack);
		if (ret)
			return ret;
		if (q->params.queue_depth != idev->queue_depth ||
		    memcmp(q->open_info.uuid, idev->info.uuid,
			   RDMABLK_UUID_SIZE) ||
		    q->open_info.size != idev->info.size) {
			NL_SET_ERR_MSG(extack, "the target's queues disagree about the export");
			return -EPROTO;
		}
	}

	for (i = 0; i < idev->nr_queues; i++) {
		ret = rdmablk_iqueue_init_mrs(&idev->queues[i],
					      idev->max_io_size / SZ_4K + 1);
		if (ret) {
			NL_SET_ERR_MSG(extack, "cannot allocate memory registrations");
			return ret;
		}
	}
	return 0;
}

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
		blk_queue_max_discard_sectors(q, min_t(u32, info->max_discard_sectors,
						       UINT_MAX >> SECTOR_SHIFT));
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

static int rdmablk_idev_add_disk(struct rdmablk_idev *idev)
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
	set->driver_data = idev;
	ret = blk_mq_alloc_tag_set(set);
	if (ret)
		return ret;

	idev->disk = blk_mq_alloc_disk(set, idev);
	if (IS_ERR(idev->disk)) {
		ret = PTR_ERR(idev->disk);
		idev->disk = NULL;
		goto out_free_tags;
	}
	idev->disk->major = rdmablk_major;
	idev->disk->first_minor = idev->index * 16;
	idev->disk->minors = 16;
	idev->disk->fops = &rdmablk_bdev_ops;
	idev->disk->private_data = idev;
	strscpy(idev->disk->disk_name, idev->name, DISK_NAME_LEN);
	rdmablk_idev_set_limits(idev);

	rdmablk_idev_set_state(idev, RDMABLK_DEV_LIVE);
	ret = add_disk(idev->disk);
	if (ret)
		goto out_put_disk;
	return 0;

out_put_disk:
	rdmablk_idev_set_state(idev, 0);
	put_disk(idev->disk);
	idev->disk = NULL;
out_free_tags:
	blk_mq_free_tag_set(set);
	set->tags = NULL;
	return ret;
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
int rdmablk_idev_attach(const struct rdmablk_attach_req *req,
			struct rdmablk_dev_info *info,
			struct netlink_ext_ack *extack)
{
	struct rdmablk_idev *idev, *other;
	int ret;

	idev = kzalloc(sizeof(*idev), GFP_KERNEL);
	if (!idev)
		return -ENOMEM;
	idev->addr = req->addr;
	strscpy(idev->export_name, req->export_name, sizeof(idev->export_name));
	memcpy(idev->hostid, req->hostid, sizeof(idev->hostid));
	spin_lock_init(&idev->state_lock);
	INIT_WORK(&idev->err_work, rdmablk_idev_err_work);
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
	ret = rdmablk_idev_add_disk(idev);
	if (ret) {
		NL_SET_ERR_MSG(extack, "cannot create the block device");
		goto out_free_queues;
	}

	pr_info("%s: attached %s on %pISpc, %llu bytes, %u queues of depth %u\n",
		idev->name, idev->export_name, &idev->addr, idev->info.size,
		idev->nr_queues, idev->queue_depth);
	rdmablk_idev_snapshot(idev, info);
	rdmablk_idev_event(idev, RDMABLK_EVENT_DEVICE_ATTACHED);
	return 0;

out_free_queues:
	rdmablk_idev_free_queues(idev);
	mutex_lock(&rdmablk_idevs_lock);
	list_del(&idev->node);
	mutex_unlock(&rdmablk_idevs_lock);
	rdmablk_idev_free(idev);
	return ret;
}

static void rdmablk_idev_destroy(struct rdmablk_idev *idev)
{
	rdmablk_idev_set_state(idev, RDMABLK_DEV_DELETING);
	/* In-flight I/O completes over the live queues, or is failed. */
	del_gendisk(idev->disk);
	cancel_work_sync(&idev->err_work);
	rdmablk_idev_stop_queues(idev);
	rdmablk_idev_free_queues(idev);
	put_disk(idev->disk);
	blk_mq_free_tag_set(&idev->tag_set);
	pr_info("%s: detached\n", idev->name);
	rdmablk_idev_event(idev, RDMABLK_EVENT_DEVICE_DETACHED);
	rdmablk_idev_free(idev);
}

/**
 * rdmablk_idev_detach() - remove /dev/rdmablkN
 * @index: N
 * @extack: where a failure is explained
 *
 * Return: 0, or -ENOENT.
 */
int rdmablk_idev_detach(int index, struct netlink_ext_ack *extack)
{
	struct rdmablk_idev *idev, *found = NULL;

	mutex_lock(&rdmablk_idevs_lock);
	list_for_each_entry(idev, &rdmablk_idevs, node) {
		if (idev->index == index && idev->disk) {
			found = idev;
			list_del(&idev->node);
			break;
		}
	}
	mutex_unlock(&rdmablk_idevs_lock);
	if (!found) {
		NL_SET_ERR_MSG(extack, "no attached device with this index");
		return -ENOENT;
	}
	rdmablk_idev_destroy(found);
	return 0;
}

/**
 * rdmablk_idev_get() - snapshot the @idx-th attached device, for dumps
 * @idx: position in the list
 * @info: result
 *
 * Return: 0, or -ENOENT past the end.
 */
int rdmablk_idev_get(unsigned long idx, struct rdmablk_dev_info *info)
{
	struct rdmablk_idev *idev;
	int ret = -ENOENT;

	mutex_lock(&rdmablk_idevs_lock);
	list_for_each_entry(idev, &rdmablk_idevs, node) {
		if (!idev->disk || idx--)
			continue;
		rdmablk_idev_snapshot(idev, info);
		ret = 0;
		break;
	}
	mutex_unlock(&rdmablk_idevs_lock);
	return ret;
}

static int rdmablk_initiator_add_one(struct ib_device *dev)
{
	return 0;
}

/* The RDMA device goes away: its queues must be freed now. */
static void rdmablk_initiator_remove_one(struct ib_device *dev, void *data)
{
	struct rdmablk_idev *idev;
	u32 i;

	mutex_lock(&rdmablk_idevs_lock);
	list_for_each_entry(idev, &rdmablk_idevs, node) {
		bool uses = false;

		if (!idev->disk)
			continue;
		for (i = 0; i < idev->nr_queues; i++)
			uses |= idev->queues[i].dev == dev;
		if (!uses)
			continue;
		rdmablk_idev_conn_lost(idev);
		flush_work(&idev->err_work);
		for (i = 0; i < idev->nr_queues; i++)
			rdmablk_iqueue_free(&idev->queues[i]);
	}
	mutex_unlock(&rdmablk_idevs_lock);
}

static struct ib_client rdmablk_initiator_client = {
	.name = "rdmablk_initiator",
	.add = rdmablk_initiator_add_one,
	.remove = rdmablk_initiator_remove_one,
};

int rdmablk_initiator_init(void)
{
	int ret;

	rdmablk_major = register_blkdev(0, "rdmablk");
	if (rdmablk_major < 0)
		return rdmablk_major;
	ret = ib_register_client(&rdmablk_initiator_client);
	if (ret)
		unregister_blkdev(rdmablk_major, "rdmablk");
	return ret;
}

/* Netlink must be gone, so no device can be attached. */
void rdmablk_initiator_exit(void)
{
	struct rdmablk_idev *idev;

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
	unregister_blkdev(rdmablk_major, "rdmablk");
}
