// SPDX-License-Identifier: GPL-2.0
/*
 * rdmablkctl's commands and options as CLI11 sees them, each with the
 * request it makes.
 */
#pragma once

#include <functional>
#include <vector>

#include <CLI/CLI.hpp>

#include "ctl/protocol.hpp"
#include "outcome.hpp"
#include "raw.hpp"

namespace rdmablk::rdmablkctl {

/*
 * A command that can be run, how to build its request (throws
 * std::invalid_argument) and what is done with it.
 */
struct Command {
	CLI::App *app;
	std::function<ctl::Request(const Raw &)> request;
	Mode mode = Mode::once;
};

/* -o, --socket, --timeout and the exit status epilog, on @app. */
void add_common(CLI::App &app, Raw &raw);

/* Every command under @app, storing what is given in @raw. */
std::vector<Command> add_commands(CLI::App &app, Raw &raw);

} // namespace rdmablk::rdmablkctl
