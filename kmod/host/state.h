/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Verbs-free rules of the initiator: which device state changes are legal,
 * a device's state from its paths', which path a request takes, and what
 * a wire status means to the block layer. Unit tested by state_test.c.
 */
#ifndef RDMABLK_HOST_STATE_H
#define RDMABLK_HOST_STATE_H

#include <linux/blk_types.h>
#include <linux/jiffies.h>
#include <linux/minmax.h>
#include <linux/types.h>

/*
 * Before the disk exists the device is in no state of enum
 * rdmablk_dev_state: it is being attached.
 */
#define RDMABLK_DEV_NEW		0

bool rdmablk_dev_state_change_ok(u32 old, u32 new);
bool rdmablk_dev_state_valid(u32 state);
const char *rdmablk_dev_state_name(u32 state);
u16 rdmablk_wire_status(u16 wire);
u32 rdmablk_dev_state_of_paths(u32 old, const u32 *path_states, u32 n);

/**
 * struct rdmablk_mp_cand - what the path policies know of a path
 * @inflight: requests in flight on it
 * @latency_ns: moving average of its latencies, 0 before the first
 * @standby: used only while no other path is usable
 * @usable: live, with the request's queue live
 */
struct rdmablk_mp_cand {
	u32 inflight;
	u64 latency_ns;
	bool standby;
	bool usable;
};

int rdmablk_mp_choose(u32 policy, const struct rdmablk_mp_cand *cand, u32 n,
		      u32 rr);
blk_status_t rdmablk_status_to_blk(u16 status);

/**
 * enum rdmablk_ka_action - what a keep-alive look at a queue leads to
 * @RDMABLK_KA_WAIT: the peer spoke lately, or the keep-alive sent may
 *	still be answered
 * @RDMABLK_KA_SEND: the queue was quiet for a look's interval: send one
 * @RDMABLK_KA_LOST: the peer has been silent for the keep-alive timeout
 */
enum rdmablk_ka_action {
	RDMABLK_KA_WAIT,
	RDMABLK_KA_SEND,
	RDMABLK_KA_LOST,
};

enum rdmablk_ka_action rdmablk_ka_check(unsigned long now,
					unsigned long last_rx,
					unsigned long ka_sent, bool ka_pending,
					unsigned long kato);

/*
 * A path lost within RDMABLK_FLAP_WINDOW of becoming live flaps: its first
 * reconnect attempt is not made at once, and while another path is live
 * it waits rdmablk_flap_hold() for it, up to RDMABLK_FLAP_HOLD_MAX.
 */
#define RDMABLK_FLAP_WINDOW	(30 * HZ)
#define RDMABLK_FLAP_HOLD_MAX	(60 * HZ)
/* Flaps in a row counted; beyond, the log says "or more". */
#define RDMABLK_FLAPS_MAX	100

u32 rdmablk_flaps_after_loss(u32 flaps, unsigned long live_for);
unsigned long rdmablk_flap_hold(unsigned long delay, u32 flaps,
				unsigned long loss_tmo);
unsigned long rdmablk_first_attempt_hold(unsigned long delay, u32 flaps,
					 bool others_live,
					 unsigned long loss_tmo);

/**
 * rdmablk_ka_interval() - how often a live path's queues are looked at
 * @kato_s: the keep-alive timeout, in seconds
 *
 * A quarter of the timeout, so that a silent peer is noticed at most a
 * quarter of it after the timeout (rdmablk_ka_check()).
 *
 * Return: the interval in jiffies, at least one.
 */
static inline unsigned long rdmablk_ka_interval(u32 kato_s)
{
	return max_t(unsigned long, (unsigned long)kato_s * HZ / 4, 1);
}

#endif /* RDMABLK_HOST_STATE_H */
