// SPDX-License-Identifier: GPL-2.0
/*
 * The hostile initiator's wire codec: what it sends must be laid out
 * exactly as uapi/linux/rdmablk_proto.h says, or its tests would test
 * nothing; what it decodes must be checked as an honest initiator would.
 */
#include "wire.hpp"

#include <cstring>
#include <vector>

#include <gtest/gtest.h>

namespace rdmablk::hostile {
namespace {

std::vector<std::uint8_t> bytes(std::initializer_list<int> values)
{
	std::vector<std::uint8_t> out;
	for (const int v : values)
		out.push_back(static_cast<std::uint8_t>(v));
	return out;
}

template <typename T> std::vector<std::uint8_t> bytes_of(const T &value)
{
	std::vector<std::uint8_t> out(sizeof(value));
	std::memcpy(out.data(), &value, sizeof(value));
	return out;
}

std::vector<std::uint8_t> slice(const std::vector<std::uint8_t> &v, std::size_t off,
				std::size_t len)
{
	return {v.begin() + static_cast<long>(off), v.begin() + static_cast<long>(off + len)};
}

std::vector<std::uint8_t> valid_rep()
{
	rdmablk_conn_rep rep = {};
	rep.magic = htole32(RDMABLK_PROTO_MAGIC);
	rep.version = htole16(RDMABLK_PROTO_VERSION);
	rep.queue_depth = htole16(32);
	rep.max_queues = htole16(64);
	rep.flags = htole32(RDMABLK_CONN_REMOTE_INV);
	rep.max_io_size = htole32(1 << 20);
	rep.inline_max = htole32(4096);
	return bytes_of(rep);
}

TEST(ConnReq, EncodesLittleEndianAtTheUapiOffsets)
{
	const auto wire = ConnReq{.queue_id = 0x0102, .queue_depth = 0x0304, .flags = 0x05060708,
				  .keepalive_ms = 0x090a0b0c}
				  .encode();
	ASSERT_EQ(wire.size(), 32U);
	EXPECT_EQ(slice(wire, 0, 4), bytes({'R', 'B', 'L', 'K'}));
	EXPECT_EQ(slice(wire, 4, 2), bytes({RDMABLK_PROTO_VERSION, 0}));
	EXPECT_EQ(slice(wire, 6, 2), bytes({0x02, 0x01}));
	EXPECT_EQ(slice(wire, 8, 2), bytes({0x04, 0x03}));
	EXPECT_EQ(slice(wire, 12, 4), bytes({0x08, 0x07, 0x06, 0x05}));
	EXPECT_EQ(slice(wire, 16, 4), bytes({0x0c, 0x0b, 0x0a, 0x09}));
	EXPECT_EQ(slice(wire, 20, 12), std::vector<std::uint8_t>(12, 0));
}

TEST(ConnReq, EveryFieldCanBeBroken)
{
	const auto wire = ConnReq{.magic = 0xdeadbeef, .version = 0xffff}.encode();
	EXPECT_EQ(slice(wire, 0, 4), bytes({0xef, 0xbe, 0xad, 0xde}));
	EXPECT_EQ(slice(wire, 4, 2), bytes({0xff, 0xff}));
	EXPECT_EQ(slice(wire, 8, 2), bytes({0, 0}));
}

TEST(ConnRep, DecodesAValidReply)
{
	const auto rep = decode_conn_rep(valid_rep());
	ASSERT_TRUE(rep);
	EXPECT_EQ(rep->version, RDMABLK_PROTO_VERSION);
	EXPECT_EQ(rep->queue_depth, 32);
	EXPECT_EQ(rep->max_queues, 64);
	EXPECT_EQ(rep->flags, RDMABLK_CONN_REMOTE_INV);
	EXPECT_EQ(rep->max_io_size, 1U << 20);
	EXPECT_EQ(rep->inline_max, 4096U);
}

TEST(ConnRep, TransportPaddingIsIgnored)
{
	auto padded = valid_rep();
	padded.resize(196, 0);
	EXPECT_TRUE(decode_conn_rep(padded));
}

TEST(ConnRep, RefusesWhatAnHonestInitiatorRefuses)
{
	const auto broken = [](std::size_t off, std::vector<std::uint8_t> with) {
		auto rep = valid_rep();
		std::copy(with.begin(), with.end(), rep.begin() + static_cast<long>(off));
		return decode_conn_rep(rep);
	};
	EXPECT_FALSE(decode_conn_rep(slice(valid_rep(), 0, 31)));
	EXPECT_FALSE(broken(0, bytes({'R', 'B', 'L', 'X'})));
	EXPECT_FALSE(broken(4, bytes({2, 0})));
	EXPECT_FALSE(broken(6, bytes({0, 0})));
	EXPECT_FALSE(broken(16, bytes({0xff, 0x0f, 0, 0})));
	EXPECT_FALSE(broken(20, bytes({0x01, 0x10, 0, 0})));
}

TEST(ConnRej, DecodesReasonAndVersion)
{
	const auto rej = decode_conn_rej(bytes({'R', 'B', 'L', 'K', RDMABLK_REJ_QUEUE_DEPTH, 0, 1, 0}));
	ASSERT_TRUE(rej);
	EXPECT_EQ(rej->reason, RDMABLK_REJ_QUEUE_DEPTH);
	EXPECT_EQ(rej->version, 1);
	EXPECT_FALSE(decode_conn_rej(bytes({'R', 'B', 'L', 'K', 1, 0, 1})));
	EXPECT_FALSE(decode_conn_rej(bytes({0, 0, 0, 0, 1, 0, 1, 0})));
}

TEST(Cmd, EncodesLittleEndianAtTheUapiOffsets)
{
	const rdmablk_cmd cmd = Cmd{.opcode = 0x7f,
				    .flags = 0x80,
				    .tag = 0x0102,
				    .length = 0x03040506,
				    .offset = 0x0708090a0b0c0d0e,
				    .addr = 0x1112131415161718,
				    .rkey = 0x191a1b1c,
				    .gen = 0x1d1e}
					.encode();
	const auto wire = bytes_of(cmd);
	ASSERT_EQ(wire.size(), 64U);
	EXPECT_EQ(slice(wire, 0, 4), bytes({0x7f, 0x80, 0x02, 0x01}));
	EXPECT_EQ(slice(wire, 4, 4), bytes({0x06, 0x05, 0x04, 0x03}));
	EXPECT_EQ(slice(wire, 8, 8), bytes({0x0e, 0x0d, 0x0c, 0x0b, 0x0a, 0x09, 0x08, 0x07}));
	EXPECT_EQ(slice(wire, 16, 8), bytes({0x18, 0x17, 0x16, 0x15, 0x14, 0x13, 0x12, 0x11}));
	EXPECT_EQ(slice(wire, 24, 4), bytes({0x1c, 0x1b, 0x1a, 0x19}));
	EXPECT_EQ(slice(wire, 28, 2), bytes({0x1e, 0x1d}));
	EXPECT_EQ(slice(wire, 30, 34), std::vector<std::uint8_t>(34, 0));

	const auto back = decode_cmd(wire);
	ASSERT_TRUE(back);
	EXPECT_EQ(back->tag, 0x0102);
	EXPECT_EQ(back->gen, 0x1d1e);
}

TEST(Rsp, EchoesTagAndGenerationAtTheUapiOffsets)
{
	const auto wire = encode_rsp(RDMABLK_OP_READ, 0x0102, RDMABLK_S_RANGE, 0x0304);
	ASSERT_EQ(wire.size(), 16U);
	EXPECT_EQ(slice(wire, 0, 8),
		  bytes({RDMABLK_OP_READ, 0, 0x02, 0x01, RDMABLK_S_RANGE, 0, 0x04, 0x03}));
	EXPECT_EQ(slice(wire, 8, 8), std::vector<std::uint8_t>(8, 0));
}

TEST(Batch, CommandsBackToBackWithTheirFlagsAsGiven)
{
	const std::vector<Cmd> cmds = {
		{.opcode = RDMABLK_OP_READ, .flags = RDMABLK_CMD_BATCH, .tag = 1, .gen = 0x0a0b},
		{.opcode = RDMABLK_OP_WRITE, .flags = 0, .tag = 2, .rkey = 0x01020304},
		{.opcode = RDMABLK_OP_READ,
		 .flags = RDMABLK_CMD_BATCH | RDMABLK_CMD_INLINE,
		 .tag = 3,
		 .length = 4096},
	};
	const auto wire = encode_batch(cmds);
	ASSERT_EQ(wire.size(), 3 * sizeof(rdmablk_cmd));
	for (std::size_t i = 0; i < cmds.size(); i++)
		EXPECT_EQ(slice(wire, i * 64, 64), bytes_of(cmds[i].encode())) << "command " << i;
	/* The flags byte of each, untouched: the second is left without BATCH. */
	EXPECT_EQ(wire[1], RDMABLK_CMD_BATCH);
	EXPECT_EQ(wire[64 + 1], 0);
	EXPECT_EQ(wire[128 + 1], RDMABLK_CMD_BATCH | RDMABLK_CMD_INLINE);

	const auto last = decode_cmd(slice(wire, 128, 64));
	ASSERT_TRUE(last);
	EXPECT_EQ(last->tag, 3);
	EXPECT_EQ(last->length, 4096U);
	EXPECT_TRUE(encode_batch({}).empty());
}

TEST(OpenReq, CopiesTheNameVerbatimAndUnterminated)
{
	const std::string full(RDMABLK_EXPORT_NAME_MAX, 'x');
	const rdmablk_open_req req = make_open_req(full + "overflow");
	EXPECT_EQ(std::string(req.name, sizeof(req.name)), full);

	const rdmablk_open_req shorter = make_open_req("d0");
	EXPECT_STREQ(shorter.name, "d0");
	EXPECT_EQ(std::string(reinterpret_cast<const char *>(shorter.hostid), sizeof(shorter.hostid)),
		  std::string("hostile-initiat\0", 16));
}

TEST(Response, DecodesStatusAndOpenInfo)
{
	rdmablk_rsp rsp = {};
	rsp.opcode = RDMABLK_OP_OPEN;
	rsp.tag = htole16(7);
	rsp.status = htole16(RDMABLK_S_NO_EXPORT);
	rsp.gen = htole16(0x0102);
	auto wire = bytes_of(rsp);

	const auto plain = decode_response(wire);
	ASSERT_TRUE(plain);
	EXPECT_EQ(plain->opcode, RDMABLK_OP_OPEN);
	EXPECT_EQ(plain->tag, 7);
	EXPECT_EQ(plain->status, RDMABLK_S_NO_EXPORT);
	EXPECT_EQ(plain->gen, 0x0102);
	EXPECT_EQ(plain->len, 16U);
	EXPECT_FALSE(plain->open);
	EXPECT_TRUE(plain->body.empty());

	rdmablk_open_rsp open = {};
	open.size = htole64(256ULL << 20);
	open.logical_block_size = htole32(512);
	open.flags = htole32(RDMABLK_EXP_READ_ONLY);
	const auto tail = bytes_of(open);
	wire.insert(wire.end(), tail.begin(), tail.end());
	const auto with_open = decode_response(wire);
	ASSERT_TRUE(with_open && with_open->open);
	const ExportInfo info = decode_open_rsp(*with_open->open);
	EXPECT_EQ(info.size, 256ULL << 20);
	EXPECT_EQ(info.logical_block_size, 512U);
	EXPECT_EQ(info.flags, RDMABLK_EXP_READ_ONLY);
	EXPECT_EQ(with_open->body, tail);

	EXPECT_FALSE(decode_response(slice(wire, 0, 15)));
}

TEST(Names, KnownAndUnknownValues)
{
	EXPECT_EQ(status_name(RDMABLK_S_RANGE), "RANGE");
	EXPECT_EQ(status_name(99), "status 99");
	EXPECT_EQ(opcode_name(RDMABLK_OP_WRITE_ZEROES), "WRITE_ZEROES");
	EXPECT_EQ(opcode_name(0x7f), "opcode 0x7f");
	EXPECT_EQ(rej_reason_name(RDMABLK_REJ_VERSION), "REJ_VERSION");
	EXPECT_EQ(rej_reason_name(0), "reject reason 0");
}

} // namespace
} // namespace rdmablk::hostile
