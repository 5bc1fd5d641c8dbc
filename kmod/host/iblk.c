// SPDX-License-Identifier: GPL-2.0
/*
 * Initiator devices: the block device. blk-mq's operations (a request is
 * sent on its hardware context's queue, accounted and completed when
 * answered, requeued by recovery), the disk's limits from what the target
 * said, and its creation and addition. Which state lets a request through
 * is described at the top of idev.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blk-mq.h>
#include <linux/moduleparam.h>
#include <linux/random.h>
#include <linux/slab.h>

#include "initiator.h"
#include "../trace.h"

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

/*
 * Count a request that ends on @queue (or is put back, @requeue) and trace
 * it. Its latency runs from @start_ns (see struct rdmablk_ireq).
 */
static void rdmablk_account_rq(struct rdmablk_iqueue *queue,
			       struct request *rq, bool requeue)
{
	struct rdmablk_iqueue_stats *st = &queue->stats;
	struct rdmablk_ireq *req = blk_mq_rq_to_pdu(rq);
	u64 latency = ktime_get_ns() - req->start_ns;

	trace_rdmablk_cmd_complete(queue->idev->name, queue->qid, rq->tag,
				   req->gen, req->status, requeue, latency);
	if (requeue) {
		atomic64_inc(&st->requeued);
		return;
	}
	atomic64_inc(&st->completed);
	atomic64_add(latency, &st->latency_ns);
	rdmablk_ipath_account(queue->path, latency);
	if (req->status != RDMABLK_S_OK)
		atomic64_inc(&st->errors);
	else if (req_op(rq) == REQ_OP_READ)
		atomic64_add(blk_rq_bytes(rq), &st->read_bytes);
	else if (req_op(rq) == REQ_OP_WRITE)
		atomic64_add(blk_rq_bytes(rq), &st->write_bytes);
}

/*
 * End @rq with @status before it was sent: counted and traced too, on
 * @queue, or with none on the first path's queue of its hardware queue
 * (@hctx). Under the dispatch's RCU.
 */
static blk_status_t rdmablk_fail_rq(struct blk_mq_hw_ctx *hctx,
				    struct rdmablk_iqueue *queue,
				    struct request *rq, u16 status)
{
	struct rdmablk_ireq *req = blk_mq_rq_to_pdu(rq);
	struct rdmablk_idev *idev = hctx->driver_data;
	struct rdmablk_ipath *path;
	u32 i;

	req->status = status;
	for (i = 0; !queue && i < RDMABLK_MAX_PATHS; i++) {
		path = rcu_dereference(idev->paths[i]);
		if (path && path->queues)
			queue = &path->queues[hctx->queue_num];
	}
	if (queue)
		rdmablk_account_rq(queue, rq, false);
	return rdmablk_status_to_blk(status);
}

/*
 * Post what waits in queue @qid of every live path but @skip (whose
 * request was the batch's last, and went with it). Under the dispatch's
 * RCU; a path being torn down is past its dispatches (quiesced) before
 * its queues are stopped.
 */
static void rdmablk_commit_paths(struct rdmablk_idev *idev, u32 qid,
				 struct rdmablk_ipath *skip)
{
	struct rdmablk_ipath *path;
	u32 i;

	for (i = 0; i < RDMABLK_MAX_PATHS; i++) {
		path = rcu_dereference(idev->paths[i]);
		if (path && path != skip &&
		    READ_ONCE(path->state) == RDMABLK_DEV_LIVE)
			rdmablk_iqueue_commit(&path->queues[qid]);
	}
}

/*
 * Take a credit of @queue for @req where the target granted fewer than the
 * disk's tags (&rdmablk_iqueue.credits); elsewhere a tag is a credit, and
 * nothing is counted. Never counts past the grant, not even for a moment,
 * so that two dispatches of the hardware queue at once do not both fail
 * over one credit. Return: false when the queue has none left (or, on a
 * queue just connected, its grant is not seen yet): BLK_STS_RESOURCE,
 * whose rerun comes when a request of this hardware queue ends, or after
 * a short delay where blk-mq cannot be sure of that.
 */
static bool rdmablk_take_credit(struct rdmablk_idev *idev,
				struct rdmablk_iqueue *queue,
				struct rdmablk_ireq *req)
{
	u16 credits = READ_ONCE(queue->credits);
	int used;

	req->credit = false;
	if (likely(credits >= idev->queue_depth))
		return true;
	used = atomic_read(&queue->used);
	do {
		if (used >= credits)
			return false;
	} while (!atomic_try_cmpxchg(&queue->used, &used, used + 1));
	req->credit = true;
	return true;
}

static void rdmablk_put_credit(struct rdmablk_iqueue *queue,
			       struct rdmablk_ireq *req)
{
	if (req->credit) {
		req->credit = false;
		atomic_dec(&queue->used);
	}
}

