// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for state.c: the device state table holds exactly the legal
 * changes (DELETING is terminal; only a connect makes a device LIVE), and
 * every wire status ends a request with a status this side knows, and
 * the states' names, which path a request takes, and when keep-alive
 * finds a silent peer lost, and how long a flapping path is held back.
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

/*
 * A device is LIVE while any path is, RECONNECTING while none is and one
 * is being connected, DEAD when all gave up or none is left; NEW and
 * DELETING are kept.
 */
static void rdmablk_state_of_paths(struct kunit *test)
{
	const u32 live_dead[] = { RDMABLK_DEV_DEAD, RDMABLK_DEV_LIVE };
	const u32 trying[] = { RDMABLK_DEV_DEAD, RDMABLK_DEV_RECONNECTING };
	const u32 adding[] = { RDMABLK_DEV_NEW, RDMABLK_DEV_DEAD };
	const u32 dead[] = { RDMABLK_DEV_DEAD, RDMABLK_DEV_DEAD };
	const u32 deleting[] = { RDMABLK_DEV_DELETING };

	KUNIT_EXPECT_EQ(test, rdmablk_dev_state_of_paths(RDMABLK_DEV_RECONNECTING,
							 live_dead, 2),
			RDMABLK_DEV_LIVE);
	KUNIT_EXPECT_EQ(test, rdmablk_dev_state_of_paths(RDMABLK_DEV_LIVE,
							 trying, 2),
			RDMABLK_DEV_RECONNECTING);
	/* A path being added is one being connected. */
	KUNIT_EXPECT_EQ(test, rdmablk_dev_state_of_paths(RDMABLK_DEV_DEAD,
							 adding, 2),
			RDMABLK_DEV_RECONNECTING);
	KUNIT_EXPECT_EQ(test, rdmablk_dev_state_of_paths(RDMABLK_DEV_RECONNECTING,
							 dead, 2),
			RDMABLK_DEV_DEAD);
	KUNIT_EXPECT_EQ(test, rdmablk_dev_state_of_paths(RDMABLK_DEV_LIVE,
							 deleting, 1),
			RDMABLK_DEV_DEAD);
	KUNIT_EXPECT_EQ(test, rdmablk_dev_state_of_paths(RDMABLK_DEV_LIVE,
							 NULL, 0),
			RDMABLK_DEV_DEAD);
	/* Attaching: NEW until a path is live. */
	KUNIT_EXPECT_EQ(test, rdmablk_dev_state_of_paths(RDMABLK_DEV_NEW,
							 adding, 2),
			RDMABLK_DEV_NEW);
	KUNIT_EXPECT_EQ(test, rdmablk_dev_state_of_paths(RDMABLK_DEV_NEW,
							 live_dead, 2),
			RDMABLK_DEV_LIVE);
	/* Detaching: DELETING whatever the paths do. */
	KUNIT_EXPECT_EQ(test, rdmablk_dev_state_of_paths(RDMABLK_DEV_DELETING,
							 live_dead, 2),
			RDMABLK_DEV_DELETING);
}

/*
 * queue-depth: the fewest in flight, never an unusable one; on a tie the
 * first from @rr on, so that equally loaded paths take turns.
 */
