// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for tpages.c: a payload list covers exactly the length asked
 * for, one page per entry; pages given back are handed out again by the
 * same cache only, a page new to a cache holds zeroes, and a cache that
 * handed out nothing for a whole trim round is emptied.
 */
#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>

#include "tpages.h"

static void rdmablk_tpages_lengths(struct kunit *test)
{
	static const u32 lengths[] = { 512, 4096, 4608, 65536, 131072 - 512,
				       1U << 20 };
	struct rdmablk_tpages tp;
	unsigned int i, j, nents;

	rdmablk_tpages_init(&tp);
	for (i = 0; i < ARRAY_SIZE(lengths); i++) {
		struct scatterlist *sgl, *sg;
		u32 total = 0;

		sgl = rdmablk_tpages_alloc(&tp, lengths[i], &nents);
		KUNIT_ASSERT_NOT_NULL(test, sgl);
		KUNIT_EXPECT_EQ(test, nents, DIV_ROUND_UP(lengths[i], PAGE_SIZE));
		for_each_sg(sgl, sg, nents, j) {
			KUNIT_EXPECT_NOT_NULL(test, sg_page(sg));
			KUNIT_EXPECT_EQ(test, sg->offset, 0);
			KUNIT_EXPECT_LE(test, sg->length, PAGE_SIZE);
			/* Only the last entry may be short. */
			if (j + 1 < nents)
				KUNIT_EXPECT_EQ(test, sg->length, PAGE_SIZE);
			total += sg->length;
		}
		KUNIT_EXPECT_TRUE(test, sg_is_last(&sgl[nents - 1]));
		KUNIT_EXPECT_EQ(test, total, lengths[i]);
		rdmablk_tpages_free(&tp, sgl, nents);
	}
	rdmablk_tpages_drain(&tp);
}

static void rdmablk_tpages_reuse(struct kunit *test)
{
	struct rdmablk_tpages tp;
	struct scatterlist *sgl;
	struct page *first;
	unsigned int nents;

	rdmablk_tpages_init(&tp);
	sgl = rdmablk_tpages_alloc(&tp, PAGE_SIZE, &nents);
	KUNIT_ASSERT_NOT_NULL(test, sgl);
	first = sg_page(sgl);
	rdmablk_tpages_free(&tp, sgl, nents);

	/* The page given back comes out again, as it was. */
	sgl = rdmablk_tpages_alloc(&tp, PAGE_SIZE, &nents);
	KUNIT_ASSERT_NOT_NULL(test, sgl);
	KUNIT_EXPECT_PTR_EQ(test, sg_page(sgl), first);
	rdmablk_tpages_free(&tp, sgl, nents);

	/* A page someone else still holds is not cached. */
	sgl = rdmablk_tpages_alloc(&tp, PAGE_SIZE, &nents);
	first = sgl ? sg_page(sgl) : NULL;
	if (first)
		get_page(first);
	rdmablk_tpages_free(&tp, sgl, nents);
	sgl = rdmablk_tpages_alloc(&tp, PAGE_SIZE, &nents);
	KUNIT_ASSERT_NOT_NULL(test, first);
	KUNIT_ASSERT_NOT_NULL(test, sgl);
	KUNIT_EXPECT_PTR_NE(test, sg_page(sgl), first);
	put_page(first);
	rdmablk_tpages_free(&tp, sgl, nents);
	rdmablk_tpages_free(&tp, NULL, 0);
	rdmablk_tpages_drain(&tp);
}

/*
 * What one connection's payload pages held never reaches another: a page
 * given back to one cache is not handed out by another, and a page new to
 * a cache is cleared, whatever the freed pages held.
 */
static void rdmablk_tpages_isolated(struct kunit *test)
{
	struct rdmablk_tpages a, b;
	struct scatterlist *sgl, *sg;
	struct page *first;
	unsigned int nents, i;

	rdmablk_tpages_init(&a);
	rdmablk_tpages_init(&b);
	sgl = rdmablk_tpages_alloc(&a, PAGE_SIZE, &nents);
	KUNIT_ASSERT_NOT_NULL(test, sgl);
	first = sg_page(sgl);
	memset(page_address(first), 0x5a, PAGE_SIZE);
	rdmablk_tpages_free(&a, sgl, nents);

	sgl = rdmablk_tpages_alloc(&b, 16 * PAGE_SIZE, &nents);
	KUNIT_ASSERT_NOT_NULL(test, sgl);
	for_each_sg(sgl, sg, nents, i) {
		KUNIT_EXPECT_PTR_NE(test, sg_page(sg), first);
		KUNIT_EXPECT_TRUE(test, !memchr_inv(page_address(sg_page(sg)),
						    0, PAGE_SIZE));
	}
	rdmablk_tpages_free(&b, sgl, nents);
	rdmablk_tpages_drain(&b);
	rdmablk_tpages_drain(&a);
}

/*
 * An idle connection pins no payload pages: the first trim after use keeps
 * the cache, the next one without use empties it, and a cache used again
 * refills and is kept for a round again.
 */
static void rdmablk_tpages_trimmed(struct kunit *test)
{
	struct rdmablk_tpages tp;
	struct scatterlist *sgl;
	unsigned int nents;

	rdmablk_tpages_init(&tp);
	KUNIT_EXPECT_EQ(test, rdmablk_tpages_trim(&tp), 0U);
	sgl = rdmablk_tpages_alloc(&tp, 8 * PAGE_SIZE, &nents);
	KUNIT_ASSERT_NOT_NULL(test, sgl);
	rdmablk_tpages_free(&tp, sgl, nents);
	KUNIT_EXPECT_EQ(test, rdmablk_tpages_count(&tp), 8U);

	/* Used in this round: kept. */
	KUNIT_EXPECT_EQ(test, rdmablk_tpages_trim(&tp), 0U);
	KUNIT_EXPECT_EQ(test, rdmablk_tpages_count(&tp), 8U);
	/* Idle for a whole round: freed. */
	KUNIT_EXPECT_EQ(test, rdmablk_tpages_trim(&tp), 8U);
	KUNIT_EXPECT_EQ(test, rdmablk_tpages_count(&tp), 0U);

	/* Pages held by a command across a trim come back to the cache. */
	sgl = rdmablk_tpages_alloc(&tp, 2 * PAGE_SIZE, &nents);
	KUNIT_ASSERT_NOT_NULL(test, sgl);
	KUNIT_EXPECT_EQ(test, rdmablk_tpages_trim(&tp), 0U);
	rdmablk_tpages_free(&tp, sgl, nents);
	KUNIT_EXPECT_EQ(test, rdmablk_tpages_count(&tp), 2U);
	KUNIT_EXPECT_EQ(test, rdmablk_tpages_trim(&tp), 2U);
	KUNIT_EXPECT_EQ(test, rdmablk_tpages_count(&tp), 0U);
	rdmablk_tpages_drain(&tp);
}

static struct kunit_case rdmablk_tpages_test_cases[] = {
	KUNIT_CASE(rdmablk_tpages_lengths),
	KUNIT_CASE(rdmablk_tpages_reuse),
	KUNIT_CASE(rdmablk_tpages_isolated),
	KUNIT_CASE(rdmablk_tpages_trimmed),
	{}
};

static struct kunit_suite rdmablk_tpages_test_suite = {
	.name = "rdmablk-tpages",
	.test_cases = rdmablk_tpages_test_cases,
};

kunit_test_suite(rdmablk_tpages_test_suite);
