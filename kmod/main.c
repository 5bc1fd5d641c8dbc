// SPDX-License-Identifier: GPL-2.0
/*
 * rdmablk: block devices over RDMA. Module init and exit.
 *
 * The roles start first and register their operations with the netlink
 * family (roles.h); the family is registered last, so no request reaches
 * a role that is not ready, and unregistered first at exit.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <net/genetlink.h>

#include "roles.h"

struct workqueue_struct *rdmablk_wq;

static int __init rdmablk_init(void)
{
	int ret;

	rdmablk_wq = alloc_workqueue("rdmablk", WQ_MEM_RECLAIM, 0);
	if (!rdmablk_wq)
		return -ENOMEM;

	rdmablk_proto_build_checks();

	ret = rdmablk_target_init();
	if (ret)
		goto out_destroy_wq;
	ret = rdmablk_initiator_init();
	if (ret)
		goto out_target_exit;
	ret = rdmablk_nl_init();
	if (ret)
		goto out_initiator_exit;

	pr_info("version %s loaded\n", RDMABLK_VERSION);
	return 0;

out_initiator_exit:
	rdmablk_initiator_exit();
out_target_exit:
	rdmablk_target_exit();
out_destroy_wq:
	destroy_workqueue(rdmablk_wq);
	return ret;
}

static void __exit rdmablk_exit(void)
{
	/* No request can add state once the family is gone. */
	rdmablk_nl_exit();
	rdmablk_initiator_exit();
	rdmablk_target_exit();
	destroy_workqueue(rdmablk_wq);
	pr_info("unloaded\n");
}

module_init(rdmablk_init);
module_exit(rdmablk_exit);

MODULE_AUTHOR("rdmablk developers");
MODULE_DESCRIPTION("Block devices over RDMA: target and initiator");
MODULE_LICENSE("GPL");
MODULE_VERSION(RDMABLK_VERSION);
MODULE_ALIAS_GENL_FAMILY(RDMABLK_GENL_NAME);
