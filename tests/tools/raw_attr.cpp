// SPDX-License-Identifier: GPL-2.0
#include "raw_attr.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <limits>
#include <optional>
#include <stdexcept>

#include <netlink/attr.h>
#include <netlink/genl/genl.h>

#include "nl/attrs.hpp"

namespace rdmablk::tool {

namespace {

[[noreturn]] void invalid(std::string_view spec, std::string_view problem)
{
	throw std::invalid_argument("invalid attribute \"" + std::string(spec) +
				    "\": " + std::string(problem));
}

/* Decimal, or hex after "0x"; nullopt unless it is a number no larger than @max. */
std::optional<std::uint64_t> parse_number(std::string_view text, std::uint64_t max)
{
	int base = 10;
	if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
		base = 16;
		text.remove_prefix(2);
	}
	std::uint64_t value;
	const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
	if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value > max)
		return std::nullopt;
	return value;
}

std::uint16_t parse_type(std::string_view spec, std::string_view type)
{
	if (auto number = parse_number(type, std::numeric_limits<std::uint16_t>::max()))
		return static_cast<std::uint16_t>(*number);
	if (auto named = nl::attr_by_name(type))
		return *named;
	invalid(spec, "unknown attribute type \"" + std::string(type) + "\"");
}

template <typename T> std::vector<std::uint8_t> bytes_of(T value)
{
	std::vector<std::uint8_t> bytes(sizeof(value));
	std::memcpy(bytes.data(), &value, sizeof(value));
	return bytes;
}

template <typename T> std::vector<std::uint8_t> integer(std::string_view spec, std::string_view value)
{
	const auto number = parse_number(value, std::numeric_limits<T>::max());
	if (!number)
		invalid(spec, "\"" + std::string(value) + "\" is not a number that fits in " +
				      std::to_string(sizeof(T) * 8) + " bits");
	return bytes_of(static_cast<T>(*number));
}

/* A negative number too, "-" then what parse_number() takes. */
template <typename T>
std::vector<std::uint8_t> signed_integer(std::string_view spec, std::string_view value)
{
	using Wide = std::int64_t;
	const bool negative = value.starts_with('-');
	const auto limit = negative ? -static_cast<Wide>(std::numeric_limits<T>::min())
				    : static_cast<Wide>(std::numeric_limits<T>::max());
	const auto magnitude =
		parse_number(negative ? value.substr(1) : value, static_cast<std::uint64_t>(limit));
	if (!magnitude)
		invalid(spec, "\"" + std::string(value) + "\" is not a number that fits in " +
				      std::to_string(sizeof(T) * 8) + " signed bits");
	const auto number = static_cast<Wide>(*magnitude);
	return bytes_of(static_cast<T>(negative ? -number : number));
}

std::vector<std::uint8_t> from_hex(std::string_view spec, std::string_view hex)
{
	if (hex.size() % 2)
		invalid(spec, "odd number of hex digits");
	std::vector<std::uint8_t> bytes;
	for (std::size_t i = 0; i < hex.size(); i += 2) {
		std::uint8_t byte;
		const auto [end, ec] = std::from_chars(hex.data() + i, hex.data() + i + 2, byte, 16);
		if (ec != std::errc() || end != hex.data() + i + 2)
			invalid(spec, "\"" + std::string(hex) + "\" is not hex");
		bytes.push_back(byte);
	}
	return bytes;
}

std::string to_hex(const std::uint8_t *data, std::size_t len)
{
	static constexpr char digits[] = "0123456789abcdef";
	std::string hex;
	for (std::size_t i = 0; i < len; i++) {
		hex += digits[data[i] >> 4];
		hex += digits[data[i] & 0xf];
	}
	return hex;
}

/* "value=..." when @nla holds what its spec says, nullopt otherwise. */
std::optional<std::string> decode(const nlattr &nla, const nl::AttrSpec &spec)
{
	const auto len = static_cast<std::size_t>(nla_len(&nla));
	const auto *data = static_cast<const char *>(nla_data(&nla));
	const auto read = [&](auto value) -> std::optional<std::string> {
		if (len != sizeof(value))
			return std::nullopt;
		std::memcpy(&value, data, sizeof(value));
		return std::to_string(value);
	};

	switch (spec.type) {
	case nl::AttrType::u8:
		return read(std::uint8_t{});
	case nl::AttrType::u16:
		return read(std::uint16_t{});
	case nl::AttrType::u32:
		return read(std::uint32_t{});
	case nl::AttrType::u64:
		return read(std::uint64_t{});
	case nl::AttrType::s32:
		return read(std::int32_t{});
	case nl::AttrType::string:
		if (len == 0 || data[len - 1] != '\0' ||
		    !std::all_of(data, data + len - 1, [](char c) { return c > ' ' && c <= '~'; }))
			return std::nullopt;
		return std::string(data, len - 1);
	case nl::AttrType::flag:
		if (len != 0)
			return std::nullopt;
		return "true";
	case nl::AttrType::binary:
	case nl::AttrType::nested: /* describe_attrs() shows what is inside */
		break;
	}
	return std::nullopt;
}