static blk_status_t rdmablk_queue_rq(struct blk_mq_hw_ctx *hctx,
				     const struct blk_mq_queue_data *bd)
{
	struct rdmablk_idev *idev = hctx->driver_data;
	struct request *rq = bd->rq;
	struct rdmablk_ireq *req = blk_mq_rq_to_pdu(rq);
	struct rdmablk_iqueue *queue;
	struct rdmablk_ipath *path;
	bool deleting = false;
	blk_status_t sts;

	/* A new request, not one sent again: its retries start at 0. */
	if (!(rq->rq_flags & RQF_DONTPREP)) {
		req->retries = 0;
		req->start_ns = rq->start_time_ns ?: ktime_get_ns();
		rq->rq_flags |= RQF_DONTPREP;
	}

	switch (rdmablk_idev_state(idev)) {
	case RDMABLK_DEV_LIVE:
		break;
	case RDMABLK_DEV_DELETING:
		/*
		 * del_gendisk() writes back what is dirty, and detach left the
		 * live paths up for it (as nvmf_check_ready() lets a deleting
		 * controller's live queues through): sent while one is.
		 */
		deleting = true;
		break;
	case RDMABLK_DEV_RECONNECTING:
		/* Quiesced while no path is live, unless I/O is to fail fast. */
		if (!READ_ONCE(idev->fail_fast))
			return BLK_STS_RESOURCE;
		return rdmablk_fail_rq(hctx, NULL, rq, RDMABLK_S_IO_ERROR);
	default:
		return rdmablk_fail_rq(hctx, NULL, rq, RDMABLK_S_IO_ERROR);
	}
	/* Under the dispatch's RCU: a path is freed after a grace period. */
	path = rdmablk_idev_select_path(idev, hctx->queue_num);
	if (unlikely(!path)) {
		/* None will come back: a detach reconnects nothing. */
		if (deleting)
			return rdmablk_fail_rq(hctx, NULL, rq,
					       RDMABLK_S_IO_ERROR);
		return BLK_STS_RESOURCE;
	}
	queue = &path->queues[hctx->queue_num];
	if (unlikely(!rdmablk_take_credit(idev, queue, req)))
		return BLK_STS_RESOURCE;

	rdmablk_ireq_reset(rq);
	blk_mq_start_request(rq);
	atomic_inc(&path->inflight);
	sts = rdmablk_iqueue_submit(queue, rq, !bd->last);
	/*
	 * The batch ends here, but its earlier requests may have gone to
	 * other paths, whose queues still hold them: post those too.
	 */
	if (bd->last)
		rdmablk_commit_paths(idev, hctx->queue_num, path);
	if (likely(sts == BLK_STS_OK))
		return sts;
	atomic_dec(&path->inflight);
	rdmablk_put_credit(queue, req);
	/* Not on the path: a removed path must not be reachable from it. */
	WRITE_ONCE(req->queue, NULL);
	if (unlikely(sts == BLK_STS_IOERR)) {
		rdmablk_ipath_conn_lost(path, "cannot post a command");
		if (++req->retries > RDMABLK_MAX_RETRIES)
			return rdmablk_fail_rq(hctx, queue, rq, RDMABLK_S_IO_ERROR);
		/* Not sent: the request goes back with the others. */
		rdmablk_account_rq(queue, rq, true);
		blk_mq_requeue_request(rq, false);
		return BLK_STS_OK;
	}
	if (unlikely(sts == BLK_STS_NOTSUPP))
		return rdmablk_fail_rq(hctx, queue, rq, RDMABLK_S_UNSUPPORTED);
	return sts;
}

/*
 * Requests queued with more to come were the last: post them now, on
 * every live path they went to.
 */
static void rdmablk_commit_rqs(struct blk_mq_hw_ctx *hctx)
{
	rdmablk_commit_paths(hctx->driver_data, hctx->queue_num, NULL);
}

static void rdmablk_complete_rq(struct request *rq)
{
	struct rdmablk_ireq *req = blk_mq_rq_to_pdu(rq);

	rdmablk_ireq_unmap(rq);
	if (req->queue) {
		rdmablk_account_rq(req->queue, rq, req->requeue);
		atomic_dec(&req->queue->path->inflight);
		rdmablk_put_credit(req->queue, req);
		/* Sent again, it may go on another path. */
		WRITE_ONCE(req->queue, NULL);
	}
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
	struct rdmablk_iqueue *queue;

	/* A removed path is freed after a grace period: none ends under us. */
	rcu_read_lock();
	queue = READ_ONCE(req->queue);
	/* Not on a path (being sent, or put back): blk-mq looks again. */
	if (queue) {
		pr_warn_ratelimited("%s: command timed out on path %u; treating its connection as lost\n",
				    queue->idev->name, queue->path->id);
		/* err_work requeues the request once the path's queues are stopped. */
		rdmablk_ipath_conn_lost(queue->path, "command timed out");
	}
	rcu_read_unlock();
	return BLK_EH_RESET_TIMER;
}

static int rdmablk_init_hctx(struct blk_mq_hw_ctx *hctx, void *data,
			     unsigned int hctx_idx)
{
	hctx->driver_data = data;
	return 0;
}

/*
 * Hardware queues: the interrupt-driven ones serve default and read I/O,
 * the polled ones (queues nr_queues - nr_poll_queues onwards) polled I/O.
 */
