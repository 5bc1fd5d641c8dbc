// SPDX-License-Identifier: GPL-2.0
#include "format.hpp"

#include "text.hpp"

namespace rdmablk::rdmablkctl {

using nlohmann::json;

namespace {

const json &member(const json &result, const char *key)
{
	static const json null;
	if (!result.is_object())
		return null;
	const auto it = result.find(key);
	return it == result.end() ? null : *it;
}

} // namespace

std::string format_json(const json &result)
{
	return result.dump(2, ' ', false, json::error_handler_t::replace) + '\n';
}

std::string format_text(const std::string &cmd, const json &result)
{
	if (cmd == "list")
		return device_table(member(result, "devices"));
	if (cmd == "status")
		return status_blocks(member(result, "devices"));
	if (cmd == "export_list")
		return export_table(member(result, "exports"));
	if (cmd == "discover")
		return discovery_text(result);
	if (cmd == "discovery_list")
		return discovery_list_text(member(result, "discoveries"));
	if (cmd == "export_add")
		return export_table(json::array({result}));
	if (cmd == "host_list")
		return host_table(member(result, "hosts"));
	if (cmd == "host_add")
		return host_table(json::array({result}));
	if (cmd == "attach" || cmd == "reconnect")
		return text_field(result, "device").value_or("-") + '\n';
	if (cmd == "dev_set")
		return device_table(json::array({result}));
	if (cmd == "path_add" || cmd == "path_del" || cmd == "path_set")
		return status_blocks(json::array({result}));
	if (cmd == "listen")
		return target_text(result) + " " + text_field(result, "state").value_or("-") + '\n';
	if (cmd == "hostid")
		return text_field(result, "hostid").value_or("-") + '\n';
	if (cmd == "reload")
		return "reloaded " + text_field(result, "config").value_or("-") + '\n';
	if (cmd == "unlisten" || cmd == "export_del" || cmd == "detach" ||
	    cmd == "discovery_add" || cmd == "discovery_del" || cmd == "host_del")
		return {};
	return format_json(result);
}

} // namespace rdmablk::rdmablkctl
