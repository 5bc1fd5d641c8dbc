// SPDX-License-Identifier: GPL-2.0
/*
 * Stable names for rdmablk enum values, as tools print them.
 */
#pragma once

#include <cstdint>
#include <string>

namespace rdmablk::nl {

/* "listener-added" for RDMABLK_EVENT_LISTENER_ADDED; "unknown-N" for values this build lacks. */
std::string event_name(std::uint32_t event);

/* "listening" for RDMABLK_LISTENER_LISTENING; "unknown-N" for values this build lacks. */
std::string listener_state_name(std::uint32_t state);

/* "live" for RDMABLK_DEV_LIVE; "unknown-N" for values this build lacks. */
std::string dev_state_name(std::uint32_t state);

/* "live" for RDMABLK_QUEUE_LIVE; "unknown-N" for values this build lacks. */
std::string queue_state_name(std::uint32_t state);

/* "host" for RDMABLK_AUTH_MODE_HOST; "unknown-N" for values this build lacks. */
std::string auth_mode_name(std::uint32_t mode);

} // namespace rdmablk::nl
