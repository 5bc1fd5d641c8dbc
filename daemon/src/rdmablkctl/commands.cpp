// SPDX-License-Identifier: GPL-2.0
#include "commands.hpp"

#include "requests.hpp"

namespace rdmablk::rdmablkctl {

namespace {

constexpr const char *exit_status_help =
	"Exit status: 0 success; 1 the operation failed (rdmablkd or the kernel said no);\n"
	"2 usage error; 3 cannot reach rdmablkd; 4 not found; 5 exists with other settings;\n"
	"6 busy; 7 permission denied; 8 the target or rdmablk.ko cannot be reached.\n"
	"With -o json, an error is printed as JSON on standard output.\n"
	"The control socket is $RDMABLK_SOCKET, else /run/rdmablk/rdmablkd.sock.";

constexpr const char *local_exit_status_help =
	"Carried out by rdmablkctl itself: rdmablkd need not run.\n"
	"Exit status: 0 success; 1 the operation failed; 2 usage error.\n"
	"With -o json, an error is printed as JSON on standard output.";

void add_output(CLI::App &app, Raw &raw)
{
	app.add_option("-o,--output", raw.output, "Output format: text (default) or json")
		->check(CLI::IsMember({"text", "json"}))
		->type_name("FORMAT");
}

CLI::App *command(CLI::App &parent, const char *name, const char *description, Raw &raw)
{
	CLI::App *sub = parent.add_subcommand(name, description);
	add_common(*sub, raw);
	return sub;
}

/* A command of Mode::local: -o, but no --socket or --timeout. */
CLI::App *local_command(CLI::App &parent, const char *name, const char *description, Raw &raw)
{
	CLI::App *sub = parent.add_subcommand(name, description);
	add_output(*sub, raw);
	sub->footer(local_exit_status_help);
	return sub;
}

void add_endpoint(CLI::App &sub, Raw &raw, const char *what)
{
	sub.add_option("ADDR[:PORT]", raw.endpoint, what)->required()->type_name("");
}

/*
 * The settings of a device being attached: attach, discovery add; only
 * the recovery settings, which a running device can change, with
 * @recovery_only (dev-set).
 */
void add_attach_options(CLI::App &sub, Raw &raw, bool recovery_only = false)
{
	const struct {
		const char *flag;
		std::string Raw::*member;
		const char *help;
		const char *type;
	} options[] = {
		{"--queues", &Raw::queues, "I/O queues (default: one per CPU)", "N"},
		{"--poll-queues", &Raw::poll_queues,
		 "Polled queues besides those, for polled I/O (io_uring IOPOLL; default 0)", "N"},
		{"--queue-depth", &Raw::queue_depth, "Commands per queue (default 128)", "N"},
		{"--reconnect-delay", &Raw::reconnect_delay,
		 "Seconds between reconnect attempts (default 10)", "SEC"},
		{"--ctrl-loss-tmo", &Raw::ctrl_loss_tmo,
		 "Seconds of reconnecting before giving up (default 600, -1 never)", "SEC"},
		{"--fast-io-fail-tmo", &Raw::fast_io_fail_tmo,
		 "Seconds of reconnecting before I/O fails (default -1, off)", "SEC"},
		{"--keepalive-tmo", &Raw::keepalive_tmo,
		 "Seconds of silence after which the target is dead (default 5)", "SEC"},
	};
	for (const auto &o : options)
		if (!recovery_only || (o.member != &Raw::queues && o.member != &Raw::poll_queues &&
				       o.member != &Raw::queue_depth))
			sub.add_option(o.flag, raw.*o.member, o.help)->type_name(o.type);
	sub.add_option("--policy", raw.policy,
		       "Which path a request takes: queue-depth (default: the fewest in flight), "
		       "round-robin or min-latency")
		->type_name("POLICY");
}

/* DEVICE ADDR[:PORT]: path add, del, set. */
void add_path_args(CLI::App &sub, Raw &raw)
{
	sub.add_option("DEVICE", raw.device,
		       "/dev/rdmablkN, a link to it such as /dev/rdmablk/NAME, rdmablkN or N")
		->required()
		->type_name("");
	add_endpoint(sub, raw, "The path's target address ([addr]:port), port default 7471");
}

/* --key-file and --target-key-file: host add, attach, discovery add. */
void add_key_files(CLI::App &sub, Raw &raw, const char *key_help, const char *target_help)
{
	sub.add_option("--key-file", raw.key_file, key_help)->type_name("FILE");
	sub.add_option("--target-key-file", raw.target_key_file, target_help)->type_name("FILE");
}

constexpr const char *host_key_help =
	"File holding this host's key (RDMABLK-1:..., mode 0600): authenticate to the target";
constexpr const char *target_key_help =
	"File holding the target's key for this host: the target must prove itself too";

/* DEVICE, or ADDR[:PORT] NAME: detach, reconnect, dev-set. */
void add_device(CLI::App &sub, Raw &raw)
{
	sub.add_option("DEVICE|ADDR[:PORT]", raw.device,
		       "/dev/rdmablkN, a link to it such as /dev/rdmablk/NAME, rdmablkN or "
		       "N; or the target's address")
		->required()
		->type_name("");
	sub.add_option("NAME", raw.name, "Export name on the target, after its address")
		->type_name("");
}

/* [DEVICE]: status, stat. */
void add_status_device(CLI::App &sub, Raw &raw)
{
	sub.add_option("DEVICE", raw.device,
		       "/dev/rdmablkN, a link to it such as /dev/rdmablk/NAME, rdmablkN or N "
		       "(default: all)")
		->type_name("");
}

/* --count N: monitor, stat. */
void add_count(CLI::App &sub, Raw &raw, const char *help)
{
	sub.add_option("--count", raw.count, help)->type_name("N");
}

} // namespace

/* The options every command takes, wherever on the line they appear. */
void add_common(CLI::App &app, Raw &raw)
{
	add_output(app, raw);
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
	add->add_flag("--auth-required", raw.auth_required,
		      "Only hosts that authenticate with a key ('host add') may attach it or "
		      "see it listed");
	commands.push_back({add, export_add_request});

	CLI::App *del =
		command(*exports, "del", "Stop exporting NAME, closing its connections", raw);
	del->add_option("NAME", raw.name, "Export name")->required()->type_name("");
	commands.push_back({del, export_del_request});

	CLI::App *list_exports = command(*exports, "list", "List exports", raw);
	commands.push_back({list_exports, without_args("export_list")});

	CLI::App *hosts = command(
		app, "host", "Manage the keys hosts authenticate with to this target", raw);
	hosts->require_subcommand(1);

	CLI::App *host_add = command(
		*hosts, "add",
		"Have HOSTID authenticate with the key in FILE (again: replace its keys, for "
		"new connections)",
		raw);
	host_add->add_option("HOSTID", raw.hostid, "The host's id ('rdmablkctl hostid' there)")
		->required()
		->type_name("");
	add_key_files(*host_add, raw,
		      "File holding the key the host proves itself with (required)",
		      "File holding the key this target proves itself with, when the host asks");
	host_add->add_flag("--reauth", raw.reauth,
			   "Close the host's open sessions too: its initiators reconnect and "
			   "authenticate with the new keys");
	commands.push_back({host_add, host_add_request});

	CLI::App *host_del = command(
		*hosts, "del", "Forget HOSTID's keys and close its open sessions (revocation)", raw);
	host_del->add_option("HOSTID", raw.hostid, "The host's id")->required()->type_name("");
	commands.push_back({host_del, host_del_request});

	CLI::App *host_list = command(
		*hosts, "list", "List the hosts with keys, and their authentications", raw);
	commands.push_back({host_list, without_args("host_list")});

	CLI::App *discover =
		command(app, "discover",
			"List the exports the target at ADDR[:PORT] offers this host", raw);
	add_endpoint(*discover, raw, "The target's address ([addr]:port), port default 7471");
	add_key_files(*discover, raw,
		      "Authenticate the discovery session with this host's key (FILE holds "
		      "one key, mode 0600): a target that holds a key for this host lists "
		      "nothing without it, and exports with --auth required only with it",
		      "The target must prove itself with this key before its list is believed");
	commands.push_back({discover, discover_request});

	CLI::App *discovery = command(
		app, "discovery",
		"Attach what targets offer, by discovery, as they offer it (autoconnect)", raw);
	discovery->require_subcommand(1);

	CLI::App *disc_add = command(
		*discovery, "add",
		"Keep a discovery session with ADDR[:PORT] and attach what it offers", raw);
	add_endpoint(*disc_add, raw, "The target's address ([addr]:port), port default 7471");
	disc_add->add_option("--attach", raw.attach,
			     "all (default), or an export NAME or UUID (repeatable)")
		->type_name("WHAT")
		->allow_extra_args(false);
	add_attach_options(*disc_add, raw);
	add_key_files(*disc_add, raw, host_key_help, target_key_help);
	commands.push_back({disc_add, discovery_add_request});

	CLI::App *disc_del = command(
		*discovery, "del",
		"Stop discovering at ADDR[:PORT]; what it attached stays attached", raw);
	add_endpoint(*disc_del, raw, "The address given to 'discovery add'");
	commands.push_back({disc_del, discovery_del_request});

	CLI::App *disc_list =
		command(*discovery, "list", "Show each discovery address and what it found", raw);
	commands.push_back({disc_list, without_args("discovery_list")});

	CLI::App *attach =
		command(app, "attach",
			"Attach export NAME of the target at ADDR[:PORT]; prints the device", raw);
	add_endpoint(*attach, raw, "The target's address ([addr]:port), port default 7471");
	attach->add_option("NAME", raw.name, "Export name on the target")
		->required()
		->type_name("");
	add_attach_options(*attach, raw);
	add_key_files(*attach, raw, host_key_help, target_key_help);
	attach->add_option("--path", raw.paths,
			   "Another address of the target: one more path to the export "
			   "(repeatable)")
		->type_name("ADDR[:PORT]")
		->allow_extra_args(false);
	attach->add_option("--standby", raw.standby,
			   "A path used only while no other is live: ADDR[:PORT] or another "
			   "--path (repeatable)")
		->type_name("ADDR[:PORT]")
		->allow_extra_args(false);
	commands.push_back({attach, attach_request});

	CLI::App *detach =
		command(app, "detach", "Detach a device: DEVICE, or ADDR[:PORT] NAME", raw);
	add_device(*detach, raw);
	commands.push_back({detach, detach_request});

	CLI::App *reconnect = command(
		app, "reconnect",
		"Reconnect a device now: one that is reconnecting tries at once, one that gave "
		"up starts again, a live one re-establishes its connections (I/O is requeued)",
		raw);
	add_device(*reconnect, raw);
	commands.push_back({reconnect, reconnect_request});

	CLI::App *dev_set = command(
		app, "dev-set",
		"Change a device's recovery settings or path policy while it runs; a configured "
		"attachment keeps them. A new --keepalive-tmo reconnects a live device",
		raw);
	dev_set->alias("set");
	add_device(*dev_set, raw);
	add_attach_options(*dev_set, raw, true);
	commands.push_back({dev_set, dev_set_request});

	CLI::App *path = command(
		app, "path",
		"Manage the paths of a device: more addresses of its target, used together", raw);
	path->require_subcommand(1);

	CLI::App *path_add = command(
		*path, "add",
		"Add a path to ADDR[:PORT] to DEVICE while it runs; a configured attachment keeps it",
		raw);
	add_path_args(*path_add, raw);
	path_add->add_flag("--standby", raw.standby_flag,
			   "Use the path only while no other path is live");
	commands.push_back({path_add, path_add_request});

	CLI::App *path_del = command(
		*path, "del",
		"Remove DEVICE's path to ADDR[:PORT]; its I/O moves to the other paths (the last "
		"path is not removed: detach the device)",
		raw);
	add_path_args(*path_del, raw);
	commands.push_back({path_del, path_del_request});

	CLI::App *path_set = command(
		*path, "set", "Make DEVICE's path to ADDR[:PORT] standby or active", raw);
	add_path_args(*path_set, raw);
	path_set->add_flag("--standby", raw.standby_flag,
			   "Use it only while no other path is live");
	path_set->add_flag("--active", raw.active_flag, "Use it with the other active paths");
	commands.push_back({path_set, path_set_request});

	CLI::App *list = command(app, "list", "List attached devices", raw);
	commands.push_back({list, without_args("list")});

	CLI::App *status =
		command(app, "status", "Show queues, I/O and recovery state of devices", raw);
	add_status_device(*status, raw);
	commands.push_back({status, status_request});

	CLI::App *stat = command(
		app, "stat",
		"Print the I/O rates and latency of devices every interval until stopped, like "
		"iostat; -o json: one JSON object a report",
		raw);
	add_status_device(*stat, raw);
	stat->add_option("--interval", raw.interval,
			 "Seconds between reports, 0.1 or more (default 1)")
		->type_name("SEC");
	add_count(*stat, raw, "Exit after N reports (default: run until stopped)");
	stat->add_flag("--queues", raw.per_queue, "Show each queue's rates too");
	commands.push_back({stat, status_request, Mode::stat});

	CLI::App *monitor = command(
		app, "monitor",
		"Print the kernel's events (device states, reconnects, exports and listeners "
		"removed) as they happen, one line each; -o json: one JSON object a line",
		raw);
	add_count(*monitor, raw, "Exit after N events (default: run until stopped)");
	commands.push_back({monitor, without_args(ctl::monitor_cmd), Mode::monitor});

	CLI::App *hostid =
		command(app, "hostid", "Print this host's id (for 'export add --allow')", raw);
	commands.push_back({hostid, without_args("hostid")});

	CLI::App *reload = command(
		app, "reload",
		"Read rdmablkd's configuration file again and apply it; fails, keeping the "
		"configuration in use, when the file has an error",
		raw);
	commands.push_back({reload, without_args("reload")});

	CLI::App *key = local_command(
		app, "key", "Authentication keys, made by rdmablkctl itself without rdmablkd", raw);
	key->require_subcommand(1);

	CLI::App *key_generate = local_command(
		*key, "generate",
		"Print a new random key, RDMABLK-1:HH:BASE64:, for the hosts that share it", raw);
	key_generate->add_option("--hmac", raw.hmac,
				 "The HMAC the key is used with: sha256 (default), sha384 or sha512")
		->type_name("HASH");
	commands.push_back({key_generate, key_generate_request, Mode::local});

	return commands;
}

} // namespace rdmablk::rdmablkctl
