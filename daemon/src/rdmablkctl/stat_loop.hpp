// SPDX-License-Identifier: GPL-2.0
/*
 * rdmablkctl stat: rdmablkd's status, asked for every interval, and the
 * rates between two answers printed as they come.
 */
#pragma once

#include <ostream>

#include "ctl/client.hpp"
#include "outcome.hpp"

namespace rdmablk::rdmablkctl {

/*
 * Send invocation.request (status) on @client now and after each
 * invocation.interval, and write to @out, flushed, the report of the
 * rates over each interval (stat.hpp): under -o json one line, else a
 * table, reports a blank line apart. Ends after invocation.count reports
 * (0: never), or at SIGINT or SIGTERM, with exit 0; or with the error
 * that ends any other command: rdmablkd unreachable, or refusing the
 * request, such as for a DEVICE that is not attached. A DEVICE that goes
 * away later is only left out of the reports until it is back.
 */
Outcome stat_loop(const Invocation &invocation, ctl::Client &client, std::ostream &out);

} // namespace rdmablk::rdmablkctl
