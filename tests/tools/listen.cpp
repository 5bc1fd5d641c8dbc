// SPDX-License-Identifier: GPL-2.0
/*
 * rdmablk-nl listen-add, listen-del, listen-list: target listeners.
 */
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "format.hpp"
#include "nl/client.hpp"
#include "options.hpp"

namespace rdmablk::tool {

namespace {

/* Register subcommand @name taking ADDR[:PORT] [--port P], running @run on the endpoint. */
void add_endpoint_command(CLI::App &app, Action &selected, const char *name,
			  const char *description, void (nl::Client::*run)(const nl::Endpoint &))
{
	auto args = std::make_shared<EndpointArgs>();
	CLI::App *sub = app.add_subcommand(name, description);
	add_endpoint_args(*sub, *args, "IPv4 or IPv6 address");
	sub->callback([&selected, args, run] {
		selected = [args, run] {
			const nl::Endpoint endpoint = endpoint_of(*args);
			(nl::Client::connect().*run)(endpoint);
			return 0;
		};
	});
}

int run_list()
{
	for (const nl::Listener &listener : nl::Client::connect().listen_get())
		std::cout << format_listener(listener) << '\n';
	return 0;
}

} // namespace

void add_listen(CLI::App &app, Action &selected)
{
	add_endpoint_command(app, selected, "listen-add", "Start a target listener",
			     &nl::Client::listen_add);
	add_endpoint_command(app, selected, "listen-del", "Stop a target listener",
			     &nl::Client::listen_del);
	app.add_subcommand("listen-list", "Print the listeners: ADDR PORT STATE, one a line")
		->callback([&selected] { selected = run_list; });
}

} // namespace rdmablk::tool
