/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The two roles and the netlink family: how they reach each other.
 *
 * Calls go one way each. A netlink command reaches a role only through the
 * table of operations the role registered here, so netlink.c includes no
 * role header; a role tells userspace about a change by calling
 * rdmablk_nl_event_*() (rdmablk.h). main.c starts and stops the roles and
 * the family. The roles never call each other.
 *
 * Registration: a role registers its operations at the end of its init,
 * which main.c runs before rdmablk_nl_init() registers the family, and
 * unregisters them at the start of its exit, which main.c runs after
 * rdmablk_nl_exit() unregistered the family. The registered tables are
 * therefore only written while no command can run: genl_register_family()
 * takes genl's cb_lock for writing, which every request takes for reading,
 * so a command sees what was registered before it; genl_unregister_family()
 * waits for running requests, and a dump in progress holds a reference to
 * the module, so none runs at exit. Commands read the tables without a
 * lock. A command whose role is not registered fails with -EOPNOTSUPP.
 *
 * Since every request holds cb_lock for reading while it runs, a long one
 * holds back genl_register_family() and genl_unregister_family() of every
 * family (loading or unloading any module that has one), and while one of
 * those waits, every genl request made after it (an rwsem queues new
 * readers behind a waiting writer). ATTACH and PATH_ADD are the long ones:
 * they answer once their queues are connected and opened, and each step of
 * a queue's connect is bounded (RDMABLK_CM_TIMEOUT_MS for resolving,
 * RDMABLK_CONNECT_TIMEOUT for the connect and each exchange after it,
 * iqueue.c): a target that stops answering fails the request within that
 * bound, and one that answers each step at its last moment holds it that
 * long per step and queue. nvme-fabrics' connect, a write to /dev/nvme-fabrics, holds no
 * such shared lock; moving the connect into a work is left for when it
 * matters.
 */
#ifndef RDMABLK_ROLES_H
#define RDMABLK_ROLES_H

#include "rdmablk.h"

/**
 * struct rdmablk_listener_info - a snapshot of one listener, for dumps
 * @addr: bound address and port
 * @state: enum rdmablk_listener_state
 */
struct rdmablk_listener_info {
	struct sockaddr_storage addr;
	u32 state;
};

/**
 * struct rdmablk_export_info - snapshot of an export for dumps and events
 * @name: export name
 * @path: backing device path
 * @uuid: identity
 * @size: bytes
 * @logical_block_size: bytes
 * @physical_block_size: bytes
 * @read_only: refuses writes
 * @auth_required: only authenticated hosts may open or discover it
 * @nr_conns: connections that opened it
 * @nr_allowed: entries in @allowed
 * @allowed: host ids allowed, none means any
 */
struct rdmablk_export_info {
	char name[RDMABLK_EXPORT_NAME_MAX];
	char path[RDMABLK_PATH_MAX];
	u8 uuid[RDMABLK_UUID_SIZE];
	u64 size;
	u32 logical_block_size;
	u32 physical_block_size;
	bool read_only;
	bool auth_required;
	u32 nr_conns;
	u32 nr_allowed;
	u8 allowed[RDMABLK_MAX_ALLOWED_HOSTS][RDMABLK_UUID_SIZE];
};

/**
 * struct rdmablk_host_info - what HOST_GET reports of a host: no secret
 * @hostid: the host
 * @hmac: enum rdmablk_auth_hmac of its key
 * @target_hmac: of the target's key for it, 0 for none
 * @auth_ok: exchanges that succeeded
 * @auth_failed: exchanges refused
 */
struct rdmablk_host_info {
	u8 hostid[RDMABLK_UUID_SIZE];
	u8 hmac;
	u8 target_hmac;
	u64 auth_ok;
	u64 auth_failed;
};

