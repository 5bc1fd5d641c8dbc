// SPDX-License-Identifier: GPL-2.0
/*
 * UUIDs as rdmablk uses them: export identities (RDMABLK_ATTR_UUID) and
 * host identities (RDMABLK_ATTR_HOSTID), written in the canonical
 * "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" form.
 */
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include <linux/rdmablk_proto.h>

namespace rdmablk::nl {

struct Uuid {
	std::array<std::uint8_t, RDMABLK_UUID_SIZE> bytes{};

	bool operator==(const Uuid &) const = default;
};

/* Lowercase canonical text: "0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0". */
std::string to_string(const Uuid &uuid);

/*
 * Parse the canonical 36-character form, hex digits in either case. Throws
 * std::invalid_argument with a message that quotes @text and says what is wrong.
 */
Uuid parse_uuid(std::string_view text);

/* @uuid with its version set to 4 (random) and its variant to RFC 4122. */
Uuid with_v4_bits(Uuid uuid);

/* A new random (version 4) UUID from /dev/urandom; throws Error when it cannot be read. */
Uuid generate_uuid();

} // namespace rdmablk::nl
