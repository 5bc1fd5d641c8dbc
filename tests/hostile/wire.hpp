// SPDX-License-Identifier: GPL-2.0
/*
 * The rdmablk wire format as a hostile initiator builds it: every field of
 * every struct is settable, so a test can break exactly one of them.
 * The structs themselves come from uapi/linux/rdmablk_proto.h, the codec
 * of what an honest initiator sends from rdmablk::proto.
 */
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "proto/wire.hpp"

namespace rdmablk::hostile {

using proto::bytes_of;
using proto::Cmd;
using proto::ConnRej;
using proto::ConnRep;
using proto::ConnReq;
using proto::decode_conn_rej;
using proto::load;
using proto::opcode_name;
using proto::rej_reason_name;
using proto::status_name;

/*
 * Decode accept private data; nullopt when it is not a sane rdmablk reply
 * (the checks an honest initiator makes).
 */
std::optional<ConnRep> decode_conn_rep(std::span<const std::uint8_t> pdata);

/* struct rdmablk_open_req with the name copied verbatim (not terminated). */
rdmablk_open_req make_open_req(std::string_view name);

/* A response, host order. */
struct Response {
	std::uint8_t opcode;
	std::uint16_t tag;
	std::uint16_t status;
	std::uint16_t gen;
	std::uint32_t len;
	/* Present when the response was long enough to carry it. */
	std::optional<rdmablk_open_rsp> open;
	/* What followed struct rdmablk_rsp in the message. */
	std::vector<std::uint8_t> body;
};

/* Decode a received response; nullopt when shorter than struct rdmablk_rsp. */
std::optional<Response> decode_response(std::span<const std::uint8_t> buf);

/* Immediate data naming @tag and @gen (RDMABLK_IMM_*), host order. */
constexpr std::uint32_t imm_of(std::uint16_t tag, std::uint16_t gen)
{
	return static_cast<std::uint32_t>(gen) << RDMABLK_IMM_GEN_SHIFT | tag;
}

/*
 * @cmds back to back, as one batched SEND carries them; each is encoded as
 * it is, flags included: RDMABLK_CMD_BATCH is the caller's to set on each,
 * or to leave out.
 */
std::vector<std::uint8_t> encode_batch(std::span<const Cmd> cmds);

/* Export geometry from an OPEN response, host order. */
struct ExportInfo {
	std::uint64_t size;
	std::uint32_t logical_block_size;
	std::uint32_t flags;
};

ExportInfo decode_open_rsp(const rdmablk_open_rsp &rsp);

/*
 * The target's side of the wire, for a hostile target: what the kernel
 * initiator sends, decoded, and what a target answers, encoded with every
 * field settable.
 */

/* Connect private data, host order; nullopt when short or without the magic. */
std::optional<ConnReq> decode_conn_req(std::span<const std::uint8_t> pdata);

/* struct rdmablk_conn_rep with the magic and @rep's fields, whatever they are. */
std::vector<std::uint8_t> encode_conn_rep(const ConnRep &rep);

/* A received command, host order; nullopt when shorter than struct rdmablk_cmd. */
std::optional<Cmd> decode_cmd(std::span<const std::uint8_t> buf);

/* struct rdmablk_rsp with these fields. */
std::vector<std::uint8_t> encode_rsp(std::uint8_t opcode, std::uint16_t tag, std::uint16_t status,
				     std::uint16_t gen = 0);

/* An OPEN response: struct rdmablk_rsp then struct rdmablk_open_rsp. */
std::vector<std::uint8_t> encode_open_rsp(std::uint16_t tag, std::uint16_t gen,
					  std::uint16_t status, const rdmablk_open_rsp &info);

} // namespace rdmablk::hostile
