/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Payload pages of the target, reused without clearing (tpages.c).
 */
#ifndef RDMABLK_TPAGES_H
#define RDMABLK_TPAGES_H

#include <linux/types.h>

struct scatterlist;

struct scatterlist *rdmablk_tpages_alloc(u32 length, unsigned int *nents);
void rdmablk_tpages_free(struct scatterlist *sgl, unsigned int nents);
void rdmablk_tpages_init(void);
void rdmablk_tpages_drain(void);

#endif /* RDMABLK_TPAGES_H */
