// SPDX-License-Identifier: GPL-2.0
/*
 * rdmablk-nl: a thin command line over the rdmablk generic netlink family,
 * for test scripts. Exit status: 0 success, 1 failure (one line on stderr),
 * 2 usage error, 3 monitor timeout.
 */
#include <exception>
#include <iostream>

#include "commands.hpp"
#include "nl/error.hpp"

namespace {

constexpr const char *prog = "rdmablk-nl";

int fail(int status, const char *what)
{
	std::cerr << prog << ": " << what << '\n';
	return status;
}

} // namespace

int main(int argc, char **argv)
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

	try {
		app.parse(argc, argv);
	} catch (const CLI::ParseError &e) {
		if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success))
			return app.exit(e);
		return fail(2, e.what());
	}

	try {
		return selected();
	} catch (const UsageError &e) {
		return fail(2, e.what());
	} catch (const std::exception &e) {
		return fail(1, e.what());
	}
}
