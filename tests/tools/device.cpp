// SPDX-License-Identifier: GPL-2.0
/*
 * rdmablk-nl attach, detach, dev-list, dev-show, dev-set, reconnect:
 * initiator devices, /dev/rdmablkN.
 */
#include <cstdint>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "auth/key.hpp"
#include "commands.hpp"
#include "format.hpp"
#include "nl/client.hpp"
#include "nl/dev_name.hpp"
#include "nl/hostid.hpp"
#include "nl/uuid.hpp"
#include "options.hpp"

namespace rdmablk::tool {

namespace {

struct AttachOptions {
	EndpointArgs target;
	std::string export_name;
	std::uint32_t nr_queues = 0;   /* 0: the module's default */
	std::uint32_t nr_poll_queues = 0;
	std::uint32_t queue_depth = 0; /* 0: the module's default */
	std::string hostid;	       /* empty: read_hostid() */
	nl::DevSetArgs timeouts;       /* the module's defaults where not given */
	std::string key_file;	       /* empty: do not authenticate */
	std::string target_key_file;   /* empty: the target need not prove itself */
};

std::optional<std::uint32_t> given(std::uint32_t value)
{
	return value ? std::optional(value) : std::nullopt;
}

int run_attach(const AttachOptions &args)
{
	std::optional<auth::Key> key, target_key;
	if (!args.key_file.empty())
		key = auth::read_key_file(args.key_file);
	if (!args.target_key_file.empty())
		target_key = auth::read_key_file(args.target_key_file);
	const nl::AttachArgs request{
		.target = endpoint_of(args.target),
		.export_name = args.export_name,
		.hostid = args.hostid.empty() ? nl::read_hostid() : nl::parse_uuid(args.hostid),
		.nr_queues = given(args.nr_queues),
		.nr_poll_queues = given(args.nr_poll_queues),
		.queue_depth = given(args.queue_depth),
		.reconnect_delay = args.timeouts.reconnect_delay,
		.ctrl_loss_tmo = args.timeouts.ctrl_loss_tmo,
		.fast_io_fail_tmo = args.timeouts.fast_io_fail_tmo,
		.keepalive_tmo = args.timeouts.keepalive_tmo,
		.key = key ? key->secret() : std::span<const std::uint8_t>{},
		.target_key = target_key ? target_key->secret() : std::span<const std::uint8_t>{},
	};
	const nl::Device dev = nl::Client::connect().attach(request);
	std::cout << "/dev/" << dev.name << '\n';
	return 0;
}

int run_dev_list()
{
	for (const nl::Device &dev : nl::Client::connect().dev_get())
		std::cout << format_device(dev) << '\n';
	return 0;
}

int run_dev_show(const std::string &name)
{
	const std::uint32_t index = nl::parse_dev_index(name);
	for (const nl::Device &dev : nl::Client::connect().dev_get()) {
		if (dev.index == index) {
			std::cout << format_device_details(dev) << '\n';
			return 0;
		}
	}
	throw std::runtime_error("no device rdmablk" + std::to_string(index));
}

struct DevSetOptions {
	std::string dev;
	nl::DevSetArgs timeouts;
	std::string key_file;	     /* empty: the keys stay */
	std::string target_key_file; /* empty: none */
};

int run_dev_set(const DevSetOptions &args)
{
	std::optional<auth::Key> key, target_key;
	nl::DevSetArgs request = args.timeouts;
	if (!args.key_file.empty()) {
		key = auth::read_key_file(args.key_file);
		request.key = key->secret();
	}
	if (!args.target_key_file.empty()) {
		target_key = auth::read_key_file(args.target_key_file);
		request.target_key = target_key->secret();
	}
	nl::Client::connect().dev_set(nl::parse_dev_index(args.dev), request);
	return 0;
}

/* Register --key-file and --target-key-file on @sub. */
void add_key_args(CLI::App &sub, std::string &key_file, std::string &target_key_file)
{
	CLI::Option *key = sub.add_option(
		"--key-file", key_file,
		"Authenticate with the key in this file (RDMABLK-1:..., mode 0600)");
	sub.add_option("--target-key-file", target_key_file,
		       "Have the target prove it holds the key in this file (needs --key-file)")
		->needs(key);
}

/* Register positional DEV, "N, rdmablkN or /dev/rdmablkN", on @sub, stored in @dev. */
void add_dev_arg(CLI::App &sub, std::string &dev)
{
	sub.add_option("DEV", dev, "N, rdmablkN or /dev/rdmablkN")
		->required()
		->check(parsed_by(nl::parse_dev_index));
}

void add_attach(CLI::App &app, Action &selected)
{
	auto args = std::make_shared<AttachOptions>();
	CLI::App *sub =
		app.add_subcommand("attach", "Attach a remote export; prints /dev/rdmablkN");
	add_endpoint_args(*sub, args->target, "The target's IPv4 or IPv6 address");
	sub->add_option("NAME", args->export_name, "Export name")->required();
	sub->add_option("-q,--queues", args->nr_queues,
			"I/O queues (default: one per CPU, capped by the target)")
		->type_name("N")
		->check(CLI::Range(1, RDMABLK_MAX_QUEUES));
	sub->add_option("--poll-queues", args->nr_poll_queues,
			"Polled queues besides those (default 0)")
		->type_name("N")
		->check(CLI::Range(0, RDMABLK_MAX_QUEUES - 1));
	sub->add_option("-d,--queue-depth", args->queue_depth,
			"Commands in flight per queue (default " +
				std::to_string(RDMABLK_DEFAULT_QUEUE_DEPTH) +
				", capped by the target)")
		->type_name("N")
		->check(CLI::Range(1, RDMABLK_MAX_QUEUE_DEPTH));
	sub->add_option("--hostid", args->hostid,
			std::string("This host's UUID (default: from ") + nl::hostid_path +
				", else " + nl::machine_id_path + ")")
		->type_name("UUID")
		->check(parsed_by(nl::parse_uuid));
	add_timeout_args(*sub, args->timeouts);
	add_key_args(*sub, args->key_file, args->target_key_file);
	sub->callback([&selected, args] { selected = [args] { return run_attach(*args); }; });
}

/* Subcommand @name, about one device, running @run with its index. */
void add_dev_command(CLI::App &app, Action &selected, const std::string &name,
		     const std::string &help, void (nl::Client::*run)(std::uint32_t))
{
	auto dev = std::make_shared<std::string>();
	CLI::App *sub = app.add_subcommand(name, help);
	add_dev_arg(*sub, *dev);
	sub->callback([&selected, dev, run] {
		selected = [dev, run] {
			(nl::Client::connect().*run)(nl::parse_dev_index(*dev));
			return 0;
		};
	});
}

void add_dev_show(CLI::App &app, Action &selected)
{
	auto dev = std::make_shared<std::string>();
	CLI::App *sub = app.add_subcommand(
		"dev-show", "Print a device's details as KEY=VALUE lines, then one line per queue");
	add_dev_arg(*sub, *dev);
	sub->callback([&selected, dev] { selected = [dev] { return run_dev_show(*dev); }; });
}

void add_dev_set(CLI::App &app, Action &selected)
{
	auto args = std::make_shared<DevSetOptions>();
	CLI::App *sub = app.add_subcommand(
		"dev-set", "Change a device's recovery settings, or its keys for the next connections");
	add_dev_arg(*sub, args->dev);
	add_timeout_args(*sub, args->timeouts);
	add_key_args(*sub, args->key_file, args->target_key_file);
	sub->callback([&selected, args] { selected = [args] { return run_dev_set(*args); }; });
}

} // namespace

void add_device(CLI::App &app, Action &selected)
{
	add_attach(app, selected);
	add_dev_command(app, selected, "detach", "Detach a device", &nl::Client::detach);
	add_dev_command(app, selected, "reconnect",
			"Have a reconnecting or dead device try to reconnect now",
			&nl::Client::reconnect);
	app.add_subcommand("dev-list", "Print the devices: rdmablkN ADDR PORT NAME UUID SIZE LBS "
				       "PBS ro|rw QUEUES QDEPTH STATE, one a line")
		->callback([&selected] { selected = run_dev_list; });
	add_dev_show(app, selected);
	add_dev_set(app, selected);
}

} // namespace rdmablk::tool
