// SPDX-License-Identifier: GPL-2.0
/*
 * Target exports: local block devices served under a name.
 *
 * Locking and lifetime:
 *  - rdmablk_exports_lock (mutex) protects rdmablk_exports. A mutex because
 *    opening and closing block devices sleeps.
 *  - An export is referenced by the list and by every connection that
 *    opened it. Removing it unlinks it (no new OPEN finds it), closes its
 *    connections, drops the list's reference and waits for the last
 *    connection to let go before the backing device is closed. So a
 *    removed export's device is never touched again once removal returns.
 *  - rdmablk_exports_gen counts changes of the list, for discovery. It is
 *    changed under rdmablk_exports_lock, so a discovery log taken under
 *    the lock reports the generation that matches its entries.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/blkdev.h>
#include <linux/mount.h>
#include <linux/mutex.h>
#include <linux/namei.h>
#include <linux/slab.h>

#include "target.h"

static LIST_HEAD(rdmablk_exports);
static DEFINE_MUTEX(rdmablk_exports_lock);
static atomic64_t rdmablk_exports_gen = ATOMIC64_INIT(1);
/* Under rdmablk_exports_lock: the last dump id given out. */
static unsigned long rdmablk_exports_ids;

/**
 * rdmablk_exports_generation() - the export list's generation
 *
 * Return: a number that changes whenever an export is added or removed.
 */
u64 rdmablk_exports_generation(void)
{
	return atomic64_read(&rdmablk_exports_gen);
}

/**
 * rdmablk_export_disc_log() - the exports a host may see, for discovery
 * @hostid: the asking host
 * @authenticated: the host proved it is @hostid: exports that require
 *	authentication are listed too
 * @start: index, among the exports @hostid may see, of the first to report
 * @entries: room for @max entries; may be NULL when @max is 0
 * @max: most entries to report
 * @generation: the list's generation the result belongs to
 * @total: how many exports @hostid may see
 *
 * Return: entries written.
 */
u32 rdmablk_export_disc_log(const u8 *hostid, bool authenticated, u32 start,
			    struct rdmablk_disc_entry *entries, u32 max,
			    u64 *generation, u32 *total)
{
	struct rdmablk_disc_entry_info info;
	struct rdmablk_export *exp;
	u32 visible = 0, count = 0;

	mutex_lock(&rdmablk_exports_lock);
	*generation = atomic64_read(&rdmablk_exports_gen);
	list_for_each_entry(exp, &rdmablk_exports, node) {
		if (!rdmablk_export_allows(exp, hostid) ||
		    (exp->auth_required && !authenticated))
			continue;
		if (visible++ < start || count >= max)
			continue;
		strscpy(info.name, exp->name, sizeof(info.name));
		memcpy(info.uuid, exp->uuid, sizeof(info.uuid));
		info.size = exp->params.size;
		info.logical_block_size = exp->params.logical_block_size;
		info.physical_block_size = exp->physical_block_size;
		info.flags = exp->params.flags;
		rdmablk_disc_entry_encode(&entries[count++], &info);
	}
	mutex_unlock(&rdmablk_exports_lock);
	*total = visible;
	return count;
}

static struct rdmablk_export *rdmablk_export_find(const char *name)
{
	struct rdmablk_export *exp;

	lockdep_assert_held(&rdmablk_exports_lock);

	list_for_each_entry(exp, &rdmablk_exports, node)
		if (!strcmp(exp->name, name))
			return exp;
	return NULL;
}

static void rdmablk_export_release(struct kref *ref)
{
	struct rdmablk_export *exp = container_of(ref, struct rdmablk_export,
						  ref);

	complete(&exp->released);
}

/**
 * rdmablk_export_put() - drop a connection's reference
 * @exp: the export
 */
void rdmablk_export_put(struct rdmablk_export *exp)
{
	kref_put(&exp->ref, rdmablk_export_release);
}

/**
 * rdmablk_export_lookup() - find an export for OPEN and take a reference
 * @name: export name
 *
 * Return: the export, or NULL.
 */
