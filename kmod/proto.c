// SPDX-License-Identifier: GPL-2.0
/*
 * Wire protocol codecs and the checks everything from the wire goes
 * through before it is acted on.
 */
#include <linux/build_bug.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/ctype.h>
#include <linux/log2.h>
#include <linux/rdmablk.h>
#include <linux/string.h>

#include "proto.h"

/* Sizes are ABI: a change here is a new protocol version. */
void rdmablk_proto_build_checks(void)
{
	/* The commands of a batch after the first land in the payload page. */
	BUILD_BUG_ON((RDMABLK_CMD_BATCH_MAX - 1) * sizeof(struct rdmablk_cmd) >
		     RDMABLK_PUSH_INLINE_MAX);
	/* So do OPEN's, DISC_*'s and AUTH_*'s payloads, however small. */
	BUILD_BUG_ON(sizeof(struct rdmablk_open_req) > RDMABLK_PUSH_INLINE_MAX);
	BUILD_BUG_ON(sizeof(struct rdmablk_disc_req) > RDMABLK_PUSH_INLINE_MAX);
	BUILD_BUG_ON(sizeof(struct rdmablk_auth_chal_req) >
		     RDMABLK_PUSH_INLINE_MAX);
	BUILD_BUG_ON(sizeof(struct rdmablk_auth_reply_req) >
		     RDMABLK_PUSH_INLINE_MAX);
	BUILD_BUG_ON(sizeof(struct rdmablk_conn_req) != 32);
	BUILD_BUG_ON(sizeof(struct rdmablk_conn_rep) != 32);
	BUILD_BUG_ON(sizeof(struct rdmablk_conn_rej) != 8);
	BUILD_BUG_ON(sizeof(struct rdmablk_cmd) != 64);
	BUILD_BUG_ON(sizeof(struct rdmablk_open_req) != 96);
	BUILD_BUG_ON(sizeof(struct rdmablk_rsp) != 16);
	BUILD_BUG_ON(sizeof(struct rdmablk_open_rsp) != 64);
	BUILD_BUG_ON(sizeof(struct rdmablk_disc_req) != 32);
	BUILD_BUG_ON(sizeof(struct rdmablk_disc_log) != 32);
	BUILD_BUG_ON(sizeof(struct rdmablk_disc_entry) != 128);
	BUILD_BUG_ON(sizeof(struct rdmablk_auth_chal_req) != 128);
	BUILD_BUG_ON(sizeof(struct rdmablk_auth_chal_rsp) != 64);
	BUILD_BUG_ON(sizeof(struct rdmablk_auth_reply_req) != 64);
	BUILD_BUG_ON(sizeof(struct rdmablk_auth_reply_rsp) != 64);
	BUILD_BUG_ON(sizeof(struct rdmablk_auth_chal_req) > RDMABLK_INLINE_MAX);
	/* The initiator's receive buffers hold the longest answer. */
	BUILD_BUG_ON(sizeof(struct rdmablk_rsp) +
		     sizeof(struct rdmablk_auth_chal_rsp) > RDMABLK_RSP_BUF_SIZE);
	BUILD_BUG_ON(sizeof(struct rdmablk_rsp) +
		     sizeof(struct rdmablk_auth_reply_rsp) > RDMABLK_RSP_BUF_SIZE);
	BUILD_BUG_ON(sizeof(struct rdmablk_open_req) > RDMABLK_INLINE_MAX);
	BUILD_BUG_ON(sizeof(struct rdmablk_disc_req) > RDMABLK_INLINE_MAX);
	BUILD_BUG_ON(RDMABLK_DISC_RSP_SIZE > 4096);
	/* Connect private data must fit InfiniBand CM's 56 usable bytes. */
	BUILD_BUG_ON(sizeof(struct rdmablk_conn_req) > 56);
}

