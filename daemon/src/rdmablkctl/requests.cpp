// SPDX-License-Identifier: GPL-2.0
#include "requests.hpp"

#include <algorithm>
#include <stdexcept>

#include <linux/rdmablk.h>

#include "args.hpp"
#include "auth/key.hpp"
#include "nl/endpoint.hpp"
#include "nl/names.hpp"

namespace rdmablk::rdmablkctl {

using nlohmann::json;

namespace {

/* The kernel's limit of keepalive_tmo (its attach policy). */
constexpr long long max_keepalive_tmo = 3600;

/* Add the optional attach setting @key when its option was given. */
void set_integer(json &args, const char *key, const char *option, const std::string &text,
		 long long min, long long max, bool off_allowed = false)
{
	if (!text.empty())
		args[key] = integer_arg(option, text, min, max, off_allowed);
}

} // namespace

std::function<ctl::Request(const Raw &)> without_args(const char *cmd)
{
	return [cmd](const Raw &) { return ctl::Request{cmd, json::object()}; };
}

ctl::Request listen_request(const Raw &raw)
{
	return {"listen", endpoint_args(raw.endpoint)};
}

ctl::Request unlisten_request(const Raw &raw)
{
	return {"unlisten", endpoint_args(raw.endpoint)};
}

ctl::Request export_del_request(const Raw &raw)
{
	return {"export_del", {{"name", export_name(raw.name)}}};
}

ctl::Request status_request(const Raw &raw)
{
	json args = json::object();
	if (!raw.device.empty())
		args["device"] = device_path(raw.device);
	return {"status", std::move(args)};
}

namespace {

/* The recovery settings given as options, into @args. */
void recovery_settings(json &args, const Raw &raw)
{
	set_integer(args, "reconnect_delay", "--reconnect-delay", raw.reconnect_delay, 1,
		    RDMABLK_MAX_TMO);
	set_integer(args, "ctrl_loss_tmo", "--ctrl-loss-tmo", raw.ctrl_loss_tmo, 0, RDMABLK_MAX_TMO,
		    true);
	set_integer(args, "fast_io_fail_tmo", "--fast-io-fail-tmo", raw.fast_io_fail_tmo, 0,
		    RDMABLK_MAX_TMO, true);
	set_integer(args, "keepalive_tmo", "--keepalive-tmo", raw.keepalive_tmo, 1,
		    max_keepalive_tmo);
}

/* --key-file and --target-key-file, into @args as absolute paths. */
void key_files(json &args, const Raw &raw)
{
	if (!raw.key_file.empty())
		args["key_file"] = key_file_arg("--key-file", raw.key_file);
	if (!raw.target_key_file.empty()) {
		if (raw.key_file.empty())
			throw std::invalid_argument("--target-key-file needs --key-file: this host "
						    "proves itself before the target does");
		args["target_key_file"] = key_file_arg("--target-key-file", raw.target_key_file);
	}
}

} // namespace

ctl::Request discover_request(const Raw &raw)
{
	json args = endpoint_args(raw.endpoint);
	key_files(args, raw);
	return {"discover", std::move(args)};
}

namespace {

/* --policy, checked, into @args. */
void policy(json &args, const Raw &raw)
{
	if (raw.policy.empty())
		return;
	try {
		args["policy"] = nl::mp_policy_name(nl::parse_mp_policy(raw.policy));
	} catch (const std::invalid_argument &e) {
		throw std::invalid_argument("invalid --policy: " + std::string(e.what()));
	}
}

/* The "ADDR[:PORT]"s given to @option, as {"address", "port"} makes them, into text. */
std::vector<std::string> addresses(const char *option, const std::vector<std::string> &texts)
{
	std::vector<std::string> list;
	for (const std::string &text : texts) {
		json endpoint;
		try {
			endpoint = endpoint_args(text);
		} catch (const std::invalid_argument &e) {
			throw std::invalid_argument(std::string(option) + ": " + e.what());
		}
		const std::string item = nl::to_string(
			{endpoint["address"].get<std::string>(), endpoint["port"].get<std::uint16_t>()});
		if (std::find(list.begin(), list.end(), item) == list.end())
			list.push_back(item);
	}
	return list;
}

/* The attach settings and key files given as options, into @args. */
void attach_settings(json &args, const Raw &raw)
{
	key_files(args, raw);
	policy(args, raw);
	set_integer(args, "queues", "--queues", raw.queues, 1, RDMABLK_MAX_QUEUES);
	set_integer(args, "poll_queues", "--poll-queues", raw.poll_queues, 0,
		    RDMABLK_MAX_QUEUES - 1);
	set_integer(args, "queue_depth", "--queue-depth", raw.queue_depth, 1,
		    RDMABLK_MAX_QUEUE_DEPTH);
	recovery_settings(args, raw);
}

} // namespace

ctl::Request attach_request(const Raw &raw)
{
	json args = endpoint_args(raw.endpoint);
	args["export"] = export_name(raw.name);
	attach_settings(args, raw);
	/* A --standby address is a path: it need not be given with --path too. */
	std::vector<std::string> paths = addresses("--path", raw.paths);
	const std::vector<std::string> standby = addresses("--standby", raw.standby);
	const std::string target = nl::to_string(
		{args["address"].get<std::string>(), args["port"].get<std::uint16_t>()});
	for (const std::string &s : standby)
		if (std::find(paths.begin(), paths.end(), s) == paths.end())
			paths.push_back(s);
	std::erase(paths, target);
	if (!paths.empty())
		args["paths"] = std::move(paths);
	if (!standby.empty())
		args["standby"] = standby;
	return {"attach", std::move(args)};
}

ctl::Request discovery_add_request(const Raw &raw)
{
	json args = endpoint_args(raw.endpoint);
	const bool all = raw.attach.empty() ||
			 std::find(raw.attach.begin(), raw.attach.end(), "all") != raw.attach.end();
	if (all && raw.attach.size() > 1)
		throw std::invalid_argument("--attach all attaches every export; give it alone "
					    "or name exports");
	if (all) {
		args["attach"] = "all";
	} else {
		json items = json::array();
		for (const std::string &item : raw.attach) {
			std::string value;
			try {
				value = uuid_arg(item);
			} catch (const std::invalid_argument &) {
				value = export_name(item);
			}
			if (std::find(items.begin(), items.end(), value) == items.end())
				items.push_back(std::move(value));
		}
		args["attach"] = std::move(items);
	}
	attach_settings(args, raw);
	return {"discovery_add", std::move(args)};
}

ctl::Request discovery_del_request(const Raw &raw)
{
	return {"discovery_del", endpoint_args(raw.endpoint)};
}


ctl::Request export_add_request(const Raw &raw)
{
	json allow = json::array();
	for (const std::string &host : raw.allow) {
		std::string id = uuid_arg(host);
		if (std::find(allow.begin(), allow.end(), id) == allow.end())
			allow.push_back(std::move(id));
	}
	if (allow.size() > RDMABLK_MAX_ALLOWED_HOSTS)
		throw std::invalid_argument("too many --allow hosts: at most " +
					    std::to_string(RDMABLK_MAX_ALLOWED_HOSTS));

	json args = {{"name", export_name(raw.name)},
		     {"path", export_path(raw.path)},
		     {"read_only", raw.read_only},
		     {"allow", std::move(allow)}};
	if (!raw.uuid.empty())
		args["uuid"] = uuid_arg(raw.uuid);
	if (raw.auth_required)
		args["auth_required"] = true;
	return {"export_add", std::move(args)};
}

ctl::Request host_add_request(const Raw &raw)
{
	if (raw.key_file.empty())
		throw std::invalid_argument("missing --key-file: the file holding the key this "
					    "host authenticates with (rdmablkctl key generate)");
	json args = {{"id", uuid_arg(raw.hostid)}};
	key_files(args, raw);
	if (raw.reauth)
		args["reauth"] = true;
	return {"host_add", std::move(args)};
}

ctl::Request host_del_request(const Raw &raw)
{
	return {"host_del", {{"id", uuid_arg(raw.hostid)}}};
}

namespace {

/* DEVICE, or ADDR[:PORT] NAME: which device detach, reconnect and dev-set mean. */
json device_args(const Raw &raw)
{
	if (raw.name.empty()) {
		/* An export name may hold '.' and ':', so its stable name may too. */
		if (raw.device.find('/') == std::string::npos &&
		    raw.device.find_first_of(".:") != std::string::npos)
			throw std::invalid_argument("missing export NAME after the address \"" +
						    raw.device + "\"; or give the DEVICE alone");
		return {{"device", device_path(raw.device)}};
	}
	json args = endpoint_args(raw.device);
	args["export"] = export_name(raw.name);
	return args;
}

} // namespace

ctl::Request detach_request(const Raw &raw)
{
	return {"detach", device_args(raw)};
}

ctl::Request reconnect_request(const Raw &raw)
{
	return {"reconnect", device_args(raw)};
}

ctl::Request dev_set_request(const Raw &raw)
{
	json args = device_args(raw);
	const std::size_t device_only = args.size();
	recovery_settings(args, raw);
	policy(args, raw);
	if (args.size() == device_only)
		throw std::invalid_argument("nothing to change: give --reconnect-delay, "
					    "--ctrl-loss-tmo, --fast-io-fail-tmo, --keepalive-tmo or "
					    "--policy");
	return {"dev_set", std::move(args)};
}

namespace {

/* DEVICE ADDR[:PORT] of the path commands. */
json path_args(const Raw &raw)
{
	json args = endpoint_args(raw.endpoint);
	args["device"] = device_path(raw.device);
	return args;
}

} // namespace

ctl::Request path_add_request(const Raw &raw)
{
	json args = path_args(raw);
	if (raw.standby_flag)
		args["standby"] = true;
	return {"path_add", std::move(args)};
}

ctl::Request path_del_request(const Raw &raw)
{
	return {"path_del", path_args(raw)};
}

ctl::Request path_set_request(const Raw &raw)
{
	if (raw.standby_flag == raw.active_flag)
		throw std::invalid_argument("give --standby or --active: what the path is to be");
	json args = path_args(raw);
	args["standby"] = raw.standby_flag;
	return {"path_set", std::move(args)};
}

ctl::Request key_generate_request(const Raw &raw)
{
	const std::string hmac = raw.hmac.empty() ? "sha256" : raw.hmac;
	if (!auth::hash_from_name(hmac))
		throw std::invalid_argument("invalid --hmac \"" + hmac +
					    "\": expected sha256, sha384 or sha512");
	return {"key_generate", {{"hmac", hmac}}};
}

} // namespace rdmablk::rdmablkctl
