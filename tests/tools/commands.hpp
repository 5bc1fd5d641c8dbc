// SPDX-License-Identifier: GPL-2.0
/*
 * rdmablk-nl subcommands. Each add_*() registers its subcommands on the
 * parser; the one the command line names stores its action in @selected,
 * which main() runs once parsing is done.
 */
#pragma once

#include <functional>
#include <stdexcept>

#include <CLI/CLI.hpp>

namespace rdmablk::tool {

/* A subcommand's action; returns the exit status. */
using Action = std::function<int()>;

/* A command line that parses but makes no sense: exit status 2. */
struct UsageError : std::runtime_error {
	using std::runtime_error::runtime_error;
};

/* monitor saw fewer events than asked for before its timeout: status 3. */
struct TimedOut : std::runtime_error {
	using std::runtime_error::runtime_error;
};

/*
 * Set while "rdmablk-nl batch" runs its lines: standard input is the
 * batch's, and no command of it may read it (raw --batch).
 */
inline bool in_batch = false;

void add_info(CLI::App &app, Action &selected);
void add_listen(CLI::App &app, Action &selected);
void add_export(CLI::App &app, Action &selected);
void add_device(CLI::App &app, Action &selected);
void add_host(CLI::App &app, Action &selected);
void add_monitor(CLI::App &app, Action &selected);
void add_raw(CLI::App &app, Action &selected);

} // namespace rdmablk::tool