void rdmablk_conn_req_encode(struct rdmablk_conn_req *req,
			     const struct rdmablk_conn_params *p)
{
	memset(req, 0, sizeof(*req));
	req->magic = cpu_to_le32(RDMABLK_PROTO_MAGIC);
	req->version = cpu_to_le16(p->version);
	req->queue_id = cpu_to_le16(p->queue_id);
	req->queue_depth = cpu_to_le16(p->queue_depth);
	req->flags = cpu_to_le32(p->flags);
	req->keepalive_ms = cpu_to_le32(p->keepalive_ms);
}

/**
 * rdmablk_conn_req_decode() - check and decode connect private data
 * @data: private data, untrusted
 * @len: its length; transports may pad it
 * @p: result
 *
 * Return: 0, or the enum rdmablk_rej_reason to reject the connection with.
 */
int rdmablk_conn_req_decode(const void *data, size_t len,
			    struct rdmablk_conn_params *p)
{
	const struct rdmablk_conn_req *req = data;

	if (!data || len < sizeof(*req) ||
	    le32_to_cpu(req->magic) != RDMABLK_PROTO_MAGIC)
		return RDMABLK_REJ_INVALID;
	memset(p, 0, sizeof(*p));
	p->version = le16_to_cpu(req->version);
	if (p->version != RDMABLK_PROTO_VERSION)
		return RDMABLK_REJ_VERSION;
	p->queue_id = le16_to_cpu(req->queue_id);
	p->queue_depth = le16_to_cpu(req->queue_depth);
	if (!p->queue_depth)
		return RDMABLK_REJ_QUEUE_DEPTH;
	/* The target answers max_queues = RDMABLK_MAX_QUEUES. */
	if (p->queue_id >= RDMABLK_MAX_QUEUES)
		return RDMABLK_REJ_INVALID;
	p->flags = le32_to_cpu(req->flags);
	p->keepalive_ms = le32_to_cpu(req->keepalive_ms);
	/*
	 * Keep-alive is how a vanished initiator is noticed: a session
	 * without one, I/O or discovery, would hold the target's resources
	 * for as long as its peer likes.
	 */
	if (!p->keepalive_ms)
		return RDMABLK_REJ_INVALID;
	return 0;
}

void rdmablk_conn_rep_encode(struct rdmablk_conn_rep *rep,
			     const struct rdmablk_conn_params *p)
{
	memset(rep, 0, sizeof(*rep));
	rep->magic = cpu_to_le32(RDMABLK_PROTO_MAGIC);
	rep->version = cpu_to_le16(p->version);
	rep->queue_depth = cpu_to_le16(p->queue_depth);
	rep->max_queues = cpu_to_le16(p->max_queues);
	rep->flags = cpu_to_le32(p->flags);
	rep->max_io_size = cpu_to_le32(p->max_io_size);
	rep->inline_max = cpu_to_le32(p->inline_max);
}

/**
 * rdmablk_conn_rep_decode() - check and decode accept private data
 * @data: private data, untrusted
 * @len: its length
 * @req: what was asked for
 * @p: result
 *
 * The target may lower what was asked for, never raise it.
 *
 * Return: 0, or -EPROTO.
 */
int rdmablk_conn_rep_decode(const void *data, size_t len,
			    const struct rdmablk_conn_params *req,
			    struct rdmablk_conn_params *p)
{
	const struct rdmablk_conn_rep *rep = data;

	if (!data || len < sizeof(*rep) ||
	    le32_to_cpu(rep->magic) != RDMABLK_PROTO_MAGIC)
		return -EPROTO;
	memset(p, 0, sizeof(*p));
	p->version = le16_to_cpu(rep->version);
	p->queue_id = req->queue_id;
	p->queue_depth = le16_to_cpu(rep->queue_depth);
	p->max_queues = le16_to_cpu(rep->max_queues);
	p->flags = le32_to_cpu(rep->flags);
	p->max_io_size = le32_to_cpu(rep->max_io_size);
	p->inline_max = le32_to_cpu(rep->inline_max);