struct rdmablk_export *rdmablk_export_lookup(const char *name)
{
	struct rdmablk_export *exp;

	mutex_lock(&rdmablk_exports_lock);
	exp = rdmablk_export_find(name);
	if (exp)
		kref_get(&exp->ref);
	mutex_unlock(&rdmablk_exports_lock);
	return exp;
}

static void rdmablk_export_set_params(struct rdmablk_export *exp,
				      bool read_only)
{
	struct block_device *bdev = exp->bdev;
	struct rdmablk_export_params *p = &exp->params;

	p->size = bdev_nr_bytes(bdev);
	p->logical_block_size = bdev_logical_block_size(bdev);
	p->max_io_size = RDMABLK_MAX_IO_SIZE;
	p->inline_max = RDMABLK_INLINE_MAX;
	p->flags = 0;
	if (read_only)
		p->flags |= RDMABLK_EXP_READ_ONLY;
	if (bdev_write_cache(bdev))
		p->flags |= RDMABLK_EXP_FLUSH;
	if (bdev_fua(bdev))
		p->flags |= RDMABLK_EXP_FUA;
	if (!bdev_nonrot(bdev))
		p->flags |= RDMABLK_EXP_ROTATIONAL;
	/* Zeroing is emulated by the block layer when the device lacks it. */
	p->flags |= RDMABLK_EXP_WRITE_ZEROES;
	p->max_discard_sectors = UINT_MAX >> RDMABLK_SECTOR_SHIFT;
	if (bdev_max_discard_sectors(bdev)) {
		p->flags |= RDMABLK_EXP_DISCARD;
		exp->discard_granularity = bdev_discard_granularity(bdev);
	}
	exp->physical_block_size = bdev_physical_block_size(bdev);
}

/**
 * rdmablk_export_allows() - may this host open the export?
 * @exp: the export
 * @hostid: the host's id, from OPEN
 *
 * Return: true when the export has no allow list or @hostid is on it.
 */
bool rdmablk_export_allows(const struct rdmablk_export *exp, const u8 *hostid)
{
	u32 i;

	if (!exp->nr_allowed)
		return true;
	for (i = 0; i < exp->nr_allowed; i++)
		if (!memcmp(exp->allowed[i], hostid, RDMABLK_UUID_SIZE))
			return true;
	return false;
}

static void rdmablk_export_free(struct rdmablk_export *exp)
{
	kfree(exp->allowed);
	kfree(exp);
}

/*
 * The device at @path, for a caller who could open it itself, for reading
 * and, unless @read_only, for writing: every operation is open to
 * CAP_NET_ADMIN, which grants no access to block devices, so the kernel
 * must not open one for a caller whose own open() would be refused (the
 * device node's permissions, a nodev mount). One lookup, so that the
 * device checked is the device opened (no second resolution of a path
 * that may have changed in between, as blkdev_get_by_path() would make).
 */
static int rdmablk_export_bdev(const char *path, bool read_only,
			       dev_t *devt, struct netlink_ext_ack *extack)
{
	struct inode *inode;
	struct path p;
	int ret;

	ret = kern_path(path, LOOKUP_FOLLOW, &p);
	if (ret) {
		if (ret == -ENOENT)
			NL_SET_ERR_MSG(extack, "no block device at this path");
		else
			NL_SET_ERR_MSG(extack, "cannot look up the block device's path");
		return ret;
	}
	inode = d_backing_inode(p.dentry);
	if (!S_ISBLK(inode->i_mode)) {
		NL_SET_ERR_MSG(extack, "no block device at this path");
		ret = -ENOTBLK;
		goto out;
	}
	if ((p.mnt->mnt_flags & MNT_NODEV) ||
	    (p.mnt->mnt_sb->s_iflags & SB_I_NODEV)) {
		NL_SET_ERR_MSG(extack,
			       "device nodes cannot be opened on this mount (nodev)");
		ret = -EACCES;
		goto out;
	}
	ret = path_permission(&p, MAY_READ | (read_only ? 0 : MAY_WRITE));
	if (ret) {
		if (read_only)
			NL_SET_ERR_MSG(extack,
				       "the caller may not read this device node itself");
		else
			NL_SET_ERR_MSG(extack,
				       "the caller may not read and write this device node itself");
		goto out;
	}
	*devt = inode->i_rdev;
out:
	path_put(&p);
	return ret;
}

