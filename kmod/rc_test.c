// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the ack_timeout_ms conversion (rdmablk.h, used by rc.c):
 * the local ACK timeout chosen is the smallest 4.096 us * 2^n that covers
 * the milliseconds asked for, and 0 leaves rdma_cm's.
 */
#include <kunit/test.h>

#include "rdmablk.h"

struct ack_case {
	unsigned int ms;
	u8 exp;
};

static const struct ack_case ack_cases[] = {
	{ 0, 0 },		/* rdma_cm's timeout, not "none" */
	{ 1, 8 },		/* 1.05 ms */
	{ 2, 9 },		/* 2.10 ms */
	{ 67, 14 },		/* 67.1 ms */
	{ 68, 15 },
	{ 250, 16 },		/* 268.4 ms: the default */
	{ 268, 16 },
	{ 269, 17 },
	{ 536, 17 },		/* 536.9 ms */
	{ 537, 18 },
	{ 2147, 19 },		/* 2147.5 ms, rdma_cm's over RoCE */
	{ 2148, 20 },
	{ RDMABLK_ACK_TIMEOUT_MS_MAX, 20 },	/* 4.29 s */
	{ 10000, 22 },		/* 17.2 s */
	{ UINT_MAX, 31 },	/* never beyond the encoding */
};

static void ack_case_desc(const struct ack_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%u ms", c->ms);
}

KUNIT_ARRAY_PARAM(ack, ack_cases, ack_case_desc);

static void rdmablk_ack_timeout_exp_test(struct kunit *test)
{
	const struct ack_case *c = test->param_value;
	u8 n = rdmablk_ack_timeout_exp(c->ms);

	KUNIT_EXPECT_EQ(test, n, c->exp);
	if (!n || n == 31)
		return;
	/* Covers the milliseconds asked for, and the next smaller does not. */
	KUNIT_EXPECT_GE(test, 4096ULL << n, (u64)c->ms * NSEC_PER_MSEC);
	KUNIT_EXPECT_LT(test, 4096ULL << (n - 1), (u64)c->ms * NSEC_PER_MSEC);
}

static struct kunit_case rdmablk_rc_test_cases[] = {
	KUNIT_CASE_PARAM(rdmablk_ack_timeout_exp_test, ack_gen_params),
	{}
};

static struct kunit_suite rdmablk_rc_test_suite = {
	.name = "rdmablk-rc",
	.test_cases = rdmablk_rc_test_cases,
};
kunit_test_suite(rdmablk_rc_test_suite);