	if (p->version != RDMABLK_PROTO_VERSION ||
	    !p->queue_depth || p->queue_depth > req->queue_depth ||
	    !p->max_queues || (p->flags & ~req->flags) ||
	    p->max_io_size < 4096 || p->inline_max > RDMABLK_INLINE_MAX)
		return -EPROTO;
	p->max_io_size = min(p->max_io_size, RDMABLK_MAX_IO_SIZE);
	return 0;
}

void rdmablk_conn_rej_encode(struct rdmablk_conn_rej *rej, u16 reason)
{
	memset(rej, 0, sizeof(*rej));
	rej->magic = cpu_to_le32(RDMABLK_PROTO_MAGIC);
	rej->reason = cpu_to_le16(reason);
	rej->version = cpu_to_le16(RDMABLK_PROTO_VERSION);
}

/**
 * rdmablk_conn_rej_decode() - the reason in reject private data
 * @data: private data, untrusted, may be NULL
 * @len: its length
 *
 * Return: the enum rdmablk_rej_reason, or 0 when the data is not ours.
 */
int rdmablk_conn_rej_decode(const void *data, size_t len)
{
	const struct rdmablk_conn_rej *rej = data;

	if (!data || len < sizeof(*rej) ||
	    le32_to_cpu(rej->magic) != RDMABLK_PROTO_MAGIC)
		return 0;
	return le16_to_cpu(rej->reason);
}

/**
 * rdmablk_read_imm_encode() - immediate data completing a READ
 * @tag: the READ's tag
 * @gen: its generation
 *
 * Return: the value, in host order; verbs carry it as __be32.
 */
u32 rdmablk_read_imm_encode(u16 tag, u16 gen)
{
	return (u32)gen << RDMABLK_IMM_GEN_SHIFT | tag;
}

/**
 * rdmablk_read_imm_decode() - the READ named by immediate data
 * @imm: the immediate, in host order, untrusted: whether it names a READ
 *	outstanding is the caller's to check
 * @tag: its tag
 * @gen: its generation
 */
void rdmablk_read_imm_decode(u32 imm, u16 *tag, u16 *gen)
{
	*tag = imm & RDMABLK_IMM_TAG_MASK;
	*gen = imm >> RDMABLK_IMM_GEN_SHIFT;
}

void rdmablk_cmd_encode(struct rdmablk_cmd *cmd,
			const struct rdmablk_cmd_info *c)
{
	memset(cmd, 0, sizeof(*cmd));
	cmd->opcode = c->opcode;
	cmd->flags = c->flags;
	cmd->tag = cpu_to_le16(c->tag);
	cmd->length = cpu_to_le32(c->length);
	cmd->offset = cpu_to_le64(c->offset);
	cmd->addr = cpu_to_le64(c->addr);
	cmd->rkey = cpu_to_le32(c->rkey);
	cmd->gen = cpu_to_le16(c->gen);
}

void rdmablk_cmd_decode(const struct rdmablk_cmd *cmd,
			struct rdmablk_cmd_info *c)
{
	c->opcode = cmd->opcode;
	c->flags = cmd->flags;
	c->tag = le16_to_cpu(cmd->tag);
	c->length = le32_to_cpu(cmd->length);
	c->offset = le64_to_cpu(cmd->offset);
	c->addr = le64_to_cpu(cmd->addr);
	c->rkey = le32_to_cpu(cmd->rkey);
	c->gen = le16_to_cpu(cmd->gen);
}

/* Does @cmd say it is one of a batch, without a payload? */
static bool rdmablk_cmd_batch_member(const struct rdmablk_cmd *cmd)
{
	return (cmd->flags & RDMABLK_CMD_BATCH) &&
	       !(cmd->flags & RDMABLK_CMD_INLINE);
}

/**
 * rdmablk_cmd_batch_count() - how many commands a received SEND holds
 * @first: its first command, untrusted
 * @rest: what followed @first, untrusted: the other commands of a batch
 * @len: bytes received, @first included
 * @conn_flags: RDMABLK_CONN_* agreed on the connection
 *
 * A SEND holds one command (with its inline payload, if any) unless its
 * first command carries RDMABLK_CMD_BATCH: then, on a connection that
 * agreed RDMABLK_CONN_CMD_BATCH, it holds 2 to RDMABLK_CMD_BATCH_MAX
 * whole commands and nothing else, each with RDMABLK_CMD_BATCH and none
 * with RDMABLK_CMD_INLINE. The whole batch is checked before any of its
 * commands runs.
 *
 * Return: the number of commands, or -EPROTO for a SEND too short to hold
 * a command or a batch that breaks those rules.
 */
