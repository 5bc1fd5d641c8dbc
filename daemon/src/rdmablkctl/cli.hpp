// SPDX-License-Identifier: GPL-2.0
/*
 * The command line: argv to the request rdmablkd is sent, checked before
 * any connection is made.
 */
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "outcome.hpp"

namespace rdmablk::rdmablkctl {

/*
 * @args (without the program name) as an Invocation, or the Outcome to end
 * with at once: --help or --version (exit 0) or a usage error (exit 2, code
 * "usage"). @default_socket is the socket used unless --socket says
 * otherwise.
 */
std::variant<Invocation, Outcome> parse_args(const std::vector<std::string> &args,
					     const std::string &default_socket);

/* Whether @args ask for -o json, even when they do not parse otherwise. */
bool asks_for_json(const std::vector<std::string> &args);

/*
 * For shell completion: after the words @before (the command line up to
 * the word being completed, without the program name), the commands and
 * long options that may come next, from the same command table the
 * parser uses. "rdmablkctl __complete WORD..." prints them, one a line.
 */
std::vector<std::string> completions(const std::vector<std::string> &before);

} // namespace rdmablk::rdmablkctl
