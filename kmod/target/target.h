/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Target role: listeners (listener.c), exports (export.c) and the
 * connections that use them (tconn.c, tio.c, disc.c; their shared
 * structures are in tconn.h).
 */
#ifndef RDMABLK_TARGET_H
#define RDMABLK_TARGET_H

#include <linux/blkdev.h>
#include <linux/completion.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/spinlock.h>

#include "proto.h"
#include "roles.h"

struct rdma_cm_id;
struct rdma_cm_event;

/**
 * struct rdmablk_export - a local block device served to initiators
 * @node: entry in the export list, under rdmablk_exports_lock
 * @dump_id: its dump cursor (roles.h), given out under rdmablk_exports_lock
 * @ref: held by the export list and by each connection that opened it
 * @released: completed when @ref drops to zero
 * @name: export name
 * @path: backing device path as given
 * @uuid: identity, persisted by the control plane
 * @bdev: the backing device, opened exclusively
 * @mode: how @bdev was opened
 * @params: what commands are checked against
 * @physical_block_size: bytes
 * @discard_granularity: bytes
 * @auth_required: only authenticated hosts may open it or see it listed
 * @nr_allowed: entries in @allowed; 0 lets every host connect
 * @allowed: host ids allowed to open the export
 * @conns_lock: protects @conns and @dead; process context only
 * @conns: connections that opened this export (struct rdmablk_tconn)
 * @dead: being removed, takes no new connection
 */
struct rdmablk_export {
	struct list_head node;
	unsigned long dump_id;
	struct kref ref;
	struct completion released;
	char name[RDMABLK_EXPORT_NAME_MAX];
	char path[RDMABLK_PATH_MAX];
	u8 uuid[RDMABLK_UUID_SIZE];
	struct block_device *bdev;
	fmode_t mode;
	struct rdmablk_export_params params;
	u32 physical_block_size;
	u32 discard_granularity;
	bool auth_required;
	u32 nr_allowed;
	u8 (*allowed)[RDMABLK_UUID_SIZE];
	spinlock_t conns_lock;	/* protects @conns and @dead */
	struct list_head conns;
	bool dead;
};

/* listener.c */
int rdmablk_listener_add(const struct sockaddr_storage *addr,
			 struct netlink_ext_ack *extack);
int rdmablk_listener_del(const struct sockaddr_storage *addr,
			 struct netlink_ext_ack *extack);
int rdmablk_listener_get(unsigned long *pos,
			 struct rdmablk_listener_info *info);
void rdmablk_listeners_exit(void);

/* export.c */
int rdmablk_export_add(const struct rdmablk_export_req *req,
		       struct netlink_ext_ack *extack);
bool rdmablk_export_allows(const struct rdmablk_export *exp, const u8 *hostid);
int rdmablk_export_del(const char *name, struct netlink_ext_ack *extack);
int rdmablk_export_get(unsigned long *pos, struct rdmablk_export_info *info);
struct rdmablk_export *rdmablk_export_lookup(const char *name);
void rdmablk_export_put(struct rdmablk_export *exp);
void rdmablk_exports_exit(void);
u64 rdmablk_exports_generation(void);
u32 rdmablk_export_disc_log(const u8 *hostid, bool authenticated, u32 start,
			    struct rdmablk_disc_entry *entries, u32 max,
			    u64 *generation, u32 *total);

/* tauth.c */
int rdmablk_thost_set(const struct rdmablk_host_req *req,
		      struct netlink_ext_ack *extack);
int rdmablk_thost_del(const u8 *hostid, struct netlink_ext_ack *extack);
int rdmablk_thost_get(unsigned long *pos, struct rdmablk_host_info *info);
void rdmablk_tauth_init(void);
void rdmablk_tauth_exit(void);

/* tconn.c */
int rdmablk_tconn_connect(struct rdma_cm_id *cm_id, struct rdma_cm_event *ev);
int rdmablk_tconn_cm_event(struct rdma_cm_id *cm_id, struct rdma_cm_event *ev);
void rdmablk_tconn_close_export(struct rdmablk_export *exp);

/* disc.c */
void rdmablk_tconn_disc_notify(void);

#endif /* RDMABLK_TARGET_H */