int rdmablk_cmd_batch_count(const struct rdmablk_cmd *first,
			    const struct rdmablk_cmd *rest, u32 len,
			    u32 conn_flags)
{
	u32 i, n = len / sizeof(*first);

	if (len < sizeof(*first))
		return -EPROTO;
	if (!(first->flags & RDMABLK_CMD_BATCH))
		return 1;
	if (!(conn_flags & RDMABLK_CONN_CMD_BATCH) ||
	    len % sizeof(*first) || n < 2 || n > RDMABLK_CMD_BATCH_MAX ||
	    !rdmablk_cmd_batch_member(first))
		return -EPROTO;
	for (i = 0; i < n - 1; i++)
		if (!rdmablk_cmd_batch_member(&rest[i]))
			return -EPROTO;
	return n;
}

/**
 * rdmablk_cmd_batch_decode() - decode one command of a batched SEND
 * @cmd: the command, of a batch rdmablk_cmd_batch_count() accepted
 * @c: decoded, without RDMABLK_CMD_BATCH, for rdmablk_cmd_check()
 */
void rdmablk_cmd_batch_decode(const struct rdmablk_cmd *cmd,
			      struct rdmablk_cmd_info *c)
{
	rdmablk_cmd_decode(cmd, c);
	c->flags &= ~RDMABLK_CMD_BATCH;
}

/**
 * rdmablk_opcode_is_io() - is @opcode one of the I/O commands?
 * @opcode: enum rdmablk_opcode, or anything from the wire
 *
 * Only their answers go in a batch of responses, and only theirs may be
 * sent quiet (target, trsp.c).
 */
bool rdmablk_opcode_is_io(u8 opcode)
{
	switch (opcode) {
	case RDMABLK_OP_READ:
	case RDMABLK_OP_WRITE:
	case RDMABLK_OP_FLUSH:
	case RDMABLK_OP_DISCARD:
	case RDMABLK_OP_WRITE_ZEROES:
		return true;
	default:
		return false;
	}
}

/* May @rsp be one of a batch: flagged, and the answer to an I/O command? */
static bool rdmablk_rsp_batch_member(const struct rdmablk_rsp *rsp)
{
	return (rsp->flags & RDMABLK_RSP_BATCH) &&
	       rdmablk_opcode_is_io(rsp->opcode);
}

/**
 * rdmablk_rsp_batch_count() - how many responses a received SEND holds
 * @rsp: what arrived, untrusted: @len bytes
 * @len: bytes received
 * @conn_flags: RDMABLK_CONN_* agreed on the connection
 *
 * A SEND holds one response (with what follows it, for OPEN, AUTH_* and
 * DISC_*) unless its first response carries RDMABLK_RSP_BATCH: then, on a
 * connection that agreed RDMABLK_CONN_RSP_BATCH, it holds 2 to
 * RDMABLK_RSP_BATCH_MAX whole responses and nothing else, each flagged
 * and each the answer to an I/O command. The whole batch is checked
 * before any of its responses is taken.
 *
 * Return: the number of responses, or -EPROTO for a SEND too short to
 * hold one or a batch that breaks those rules.
 */
int rdmablk_rsp_batch_count(const struct rdmablk_rsp *rsp, u32 len,
			    u32 conn_flags)
{
	u32 i, n = len / sizeof(*rsp);

	if (len < sizeof(*rsp))
		return -EPROTO;
	if (!(rsp->flags & RDMABLK_RSP_BATCH))
		return 1;
	if (!(conn_flags & RDMABLK_CONN_RSP_BATCH) || len % sizeof(*rsp) ||
	    n < 2 || n > RDMABLK_RSP_BATCH_MAX)
		return -EPROTO;
	for (i = 0; i < n; i++)
		if (!rdmablk_rsp_batch_member(&rsp[i]))
			return -EPROTO;
	return n;
}

