// SPDX-License-Identifier: GPL-2.0
/*
 * Target listeners: one rdma_cm id listening per configured address.
 *
 * Locking and lifetime:
 *  - rdmablk_listeners_lock (mutex) protects rdmablk_listeners and, for each
 *    listener, @cm_id and @deleted. It is a mutex because rdma_cm calls may
 *    sleep and are made under it when a listener is created or repaired.
 *  - A listener is freed only by rdmablk_listener_destroy(), after it was
 *    unlinked and marked deleted under the lock, its repair work cancelled
 *    and its cm id destroyed (rdma_destroy_id() waits for a running event
 *    handler of that id). rdma_destroy_id() is never called with the lock
 *    held: the cm event handler takes the lock, and destroy waits for it.
 *  - When the RDMA device under a listener goes away, rdma_cm reports
 *    DEVICE_REMOVAL on the listening id. The handler gives the id up (the
 *    cm core destroys it when the handler returns non-zero) and schedules
 *    repair work that tries to listen again every RDMABLK_LISTEN_RETRY.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mutex.h>
#include <linux/slab.h>
#include <rdma/rdma_cm.h>

#include "target.h"

#define RDMABLK_LISTEN_BACKLOG	128
#define RDMABLK_LISTEN_RETRY	(5 * HZ)

/**
 * struct rdmablk_listener - one address the target accepts connections on
 * @node: entry in rdmablk_listeners
 * @dump_id: its dump cursor (roles.h), from rdmablk_listeners_ids
 * @addr: bound address and port
 * @cm_id: listening id, NULL while the RDMA device is gone
 * @deleted: being destroyed; no repair may re-create @cm_id
 * @repair: re-listen after the device under @cm_id was removed
 */
struct rdmablk_listener {
	struct list_head node;
	unsigned long dump_id;
	struct sockaddr_storage addr;
	struct rdma_cm_id *cm_id;
	bool deleted;
	struct delayed_work repair;
};

static LIST_HEAD(rdmablk_listeners);
static DEFINE_MUTEX(rdmablk_listeners_lock);
/* Under rdmablk_listeners_lock: the last dump id given out. */
static unsigned long rdmablk_listeners_ids;

static int rdmablk_listener_cm_handler(struct rdma_cm_id *cm_id,
				       struct rdma_cm_event *ev);

/*
 * Called with rdmablk_listeners_lock held, so that a DEVICE_REMOVAL on the
 * new id finds it in @l->cm_id. On failure the id, if one was created, is
 * left in *@failed for the caller to destroy once it has dropped the lock:
 * rdma_destroy_id() takes the id's handler mutex, and handlers take the
 * lock.
 */
static struct rdma_cm_id *rdmablk_listen(struct rdmablk_listener *l,
					 struct rdma_cm_id **failed,
					 struct netlink_ext_ack *extack)
{
	struct rdma_cm_id *cm_id;
	int ret;

	lockdep_assert_held(&rdmablk_listeners_lock);
	*failed = NULL;

	cm_id = rdma_create_id(&init_net, rdmablk_listener_cm_handler, l,
			       RDMA_PS_TCP, IB_QPT_RC);
	if (IS_ERR(cm_id)) {
		NL_SET_ERR_MSG(extack, "cannot create an rdma_cm id");
		return cm_id;
	}

	/* An IPv6 listener does not also take IPv4 connections. */
	if (l->addr.ss_family == AF_INET6) {
		ret = rdma_set_afonly(cm_id, 1);
		if (ret) {
			NL_SET_ERR_MSG(extack, "cannot make the IPv6 listener IPv6-only");
			goto out_destroy_id;
		}
	}

	ret = rdma_bind_addr(cm_id, (struct sockaddr *)&l->addr);
	if (ret) {
		if (ret == -EADDRINUSE)
			NL_SET_ERR_MSG(extack,
				       "address and port already in use by another RDMA service");
		else
			NL_SET_ERR_MSG(extack,
				       "cannot bind: no RDMA device has this address (add it to an RDMA-capable netdev, e.g. an rxe link)");
		goto out_destroy_id;
	}

