// SPDX-License-Identifier: GPL-2.0
/*
 * Attributes for "rdmablk-nl raw": built from TYPE:KIND:VALUE on the
 * command line, printed back from replies.
 */
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

struct nl_msg;

namespace rdmablk::tool {

struct RawAttr {
	std::uint16_t type;
	std::vector<std::uint8_t> payload;

	bool operator==(const RawAttr &) const = default;
};

/*
 * Parse "TYPE:KIND[:VALUE]": TYPE is a number (0x for hex) or an rdmablk
 * attribute name ("PORT"); KIND is u8, u16, u32, u64, s32 (VALUE a number,
 * s32 maybe negative, stored in host order), string (VALUE plus a NUL),
 * binary-hex (VALUE as hex digits, maybe none), nested (the nest's payload
 * as hex digits; the type gets NLA_F_NESTED) or flag (no VALUE). Throws
 * std::invalid_argument.
 */
RawAttr parse_raw_attr(std::string_view spec);

/*
 * Generic netlink message @msg as lines: "reply cmd=N version=V", then one
 * "attr type=T name=NAME len=L value=V" per attribute, with hex=... instead
 * of value= for payloads that are not what the attribute should hold. A
 * nested attribute whose payload is attributes reads "... len=L nested",
 * followed by a line for each attribute inside, indented by two spaces.
 */
std::vector<std::string> describe_reply(nl_msg &msg);

} // namespace rdmablk::tool
