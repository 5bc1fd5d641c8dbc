// SPDX-License-Identifier: GPL-2.0
/*
 * How a run ends: the daemon's response, or the failure to get one, as
 * output, one error line and an exit status.
 */
#pragma once

#include <string>
#include <system_error>

#include "ctl/protocol.hpp"
#include "outcome.hpp"

namespace rdmablk::rdmablkctl {

/*
 * The exit status for error.code: not-found, exists, busy,
 * permission-denied and unreachable have their own (outcome.hpp), any
 * other is exit_failed.
 */
int exit_code_for(const ctl::ErrorInfo &error);

/* "<message>[; <hint>]" on one line. */
std::string error_line(const ctl::ErrorInfo &error);

/* The response to @invocation's request, printed as it asked. */
Outcome render(const Invocation &invocation, const ctl::Response &response);

/* connect() to @socket failed with @error. */
Outcome cannot_reach(const std::string &socket, std::error_code error);

/* The request was sent (or sending it failed) but no response came: @error. */
Outcome no_answer(const Invocation &invocation, std::error_code error);

/* The answer was not a protocol response. */
Outcome bad_answer(const std::string &what);

/*
 * @outcome for -o json: a failure becomes the control socket's error
 * object, {"ok": false, "error": {"code", "message", "hint"[, "errno"]}},
 * on stdout, and nothing on stderr. Success is left as it is. With
 * @one_line the object is one line, as the events before it (monitor).
 */
Outcome as_json(Outcome outcome, bool one_line = false);

} // namespace rdmablk::rdmablkctl
