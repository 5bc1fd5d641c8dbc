// SPDX-License-Identifier: GPL-2.0
/*
 * rdmablk-nl export-add, export-del, export-list: what a target serves.
 */
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "format.hpp"
#include "nl/client.hpp"
#include "nl/uuid.hpp"
#include "options.hpp"

namespace rdmablk::tool {

namespace {

struct ExportAddArgs {
	std::string name;
	std::string path;
	std::string uuid; /* empty: generate one */
	bool read_only = false;
	bool auth_required = false;
	std::vector<std::string> allowed_hosts; /* empty: every host */
};

int run_export_add(const ExportAddArgs &args)
{
	const nl::Uuid uuid = args.uuid.empty() ? nl::generate_uuid() : nl::parse_uuid(args.uuid);
	std::vector<nl::Uuid> allowed_hosts;
	for (const std::string &host : args.allowed_hosts)
		allowed_hosts.push_back(nl::parse_uuid(host));
	nl::Client::connect().export_add(args.name, args.path, uuid, args.read_only, allowed_hosts,
					 args.auth_required);
	std::cout << args.name << ' ' << nl::to_string(uuid) << '\n';
	return 0;
}

int run_export_list()
{
	for (const nl::Export &exp : nl::Client::connect().export_get())
		std::cout << format_export(exp) << '\n';
	return 0;
}

void add_export_add(CLI::App &app, Action &selected)
{
	auto args = std::make_shared<ExportAddArgs>();
	CLI::App *sub = app.add_subcommand(
		"export-add", "Export a block device; prints NAME UUID");
	sub->add_option("NAME", args->name, "Export name: [A-Za-z0-9._:-]")->required();
	sub->add_option("PATH", args->path, "Block device to export, e.g. /dev/nullb0")
		->required();
	sub->add_option("-u,--uuid", args->uuid, "The export's UUID (default: a new random one)")
		->type_name("UUID")
		->check(parsed_by(nl::parse_uuid));
	sub->add_flag("-r,--read-only", args->read_only, "Refuse writes");
	sub->add_flag("--auth-required", args->auth_required,
		      "Only hosts that authenticate (host-set) may open it or see it listed");
	sub->add_option("--allow", args->allowed_hosts,
			"Let host HOSTID connect; repeatable (default: every host may)")
		->type_name("HOSTID")
		->expected(1)
		->allow_extra_args(false)
		->take_all()
		->check(parsed_by(nl::parse_uuid));
	sub->callback([&selected, args] { selected = [args] { return run_export_add(*args); }; });
}

void add_export_del(CLI::App &app, Action &selected)
{
	auto name = std::make_shared<std::string>();
	CLI::App *sub = app.add_subcommand("export-del", "Stop exporting, closing its connections");
	sub->add_option("NAME", *name, "Export name")->required();
	sub->callback([&selected, name] {
		selected = [name] {
			nl::Client::connect().export_del(*name);
			return 0;
		};
	});
}

} // namespace

void add_export(CLI::App &app, Action &selected)
{
	add_export_add(app, selected);
	add_export_del(app, selected);
	app.add_subcommand("export-list", "Print the exports: NAME PATH UUID SIZE LBS PBS ro|rw "
					  "CONNS HOSTS|- auth|open, one a line")
		->callback([&selected] { selected = run_export_list; });
}

} // namespace rdmablk::tool
