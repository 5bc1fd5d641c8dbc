/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Verbs-free rules of the initiator: which device state changes are legal,
 * and what a wire status means to the block layer. Unit tested by
 * state_test.c.
 */
#ifndef RDMABLK_HOST_STATE_H
#define RDMABLK_HOST_STATE_H

#include <linux/blk_types.h>
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
blk_status_t rdmablk_status_to_blk(u16 status);

#endif /* RDMABLK_HOST_STATE_H */
