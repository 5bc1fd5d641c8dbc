// SPDX-License-Identifier: GPL-2.0
/*
 * Stable names for rdmablk enum values, as tools print them.
 */
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

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

/* "queue-depth" for RDMABLK_MP_QUEUE_DEPTH; "unknown-N" for values this build lacks. */
std::string mp_policy_name(std::uint32_t policy);

/*
 * The enum rdmablk_mp_policy value mp_policy_name() gives @text for.
 * Throws std::invalid_argument with a message that quotes @text and lists
 * the names.
 */
std::uint32_t parse_mp_policy(std::string_view text);

} // namespace rdmablk::nl
