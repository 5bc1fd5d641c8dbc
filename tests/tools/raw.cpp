// SPDX-License-Identifier: GPL-2.0
/*
 * rdmablk-nl raw: send any request, well-formed or not, and print what
 * comes back. For testing how the module treats unknown commands, unknown
 * attributes and malformed values.
 */
#include <iostream>
#include <memory>
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
};

int run_raw(const RawArgs &args)
{
	std::vector<RawAttr> attrs;
	for (const std::string &spec : args.attrs)
		attrs.push_back(parse_raw_attr(spec));

	nl::Client client = nl::Client::connect();
	const nl::Msg msg = nl::build_request(client.family(), static_cast<std::uint8_t>(args.cmd),
					      args.dump ? NLM_F_DUMP : NLM_F_ACK);
	for (const RawAttr &attr : attrs)
		nl::put_attr(*msg, attr.type, attr.payload.data(), attr.payload.size());

	for (const nl::Msg &reply : client.request(*msg, "command " + std::to_string(args.cmd)))
		for (const std::string &line : describe_reply(*reply))
			std::cout << line << '\n';
	return 0;
}

} // namespace

void add_raw(CLI::App &app, Action &selected)
{
	auto args = std::make_shared<RawArgs>();
	CLI::App *sub = app.add_subcommand("raw", "Send an arbitrary request and print the replies");
	sub->add_option("--cmd", args->cmd, "Generic netlink command number")
		->type_name("N")
		->required()
		->check(CLI::Range(0, 255));
	sub->add_option("--attr", args->attrs,
			"Attribute TYPE:KIND[:VALUE]; TYPE a number or name (PORT), KIND one of "
			"u8 u16 u32 u64 s32 string binary-hex nested (hex payload) flag; "
			"repeatable")
		->type_name("TYPE:KIND[:VALUE]")
		->check(parsed_by(parse_raw_attr));
	sub->add_flag("--dump", args->dump, "Send a dump request (NLM_F_DUMP)");
	sub->callback([&selected, args] { selected = [args] { return run_raw(*args); }; });
}

} // namespace rdmablk::tool
