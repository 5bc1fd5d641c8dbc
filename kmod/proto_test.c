// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for proto.c: the wire codecs round-trip and match fixed byte
 * images of every wire struct, and everything a hostile peer can put in a
 * connect request, a command or an OPEN response is either decoded
 * faithfully or rejected.
 */
#include <kunit/test.h>
#include <linux/rdmablk.h>

#include "proto.h"

static void rdmablk_conn_req_roundtrip(struct kunit *test)
{
	struct rdmablk_conn_params in = {
		.version = RDMABLK_PROTO_VERSION, .queue_id = 3,
		.queue_depth = 128, .flags = RDMABLK_CONN_REMOTE_INV,
		.keepalive_ms = 5000,
	}, out;
	struct rdmablk_conn_req wire;
	const u8 *raw = (const u8 *)&wire;

	rdmablk_conn_req_encode(&wire, &in);
	/* Little endian on the wire whatever the host. */
	KUNIT_EXPECT_EQ(test, raw[0], 0x52);	/* 'R' */
	KUNIT_EXPECT_EQ(test, raw[8], 128);
	KUNIT_EXPECT_EQ(test, raw[9], 0);
	KUNIT_ASSERT_EQ(test, rdmablk_conn_req_decode(&wire, sizeof(wire), &out), 0);
	KUNIT_EXPECT_EQ(test, out.version, in.version);
	KUNIT_EXPECT_EQ(test, out.queue_id, in.queue_id);
	KUNIT_EXPECT_EQ(test, out.queue_depth, in.queue_depth);
	KUNIT_EXPECT_EQ(test, out.flags, in.flags);
	KUNIT_EXPECT_EQ(test, out.keepalive_ms, in.keepalive_ms);
	/* Transports may pad private data. */
	KUNIT_EXPECT_EQ(test, rdmablk_conn_req_decode(&wire, 56, &out), 0);
}

static void rdmablk_conn_req_rejects(struct kunit *test)
{
	struct rdmablk_conn_params p = {
		.version = RDMABLK_PROTO_VERSION, .queue_depth = 16,
		.keepalive_ms = 5000,
	}, out;
	struct rdmablk_conn_req wire;

	rdmablk_conn_req_encode(&wire, &p);
	KUNIT_EXPECT_EQ(test, rdmablk_conn_req_decode(&wire, sizeof(wire), &out), 0);
	KUNIT_EXPECT_EQ(test, rdmablk_conn_req_decode(NULL, 0, &out),
			RDMABLK_REJ_INVALID);
	rdmablk_conn_req_encode(&wire, &p);
	KUNIT_EXPECT_EQ(test, rdmablk_conn_req_decode(&wire, sizeof(wire) - 1, &out),
			RDMABLK_REJ_INVALID);
	wire.magic = cpu_to_le32(0x12345678);
	KUNIT_EXPECT_EQ(test, rdmablk_conn_req_decode(&wire, sizeof(wire), &out),
			RDMABLK_REJ_INVALID);

	p.version = RDMABLK_PROTO_VERSION + 1;
	rdmablk_conn_req_encode(&wire, &p);
	KUNIT_EXPECT_EQ(test, rdmablk_conn_req_decode(&wire, sizeof(wire), &out),
			RDMABLK_REJ_VERSION);

	p.version = RDMABLK_PROTO_VERSION;
	p.queue_depth = 0;
	rdmablk_conn_req_encode(&wire, &p);
	KUNIT_EXPECT_EQ(test, rdmablk_conn_req_decode(&wire, sizeof(wire), &out),
			RDMABLK_REJ_QUEUE_DEPTH);

	/* Queues beyond max_queues. */
	p.queue_depth = 16;
	p.queue_id = RDMABLK_MAX_QUEUES - 1;
	rdmablk_conn_req_encode(&wire, &p);
	KUNIT_EXPECT_EQ(test, rdmablk_conn_req_decode(&wire, sizeof(wire), &out), 0);
	p.queue_id = RDMABLK_MAX_QUEUES;
	rdmablk_conn_req_encode(&wire, &p);
	KUNIT_EXPECT_EQ(test, rdmablk_conn_req_decode(&wire, sizeof(wire), &out),
			RDMABLK_REJ_INVALID);
	p.queue_id = 0xffff;
	rdmablk_conn_req_encode(&wire, &p);
	KUNIT_EXPECT_EQ(test, rdmablk_conn_req_decode(&wire, sizeof(wire), &out),
			RDMABLK_REJ_INVALID);

	/* An I/O session nobody keeps alive could never be reaped. */
	p.queue_id = 0;
	p.keepalive_ms = 0;
	rdmablk_conn_req_encode(&wire, &p);
	KUNIT_EXPECT_EQ(test, rdmablk_conn_req_decode(&wire, sizeof(wire), &out),
			RDMABLK_REJ_INVALID);
}

static void rdmablk_conn_rep_checks(struct kunit *test)
{
	const struct rdmablk_conn_params req = {
		.version = RDMABLK_PROTO_VERSION, .queue_id = 1,
		.queue_depth = 64, .flags = RDMABLK_CONN_REMOTE_INV,
	};
	struct rdmablk_conn_params rep = {
		.version = RDMABLK_PROTO_VERSION, .queue_depth = 32,
		.max_queues = 4, .flags = RDMABLK_CONN_REMOTE_INV,
		.max_io_size = 8 << 20, .inline_max = 4096,
	}, out, bad;
	struct rdmablk_conn_rep wire;

	rdmablk_conn_rep_encode(&wire, &rep);
	KUNIT_ASSERT_EQ(test, rdmablk_conn_rep_decode(&wire, sizeof(wire), &req, &out), 0);
	KUNIT_EXPECT_EQ(test, out.queue_depth, 32);
	KUNIT_EXPECT_EQ(test, out.queue_id, 1);
	KUNIT_EXPECT_EQ(test, out.max_queues, 4);
	/* Never more than this side can register. */
	KUNIT_EXPECT_EQ(test, out.max_io_size, RDMABLK_MAX_IO_SIZE);

	bad = rep;
	bad.queue_depth = 65;		/* more than asked */
	rdmablk_conn_rep_encode(&wire, &bad);
	KUNIT_EXPECT_EQ(test, rdmablk_conn_rep_decode(&wire, sizeof(wire), &req, &out), -EPROTO);
	bad = rep;
	bad.queue_depth = 0;
	rdmablk_conn_rep_encode(&wire, &bad);
	KUNIT_EXPECT_EQ(test, rdmablk_conn_rep_decode(&wire, sizeof(wire), &req, &out), -EPROTO);
	bad = rep;
	bad.flags |= 1U << 7;		/* a feature nobody asked for */
	rdmablk_conn_rep_encode(&wire, &bad);
	KUNIT_EXPECT_EQ(test, rdmablk_conn_rep_decode(&wire, sizeof(wire), &req, &out), -EPROTO);
	bad = rep;
	bad.inline_max = RDMABLK_INLINE_MAX + 1;
	rdmablk_conn_rep_encode(&wire, &bad);
	KUNIT_EXPECT_EQ(test, rdmablk_conn_rep_decode(&wire, sizeof(wire), &req, &out), -EPROTO);
	bad = rep;
	bad.max_io_size = 512;
	rdmablk_conn_rep_encode(&wire, &bad);
	KUNIT_EXPECT_EQ(test, rdmablk_conn_rep_decode(&wire, sizeof(wire), &req, &out), -EPROTO);
	bad = rep;
	bad.max_queues = 0;
	rdmablk_conn_rep_encode(&wire, &bad);
	KUNIT_EXPECT_EQ(test, rdmablk_conn_rep_decode(&wire, sizeof(wire), &req, &out), -EPROTO);
	rdmablk_conn_rep_encode(&wire, &rep);
	KUNIT_EXPECT_EQ(test, rdmablk_conn_rep_decode(&wire, 8, &req, &out), -EPROTO);
}