/**
 * struct rdmablk_target_ops - what the target role does for netlink
 * @listener_add: LISTEN_ADD: start listening on an address
 * @listener_del: LISTEN_DEL: stop listening on an address
 * @listener_get: LISTEN_GET: snapshot the next listener at or after a
 *	dump cursor (see below); -ENOENT past the last one
 * @export_add: EXPORT_ADD: serve a block device under a name
 * @export_del: EXPORT_DEL: stop serving an export
 * @export_get: EXPORT_GET: snapshot the next export at or after a dump
 *	cursor; -ENOENT past the last one
 * @host_set: HOST_SET: set a host's keys
 * @host_del: HOST_DEL: forget a host's keys
 * @host_get: HOST_GET: snapshot the next host with keys at or after a
 *	dump cursor; -ENOENT past the last one
 *
 * A dump cursor (*@pos, 0 to start) is not a position in a list, which an
 * object removed between two parts of a dump would shift, skipping an
 * object or repeating one: each object gets an id when dumps start to see
 * it (when it is listed; a device, when it is attached), from a counter of
 * its list that only grows, and goes to the tail of its list then, so ids
 * rise along a list. A *_get() snapshots the first object whose id is at least
 * *@pos and sets *@pos past it; a dump resumes from the cursor after the
 * last object it put. An object added during a dump is dumped too, one
 * removed is not, and none twice.
 *
 * Every operation may sleep. A failure is explained in @extack where there
 * is one.
 */
struct rdmablk_target_ops {
	int (*listener_add)(const struct sockaddr_storage *addr,
			    struct netlink_ext_ack *extack);
	int (*listener_del)(const struct sockaddr_storage *addr,
			    struct netlink_ext_ack *extack);
	int (*listener_get)(unsigned long *pos,
			    struct rdmablk_listener_info *info);
	int (*export_add)(const struct rdmablk_export_req *req,
			  struct netlink_ext_ack *extack);
	int (*export_del)(const char *name, struct netlink_ext_ack *extack);
	int (*export_get)(unsigned long *pos, struct rdmablk_export_info *info);
	int (*host_set)(const struct rdmablk_host_req *req,
			struct netlink_ext_ack *extack);
	int (*host_del)(const u8 *hostid, struct netlink_ext_ack *extack);
	int (*host_get)(unsigned long *pos, struct rdmablk_host_info *info);
};

/**
 * struct rdmablk_host_ops - what the initiator role does for netlink
 * @attach: ATTACH: attach an export as /dev/rdmablkN and describe it
 * @detach: DETACH: remove /dev/rdmablkN
 * @set: DEV_SET: change the recovery settings of a device
 * @reconnect: RECONNECT: reconnect a device now
 * @get: DEV_GET: snapshot the next device at or after a dump cursor (as
 *	for the target's dumps); -ENOENT past the last one
 * @path_add: PATH_ADD: connect a new path to a device and describe it
 * @path_del: PATH_DEL: remove a path of a device
 * @path_set: PATH_SET: change a path's settings
 *
 * Every operation may sleep. A failure is explained in @extack where there
 * is one.
 */
struct rdmablk_host_ops {
	int (*attach)(const struct rdmablk_attach_req *req,
		      struct rdmablk_dev_info *info,
		      struct netlink_ext_ack *extack);
	int (*detach)(int index, struct netlink_ext_ack *extack);
	int (*set)(const struct rdmablk_dev_set_req *req,
		   struct netlink_ext_ack *extack);
	int (*reconnect)(int index, struct netlink_ext_ack *extack);
	int (*get)(unsigned long *pos, struct rdmablk_dev_info *info);
	int (*path_add)(const struct rdmablk_path_req *req,
			struct rdmablk_dev_info *info,
			struct netlink_ext_ack *extack);
	int (*path_del)(const struct rdmablk_path_req *req,
			struct netlink_ext_ack *extack);
	int (*path_set)(const struct rdmablk_path_req *req,
			struct netlink_ext_ack *extack);
};

/* netlink.c: registration, only while the family is not registered. */
int rdmablk_nl_register_target(const struct rdmablk_target_ops *ops);
void rdmablk_nl_unregister_target(const struct rdmablk_target_ops *ops);
int rdmablk_nl_register_host(const struct rdmablk_host_ops *ops);
void rdmablk_nl_unregister_host(const struct rdmablk_host_ops *ops);

/* The roles' life, called by main.c only. */
int rdmablk_target_init(void);
void rdmablk_target_exit(void);
int rdmablk_initiator_init(void);
void rdmablk_initiator_exit(void);

#endif /* RDMABLK_ROLES_H */
