/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Payload bytes one target connection may pin at once, and the commands
 * waiting for them (tbudget.c).
 */
#ifndef RDMABLK_TBUDGET_H
#define RDMABLK_TBUDGET_H

#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/types.h>

/**
 * struct rdmablk_tbudget_wait - a command's claim on a budget
 * @node: entry in the budget's @waiting while it waits
 * @bytes: what it pins
 */
struct rdmablk_tbudget_wait {
	struct list_head node;
	u32 bytes;
};

/**
 * struct rdmablk_tbudget - payload a connection's commands may pin
 * @lock: protects the fields below
 * @max: bytes; 0: no bound
 * @pinned: bytes pinned by commands that were let through
 * @peak: most bytes pinned at once
 * @waiting: claims waiting, oldest first
 * @nr_waiting: their number
 * @nr_waited: claims that had to wait, in all
 * @closed: nothing waits any more (teardown)
 */
struct rdmablk_tbudget {
	spinlock_t lock;	/* taken from bio completion: irq-safe */
	u64 max;
	u64 pinned;
	u64 peak;
	struct list_head waiting;
	unsigned int nr_waiting;
	u64 nr_waited;
	bool closed;
};

/**
 * struct rdmablk_tbudget_stats - a snapshot of a budget
 * @max: bytes, 0: no bound
 * @pinned: bytes pinned now
 * @peak: most bytes pinned at once
 * @nr_waiting: claims waiting now
 * @nr_waited: claims that had to wait, in all
 */
struct rdmablk_tbudget_stats {
	u64 max;
	u64 pinned;
	u64 peak;
	u64 nr_waiting;
	u64 nr_waited;
};

void rdmablk_tbudget_init(struct rdmablk_tbudget *b, u64 max);
bool rdmablk_tbudget_get(struct rdmablk_tbudget *b,
			 struct rdmablk_tbudget_wait *w, u32 bytes);
void rdmablk_tbudget_put(struct rdmablk_tbudget *b, u32 bytes);
struct rdmablk_tbudget_wait *rdmablk_tbudget_next(struct rdmablk_tbudget *b);
void rdmablk_tbudget_close(struct rdmablk_tbudget *b, struct list_head *waiters);
void rdmablk_tbudget_stats(struct rdmablk_tbudget *b,
			   struct rdmablk_tbudget_stats *st);

#endif /* RDMABLK_TBUDGET_H */
