// SPDX-License-Identifier: GPL-2.0
/*
 * Writing rdmablk.conf: a fixed explanatory header, then the tables in the
 * order rdmablkd applies them. Only settings that differ from the kernel's
 * defaults are written for attachments.
 */
#include <cstdio>
#include <sstream>

#include "config/config.hpp"
#include "config/rules.hpp"
#include "nl/names.hpp"

namespace rdmablk::daemon {

namespace {

constexpr const char *header =
	R"(# rdmablk.conf - what rdmablkd sets up and keeps up; see rdmablk.conf(5).
#
# rdmablkd rewrites this file whenever rdmablkctl changes the configuration
# (listen, export add/del, attach, detach, path add/del/set, discovery add/del); comments other
# than this header are not kept. To edit it by hand, edit and reload (systemctl reload
# rdmablkd): what was added is set up; what was removed is left running
# until removed with rdmablkctl. Check an edit with: rdmablkd --check-config
# Until an edit is reloaded, rdmablkctl changes are refused.
#
# [daemon]      retry_initial, retry_max: seconds between attempts to set up
#               what cannot be set up now (unreachable target, missing
#               disk, device that gave up), doubling from the first to the
#               second; check_interval: seconds between full comparisons
#               with the kernel (0: on events only).
# [[listener]]  address, port (7471): serve the exports there.
# [[host]]      id, key_file, and optionally target_key_file: a host that
#               authenticates with the key in key_file; the target proves
#               itself with target_key_file's when the host asks. Key files
#               hold one RDMABLK-1: line and no access for group or others
#               (rdmablkctl key generate writes them).
# [[export]]    name, path, uuid (generated once), read_only (false),
#               allow (host ids that may attach; [] = any host),
#               auth_required (false; true: authenticated hosts only).
# [[attachment]] address, port (7471), export, and optionally queues,
#               poll_queues, queue_depth, reconnect_delay, ctrl_loss_tmo, fast_io_fail_tmo,
#               keepalive_tmo (seconds; -1 = never/off for the _tmo ones),
#               key_file and target_key_file (this host's key, the target's),
#               paths (the target's other "ADDR[:PORT]"s: more paths of the
#               device), standby (of the address and paths, those used only
#               while no other is live), policy ("queue-depth",
#               "round-robin", "min-latency": which path a request takes).
# [[discovery]] address ("ADDR[:PORT]", port 7471), attach ("all" or a list
#               of export names and UUIDs), and the optional settings of
#               [[attachment]] for what it attaches: rdmablkd keeps a
#               discovery session with the target and attaches what matches.
)";

/* A TOML basic string: quoted, with backslash, quote and control characters escaped. */
std::string toml_string(std::string_view text)
{
	std::string out = "\"";
	for (unsigned char c : text) {
		if (c == '"' || c == '\\') {
			out += '\\';
			out += static_cast<char>(c);
		} else if (c < 0x20 || c == 0x7f) {
			char buf[8];
			std::snprintf(buf, sizeof(buf), "\\u%04x", c);
			out += buf;
		} else {
			out += static_cast<char>(c);
		}
	}
	return out + "\"";
}

/* The settings of an attachment or a discovery's, those that are set. */
void write_settings(std::ostream &out, const AttachmentConfig &att)
{
	for (const AttachSetting &s : attach_settings())
		if (std::optional<std::int64_t> value = s.get(att))
			out << s.rule.key << " = " << *value << "\n";
	if (att.key_file)
		out << "key_file = " << toml_string(*att.key_file) << "\n";
	if (att.target_key_file)
		out << "target_key_file = " << toml_string(*att.target_key_file) << "\n";
	if (att.policy)
		out << "policy = " << toml_string(nl::mp_policy_name(*att.policy)) << "\n";
}

/* An array of "ADDR[:PORT]" strings under @key, when @list holds any. */
void write_endpoints(std::ostream &out, const char *key, const std::vector<nl::Endpoint> &list)
{
	if (list.empty())
		return;
	out << key << " = [";
	for (std::size_t i = 0; i < list.size(); i++)
		out << (i ? ", " : "") << toml_string(nl::to_string(list[i]));
	out << "]\n";
}

void write_endpoint(std::ostream &out, const nl::Endpoint &endpoint)
{
	out << "address = " << toml_string(endpoint.addr) << "\n";
	out << "port = " << endpoint.port << "\n";
}

} // namespace

std::string format_config(const Config &config)
{
	std::ostringstream out;
	out << header << "\n[daemon]\n";
	for (const DaemonSetting &s : daemon_settings())
		out << s.rule.key << " = " << config.daemon.*s.member << "\n";

	for (const ListenerConfig &listener : config.listeners) {
		out << "\n[[listener]]\n";
		write_endpoint(out, listener.endpoint);
	}

	for (const HostConfig &host : config.hosts) {
		out << "\n[[host]]\n";
		out << "id = " << toml_string(nl::to_string(host.id)) << "\n";
		out << "key_file = " << toml_string(host.key_file) << "\n";
		if (host.target_key_file)
			out << "target_key_file = " << toml_string(*host.target_key_file) << "\n";
	}

	for (const ExportConfig &exp : config.exports) {
		out << "\n[[export]]\n";
		out << "name = " << toml_string(exp.name) << "\n";
		out << "path = " << toml_string(exp.path) << "\n";
		if (exp.uuid)
			out << "uuid = " << toml_string(nl::to_string(*exp.uuid)) << "\n";
		out << "read_only = " << (exp.read_only ? "true" : "false") << "\n";
		out << "allow = [";
		for (std::size_t i = 0; i < exp.allow.size(); i++)
			out << (i ? ", " : "") << toml_string(nl::to_string(exp.allow[i]));
		out << "]\n";
		if (exp.auth_required)
			out << "auth_required = true\n";
	}

	for (const AttachmentConfig &att : config.attachments) {
		out << "\n[[attachment]]\n";
		write_endpoint(out, att.target);
		out << "export = " << toml_string(att.export_name) << "\n";
		write_settings(out, att);
		write_endpoints(out, "paths", att.paths);
		write_endpoints(out, "standby", att.standby);
	}

	for (const DiscoveryConfig &disc : config.discoveries) {
		out << "\n[[discovery]]\n";
		out << "address = " << toml_string(nl::to_string(disc.target)) << "\n";
		if (disc.attach_all) {
			out << "attach = \"all\"\n";
		} else {
			out << "attach = [";
			for (std::size_t i = 0; i < disc.attach.size(); i++)
				out << (i ? ", " : "") << toml_string(disc.attach[i]);
			out << "]\n";
		}
		write_settings(out, disc.settings);
	}
	return out.str();
}

} // namespace rdmablk::daemon
