/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * rdmablk wire protocol, spoken between an initiator and a target over an
 * RDMA reliable connection. All multi-byte fields are little endian.
 * See docs/protocol.md for the message sequence.
 */
#ifndef _UAPI_LINUX_RDMABLK_PROTO_H
#define _UAPI_LINUX_RDMABLK_PROTO_H

#include <linux/types.h>

/* "RBLK" in the connect private data. */
#define RDMABLK_PROTO_MAGIC		0x4b4c4252U
#define RDMABLK_PROTO_VERSION		1

#endif /* _UAPI_LINUX_RDMABLK_PROTO_H */
