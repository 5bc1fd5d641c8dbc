// SPDX-License-Identifier: GPL-2.0
/*
 * rdmablk-nl: a thin command line over the rdmablk generic netlink family,
 * for test scripts. Exit status: 0 success, 1 failure (one line on stderr),
 * 2 usage error, 3 monitor timeout.
 *
 * "rdmablk-nl batch" runs the commands of its standard input, one command
 * line a line (words split at white space, no quoting; empty lines and lines
 * starting with '#' skipped), in this one process, and stops at the first
 * that fails, with that command's status and its one line prefixed with
 * "line N: ". Under TCG a process start costs a test a third of a second:
 * a test making 64 sessions makes hundreds of requests. (raw --batch is
 * another contract: raw requests only, one status line each, on to the end;
 * it reads standard input, so not inside a batch.)
 */
#include <exception>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "nl/error.hpp"

namespace {

constexpr const char *prog = "rdmablk-nl";

int fail(int status, const std::string &where, const char *what)
{
	std::cerr << prog << ": " << where << what << '\n';
	return status;
}

/* One command: ARGS without the program's name; WHERE prefixes its error. */
int run(const std::vector<std::string> &args, const std::string &where, bool batch_allowed)
{
	using namespace rdmablk::tool;

	CLI::App app("Drive the rdmablk generic netlink family.", prog);
	app.require_subcommand(1);

	Action selected;
	add_info(app, selected);
	add_listen(app, selected);
	add_export(app, selected);
	add_device(app, selected);
	add_host(app, selected);
	add_monitor(app, selected);
	add_raw(app, selected);
	bool batch = false;
	if (batch_allowed)
		app.add_subcommand("batch", "Run the commands of standard input, one a line, in this process")
			->callback([&batch] { batch = true; });

	std::vector<const char *> argv{prog};
	for (const auto &a : args)
		argv.push_back(a.c_str());
	try {
		app.parse(static_cast<int>(argv.size()), argv.data());
	} catch (const CLI::ParseError &e) {
		if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success))
			return app.exit(e);
		return fail(2, where, e.what());
	}

	if (batch) {
		std::string line;
		in_batch = true;
		for (unsigned n = 1; std::getline(std::cin, line); n++) {
			std::istringstream words(line);
			const std::vector<std::string> cmd{std::istream_iterator<std::string>(words), {}};
			if (cmd.empty() || cmd.front().front() == '#')
				continue;
			const int status = run(cmd, "line " + std::to_string(n) + ": ", false);
			std::cout.flush();
			if (status)
				return status;
		}
		if (std::cin.bad())
			return fail(1, where, "reading the batch from standard input failed");
		return 0;
	}

	try {
		return selected();
	} catch (const UsageError &e) {
		return fail(2, where, e.what());
	} catch (const TimedOut &e) {
		return fail(3, where, e.what());
	} catch (const std::exception &e) {
		return fail(1, where, e.what());
	}
}

} // namespace

int main(int argc, char **argv)
{
	return run(std::vector<std::string>(argv + 1, argv + argc), "", true);
}
