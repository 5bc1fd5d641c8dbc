// SPDX-License-Identifier: GPL-2.0
#include "format.hpp"

#include <vector>

#include "text.hpp"

namespace rdmablk::rdmablkctl {

using nlohmann::json;

namespace {

std::string allow_text(const json &export_)
{
	const auto it = export_.find("allow");
	if (it == export_.end() || !it->is_array() || it->empty())
		return "any";
	std::string hosts;
	for (const json &host : *it)
		hosts += (hosts.empty() ? "" : ",") +
			 (host.is_string() ? host.get<std::string>() : host.dump());
	return hosts;
}

/* "ro,flush,discard" from a discovered export's "flags"; "-" for none. */
std::string flags_text(const json &export_)
{
	const auto it = export_.find("flags");
	if (it == export_.end() || !it->is_array() || it->empty())
		return "-";
	std::string flags;
	for (const json &flag : *it) {
		std::string name = flag.is_string() ? flag.get<std::string>() : flag.dump();
		flags += (flags.empty() ? "" : ",") + (name == "read_only" ? "ro" : name);
	}
	return flags;
}

} // namespace

std::string discovery_text(const json &result)
{
	const json none = json::array();
	const auto it = result.is_object() ? result.find("exports") : result.end();
	const json &exports = it != result.end() && it->is_array() ? *it : none;
	/* How the session proved who listed: "host" (this host), "mutual" (and the target). */
	const std::string auth = text_field(result, "auth").value_or("none");
	std::string out = "target " + text_field(result, "target").value_or("-") + ", generation " +
			  text_field(result, "generation").value_or("-") + ", " +
			  (auth == "mutual" ? "authenticated both ways, " :
			   auth == "host"   ? "authenticated, " :
					      "") +
			  std::to_string(exports.size()) +
			  (exports.size() == 1 ? " export\n" : " exports\n");
	if (exports.empty())
		return out;

	std::vector<std::vector<std::string>> rows;
	for (const json &export_ : exports) {
		const auto size = int_field(export_, "size");
		rows.push_back({text_field(export_, "name").value_or("-"),
				text_field(export_, "uuid").value_or("-"),
				size && *size >= 0 ? human_size(static_cast<std::uint64_t>(*size)) : "-",
				text_field(export_, "logical_block_size").value_or("-") + "/" +
					text_field(export_, "physical_block_size").value_or("-"),
				flags_text(export_)});
	}
	return out + table({"NAME", "UUID", "SIZE", "BLOCK", "FLAGS"}, rows);
}

namespace {

/* "e1,e2": the names in array @key of @object; an export attached through another path gets "(elsewhere)". */
std::string names_text(const json &object, const char *key)
{
	const auto it = object.find(key);
	if (it == object.end() || !it->is_array() || it->empty())
		return "-";
	std::string names;
	for (const json &e : *it) {
		names += (names.empty() ? "" : ",") + text_field(e, "name").value_or("?");
		if (e.contains("attached_here") && !bool_field(e, "attached_here"))
			names += "(elsewhere)";
	}
	return names;
}

std::string attach_text(const json &discovery)
{
	const auto it = discovery.find("attach");
	if (it == discovery.end() || !it->is_array())
		return text_field(discovery, "attach").value_or("-");
	std::string items;
	for (const json &item : *it)
		items += (items.empty() ? "" : ",") +
			 (item.is_string() ? item.get<std::string>() : item.dump());
	return items;
}

} // namespace

std::string discovery_list_text(const json &discoveries)
{
	std::vector<std::vector<std::string>> rows;
	std::string errors;
	if (discoveries.is_array()) {
		for (const json &d : discoveries) {
			const std::string target = target_text(d);
			const auto retry = int_field(d, "next_retry_s");
			rows.push_back({target, text_field(d, "state").value_or("-"),
					text_field(d, "generation").value_or("-"), attach_text(d),
					names_text(d, "matched"), names_text(d, "gone"),
					retry ? seconds_text(*retry) : "-"});
			if (const auto error = text_field(d, "last_error"))
				errors += target + ": " + *error + "\n";
		}
	}
	return table({"ADDRESS", "STATE", "GENERATION", "ATTACH", "EXPORTS", "GONE", "RETRY IN"},
		     rows) +
	       errors;
}

std::string export_table(const json &exports)
{
	std::vector<std::vector<std::string>> rows;
	if (exports.is_array()) {
		for (const json &export_ : exports) {
			/* Not set up in the kernel yet (rdmablkd retries): no size. */
			const bool pending = text_field(export_, "state") == "pending";
			const auto size = int_field(export_, "size");
			rows.push_back({text_field(export_, "name").value_or("-"),
					text_field(export_, "path").value_or("-"),
					size && *size >= 0 && !pending ?
						human_size(static_cast<std::uint64_t>(*size)) :
						"-",
					bool_field(export_, "read_only") ? "ro" : "rw",
					allow_text(export_),
					text_field(export_, "connections").value_or("-"),
					bool_field(export_, "auth_required") ? "required" : "-"});
		}
	}
	return table({"NAME", "PATH", "SIZE", "MODE", "ALLOW", "CONNECTIONS", "AUTH"}, rows);
}

std::string host_table(const json &hosts)
{
	std::vector<std::vector<std::string>> rows;
	std::string errors;
	if (hosts.is_array()) {
		for (const json &host : hosts) {
			const std::string id = text_field(host, "id").value_or("-");
			rows.push_back({id, text_field(host, "hmac").value_or("-"),
					bool_field(host, "mutual") ? "yes" : "no",
					text_field(host, "auth_ok").value_or("-"),
					text_field(host, "auth_failed").value_or("-"),
					text_field(host, "state").value_or("-"),
					text_field(host, "key_file").value_or("-")});
			if (const auto error = text_field(host, "last_error"))
				errors += id + ": " + *error + "\n";
		}
	}
	return table({"HOSTID", "HMAC", "MUTUAL", "AUTH OK", "REFUSED", "STATE", "KEY FILE"},
		     rows) +
	       errors;
}

} // namespace rdmablk::rdmablkctl