/**
 * rdmablk_export_add() - serve a block device under a name
 * @req: name (validated), path, UUID, read-only, allow list
 * @extack: where a failure is explained
 *
 * Return: 0, -EEXIST, or the error opening the path.
 */
int rdmablk_export_add(const struct rdmablk_export_req *req,
		       struct netlink_ext_ack *extack)
{
	const char *name = req->name, *path = req->path;
	bool read_only = req->read_only;
	struct rdmablk_export *exp;
	dev_t devt;
	int ret;

	exp = kzalloc(sizeof(*exp), GFP_KERNEL);
	if (!exp)
		return -ENOMEM;
	if (req->nr_allowed) {
		exp->allowed = kmemdup(req->allowed,
				       req->nr_allowed * RDMABLK_UUID_SIZE,
				       GFP_KERNEL);
		if (!exp->allowed) {
			kfree(exp);
			return -ENOMEM;
		}
		exp->nr_allowed = req->nr_allowed;
	}
	kref_init(&exp->ref);
	init_completion(&exp->released);
	spin_lock_init(&exp->conns_lock);
	INIT_LIST_HEAD(&exp->conns);
	strscpy(exp->name, name, sizeof(exp->name));
	strscpy(exp->path, path, sizeof(exp->path));
	memcpy(exp->uuid, req->uuid, sizeof(exp->uuid));

	mutex_lock(&rdmablk_exports_lock);
	if (rdmablk_export_find(name)) {
		NL_SET_ERR_MSG(extack,
			       "an export of this name exists; remove it first or pick another name");
		ret = -EEXIST;
		goto out_unlock;
	}

	ret = rdmablk_export_bdev(path, read_only, &devt, extack);
	if (ret)
		goto out_unlock;
	exp->mode = FMODE_READ | FMODE_EXCL;
	if (!read_only)
		exp->mode |= FMODE_WRITE;
	exp->bdev = blkdev_get_by_dev(devt, exp->mode, exp);
	if (IS_ERR(exp->bdev)) {
		ret = PTR_ERR(exp->bdev);
		if (ret == -EBUSY)
			NL_SET_ERR_MSG(extack,
				       "the device is in use (mounted, or exported already)");
		else if (ret == -ENXIO)
			NL_SET_ERR_MSG(extack, "no block device at this path");
		else
			NL_SET_ERR_MSG(extack, "cannot open the block device");
		goto out_unlock;
	}
	if (!read_only && bdev_read_only(exp->bdev)) {
		NL_SET_ERR_MSG(extack, "the device is read-only: export it read-only");
		ret = -EROFS;
		goto out_put_bdev;
	}
	rdmablk_export_set_params(exp, read_only);
	exp->auth_required = req->auth_required;
	exp->dump_id = ++rdmablk_exports_ids;
	list_add_tail(&exp->node, &rdmablk_exports);
	atomic64_inc(&rdmablk_exports_gen);
	/*
	 * Under the lock: once it is dropped, an EXPORT_DEL may free @exp,
	 * and its REMOVED event must come after this one.
	 */
	pr_info("export %s: %s, %llu bytes%s%s\n", exp->name, exp->path,
		exp->params.size, read_only ? ", read-only" : "",
		exp->auth_required ? ", authenticated hosts only" : "");
	rdmablk_nl_event_export(RDMABLK_EVENT_EXPORT_ADDED, exp->name,
				exp->uuid);
	mutex_unlock(&rdmablk_exports_lock);
	rdmablk_tconn_disc_notify();
	return 0;

out_put_bdev:
	blkdev_put(exp->bdev, exp->mode);
out_unlock:
	mutex_unlock(&rdmablk_exports_lock);
	rdmablk_export_free(exp);
	return ret;
}