static void rdmablk_read_imm_test(struct kunit *test)
{
	u16 tag = 0, gen = 0;

	/* Tag in the low half, generation in the high half, both whole. */
	KUNIT_EXPECT_EQ(test, rdmablk_read_imm_encode(0x0102, 0xa0b0), 0xa0b00102U);
	rdmablk_read_imm_decode(rdmablk_read_imm_encode(0, 0), &tag, &gen);
	KUNIT_EXPECT_EQ(test, tag, 0);
	KUNIT_EXPECT_EQ(test, gen, 0);
	rdmablk_read_imm_decode(rdmablk_read_imm_encode(255, 0xffff), &tag, &gen);
	KUNIT_EXPECT_EQ(test, tag, 255);
	KUNIT_EXPECT_EQ(test, gen, 0xffff);
	rdmablk_read_imm_decode(0xffff0001, &tag, &gen);
	KUNIT_EXPECT_EQ(test, tag, 1);
	KUNIT_EXPECT_EQ(test, gen, 0xffff);
}

static void rdmablk_conn_rep_read_imm(struct kunit *test)
{
	struct rdmablk_conn_params req = {
		.version = RDMABLK_PROTO_VERSION, .queue_depth = 64,
		.flags = RDMABLK_CONN_REMOTE_INV | RDMABLK_CONN_READ_IMM,
	};
	struct rdmablk_conn_params rep = {
		.version = RDMABLK_PROTO_VERSION, .queue_depth = 64,
		.max_queues = 4, .flags = RDMABLK_CONN_READ_IMM,
		.max_io_size = 1 << 20, .inline_max = 4096,
	}, out;
	struct rdmablk_conn_rep wire;

	/* Granted when asked for, and a target may decline it. */
	rdmablk_conn_rep_encode(&wire, &rep);
	KUNIT_ASSERT_EQ(test, rdmablk_conn_rep_decode(&wire, sizeof(wire), &req, &out), 0);
	KUNIT_EXPECT_EQ(test, out.flags, RDMABLK_CONN_READ_IMM);
	rep.flags = RDMABLK_CONN_REMOTE_INV;
	rdmablk_conn_rep_encode(&wire, &rep);
	KUNIT_ASSERT_EQ(test, rdmablk_conn_rep_decode(&wire, sizeof(wire), &req, &out), 0);
	KUNIT_EXPECT_EQ(test, out.flags, RDMABLK_CONN_REMOTE_INV);
	/* Never granted when not asked for. */
	req.flags = RDMABLK_CONN_REMOTE_INV;
	rep.flags = RDMABLK_CONN_REMOTE_INV | RDMABLK_CONN_READ_IMM;
	rdmablk_conn_rep_encode(&wire, &rep);
	KUNIT_EXPECT_EQ(test, rdmablk_conn_rep_decode(&wire, sizeof(wire), &req, &out), -EPROTO);
}

static void rdmablk_conn_rej_roundtrip(struct kunit *test)
{
	struct rdmablk_conn_rej rej;

	rdmablk_conn_rej_encode(&rej, RDMABLK_REJ_VERSION);
	KUNIT_EXPECT_EQ(test, rdmablk_conn_rej_decode(&rej, sizeof(rej)),
			RDMABLK_REJ_VERSION);
	KUNIT_EXPECT_EQ(test, rdmablk_conn_rej_decode(&rej, 4), 0);
	KUNIT_EXPECT_EQ(test, rdmablk_conn_rej_decode(NULL, 0), 0);
	rej.magic = 0;
	KUNIT_EXPECT_EQ(test, rdmablk_conn_rej_decode(&rej, sizeof(rej)), 0);
}

static void rdmablk_cmd_roundtrip(struct kunit *test)
{
	const struct rdmablk_cmd_info in = {
		.opcode = RDMABLK_OP_WRITE, .flags = RDMABLK_CMD_FUA,
		.tag = 0xbeef, .length = 0x10000, .offset = 0x123456789000ULL,
		.addr = 0xffff888012345000ULL, .rkey = 0xdeadbeef,
	};
	struct rdmablk_cmd_info out;
	struct rdmablk_cmd wire;
	unsigned int i;

	rdmablk_cmd_encode(&wire, &in);
	for (i = 0; i < sizeof(wire.reserved); i++)
		KUNIT_EXPECT_EQ(test, wire.reserved[i], 0);
	rdmablk_cmd_decode(&wire, &out);
	KUNIT_EXPECT_EQ(test, out.opcode, in.opcode);
	KUNIT_EXPECT_EQ(test, out.flags, in.flags);
	KUNIT_EXPECT_EQ(test, out.tag, in.tag);
	KUNIT_EXPECT_EQ(test, out.length, in.length);
	KUNIT_EXPECT_EQ(test, out.offset, in.offset);
	KUNIT_EXPECT_EQ(test, out.addr, in.addr);
	KUNIT_EXPECT_EQ(test, out.rkey, in.rkey);
}

/* A 1 MiB export of 4 KiB blocks, discard and zeroing supported. */
static const struct rdmablk_export_params exp_rw = {
	.size = 1 << 20, .logical_block_size = 4096,
	.max_io_size = 256 << 10, .inline_max = 4096,
	.max_discard_sectors = 1024,
	.flags = RDMABLK_EXP_DISCARD | RDMABLK_EXP_WRITE_ZEROES,
};

/* Framing of a received response SEND: one response, or a whole batch. */
static void rdmablk_rsp_batch_count_test(struct kunit *test)
{
	const u32 agreed = RDMABLK_CONN_RSP_BATCH | RDMABLK_CONN_READ_IMM;
	const u32 sz = sizeof(struct rdmablk_rsp);
	static const u8 io_ops[] = {
		RDMABLK_OP_READ, RDMABLK_OP_WRITE, RDMABLK_OP_FLUSH,
		RDMABLK_OP_DISCARD, RDMABLK_OP_WRITE_ZEROES,
	};
	static const u8 other_ops[] = {
		0, RDMABLK_OP_OPEN, RDMABLK_OP_KEEPALIVE, RDMABLK_OP_DISC_LOG,
		RDMABLK_OP_DISC_WAIT, RDMABLK_OP_AUTH_CHALLENGE,
		RDMABLK_OP_AUTH_REPLY, 0xff,
	};
	struct rdmablk_rsp *rsp;
	unsigned int i;

	/* One more than a batch holds, to try a batch too long. */
	rsp = kunit_kcalloc(test, RDMABLK_RSP_BATCH_MAX + 1, sz, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rsp);

	/* No flag: one response, whatever follows it (an OPEN's answer). */
	rsp[0].opcode = RDMABLK_OP_OPEN;
	KUNIT_EXPECT_EQ(test, rdmablk_rsp_batch_count(rsp, sz, 0), 1);
	KUNIT_EXPECT_EQ(test, rdmablk_rsp_batch_count(rsp, RDMABLK_RSP_BUF_SIZE,
						      agreed), 1);
	KUNIT_EXPECT_EQ(test, rdmablk_rsp_batch_count(rsp, sz - 1, agreed),
			-EPROTO);
	KUNIT_EXPECT_EQ(test, rdmablk_rsp_batch_count(rsp, 0, agreed), -EPROTO);

	for (i = 0; i <= RDMABLK_RSP_BATCH_MAX; i++) {
		rsp[i].opcode = io_ops[i % ARRAY_SIZE(io_ops)];
		rsp[i].flags = RDMABLK_RSP_BATCH;
		rsp[i].tag = cpu_to_le16(i);
	}
	KUNIT_EXPECT_EQ(test, rdmablk_rsp_batch_count(rsp, 2 * sz, agreed), 2);
	KUNIT_EXPECT_EQ(test, rdmablk_rsp_batch_count(rsp,
						      RDMABLK_RSP_BATCH_SIZE,
						      agreed),
			RDMABLK_RSP_BATCH_MAX);

	/* Not agreed, a batch of one, too many, a partial response. */
	KUNIT_EXPECT_EQ(test, rdmablk_rsp_batch_count(rsp, 2 * sz,
						      RDMABLK_CONN_CMD_BATCH),
			-EPROTO);
	KUNIT_EXPECT_EQ(test, rdmablk_rsp_batch_count(rsp, sz, agreed), -EPROTO);
	KUNIT_EXPECT_EQ(test, rdmablk_rsp_batch_count(rsp,
						      RDMABLK_RSP_BATCH_SIZE + sz,
						      agreed),
			-EPROTO);
	KUNIT_EXPECT_EQ(test, rdmablk_rsp_batch_count(rsp, 2 * sz + 10, agreed),
			-EPROTO);

	/* The last member unflagged, then the first. */
	rsp[3].flags = 0;
	KUNIT_EXPECT_EQ(test, rdmablk_rsp_batch_count(rsp, 3 * sz, agreed), 3);
	KUNIT_EXPECT_EQ(test, rdmablk_rsp_batch_count(rsp, 4 * sz, agreed),
			-EPROTO);
	rsp[3].flags = RDMABLK_RSP_BATCH;
	rsp[0].flags = 0;
	/* An unflagged first is a response of its own, the rest its payload. */
	KUNIT_EXPECT_EQ(test, rdmablk_rsp_batch_count(rsp, 4 * sz, agreed), 1);
	rsp[0].flags = RDMABLK_RSP_BATCH;

	/* A member answering anything but I/O, first or last. */
	for (i = 0; i < ARRAY_SIZE(other_ops); i++) {
		rsp[0].opcode = other_ops[i];
		KUNIT_EXPECT_EQ_MSG(test, rdmablk_rsp_batch_count(rsp, 4 * sz,
								  agreed),
				    -EPROTO, "first member opcode %u",
				    other_ops[i]);
		rsp[0].opcode = RDMABLK_OP_READ;
		rsp[3].opcode = other_ops[i];
		KUNIT_EXPECT_EQ_MSG(test, rdmablk_rsp_batch_count(rsp, 4 * sz,
								  agreed),
				    -EPROTO, "last member opcode %u",
				    other_ops[i]);
		rsp[3].opcode = RDMABLK_OP_WRITE;
	}
	KUNIT_EXPECT_EQ(test, rdmablk_rsp_batch_count(rsp, 4 * sz, agreed), 4);
}

