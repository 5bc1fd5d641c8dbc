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

} // namespace

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
