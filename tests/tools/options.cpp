// SPDX-License-Identifier: GPL-2.0
#include "options.hpp"

#include "commands.hpp"
#include "nl/names.hpp"

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

void add_timeout_args(CLI::App &sub, nl::DevSetArgs &args)
{
	const auto module_default = [](int seconds) {
		return " (module default " + std::to_string(seconds) + ")";
	};
	sub.add_option("--reconnect-delay", args.reconnect_delay,
		       "Seconds between reconnect attempts" +
			       module_default(RDMABLK_DEFAULT_RECONNECT_DELAY))
		->type_name("S")
		->check(CLI::Range(1, RDMABLK_MAX_TMO));
	sub.add_option("--ctrl-loss-tmo", args.ctrl_loss_tmo,
		       "Seconds of reconnecting before giving up, -1: never" +
			       module_default(RDMABLK_DEFAULT_CTRL_LOSS_TMO))
		->type_name("S")
		->check(CLI::Range(RDMABLK_TMO_OFF, RDMABLK_MAX_TMO));
	sub.add_option("--fast-io-fail-tmo", args.fast_io_fail_tmo,
		       "Seconds of reconnecting after which I/O fails, -1: off" +
			       module_default(RDMABLK_TMO_OFF))
		->type_name("S")
		->check(CLI::Range(RDMABLK_TMO_OFF, RDMABLK_MAX_TMO));
	sub.add_option("--keepalive-tmo", args.keepalive_tmo,
		       "Seconds after which a silent target is dead" +
			       module_default(RDMABLK_DEFAULT_KEEPALIVE_TMO))
		->type_name("S")
		->check(CLI::Range(1, RDMABLK_MAX_TMO));
}

void add_policy_arg(CLI::App &sub, std::optional<std::uint32_t> &policy)
{
	sub.add_option_function<std::string>(
		   "--policy",
		   [&policy](const std::string &name) { policy = nl::parse_mp_policy(name); },
		   "Which live path each request goes on: queue-depth (fewest in flight, the "
		   "module's default), round-robin or min-latency")
		->type_name("POLICY")
		->check(parsed_by(nl::parse_mp_policy));
}

} // namespace rdmablk::tool
