// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for tpages.c: a payload list covers exactly the length asked
 * for, one page per entry, and pages given back are handed out again.
 */
#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>

#include "tpages.h"

static void rdmablk_tpages_lengths(struct kunit *test)
{
	static const u32 lengths[] = { 512, 4096, 4608, 65536, 131072 - 512,
				       1U << 20 };
	unsigned int i, j, nents;

	rdmablk_tpages_init();
	for (i = 0; i < ARRAY_SIZE(lengths); i++) {
		struct scatterlist *sgl, *sg;
		u32 total = 0;

		sgl = rdmablk_tpages_alloc(lengths[i], &nents);
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
		rdmablk_tpages_free(sgl, nents);
	}
	rdmablk_tpages_drain();
}

static void rdmablk_tpages_reuse(struct kunit *test)
{
	struct scatterlist *sgl;
	struct page *first;
	unsigned int nents;

	rdmablk_tpages_init();
	/* The caches are per CPU: stay on one. */
	migrate_disable();
	sgl = rdmablk_tpages_alloc(PAGE_SIZE, &nents);
	KUNIT_ASSERT_NOT_NULL(test, sgl);
	first = sg_page(sgl);
	rdmablk_tpages_free(sgl, nents);

	/* The page given back comes out again, as it was. */
	sgl = rdmablk_tpages_alloc(PAGE_SIZE, &nents);
	migrate_enable();
	KUNIT_ASSERT_NOT_NULL(test, sgl);
	KUNIT_EXPECT_PTR_EQ(test, sg_page(sgl), first);
	rdmablk_tpages_free(sgl, nents);

	/* A page someone else still holds is not cached. */
	migrate_disable();
	sgl = rdmablk_tpages_alloc(PAGE_SIZE, &nents);
	first = sgl ? sg_page(sgl) : NULL;
	if (first)
		get_page(first);
	rdmablk_tpages_free(sgl, nents);
	sgl = rdmablk_tpages_alloc(PAGE_SIZE, &nents);
	migrate_enable();
	KUNIT_ASSERT_NOT_NULL(test, first);
	KUNIT_ASSERT_NOT_NULL(test, sgl);
	KUNIT_EXPECT_PTR_NE(test, sg_page(sgl), first);
	put_page(first);
	rdmablk_tpages_free(sgl, nents);
	rdmablk_tpages_free(NULL, 0);
	rdmablk_tpages_drain();
}

static struct kunit_case rdmablk_tpages_test_cases[] = {
	KUNIT_CASE(rdmablk_tpages_lengths),
	KUNIT_CASE(rdmablk_tpages_reuse),
	{}
};

static struct kunit_suite rdmablk_tpages_test_suite = {
	.name = "rdmablk-tpages",
	.test_cases = rdmablk_tpages_test_cases,
};

kunit_test_suite(rdmablk_tpages_test_suite);
