// SPDX-License-Identifier: GPL-2.0
/*
 * Discovery on the wire (uapi/linux/rdmablk_proto.h): the DISC_LOG,
 * DISC_WAIT and KEEPALIVE commands a host sends, the checks every answer
 * passes before anything in it is believed, and LogReader, which puts the
 * pages of the export list together and starts over when the list changed
 * while it was being read.
 */
#pragma once

#include <array>
#include <cstdint>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "wire.hpp"

namespace rdmablk::proto {

using Id = std::array<std::uint8_t, RDMABLK_UUID_SIZE>;

/* What a discovery session asks for in its connect private data; @auth: RDMABLK_CONN_AUTH too. */
ConnReq discovery_conn_req(std::uint32_t keepalive_ms, bool auth = false);

/*
 * Check the accept private data of a discovery connection: an rdmablk
 * reply of our version that agreed to discovery and granted 1 to
 * RDMABLK_DISC_QUEUE_DEPTH credits. Throws ProtocolError saying what is wrong.
 */
ConnRep check_discovery_rep(std::span<const std::uint8_t> pdata);

/* One SEND: struct rdmablk_cmd, then struct rdmablk_disc_req inline. */
std::vector<std::uint8_t> encode_disc_cmd(std::uint8_t opcode, std::uint16_t tag,
					  const Id &hostid, std::uint64_t generation,
					  std::uint32_t start);

/* One SEND: struct rdmablk_cmd of @opcode (AUTH_CHALLENGE, AUTH_REPLY), then @payload inline. */
std::vector<std::uint8_t> encode_inline_cmd(std::uint8_t opcode, std::uint16_t tag,
					    std::span<const std::uint8_t> payload);

/* One SEND: a struct rdmablk_cmd of opcode RDMABLK_OP_KEEPALIVE. */
std::vector<std::uint8_t> encode_keepalive(std::uint16_t tag);

/* Letters, digits and . _ : -: what an export name may hold. */
bool is_export_name_char(char c);

/* One struct rdmablk_disc_entry, host order. */
struct DiscEntry {
	std::string name;
	Id uuid{};
	std::uint64_t size = 0;
	std::uint32_t logical_block_size = 0;
	std::uint32_t physical_block_size = 0;
	std::uint32_t flags = 0; /* RDMABLK_EXP_* */

	bool operator==(const DiscEntry &) const = default;
};

/* A struct rdmablk_disc_log and the entries that followed it. */
struct DiscPage {
	std::uint64_t generation = 0;
	std::uint32_t total = 0;
	std::vector<DiscEntry> entries;
};

/*
 * The response in @buf (as received: struct rdmablk_rsp first) to the
 * DISC_LOG or DISC_WAIT command @opcode, checked: status OK, the length
 * matching the count, at most RDMABLK_DISC_MAX_ENTRIES entries (none for
 * DISC_WAIT), each with a valid NUL-terminated name and sane block sizes.
 * The caller has matched the tag. Throws ProtocolError.
 */
DiscPage decode_disc_response(std::span<const std::uint8_t> buf, std::uint8_t opcode);

/* The whole export list, as one generation had it. */
struct DiscLog {
	std::uint64_t generation = 0;
	std::vector<DiscEntry> entries;
};

/*
 * Reads the export list page by page: ask DISC_LOG for next_start(), give
 * the answer to add(), until add() says the list is complete. A page of
 * another generation than the first discards what was read and starts over
 * (at most @max_restarts times).
 */
class LogReader {
public:
	static constexpr unsigned default_max_restarts = 8;
	/* More exports than any target has; bounds what a peer makes us keep. */
	static constexpr std::uint32_t max_total = 65536;

	explicit LogReader(unsigned max_restarts = default_max_restarts)
		: max_restarts_(max_restarts)
	{
	}

	/* The index the next DISC_LOG asks for. */
	std::uint32_t next_start() const { return static_cast<std::uint32_t>(log_.entries.size()); }

	/*
	 * The answer to DISC_LOG for next_start(): true once the list is
	 * complete. Throws ProtocolError when the pages do not fit together or
	 * the list kept changing.
	 */
	bool add(DiscPage page);

	bool complete() const { return started_ && log_.entries.size() == total_; }
	/* The complete list (valid once add() returned true). */
	const DiscLog &log() const { return log_; }
	unsigned restarts() const { return restarts_; }

private:
	unsigned max_restarts_;
	unsigned restarts_ = 0;
	bool started_ = false;
	std::uint32_t total_ = 0;
	DiscLog log_;
	std::set<std::string, std::less<>> names_;
};

} // namespace rdmablk::proto