/* Framing of a received SEND: one command, or a whole batch of them. */
static void rdmablk_cmd_batch_count_test(struct kunit *test)
{
	const u32 agreed = RDMABLK_CONN_CMD_BATCH | RDMABLK_CONN_READ_IMM;
	const u32 sz = sizeof(struct rdmablk_cmd);
	struct rdmablk_cmd first = { .opcode = RDMABLK_OP_READ };
	struct rdmablk_cmd *rest;
	unsigned int i;

	rest = kunit_kcalloc(test, RDMABLK_CMD_BATCH_MAX, sz, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rest);
	for (i = 0; i < RDMABLK_CMD_BATCH_MAX; i++)
		rest[i].flags = RDMABLK_CMD_BATCH;

	/* No flag: one command, whatever follows it. */
	KUNIT_EXPECT_EQ(test, rdmablk_cmd_batch_count(&first, rest, sz, 0), 1);
	KUNIT_EXPECT_EQ(test, rdmablk_cmd_batch_count(&first, rest, sz + 4096,
						      agreed), 1);
	KUNIT_EXPECT_EQ(test, rdmablk_cmd_batch_count(&first, rest, sz - 1,
						      agreed), -EPROTO);

	first.flags = RDMABLK_CMD_BATCH;
	KUNIT_EXPECT_EQ(test, rdmablk_cmd_batch_count(&first, rest, 2 * sz,
						      agreed), 2);
	KUNIT_EXPECT_EQ(test, rdmablk_cmd_batch_count(&first, rest,
						      RDMABLK_CMD_BATCH_MAX * sz,
						      agreed),
			RDMABLK_CMD_BATCH_MAX);
	/* Not agreed, a batch of one, too many, a partial command. */
	KUNIT_EXPECT_EQ(test, rdmablk_cmd_batch_count(&first, rest, 2 * sz,
						      RDMABLK_CONN_READ_IMM),
			-EPROTO);
	KUNIT_EXPECT_EQ(test, rdmablk_cmd_batch_count(&first, rest, sz, agreed),
			-EPROTO);
	KUNIT_EXPECT_EQ(test, rdmablk_cmd_batch_count(&first, rest,
						      (RDMABLK_CMD_BATCH_MAX + 1) * sz,
						      agreed),
			-EPROTO);
	KUNIT_EXPECT_EQ(test, rdmablk_cmd_batch_count(&first, rest, 2 * sz + 10,
						      agreed),
			-EPROTO);

	/* Any member, the first or the last, without the flag or inline. */
	first.flags |= RDMABLK_CMD_INLINE;
	KUNIT_EXPECT_EQ(test, rdmablk_cmd_batch_count(&first, rest, 4 * sz,
						      agreed), -EPROTO);
	first.flags = RDMABLK_CMD_BATCH;
	rest[2].flags = 0;
	KUNIT_EXPECT_EQ(test, rdmablk_cmd_batch_count(&first, rest, 4 * sz,
						      agreed), -EPROTO);
	/* Beyond the batch's length, nothing is looked at. */
	KUNIT_EXPECT_EQ(test, rdmablk_cmd_batch_count(&first, rest, 3 * sz,
						      agreed), 3);
	rest[2].flags = RDMABLK_CMD_BATCH | RDMABLK_CMD_INLINE;
	KUNIT_EXPECT_EQ(test, rdmablk_cmd_batch_count(&first, rest, 4 * sz,
						      agreed), -EPROTO);
}

/* A member of a batch loses the flag, and is then checked as any other. */
static void rdmablk_cmd_batch_decode_test(struct kunit *test)
{
	struct rdmablk_cmd_info in = {
		.opcode = RDMABLK_OP_WRITE,
		.flags = RDMABLK_CMD_BATCH | RDMABLK_CMD_FUA,
		.tag = 7, .length = 8192, .offset = 4096, .addr = 0x1000,
		.rkey = 0x42, .gen = 9,
	}, out;
	struct rdmablk_cmd wire;

	rdmablk_cmd_encode(&wire, &in);
	rdmablk_cmd_batch_decode(&wire, &out);
	KUNIT_EXPECT_EQ(test, out.flags, RDMABLK_CMD_FUA);
	KUNIT_EXPECT_EQ(test, out.tag, 7);
	KUNIT_EXPECT_EQ(test, out.gen, 9);
	KUNIT_EXPECT_EQ(test, rdmablk_cmd_check(&out, &exp_rw, 0), RDMABLK_S_OK);
	/* Outside a batch the flag is not a command flag. */
	in.flags = RDMABLK_CMD_BATCH;
	KUNIT_EXPECT_EQ(test, rdmablk_cmd_check(&in, &exp_rw, 0), RDMABLK_S_INVALID);
}

static const struct rdmablk_export_params exp_ro = {
	.size = 1 << 20, .logical_block_size = 512,
	.max_io_size = 256 << 10, .inline_max = 4096,
	.max_discard_sectors = 1024,
	.flags = RDMABLK_EXP_READ_ONLY | RDMABLK_EXP_WRITE_ZEROES,
};

struct cmd_case {
	const char *name;
	struct rdmablk_cmd_info cmd;
	const struct rdmablk_export_params *exp;
	u32 inline_len;
	enum rdmablk_status expect;
};

#define R RDMABLK_OP_READ
#define W RDMABLK_OP_WRITE

