// SPDX-License-Identifier: GPL-2.0
/*
 * The rdmablk attribute space (enum rdmablk_attr) as userspace sees it:
 * what each attribute holds, and validated access to a message's attributes.
 */
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <linux/rdmablk.h>

#include "nl/uuid.hpp"

struct nl_msg;
struct nlattr;

namespace rdmablk::nl {

/* How an attribute's payload is encoded. */
enum class AttrType : std::uint8_t {
	binary, /* opaque bytes */
	flag,   /* no payload: present or not */
	u8,
	u16,
	u32,
	u64,
	s32,
	string, /* NUL-terminated */
	nested, /* a stream of attributes of this same space, maybe empty */
};

struct AttrSpec {
	std::string_view name; /* the enumerator without its RDMABLK_ATTR_ prefix */
	AttrType type;
	/* string: longest payload, NUL included; binary: exact size; 0: no limit */
	std::uint16_t len;
};

/* The description of attribute @type; nullptr for UNSPEC and types this build does not know. */
const AttrSpec *attr_spec(unsigned int type) noexcept;

/* The attribute called @name ("PORT", case-insensitive), or nullopt. */
std::optional<std::uint16_t> attr_by_name(std::string_view name) noexcept;

/*
 * The attributes of a generic netlink message from rdmablk.ko, checked
 * against the userspace policy: a known attribute of the wrong size, an
 * unterminated or too long string, or a message whose command is not the one
 * expected, is a MalformedMessage naming the culprit. Attributes newer than
 * this build are ignored.
 *
 * Attrs points into the message, which must outlive it.
 */
class Attrs {
public:
	/* @what names the message in errors, e.g. "GET_INFO reply". */
	Attrs(nl_msg &msg, std::uint8_t expected_cmd, std::string_view what);

	/* The value of a mandatory attribute; MalformedMessage when it is absent. */
	std::string string(rdmablk_attr type) const;
	std::uint8_t u8(rdmablk_attr type) const;
	std::uint16_t u16(rdmablk_attr type) const;
	std::uint32_t u32(rdmablk_attr type) const;
	std::uint64_t u64(rdmablk_attr type) const;
	std::int32_t s32(rdmablk_attr type) const;
	/* A binary attribute of RDMABLK_UUID_SIZE bytes. */
	Uuid uuid(rdmablk_attr type) const;

	/* The value of an optional attribute, or nullopt when it is absent. */
	std::optional<std::string> optional_string(rdmablk_attr type) const;
	std::optional<std::uint32_t> optional_u32(rdmablk_attr type) const;
	std::optional<std::uint64_t> optional_u64(rdmablk_attr type) const;
	std::optional<std::int32_t> optional_s32(rdmablk_attr type) const;

	/* Whether flag attribute @type is present. */
	bool flag(rdmablk_attr type) const;

	/*
	 * The elements of nested attribute @type: every @element attribute
	 * inside it, in order, each checked like a message's attributes; none
	 * when @type is absent. Other attributes inside are ignored, bytes left
	 * over after the last are malformed. nests() wants nested elements and
	 * gives their attributes, uuids() wants RDMABLK_UUID_SIZE binary ones.
	 */
	std::vector<Attrs> nests(rdmablk_attr type, rdmablk_attr element) const;
	std::vector<Uuid> uuids(rdmablk_attr type, rdmablk_attr element) const;

	/* MalformedMessage about this message. */
	[[noreturn]] void fail(std::string_view problem) const;

private:
	/* The attributes nested in @nest, described as @what in errors. */
	Attrs(const nlattr &nest, std::string_view what);

	/* Parse and validate the @len bytes of attributes at @head into tb_. */
	void parse(nlattr *head, int len);
	void check_type(rdmablk_attr type, AttrType as) const;
	const nlattr &require(rdmablk_attr type, AttrType as) const;
	std::vector<const nlattr *> elements(rdmablk_attr type, rdmablk_attr element,
					     AttrType as) const;

	std::string what_;
	std::array<nlattr *, RDMABLK_ATTR_MAX + 1> tb_{};
};

} // namespace rdmablk::nl