static enum rdmablk_status rdmablk_cmd_check_range(const struct rdmablk_cmd_info *c,
						   const struct rdmablk_export_params *e)
{
	if (!c->length || !IS_ALIGNED(c->offset, e->logical_block_size) ||
	    !IS_ALIGNED(c->length, e->logical_block_size))
		return RDMABLK_S_INVALID;
	if (c->offset > e->size || c->length > e->size - c->offset)
		return RDMABLK_S_RANGE;
	return RDMABLK_S_OK;
}

/**
 * rdmablk_cmd_check() - may the target execute this command?
 * @c: the decoded command, untrusted
 * @e: the export it addresses
 * @inline_len: payload bytes that arrived after the command
 *
 * Checks opcode, flags, length against the negotiated maximum, alignment to
 * the logical block size, the range against the export's size, and writes
 * against a read-only export; a pushed WRITE's shape (its slot is the
 * connection's to check), and a READ by SEND's (whether the connection
 * agreed it is the connection's to check). OPEN is not checked here.
 *
 * Return: RDMABLK_S_OK or the status to answer with.
 */
enum rdmablk_status rdmablk_cmd_check(const struct rdmablk_cmd_info *c,
				      const struct rdmablk_export_params *e,
				      u32 inline_len)
{
	bool inl = c->flags & RDMABLK_CMD_INLINE;
	bool ro = e->flags & RDMABLK_EXP_READ_ONLY;

	if (c->flags & ~RDMABLK_CMD_FLAGS_ALL)
		return RDMABLK_S_INVALID;
	/* Only a WRITE carries a payload inline, and all of it. */
	if (inl != (c->opcode == RDMABLK_OP_WRITE && inline_len))
		return RDMABLK_S_INVALID;
	if (!inl && inline_len)
		return RDMABLK_S_INVALID;

	switch (c->opcode) {
	case RDMABLK_OP_READ:
	case RDMABLK_OP_WRITE:
		if (c->flags & RDMABLK_CMD_NOUNMAP)
			return RDMABLK_S_INVALID;
		if ((c->flags & RDMABLK_CMD_FUA) && c->opcode == RDMABLK_OP_READ)
			return RDMABLK_S_INVALID;
		if (c->length > e->max_io_size)
			return RDMABLK_S_INVALID;
		if (inl && (c->length != inline_len || c->length > e->inline_max))
			return RDMABLK_S_INVALID;
		if ((c->flags & RDMABLK_CMD_PUSHED) &&
		    (c->opcode != RDMABLK_OP_WRITE || inl || c->rkey ||
		     c->length > RDMABLK_PUSH_SLOT_SIZE))
			return RDMABLK_S_INVALID;
		if ((c->flags & RDMABLK_CMD_SEND_DATA) &&
		    (c->opcode != RDMABLK_OP_READ || c->addr || c->rkey ||
		     c->length > RDMABLK_READ_SEND_MAX))
			return RDMABLK_S_INVALID;
		if (c->opcode == RDMABLK_OP_WRITE && ro)
			return RDMABLK_S_READ_ONLY;
		return rdmablk_cmd_check_range(c, e);
	case RDMABLK_OP_FLUSH:
		if (c->flags || c->length || c->offset)
			return RDMABLK_S_INVALID;
		return ro ? RDMABLK_S_READ_ONLY : RDMABLK_S_OK;
	case RDMABLK_OP_DISCARD:
	case RDMABLK_OP_WRITE_ZEROES:
		if (c->flags & ~RDMABLK_CMD_NOUNMAP ||
		    (c->opcode == RDMABLK_OP_DISCARD && c->flags))
			return RDMABLK_S_INVALID;
		if (ro)
			return RDMABLK_S_READ_ONLY;
		if (!(e->flags & (c->opcode == RDMABLK_OP_DISCARD ?
				  RDMABLK_EXP_DISCARD : RDMABLK_EXP_WRITE_ZEROES)))
			return RDMABLK_S_UNSUPPORTED;
		if ((c->length >> RDMABLK_SECTOR_SHIFT) > e->max_discard_sectors)
			return RDMABLK_S_INVALID;
		return rdmablk_cmd_check_range(c, e);
	default:
		return RDMABLK_S_INVALID;
	}
}