std::vector<std::uint8_t> payload_of(std::string_view spec, std::string_view kind,
				     std::string_view value)
{
	if (kind == "u8")
		return integer<std::uint8_t>(spec, value);
	if (kind == "u16")
		return integer<std::uint16_t>(spec, value);
	if (kind == "u32")
		return integer<std::uint32_t>(spec, value);
	if (kind == "u64")
		return integer<std::uint64_t>(spec, value);
	if (kind == "s32")
		return signed_integer<std::int32_t>(spec, value);
	if (kind == "string") {
		std::vector<std::uint8_t> payload(value.begin(), value.end());
		payload.push_back(0);
		return payload;
	}
	if (kind == "binary-hex" || kind == "nested")
		return from_hex(spec, value);
	if (kind == "flag") {
		if (!value.empty())
			invalid(spec, "a flag takes no value");
		return {};
	}
	invalid(spec, "unknown kind \"" + std::string(kind) +
			      "\" (u8, u16, u32, u64, s32, string, binary-hex, nested, flag)");
}

/* Whether the @len bytes at @head are attributes and nothing else. */
bool is_attr_stream(const nlattr *head, int len)
{
	const nlattr *nla;
	int rem;
	nla_for_each_attr(nla, head, len, rem) {
	}
	return rem == 0;
}

/* A line for each attribute of the @len bytes at @head, nested ones followed by theirs, indented. */
void describe_attrs(const nlattr *head, int len, const std::string &indent,
		    std::vector<std::string> &lines)
{
	const nlattr *nla;
	int rem;
	nla_for_each_attr(nla, head, len, rem) {
		const int type = nla_type(nla);
		const nl::AttrSpec *spec = nl::attr_spec(type);
		const auto size = static_cast<std::size_t>(nla_len(nla));
		const std::string line = indent + "attr type=" + std::to_string(type) +
					 " name=" + (spec ? std::string(spec->name) : "unknown") +
					 " len=" + std::to_string(size);
		const auto *inner = static_cast<const nlattr *>(nla_data(nla));

		if (spec && spec->type == nl::AttrType::nested && is_attr_stream(inner, nla_len(nla))) {
			lines.push_back(line + " nested");
			describe_attrs(inner, nla_len(nla), indent + "  ", lines);
		} else if (auto value = spec ? decode(*nla, *spec) : std::nullopt) {
			lines.push_back(line + " value=" + *value);
		} else {
			lines.push_back(line + " hex=" +
					to_hex(static_cast<const std::uint8_t *>(nla_data(nla)), size));
		}
	}
}

} // namespace

RawAttr parse_raw_attr(std::string_view spec)
{
	const std::size_t first = spec.find(':');
	if (first == std::string_view::npos)
		invalid(spec, "expected TYPE:KIND[:VALUE]");
	const std::size_t second = spec.find(':', first + 1);
	const std::string_view kind = spec.substr(first + 1, second - (first + 1));
	const std::string_view value =
		second == std::string_view::npos ? std::string_view() : spec.substr(second + 1);

	std::uint16_t type = parse_type(spec, spec.substr(0, first));
	if (kind == "nested")
		type |= NLA_F_NESTED;
	return {type, payload_of(spec, kind, value)};
}

std::vector<std::string> describe_reply(nl_msg &msg)
{
	nlmsghdr *nlh = nlmsg_hdr(&msg);
	if (!genlmsg_valid_hdr(nlh, 0))
		return {"reply truncated len=" + std::to_string(nlh->nlmsg_len)};

	const genlmsghdr *gnlh = genlmsg_hdr(nlh);
	std::vector<std::string> lines{"reply cmd=" + std::to_string(gnlh->cmd) +
				       " version=" + std::to_string(gnlh->version)};
	describe_attrs(genlmsg_attrdata(gnlh, 0), genlmsg_attrlen(gnlh, 0), "", lines);
	return lines;
}

} // namespace rdmablk::tool