static const struct cmd_case cmd_cases[] = {
	{ "read ok", { .opcode = R, .length = 4096 }, &exp_rw, 0, RDMABLK_S_OK },
	{ "read last block", { .opcode = R, .offset = (1 << 20) - 4096, .length = 4096 },
	  &exp_rw, 0, RDMABLK_S_OK },
	{ "read max io", { .opcode = R, .length = 256 << 10 }, &exp_rw, 0, RDMABLK_S_OK },
	{ "read over max io", { .opcode = R, .length = (256 << 10) + 4096 },
	  &exp_rw, 0, RDMABLK_S_INVALID },
	{ "read zero length", { .opcode = R, .length = 0 }, &exp_rw, 0, RDMABLK_S_INVALID },
	{ "read past end", { .opcode = R, .offset = 1 << 20, .length = 4096 },
	  &exp_rw, 0, RDMABLK_S_RANGE },
	{ "read straddles end", { .opcode = R, .offset = (1 << 20) - 4096, .length = 8192 },
	  &exp_rw, 0, RDMABLK_S_RANGE },
	{ "read offset wraps", { .opcode = R, .offset = U64_MAX - 4095, .length = 8192 },
	  &exp_rw, 0, RDMABLK_S_RANGE },
	{ "read huge offset", { .opcode = R, .offset = 1ULL << 62, .length = 4096 },
	  &exp_rw, 0, RDMABLK_S_RANGE },
	{ "read misaligned offset", { .opcode = R, .offset = 512, .length = 4096 },
	  &exp_rw, 0, RDMABLK_S_INVALID },
	{ "read misaligned length", { .opcode = R, .length = 512 }, &exp_rw, 0,
	  RDMABLK_S_INVALID },
	{ "read with FUA", { .opcode = R, .flags = RDMABLK_CMD_FUA, .length = 4096 },
	  &exp_rw, 0, RDMABLK_S_INVALID },
	{ "read with inline payload", { .opcode = R, .flags = RDMABLK_CMD_INLINE,
	  .length = 4096 }, &exp_rw, 4096, RDMABLK_S_INVALID },
	{ "read with stray payload", { .opcode = R, .length = 4096 }, &exp_rw, 4096,
	  RDMABLK_S_INVALID },
	{ "unknown flag", { .opcode = R, .flags = 0x80, .length = 4096 }, &exp_rw, 0,
	  RDMABLK_S_INVALID },
	{ "write keyed", { .opcode = W, .flags = RDMABLK_CMD_FUA, .length = 8192 },
	  &exp_rw, 0, RDMABLK_S_OK },
	{ "write inline", { .opcode = W, .flags = RDMABLK_CMD_INLINE, .length = 4096 },
	  &exp_rw, 4096, RDMABLK_S_OK },
	{ "write inline short payload", { .opcode = W, .flags = RDMABLK_CMD_INLINE,
	  .length = 4096 }, &exp_rw, 512, RDMABLK_S_INVALID },
	{ "write inline flag without payload", { .opcode = W,
	  .flags = RDMABLK_CMD_INLINE, .length = 4096 }, &exp_rw, 0, RDMABLK_S_INVALID },
	{ "write payload without inline flag", { .opcode = W, .length = 4096 },
	  &exp_rw, 4096, RDMABLK_S_INVALID },
	{ "write read-only", { .opcode = W, .length = 512 }, &exp_ro, 0,
	  RDMABLK_S_READ_ONLY },
	{ "read read-only", { .opcode = R, .length = 512 }, &exp_ro, 0, RDMABLK_S_OK },
	{ "write nounmap", { .opcode = W, .flags = RDMABLK_CMD_NOUNMAP, .length = 4096 },
	  &exp_rw, 0, RDMABLK_S_INVALID },
	{ "write pushed", { .opcode = W, .flags = RDMABLK_CMD_PUSHED | RDMABLK_CMD_FUA,
	  .length = 4096, .addr = 31 }, &exp_rw, 0, RDMABLK_S_OK },
	{ "write pushed over a slot", { .opcode = W, .flags = RDMABLK_CMD_PUSHED,
	  .length = 8192 }, &exp_rw, 0, RDMABLK_S_INVALID },
	{ "write pushed and inline", { .opcode = W,
	  .flags = RDMABLK_CMD_PUSHED | RDMABLK_CMD_INLINE, .length = 4096 },
	  &exp_rw, 4096, RDMABLK_S_INVALID },
	{ "write pushed with payload", { .opcode = W, .flags = RDMABLK_CMD_PUSHED,
	  .length = 4096 }, &exp_rw, 4096, RDMABLK_S_INVALID },
	{ "write pushed with rkey", { .opcode = W, .flags = RDMABLK_CMD_PUSHED,
	  .length = 4096, .rkey = 5 }, &exp_rw, 0, RDMABLK_S_INVALID },
	{ "write pushed read-only", { .opcode = W, .flags = RDMABLK_CMD_PUSHED,
	  .length = 4096 }, &exp_ro, 0, RDMABLK_S_READ_ONLY },
	{ "read pushed", { .opcode = R, .flags = RDMABLK_CMD_PUSHED, .length = 4096 },
	  &exp_rw, 0, RDMABLK_S_INVALID },
	{ "flush pushed", { .opcode = RDMABLK_OP_FLUSH, .flags = RDMABLK_CMD_PUSHED },
	  &exp_rw, 0, RDMABLK_S_INVALID },
	{ "read by send", { .opcode = R, .flags = RDMABLK_CMD_SEND_DATA,
	  .length = 4096 }, &exp_rw, 0, RDMABLK_S_OK },
	{ "read by send of 512 bytes", { .opcode = R, .flags = RDMABLK_CMD_SEND_DATA,
	  .length = 512 }, &exp_ro, 0, RDMABLK_S_OK },
	{ "read by send over a page", { .opcode = R,
	  .flags = RDMABLK_CMD_SEND_DATA, .length = 8192 }, &exp_rw, 0,
	  RDMABLK_S_INVALID },
	{ "read by send with rkey", { .opcode = R, .flags = RDMABLK_CMD_SEND_DATA,
	  .length = 4096, .rkey = 5 }, &exp_rw, 0, RDMABLK_S_INVALID },
	{ "read by send with addr", { .opcode = R, .flags = RDMABLK_CMD_SEND_DATA,
	  .length = 4096, .addr = 4096 }, &exp_rw, 0, RDMABLK_S_INVALID },
	{ "read by send past end", { .opcode = R, .flags = RDMABLK_CMD_SEND_DATA,
	  .offset = 1 << 20, .length = 4096 }, &exp_rw, 0, RDMABLK_S_RANGE },
	{ "write by send", { .opcode = W, .flags = RDMABLK_CMD_SEND_DATA,
	  .length = 4096 }, &exp_rw, 0, RDMABLK_S_INVALID },
	{ "flush by send", { .opcode = RDMABLK_OP_FLUSH,
	  .flags = RDMABLK_CMD_SEND_DATA }, &exp_rw, 0, RDMABLK_S_INVALID },
	{ "lone read by send", { .opcode = R,
	  .flags = RDMABLK_CMD_SEND_DATA | RDMABLK_CMD_LONE, .length = 4096 },
	  &exp_rw, 0, RDMABLK_S_OK },
	{ "lone write inline", { .opcode = W,
	  .flags = RDMABLK_CMD_INLINE | RDMABLK_CMD_LONE, .length = 4096 },
	  &exp_rw, 4096, RDMABLK_S_OK },
	{ "lone write past end", { .opcode = W, .flags = RDMABLK_CMD_LONE,
	  .offset = 1 << 20, .length = 4096 }, &exp_rw, 0, RDMABLK_S_RANGE },
	{ "lone flush", { .opcode = RDMABLK_OP_FLUSH, .flags = RDMABLK_CMD_LONE },
	  &exp_rw, 0, RDMABLK_S_INVALID },
	{ "lone discard", { .opcode = RDMABLK_OP_DISCARD,
	  .flags = RDMABLK_CMD_LONE, .length = 4096 }, &exp_rw, 0,
	  RDMABLK_S_INVALID },
	{ "lone write zeroes", { .opcode = RDMABLK_OP_WRITE_ZEROES,
	  .flags = RDMABLK_CMD_LONE, .length = 4096 }, &exp_rw, 0,
	  RDMABLK_S_INVALID },
	{ "flush", { .opcode = RDMABLK_OP_FLUSH }, &exp_rw, 0, RDMABLK_S_OK },
	{ "flush with length", { .opcode = RDMABLK_OP_FLUSH, .length = 4096 }, &exp_rw,
	  0, RDMABLK_S_INVALID },
	{ "flush read-only", { .opcode = RDMABLK_OP_FLUSH }, &exp_ro, 0,
	  RDMABLK_S_READ_ONLY },
	{ "discard", { .opcode = RDMABLK_OP_DISCARD, .length = 1 << 19 }, &exp_rw, 0,
	  RDMABLK_S_OK },
	{ "discard over max", { .opcode = RDMABLK_OP_DISCARD, .offset = 0,
	  .length = (1024 + 8) << 9 }, &exp_rw, 0, RDMABLK_S_INVALID },
	{ "discard nounmap", { .opcode = RDMABLK_OP_DISCARD,
	  .flags = RDMABLK_CMD_NOUNMAP, .length = 4096 }, &exp_rw, 0, RDMABLK_S_INVALID },
	{ "discard unsupported", { .opcode = RDMABLK_OP_DISCARD, .length = 512 },
	  &exp_ro, 0, RDMABLK_S_READ_ONLY },
	{ "write zeroes nounmap", { .opcode = RDMABLK_OP_WRITE_ZEROES,
	  .flags = RDMABLK_CMD_NOUNMAP, .length = 4096 }, &exp_rw, 0, RDMABLK_S_OK },
	{ "write zeroes past end", { .opcode = RDMABLK_OP_WRITE_ZEROES,
	  .offset = 1 << 20, .length = 4096 }, &exp_rw, 0, RDMABLK_S_RANGE },
	{ "write zeroes with FUA", { .opcode = RDMABLK_OP_WRITE_ZEROES,
	  .flags = RDMABLK_CMD_FUA, .length = 4096 }, &exp_rw, 0, RDMABLK_S_INVALID },
	{ "opcode 0", { .opcode = 0, .length = 4096 }, &exp_rw, 0, RDMABLK_S_INVALID },
	{ "opcode 200", { .opcode = 200, .length = 4096 }, &exp_rw, 0, RDMABLK_S_INVALID },
	{ "OPEN is not I/O", { .opcode = RDMABLK_OP_OPEN }, &exp_rw, 0, RDMABLK_S_INVALID },
};

