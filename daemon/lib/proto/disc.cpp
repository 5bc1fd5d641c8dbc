// SPDX-License-Identifier: GPL-2.0
#include "disc.hpp"

#include <algorithm>
#include <bit>

#include <endian.h>

namespace rdmablk::proto {

namespace {

constexpr std::size_t entries_offset = sizeof(rdmablk_rsp) + sizeof(rdmablk_disc_log);

[[noreturn]] void bad(const std::string &what)
{
	throw ProtocolError(what);
}

/* A block size the block layer could use: a power of two, 512 to 64 KiB. */
bool sane_block_size(std::uint32_t size)
{
	return std::has_single_bit(size) && size >= 512 && size <= 65536;
}

DiscEntry decode_entry(const rdmablk_disc_entry &wire, std::size_t index)
{
	const std::string where = "discovery entry " + std::to_string(index);
	const auto *end = std::find(wire.name, wire.name + sizeof(wire.name), '\0');
	if (end == wire.name + sizeof(wire.name))
		bad(where + ": the name is not NUL-terminated");
	DiscEntry e;
	e.name.assign(wire.name, end);
	if (e.name.empty())
		bad(where + ": the name is empty");
	if (!std::all_of(e.name.begin(), e.name.end(), is_export_name_char))
		bad(where + ": the name holds characters an export name cannot have");
	std::copy(std::begin(wire.uuid), std::end(wire.uuid), e.uuid.begin());
	e.size = le64toh(wire.size);
	e.logical_block_size = le32toh(wire.logical_block_size);
	e.physical_block_size = le32toh(wire.physical_block_size);
	e.flags = le32toh(wire.flags);
	if (!sane_block_size(e.logical_block_size) || !sane_block_size(e.physical_block_size) ||
	    e.physical_block_size < e.logical_block_size)
		bad(where + " (" + e.name + "): impossible block sizes " +
		    std::to_string(e.logical_block_size) + "/" +
		    std::to_string(e.physical_block_size));
	return e;
}

} // namespace

ConnReq discovery_conn_req(std::uint32_t keepalive_ms, bool auth)
{
	return ConnReq{
		.queue_id = 0,
		.queue_depth = RDMABLK_DISC_QUEUE_DEPTH,
		.flags = RDMABLK_CONN_DISCOVERY | (auth ? RDMABLK_CONN_AUTH : 0U),
		.keepalive_ms = keepalive_ms,
	};
}

ConnRep check_discovery_rep(std::span<const std::uint8_t> pdata)
{
	const std::optional<ConnRep> rep = decode_conn_rep(pdata);
	if (!rep)
		bad("the target accepted without an rdmablk connect reply");
	if (rep->version != RDMABLK_PROTO_VERSION)
		bad("the target accepted with protocol version " + std::to_string(rep->version) +
		    ", not " + std::to_string(RDMABLK_PROTO_VERSION));
	if (!(rep->flags & RDMABLK_CONN_DISCOVERY))
		bad("the target does not offer discovery");
	if (!rep->queue_depth || rep->queue_depth > RDMABLK_DISC_QUEUE_DEPTH)
		bad("the target granted a queue depth of " + std::to_string(rep->queue_depth) +
		    ", outside 1 to " + std::to_string(RDMABLK_DISC_QUEUE_DEPTH));
	return *rep;
}

std::vector<std::uint8_t> encode_disc_cmd(std::uint8_t opcode, std::uint16_t tag,
					  const Id &hostid, std::uint64_t generation,
					  std::uint32_t start)
{
	const rdmablk_cmd cmd = Cmd{.opcode = opcode, .flags = RDMABLK_CMD_INLINE, .tag = tag}.encode();
	rdmablk_disc_req req = {};
	std::copy(hostid.begin(), hostid.end(), req.hostid);
	req.generation = htole64(generation);
	req.start = htole32(start);

	std::vector<std::uint8_t> msg = bytes_of(cmd);
	const std::vector<std::uint8_t> payload = bytes_of(req);
	msg.insert(msg.end(), payload.begin(), payload.end());
	return msg;
}

std::vector<std::uint8_t> encode_inline_cmd(std::uint8_t opcode, std::uint16_t tag,
					    std::span<const std::uint8_t> payload)
{
	std::vector<std::uint8_t> msg = bytes_of(Cmd{.opcode = opcode,
						     .flags = RDMABLK_CMD_INLINE,
						     .tag = tag,
						     .length = static_cast<std::uint32_t>(payload.size())}
							 .encode());
	msg.insert(msg.end(), payload.begin(), payload.end());
	return msg;
}

std::vector<std::uint8_t> encode_keepalive(std::uint16_t tag)
{
	return bytes_of(Cmd{.opcode = RDMABLK_OP_KEEPALIVE, .tag = tag}.encode());
}

bool is_export_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '.' || c == '_' || c == ':' || c == '-';
}

