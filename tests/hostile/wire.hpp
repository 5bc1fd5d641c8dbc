// SPDX-License-Identifier: GPL-2.0
/*
 * The rdmablk wire format as a hostile initiator builds it: every field of
 * every struct is settable, so a test can break exactly one of them.
 * The structs themselves come from uapi/linux/rdmablk_proto.h.
 */
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <linux/rdmablk_proto.h>

namespace rdmablk::hostile {

/* Connect private data, host order; encode() turns it into the wire struct. */
struct ConnReq {
	std::uint32_t magic = RDMABLK_PROTO_MAGIC;
	std::uint16_t version = RDMABLK_PROTO_VERSION;
	std::uint16_t queue_id = 0;
	std::uint16_t queue_depth = 0;
	std::uint32_t flags = 0;
	std::uint32_t keepalive_ms = 0;

	std::vector<std::uint8_t> encode() const;
};

/* What the target granted, from struct rdmablk_conn_rep. */
struct ConnRep {
	std::uint16_t version;
	std::uint16_t queue_depth;
	std::uint16_t max_queues;
	std::uint32_t flags;
	std::uint32_t max_io_size;
	std::uint32_t inline_max;
};

/*
 * Decode accept private data; nullopt when it is not a sane rdmablk reply
 * (the checks an honest initiator makes).
 */
std::optional<ConnRep> decode_conn_rep(std::span<const std::uint8_t> pdata);

/* Why the target refused, from struct rdmablk_conn_rej. */
struct ConnRej {
	std::uint16_t reason;
	std::uint16_t version;
};

/* Decode reject private data; nullopt when it is not rdmablk's. */
std::optional<ConnRej> decode_conn_rej(std::span<const std::uint8_t> pdata);

/* A command, host order. */
struct Cmd {
	std::uint8_t opcode = 0;
	std::uint8_t flags = 0;
	std::uint16_t tag = 0;
	std::uint32_t length = 0;
	std::uint64_t offset = 0;
	std::uint64_t addr = 0;
	std::uint32_t rkey = 0;

	rdmablk_cmd encode() const;
};

/* struct rdmablk_open_req with the name copied verbatim (not terminated). */
rdmablk_open_req make_open_req(std::string_view name);

/* A response, host order. */
struct Response {
	std::uint8_t opcode;
	std::uint16_t tag;
	std::uint16_t status;
	std::uint32_t len;
	/* Present when the response was long enough to carry it. */
	std::optional<rdmablk_open_rsp> open;
};

/* Decode a received response; nullopt when shorter than struct rdmablk_rsp. */
std::optional<Response> decode_response(std::span<const std::uint8_t> buf);

/* Export geometry from an OPEN response, host order. */
struct ExportInfo {
	std::uint64_t size;
	std::uint32_t logical_block_size;
	std::uint32_t flags;
};

ExportInfo decode_open_rsp(const rdmablk_open_rsp &rsp);

/* "INVALID", "RANGE", ...; "status N" for unknown values. */
std::string status_name(std::uint16_t status);
/* "READ", "OPEN", ...; "opcode 0xNN" for unknown values. */
std::string opcode_name(std::uint8_t opcode);
/* "invalid magic", "protocol version", ...: enum rdmablk_rej_reason. */
std::string rej_reason_name(std::uint16_t reason);

} // namespace rdmablk::hostile
