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
		.len = static_cast<std::uint32_t>(buf.size()),
		.open = std::nullopt,
	};
	if (buf.size() >= sizeof(rdmablk_rsp) + sizeof(rdmablk_open_rsp))
		r.open = load<rdmablk_open_rsp>(buf.subspan(sizeof(rdmablk_rsp)));
	return r;
}

ExportInfo decode_open_rsp(const rdmablk_open_rsp &rsp)
{
	return {
		.size = le64toh(rsp.size),
		.logical_block_size = le32toh(rsp.logical_block_size),
		.flags = le32toh(rsp.flags),
	};
}

} // namespace rdmablk::hostile
