// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel events as log records. The message is one line,
 *
 *   event device-state dev=rdmablk0 target=192.0.2.1:7471 export=db0
 *         state=reconnecting attempt=3/60 reason="keep-alive timeout"
 *
 * (on one line), and the journal fields carry the same: RDMABLK_EVENT,
 * RDMABLK_DEVICE, RDMABLK_TARGET, RDMABLK_EXPORT, RDMABLK_LISTENER,
 * RDMABLK_UUID, RDMABLK_STATE, RDMABLK_ATTEMPT, RDMABLK_ATTEMPT_MAX,
 * RDMABLK_LAST_ERROR, RDMABLK_REASON, each when the event has it.
 */
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "log.hpp"
#include "nl/types.hpp"

namespace rdmablk::daemon {

LogRecord event_record(const nl::Event &event);

/*
 * @event for a monitor (rdmablkctl monitor): {"type": "device-state",
 * "message": the log line, and each word of the line as a string member:
 * "dev", "target", "export", "state", "attempt", "reason", ...}.
 */
nlohmann::json event_json(const nl::Event &event);

/* @value as is, or in double quotes (\ and " escaped) when empty or holding blanks or quotes. */
std::string quote_value(std::string_view value);

} // namespace rdmablk::daemon
