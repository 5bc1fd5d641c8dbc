// SPDX-License-Identifier: GPL-2.0
/*
 * Sending the request to rdmablkd and waiting for its answer.
 */
#pragma once

#include "outcome.hpp"

namespace rdmablk::rdmablkctl {

/* Connect to invocation.socket, send the request, render the response. */
Outcome run(const Invocation &invocation);

} // namespace rdmablk::rdmablkctl
