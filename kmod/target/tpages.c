// SPDX-License-Identifier: GPL-2.0
/*
 * Payload pages of the target.
 *
 * Every READ and every non-inline WRITE needs pages to move its payload
 * through: the device fills them and RDMA WRITE sends them, or RDMA READ
 * fills them and the device takes them. With init_on_alloc, the default of
 * the usual distribution kernels, every page the allocator hands out is
 * cleared first, which for a 128 KiB transfer is 128 KiB of memset per
 * command. So pages a finished command gives back are kept in a small
 * per-CPU cache and handed out again as they are, without clearing: no
 * byte of them leaves the host before it has been overwritten, since a
 * READ's data is sent only after the device filled all of it and a
 * WRITE's pages go to the device only after RDMA READ filled all of them.
 *
 * The cache holds at most 2 MiB per CPU, and is emptied when the target's
 * last connection goes (rdmablk_tpages_drain()), so an idle target keeps
 * no pages. A page someone else still holds a reference to (a backing
 * driver that took one) is never cached.
 *
 * Locking: each CPU's cache has a spinlock, irq-safe because a command
 * whose response cannot be posted gives its pages back from bio
 * completion; normally they come back in CQ work. Allocation and release
 * pick the current CPU's cache but need not stay on it: migrating only
 * means using another CPU's cache, under its lock.
 */
#include <linux/gfp.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/page_ref.h>
#include <linux/percpu.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "tpages.h"

/* Pages kept per CPU: 2 MiB, a queue of 16 commands of 128 KiB. */
#define RDMABLK_PAGE_CACHE_MAX	(SZ_2M / PAGE_SIZE)

/**
 * struct rdmablk_page_cache - one CPU's spare payload pages
 * @lock: protects @pages and @nr
 * @pages: the pages, linked by page->lru
 * @nr: their number, at most RDMABLK_PAGE_CACHE_MAX
 */
struct rdmablk_page_cache {
	spinlock_t lock;	/* see the locking notes at the top */
	struct list_head pages;
	unsigned int nr;
};

static DEFINE_PER_CPU(struct rdmablk_page_cache, rdmablk_page_caches);

static struct page *rdmablk_page_get(void)
{
	struct rdmablk_page_cache *c = raw_cpu_ptr(&rdmablk_page_caches);
	struct page *page;
	unsigned long flags;

	spin_lock_irqsave(&c->lock, flags);
	page = list_first_entry_or_null(&c->pages, struct page, lru);
	if (page) {
		list_del(&page->lru);
		c->nr--;
	}
	spin_unlock_irqrestore(&c->lock, flags);
	return page ?: alloc_page(GFP_KERNEL);
}

static void rdmablk_page_put(struct page *page)
{
	struct rdmablk_page_cache *c = raw_cpu_ptr(&rdmablk_page_caches);
	unsigned long flags;
	bool kept = false;

	/* Only a page nobody else holds may be handed out again. */
	if (page_ref_count(page) != 1) {
		put_page(page);
		return;
	}
	spin_lock_irqsave(&c->lock, flags);
	if (c->nr < RDMABLK_PAGE_CACHE_MAX) {
		list_add(&page->lru, &c->pages);
		c->nr++;
		kept = true;
	}
	spin_unlock_irqrestore(&c->lock, flags);
	if (!kept)
		__free_page(page);
}

/**
 * rdmablk_tpages_free() - give back a list from rdmablk_tpages_alloc()
 * @sgl: the list, may be NULL
 * @nents: its entries
 *
 * Safe in any context.
 */
void rdmablk_tpages_free(struct scatterlist *sgl, unsigned int nents)
{
	struct scatterlist *sg;
	unsigned int i;

	if (!sgl)
		return;
	for_each_sg(sgl, sg, nents, i)
		if (sg_page(sg))
			rdmablk_page_put(sg_page(sg));
	kfree(sgl);
}

/**
 * rdmablk_tpages_alloc() - pages for a payload
 * @length: bytes, non-zero
 * @nents: set to the number of entries
 *
 * The pages hold stale data: the caller must overwrite all of @length
 * before any of it is sent or written anywhere.
 *
 * Context: process, may sleep.
 *
 * Return: a scatterlist of one page per entry covering @length, or NULL.
 */
struct scatterlist *rdmablk_tpages_alloc(u32 length, unsigned int *nents)
{
	unsigned int n = DIV_ROUND_UP(length, PAGE_SIZE), i;
	struct scatterlist *sgl, *sg;

	sgl = kmalloc_array(n, sizeof(*sgl), GFP_KERNEL);
	if (!sgl)
		return NULL;
	sg_init_table(sgl, n);
	for_each_sg(sgl, sg, n, i) {
		struct page *page = rdmablk_page_get();

		if (!page) {
			rdmablk_tpages_free(sgl, n);
			return NULL;
		}
		sg_set_page(sg, page, min_t(u32, length, PAGE_SIZE), 0);
		length -= sg->length;
	}
	*nents = n;
	return sgl;
}

/**
 * rdmablk_tpages_init() - set up the per-CPU caches, empty
 */
void rdmablk_tpages_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct rdmablk_page_cache *c = per_cpu_ptr(&rdmablk_page_caches, cpu);

		spin_lock_init(&c->lock);
		INIT_LIST_HEAD(&c->pages);
		c->nr = 0;
	}
}

/**
 * rdmablk_tpages_drain() - free every cached page
 *
 * Safe at any time; pages still in use come back to the cache later.
 * Context: any.
 */
void rdmablk_tpages_drain(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct rdmablk_page_cache *c = per_cpu_ptr(&rdmablk_page_caches, cpu);
		struct page *page, *next;
		unsigned long flags;
		LIST_HEAD(pages);

		spin_lock_irqsave(&c->lock, flags);
		list_splice_init(&c->pages, &pages);
		c->nr = 0;
		spin_unlock_irqrestore(&c->lock, flags);
		list_for_each_entry_safe(page, next, &pages, lru) {
			list_del(&page->lru);
			__free_page(page);
		}
	}
}
