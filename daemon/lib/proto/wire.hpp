// SPDX-License-Identifier: GPL-2.0
/*
 * The connection-level wire format (uapi/linux/rdmablk_proto.h) in host
 * order: connect private data, commands, responses, and names of the
 * protocol's enums for messages. The structs come from the uapi header;
 * what travels is always little endian.
 */
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <linux/rdmablk_proto.h>

namespace rdmablk::proto {

/* A peer's message broke the protocol; the message says how. */
class ProtocolError : public std::runtime_error {
public:
	using std::runtime_error::runtime_error;
};

/* The bytes of wire struct @value. */
template <typename T> std::vector<std::uint8_t> bytes_of(const T &value)
{
	std::vector<std::uint8_t> bytes(sizeof(value));
	std::memcpy(bytes.data(), &value, sizeof(value));
	return bytes;
}

/* Copy a wire struct out of a buffer that holds at least sizeof(T) bytes. */
template <typename T> T load(std::span<const std::uint8_t> buf)
{
	T value;
	std::memcpy(&value, buf.data(), sizeof(value));
	return value;
}

/* Connect private data, host order; encode() gives the wire struct's bytes. */
struct ConnReq {
	std::uint32_t magic = RDMABLK_PROTO_MAGIC;
	std::uint16_t version = RDMABLK_PROTO_VERSION;
	std::uint16_t queue_id = 0;
	std::uint16_t queue_depth = 0;
	std::uint32_t flags = 0;
	std::uint32_t keepalive_ms = 0;

	std::vector<std::uint8_t> encode() const;
};

/* Accept private data (struct rdmablk_conn_rep), host order. */
struct ConnRep {
	std::uint16_t version;
	std::uint16_t queue_depth;
	std::uint16_t max_queues;
	std::uint32_t flags;
	std::uint32_t max_io_size;
	std::uint32_t inline_max;
};

/* nullopt unless @pdata is long enough and carries rdmablk's magic. */
std::optional<ConnRep> decode_conn_rep(std::span<const std::uint8_t> pdata);

/* Reject private data (struct rdmablk_conn_rej), host order. */
struct ConnRej {
	std::uint16_t reason;
	std::uint16_t version;
};

/* nullopt unless @pdata is long enough and carries rdmablk's magic. */
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
	/* Generation of this sending, echoed in the answer. */
	std::uint16_t gen = 0;

	rdmablk_cmd encode() const;
};

/* The struct rdmablk_rsp at the start of every response, host order. */
struct RspHeader {
	std::uint8_t opcode;
	std::uint16_t tag;
	std::uint16_t status;
	std::uint16_t gen;
};

/* nullopt when @buf is shorter than struct rdmablk_rsp. */
std::optional<RspHeader> decode_rsp_header(std::span<const std::uint8_t> buf);

/* "INVALID", "RANGE", ...; "status N" for unknown values. */
std::string status_name(std::uint16_t status);
/* "READ", "OPEN", ...; "opcode 0xNN" for unknown values. */
std::string opcode_name(std::uint8_t opcode);
/* "REJ_INVALID", "REJ_VERSION", ...: enum rdmablk_rej_reason. */
std::string rej_reason_name(std::uint16_t reason);

} // namespace rdmablk::proto
