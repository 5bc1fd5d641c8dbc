// SPDX-License-Identifier: GPL-2.0
/*
 * Payload budget of a target connection.
 *
 * Every READ and every keyed WRITE (neither inline nor pushed) pins
 * pages for its payload from the moment it is mapped until its answer
 * completed (tpages.c). The initiator chooses how many commands it keeps outstanding (up to the
 * queue depth, 256) and how large they are (up to max_io_size, 1 MiB), so
 * without a bound one connection could pin 256 MiB, and every connection
 * as much. A budget bounds what one connection pins at once.
 *
 * A command whose payload does not fit is not refused: it waits, in
 * arrival order, until earlier commands gave theirs back. A command that
 * arrives while others wait queues behind them even if it would fit, so
 * a large command is not starved by a stream of small ones. A command
 * larger than the whole budget is let through when nothing is pinned, so
 * it runs alone rather than never. So at most max(budget, one command)
 * is pinned at once.
 *
 * This file keeps only the accounting and the queue; the caller starts
 * what rdmablk_tbudget_next() hands back. It has no verbs, so KUnit tests
 * it (tbudget_test.c).
 *
 * Locking: @lock is irq-safe because a command's payload may be given
 * back from bio completion (an answer that cannot be posted). Every
 * claim is in exactly one place: let through (counted in @pinned until
 * rdmablk_tbudget_put()), on @waiting, or, once rdmablk_tbudget_next() or
 * rdmablk_tbudget_close() took it off @waiting under @lock, with the one
 * caller that took it.
 */
#include <linux/bug.h>

#include "tbudget.h"

/**
 * rdmablk_tbudget_init() - set up an empty budget
 * @b: the budget
 * @max: bytes that may be pinned at once; 0: no bound
 */
void rdmablk_tbudget_init(struct rdmablk_tbudget *b, u64 max)
{
	spin_lock_init(&b->lock);
	b->max = max;
	b->pinned = 0;
	b->peak = 0;
	INIT_LIST_HEAD(&b->waiting);
	b->nr_waiting = 0;
	b->nr_waited = 0;
	b->closed = false;
}

/* Nothing pinned lets anything through: a claim over @max runs alone. */
static bool rdmablk_tbudget_fits(const struct rdmablk_tbudget *b, u32 bytes)
{
	return !b->max || !b->pinned || b->pinned + bytes <= b->max;
}

static void rdmablk_tbudget_charge(struct rdmablk_tbudget *b, u32 bytes)
{
	lockdep_assert_held(&b->lock);
	b->pinned += bytes;
	if (b->pinned > b->peak)
		b->peak = b->pinned;
}

/**
 * rdmablk_tbudget_get() - claim payload bytes, or wait for them
 * @b: the budget
 * @w: the claim, owned by the caller until it is let through
 * @bytes: payload bytes the command pins
 *
 * After rdmablk_tbudget_close() nothing waits: every claim is let through
 * (teardown fails what it starts).
 *
 * Context: any.
 *
 * Return: true if @bytes were counted and the command may go on; false if
 * @w waits: rdmablk_tbudget_next() or rdmablk_tbudget_close() returns it.
 */
bool rdmablk_tbudget_get(struct rdmablk_tbudget *b,
			 struct rdmablk_tbudget_wait *w, u32 bytes)
{
	unsigned long flags;
	bool ok;

	w->bytes = bytes;
	spin_lock_irqsave(&b->lock, flags);
	ok = b->closed ||
	     (list_empty(&b->waiting) && rdmablk_tbudget_fits(b, bytes));
	if (ok) {
		rdmablk_tbudget_charge(b, bytes);
	} else {
		list_add_tail(&w->node, &b->waiting);
		b->nr_waiting++;
		b->nr_waited++;
	}
	spin_unlock_irqrestore(&b->lock, flags);
	return ok;
}

/**
 * rdmablk_tbudget_put() - give back what a claim let through pinned
 * @b: the budget
 * @bytes: the claim's bytes
 *
 * Waiting claims that fit now are not started here: the caller takes
 * them with rdmablk_tbudget_next() where it may start commands.
 *
 * Context: any.
 */
void rdmablk_tbudget_put(struct rdmablk_tbudget *b, u32 bytes)
{
	unsigned long flags;

	spin_lock_irqsave(&b->lock, flags);
	if (WARN_ON_ONCE(bytes > b->pinned))
		bytes = b->pinned;
	b->pinned -= bytes;
	spin_unlock_irqrestore(&b->lock, flags);
}

/**
 * rdmablk_tbudget_next() - the oldest waiting claim, if it fits now
 * @b: the budget
 *
 * The claim returned is counted in @pinned and off the queue: the caller
 * starts its command and gives it back with rdmablk_tbudget_put().
 *
 * Context: any.
 *
 * Return: the claim, or NULL if none waits, the oldest does not fit yet,
 * or the budget was closed.
 */
struct rdmablk_tbudget_wait *rdmablk_tbudget_next(struct rdmablk_tbudget *b)
{
	struct rdmablk_tbudget_wait *w;
	unsigned long flags;

	spin_lock_irqsave(&b->lock, flags);
	w = list_first_entry_or_null(&b->waiting, struct rdmablk_tbudget_wait,
				     node);
	if (w && !b->closed && rdmablk_tbudget_fits(b, w->bytes)) {
		list_del_init(&w->node);
		b->nr_waiting--;
		rdmablk_tbudget_charge(b, w->bytes);
	} else {
		w = NULL;
	}
	spin_unlock_irqrestore(&b->lock, flags);
	return w;
}

/**
 * rdmablk_tbudget_close() - stop waiting: hand every waiting claim over
 * @b: the budget
 * @waiters: gets the waiting claims, oldest first, none of them counted
 *
 * Each claim on @waiters is the caller's to free, once; none is returned
 * by rdmablk_tbudget_next() afterwards, and no claim waits any more.
 *
 * Context: any.
 */
void rdmablk_tbudget_close(struct rdmablk_tbudget *b, struct list_head *waiters)
{
	unsigned long flags;

	spin_lock_irqsave(&b->lock, flags);
	b->closed = true;
	list_splice_tail_init(&b->waiting, waiters);
	b->nr_waiting = 0;
	spin_unlock_irqrestore(&b->lock, flags);
}

/**
 * rdmablk_tbudget_stats() - a consistent snapshot of a budget
 * @b: the budget
 * @st: filled in
 *
 * Context: any.
 */
void rdmablk_tbudget_stats(struct rdmablk_tbudget *b,
			   struct rdmablk_tbudget_stats *st)
{
	unsigned long flags;

	spin_lock_irqsave(&b->lock, flags);
	st->max = b->max;
	st->pinned = b->pinned;
	st->peak = b->peak;
	st->nr_waiting = b->nr_waiting;
	st->nr_waited = b->nr_waited;
	spin_unlock_irqrestore(&b->lock, flags);
}