#undef R
#undef W

static void cmd_case_desc(const struct cmd_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(cmd, cmd_cases, cmd_case_desc);

static void rdmablk_cmd_check_test(struct kunit *test)
{
	const struct cmd_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, rdmablk_cmd_check(&c->cmd, c->exp, c->inline_len),
			c->expect);
}

static void rdmablk_open_rsp_checks(struct kunit *test)
{
	struct rdmablk_open_info in = {
		.uuid = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 },
		.size = 512ULL << 20, .logical_block_size = 512,
		.physical_block_size = 4096, .flags = RDMABLK_EXP_FLUSH,
		.max_discard_sectors = 1 << 20, .discard_granularity = 4096,
		.push_addr = 0xffff888100000000ULL, .push_rkey = 0x1234,
		.push_slots = 32,
	}, out, bad;
	struct rdmablk_open_rsp wire;

	rdmablk_open_rsp_encode(&wire, &in);
	KUNIT_ASSERT_EQ(test, rdmablk_open_rsp_decode(&wire, &out), 0);
	KUNIT_EXPECT_EQ(test, memcmp(in.uuid, out.uuid, sizeof(in.uuid)), 0);
	KUNIT_EXPECT_EQ(test, out.size, in.size);
	KUNIT_EXPECT_EQ(test, out.logical_block_size, in.logical_block_size);
	KUNIT_EXPECT_EQ(test, out.physical_block_size, in.physical_block_size);
	KUNIT_EXPECT_EQ(test, out.flags, in.flags);
	KUNIT_EXPECT_EQ(test, out.max_discard_sectors, in.max_discard_sectors);
	KUNIT_EXPECT_EQ(test, out.discard_granularity, in.discard_granularity);
	KUNIT_EXPECT_EQ(test, out.push_addr, in.push_addr);
	KUNIT_EXPECT_EQ(test, out.push_rkey, in.push_rkey);
	KUNIT_EXPECT_EQ(test, out.push_slots, in.push_slots);

	/* A push area must not run past the end of the address space. */
	bad = in;
	bad.push_addr = U64_MAX - 32 * RDMABLK_PUSH_SLOT_SIZE + 1;
	rdmablk_open_rsp_encode(&wire, &bad);
	KUNIT_EXPECT_EQ(test, rdmablk_open_rsp_decode(&wire, &out), -EPROTO);
	bad.push_addr = U64_MAX - 32 * RDMABLK_PUSH_SLOT_SIZE;
	rdmablk_open_rsp_encode(&wire, &bad);
	KUNIT_EXPECT_EQ(test, rdmablk_open_rsp_decode(&wire, &out), 0);
	/* Without slots the address means nothing. */
	bad.push_addr = U64_MAX;
	bad.push_slots = 0;
	rdmablk_open_rsp_encode(&wire, &bad);
	KUNIT_EXPECT_EQ(test, rdmablk_open_rsp_decode(&wire, &out), 0);

	bad = in;
	bad.logical_block_size = 1000;
	rdmablk_open_rsp_encode(&wire, &bad);
	KUNIT_EXPECT_EQ(test, rdmablk_open_rsp_decode(&wire, &out), -EPROTO);
	bad = in;
	bad.logical_block_size = 256;
	rdmablk_open_rsp_encode(&wire, &bad);
	KUNIT_EXPECT_EQ(test, rdmablk_open_rsp_decode(&wire, &out), -EPROTO);
	bad = in;
	bad.physical_block_size = 256;
	rdmablk_open_rsp_encode(&wire, &bad);
	KUNIT_EXPECT_EQ(test, rdmablk_open_rsp_decode(&wire, &out), -EPROTO);
	bad = in;
	bad.size += 100;
	rdmablk_open_rsp_encode(&wire, &bad);
	KUNIT_EXPECT_EQ(test, rdmablk_open_rsp_decode(&wire, &out), -EPROTO);
	bad = in;
	bad.discard_granularity = 3000;
	rdmablk_open_rsp_encode(&wire, &bad);
	KUNIT_EXPECT_EQ(test, rdmablk_open_rsp_decode(&wire, &out), -EPROTO);
	/*
	 * Below a sector the block layer's discard limit rounds to nothing
	 * and a large discard is cut to a wrong length; below a block it is
	 * a granularity no command can have.
	 */
	bad = in;
	bad.discard_granularity = 256;
	rdmablk_open_rsp_encode(&wire, &bad);
	KUNIT_EXPECT_EQ(test, rdmablk_open_rsp_decode(&wire, &out), -EPROTO);
	bad.discard_granularity = 1;
	rdmablk_open_rsp_encode(&wire, &bad);
	KUNIT_EXPECT_EQ(test, rdmablk_open_rsp_decode(&wire, &out), -EPROTO);
	bad = in;
	bad.logical_block_size = 4096;
	bad.discard_granularity = 2048;
	rdmablk_open_rsp_encode(&wire, &bad);
	KUNIT_EXPECT_EQ(test, rdmablk_open_rsp_decode(&wire, &out), -EPROTO);
	bad.discard_granularity = 4096;
	rdmablk_open_rsp_encode(&wire, &bad);
	KUNIT_EXPECT_EQ(test, rdmablk_open_rsp_decode(&wire, &out), 0);
	/* 0: no granularity said, the block layer's default applies. */
	bad.discard_granularity = 0;
	rdmablk_open_rsp_encode(&wire, &bad);
	KUNIT_EXPECT_EQ(test, rdmablk_open_rsp_decode(&wire, &out), 0);
}

static void rdmablk_conn_req_discovery(struct kunit *test)
{
	struct rdmablk_conn_params in = {
		.version = RDMABLK_PROTO_VERSION, .queue_depth = 4,
		.flags = RDMABLK_CONN_DISCOVERY, .keepalive_ms = 5000,
	}, out;
	struct rdmablk_conn_req wire;

	rdmablk_conn_req_encode(&wire, &in);
	KUNIT_ASSERT_EQ(test, rdmablk_conn_req_decode(&wire, sizeof(wire), &out), 0);
	KUNIT_EXPECT_EQ(test, out.flags, (u32)RDMABLK_CONN_DISCOVERY);
	/* A discovery session nobody keeps alive could never be reaped. */
	in.keepalive_ms = 0;
	rdmablk_conn_req_encode(&wire, &in);
	KUNIT_EXPECT_EQ(test, rdmablk_conn_req_decode(&wire, sizeof(wire), &out),
			RDMABLK_REJ_INVALID);
}

