// SPDX-License-Identifier: GPL-2.0
#include "options.hpp"

#include "commands.hpp"

namespace rdmablk::tool {

void add_endpoint_args(CLI::App &sub, EndpointArgs &args, const std::string &what)
{
	sub.add_option("ADDR", args.addr, what + ", optionally with :PORT ([IPv6]:PORT)")
		->required()
		->type_name("ADDR[:PORT]")
		->check(parsed_by(nl::parse_addr_port));
	sub.add_option("-p,--port", args.port,
		       "rdma_cm port, when ADDR has none (default " +
			       std::to_string(RDMABLK_DEFAULT_PORT) + ")")
		->type_name("PORT")
		->check(CLI::Range(1, 65535));
}

nl::Endpoint endpoint_of(const EndpointArgs &args)
{
	nl::AddrPort parsed = nl::parse_addr_port(args.addr);
	if (parsed.port && args.port)
		throw UsageError("\"" + args.addr + "\" already gives a port; drop --port");
	const std::uint16_t port =
		parsed.port.value_or(args.port ? args.port : RDMABLK_DEFAULT_PORT);
	return {std::move(parsed.addr), port};
}

} // namespace rdmablk::tool
