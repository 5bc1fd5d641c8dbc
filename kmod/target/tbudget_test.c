// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for tbudget.c: a connection never pins more payload than its
 * budget unless one command alone is larger; commands that do not fit
 * wait and are let through in arrival order; closing hands every waiting
 * command over once.
 */
#include <kunit/test.h>
#include <linux/sizes.h>

#include "tbudget.h"

static void rdmablk_tbudget_expect(struct kunit *test,
				   struct rdmablk_tbudget *b, u64 pinned,
				   u64 nr_waiting)
{
	struct rdmablk_tbudget_stats st;

	rdmablk_tbudget_stats(b, &st);
	KUNIT_EXPECT_EQ(test, st.pinned, pinned);
	KUNIT_EXPECT_EQ(test, st.nr_waiting, nr_waiting);
	KUNIT_EXPECT_LE(test, st.pinned, st.peak);
}

/* Within the budget everything goes; beyond it, the command waits. */
static void rdmablk_tbudget_bound(struct kunit *test)
{
	struct rdmablk_tbudget b;
	struct rdmablk_tbudget_stats st;
	struct rdmablk_tbudget_wait a = {}, c = {}, d = {}, e = {};

	rdmablk_tbudget_init(&b, SZ_4M);
	KUNIT_EXPECT_TRUE(test, rdmablk_tbudget_get(&b, &a, SZ_1M));
	KUNIT_EXPECT_TRUE(test, rdmablk_tbudget_get(&b, &c, SZ_1M));
	KUNIT_EXPECT_TRUE(test, rdmablk_tbudget_get(&b, &d, SZ_2M));
	rdmablk_tbudget_expect(test, &b, SZ_4M, 0);
	/* Not one page more. */
	KUNIT_EXPECT_FALSE(test, rdmablk_tbudget_get(&b, &e, SZ_4K));
	rdmablk_tbudget_expect(test, &b, SZ_4M, 1);
	KUNIT_EXPECT_NULL(test, rdmablk_tbudget_next(&b));

	rdmablk_tbudget_put(&b, SZ_1M);
	KUNIT_EXPECT_PTR_EQ(test, rdmablk_tbudget_next(&b), &e);
	KUNIT_EXPECT_NULL(test, rdmablk_tbudget_next(&b));
	rdmablk_tbudget_expect(test, &b, SZ_2M + SZ_1M + SZ_4K, 0);

	rdmablk_tbudget_put(&b, SZ_1M);
	rdmablk_tbudget_put(&b, SZ_2M);
	rdmablk_tbudget_put(&b, SZ_4K);
	rdmablk_tbudget_stats(&b, &st);
	KUNIT_EXPECT_EQ(test, st.pinned, 0);
	KUNIT_EXPECT_EQ(test, st.peak, SZ_4M);
	KUNIT_EXPECT_EQ(test, st.nr_waited, 1);
}

/*
 * A command that would fit queues behind one that waits, and the waiting
 * ones are let through oldest first, each only once it fits.
 */
static void rdmablk_tbudget_fifo(struct kunit *test)
{
	struct rdmablk_tbudget b;
	struct rdmablk_tbudget_wait p0 = {}, p1 = {}, p2 = {};
	struct rdmablk_tbudget_wait big = {}, small = {}, late = {};

	rdmablk_tbudget_init(&b, SZ_4M);
	KUNIT_EXPECT_TRUE(test, rdmablk_tbudget_get(&b, &p0, SZ_1M));
	KUNIT_EXPECT_TRUE(test, rdmablk_tbudget_get(&b, &p1, SZ_1M));
	KUNIT_EXPECT_TRUE(test, rdmablk_tbudget_get(&b, &p2, SZ_1M));
	KUNIT_EXPECT_FALSE(test, rdmablk_tbudget_get(&b, &big, SZ_2M));
	/* 3 MiB + 4 KiB would fit, but @big came first. */
	KUNIT_EXPECT_FALSE(test, rdmablk_tbudget_get(&b, &small, SZ_4K));
	rdmablk_tbudget_expect(test, &b, SZ_2M + SZ_1M, 2);

	rdmablk_tbudget_put(&b, SZ_1M);
	KUNIT_EXPECT_PTR_EQ(test, rdmablk_tbudget_next(&b), &big);
	/* 4 MiB pinned: @small waits on. */
	KUNIT_EXPECT_NULL(test, rdmablk_tbudget_next(&b));
	KUNIT_EXPECT_FALSE(test, rdmablk_tbudget_get(&b, &late, SZ_4K));
	rdmablk_tbudget_expect(test, &b, SZ_4M, 2);

	rdmablk_tbudget_put(&b, SZ_1M);
	KUNIT_EXPECT_PTR_EQ(test, rdmablk_tbudget_next(&b), &small);
	KUNIT_EXPECT_PTR_EQ(test, rdmablk_tbudget_next(&b), &late);
	KUNIT_EXPECT_NULL(test, rdmablk_tbudget_next(&b));
	rdmablk_tbudget_expect(test, &b, SZ_2M + SZ_1M + SZ_8K, 0);
}