void rdmablk_open_rsp_encode(struct rdmablk_open_rsp *rsp,
			     const struct rdmablk_open_info *info)
{
	memset(rsp, 0, sizeof(*rsp));
	memcpy(rsp->uuid, info->uuid, sizeof(rsp->uuid));
	rsp->size = cpu_to_le64(info->size);
	rsp->logical_block_size = cpu_to_le32(info->logical_block_size);
	rsp->physical_block_size = cpu_to_le32(info->physical_block_size);
	rsp->flags = cpu_to_le32(info->flags);
	rsp->max_discard_sectors = cpu_to_le32(info->max_discard_sectors);
	rsp->discard_granularity = cpu_to_le32(info->discard_granularity);
	rsp->push_rkey = cpu_to_le32(info->push_rkey);
	rsp->push_addr = cpu_to_le64(info->push_addr);
	rsp->push_slots = cpu_to_le16(info->push_slots);
}

/**
 * rdmablk_open_rsp_decode() - check and decode what the target says its
 * export is
 * @rsp: from the wire, untrusted
 * @info: result
 *
 * Return: 0, or -EPROTO when the geometry is impossible.
 */
int rdmablk_open_rsp_decode(const struct rdmablk_open_rsp *rsp,
			    struct rdmablk_open_info *info)
{
	memcpy(info->uuid, rsp->uuid, sizeof(info->uuid));
	info->size = le64_to_cpu(rsp->size);
	info->logical_block_size = le32_to_cpu(rsp->logical_block_size);
	info->physical_block_size = le32_to_cpu(rsp->physical_block_size);
	info->flags = le32_to_cpu(rsp->flags);
	info->max_discard_sectors = le32_to_cpu(rsp->max_discard_sectors);
	info->discard_granularity = le32_to_cpu(rsp->discard_granularity);
	info->push_rkey = le32_to_cpu(rsp->push_rkey);
	info->push_addr = le64_to_cpu(rsp->push_addr);
	info->push_slots = le16_to_cpu(rsp->push_slots);

	if (!is_power_of_2(info->logical_block_size) ||
	    info->logical_block_size < 512 || info->logical_block_size > 4096 ||
	    !is_power_of_2(info->physical_block_size) ||
	    info->physical_block_size < info->logical_block_size ||
	    !IS_ALIGNED(info->size, info->logical_block_size))
		return -EPROTO;
	/*
	 * Below a sector the block layer's discard limit rounds to nothing
	 * and cuts large discards short; below a block no command has it.
	 */
	if (info->discard_granularity &&
	    (!is_power_of_2(info->discard_granularity) ||
	     info->discard_granularity < info->logical_block_size))
		return -EPROTO;
	/* The area's last byte must be addressable. */
	if (info->push_slots &&
	    info->push_addr > U64_MAX - (u64)info->push_slots *
				      RDMABLK_PUSH_SLOT_SIZE)
		return -EPROTO;
	return 0;
}

/**
 * rdmablk_export_name_valid() - letters, digits and "._:-" only
 * @name: NUL-terminated
 *
 * Return: true when @name may name an export.
 */
bool rdmablk_export_name_valid(const char *name)
{
	size_t len = strnlen(name, RDMABLK_EXPORT_NAME_MAX);
	size_t i;

	if (!len || len >= RDMABLK_EXPORT_NAME_MAX)
		return false;
	for (i = 0; i < len; i++)
		if (!isalnum(name[i]) && !strchr("._:-", name[i]))
			return false;
	return true;
}

