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
	std::string out = "target " + text_field(result, "target").value_or("-") + ", generation " +
			  text_field(result, "generation").value_or("-") + ", " +
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
					text_field(export_, "connections").value_or("-")});
		}
	}
	return table({"NAME", "PATH", "SIZE", "MODE", "ALLOW", "CONNECTIONS"}, rows);
}

} // namespace rdmablk::rdmablkctl
