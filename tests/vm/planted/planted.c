// SPDX-License-Identifier: GPL-2.0
/*
 * planted.ko: one deliberate bug per load, for scripts/vm/selftest --debug.
 * It proves that the debug kernel lane reports each kind of bug the lane
 * exists to catch. Never load it anywhere else.
 *
 *   insmod planted.ko bug=leak    allocations nothing points to (kmemleak)
 *   insmod planted.ko bug=lock    an AB-BA lock order inversion (lockdep)
 *   insmod planted.ko bug=uaf     a read of freed memory (KASAN)
 *   insmod planted.ko bug=ubsan   an out-of-bounds array index (UBSAN)
 *   insmod planted.ko bug=list    a double list_add (DEBUG_LIST)
 *   insmod planted.ko bug=sleep   a GFP_KERNEL allocation under a spinlock
 *                                 (might_sleep)
 *   insmod planted.ko bug=none    nothing: the control case
 *
 * Each bug is run once at load time; the module stays loaded so the bench's
 * unload path (kmemleak scans before and after rmmod) runs as for rdmablk.
 */
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>

static char *bug = "none";
module_param(bug, charp, 0444);
MODULE_PARM_DESC(bug, "none, leak, lock, uaf, ubsan, list or sleep");

/* A parameter, so the compiler cannot prove the bugs below at build time. */
static int planted_index = 8;
module_param_named(index, planted_index, int, 0444);
MODULE_PARM_DESC(index, "out-of-bounds index used by uaf and ubsan (8)");

static void *planted_leaked;

static void planted_leak(void)
{
	int i;

	/*
	 * Stored, then forgotten: kmemleak sees no reference once cleared.
	 * Sixteen of them: a copy of a pointer left behind (in a register
	 * spilled to a stack that is still cached, say) hides one from
	 * kmemleak now and then, never all.
	 */
	for (i = 0; i < 16; i++) {
		planted_leaked = kmalloc(128, GFP_KERNEL);
		if (planted_leaked)
			memset(planted_leaked, 0x5a, 128);
		WRITE_ONCE(planted_leaked, NULL);
	}
}

static DEFINE_MUTEX(planted_a);
static DEFINE_MUTEX(planted_b);

static void planted_lock(void)
{
	/* A then B, later B then A: lockdep reports the inversion. */
	mutex_lock(&planted_a);
	mutex_lock(&planted_b);
	mutex_unlock(&planted_b);
	mutex_unlock(&planted_a);

	mutex_lock(&planted_b);
	mutex_lock(&planted_a);
	mutex_unlock(&planted_a);
	mutex_unlock(&planted_b);
}

static void planted_uaf(void)
{
	char *p = kmalloc(64, GFP_KERNEL);

	if (!p)
		return;
	memset(p, 1, 64);
	kfree(p);
	pr_info("planted: read after free: %d\n", READ_ONCE(p[planted_index]));
}

static void planted_ubsan(void)
{
	int arr[4] = { 1, 2, 3, 4 };

	pr_info("planted: index out of bounds: %d\n", arr[planted_index]);
}

static void planted_list(void)
{
	LIST_HEAD(head);
	struct list_head entry;

	list_add(&entry, &head);
	list_add(&entry, &head);
	INIT_LIST_HEAD(&head);
}

static DEFINE_SPINLOCK(planted_spin);

static void planted_sleep(void)
{
	void *p;

	/*
	 * An allocation that may sleep, under a spinlock: might_sleep()
	 * reports it whether or not this one sleeps.
	 */
	spin_lock(&planted_spin);
	p = kmalloc(64, GFP_KERNEL);
	spin_unlock(&planted_spin);
	kfree(p);
}

static int __init planted_init(void)
{
	static const struct {
		const char *name;
		void (*fn)(void);
	} bugs[] = {
		{ "leak", planted_leak },
		{ "lock", planted_lock },
		{ "uaf", planted_uaf },
		{ "ubsan", planted_ubsan },
		{ "list", planted_list },
		{ "sleep", planted_sleep },
	};
	size_t i;

	if (!strcmp(bug, "none"))
		return 0;
	for (i = 0; i < ARRAY_SIZE(bugs); i++) {
		if (!strcmp(bug, bugs[i].name)) {
			pr_info("planted: running bug '%s'\n", bug);
			bugs[i].fn();
			return 0;
		}
	}
	pr_err("planted: unknown bug '%s'\n", bug);
	return -EINVAL;
}

static void __exit planted_exit(void)
{
}

module_init(planted_init);
module_exit(planted_exit);
MODULE_DESCRIPTION("Deliberate bugs that the debug kernel lane must report");
MODULE_LICENSE("GPL");
