// SPDX-License-Identifier: GPL-2.0
/*
 * rdmablk-nl info: what the loaded module is.
 */
#include <iostream>

#include "commands.hpp"
#include "nl/client.hpp"

namespace rdmablk::tool {

namespace {

int run_info()
{
	const nl::Info info = nl::Client::connect().get_info();
	std::cout << "module_version=" << info.module_version << '\n'
		  << "genl_version=" << info.genl_version << '\n'
		  << "proto_version=" << info.proto_version << '\n'
		  << "features=0x" << std::hex << info.features << std::dec << '\n';
	return 0;
}

} // namespace

void add_info(CLI::App &app, Action &selected)
{
	app.add_subcommand("info", "Print the module's version and features")
		->callback([&selected] { selected = run_info; });
}

} // namespace rdmablk::tool
