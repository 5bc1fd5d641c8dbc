// SPDX-License-Identifier: GPL-2.0
#include "commands.hpp"

#include "requests.hpp"

namespace rdmablk::rdmablkctl {

namespace {

constexpr const char *exit_status_help =
	"Exit status: 0 success; 1 the operation failed (rdmablkd or the kernel said no);\n"
	"2 usage error; 3 cannot reach rdmablkd; 4 not found.\n"
	"The control socket is $RDMABLK_SOCKET, else /run/rdmablk/rdmablkd.sock.";

CLI::App *command(CLI::App &parent, const char *name, const char *description, Raw &raw)
{
	CLI::App *sub = parent.add_subcommand(name, description);
	add_common(*sub, raw);
	return sub;
}

void add_endpoint(CLI::App &sub, Raw &raw, const char *what)
{
	sub.add_option("ADDR[:PORT]", raw.endpoint, what)->required()->type_name("");
}

} // namespace

/* The options every command takes, wherever on the line they appear. */
void add_common(CLI::App &app, Raw &raw)
{
	app.add_option("-o,--output", raw.output, "Output format: text (default) or json")
		->check(CLI::IsMember({"text", "json"}))
		->type_name("FORMAT");
	app.add_option("--socket", raw.socket, "rdmablkd's control socket")->type_name("PATH");
	app.add_option("--timeout", raw.timeout,
		       "Seconds to wait for rdmablkd's answer (default 120)")
		->type_name("SEC");
	app.footer(exit_status_help);
}

std::vector<Command> add_commands(CLI::App &app, Raw &raw)
{
	std::vector<Command> commands;

	CLI::App *listen = command(app, "listen", "Accept initiators on ADDR[:PORT] (target)", raw);
	add_endpoint(*listen, raw, "Local IPv4 or IPv6 address ([addr]:port), port default 7471");
	commands.push_back({listen, listen_request});

	CLI::App *unlisten = command(app, "unlisten", "Stop listening on ADDR[:PORT]", raw);
	add_endpoint(*unlisten, raw, "The address given to 'listen'");
	commands.push_back({unlisten, unlisten_request});

	CLI::App *exports =
		command(app, "export", "Manage the block devices this host exports", raw);
	exports->require_subcommand(1);

	CLI::App *add = command(*exports, "add", "Export the block device PATH as NAME", raw);
	add->add_option("NAME", raw.name, "Export name: letters, digits, . _ : -")
		->required()
		->type_name("");
	add->add_option("PATH", raw.path, "Block device to export, e.g. /dev/vg0/db0")
		->required()
		->type_name("");
	add->add_flag("--read-only", raw.read_only, "Refuse writes");
	add->add_option("--allow", raw.allow,
			"Host id that may attach (repeatable; default: any host)")
		->type_name("HOSTID")
		->allow_extra_args(false);
	add->add_option("--uuid", raw.uuid, "The export's identity (default: generated)")
		->type_name("UUID");
	commands.push_back({add, export_add_request});

	CLI::App *del =
		command(*exports, "del", "Stop exporting NAME, closing its connections", raw);
	del->add_option("NAME", raw.name, "Export name")->required()->type_name("");
	commands.push_back({del, export_del_request});

	CLI::App *list_exports = command(*exports, "list", "List exports", raw);
	commands.push_back({list_exports, without_args("export_list")});

	CLI::App *discover =
		command(app, "discover",
			"List the exports the target at ADDR[:PORT] offers this host", raw);
	add_endpoint(*discover, raw, "The target's address ([addr]:port), port default 7471");
	commands.push_back({discover, discover_request});

	CLI::App *attach =
		command(app, "attach",
			"Attach export NAME of the target at ADDR[:PORT]; prints the device", raw);
	add_endpoint(*attach, raw, "The target's address ([addr]:port), port default 7471");
	attach->add_option("NAME", raw.name, "Export name on the target")
		->required()
		->type_name("");
	attach->add_option("--queues", raw.queues, "I/O queues (default: one per CPU)")
		->type_name("N");
	attach->add_option("--queue-depth", raw.queue_depth, "Commands per queue (default 128)")
		->type_name("N");
	attach->add_option("--reconnect-delay", raw.reconnect_delay,
			   "Seconds between reconnect attempts (default 10)")
		->type_name("SEC");
	attach->add_option("--ctrl-loss-tmo", raw.ctrl_loss_tmo,
			   "Seconds of reconnecting before giving up (default 600, -1 never)")
		->type_name("SEC");
	attach->add_option("--fast-io-fail-tmo", raw.fast_io_fail_tmo,
			   "Seconds of reconnecting before I/O fails (default -1, off)")
		->type_name("SEC");
	attach->add_option("--keepalive-tmo", raw.keepalive_tmo,
			   "Seconds of silence after which the target is dead (default 5)")
		->type_name("SEC");
	commands.push_back({attach, attach_request});

	CLI::App *detach =
		command(app, "detach", "Detach a device: DEVICE, or ADDR[:PORT] NAME", raw);
	detach->add_option("DEVICE|ADDR[:PORT]", raw.device,
			   "/dev/rdmablkN, rdmablkN or N; or the target's address")
		->required()
		->type_name("");
	detach->add_option("NAME", raw.name, "Export name on the target, after its address")
		->type_name("");
	commands.push_back({detach, detach_request});

	CLI::App *list = command(app, "list", "List attached devices", raw);
	commands.push_back({list, without_args("list")});

	CLI::App *status =
		command(app, "status", "Show queues, I/O and recovery state of devices", raw);
	status->add_option("DEVICE", raw.device, "/dev/rdmablkN, rdmablkN or N (default: all)")
		->type_name("");
	commands.push_back({status, status_request});

	CLI::App *hostid =
		command(app, "hostid", "Print this host's id (for 'export add --allow')", raw);
	commands.push_back({hostid, without_args("hostid")});

	return commands;
}

} // namespace rdmablk::rdmablkctl