DiscPage decode_disc_response(std::span<const std::uint8_t> buf, std::uint8_t opcode)
{
	const std::string what = opcode_name(opcode);
	const std::optional<RspHeader> rsp = decode_rsp_header(buf);
	if (!rsp)
		bad("a " + std::to_string(buf.size()) + "-byte answer to " + what +
		    " is too short for a response");
	if (rsp->opcode != opcode)
		bad("the answer to " + what + " is for " + opcode_name(rsp->opcode));
	if (rsp->status != RDMABLK_S_OK)
		bad("the target failed " + what + " with status " + status_name(rsp->status));
	if (buf.size() < entries_offset)
		bad("a " + std::to_string(buf.size()) + "-byte answer to " + what +
		    " is too short for a discovery log");

	const auto log = load<rdmablk_disc_log>(buf.subspan(sizeof(rdmablk_rsp)));
	DiscPage page;
	page.generation = le64toh(log.generation);
	page.total = le32toh(log.total);
	const std::uint32_t count = le32toh(log.count);
	const std::uint32_t max = opcode == RDMABLK_OP_DISC_LOG ? RDMABLK_DISC_MAX_ENTRIES : 0;
	if (count > max)
		bad("the answer to " + what + " claims " + std::to_string(count) +
		    " entries, more than " + std::to_string(max));
	const std::size_t want = entries_offset + count * sizeof(rdmablk_disc_entry);
	if (buf.size() < want)
		bad("the answer to " + what + " claims " + std::to_string(count) + " entries in " +
		    std::to_string(buf.size()) + " bytes, " + std::to_string(want) + " needed");
	if (count > page.total)
		bad("the answer to " + what + " carries " + std::to_string(count) +
		    " entries of a list of " + std::to_string(page.total));

	for (std::uint32_t i = 0; i < count; i++) {
		const auto off = entries_offset + i * sizeof(rdmablk_disc_entry);
		page.entries.push_back(decode_entry(load<rdmablk_disc_entry>(buf.subspan(off)), i));
	}
	return page;
}

bool LogReader::add(DiscPage page)
{
	if (started_ && page.generation != log_.generation) {
		if (restarts_ >= max_restarts_)
			bad("the export list kept changing while it was read (" +
			    std::to_string(restarts_ + 1) + " generations)");
		/* The page is from the middle of another list: read that one from its start. */
		restarts_++;
		started_ = false;
		log_.entries.clear();
		names_.clear();
		return false;
	}
	if (!started_) {
		if (page.total > max_total)
			bad("the target claims " + std::to_string(page.total) +
			    " exports, more than " + std::to_string(max_total));
		started_ = true;
		total_ = page.total;
		log_.generation = page.generation;
	}
	if (page.total != total_)
		bad("the export list went from " + std::to_string(total_) + " to " +
		    std::to_string(page.total) + " exports without a new generation");
	if (page.entries.empty() && next_start() < total_)
		bad("the target sent no entries at index " + std::to_string(next_start()) +
		    " of " + std::to_string(total_));
	if (page.entries.size() > total_ - next_start())
		bad("the target sent more entries than the " + std::to_string(total_) +
		    " it announced");
	for (DiscEntry &e : page.entries) {
		if (!names_.insert(e.name).second)
			bad("the export list names " + e.name + " twice");
		log_.entries.push_back(std::move(e));
	}
	return complete();
}

} // namespace rdmablk::proto
