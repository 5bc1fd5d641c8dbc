// SPDX-License-Identifier: GPL-2.0
/*
 * Sending the request to rdmablkd and waiting for its answer.
 */
#pragma once

#include "outcome.hpp"

namespace rdmablk::rdmablkctl {

/*
 * Connect to invocation.socket, send the request, render the response; or,
 * for a command of Mode::local, carry it out here (local.hpp).
 */
Outcome run(const Invocation &invocation);

} // namespace rdmablk::rdmablkctl