static void rdmablk_disc_req_checks(struct kunit *test)
{
	struct rdmablk_cmd_info log = {
		.opcode = RDMABLK_OP_DISC_LOG, .flags = RDMABLK_CMD_INLINE,
	}, wait = log, bad;
	struct rdmablk_disc_req wire = {
		.hostid = { 9, 8, 7, 6, 5, 4, 3, 2, 1 },
		.start = cpu_to_le32(30),
	};
	struct rdmablk_disc_req_info out;

	wait.opcode = RDMABLK_OP_DISC_WAIT;
	KUNIT_ASSERT_EQ(test, rdmablk_disc_req_decode(&log, &wire, sizeof(wire), &out),
			RDMABLK_S_OK);
	KUNIT_EXPECT_EQ(test, out.start, 30U);
	KUNIT_EXPECT_EQ(test, memcmp(out.hostid, wire.hostid, sizeof(out.hostid)), 0);
	/* Short, long or missing payload. */
	KUNIT_EXPECT_EQ(test, rdmablk_disc_req_decode(&log, &wire, sizeof(wire) - 1, &out),
			RDMABLK_S_INVALID);
	KUNIT_EXPECT_EQ(test, rdmablk_disc_req_decode(&log, &wire, sizeof(wire) + 1, &out),
			RDMABLK_S_INVALID);
	bad = log;
	bad.flags = 0;
	KUNIT_EXPECT_EQ(test, rdmablk_disc_req_decode(&bad, &wire, sizeof(wire), &out),
			RDMABLK_S_INVALID);
	/* Fields that mean nothing here must be zero. */
	bad = log;
	bad.rkey = 1;
	KUNIT_EXPECT_EQ(test, rdmablk_disc_req_decode(&bad, &wire, sizeof(wire), &out),
			RDMABLK_S_INVALID);
	bad = log;
	bad.length = 4096;
	KUNIT_EXPECT_EQ(test, rdmablk_disc_req_decode(&bad, &wire, sizeof(wire), &out),
			RDMABLK_S_INVALID);
	/* WAIT takes a generation, not a start index; LOG the reverse. */
	KUNIT_EXPECT_EQ(test, rdmablk_disc_req_decode(&wait, &wire, sizeof(wire), &out),
			RDMABLK_S_INVALID);
	wire.start = 0;
	wire.generation = cpu_to_le64(0x1122334455ULL);
	KUNIT_ASSERT_EQ(test, rdmablk_disc_req_decode(&wait, &wire, sizeof(wire), &out),
			RDMABLK_S_OK);
	KUNIT_EXPECT_EQ(test, out.generation, 0x1122334455ULL);
	KUNIT_EXPECT_EQ(test, rdmablk_disc_req_decode(&log, &wire, sizeof(wire), &out),
			RDMABLK_S_INVALID);
}

static void rdmablk_disc_log_layout(struct kunit *test)
{
	struct rdmablk_disc_entry_info info = {
		.name = "db1", .uuid = { 0xaa, [15] = 0xbb },
		.size = 0x0102030405ULL, .logical_block_size = 512,
		.physical_block_size = 4096, .flags = RDMABLK_EXP_READ_ONLY,
	};
	struct rdmablk_disc_entry e;
	struct rdmablk_disc_log log;
	const u8 *raw = (const u8 *)&e;

	memset(&e, 0xff, sizeof(e));
	rdmablk_disc_entry_encode(&e, &info);
	KUNIT_EXPECT_STREQ(test, e.name, "db1");
	/* NUL-padded, reserved zero: nothing of the old buffer leaks. */
	KUNIT_EXPECT_EQ(test, raw[RDMABLK_EXPORT_NAME_MAX - 1], 0);
	KUNIT_EXPECT_EQ(test, raw[sizeof(e) - 1], 0);
	KUNIT_EXPECT_EQ(test, raw[64], 0xaa);
	KUNIT_EXPECT_EQ(test, raw[80], 0x05);	/* size, little endian */
	KUNIT_EXPECT_EQ(test, raw[84], 0x01);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(e.physical_block_size), 4096U);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(e.flags), (u32)RDMABLK_EXP_READ_ONLY);

	rdmablk_disc_log_encode(&log, 7, 31, 30);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(log.generation), 7ULL);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(log.total), 31U);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(log.count), 30U);
}

/*
 * Fixed wire images, written out byte by byte from the layouts in
 * uapi/linux/rdmablk_proto.h (little endian, every field a different
 * value): encode must produce exactly these bytes and decode must read
 * them, so a codec that is wrong in both directions (a swapped field, a
 * host-endian store) cannot pass by agreeing with itself.
 */
static void rdmablk_expect_bytes(struct kunit *test, const void *got,
				 const u8 *want, size_t len, const char *what)
{
	const u8 *raw = got;
	size_t i;

	for (i = 0; i < len; i++)
		KUNIT_EXPECT_EQ_MSG(test, raw[i], want[i], "%s byte %zu", what, i);
}

static const u8 conn_req_bytes[32] = {
	0x52, 0x42, 0x4c, 0x4b,		/* magic "RBLK" */
	0x01, 0x00,			/* version */
	0x23, 0x00,			/* queue_id 0x23, below max_queues */
	0x05, 0x04,			/* queue_depth 0x0405 */
	0x00, 0x00,			/* reserved0 */
	0x05, 0x00, 0x00, 0x00,		/* flags REMOTE_INV | READ_IMM */
	0x0d, 0x0c, 0x0b, 0x0a,		/* keepalive_ms 0x0a0b0c0d */
	[20 ... 31] = 0x00,		/* reserved */
};

static void rdmablk_conn_req_vector(struct kunit *test)
{
	const struct rdmablk_conn_params in = {
		.version = RDMABLK_PROTO_VERSION, .queue_id = 0x23,
		.queue_depth = 0x0405,
		.flags = RDMABLK_CONN_REMOTE_INV | RDMABLK_CONN_READ_IMM,
		.keepalive_ms = 0x0a0b0c0d,
	};
	struct rdmablk_conn_params out;
	struct rdmablk_conn_req wire;

	rdmablk_conn_req_encode(&wire, &in);
	rdmablk_expect_bytes(test, &wire, conn_req_bytes, sizeof(wire), "conn_req");
	memcpy(&wire, conn_req_bytes, sizeof(wire));
	KUNIT_ASSERT_EQ(test, rdmablk_conn_req_decode(&wire, sizeof(wire), &out), 0);
	KUNIT_EXPECT_EQ(test, out.version, 1);
	KUNIT_EXPECT_EQ(test, out.queue_id, 0x23);
	KUNIT_EXPECT_EQ(test, out.queue_depth, 0x0405);
	KUNIT_EXPECT_EQ(test, out.flags, 5U);
	KUNIT_EXPECT_EQ(test, out.keepalive_ms, 0x0a0b0c0dU);
}

static const u8 conn_rep_bytes[32] = {
	0x52, 0x42, 0x4c, 0x4b,		/* magic */
	0x01, 0x00,			/* version */
	0x40, 0x00,			/* queue_depth 64 */
	0x03, 0x00,			/* max_queues 3 */
	0x00, 0x00,			/* reserved0 */
	0x01, 0x00, 0x00, 0x00,		/* flags REMOTE_INV */
	0x00, 0x30, 0x02, 0x00,		/* max_io_size 0x00023000 */
	0x00, 0x08, 0x00, 0x00,		/* inline_max 2048 */
	[24 ... 31] = 0x00,		/* reserved */
};

static void rdmablk_conn_rep_vector(struct kunit *test)
{
	const struct rdmablk_conn_params req = {
		.version = RDMABLK_PROTO_VERSION, .queue_depth = 128,
		.flags = RDMABLK_CONN_REMOTE_INV | RDMABLK_CONN_READ_IMM,
	};
	const struct rdmablk_conn_params in = {
		.version = RDMABLK_PROTO_VERSION, .queue_depth = 64,
		.max_queues = 3, .flags = RDMABLK_CONN_REMOTE_INV,
		.max_io_size = 0x23000, .inline_max = 2048,
	};
	struct rdmablk_conn_params out;
	struct rdmablk_conn_rep wire;

	rdmablk_conn_rep_encode(&wire, &in);
	rdmablk_expect_bytes(test, &wire, conn_rep_bytes, sizeof(wire), "conn_rep");
	memcpy(&wire, conn_rep_bytes, sizeof(wire));
	KUNIT_ASSERT_EQ(test, rdmablk_conn_rep_decode(&wire, sizeof(wire), &req, &out), 0);
	KUNIT_EXPECT_EQ(test, out.version, 1);
	KUNIT_EXPECT_EQ(test, out.queue_depth, 64);
	KUNIT_EXPECT_EQ(test, out.max_queues, 3);
	KUNIT_EXPECT_EQ(test, out.flags, (u32)RDMABLK_CONN_REMOTE_INV);
	KUNIT_EXPECT_EQ(test, out.max_io_size, 0x23000U);
	KUNIT_EXPECT_EQ(test, out.inline_max, 2048U);
}

