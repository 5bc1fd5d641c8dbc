// SPDX-License-Identifier: GPL-2.0
#include "wire.hpp"

#include <algorithm>
#include <cstring>

#include <endian.h>

namespace rdmablk::hostile {

std::optional<ConnRep> decode_conn_rep(std::span<const std::uint8_t> pdata)
{
	const std::optional<ConnRep> r = proto::decode_conn_rep(pdata);
	if (!r || r->version != RDMABLK_PROTO_VERSION || !r->queue_depth ||
	    r->max_io_size < 4096 || r->inline_max > 4096)
		return std::nullopt;
	return r;
}

rdmablk_open_req make_open_req(std::string_view name)
{
	rdmablk_open_req req = {};
	std::memcpy(req.name, name.data(), std::min(name.size(), sizeof(req.name)));
	/* A fixed, recognisable host id: "hostile-initiat". */
	static constexpr char hostid[] = "hostile-initiat";
	static_assert(sizeof(hostid) == sizeof(req.hostid));
	std::memcpy(req.hostid, hostid, sizeof(req.hostid));
	return req;
}

std::optional<Response> decode_response(std::span<const std::uint8_t> buf)
{
	if (buf.size() < sizeof(rdmablk_rsp))
		return std::nullopt;
	const auto rsp = load<rdmablk_rsp>(buf);
	Response r = {
		.opcode = rsp.opcode,
		.tag = le16toh(rsp.tag),
		.status = le16toh(rsp.status),
		.gen = le16toh(rsp.gen),
		.len = static_cast<std::uint32_t>(buf.size()),
		.open = std::nullopt,
		.body = {buf.begin() + sizeof(rdmablk_rsp), buf.end()},
	};
	if (buf.size() >= sizeof(rdmablk_rsp) + sizeof(rdmablk_open_rsp))
		r.open = load<rdmablk_open_rsp>(buf.subspan(sizeof(rdmablk_rsp)));
	return r;
}

std::vector<std::uint8_t> encode_batch(std::span<const Cmd> cmds)
{
	std::vector<std::uint8_t> msg;
	msg.reserve(cmds.size() * sizeof(rdmablk_cmd));
	for (const Cmd &cmd : cmds) {
		const std::vector<std::uint8_t> wire = bytes_of(cmd.encode());
		msg.insert(msg.end(), wire.begin(), wire.end());
	}
	return msg;
}

ExportInfo decode_open_rsp(const rdmablk_open_rsp &rsp)
{
	return {
		.size = le64toh(rsp.size),
		.logical_block_size = le32toh(rsp.logical_block_size),
		.flags = le32toh(rsp.flags),
	};
}

std::optional<ConnReq> decode_conn_req(std::span<const std::uint8_t> pdata)
{
	if (pdata.size() < sizeof(rdmablk_conn_req))
		return std::nullopt;
	const auto req = load<rdmablk_conn_req>(pdata);
	if (le32toh(req.magic) != RDMABLK_PROTO_MAGIC)
		return std::nullopt;
	ConnReq r;
	r.version = le16toh(req.version);
	r.queue_id = le16toh(req.queue_id);
	r.queue_depth = le16toh(req.queue_depth);
	r.flags = le32toh(req.flags);
	r.keepalive_ms = le32toh(req.keepalive_ms);
	return r;
}

std::vector<std::uint8_t> encode_conn_rep(const ConnRep &rep)
{
	rdmablk_conn_rep w = {};
	w.magic = htole32(RDMABLK_PROTO_MAGIC);
	w.version = htole16(rep.version);
	w.queue_depth = htole16(rep.queue_depth);
	w.max_queues = htole16(rep.max_queues);
	w.flags = htole32(rep.flags);
	w.max_io_size = htole32(rep.max_io_size);
	w.inline_max = htole32(rep.inline_max);
	return bytes_of(w);
}

std::optional<Cmd> decode_cmd(std::span<const std::uint8_t> buf)
{
	if (buf.size() < sizeof(rdmablk_cmd))
		return std::nullopt;
	const auto c = load<rdmablk_cmd>(buf);
	Cmd cmd;
	cmd.opcode = c.opcode;
	cmd.flags = c.flags;
	cmd.tag = le16toh(c.tag);
	cmd.length = le32toh(c.length);
	cmd.offset = le64toh(c.offset);
	cmd.addr = le64toh(c.addr);
	cmd.rkey = le32toh(c.rkey);
	cmd.gen = le16toh(c.gen);
	return cmd;
}

std::vector<std::uint8_t> encode_rsp(std::uint8_t opcode, std::uint16_t tag, std::uint16_t status,
				     std::uint16_t gen)
{
	rdmablk_rsp rsp = {};
	rsp.opcode = opcode;
	rsp.tag = htole16(tag);
	rsp.status = htole16(status);
	rsp.gen = htole16(gen);
	return bytes_of(rsp);
}

std::vector<std::uint8_t> encode_open_rsp(std::uint16_t tag, std::uint16_t gen,
					  std::uint16_t status, const rdmablk_open_rsp &info)
{
	std::vector<std::uint8_t> msg = encode_rsp(RDMABLK_OP_OPEN, tag, status, gen);
	const std::vector<std::uint8_t> tail = bytes_of(info);
	msg.insert(msg.end(), tail.begin(), tail.end());
	return msg;
}

} // namespace rdmablk::hostile
