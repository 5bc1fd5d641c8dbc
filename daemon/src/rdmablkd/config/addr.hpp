// SPDX-License-Identifier: GPL-2.0
/*
 * Comparing the addresses users write with the ones the kernel reports:
 * "2001:db8::1" and "2001:0db8:0::1" name the same listener.
 */
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "nl/endpoint.hpp"

namespace rdmablk::daemon {

/*
 * @text in one canonical form (inet_ntop of its bytes, the "%scope" kept
 * as written), or nullopt when it is not an IPv4 or IPv6 literal.
 */
std::optional<std::string> canonical_address(std::string_view text);

/* Both name the same address (canonically) and port. */
bool same_endpoint(const nl::Endpoint &a, const nl::Endpoint &b);

} // namespace rdmablk::daemon
