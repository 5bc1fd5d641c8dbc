// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for state.c: the device state table holds exactly the legal
 * changes (DELETING is terminal; only a connect makes a device LIVE), and
 * every wire status ends a request with a status this side knows, and
 * the states' names.
 */
#include <kunit/test.h>
#include <linux/rdmablk.h>
#include <linux/rdmablk_proto.h>

#include "state.h"

static const u32 rdmablk_states[] = {
	RDMABLK_DEV_NEW, RDMABLK_DEV_LIVE, RDMABLK_DEV_DEAD,
	RDMABLK_DEV_DELETING, RDMABLK_DEV_RECONNECTING,
};

/* The whole table: every pair of states, allowed or not. */
static void rdmablk_state_table(struct kunit *test)
{
	static const struct {
		u32 from, to;
	} legal[] = {
		{ RDMABLK_DEV_NEW, RDMABLK_DEV_LIVE },
		{ RDMABLK_DEV_NEW, RDMABLK_DEV_DELETING },
		{ RDMABLK_DEV_LIVE, RDMABLK_DEV_RECONNECTING },
		{ RDMABLK_DEV_LIVE, RDMABLK_DEV_DELETING },
		{ RDMABLK_DEV_RECONNECTING, RDMABLK_DEV_LIVE },
		{ RDMABLK_DEV_RECONNECTING, RDMABLK_DEV_DEAD },
		{ RDMABLK_DEV_RECONNECTING, RDMABLK_DEV_DELETING },
		{ RDMABLK_DEV_DEAD, RDMABLK_DEV_RECONNECTING },
		{ RDMABLK_DEV_DEAD, RDMABLK_DEV_DELETING },
	};
	unsigned int i, j, k;

	for (i = 0; i < ARRAY_SIZE(rdmablk_states); i++) {
		for (j = 0; j < ARRAY_SIZE(rdmablk_states); j++) {
			u32 from = rdmablk_states[i], to = rdmablk_states[j];
			bool want = false;

			for (k = 0; k < ARRAY_SIZE(legal); k++)
				if (legal[k].from == from && legal[k].to == to)
					want = true;
			KUNIT_EXPECT_EQ_MSG(test,
					    rdmablk_dev_state_change_ok(from, to),
					    want, "%u -> %u", from, to);
		}
	}
}

/* A reconnect that finishes after detach began must not revive the device. */
static void rdmablk_state_deleting_terminal(struct kunit *test)
{
	const u32 del = RDMABLK_DEV_DELETING;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rdmablk_states); i++)
		KUNIT_EXPECT_FALSE(test,
				   rdmablk_dev_state_change_ok(del, rdmablk_states[i]));
	KUNIT_EXPECT_FALSE(test, rdmablk_dev_state_change_ok(RDMABLK_DEV_LIVE,
							     RDMABLK_DEV_NEW));
	KUNIT_EXPECT_FALSE(test, rdmablk_dev_state_change_ok(RDMABLK_DEV_LIVE, 99));
	KUNIT_EXPECT_FALSE(test, rdmablk_dev_state_change_ok(99, del));
}

/*
 * Known statuses pass; anything else, 0xffff included (once the internal
 * requeue marker), is an I/O error: a request never waits forever on a
 * status the target made up.
 */
static void rdmablk_state_wire_status(struct kunit *test)
{
	u32 s;

	for (s = RDMABLK_S_OK; s <= RDMABLK_S_NO_SPACE; s++)
		KUNIT_EXPECT_EQ(test, rdmablk_wire_status(s), s);
	for (s = RDMABLK_S_NO_SPACE + 1; s <= U16_MAX; s++)
		KUNIT_EXPECT_EQ_MSG(test, rdmablk_wire_status(s),
				    RDMABLK_S_IO_ERROR, "status %u", s);
	for (s = 0; s <= U16_MAX; s++) {
		blk_status_t sts = rdmablk_status_to_blk(rdmablk_wire_status(s));

		KUNIT_EXPECT_EQ_MSG(test, sts == BLK_STS_OK, s == RDMABLK_S_OK,
				    "status %u", s);
		KUNIT_EXPECT_NE(test, sts, BLK_STS_RESOURCE);
		KUNIT_EXPECT_NE(test, sts, BLK_STS_DEV_RESOURCE);
	}
	KUNIT_EXPECT_EQ(test, rdmablk_status_to_blk(RDMABLK_S_NO_SPACE),
			BLK_STS_NOSPC);
	KUNIT_EXPECT_EQ(test, rdmablk_status_to_blk(RDMABLK_S_RANGE),
			BLK_STS_TARGET);
	KUNIT_EXPECT_EQ(test, rdmablk_status_to_blk(RDMABLK_S_UNSUPPORTED),
			BLK_STS_NOTSUPP);
}

/*
 * sysfs names the states as rdmablkctl does (daemon/lib/nl/names.cpp):
 * each state its own name, anything else "unknown".
 */
static void rdmablk_state_names(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, rdmablk_dev_state_name(RDMABLK_DEV_NEW), "new");
	KUNIT_EXPECT_STREQ(test, rdmablk_dev_state_name(RDMABLK_DEV_LIVE), "live");
	KUNIT_EXPECT_STREQ(test, rdmablk_dev_state_name(RDMABLK_DEV_DEAD), "dead");
	KUNIT_EXPECT_STREQ(test, rdmablk_dev_state_name(RDMABLK_DEV_DELETING),
			   "deleting");
	KUNIT_EXPECT_STREQ(test, rdmablk_dev_state_name(RDMABLK_DEV_RECONNECTING),
			   "reconnecting");
	KUNIT_EXPECT_STREQ(test, rdmablk_dev_state_name(99), "unknown");
}

static struct kunit_case rdmablk_state_cases[] = {
	KUNIT_CASE(rdmablk_state_table),
	KUNIT_CASE(rdmablk_state_deleting_terminal),
	KUNIT_CASE(rdmablk_state_wire_status),
	KUNIT_CASE(rdmablk_state_names),
	{}
};

static struct kunit_suite rdmablk_state_suite = {
	.name = "rdmablk_host_state",
	.test_cases = rdmablk_state_cases,
};
kunit_test_suite(rdmablk_state_suite);