static const u8 conn_rej_bytes[8] = {
	0x52, 0x42, 0x4c, 0x4b,		/* magic */
	0x03, 0x00,			/* reason RESOURCES */
	0x01, 0x00,			/* version */
};

static void rdmablk_conn_rej_vector(struct kunit *test)
{
	struct rdmablk_conn_rej wire;
	u8 other[8];

	rdmablk_conn_rej_encode(&wire, RDMABLK_REJ_RESOURCES);
	rdmablk_expect_bytes(test, &wire, conn_rej_bytes, sizeof(wire), "conn_rej");
	memcpy(other, conn_rej_bytes, sizeof(other));
	other[4] = 0x04;
	other[5] = 0x01;
	KUNIT_EXPECT_EQ(test, rdmablk_conn_rej_decode(other, sizeof(other)), 0x0104);
}

static const u8 cmd_bytes[64] = {
	0x03,				/* opcode WRITE */
	0x03,				/* flags FUA | INLINE */
	0x02, 0x01,			/* tag 0x0102 */
	0x06, 0x05, 0x04, 0x03,		/* length 0x03040506 */
	0x0e, 0x0d, 0x0c, 0x0b, 0x0a, 0x09, 0x08, 0x07,	/* offset */
	0x16, 0x15, 0x14, 0x13, 0x12, 0x11, 0x10, 0x0f,	/* addr */
	0x1a, 0x19, 0x18, 0x17,		/* rkey 0x1718191a */
	0x1c, 0x1b,			/* gen 0x1b1c */
	[30 ... 63] = 0x00,		/* reserved0, reserved */
};

static void rdmablk_cmd_vector(struct kunit *test)
{
	const struct rdmablk_cmd_info in = {
		.opcode = RDMABLK_OP_WRITE,
		.flags = RDMABLK_CMD_FUA | RDMABLK_CMD_INLINE, .tag = 0x0102,
		.length = 0x03040506, .offset = 0x0708090a0b0c0d0eULL,
		.addr = 0x0f10111213141516ULL, .rkey = 0x1718191a,
		.gen = 0x1b1c,
	};
	struct rdmablk_cmd_info out;
	struct rdmablk_cmd wire;

	rdmablk_cmd_encode(&wire, &in);
	rdmablk_expect_bytes(test, &wire, cmd_bytes, sizeof(wire), "cmd");
	memcpy(&wire, cmd_bytes, sizeof(wire));
	rdmablk_cmd_decode(&wire, &out);
	KUNIT_EXPECT_EQ(test, out.opcode, RDMABLK_OP_WRITE);
	KUNIT_EXPECT_EQ(test, out.flags, RDMABLK_CMD_FUA | RDMABLK_CMD_INLINE);
	KUNIT_EXPECT_EQ(test, out.tag, 0x0102);
	KUNIT_EXPECT_EQ(test, out.length, 0x03040506U);
	KUNIT_EXPECT_EQ(test, out.offset, 0x0708090a0b0c0d0eULL);
	KUNIT_EXPECT_EQ(test, out.addr, 0x0f10111213141516ULL);
	KUNIT_EXPECT_EQ(test, out.rkey, 0x1718191aU);
	KUNIT_EXPECT_EQ(test, out.gen, 0x1b1c);
}

static const u8 open_rsp_bytes[64] = {
	0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,	/* uuid */
	0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f,
	0x00, 0x10, 0x00, 0x00, 0x00, 0x06, 0x00, 0x00,	/* size 0x060000001000 */
	0x00, 0x02, 0x00, 0x00,		/* logical_block_size 512 */
	0x00, 0x10, 0x00, 0x00,		/* physical_block_size 4096 */
	0x26, 0x00, 0x00, 0x00,		/* flags FLUSH | FUA | ROTATIONAL */
	0x04, 0x03, 0x02, 0x01,		/* max_discard_sectors 0x01020304 */
	0x00, 0x00, 0x01, 0x00,		/* discard_granularity 64 KiB */
	0x24, 0x23, 0x22, 0x21,		/* push_rkey 0x21222324 */
	0x2c, 0x2b, 0x2a, 0x29, 0x28, 0x27, 0x26, 0x25,	/* push_addr */
	0x20, 0x00,			/* push_slots 32 */
	[58 ... 63] = 0x00,		/* reserved */
};

static void rdmablk_open_rsp_vector(struct kunit *test)
{
	const struct rdmablk_open_info in = {
		.uuid = { 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,
			  0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f },
		.size = 0x060000001000ULL, .logical_block_size = 512,
		.physical_block_size = 4096,
		.flags = RDMABLK_EXP_FLUSH | RDMABLK_EXP_FUA | RDMABLK_EXP_ROTATIONAL,
		.max_discard_sectors = 0x01020304, .discard_granularity = 0x10000,
		.push_rkey = 0x21222324, .push_addr = 0x25262728292a2b2cULL,
		.push_slots = 32,
	};
	struct rdmablk_open_info out;
	struct rdmablk_open_rsp wire;

	rdmablk_open_rsp_encode(&wire, &in);
	rdmablk_expect_bytes(test, &wire, open_rsp_bytes, sizeof(wire), "open_rsp");
	memcpy(&wire, open_rsp_bytes, sizeof(wire));
	KUNIT_ASSERT_EQ(test, rdmablk_open_rsp_decode(&wire, &out), 0);
	KUNIT_EXPECT_EQ(test, memcmp(out.uuid, in.uuid, sizeof(out.uuid)), 0);
	KUNIT_EXPECT_EQ(test, out.size, 0x060000001000ULL);
	KUNIT_EXPECT_EQ(test, out.logical_block_size, 512U);
	KUNIT_EXPECT_EQ(test, out.physical_block_size, 4096U);
	KUNIT_EXPECT_EQ(test, out.flags, 0x26U);
	KUNIT_EXPECT_EQ(test, out.max_discard_sectors, 0x01020304U);
	KUNIT_EXPECT_EQ(test, out.discard_granularity, 0x10000U);
	KUNIT_EXPECT_EQ(test, out.push_rkey, 0x21222324U);
	KUNIT_EXPECT_EQ(test, out.push_addr, 0x25262728292a2b2cULL);
	KUNIT_EXPECT_EQ(test, out.push_slots, 32);
}

static const u8 disc_req_bytes[32] = {
	0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27,	/* hostid */
	0x28, 0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x2e, 0x2f,
	0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,	/* generation */
	0x00, 0x00, 0x00, 0x00,		/* start (DISC_WAIT: zero) */
	0x00, 0x00, 0x00, 0x00,		/* reserved */
};

static void rdmablk_disc_req_vector(struct kunit *test)
{
	const struct rdmablk_cmd_info wait = {
		.opcode = RDMABLK_OP_DISC_WAIT, .flags = RDMABLK_CMD_INLINE,
	}, log = {
		.opcode = RDMABLK_OP_DISC_LOG, .flags = RDMABLK_CMD_INLINE,
	};
	struct rdmablk_disc_req_info out;
	u8 raw[32];
	unsigned int i;

	memcpy(raw, disc_req_bytes, sizeof(raw));
	KUNIT_ASSERT_EQ(test, rdmablk_disc_req_decode(&wait, raw, sizeof(raw), &out),
			RDMABLK_S_OK);
	for (i = 0; i < RDMABLK_UUID_SIZE; i++)
		KUNIT_EXPECT_EQ(test, out.hostid[i], 0x20 + i);
	KUNIT_EXPECT_EQ(test, out.generation, 0x0102030405060708ULL);
	KUNIT_EXPECT_EQ(test, out.start, 0U);

	/* DISC_LOG: start 0x0a0b0c0d at byte 24, generation zero. */
	memset(raw + 16, 0, 8);
	raw[24] = 0x0d;
	raw[25] = 0x0c;
	raw[26] = 0x0b;
	raw[27] = 0x0a;
	KUNIT_ASSERT_EQ(test, rdmablk_disc_req_decode(&log, raw, sizeof(raw), &out),
			RDMABLK_S_OK);
	KUNIT_EXPECT_EQ(test, out.start, 0x0a0b0c0dU);
	KUNIT_EXPECT_EQ(test, out.generation, 0ULL);
}

static const u8 disc_log_bytes[32] = {
	0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,	/* generation */
	0x0c, 0x0b, 0x0a, 0x09,		/* total 0x090a0b0c */
	0x1e, 0x00, 0x00, 0x00,		/* count 30 */
	[16 ... 31] = 0x00,		/* reserved */
};

