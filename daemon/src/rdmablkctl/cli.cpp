// SPDX-License-Identifier: GPL-2.0
#include "cli.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <stdexcept>

#include "args.hpp"
#include "commands.hpp"

namespace rdmablk::rdmablkctl {

namespace {

/* The deepest command selected on the command line ("export" of "export add"). */
const CLI::App &selected_command(const CLI::App &app)
{
	const CLI::App *sub = &app;
	while (!sub->get_subcommands().empty())
		sub = sub->get_subcommands().front();
	return *sub;
}

/* "rdmablkctl export add": the commands selected on the command line. */
std::string command_path(const CLI::App &app)
{
	std::string path = app.get_name();
	for (const CLI::App *sub = &app; sub != &selected_command(app);) {
		sub = sub->get_subcommands().front();
		path += " " + sub->get_name();
	}
	return path;
}

/* What CLI11 found wrong, with a word about unknown commands. */
std::string parse_problem(const CLI::App &app, const CLI::ParseError &e)
{
	const CLI::App &command = selected_command(app);
	const std::vector<std::string> rest = app.remaining(true);
	if (command.get_require_subcommand_min() > 0 && !rest.empty() &&
	    !rest.front().starts_with('-'))
		return "unknown command \"" + rest.front() + "\"";
	return e.what();
}

std::string usage_message(std::string message, const std::string &command)
{
	/* CLI11 capitalises its messages; keep acronyms as they are. */
	if (message.size() > 1 && !std::isupper(static_cast<unsigned char>(message[1])))
		message[0] =
			static_cast<char>(std::tolower(static_cast<unsigned char>(message[0])));
	std::replace(message.begin(), message.end(), '\n', ' ');
	return message + "; see '" + command + " --help'";
}

Outcome usage(std::string message)
{
	ctl::ErrorInfo info{"usage", message, {}, {}};
	return Outcome{exit_usage, {}, std::move(message), std::move(info)};
}

} // namespace

std::variant<Invocation, Outcome> parse_args(const std::vector<std::string> &args,
					     const std::string &default_socket)
{
	CLI::App app("Control rdmablkd: export block devices over RDMA and attach them.",
		     "rdmablkctl");
	Raw raw;
	add_common(app, raw);
	app.set_version_flag("--version", "rdmablkctl " RDMABLKCTL_VERSION,
			     "Print rdmablkctl's version and exit");
	app.require_subcommand(1);
	const std::vector<Command> commands = add_commands(app, raw);

	try {
		std::vector<std::string> reversed(args.rbegin(), args.rend());
		app.parse(reversed);
	} catch (const CLI::CallForHelp &e) {
		std::ostringstream out, err;
		app.exit(e, out, err);
		return Outcome{exit_ok, out.str(), {}, {}};
	} catch (const CLI::CallForVersion &e) {
		std::ostringstream out, err;
		app.exit(e, out, err);
		return Outcome{exit_ok, out.str(), {}, {}};
	} catch (const CLI::ParseError &e) {
		return usage(usage_message(parse_problem(app, e), command_path(app)));
	}

	try {
		Invocation invocation;
		invocation.output = raw.output == "json" ? Output::json : Output::text;
		invocation.socket = raw.socket.empty() ? default_socket : raw.socket;
		if (!raw.timeout.empty())
			invocation.timeout = std::chrono::seconds(
				integer_arg("--timeout", raw.timeout, 1, 24 * 3600));
		for (const Command &cmd : commands) {
			if (cmd.app->parsed()) {
				invocation.request = cmd.request(raw);
				invocation.mode = cmd.mode;
				/* Only monitor and stat have these options. */
				if (!raw.count.empty())
					invocation.count = static_cast<std::uint64_t>(
						integer_arg("--count", raw.count, 1, 1LL << 40));
				if (!raw.interval.empty())
					invocation.interval = interval_arg("--interval", raw.interval);
				invocation.per_queue = raw.per_queue;
				return invocation;
			}
		}
		return usage(usage_message("a subcommand is required", command_path(app)));
	} catch (const std::invalid_argument &e) {
		return usage(e.what());
	}
}

std::vector<std::string> completions(const std::vector<std::string> &before)
{
	CLI::App app("", "rdmablkctl");
	Raw raw;
	add_common(app, raw);
	add_commands(app, raw);

	/* The deepest command the words name; other words are arguments. */
	const CLI::App *at = &app;
	for (const std::string &word : before) {
		for (const CLI::App *sub : at->get_subcommands({})) {
			if (sub->get_name() == word) {
				at = sub;
				break;
			}
		}
	}
	std::vector<std::string> out;
	for (const CLI::App *sub : at->get_subcommands({}))
		out.push_back(sub->get_name());
	for (const CLI::Option *opt : at->get_options()) {
		for (const std::string &name : opt->get_lnames())
			out.push_back("--" + name);
	}
	if (at == &app)
		out.push_back("--version");
	return out;
}

bool asks_for_json(const std::vector<std::string> &args)
{
	for (std::size_t i = 0; i < args.size(); i++) {
		const std::string &a = args[i];
		if (a == "--output=json" || a == "-ojson")
			return true;
		if ((a == "-o" || a == "--output") && i + 1 < args.size() && args[i + 1] == "json")
			return true;
	}
	return false;
}

} // namespace rdmablk::rdmablkctl
