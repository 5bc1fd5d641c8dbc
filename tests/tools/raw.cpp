// SPDX-License-Identifier: GPL-2.0
/*
 * rdmablk-nl raw: send any request, well-formed or not, and print what
 * comes back. For testing how the module treats unknown commands, unknown
 * attributes and malformed values.
 *
 * rdmablk-nl raw --batch: the same for many requests, one a line of stdin,
 * in one process (a process start costs a second in a debug guest).
 */
#include <exception>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "nl/client.hpp"
#include "nl/requests.hpp"
#include "options.hpp"
#include "raw_attr.hpp"

namespace rdmablk::tool {

namespace {

struct RawArgs {
	unsigned int cmd = 0;
	std::vector<std::string> attrs;
	bool dump = false;
	bool batch = false;
};

/* Send one request; its replies' lines, or what the client throws. */
std::vector<std::string> send_raw(const RawArgs &args)
{
	std::vector<RawAttr> attrs;
	for (const std::string &spec : args.attrs)
		attrs.push_back(parse_raw_attr(spec));

	nl::Client client = nl::Client::connect();
	const nl::Msg msg = nl::build_request(client.family(), static_cast<std::uint8_t>(args.cmd),
					      args.dump ? NLM_F_DUMP : NLM_F_ACK);
	for (const RawAttr &attr : attrs)
		nl::put_attr(*msg, attr.type, attr.payload.data(), attr.payload.size());

	std::vector<std::string> lines;
	for (const nl::Msg &reply : client.request(*msg, "command " + std::to_string(args.cmd)))
		for (std::string &line : describe_reply(*reply))
			lines.push_back(std::move(line));
	return lines;
}

/* "CMD [--dump] [TYPE:KIND[:VALUE]]...", as on the command line. */
RawArgs parse_batch_line(const std::string &line)
{
	std::istringstream words(line);
	std::string word;
	RawArgs args;

	if (!(words >> word))
		throw UsageError("empty request line");
	try {
		std::size_t end = 0;
		args.cmd = static_cast<unsigned int>(std::stoul(word, &end, 0));
		if (end != word.size() || args.cmd > 255)
			throw std::out_of_range(word);
	} catch (const std::logic_error &) {
		throw UsageError("not a command number 0-255: " + word);
	}
	while (words >> word) {
		if (word == "--dump")
			args.dump = true;
		else
			args.attrs.push_back(word);
	}
	return args;
}

/*
 * One line of output per line of stdin, in order: "0 LINE | LINE..." with
 * the replies when the kernel accepted the request, "1 rdmablk-nl: ERROR"
 * when it refused it (what the single request prints on stderr), "2 ..."
 * for a line that does not parse. Exit status 0 once stdin is read.
 */
int run_batch()
{
	std::string line;

	while (std::getline(std::cin, line)) {
		int status = 0;
		std::string out;

		try {
			for (const std::string &reply : send_raw(parse_batch_line(line)))
				out += (out.empty() ? "" : " | ") + reply;
		} catch (const UsageError &e) {
			status = 2;
			out = std::string("rdmablk-nl: ") + e.what();
		} catch (const std::invalid_argument &e) {
			status = 2;
			out = std::string("rdmablk-nl: ") + e.what();
		} catch (const std::exception &e) {
			status = 1;
			out = std::string("rdmablk-nl: ") + e.what();
		}
		std::cout << status << ' ' << out << '\n' << std::flush;
	}
	return 0;
}

int run_raw(const RawArgs &args)
{
	if (args.batch) {
		if (in_batch)
			throw UsageError("raw --batch reads standard input, which is the batch's");
		if (args.dump || !args.attrs.empty())
			throw UsageError("--batch reads its requests from stdin; no --attr or --dump");
		return run_batch();
	}
	for (const std::string &line : send_raw(args))
		std::cout << line << '\n';
	return 0;
}

} // namespace

void add_raw(CLI::App &app, Action &selected)
{
	auto args = std::make_shared<RawArgs>();
	CLI::App *sub = app.add_subcommand("raw", "Send an arbitrary request and print the replies");
	CLI::Option *cmd = sub->add_option("--cmd", args->cmd, "Generic netlink command number")
				   ->type_name("N")
				   ->check(CLI::Range(0, 255));
	sub->add_option("--attr", args->attrs,
			"Attribute TYPE:KIND[:VALUE]; TYPE a number or name (PORT), KIND one of "
			"u8 u16 u32 u64 s32 string binary-hex nested (hex payload) flag; "
			"repeatable")
		->type_name("TYPE:KIND[:VALUE]")
		->check(parsed_by(parse_raw_attr));
	sub->add_flag("--dump", args->dump, "Send a dump request (NLM_F_DUMP)");
	CLI::Option *batch = sub->add_flag(
		"--batch", args->batch,
		"Read requests from stdin, one a line (\"CMD [--dump] [TYPE:KIND[:VALUE]]...\"); "
		"print one line for each: \"STATUS OUTPUT\", STATUS 0 accepted, 1 refused, "
		"2 a line that does not parse");
	batch->excludes(cmd);
	sub->callback([&selected, args, cmd] {
		if (!args->batch && !cmd->count())
			throw CLI::RequiredError("--cmd (or --batch)");
		selected = [args] { return run_raw(*args); };
	});
}

} // namespace rdmablk::tool