static void rdmablk_map_queues(struct blk_mq_tag_set *set)
{
	struct rdmablk_idev *idev = set->driver_data;
	u32 nr_irq = idev->nr_queues - idev->nr_poll_queues;

	/* One map: blk-mq sized it (at most a queue per CPU). */
	if (set->nr_maps <= HCTX_TYPE_POLL) {
		blk_mq_map_queues(&set->map[HCTX_TYPE_DEFAULT]);
		return;
	}
	set->map[HCTX_TYPE_DEFAULT].nr_queues = nr_irq;
	set->map[HCTX_TYPE_DEFAULT].queue_offset = 0;
	blk_mq_map_queues(&set->map[HCTX_TYPE_DEFAULT]);
	set->map[HCTX_TYPE_READ].nr_queues = nr_irq;
	set->map[HCTX_TYPE_READ].queue_offset = 0;
	blk_mq_map_queues(&set->map[HCTX_TYPE_READ]);
	set->map[HCTX_TYPE_POLL].nr_queues = idev->nr_poll_queues;
	set->map[HCTX_TYPE_POLL].queue_offset = nr_irq;
	blk_mq_map_queues(&set->map[HCTX_TYPE_POLL]);
}

/* Reap the polled queue of this hardware queue on every path. */
static int rdmablk_poll(struct blk_mq_hw_ctx *hctx, struct io_comp_batch *iob)
{
	struct rdmablk_idev *idev = hctx->driver_data;
	struct rdmablk_ipath *path;
	int i, n = 0;

	/* A path is freed after a grace period; its queues with it. */
	rcu_read_lock();
	for (i = 0; i < RDMABLK_MAX_PATHS; i++) {
		path = rcu_dereference(idev->paths[i]);
		if (path && path->queues && path->queues[hctx->queue_num].polled)
			n += rdmablk_iqueue_poll(&path->queues[hctx->queue_num]);
	}
	rcu_read_unlock();
	return n;
}

static int rdmablk_init_request(struct blk_mq_tag_set *set, struct request *rq,
				unsigned int hctx_idx, unsigned int numa_node)
{
	struct rdmablk_ireq *req = blk_mq_rq_to_pdu(rq);

	/* On no path until sent on one. */
	req->queue = NULL;
	/* Not guessable by a target that never received the command. */
	req->gen = get_random_u16();
	return 0;
}

static const struct blk_mq_ops rdmablk_mq_ops = {
	.queue_rq = rdmablk_queue_rq,
	.commit_rqs = rdmablk_commit_rqs,
	.complete = rdmablk_complete_rq,
	.timeout = rdmablk_timeout,
	.init_hctx = rdmablk_init_hctx,
	.map_queues = rdmablk_map_queues,
	.poll = rdmablk_poll,
	.init_request = rdmablk_init_request,
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
int rdmablk_idev_alloc_disk(struct rdmablk_idev *idev)
{
	struct blk_mq_tag_set *set = &idev->tag_set;
	int ret;

	set->ops = &rdmablk_mq_ops;
	set->nr_hw_queues = idev->nr_queues;
	set->nr_maps = idev->nr_poll_queues ? HCTX_MAX_TYPES : 1;
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
	/* For the answer path, which may run meanwhile; see struct rdmablk_idev. */
	smp_store_release(&idev->tags, set->tags);

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
void rdmablk_idev_free_disk(struct rdmablk_idev *idev)
{
	if (idev->disk) {
		/*
		 * A path lost during the detach kicks the requeue list, maybe
		 * after del_gendisk() cancelled the queue's works for the last
		 * time: no kick may outlive the queue. The paths are down, so
		 * none comes after this.
		 */
		cancel_delayed_work_sync(&idev->disk->queue->requeue_work);
		put_disk(idev->disk);
		idev->disk = NULL;
	}
	if (idev->tag_set.tags) {
		WRITE_ONCE(idev->tags, NULL);
		blk_mq_free_tag_set(&idev->tag_set);
	}
}

/*
 * Add the disk, out of the ATTACH request's context as nvme's scan work
 * does: device_add_disk() reads the partition table, and a target that
 * does not answer that read must hold neither the netlink caller nor the
 * daemon. The read ends like any I/O, within the device's timeouts (or at
 * detach, which fails it). RDMABLK_IDEV_ADDING is set while this is queued
 * or running; RDMABLK_IDEV_ADDED once the disk is there.
 */
void rdmablk_idev_add_work(struct work_struct *work)
{
	struct rdmablk_idev *idev = container_of(work, struct rdmablk_idev,
						 add_work);
	int ret;

	ret = device_add_disk(NULL, idev->disk, rdmablk_disk_groups);
	if (ret) {
		pr_err("%s: cannot create the block device: %d; detach it\n",
		       idev->name, ret);
		rdmablk_idev_event(idev, RDMABLK_EVENT_DEVICE_STATE, NULL,
				   "cannot create the block device");
	} else {
		set_bit(RDMABLK_IDEV_ADDED, &idev->flags);
		rdmablk_idev_uevent(idev);
	}
	clear_bit(RDMABLK_IDEV_ADDING, &idev->flags);
}
