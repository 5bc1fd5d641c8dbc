// SPDX-License-Identifier: GPL-2.0
#include "nl/names.hpp"

#include <array>
#include <stdexcept>
#include <string_view>

#include <linux/rdmablk.h>

namespace rdmablk::nl {

namespace {

struct Name {
	std::uint32_t value;
	std::string_view name;
};

constexpr std::array events{
	Name{RDMABLK_EVENT_UNSPEC, "unspec"},
	Name{RDMABLK_EVENT_LISTENER_ADDED, "listener-added"},
	Name{RDMABLK_EVENT_LISTENER_REMOVED, "listener-removed"},
	Name{RDMABLK_EVENT_EXPORT_ADDED, "export-added"},
	Name{RDMABLK_EVENT_EXPORT_REMOVED, "export-removed"},
	Name{RDMABLK_EVENT_DEVICE_ATTACHED, "device-attached"},
	Name{RDMABLK_EVENT_DEVICE_DETACHED, "device-detached"},
	Name{RDMABLK_EVENT_DEVICE_STATE, "device-state"},
	Name{RDMABLK_EVENT_DEVICE_RESIZED, "device-resized"},
	Name{RDMABLK_EVENT_PATH_ADDED, "path-added"},
	Name{RDMABLK_EVENT_PATH_REMOVED, "path-removed"},
	Name{RDMABLK_EVENT_PATH_STATE, "path-state"},
	Name{RDMABLK_EVENT_PATH_FAILOVER, "path-failover"},
};

constexpr bool names_every_event()
{
	if (events.size() != RDMABLK_EVENT_MAX + 1)
		return false;
	for (std::uint32_t event = 0; event < events.size(); event++)
		if (events[event].value != event)
			return false;
	return true;
}
static_assert(names_every_event(), "name every enum rdmablk_event value, in order");

constexpr std::array listener_states{
	Name{RDMABLK_LISTENER_LISTENING, "listening"},
	Name{RDMABLK_LISTENER_DEVICE_GONE, "device-gone"},
};

constexpr std::array dev_states{
	Name{RDMABLK_DEV_LIVE, "live"},
	Name{RDMABLK_DEV_DEAD, "dead"},
	Name{RDMABLK_DEV_DELETING, "deleting"},
	Name{RDMABLK_DEV_RECONNECTING, "reconnecting"},
};

constexpr std::array queue_states{
	Name{RDMABLK_QUEUE_LIVE, "live"},
	Name{RDMABLK_QUEUE_DOWN, "down"},
};

constexpr std::array auth_modes{
	Name{RDMABLK_AUTH_MODE_NONE, "none"},
	Name{RDMABLK_AUTH_MODE_HOST, "host"},
	Name{RDMABLK_AUTH_MODE_MUTUAL, "mutual"},
};

constexpr std::array mp_policies{
	Name{RDMABLK_MP_QUEUE_DEPTH, "queue-depth"},
	Name{RDMABLK_MP_ROUND_ROBIN, "round-robin"},
	Name{RDMABLK_MP_MIN_LATENCY, "min-latency"},
};
static_assert(mp_policies.size() == __RDMABLK_MP_MAX - RDMABLK_MP_QUEUE_DEPTH,
	      "name every enum rdmablk_mp_policy value");

template <std::size_t N> std::string lookup(const std::array<Name, N> &names, std::uint32_t value)
{
	for (const Name &n : names)
		if (n.value == value)
			return std::string(n.name);
	return "unknown-" + std::to_string(value);
}

} // namespace

std::string event_name(std::uint32_t event)
{
	return lookup(events, event);
}

std::string listener_state_name(std::uint32_t state)
{
	return lookup(listener_states, state);
}

std::string dev_state_name(std::uint32_t state)
{
	return lookup(dev_states, state);
}

std::string queue_state_name(std::uint32_t state)
{
	return lookup(queue_states, state);
}

std::string auth_mode_name(std::uint32_t mode)
{
	return lookup(auth_modes, mode);
}

std::string mp_policy_name(std::uint32_t policy)
{
	return lookup(mp_policies, policy);
}

std::uint32_t parse_mp_policy(std::string_view text)
{
	for (const Name &n : mp_policies)
		if (n.name == text)
			return n.value;
	throw std::invalid_argument("invalid policy \"" + std::string(text) +
				    "\": expected queue-depth, round-robin or min-latency");
}

} // namespace rdmablk::nl
