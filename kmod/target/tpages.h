/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Payload pages of one target connection, reused without clearing within
 * that connection only (tpages.c).
 */
#ifndef RDMABLK_TPAGES_H
#define RDMABLK_TPAGES_H

#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/types.h>

struct scatterlist;

/**
 * struct rdmablk_tpages - spare payload pages of one connection
 * @lock: protects @pages and @nr
 * @pages: the pages, linked by page->lru
 * @nr: their number, at most RDMABLK_TPAGES_MAX
 * @used: a page was asked for since the last rdmablk_tpages_trim()
 */
struct rdmablk_tpages {
	spinlock_t lock;	/* taken from bio completion: irq-safe */
	struct list_head pages;
	unsigned int nr;
	bool used;
};

void rdmablk_tpages_init(struct rdmablk_tpages *tp);
struct scatterlist *rdmablk_tpages_alloc(struct rdmablk_tpages *tp, u32 length,
					 unsigned int *nents);
void rdmablk_tpages_free(struct rdmablk_tpages *tp, struct scatterlist *sgl,
			 unsigned int nents);
void rdmablk_tpages_drain(struct rdmablk_tpages *tp);
unsigned int rdmablk_tpages_trim(struct rdmablk_tpages *tp);
unsigned int rdmablk_tpages_count(const struct rdmablk_tpages *tp);

#endif /* RDMABLK_TPAGES_H */