/* A command larger than the budget runs, alone. */
static void rdmablk_tbudget_oversized(struct kunit *test)
{
	struct rdmablk_tbudget b;
	struct rdmablk_tbudget_stats st;
	struct rdmablk_tbudget_wait a = {}, huge = {}, c = {};

	rdmablk_tbudget_init(&b, SZ_256K);
	KUNIT_EXPECT_TRUE(test, rdmablk_tbudget_get(&b, &huge, SZ_1M));
	KUNIT_EXPECT_FALSE(test, rdmablk_tbudget_get(&b, &a, SZ_4K));
	rdmablk_tbudget_put(&b, SZ_1M);
	KUNIT_EXPECT_PTR_EQ(test, rdmablk_tbudget_next(&b), &a);

	/* With something pinned, it waits until that is back. */
	KUNIT_EXPECT_FALSE(test, rdmablk_tbudget_get(&b, &huge, SZ_1M));
	KUNIT_EXPECT_FALSE(test, rdmablk_tbudget_get(&b, &c, SZ_4K));
	KUNIT_EXPECT_NULL(test, rdmablk_tbudget_next(&b));
	rdmablk_tbudget_put(&b, SZ_4K);
	KUNIT_EXPECT_PTR_EQ(test, rdmablk_tbudget_next(&b), &huge);
	KUNIT_EXPECT_NULL(test, rdmablk_tbudget_next(&b));
	rdmablk_tbudget_put(&b, SZ_1M);
	KUNIT_EXPECT_PTR_EQ(test, rdmablk_tbudget_next(&b), &c);
	rdmablk_tbudget_put(&b, SZ_4K);

	rdmablk_tbudget_stats(&b, &st);
	KUNIT_EXPECT_EQ(test, st.pinned, 0);
	KUNIT_EXPECT_EQ(test, st.peak, SZ_1M);
}

/* 0 is no bound; the largest claims do not overflow the count. */
static void rdmablk_tbudget_unbounded(struct kunit *test)
{
	struct rdmablk_tbudget b;
	struct rdmablk_tbudget_wait w[8] = {};
	unsigned int i;

	rdmablk_tbudget_init(&b, 0);
	for (i = 0; i < ARRAY_SIZE(w); i++)
		KUNIT_EXPECT_TRUE(test, rdmablk_tbudget_get(&b, &w[i], U32_MAX));
	rdmablk_tbudget_expect(test, &b, 8ULL * U32_MAX, 0);
	for (i = 0; i < ARRAY_SIZE(w); i++)
		rdmablk_tbudget_put(&b, U32_MAX);
	rdmablk_tbudget_expect(test, &b, 0, 0);

	/* Near the top of u32 the sum is still compared right. */
	rdmablk_tbudget_init(&b, U32_MAX);
	KUNIT_EXPECT_TRUE(test, rdmablk_tbudget_get(&b, &w[0], U32_MAX - 1));
	KUNIT_EXPECT_TRUE(test, rdmablk_tbudget_get(&b, &w[1], 1));
	KUNIT_EXPECT_FALSE(test, rdmablk_tbudget_get(&b, &w[2], U32_MAX));
	rdmablk_tbudget_expect(test, &b, U32_MAX, 1);
}

/*
 * Closing hands every waiting claim over, oldest first, once: none comes
 * out of next() after it, and nothing waits any more.
 */
static void rdmablk_tbudget_closing(struct kunit *test)
{
	struct rdmablk_tbudget b;
	struct rdmablk_tbudget_wait *pos;
	struct rdmablk_tbudget_wait *want[2];
	unsigned int n = 0;
	LIST_HEAD(waiters);
	struct rdmablk_tbudget_wait a = {}, c = {}, d = {}, e = {};

	rdmablk_tbudget_init(&b, SZ_1M);
	KUNIT_EXPECT_TRUE(test, rdmablk_tbudget_get(&b, &a, SZ_1M));
	KUNIT_EXPECT_FALSE(test, rdmablk_tbudget_get(&b, &c, SZ_4K));
	KUNIT_EXPECT_FALSE(test, rdmablk_tbudget_get(&b, &d, SZ_1M));
	want[0] = &c;
	want[1] = &d;

	rdmablk_tbudget_close(&b, &waiters);
	list_for_each_entry(pos, &waiters, node) {
		KUNIT_ASSERT_LT(test, n, 2U);
		KUNIT_EXPECT_PTR_EQ(test, pos, want[n]);
		n++;
	}
	KUNIT_EXPECT_EQ(test, n, 2U);
	/* What waited was never counted; what ran is given back as usual. */
	rdmablk_tbudget_expect(test, &b, SZ_1M, 0);
	rdmablk_tbudget_put(&b, SZ_1M);
	KUNIT_EXPECT_NULL(test, rdmablk_tbudget_next(&b));

	/* After close nothing waits, even beyond the budget. */
	KUNIT_EXPECT_TRUE(test, rdmablk_tbudget_get(&b, &e, SZ_2M));
	KUNIT_EXPECT_TRUE(test, rdmablk_tbudget_get(&b, &a, SZ_2M));
	rdmablk_tbudget_close(&b, &waiters);
	rdmablk_tbudget_expect(test, &b, SZ_4M, 0);
}

static struct kunit_case rdmablk_tbudget_test_cases[] = {
	KUNIT_CASE(rdmablk_tbudget_bound),
	KUNIT_CASE(rdmablk_tbudget_fifo),
	KUNIT_CASE(rdmablk_tbudget_oversized),
	KUNIT_CASE(rdmablk_tbudget_unbounded),
	KUNIT_CASE(rdmablk_tbudget_closing),
	{}
};

static struct kunit_suite rdmablk_tbudget_test_suite = {
	.name = "rdmablk-tbudget",
	.test_cases = rdmablk_tbudget_test_cases,
};

kunit_test_suite(rdmablk_tbudget_test_suite);
