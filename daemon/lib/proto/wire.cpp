// SPDX-License-Identifier: GPL-2.0
#include "wire.hpp"

#include <array>
#include <cstdio>

#include <endian.h>

namespace rdmablk::proto {

std::vector<std::uint8_t> ConnReq::encode() const
{
	rdmablk_conn_req req = {};
	req.magic = htole32(magic);
	req.version = htole16(version);
	req.queue_id = htole16(queue_id);
	req.queue_depth = htole16(queue_depth);
	req.flags = htole32(flags);
	req.keepalive_ms = htole32(keepalive_ms);
	return bytes_of(req);
}

std::optional<ConnRep> decode_conn_rep(std::span<const std::uint8_t> pdata)
{
	if (pdata.size() < sizeof(rdmablk_conn_rep))
		return std::nullopt;
	const auto rep = load<rdmablk_conn_rep>(pdata);
	if (le32toh(rep.magic) != RDMABLK_PROTO_MAGIC)
		return std::nullopt;
	return ConnRep{
		.version = le16toh(rep.version),
		.queue_depth = le16toh(rep.queue_depth),
		.max_queues = le16toh(rep.max_queues),
		.flags = le32toh(rep.flags),
		.max_io_size = le32toh(rep.max_io_size),
		.inline_max = le32toh(rep.inline_max),
	};
}

std::optional<ConnRej> decode_conn_rej(std::span<const std::uint8_t> pdata)
{
	if (pdata.size() < sizeof(rdmablk_conn_rej))
		return std::nullopt;
	const auto rej = load<rdmablk_conn_rej>(pdata);
	if (le32toh(rej.magic) != RDMABLK_PROTO_MAGIC)
		return std::nullopt;
	return ConnRej{.reason = le16toh(rej.reason), .version = le16toh(rej.version)};
}

rdmablk_cmd Cmd::encode() const
{
	rdmablk_cmd cmd = {};
	cmd.opcode = opcode;
	cmd.flags = flags;
	cmd.tag = htole16(tag);
	cmd.length = htole32(length);
	cmd.offset = htole64(offset);
	cmd.addr = htole64(addr);
	cmd.rkey = htole32(rkey);
	cmd.gen = htole16(gen);
	return cmd;
}

std::optional<RspHeader> decode_rsp_header(std::span<const std::uint8_t> buf)
{
	if (buf.size() < sizeof(rdmablk_rsp))
		return std::nullopt;
	const auto rsp = load<rdmablk_rsp>(buf);
	return RspHeader{
		.opcode = rsp.opcode,
		.tag = le16toh(rsp.tag),
		.status = le16toh(rsp.status),
		.gen = le16toh(rsp.gen),
	};
}

std::string status_name(std::uint16_t status)
{
	switch (status) {
	case RDMABLK_S_OK:
		return "OK";
	case RDMABLK_S_INVALID:
		return "INVALID";
	case RDMABLK_S_RANGE:
		return "RANGE";
	case RDMABLK_S_READ_ONLY:
		return "READ_ONLY";
	case RDMABLK_S_IO_ERROR:
		return "IO_ERROR";
	case RDMABLK_S_NO_EXPORT:
		return "NO_EXPORT";
	case RDMABLK_S_DENIED:
		return "DENIED";
	case RDMABLK_S_NOT_OPEN:
		return "NOT_OPEN";
	case RDMABLK_S_UNSUPPORTED:
		return "UNSUPPORTED";
	case RDMABLK_S_NO_SPACE:
		return "NO_SPACE";
	case RDMABLK_S_AUTH_FAILED:
		return "AUTH_FAILED";
	case RDMABLK_S_AUTH_REQUIRED:
		return "AUTH_REQUIRED";
	}
	return "status " + std::to_string(status);
}

std::string opcode_name(std::uint8_t opcode)
{
	switch (opcode) {
	case RDMABLK_OP_OPEN:
		return "OPEN";
	case RDMABLK_OP_READ:
		return "READ";
	case RDMABLK_OP_WRITE:
		return "WRITE";
	case RDMABLK_OP_FLUSH:
		return "FLUSH";
	case RDMABLK_OP_DISCARD:
		return "DISCARD";
	case RDMABLK_OP_WRITE_ZEROES:
		return "WRITE_ZEROES";
	case RDMABLK_OP_KEEPALIVE:
		return "KEEPALIVE";
	case RDMABLK_OP_DISC_LOG:
		return "DISC_LOG";
	case RDMABLK_OP_DISC_WAIT:
		return "DISC_WAIT";
	case RDMABLK_OP_AUTH_CHALLENGE:
		return "AUTH_CHALLENGE";
	case RDMABLK_OP_AUTH_REPLY:
		return "AUTH_REPLY";
	}
	std::array<char, 32> buf;
	std::snprintf(buf.data(), buf.size(), "opcode 0x%02x", opcode);
	return buf.data();
}

std::string rej_reason_name(std::uint16_t reason)
{
	switch (reason) {
	case RDMABLK_REJ_INVALID:
		return "REJ_INVALID";
	case RDMABLK_REJ_VERSION:
		return "REJ_VERSION";
	case RDMABLK_REJ_RESOURCES:
		return "REJ_RESOURCES";
	case RDMABLK_REJ_QUEUE_DEPTH:
		return "REJ_QUEUE_DEPTH";
	}
	return "reject reason " + std::to_string(reason);
}

} // namespace rdmablk::proto
