// SPDX-License-Identifier: GPL-2.0
/*
 * rdmablkctl monitor: the kernel's events as rdmablkd sees them, one line
 * each as they happen.
 */
#pragma once

#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "ctl/client.hpp"
#include "outcome.hpp"

namespace rdmablk::rdmablkctl {

/*
 * Send the monitor request on @client, then write each event to @out as
 * it arrives, flushed: under -o json the event object on one line, else
 * "TIME event TYPE key=value...". Ends after invocation.count events
 * (0: never), or with exit 3 when rdmablkd closes the connection.
 */
Outcome monitor(const Invocation &invocation, ctl::Client &client, std::ostream &out);

/* One event as monitor() writes it, without the '\n'. */
std::string monitor_line(const nlohmann::json &event, Output output);

} // namespace rdmablk::rdmablkctl
