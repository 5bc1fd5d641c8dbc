// SPDX-License-Identifier: GPL-2.0
/*
 * rdmablk-nl attach, detach, dev-list, dev-show, dev-set, reconnect,
 * path-add, path-del, path-set: initiator devices, /dev/rdmablkN, and
 * their paths.
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
	nl::DevSetArgs settings;       /* the module's defaults where not given */
	std::string key_file;	       /* empty: do not authenticate */
	std::string target_key_file;   /* empty: the target need not prove itself */
};

std::optional<std::uint32_t> given(std::uint32_t value)
{
	return value ? std::optional(value) : std::nullopt;
}

/* "/dev/rdmablkN": what attach and path-add print. */
void print_dev_path(const nl::Device &dev)
{
	std::cout << "/dev/" << dev.name << '\n';
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
		.reconnect_delay = args.settings.reconnect_delay,
		.ctrl_loss_tmo = args.settings.ctrl_loss_tmo,
		.fast_io_fail_tmo = args.settings.fast_io_fail_tmo,
		.keepalive_tmo = args.settings.keepalive_tmo,
		.mp_policy = args.settings.mp_policy,
		.key = key ? key->secret() : std::span<const std::uint8_t>{},
		.target_key = target_key ? target_key->secret() : std::span<const std::uint8_t>{},
	};
	print_dev_path(nl::Client::connect().attach(request));
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
	nl::DevSetArgs settings;
	std::string key_file;	     /* empty: the keys stay */
	std::string target_key_file; /* empty: none */
};

int run_dev_set(const DevSetOptions &args)
{
	std::optional<auth::Key> key, target_key;
	nl::DevSetArgs request = args.settings;
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

/* A path of a device: DEV ADDR[:PORT], and how it is to be used. */
struct PathOptions {
	std::string dev;
	EndpointArgs target;
	bool standby = false;
	bool active = false; /* path-set only */
};

/* The path @args names, with @standby. */
nl::PathArgs path_of(const PathOptions &args, std::optional<bool> standby)
{
	return {.index = nl::parse_dev_index(args.dev),
		.target = endpoint_of(args.target),
		.standby = standby};
}

/* Each works the path out before connecting: a usage error needs no module. */
int run_path_add(const PathOptions &args)
{
	const nl::PathArgs path =
		path_of(args, args.standby ? std::optional(true) : std::nullopt);
	print_dev_path(nl::Client::connect().path_add(path));
	return 0;
}

int run_path_del(const PathOptions &args)
{
	const nl::PathArgs path = path_of(args, std::nullopt);
	nl::Client::connect().path_del(path);
	return 0;
}

int run_path_set(const PathOptions &args)
{
	const nl::PathArgs path = path_of(args, args.standby);
	if (!args.standby && !args.active)
		throw UsageError("give --standby or --active");
	nl::Client::connect().path_set(path);
	return 0;
}

/* Have subcommand @sub, when the command line names it, select @run on @args. */
template <typename Args, typename Run>
void select_on(CLI::App &sub, Action &selected, std::shared_ptr<Args> args, Run run)
{
	sub.callback([&selected, args, run] { selected = [args, run] { return run(*args); }; });
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
	add_timeout_args(*sub, args->settings);
	add_policy_arg(*sub, args->settings.mp_policy);
	add_key_args(*sub, args->key_file, args->target_key_file);
	select_on(*sub, selected, args, run_attach);
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
	CLI::App *sub = app.add_subcommand("dev-show",
					   "Print a device's details as KEY=VALUE lines, then one "
					   "line per queue and per path");
	add_dev_arg(*sub, *dev);
	select_on(*sub, selected, dev, run_dev_show);
}

void add_dev_set(CLI::App &app, Action &selected)
{
	auto args = std::make_shared<DevSetOptions>();
	CLI::App *sub = app.add_subcommand("dev-set",
					   "Change a device's recovery settings or path policy, or "
					   "its keys for the next connections");
	add_dev_arg(*sub, args->dev);
	add_timeout_args(*sub, args->settings);
	add_policy_arg(*sub, args->settings.mp_policy);
	add_key_args(*sub, args->key_file, args->target_key_file);
	select_on(*sub, selected, args, run_dev_set);
}

/* Subcommand @name about a path of a device, DEV ADDR[:PORT], stored in @args. */
CLI::App *add_path_command(CLI::App &app, const std::string &name, const std::string &help,
			   PathOptions &args)
{
	CLI::App *sub = app.add_subcommand(name, help);
	add_dev_arg(*sub, args.dev);
	add_endpoint_args(*sub, args.target, "The path's target address");
	return sub;
}

constexpr const char *standby_help = "Use the path only while no other path is live";

void add_paths(CLI::App &app, Action &selected)
{
	auto add = std::make_shared<PathOptions>();
	CLI::App *sub = add_path_command(
		app, "path-add", "Add a path to a device; prints /dev/rdmablkN", *add);
	sub->add_flag("--standby", add->standby, standby_help);
	select_on(*sub, selected, add, run_path_add);

	auto del = std::make_shared<PathOptions>();
	sub = add_path_command(app, "path-del",
			       "Remove a path of a device; its requests go to the others", *del);
	select_on(*sub, selected, del, run_path_del);

	auto set = std::make_shared<PathOptions>();
	sub = add_path_command(app, "path-set", "Mark a path of a device standby or active", *set);
	CLI::Option *standby = sub->add_flag("--standby", set->standby, standby_help);
	sub->add_flag("--active", set->active, "Use the path like the others")->excludes(standby);
	select_on(*sub, selected, set, run_path_set);
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
	add_paths(app, selected);
}

} // namespace rdmablk::tool
