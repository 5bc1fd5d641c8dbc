// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for proto.c: the wire codecs round-trip, and everything a
 * hostile peer can put in a connect request, a command or an OPEN
 * response is either decoded faithfully or rejected.
 */
#include <kunit/test.h>

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
	u16 tag = 0;

	KUNIT_EXPECT_EQ(test, rdmablk_read_imm_decode(rdmablk_read_imm_encode(0), &tag), 0);
	KUNIT_EXPECT_EQ(test, tag, 0);
	KUNIT_EXPECT_EQ(test, rdmablk_read_imm_decode(rdmablk_read_imm_encode(255), &tag), 0);
	KUNIT_EXPECT_EQ(test, tag, 255);
	KUNIT_EXPECT_EQ(test, rdmablk_read_imm_decode(rdmablk_read_imm_encode(0xffff), &tag), 0);
	KUNIT_EXPECT_EQ(test, tag, 0xffff);
	/* Reserved bits set: rejected, the tag left alone. */
	tag = 7;
	KUNIT_EXPECT_EQ(test, rdmablk_read_imm_decode(0x00010000, &tag), -EPROTO);
	KUNIT_EXPECT_EQ(test, rdmablk_read_imm_decode(0x80000003, &tag), -EPROTO);
	KUNIT_EXPECT_EQ(test, rdmablk_read_imm_decode(0xffffffff, &tag), -EPROTO);
	KUNIT_EXPECT_EQ(test, tag, 7);
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
	}, out, bad;
	struct rdmablk_open_rsp wire;

	rdmablk_open_rsp_encode(&wire, &in);
	KUNIT_ASSERT_EQ(test, rdmablk_open_rsp_decode(&wire, &out), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&in, &out, sizeof(in)), 0);

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

	for (s = RDMABLK_S_OK; s <= RDMABLK_S_NO_SPACE; s++)
		KUNIT_EXPECT_STRNEQ(test, rdmablk_status_str(s), "unknown status");
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
	KUNIT_CASE(rdmablk_open_rsp_checks),
	KUNIT_CASE(rdmablk_conn_req_discovery),
	KUNIT_CASE(rdmablk_disc_req_checks),
	KUNIT_CASE(rdmablk_disc_log_layout),
	KUNIT_CASE(rdmablk_export_name_test),
	KUNIT_CASE(rdmablk_status_test),
	{}
};

static struct kunit_suite rdmablk_proto_test_suite = {
	.name = "rdmablk-proto",
	.test_cases = rdmablk_proto_test_cases,
};
kunit_test_suite(rdmablk_proto_test_suite);
