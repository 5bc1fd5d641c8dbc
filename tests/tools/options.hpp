// SPDX-License-Identifier: GPL-2.0
/*
 * Command line pieces several rdmablk-nl subcommands share.
 */
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include <CLI/CLI.hpp>

#include "nl/endpoint.hpp"
#include "nl/requests.hpp"

namespace rdmablk::tool {

/*
 * A validator accepting the text @parse accepts; the message of the
 * std::invalid_argument it throws otherwise is the usage error.
 */
template <typename Parse> CLI::Validator parsed_by(Parse parse)
{
	return CLI::Validator(
		[parse](std::string &text) -> std::string {
			try {
				parse(text);
				return {};
			} catch (const std::invalid_argument &e) {
				return e.what();
			}
		},
		"");
}

/* An ADDR[:PORT] positional and a --port option, as given. */
struct EndpointArgs {
	std::string addr;
	std::uint16_t port = 0; /* 0: not given */
};

/*
 * Register ADDR[:PORT] and --port on @sub, stored in @args, which must live
 * as long as @sub; @what says whose address it is.
 */
void add_endpoint_args(CLI::App &sub, EndpointArgs &args, const std::string &what);

/* ADDR[:PORT] and --port together; UsageError when both give a port. */
nl::Endpoint endpoint_of(const EndpointArgs &args);

/*
 * Register --reconnect-delay, --ctrl-loss-tmo, --fast-io-fail-tmo and
 * --keepalive-tmo (seconds; -1 turns the two timeouts off) on @sub, stored
 * in @args, which must live as long as @sub.
 */
void add_timeout_args(CLI::App &sub, nl::DevSetArgs &args);

/*
 * Register --policy queue-depth|round-robin|min-latency on @sub, stored in
 * @policy as its enum rdmablk_mp_policy value; @policy must live as long
 * as @sub.
 */
void add_policy_arg(CLI::App &sub, std::optional<std::uint32_t> &policy);

} // namespace rdmablk::tool