static void rdmablk_mp_queue_depth(struct kunit *test)
{
	struct rdmablk_mp_cand c[3] = {
		{ .inflight = 4, .usable = true },
		{ .inflight = 1, .usable = true },
		{ .inflight = 0, .usable = false },
	};

	KUNIT_EXPECT_EQ(test, rdmablk_mp_choose(RDMABLK_MP_QUEUE_DEPTH, c, 3, 0), 1);
	KUNIT_EXPECT_EQ(test, rdmablk_mp_choose(RDMABLK_MP_QUEUE_DEPTH, c, 3, 2), 1);
	c[0].inflight = 1;
	KUNIT_EXPECT_EQ(test, rdmablk_mp_choose(RDMABLK_MP_QUEUE_DEPTH, c, 3, 0), 0);
	KUNIT_EXPECT_EQ(test, rdmablk_mp_choose(RDMABLK_MP_QUEUE_DEPTH, c, 3, 1), 1);
	/* From the unusable third on: the first usable after it. */
	KUNIT_EXPECT_EQ(test, rdmablk_mp_choose(RDMABLK_MP_QUEUE_DEPTH, c, 3, 2), 0);
	/* An unknown policy chooses as queue-depth does. */
	KUNIT_EXPECT_EQ(test, rdmablk_mp_choose(99, c, 3, 1), 1);
	c[0].usable = false;
	c[1].usable = false;
	KUNIT_EXPECT_EQ(test, rdmablk_mp_choose(RDMABLK_MP_QUEUE_DEPTH, c, 3, 0), -1);
	KUNIT_EXPECT_EQ(test, rdmablk_mp_choose(RDMABLK_MP_QUEUE_DEPTH, c, 0, 0), -1);
}

/* min-latency: the lowest average; one without a sample gets tried. */
static void rdmablk_mp_min_latency(struct kunit *test)
{
	struct rdmablk_mp_cand c[3] = {
		{ .latency_ns = 90000, .inflight = 0, .usable = true },
		{ .latency_ns = 30000, .inflight = 9, .usable = true },
		{ .latency_ns = 60000, .usable = true },
	};

	KUNIT_EXPECT_EQ(test, rdmablk_mp_choose(RDMABLK_MP_MIN_LATENCY, c, 3, 0), 1);
	KUNIT_EXPECT_EQ(test, rdmablk_mp_choose(RDMABLK_MP_MIN_LATENCY, c, 3, 2), 1);
	c[2].latency_ns = 0;
	KUNIT_EXPECT_EQ(test, rdmablk_mp_choose(RDMABLK_MP_MIN_LATENCY, c, 3, 0), 2);
}

/* round-robin: each usable path in turn, the unusable ones skipped. */
static void rdmablk_mp_round_robin(struct kunit *test)
{
	struct rdmablk_mp_cand c[4] = {
		{ .usable = true }, { .usable = false },
		{ .usable = true }, { .usable = true },
	};
	static const int want[] = { 0, 2, 3, 0, 2, 3 };
	u32 rr;

	for (rr = 0; rr < ARRAY_SIZE(want); rr++)
		KUNIT_EXPECT_EQ(test,
				rdmablk_mp_choose(RDMABLK_MP_ROUND_ROBIN, c, 4, rr),
				want[rr]);
}

/* Standby paths only while no active one is usable, by the same policy. */
static void rdmablk_mp_standby(struct kunit *test)
{
	struct rdmablk_mp_cand c[3] = {
		{ .inflight = 9, .usable = true },
		{ .inflight = 0, .standby = true, .usable = true },
		{ .inflight = 1, .standby = true, .usable = true },
	};
	u32 policy;

	for (policy = RDMABLK_MP_QUEUE_DEPTH; policy < __RDMABLK_MP_MAX; policy++)
		KUNIT_EXPECT_EQ(test, rdmablk_mp_choose(policy, c, 3, 1), 0);
	c[0].usable = false;
	KUNIT_EXPECT_EQ(test, rdmablk_mp_choose(RDMABLK_MP_QUEUE_DEPTH, c, 3, 0), 1);
	KUNIT_EXPECT_EQ(test, rdmablk_mp_choose(RDMABLK_MP_QUEUE_DEPTH, c, 3, 2), 1);
	KUNIT_EXPECT_EQ(test, rdmablk_mp_choose(RDMABLK_MP_ROUND_ROBIN, c, 3, 1), 2);
}

/*
 * The keep-alive rule: a peer that falls silent at T, looked at every
 * quarter of the timeout from any phase, busy (the last receive at T) or
 * idle (its last keep-alive answered at T), is found lost no earlier than
 * T + kato and no later than T + 1.25 kato (and a look's jitter).
 */
