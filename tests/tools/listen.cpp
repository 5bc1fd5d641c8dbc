// SPDX-License-Identifier: GPL-2.0
/*
 * rdmablk-nl listen-add, listen-del, listen-list: target listeners.
 */
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>

#include "commands.hpp"
#include "nl/client.hpp"
#include "nl/names.hpp"

namespace rdmablk::tool {

namespace {

struct EndpointArgs {
	std::string addr;
	std::uint16_t port = 0; /* 0: not given */
};

/* The listener ADDR[:PORT] and --port name together. */
nl::Endpoint endpoint_of(const EndpointArgs &args)
{
	nl::AddrPort parsed = nl::parse_addr_port(args.addr);
	if (parsed.port && args.port)
		throw UsageError("\"" + args.addr + "\" already gives a port; drop --port");
	const std::uint16_t port =
		parsed.port.value_or(args.port ? args.port : RDMABLK_DEFAULT_PORT);
	return {std::move(parsed.addr), port};
}

/* Register subcommand @name taking ADDR[:PORT] [--port P], running @run on the endpoint. */
void add_endpoint_command(CLI::App &app, Action &selected, const char *name,
			  const char *description, void (nl::Client::*run)(const nl::Endpoint &))
{
	const CLI::Validator addr_check(
		[](std::string &text) -> std::string {
			try {
				nl::parse_addr_port(text);
				return {};
			} catch (const std::invalid_argument &e) {
				return e.what();
			}
		},
		"");

	auto args = std::make_shared<EndpointArgs>();
	CLI::App *sub = app.add_subcommand(name, description);
	sub->add_option("ADDR", args->addr,
			"IPv4 or IPv6 address, optionally with :PORT ([IPv6]:PORT)")
		->required()
		->type_name("ADDR[:PORT]")
		->check(addr_check);
	sub->add_option("-p,--port", args->port,
			"rdma_cm port, when ADDR has none (default " +
				std::to_string(RDMABLK_DEFAULT_PORT) + ")")
		->type_name("PORT")
		->check(CLI::Range(1, 65535));
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
	for (const nl::Listener &l : nl::Client::connect().listen_get())
		std::cout << l.addr << ' ' << l.port << ' ' << nl::listener_state_name(l.state)
			  << '\n';
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
