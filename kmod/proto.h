/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Wire protocol codecs: turn the little-endian structs of
 * uapi/linux/rdmablk_proto.h into host-order values and back, and decide
 * whether what arrived from the wire may be acted on. Nothing here touches
 * verbs, so KUnit tests every rejection.
 */
#ifndef RDMABLK_PROTO_H
#define RDMABLK_PROTO_H

#include <linux/types.h>
#include <linux/rdmablk_proto.h>

/* Largest data transfer of one command this implementation supports. */
#define RDMABLK_MAX_IO_SIZE		(1U << 20)
/* Largest write payload carried inline with its command. */
#define RDMABLK_INLINE_MAX		4096U

/**
 * struct rdmablk_conn_params - what a connection was set up with
 * @version: protocol version
 * @queue_id: queue of the attachment
 * @queue_depth: credits: commands outstanding at once
 * @max_queues: queues per attachment the target takes (reply only)
 * @flags: RDMABLK_CONN_*
 * @max_io_size: bytes (reply only)
 * @inline_max: bytes (reply only)
 * @keepalive_ms: keep-alive interval (request only), 0 = none
 */
struct rdmablk_conn_params {
	u16 version;
	u16 queue_id;
	u16 queue_depth;
	u16 max_queues;
	u32 flags;
	u32 max_io_size;
	u32 inline_max;
	u32 keepalive_ms;
};

/**
 * struct rdmablk_cmd_info - a decoded command
 * @opcode: enum rdmablk_opcode
 * @flags: RDMABLK_CMD_*
 * @tag: request tag
 * @length: bytes
 * @offset: byte offset into the export
 * @addr: initiator buffer
 * @rkey: its remote key
 * @gen: generation of this sending of the command
 */
struct rdmablk_cmd_info {
	u8 opcode;
	u8 flags;
	u16 tag;
	u32 length;
	u64 offset;
	u64 addr;
	u32 rkey;
	u16 gen;
};

/**
 * struct rdmablk_export_params - what a command is checked against
 * @size: bytes
 * @logical_block_size: bytes, a power of two
 * @max_io_size: largest READ/WRITE, bytes
 * @inline_max: largest inline WRITE payload, bytes
 * @max_discard_sectors: largest DISCARD / WRITE_ZEROES, 512-byte sectors
 * @flags: RDMABLK_EXP_*
 */
struct rdmablk_export_params {
	u64 size;
	u32 logical_block_size;
	u32 max_io_size;
	u32 inline_max;
	u32 max_discard_sectors;
	u32 flags;
};

/**
 * struct rdmablk_open_info - a decoded OPEN response
 * @uuid: export UUID
 * @size: bytes
 * @logical_block_size: bytes
 * @physical_block_size: bytes
 * @flags: RDMABLK_EXP_*
 * @max_discard_sectors: 512-byte sectors
 * @discard_granularity: bytes
 * @push_addr: address of the push area's first slot
 * @push_rkey: its remote key
 * @push_slots: slots of RDMABLK_PUSH_SLOT_SIZE bytes; 0: no push area
 */
struct rdmablk_open_info {
	u8 uuid[RDMABLK_UUID_SIZE];
	u64 size;
	u32 logical_block_size;
	u32 physical_block_size;
	u32 flags;
	u32 max_discard_sectors;
	u32 discard_granularity;
	u64 push_addr;
	u32 push_rkey;
	u16 push_slots;
};

/**
 * struct rdmablk_disc_req_info - a decoded discovery request
 * @hostid: the asking host
 * @generation: DISC_WAIT: generation the host has seen
 * @start: DISC_LOG: first entry wanted
 */
struct rdmablk_disc_req_info {
	u8 hostid[RDMABLK_UUID_SIZE];
	u64 generation;
	u32 start;
};

/**
 * struct rdmablk_disc_entry_info - one export as discovery lists it
 * @name: export name
 * @uuid: export UUID
 * @size: bytes
 * @logical_block_size: bytes
 * @physical_block_size: bytes
 * @flags: RDMABLK_EXP_*
 */
struct rdmablk_disc_entry_info {
	char name[RDMABLK_EXPORT_NAME_MAX];
	u8 uuid[RDMABLK_UUID_SIZE];
	u64 size;
	u32 logical_block_size;
	u32 physical_block_size;
	u32 flags;
};

void rdmablk_proto_build_checks(void);

void rdmablk_conn_req_encode(struct rdmablk_conn_req *req,
			     const struct rdmablk_conn_params *p);
int rdmablk_conn_req_decode(const void *data, size_t len,
			    struct rdmablk_conn_params *p);
void rdmablk_conn_rep_encode(struct rdmablk_conn_rep *rep,
			     const struct rdmablk_conn_params *p);
int rdmablk_conn_rep_decode(const void *data, size_t len,
			    const struct rdmablk_conn_params *req,
			    struct rdmablk_conn_params *p);
void rdmablk_conn_rej_encode(struct rdmablk_conn_rej *rej, u16 reason);
int rdmablk_conn_rej_decode(const void *data, size_t len);

u32 rdmablk_read_imm_encode(u16 tag, u16 gen);
void rdmablk_read_imm_decode(u32 imm, u16 *tag, u16 *gen);

void rdmablk_cmd_encode(struct rdmablk_cmd *cmd,
			const struct rdmablk_cmd_info *c);
void rdmablk_cmd_decode(const struct rdmablk_cmd *cmd,
			struct rdmablk_cmd_info *c);
int rdmablk_cmd_batch_count(const struct rdmablk_cmd *first,
			    const struct rdmablk_cmd *rest, u32 len,
			    u32 conn_flags);
void rdmablk_cmd_batch_decode(const struct rdmablk_cmd *cmd,
			      struct rdmablk_cmd_info *c);
int rdmablk_rsp_batch_count(const struct rdmablk_rsp *rsp, u32 len,
			    u32 conn_flags);
enum rdmablk_status rdmablk_cmd_check(const struct rdmablk_cmd_info *c,
				      const struct rdmablk_export_params *e,
				      u32 inline_len);

void rdmablk_open_rsp_encode(struct rdmablk_open_rsp *rsp,
			     const struct rdmablk_open_info *info);
int rdmablk_open_rsp_decode(const struct rdmablk_open_rsp *rsp,
			    struct rdmablk_open_info *info);
bool rdmablk_export_name_valid(const char *name);

enum rdmablk_status rdmablk_disc_req_decode(const struct rdmablk_cmd_info *c,
					    const void *data, u32 len,
					    struct rdmablk_disc_req_info *r);
void rdmablk_disc_log_encode(struct rdmablk_disc_log *log, u64 generation,
			     u32 total, u32 count);
void rdmablk_disc_entry_encode(struct rdmablk_disc_entry *e,
			       const struct rdmablk_disc_entry_info *info);

const char *rdmablk_status_str(u16 status);
int rdmablk_status_to_errno(u16 status);
bool rdmablk_opcode_is_io(u8 opcode);

#endif /* RDMABLK_PROTO_H */