static void rdmablk_state_keepalive(struct kunit *test)
{
	const unsigned long kato = 2000, step = kato / 4, t = 100000;
	unsigned long phase, now, ka_sent, lost_at;
	bool pending;

	/* Spoken lately: wait; quiet for a quarter: send. */
	KUNIT_EXPECT_EQ(test, rdmablk_ka_check(t + step - 1, t, 0, false, kato),
			RDMABLK_KA_WAIT);
	KUNIT_EXPECT_EQ(test, rdmablk_ka_check(t + step, t, 0, false, kato),
			RDMABLK_KA_SEND);
	/* Outstanding: never lost before the timeout, nor before half of it
	 * went by since the keep-alive was sent.
	 */
	KUNIT_EXPECT_EQ(test, rdmablk_ka_check(t + kato, t, t + step, true, kato),
			RDMABLK_KA_WAIT);
	KUNIT_EXPECT_EQ(test, rdmablk_ka_check(t + kato + 1, t, t + step, true, kato),
			RDMABLK_KA_LOST);
	KUNIT_EXPECT_EQ(test, rdmablk_ka_check(t + kato + 1, t, t + kato, true, kato),
			RDMABLK_KA_WAIT);
	/* A keep-alive sent long after the last receive still gets half. */
	KUNIT_EXPECT_EQ(test, rdmablk_ka_check(t + 10 * kato, t, t + 10 * kato - kato / 2,
					       true, kato), RDMABLK_KA_WAIT);
	/* Wraparound of jiffies. */
	KUNIT_EXPECT_EQ(test, rdmablk_ka_check(kato / 2, -kato, -step, true, kato),
			RDMABLK_KA_LOST);

	for (phase = 0; phase < step; phase += 7) {
		pending = false;
		ka_sent = 0;
		lost_at = 0;
		for (now = t + phase; now < t + 3 * kato; now += step) {
			switch (rdmablk_ka_check(now, t, ka_sent, pending, kato)) {
			case RDMABLK_KA_SEND:
				pending = true;
				ka_sent = now;
				break;
			case RDMABLK_KA_LOST:
				lost_at = now;
				break;
			case RDMABLK_KA_WAIT:
				break;
			}
			if (lost_at)
				break;
		}
		KUNIT_EXPECT_GT_MSG(test, lost_at, t + kato, "phase %lu", phase);
		KUNIT_EXPECT_LE_MSG(test, lost_at, t + kato + step, "phase %lu", phase);
	}
	KUNIT_EXPECT_EQ(test, rdmablk_ka_interval(2), 2 * HZ / 4);
	KUNIT_EXPECT_EQ(test, rdmablk_ka_interval(0), 1UL);
}

/*
 * Flapping: a loss soon after the path came up counts, a stable spell
 * resets the count; the hold before the first reconnect attempt doubles
 * from the second flap in a row, up to a minute and never past
 * ctrl_loss_tmo, and is never shorter than reconnect_delay.
 */
