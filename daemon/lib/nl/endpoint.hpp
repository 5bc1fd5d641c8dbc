// SPDX-License-Identifier: GPL-2.0
/*
 * Listener endpoints and the "ADDR[:PORT]" syntax users write them in.
 */
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <linux/rdmablk.h>

namespace rdmablk::nl {

/* An IPv4 or IPv6 literal (IPv6 possibly with "%scope") and an rdma_cm port. */
struct Endpoint {
	std::string addr;
	std::uint16_t port = RDMABLK_DEFAULT_PORT;

	bool operator==(const Endpoint &) const = default;
};

/* "192.0.2.1:7471", "[fe80::1%eth0]:7471". */
std::string to_string(const Endpoint &endpoint);

/* "ADDR[:PORT]" taken apart; port is nullopt when the text gives none. */
struct AddrPort {
	std::string addr;
	std::optional<std::uint16_t> port;

	bool operator==(const AddrPort &) const = default;
};

/*
 * Parse "ADDR[:PORT]": "192.0.2.1", "192.0.2.1:7471", "[2001:db8::1]:7471",
 * "[fe80::1%eth0]", or a bare IPv6 address ("2001:db8::1", "fe80::1%eth0"),
 * which never carries a port. PORT is decimal, 1 to 65535. Throws
 * std::invalid_argument with a message that quotes @text and says what is wrong.
 */
AddrPort parse_addr_port(std::string_view text);

/* parse_addr_port() with the port defaulting to RDMABLK_DEFAULT_PORT. */
Endpoint parse_endpoint(std::string_view text);

/* A decimal port number, 1 to 65535; throws std::invalid_argument otherwise. */
std::uint16_t parse_port(std::string_view text);

} // namespace rdmablk::nl
