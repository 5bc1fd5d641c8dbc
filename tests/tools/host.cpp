// SPDX-License-Identifier: GPL-2.0
/*
 * rdmablk-nl host-set, host-del, host-list: the keys a target holds per
 * host, for authentication. Keys are read from files (RDMABLK-1 key
 * strings, mode 0600), never taken on the command line, never printed.
 */
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "auth/key.hpp"
#include "commands.hpp"
#include "nl/client.hpp"
#include "nl/uuid.hpp"
#include "options.hpp"

namespace rdmablk::tool {

namespace {

struct HostSetArgs {
	std::string hostid;
	std::string key_file;
	std::string target_key_file; /* empty: none */
	bool reauth = false;
};

int run_host_set(const HostSetArgs &args)
{
	const auth::Key key = auth::read_key_file(args.key_file);
	std::optional<auth::Key> target_key;
	if (!args.target_key_file.empty())
		target_key = auth::read_key_file(args.target_key_file);
	nl::Client::connect().host_set(nl::parse_uuid(args.hostid), key.secret(),
				       target_key ? target_key->secret()
						  : std::span<const std::uint8_t>{},
				       args.reauth);
	return 0;
}

/* "sha256" for RDMABLK_AUTH_HMAC_SHA256, "-" for none. */
std::string hmac_name(std::uint32_t hmac)
{
	switch (hmac) {
	case 0:
		return "-";
	case RDMABLK_AUTH_HMAC_SHA256:
	case RDMABLK_AUTH_HMAC_SHA384:
	case RDMABLK_AUTH_HMAC_SHA512:
		return std::string(auth::hash_name(static_cast<auth::Hash>(hmac)));
	default:
		return "unknown-" + std::to_string(hmac);
	}
}

int run_host_list()
{
	for (const nl::Host &host : nl::Client::connect().host_get())
		std::cout << nl::to_string(host.hostid) << ' ' << hmac_name(host.hmac) << ' '
			  << hmac_name(host.target_hmac) << ' ' << host.auth_ok << ' '
			  << host.auth_failed << '\n';
	return 0;
}

void add_host_set(CLI::App &app, Action &selected)
{
	auto args = std::make_shared<HostSetArgs>();
	CLI::App *sub = app.add_subcommand(
		"host-set", "Set the keys a host authenticates with; replaces its former keys");
	sub->add_option("HOSTID", args->hostid, "The host's UUID")
		->required()
		->check(parsed_by(nl::parse_uuid));
	sub->add_option("--key-file", args->key_file,
			"File holding the host's key (RDMABLK-1:..., mode 0600)")
		->required();
	sub->add_flag("--reauth", args->reauth,
		      "Close the host's live connections too: they authenticate again");
	sub->add_option("--target-key-file", args->target_key_file,
			"File holding the key this target proves itself to the host with");
	sub->callback([&selected, args] { selected = [args] { return run_host_set(*args); }; });
}

void add_host_del(CLI::App &app, Action &selected)
{
	auto hostid = std::make_shared<std::string>();
	CLI::App *sub =
		app.add_subcommand("host-del", "Forget a host's keys and close its connections");
	sub->add_option("HOSTID", *hostid, "The host's UUID")
		->required()
		->check(parsed_by(nl::parse_uuid));
	sub->callback([&selected, hostid] {
		selected = [hostid] {
			nl::Client::connect().host_del(nl::parse_uuid(*hostid));
			return 0;
		};
	});
}

} // namespace

void add_host(CLI::App &app, Action &selected)
{
	add_host_set(app, selected);
	add_host_del(app, selected);
	app.add_subcommand("host-list", "Print the hosts with keys: HOSTID HMAC TARGET_HMAC|- "
					"OK FAILED, one a line")
		->callback([&selected] { selected = run_host_list; });
}

} // namespace rdmablk::tool