static const char * const rdmablk_status_names[] = {
	[RDMABLK_S_OK] = "success",
	[RDMABLK_S_INVALID] = "invalid command",
	[RDMABLK_S_RANGE] = "beyond the end of the export",
	[RDMABLK_S_READ_ONLY] = "export is read-only",
	[RDMABLK_S_IO_ERROR] = "I/O error on the target's device",
	[RDMABLK_S_NO_EXPORT] = "no such export on the target",
	[RDMABLK_S_DENIED] = "this host is not allowed to use the export",
	[RDMABLK_S_NOT_OPEN] = "no export opened on this connection",
	[RDMABLK_S_UNSUPPORTED] = "operation not supported by the export",
	[RDMABLK_S_NO_SPACE] = "no space left on the target's device",
	[RDMABLK_S_AUTH_FAILED] = "authentication failed",
	[RDMABLK_S_AUTH_REQUIRED] = "the target requires authentication",
};

const char *rdmablk_status_str(u16 status)
{
	if (status < ARRAY_SIZE(rdmablk_status_names) &&
	    rdmablk_status_names[status])
		return rdmablk_status_names[status];
	return "unknown status";
}

int rdmablk_status_to_errno(u16 status)
{
	switch (status) {
	case RDMABLK_S_OK:
		return 0;
	case RDMABLK_S_RANGE:
		return -ERANGE;
	case RDMABLK_S_READ_ONLY:
		return -EROFS;
	case RDMABLK_S_NO_EXPORT:
		return -ENOENT;
	case RDMABLK_S_DENIED:
		return -EACCES;
	case RDMABLK_S_UNSUPPORTED:
		return -EOPNOTSUPP;
	case RDMABLK_S_NO_SPACE:
		return -ENOSPC;
	case RDMABLK_S_IO_ERROR:
		return -EIO;
	case RDMABLK_S_AUTH_FAILED:
		return -EKEYREJECTED;
	case RDMABLK_S_AUTH_REQUIRED:
		return -ENOKEY;
	default:
		return -EPROTO;
	}
}

/**
 * rdmablk_disc_req_decode() - check and decode a discovery request
 * @c: the command carrying it
 * @data: its inline payload, untrusted
 * @len: bytes of inline payload received
 * @r: result
 *
 * Return: RDMABLK_S_OK, or RDMABLK_S_INVALID.
 */
enum rdmablk_status rdmablk_disc_req_decode(const struct rdmablk_cmd_info *c,
					    const void *data, u32 len,
					    struct rdmablk_disc_req_info *r)
{
	const struct rdmablk_disc_req *req = data;

	if (c->flags != RDMABLK_CMD_INLINE || c->length || c->offset ||
	    c->addr || c->rkey || len != sizeof(*req))
		return RDMABLK_S_INVALID;
	memcpy(r->hostid, req->hostid, sizeof(r->hostid));
	r->generation = le64_to_cpu(req->generation);
	r->start = le32_to_cpu(req->start);
	if (c->opcode == RDMABLK_OP_DISC_LOG && r->generation)
		return RDMABLK_S_INVALID;
	if (c->opcode == RDMABLK_OP_DISC_WAIT && r->start)
		return RDMABLK_S_INVALID;
	return RDMABLK_S_OK;
}

void rdmablk_disc_log_encode(struct rdmablk_disc_log *log, u64 generation,
			     u32 total, u32 count)
{
	memset(log, 0, sizeof(*log));
	log->generation = cpu_to_le64(generation);
	log->total = cpu_to_le32(total);
	log->count = cpu_to_le32(count);
}

void rdmablk_disc_entry_encode(struct rdmablk_disc_entry *e,
			       const struct rdmablk_disc_entry_info *info)
{
	memset(e, 0, sizeof(*e));
	strscpy(e->name, info->name, sizeof(e->name));
	memcpy(e->uuid, info->uuid, sizeof(e->uuid));
	e->size = cpu_to_le64(info->size);
	e->logical_block_size = cpu_to_le32(info->logical_block_size);
	e->physical_block_size = cpu_to_le32(info->physical_block_size);
	e->flags = cpu_to_le32(info->flags);
}
