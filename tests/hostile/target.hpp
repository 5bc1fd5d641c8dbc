// SPDX-License-Identifier: GPL-2.0
/*
 * rdmablk-hostile-target: a target that accepts the kernel initiator, answers
 * OPEN honestly and then breaks the wire protocol in one chosen way, so a VM
 * test can check that the initiator survives it: no splat, no I/O or detach
 * that hangs, an error for the application rather than wrong data.
 *
 * The export it offers is kSize bytes, 512-byte logical blocks, read-write
 * without cache, discard or zeroing. Reads below the trap offset are answered
 * honestly with a pattern that names every byte's offset (pattern_at()), so
 * the partition scan of an attach works and a reader can tell wrong data from
 * right; writes are acknowledged and dropped. A command at or beyond the trap
 * offset is where a scenario misbehaves.
 */
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "verbs.hpp"
#include "wire.hpp"

namespace rdmablk::hostile::target {

/* Capacity of the export. */
constexpr std::uint64_t kSize = 4ULL << 20;
/* Commands from this offset on are where a scenario misbehaves. */
constexpr std::uint64_t kTrapOffset = 2ULL << 20;
/* What an honest reply grants. */
constexpr std::uint32_t kMaxIoSize = 128U << 10;
constexpr std::uint32_t kInlineMax = 4096;

/* Byte @offset of the export as honest reads return it: the little-endian
 * 64-bit offset of the 8-byte word holding it, xor a constant, so zeroes or
 * another offset's bytes are never right. */
std::uint8_t pattern_at(std::uint64_t offset);

/* One accepted connection, as a scenario sees it. */
class Conn {
public:
	virtual ~Conn() = default;

	/* What the initiator asked for and what it was granted. */
	virtual const ConnReq &req() const = 0;
	virtual const ConnRep &rep() const = 0;
	/* Number of the connection since the start, from 1. */
	virtual unsigned int number() const = 0;

	/* SEND @bytes as a message. */
	virtual void send(std::span<const std::uint8_t> bytes) = 0;
	/* SEND a struct rdmablk_rsp. */
	void respond(std::uint8_t opcode, std::uint16_t tag, std::uint16_t status,
		     std::uint16_t gen)
	{
		send(encode_rsp(opcode, tag, status, gen));
	}
	/* SEND the response to @cmd with @status: its opcode, tag and generation. */
	void answer(const Cmd &cmd, std::uint16_t status)
	{
		respond(cmd.opcode, cmd.tag, status, cmd.gen);
	}
	/* SEND the honest OPEN response with @tag and @gen. */
	virtual void send_open_rsp(std::uint16_t tag, std::uint16_t gen) = 0;
	/* RDMA WRITE the honest data of READ @cmd to its buffer; the write
	 * carries @imm (host order) as immediate data when @with_imm. */
	virtual void write_data(const Cmd &cmd, bool with_imm = false, std::uint32_t imm = 0) = 0;
	/* SEND_WITH_IMM the first @len bytes of READ @cmd's honest data, with
	 * @imm (host order) as immediate data: the answer to a READ that asked
	 * for its data by SEND (RDMABLK_CMD_SEND_DATA). */
	virtual void send_data(const Cmd &cmd, std::uint32_t len, std::uint32_t imm) = 0;
	/* SEND make(0), make(1), ...: the first @burst at once, then one every
	 * @gap until @span passed or the connection broke. Commands that arrive
	 * meanwhile are not answered. */
	virtual void flood(const std::function<std::vector<std::uint8_t>(unsigned int)> &make,
			   unsigned int burst, std::chrono::milliseconds span,
			   std::chrono::microseconds gap) = 0;
	/* Answer @cmd as an honest target would. */
	virtual void honest(const Cmd &cmd) = 0;
	/* Record that the protocol was broken here, how: the time until the
	 * initiator drops the connection is reported against it. */
	virtual void misbehaved(std::string_view what) = 0;
};

/* What the application on the initiator must see. */
enum class Expect {
	Refused,	/* attach fails with an error */
	Error,		/* a read at the trap offset fails with EIO */
	ErrorOrData,	/* that read fails with EIO or returns the right bytes */
	Data,		/* that read returns the right bytes */
	Detach,		/* the attach returns, and a detach works, while the
			 * partition read of the attach is still unanswered */
};

struct Scenario {
	std::string_view name;
	std::string_view summary;
	Expect expect;
	/* The initiator must drop a connection it was misbehaved on quickly. */
	bool must_drop;
	/* Change the honest connect reply; nullptr: keep it. */
	void (*reply)(ConnRep &rep);
	/* Right after the OPEN response; nullptr: nothing. */
	void (*after_open)(Conn &conn);
	/* A command at or beyond kTrapOffset; nullptr: answer honestly. */
	void (*trap)(Conn &conn, const Cmd &cmd);
	/* The trap covers the whole disk: the partition read of the attach
	 * meets it too. */
	bool trap_all = false;
	/* The initiator attaches with keys, its own and the target's (mutual
	 * authentication): it offers RDMABLK_CONN_AUTH and must refuse a
	 * target that cannot prove it holds the target key. */
	bool keys = false;
	/* AUTH_CHALLENGE and AUTH_REPLY, with their inline payload; nullptr:
	 * answered as by a target that does not know them (UNSUPPORTED). */
	void (*auth)(Conn &conn, const Cmd &cmd, std::span<const std::uint8_t> payload) = nullptr;
	/* Change the honest OPEN response (wire order); nullptr: keep it. */
	void (*open)(rdmablk_open_rsp &info, const ConnRep &rep) = nullptr;
};

/* Every scenario, in the order the VM test runs them: those that may leave
 * the initiator stuck last. */
std::span<const Scenario> scenarios();

std::string_view expect_name(Expect e);

} // namespace rdmablk::hostile::target
