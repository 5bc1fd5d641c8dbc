// SPDX-License-Identifier: GPL-2.0
#include "engine/request_args.hpp"

#include <algorithm>
#include <cstdint>

#include <linux/rdmablk.h>

#include "config/addr.hpp"
#include "nl/dev_name.hpp"
#include "nl/names.hpp"
#include "config/rules.hpp"

namespace rdmablk::daemon {

namespace {

using nlohmann::json;

const json *arg(const json &args, std::string_view key)
{
	const auto it = args.find(key);
	if (it == args.end() || it->is_null())
		return nullptr;
	return &*it;
}

[[noreturn]] void bad(std::string_view key, const std::string &problem)
{
	throw ArgError("argument '" + std::string(key) + "': " + problem);
}

std::optional<std::string> string_arg(const json &args, std::string_view key)
{
	const json *value = arg(args, key);
	if (!value)
		return std::nullopt;
	if (!value->is_string())
		bad(key, "must be a string");
	return value->get<std::string>();
}

std::string required_string(const json &args, std::string_view key)
{
	std::optional<std::string> value = string_arg(args, key);
	if (!value)
		throw ArgError("missing argument '" + std::string(key) + "'");
	return *value;
}

std::optional<std::int64_t> int_arg(const json &args, const IntRule &rule)
{
	const json *value = arg(args, rule.key);
	if (!value)
		return std::nullopt;
	if (!value->is_number_integer())
		bad(rule.key, "must be an integer");
	const std::int64_t n = value->get<std::int64_t>();
	if (std::string problem = check_int(rule, n); !problem.empty())
		throw ArgError(problem);
	return n;
}

void check(const std::string &problem)
{
	if (!problem.empty())
		throw ArgError(problem);
}

nl::Uuid uuid_of(const json &value, std::string_view key)
{
	if (!value.is_string())
		bad(key, "must be a UUID string");
	try {
		return nl::parse_uuid(value.get<std::string>());
	} catch (const std::invalid_argument &e) {
		bad(key, e.what());
	}
}

/*
 * The number of the disk @text names: "N", "rdmablkN" or "/dev/rdmablkN".
 * The daemon looks up no path a client gives it, so a link such as
 * /dev/rdmablk/NAME is the client's to resolve.
 */
std::uint32_t device_index(const std::string &text)
{
	try {
		return nl::parse_dev_index(text);
	} catch (const std::invalid_argument &e) {
		if (text.find('/') == std::string::npos)
			bad("device", e.what());
		bad("device", std::string(e.what()) +
				      " (links such as /dev/rdmablk/NAME are not followed; give "
				      "the device they lead to)");
	}
}

/* "policy": a path policy by name, checked by nl::parse_mp_policy(). */
std::optional<std::uint32_t> policy_arg(const json &args)
{
	const std::optional<std::string> name = string_arg(args, "policy");
	if (!name)
		return std::nullopt;
	try {
		return nl::parse_mp_policy(*name);
	} catch (const std::invalid_argument &e) {
		bad("policy", e.what());
	}
}

/* "ADDR[:PORT]" @text given as @key, a checked address. */
nl::Endpoint address_port(std::string_view key, const std::string &text)
{
	nl::Endpoint endpoint;
	try {
		endpoint = nl::parse_endpoint(text);
	} catch (const std::invalid_argument &e) {
		bad(key, e.what());
	}
	if (const std::string problem = check_address(endpoint.addr); !problem.empty())
		bad(key, problem);
	return endpoint;
}

/* "device": a number, or a name as device_index() reads it. */
std::uint32_t device_arg(const json &device)
{
	if (device.is_number_integer() && device.get<std::int64_t>() >= 0 &&
	    device.get<std::int64_t>() <= UINT32_MAX)
		return device.get<std::uint32_t>();
	if (!device.is_string())
		bad("device", "must be a device name such as /dev/rdmablk0");
	return device_index(device.get<std::string>());
}

} // namespace

void only_args(const json &args, std::initializer_list<std::string_view> known)
{
	if (!args.is_object())
		throw ArgError("'args' must be an object");
	for (const auto &[key, value] : args.items()) {
		bool ok = false;
		for (std::string_view k : known)
			ok = ok || k == key;
		if (!ok)
			throw ArgError("unknown argument '" + key + "'");
	}
}

nl::Endpoint endpoint_args(const json &args)
{
	if (!args.is_object())
		throw ArgError("'args' must be an object");
	nl::Endpoint endpoint;
	endpoint.addr = required_string(args, "address");
	check(check_address(endpoint.addr));
	if (std::optional<std::int64_t> port = int_arg(args, port_rule))
		endpoint.port = static_cast<std::uint16_t>(*port);
	return endpoint;
}

ExportConfig export_args(const json &args)
{
	only_args(args, {"name", "path", "read_only", "allow", "uuid", "auth_required"});
	ExportConfig exp;
	exp.name = required_string(args, "name");
	check(check_export_name(exp.name));
	exp.path = required_string(args, "path");
	check(check_export_path(exp.path));
	if (const json *ro = arg(args, "read_only")) {
		if (!ro->is_boolean())
			bad("read_only", "must be true or false");
		exp.read_only = ro->get<bool>();
	}
	if (const json *allow = arg(args, "allow")) {
		if (!allow->is_array())
			bad("allow", "must be an array of host ids");
		for (const json &item : *allow) {
			const nl::Uuid id = uuid_of(item, "allow");
			if (std::find(exp.allow.begin(), exp.allow.end(), id) == exp.allow.end())
				exp.allow.push_back(id);
		}
		if (exp.allow.size() > RDMABLK_MAX_ALLOWED_HOSTS)
			bad("allow", "at most " + std::to_string(RDMABLK_MAX_ALLOWED_HOSTS) +
					     " hosts may be allowed");
	}
	if (const json *uuid = arg(args, "uuid"))
		exp.uuid = uuid_of(*uuid, "uuid");
	if (const json *auth = arg(args, "auth_required")) {
		if (!auth->is_boolean())
			bad("auth_required", "must be true or false");
		exp.auth_required = auth->get<bool>();
	}
	return exp;
}

std::string export_name_args(const json &args)
{
	only_args(args, {"name"});
	std::string name = required_string(args, "name");
	check(check_export_name(name));
	return name;
}

namespace {

/* Only "address", "port", @extra and the attachment settings in @args. */
void only_attach_args(const json &args, std::initializer_list<std::string_view> extra)
{
	if (!args.is_object())
		throw ArgError("'args' must be an object");
	for (const auto &[key, value] : args.items()) {
		bool ok = key == "address" || key == "port" || key == "key_file" ||
			  key == "target_key_file" || key == "policy";
		for (std::string_view k : extra)
			ok = ok || k == key;
		for (const AttachSetting &s : attach_settings())
			ok = ok || s.rule.key == key;
		if (!ok)
			throw ArgError("unknown argument '" + key + "'");
	}
}

std::optional<std::string> key_file_arg(const json &args, std::string_view key)
{
	std::optional<std::string> path = string_arg(args, key);
	if (path)
		check(check_key_file(key, *path));
	return path;
}

/* "key_file", "target_key_file" and "policy" into @a. */
void key_file_args(const json &args, AttachmentConfig &a)
{
	a.key_file = key_file_arg(args, "key_file");
	a.target_key_file = key_file_arg(args, "target_key_file");
	check(check_key_pair(a.key_file, a.target_key_file));
	a.policy = policy_arg(args);
}

/* An array of "ADDR[:PORT]" strings: "paths", "standby". */
std::vector<nl::Endpoint> endpoint_list_arg(const json &args, std::string_view key)
{
	std::vector<nl::Endpoint> list;
	const json *value = arg(args, key);
	if (!value)
		return list;
	if (!value->is_array())
		bad(key, "must be an array of \"ADDR[:PORT]\" strings");
	for (const json &item : *value) {
		if (!item.is_string())
			bad(key, "must list \"ADDR[:PORT]\" strings");
		list.push_back(address_port(key, item.get<std::string>()));
	}
	return list;
}

} // namespace

DiscoverArgs discover_args(const json &args)
{
	only_args(args, {"address", "port", "key_file", "target_key_file"});
	DiscoverArgs d{endpoint_args(args), key_file_arg(args, "key_file"),
		       key_file_arg(args, "target_key_file")};
	check(check_key_pair(d.key_file, d.target_key_file));
	return d;
}

HostConfig host_args(const json &args)
{
	only_args(args, {"id", "key_file", "target_key_file", "reauth"});
	const json *id = arg(args, "id");
	if (!id)
		throw ArgError("missing argument 'id'");
	HostConfig host;
	host.id = uuid_of(*id, "id");
	host.key_file = required_string(args, "key_file");
	check(check_key_file("key_file", host.key_file));
	host.target_key_file = key_file_arg(args, "target_key_file");
	return host;
}

bool host_reauth_arg(const json &args)
{
	const json *reauth = args.is_object() ? arg(args, "reauth") : nullptr;
	if (!reauth)
		return false;
	if (!reauth->is_boolean())
		bad("reauth", "must be true or false");
	return reauth->get<bool>();
}

nl::Uuid host_id_args(const json &args)
{
	only_args(args, {"id"});
	const json *id = arg(args, "id");
	if (!id)
		throw ArgError("missing argument 'id'");
	return uuid_of(*id, "id");
}

AttachmentConfig attach_args(const json &args)
{
	only_attach_args(args, {"export", "paths", "standby"});
	AttachmentConfig a;
	a.target = endpoint_args(args);
	a.export_name = required_string(args, "export");
	check(check_export_name(a.export_name));
	for (const AttachSetting &s : attach_settings())
		if (std::optional<std::int64_t> value = int_arg(args, s.rule))
			s.set(a, *value);
	key_file_args(args, a);
	a.paths = endpoint_list_arg(args, "paths");
	a.standby = endpoint_list_arg(args, "standby");
	if (const std::optional<PathProblem> p = check_paths(a))
		bad(p->key, p->problem);
	return a;
}

PathArgs path_args(const json &args, PathStandby standby)
{
	if (standby == PathStandby::none)
		only_args(args, {"device", "address", "port"});
	else
		only_args(args, {"device", "address", "port", "standby"});
	const json *device = arg(args, "device");
	if (!device)
		throw ArgError("missing argument 'device'");
	PathArgs p;
	p.index = device_arg(*device);
	p.path = endpoint_args(args);
	if (const json *value = arg(args, "standby")) {
		if (!value->is_boolean())
			bad("standby", "must be true or false");
		p.standby = value->get<bool>();
	} else if (standby == PathStandby::required) {
		throw ArgError("missing argument 'standby' (true: standby, false: active)");
	}
	return p;
}

DiscoveryConfig discovery_args(const json &args)
{
	only_attach_args(args, {"attach"});
	DiscoveryConfig d;
	d.target = endpoint_args(args);
	if (const json *attach = arg(args, "attach")) {
		if (attach->is_array()) {
			d.attach_all = false;
			for (const json &item : *attach) {
				if (!item.is_string())
					bad("attach", "must list export names or UUIDs in strings");
				std::string value;
				try {
					value = canonical_attach_item(item.get<std::string>());
				} catch (const std::invalid_argument &e) {
					bad("attach", e.what());
				}
				if (std::find(d.attach.begin(), d.attach.end(), value) == d.attach.end())
					d.attach.push_back(value);
			}
			if (d.attach.empty())
				bad("attach", "lists nothing; give \"all\" or export names or UUIDs");
		} else if (!attach->is_string() || attach->get<std::string>() != "all") {
			bad("attach", "must be \"all\" or an array of export names or UUIDs");
		}
	}
	for (const AttachSetting &s : attach_settings())
		if (std::optional<std::int64_t> value = int_arg(args, s.rule))
			s.set(d.settings, *value);
	key_file_args(args, d.settings);
	return d;
}

namespace {

/* The settings dev_set may change at runtime: not queues or their depth. */
bool runtime_setting(std::string_view key)
{
	return key == "reconnect_delay" || key == "ctrl_loss_tmo" || key == "fast_io_fail_tmo" ||
	       key == "keepalive_tmo";
}

/* "device", or "address", "port", "export"; the caller checked the keys. */
DetachTarget device_target(const json &args)
{
	DetachTarget target;
	if (const json *device = arg(args, "device")) {
		if (arg(args, "address") || arg(args, "export"))
			throw ArgError("give either 'device' or 'address' and 'export', not both");
		target.index = device_arg(*device);
		return target;
	}
	AttachmentConfig a;
	a.target = endpoint_args(args);
	a.export_name = required_string(args, "export");
	check(check_export_name(a.export_name));
	target.attachment = a;
	return target;
}

} // namespace

DetachTarget detach_args(const json &args)
{
	only_args(args, {"device", "address", "port", "export"});
	return device_target(args);
}

DevSetArgs dev_set_args(const json &args)
{
	if (!args.is_object())
		throw ArgError("'args' must be an object");
	for (const auto &[key, value] : args.items())
		if (key != "device" && key != "address" && key != "port" && key != "export" &&
		    key != "policy" && !runtime_setting(key))
			throw ArgError("unknown argument '" + key + "'");
	DevSetArgs set;
	set.device = device_target(args);
	bool any = false;
	for (const AttachSetting &s : attach_settings()) {
		if (!runtime_setting(s.rule.key))
			continue;
		if (std::optional<std::int64_t> value = int_arg(args, s.rule)) {
			s.set(set.settings, *value);
			any = true;
		}
	}
	set.settings.policy = policy_arg(args);
	if (!any && !set.settings.policy)
		throw ArgError("nothing to change: give reconnect_delay, ctrl_loss_tmo, "
			       "fast_io_fail_tmo, keepalive_tmo or policy");
	return set;
}

std::optional<std::uint32_t> status_args(const json &args)
{
	only_args(args, {"device"});
	std::optional<std::string> device = string_arg(args, "device");
	if (!device)
		return std::nullopt;
	return device_index(*device);
}

} // namespace rdmablk::daemon