static void rdmablk_state_flap_hold(struct kunit *test)
{
	const unsigned long delay = 2 * HZ;

	KUNIT_EXPECT_EQ(test, rdmablk_flaps_after_loss(0, RDMABLK_FLAP_WINDOW - 1), 1U);
	KUNIT_EXPECT_EQ(test, rdmablk_flaps_after_loss(3, 1), 4U);
	KUNIT_EXPECT_EQ(test, rdmablk_flaps_after_loss(3, RDMABLK_FLAP_WINDOW), 0U);
	KUNIT_EXPECT_EQ(test, rdmablk_flaps_after_loss(RDMABLK_FLAPS_MAX, 1),
			(u32)RDMABLK_FLAPS_MAX);
	KUNIT_EXPECT_EQ(test, rdmablk_flap_hold(delay, RDMABLK_FLAPS_MAX, ULONG_MAX),
			(unsigned long)RDMABLK_FLAP_HOLD_MAX);

	KUNIT_EXPECT_EQ(test, rdmablk_flap_hold(delay, 0, ULONG_MAX), delay);
	KUNIT_EXPECT_EQ(test, rdmablk_flap_hold(delay, 1, ULONG_MAX), delay);
	KUNIT_EXPECT_EQ(test, rdmablk_flap_hold(delay, 2, ULONG_MAX), 2 * delay);
	KUNIT_EXPECT_EQ(test, rdmablk_flap_hold(delay, 3, ULONG_MAX), 4 * delay);
	KUNIT_EXPECT_EQ(test, rdmablk_flap_hold(delay, 8, ULONG_MAX),
			(unsigned long)RDMABLK_FLAP_HOLD_MAX);
	KUNIT_EXPECT_EQ(test, rdmablk_flap_hold(delay, 8, 10 * HZ), 10UL * HZ);
	KUNIT_EXPECT_EQ(test, rdmablk_flap_hold(delay, 8, HZ), delay);
	KUNIT_EXPECT_EQ(test, rdmablk_flap_hold(90 * HZ, 3, ULONG_MAX), 90UL * HZ);
}

/*
 * The first reconnect attempt: at once after a stable spell, with or
 * without another live path; after a flap, reconnect_delay with no other
 * path live (holding back would hold the I/O up), else the flap hold.
 */
static void rdmablk_state_first_attempt(struct kunit *test)
{
	const unsigned long delay = 2 * HZ;
	u32 flaps = rdmablk_flaps_after_loss(5, RDMABLK_FLAP_WINDOW);

	KUNIT_EXPECT_EQ(test, rdmablk_first_attempt_hold(delay, flaps, false, ULONG_MAX), 0UL);
	KUNIT_EXPECT_EQ(test, rdmablk_first_attempt_hold(delay, flaps, true, ULONG_MAX), 0UL);
	KUNIT_EXPECT_EQ(test, rdmablk_first_attempt_hold(delay, 0, true, HZ), 0UL);

	flaps = rdmablk_flaps_after_loss(0, RDMABLK_FLAP_WINDOW - 1);
	KUNIT_EXPECT_EQ(test, rdmablk_first_attempt_hold(delay, flaps, false, ULONG_MAX), delay);
	KUNIT_EXPECT_EQ(test, rdmablk_first_attempt_hold(delay, flaps, true, ULONG_MAX), delay);
	KUNIT_EXPECT_EQ(test, rdmablk_first_attempt_hold(delay, 3, false, ULONG_MAX), delay);
	KUNIT_EXPECT_EQ(test, rdmablk_first_attempt_hold(delay, 3, true, ULONG_MAX), 4 * delay);
	KUNIT_EXPECT_EQ(test, rdmablk_first_attempt_hold(delay, 8, true, 10 * HZ), 10UL * HZ);
}

static struct kunit_case rdmablk_state_cases[] = {
	KUNIT_CASE(rdmablk_state_table),
	KUNIT_CASE(rdmablk_state_deleting_terminal),
	KUNIT_CASE(rdmablk_state_wire_status),
	KUNIT_CASE(rdmablk_state_names),
	KUNIT_CASE(rdmablk_state_of_paths),
	KUNIT_CASE(rdmablk_mp_queue_depth),
	KUNIT_CASE(rdmablk_mp_min_latency),
	KUNIT_CASE(rdmablk_mp_round_robin),
	KUNIT_CASE(rdmablk_mp_standby),
	KUNIT_CASE(rdmablk_state_keepalive),
	KUNIT_CASE(rdmablk_state_flap_hold),
	KUNIT_CASE(rdmablk_state_first_attempt),
	{}
};

static struct kunit_suite rdmablk_state_suite = {
	.name = "rdmablk_host_state",
	.test_cases = rdmablk_state_cases,
};
kunit_test_suite(rdmablk_state_suite);
