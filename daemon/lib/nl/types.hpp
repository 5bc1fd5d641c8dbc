// SPDX-License-Identifier: GPL-2.0
/*
 * What rdmablk.ko tells userspace, as plain values.
 */
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "nl/endpoint.hpp"

namespace rdmablk::nl {

/* RDMABLK_CMD_GET_INFO reply. */
struct Info {
	std::string module_version;
	std::uint32_t genl_version = 0;
	std::uint32_t proto_version = 0;
	std::uint64_t features = 0; /* RDMABLK_FEAT_* */

	bool operator==(const Info &) const = default;
};

/* One RDMABLK_CMD_LISTEN_GET dump entry. */
struct Listener {
	std::string addr;
	std::uint16_t port = 0;
	std::uint32_t state = 0; /* enum rdmablk_listener_state */

	bool operator==(const Listener &) const = default;
};

/* An RDMABLK_CMD_EVENT notification. */
struct Event {
	std::uint32_t type = 0; /* enum rdmablk_event */
	/* The listener concerned, for listener events. */
	std::optional<Endpoint> listener;

	bool operator==(const Event &) const = default;
};

} // namespace rdmablk::nl
