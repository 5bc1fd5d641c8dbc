// SPDX-License-Identifier: GPL-2.0
/*
 * Payload pages of the target.
 *
 * Every READ and every keyed WRITE (neither inline nor pushed) needs
 * pages to move its payload through: the device fills them and RDMA WRITE
 * sends them, or RDMA READ fills them and the device takes them. With init_on_alloc, the default of
 * the usual distribution kernels, every page the allocator hands out is
 * cleared first, which for a 128 KiB transfer is 128 KiB of memset per
 * command. So pages a finished command gives back are kept and handed out
 * again as they are, without clearing.
 *
 * A backing device may complete a READ without writing its pages (a
 * null_blk without memory_backed, a faulty driver): the READ then sends
 * whatever the pages held. So the cache is one per connection: a page
 * only ever carries bytes of the export and the initiator of that
 * connection, which that initiator read or wrote itself. A page new to a
 * cache comes from the allocator cleared (__GFP_ZERO, at no extra cost
 * under init_on_alloc), so nothing else of the host's memory can leave.
 *
 * A cache holds at most RDMABLK_TPAGES_MAX pages and is emptied when its
 * connection goes (rdmablk_tpages_drain()), and while the connection is
 * idle: the connection's keep-alive round calls rdmablk_tpages_trim(),
 * which frees the cache when no payload was taken from it since the round
 * before. So a busy connection keeps its pages and an idle one pins none,
 * at the cost of clearing pages again for the first commands after a
 * pause. A page someone else still holds a reference to (a backing driver
 * that took one) is never cached.
 *
 * Locking: @lock is irq-safe because a command whose response cannot be
 * posted gives its pages back from bio completion; normally they come back
 * in CQ work. It protects the list, its count and the used mark.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/page_ref.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

#include "tpages.h"

/* Pages kept per connection: 2 MiB, 16 commands of 128 KiB. */
#define RDMABLK_TPAGES_MAX	(SZ_2M / PAGE_SIZE)

static struct page *rdmablk_page_get(struct rdmablk_tpages *tp)
{
	struct page *page;
	unsigned long flags;

	spin_lock_irqsave(&tp->lock, flags);
	tp->used = true;
	page = list_first_entry_or_null(&tp->pages, struct page, lru);
	if (page) {
		list_del(&page->lru);
		tp->nr--;
	}
	spin_unlock_irqrestore(&tp->lock, flags);
	return page ?: alloc_page(GFP_KERNEL | __GFP_ZERO);
}

static void rdmablk_page_put(struct rdmablk_tpages *tp, struct page *page)
{
	unsigned long flags;
	bool kept = false;

	/* Only a page nobody else holds may be handed out again. */
	if (page_ref_count(page) != 1) {
		put_page(page);
		return;
	}
	spin_lock_irqsave(&tp->lock, flags);
	if (tp->nr < RDMABLK_TPAGES_MAX) {
		list_add(&page->lru, &tp->pages);
		tp->nr++;
		kept = true;
	}
	spin_unlock_irqrestore(&tp->lock, flags);
	if (!kept)
		__free_page(page);
}

/**
 * rdmablk_tpages_free() - give back a list from rdmablk_tpages_alloc()
 * @tp: the cache it came from
 * @sgl: the list, may be NULL
 * @nents: its entries
 *
 * Safe in any context.
 */
void rdmablk_tpages_free(struct rdmablk_tpages *tp, struct scatterlist *sgl,
			 unsigned int nents)
{
	struct scatterlist *sg;
	unsigned int i;

	if (!sgl)
		return;
	for_each_sg(sgl, sg, nents, i)
		if (sg_page(sg))
			rdmablk_page_put(tp, sg_page(sg));
	kfree(sgl);
}

/**
 * rdmablk_tpages_alloc() - pages for a payload
 * @tp: the connection's cache
 * @length: bytes, non-zero
 * @nents: set to the number of entries
 *
 * The pages hold zeroes or bytes an earlier command of the same connection
 * moved: nothing of another connection or of the rest of the host.
 *
 * Context: process, may sleep.
 *
 * Return: a scatterlist of one page per entry covering @length, or NULL.
 */
struct scatterlist *rdmablk_tpages_alloc(struct rdmablk_tpages *tp, u32 length,
					 unsigned int *nents)
{
	unsigned int n = DIV_ROUND_UP(length, PAGE_SIZE), i;
	struct scatterlist *sgl, *sg;

	sgl = kmalloc_array(n, sizeof(*sgl), GFP_KERNEL);
	if (!sgl)
		return NULL;
	sg_init_table(sgl, n);
	for_each_sg(sgl, sg, n, i) {
		struct page *page = rdmablk_page_get(tp);

		if (!page) {
			rdmablk_tpages_free(tp, sgl, n);
			return NULL;
		}
		sg_set_page(sg, page, min_t(u32, length, PAGE_SIZE), 0);
		length -= sg->length;
	}
	*nents = n;
	return sgl;
}

/**
 * rdmablk_tpages_init() - set up an empty cache
 * @tp: the cache
 */
void rdmablk_tpages_init(struct rdmablk_tpages *tp)
{
	spin_lock_init(&tp->lock);
	INIT_LIST_HEAD(&tp->pages);
	tp->nr = 0;
	tp->used = false;
}

static void rdmablk_tpages_free_list(struct list_head *pages)
{
	struct page *page, *next;

	list_for_each_entry_safe(page, next, pages, lru) {
		list_del(&page->lru);
		__free_page(page);
	}
}

/**
 * rdmablk_tpages_drain() - free every cached page
 * @tp: the cache
 *
 * Pages still in use come back to the cache later: call it again once
 * every list was given back.
 * Context: any.
 */
void rdmablk_tpages_drain(struct rdmablk_tpages *tp)
{
	unsigned long flags;
	LIST_HEAD(pages);

	spin_lock_irqsave(&tp->lock, flags);
	list_splice_init(&tp->pages, &pages);
	tp->nr = 0;
	spin_unlock_irqrestore(&tp->lock, flags);
	rdmablk_tpages_free_list(&pages);
}

/**
 * rdmablk_tpages_trim() - free the cache if it was idle since the last call
 * @tp: the cache
 *
 * Called periodically. A cache that handed out no page since the previous
 * call is emptied; one that did is kept, and starts a new round.
 * Context: any.
 *
 * Return: the number of pages freed.
 */
unsigned int rdmablk_tpages_trim(struct rdmablk_tpages *tp)
{
	unsigned long flags;
	unsigned int nr = 0;
	LIST_HEAD(pages);

	spin_lock_irqsave(&tp->lock, flags);
	if (!tp->used) {
		list_splice_init(&tp->pages, &pages);
		nr = tp->nr;
		tp->nr = 0;
	}
	tp->used = false;
	spin_unlock_irqrestore(&tp->lock, flags);
	rdmablk_tpages_free_list(&pages);
	return nr;
}

/**
 * rdmablk_tpages_count() - pages cached now
 * @tp: the cache
 *
 * Return: a snapshot, for statistics.
 */
unsigned int rdmablk_tpages_count(const struct rdmablk_tpages *tp)
{
	return READ_ONCE(tp->nr);
}