	ret = rdma_listen(cm_id, RDMABLK_LISTEN_BACKLOG);
	if (ret) {
		NL_SET_ERR_MSG(extack, "rdma_listen failed on this address");
		goto out_destroy_id;
	}
	return cm_id;

out_destroy_id:
	*failed = cm_id;
	return ERR_PTR(ret);
}

static void rdmablk_listener_repair(struct work_struct *work)
{
	struct rdmablk_listener *l = container_of(to_delayed_work(work),
						  struct rdmablk_listener,
						  repair);
	struct rdma_cm_id *cm_id, *failed = NULL;

	mutex_lock(&rdmablk_listeners_lock);
	if (l->deleted || l->cm_id)
		goto out_unlock;

	cm_id = rdmablk_listen(l, &failed, NULL);
	if (IS_ERR(cm_id)) {
		queue_delayed_work(rdmablk_wq, &l->repair, RDMABLK_LISTEN_RETRY);
		goto out_unlock;
	}
	l->cm_id = cm_id;
	pr_info("listening again on %pISpc\n", &l->addr);
out_unlock:
	mutex_unlock(&rdmablk_listeners_lock);
	if (failed)
		rdma_destroy_id(failed);
}

/* Runs in rdma_cm's context for the listening id and for its child ids. */
static int rdmablk_listener_cm_handler(struct rdma_cm_id *cm_id,
				       struct rdma_cm_event *ev)
{
	struct rdmablk_listener *l = cm_id->context;
	int give_up = 0;

	/* Accepted connections have a QP; their events are theirs. */
	if (cm_id->qp)
		return rdmablk_tconn_cm_event(cm_id, ev);

	switch (ev->event) {
	case RDMA_CM_EVENT_CONNECT_REQUEST:
		return rdmablk_tconn_connect(cm_id, ev);
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		mutex_lock(&rdmablk_listeners_lock);
		if (l->cm_id == cm_id) {
			l->cm_id = NULL;
			give_up = 1;
			if (!l->deleted)
				queue_delayed_work(rdmablk_wq, &l->repair,
						   RDMABLK_LISTEN_RETRY);
			pr_warn("RDMA device under listener %pISpc removed, retrying\n",
				&l->addr);
		}
		mutex_unlock(&rdmablk_listeners_lock);
		return give_up;
	default:
		return 0;
	}
}

static struct rdmablk_listener *
rdmablk_listener_find(const struct sockaddr_storage *addr)
{
	struct rdmablk_listener *l;

	lockdep_assert_held(&rdmablk_listeners_lock);

	list_for_each_entry(l, &rdmablk_listeners, node)
		if (rdmablk_addr_equal(&l->addr, addr))
			return l;
	return NULL;
}

/**
 * rdmablk_listener_add() - start listening on an address
 * @addr: address and port
 * @extack: where a failure is explained
 *
 * Return: 0, -EEXIST when already listening there, or the rdma_cm error.
 */
int rdmablk_listener_add(const struct sockaddr_storage *addr,
			 struct netlink_ext_ack *extack)
{
	struct rdmablk_listener *l;
	struct rdma_cm_id *cm_id, *failed = NULL;
	int ret;

	l = kzalloc(sizeof(*l), GFP_KERNEL);
	if (!l)
		return -ENOMEM;
	l->addr = *addr;
	INIT_DELAYED_WORK(&l->repair, rdmablk_listener_repair);