/* Called with @exp unlinked: close its connections, wait, free. */
static void rdmablk_export_destroy(struct rdmablk_export *exp)
{
	rdmablk_tconn_close_export(exp);
	rdmablk_export_put(exp);
	wait_for_completion(&exp->released);

	blkdev_put(exp->bdev, exp->mode);
	pr_info("export %s removed\n", exp->name);
	rdmablk_nl_event_export(RDMABLK_EVENT_EXPORT_REMOVED, exp->name,
				exp->uuid);
	rdmablk_export_free(exp);
}

/**
 * rdmablk_export_del() - stop serving an export
 * @name: export name
 * @extack: where a failure is explained
 *
 * Live connections to the export are closed; returns once none is left.
 *
 * Return: 0, or -ENOENT.
 */
int rdmablk_export_del(const char *name, struct netlink_ext_ack *extack)
{
	struct rdmablk_export *exp;

	mutex_lock(&rdmablk_exports_lock);
	exp = rdmablk_export_find(name);
	if (!exp) {
		mutex_unlock(&rdmablk_exports_lock);
		NL_SET_ERR_MSG(extack, "no export of this name");
		return -ENOENT;
	}
	list_del(&exp->node);
	atomic64_inc(&rdmablk_exports_gen);
	mutex_unlock(&rdmablk_exports_lock);
	rdmablk_tconn_disc_notify();

	rdmablk_export_destroy(exp);
	return 0;
}

/**
 * rdmablk_export_get() - snapshot the next export of a dump
 * @pos: the dump cursor (roles.h), set past the export
 * @info: result
 *
 * Return: 0, or -ENOENT past the end.
 */
int rdmablk_export_get(unsigned long *pos, struct rdmablk_export_info *info)
{
	struct rdmablk_export *exp;
	struct list_head *conn;
	int ret = -ENOENT;

	mutex_lock(&rdmablk_exports_lock);
	list_for_each_entry(exp, &rdmablk_exports, node) {
		if (exp->dump_id < *pos)
			continue;
		*pos = exp->dump_id + 1;
		strscpy(info->name, exp->name, sizeof(info->name));
		strscpy(info->path, exp->path, sizeof(info->path));
		memcpy(info->uuid, exp->uuid, sizeof(info->uuid));
		info->size = exp->params.size;
		info->logical_block_size = exp->params.logical_block_size;
		info->physical_block_size = exp->physical_block_size;
		info->read_only = exp->params.flags & RDMABLK_EXP_READ_ONLY;
		info->auth_required = exp->auth_required;
		info->nr_allowed = exp->nr_allowed;
		memcpy(info->allowed, exp->allowed,
		       exp->nr_allowed * RDMABLK_UUID_SIZE);
		info->nr_conns = 0;
		spin_lock(&exp->conns_lock);
		list_for_each(conn, &exp->conns)
			info->nr_conns++;
		spin_unlock(&exp->conns_lock);
		ret = 0;
		break;
	}
	mutex_unlock(&rdmablk_exports_lock);
	return ret;
}

/**
 * rdmablk_exports_exit() - remove every export, at module unload
 *
 * Netlink and the listeners must be gone so no export or connection can
 * be added.
 */
void rdmablk_exports_exit(void)
{
	struct rdmablk_export *exp;

	for (;;) {
		mutex_lock(&rdmablk_exports_lock);
		exp = list_first_entry_or_null(&rdmablk_exports,
					       struct rdmablk_export, node);
		if (exp) {
			list_del(&exp->node);
			atomic64_inc(&rdmablk_exports_gen);
		}
		mutex_unlock(&rdmablk_exports_lock);
		if (!exp)
			break;
		rdmablk_export_destroy(exp);
	}
}