static const u8 disc_entry_bytes[128] = {
	'd', 'b', '-', '1',		/* name, NUL-padded */
	[4 ... 63] = 0x00,
	0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37,	/* uuid */
	0x38, 0x39, 0x3a, 0x3b, 0x3c, 0x3d, 0x3e, 0x3f,
	0x00, 0x02, 0x00, 0x00, 0x04, 0x03, 0x00, 0x00,	/* size 0x030400000200 */
	0x00, 0x10, 0x00, 0x00,		/* logical_block_size 4096 */
	0x00, 0x20, 0x00, 0x00,		/* physical_block_size 8192 */
	0x19, 0x00, 0x00, 0x00,		/* flags READ_ONLY | DISCARD | WRITE_ZEROES */
	[100 ... 127] = 0x00,		/* reserved */
};

static void rdmablk_disc_log_vectors(struct kunit *test)
{
	const struct rdmablk_disc_entry_info info = {
		.name = "db-1",
		.uuid = { 0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37,
			  0x38, 0x39, 0x3a, 0x3b, 0x3c, 0x3d, 0x3e, 0x3f },
		.size = 0x030400000200ULL, .logical_block_size = 4096,
		.physical_block_size = 8192,
		.flags = RDMABLK_EXP_READ_ONLY | RDMABLK_EXP_DISCARD |
			 RDMABLK_EXP_WRITE_ZEROES,
	};
	struct rdmablk_disc_entry e;
	struct rdmablk_disc_log log;

	memset(&log, 0xff, sizeof(log));
	rdmablk_disc_log_encode(&log, 0x0102030405060708ULL, 0x090a0b0c, 30);
	rdmablk_expect_bytes(test, &log, disc_log_bytes, sizeof(log), "disc_log");
	memset(&e, 0xff, sizeof(e));
	rdmablk_disc_entry_encode(&e, &info);
	rdmablk_expect_bytes(test, &e, disc_entry_bytes, sizeof(e), "disc_entry");
}

/*
 * struct rdmablk_rsp and struct rdmablk_open_req are filled field by field
 * where they are sent (target/tio.c, host/iqueue.c): pin their layout.
 */
static const u8 rsp_bytes[16] = {
	0x02,				/* opcode READ */
	0x00,				/* flags */
	0x34, 0x12,			/* tag 0x1234 */
	0x03, 0x00,			/* status READ_ONLY */
	0x78, 0x56,			/* gen 0x5678 */
	[8 ... 15] = 0x00,		/* reserved */
};

static void rdmablk_rsp_open_req_layout(struct kunit *test)
{
	struct rdmablk_rsp rsp;
	struct rdmablk_open_req oreq;
	u8 want[96] = { 'x', '0' };
	unsigned int i;

	memset(&rsp, 0, sizeof(rsp));
	rsp.opcode = RDMABLK_OP_READ;
	rsp.tag = cpu_to_le16(0x1234);
	rsp.status = cpu_to_le16(RDMABLK_S_READ_ONLY);
	rsp.gen = cpu_to_le16(0x5678);
	rdmablk_expect_bytes(test, &rsp, rsp_bytes, sizeof(rsp), "rsp");
	memcpy(&rsp, rsp_bytes, sizeof(rsp));
	KUNIT_EXPECT_EQ(test, le16_to_cpu(rsp.tag), 0x1234);
	KUNIT_EXPECT_EQ(test, le16_to_cpu(rsp.status), RDMABLK_S_READ_ONLY);
	KUNIT_EXPECT_EQ(test, le16_to_cpu(rsp.gen), 0x5678);

	/* name at 0..63, hostid at 64..79, reserved 80..95 */
	for (i = 0; i < RDMABLK_UUID_SIZE; i++)
		want[64 + i] = 0x40 + i;
	memset(&oreq, 0, sizeof(oreq));
	strscpy(oreq.name, "x0", sizeof(oreq.name));
	for (i = 0; i < RDMABLK_UUID_SIZE; i++)
		oreq.hostid[i] = 0x40 + i;
	rdmablk_expect_bytes(test, &oreq, want, sizeof(oreq), "open_req");
}

static void rdmablk_export_name_test(struct kunit *test)
{
	char longname[RDMABLK_EXPORT_NAME_MAX + 1];

	KUNIT_EXPECT_TRUE(test, rdmablk_export_name_valid("disk0"));
	KUNIT_EXPECT_TRUE(test, rdmablk_export_name_valid("db.prod-1:data_2"));
	KUNIT_EXPECT_FALSE(test, rdmablk_export_name_valid(""));
	KUNIT_EXPECT_FALSE(test, rdmablk_export_name_valid("a b"));
	KUNIT_EXPECT_FALSE(test, rdmablk_export_name_valid("../etc"));
	KUNIT_EXPECT_FALSE(test, rdmablk_export_name_valid("x\n"));
	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	KUNIT_EXPECT_FALSE(test, rdmablk_export_name_valid(longname));
	longname[RDMABLK_EXPORT_NAME_MAX - 1] = '\0';
	KUNIT_EXPECT_TRUE(test, rdmablk_export_name_valid(longname));
}

static void rdmablk_status_test(struct kunit *test)
{
	u16 s;

	for (s = RDMABLK_S_OK; s <= RDMABLK_S_AUTH_REQUIRED; s++)
		KUNIT_EXPECT_STRNEQ(test, rdmablk_status_str(s), "unknown status");
	KUNIT_EXPECT_EQ(test, rdmablk_status_to_errno(RDMABLK_S_AUTH_FAILED),
			-EKEYREJECTED);
	KUNIT_EXPECT_EQ(test, rdmablk_status_to_errno(RDMABLK_S_AUTH_REQUIRED),
			-ENOKEY);
	KUNIT_EXPECT_STREQ(test, rdmablk_status_str(999), "unknown status");
	KUNIT_EXPECT_EQ(test, rdmablk_status_to_errno(RDMABLK_S_OK), 0);
	KUNIT_EXPECT_EQ(test, rdmablk_status_to_errno(RDMABLK_S_READ_ONLY), -EROFS);
	KUNIT_EXPECT_EQ(test, rdmablk_status_to_errno(999), -EPROTO);
}

static struct kunit_case rdmablk_proto_test_cases[] = {
	KUNIT_CASE(rdmablk_conn_req_roundtrip),
	KUNIT_CASE(rdmablk_conn_req_rejects),
	KUNIT_CASE(rdmablk_conn_rep_checks),
	KUNIT_CASE(rdmablk_conn_rej_roundtrip),
	KUNIT_CASE(rdmablk_read_imm_test),
	KUNIT_CASE(rdmablk_conn_rep_read_imm),
	KUNIT_CASE(rdmablk_cmd_roundtrip),
	KUNIT_CASE_PARAM(rdmablk_cmd_check_test, cmd_gen_params),
	KUNIT_CASE(rdmablk_cmd_batch_count_test),
	KUNIT_CASE(rdmablk_rsp_batch_count_test),
	KUNIT_CASE(rdmablk_cmd_batch_decode_test),
	KUNIT_CASE(rdmablk_open_rsp_checks),
	KUNIT_CASE(rdmablk_conn_req_discovery),
	KUNIT_CASE(rdmablk_disc_req_checks),
	KUNIT_CASE(rdmablk_disc_log_layout),
	KUNIT_CASE(rdmablk_conn_req_vector),
	KUNIT_CASE(rdmablk_conn_rep_vector),
	KUNIT_CASE(rdmablk_conn_rej_vector),
	KUNIT_CASE(rdmablk_cmd_vector),
	KUNIT_CASE(rdmablk_open_rsp_vector),
	KUNIT_CASE(rdmablk_disc_req_vector),
	KUNIT_CASE(rdmablk_disc_log_vectors),
	KUNIT_CASE(rdmablk_rsp_open_req_layout),
	KUNIT_CASE(rdmablk_export_name_test),
	KUNIT_CASE(rdmablk_status_test),
	{}
};

static struct kunit_suite rdmablk_proto_test_suite = {
	.name = "rdmablk-proto",
	.test_cases = rdmablk_proto_test_cases,
};
kunit_test_suite(rdmablk_proto_test_suite);