	mutex_lock(&rdmablk_listeners_lock);
	if (rdmablk_listener_find(addr)) {
		NL_SET_ERR_MSG(extack, "already listening on this address and port");
		ret = -EEXIST;
		goto out_unlock;
	}
	cm_id = rdmablk_listen(l, &failed, extack);
	if (IS_ERR(cm_id)) {
		ret = PTR_ERR(cm_id);
		goto out_unlock;
	}
	l->cm_id = cm_id;
	l->dump_id = ++rdmablk_listeners_ids;
	list_add_tail(&l->node, &rdmablk_listeners);
	/*
	 * Under the lock: once it is dropped, a LISTEN_DEL may free @l, and
	 * its REMOVED event must come after this one.
	 */
	pr_info("listening on %pISpc\n", &l->addr);
	rdmablk_nl_event_listener(RDMABLK_EVENT_LISTENER_ADDED, &l->addr);
	mutex_unlock(&rdmablk_listeners_lock);
	return 0;

out_unlock:
	mutex_unlock(&rdmablk_listeners_lock);
	/* The failed id's context is @l: destroy it first. */
	if (failed)
		rdma_destroy_id(failed);
	kfree(l);
	return ret;
}

/* Called with @l unlinked and marked deleted. */
static void rdmablk_listener_destroy(struct rdmablk_listener *l)
{
	struct rdma_cm_id *cm_id;

	cancel_delayed_work_sync(&l->repair);

	mutex_lock(&rdmablk_listeners_lock);
	cm_id = l->cm_id;
	l->cm_id = NULL;
	mutex_unlock(&rdmablk_listeners_lock);

	if (cm_id)
		rdma_destroy_id(cm_id);
	pr_info("stopped listening on %pISpc\n", &l->addr);
	rdmablk_nl_event_listener(RDMABLK_EVENT_LISTENER_REMOVED, &l->addr);
	kfree(l);
}

/**
 * rdmablk_listener_del() - stop listening on an address
 * @addr: address and port, as given to rdmablk_listener_add()
 * @extack: where a failure is explained
 *
 * Return: 0, or -ENOENT when there is no such listener.
 */
int rdmablk_listener_del(const struct sockaddr_storage *addr,
			 struct netlink_ext_ack *extack)
{
	struct rdmablk_listener *l;

	mutex_lock(&rdmablk_listeners_lock);
	l = rdmablk_listener_find(addr);
	if (!l) {
		mutex_unlock(&rdmablk_listeners_lock);
		NL_SET_ERR_MSG(extack, "not listening on this address and port");
		return -ENOENT;
	}
	list_del(&l->node);
	l->deleted = true;
	mutex_unlock(&rdmablk_listeners_lock);

	rdmablk_listener_destroy(l);
	return 0;
}

/**
 * rdmablk_listener_get() - snapshot the next listener of a dump
 * @pos: the dump cursor (roles.h), set past the listener
 * @info: result
 *
 * Return: 0, or -ENOENT past the end.
 */
int rdmablk_listener_get(unsigned long *pos,
			 struct rdmablk_listener_info *info)
{
	struct rdmablk_listener *l;
	int ret = -ENOENT;

	mutex_lock(&rdmablk_listeners_lock);
	list_for_each_entry(l, &rdmablk_listeners, node) {
		if (l->dump_id < *pos)
			continue;
		*pos = l->dump_id + 1;
		info->addr = l->addr;
		info->state = l->cm_id ? RDMABLK_LISTENER_LISTENING :
					 RDMABLK_LISTENER_DEVICE_GONE;
		ret = 0;
		break;
	}
	mutex_unlock(&rdmablk_listeners_lock);
	return ret;
}

/**
 * rdmablk_listeners_exit() - stop every listener, at module unload
 *
 * Netlink must already be unregistered so no listener can be added.
 */
void rdmablk_listeners_exit(void)
{
	struct rdmablk_listener *l;

	for (;;) {
		mutex_lock(&rdmablk_listeners_lock);
		l = list_first_entry_or_null(&rdmablk_listeners,
					     struct rdmablk_listener, node);
		if (l) {
			list_del(&l->node);
			l->deleted = true;
		}
		mutex_unlock(&rdmablk_listeners_lock);
		if (!l)
			break;
		rdmablk_listener_destroy(l);
	}
}
