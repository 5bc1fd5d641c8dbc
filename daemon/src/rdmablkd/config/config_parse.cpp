// SPDX-License-Identifier: GPL-2.0
/*
 * Reading rdmablk.conf with toml++. Every problem is reported at the place
 * toml++ says the offending key, value or table stands, as
 * "FILE:LINE:COLUMN: what is wrong".
 */
#include <algorithm>
#include <set>
#include <stdexcept>

#include <toml++/toml.h>

#include <linux/rdmablk.h>

#include "config/addr.hpp"
#include "config/config.hpp"
#include "config/rules.hpp"
#include "nl/names.hpp"

namespace rdmablk::daemon {

namespace {

[[noreturn]] void fail_at(const std::string &file, const toml::source_region &where,
			  const std::string &problem)
{
	throw ConfigError(file + ":" + std::to_string(where.begin.line) + ":" +
			  std::to_string(where.begin.column) + ": " + problem);
}

std::string quoted(std::string_view key)
{
	/* Appended, not "'" + std::string(key): GCC 12 at -O3 warns falsely
	 * (-Wrestrict) about the inlined copy of the latter. */
	std::string out(1, '\'');

	out.append(key).push_back('\'');
	return out;
}

/*
 * One table of the file, read key by key. Keys read are remembered, so
 * that finish() can name the first one nobody asked for.
 */
class TableReader {
public:
	TableReader(const toml::table &table, std::string what, const std::string &file)
		: table_(table), what_(std::move(what)), file_(file)
	{
	}

	const toml::node *find(std::string_view key)
	{
		seen_.insert(std::string(key));
		return table_.get(key);
	}

	[[noreturn]] void fail(const toml::node *node, const std::string &problem) const
	{
		fail_at(file_, node ? node->source() : table_.source(), what_ + ": " + problem);
	}

	std::optional<std::string> string(std::string_view key)
	{
		const toml::node *node = find(key);
		if (!node)
			return std::nullopt;
		if (!node->is_string())
			fail(node, quoted(key) + " must be a string");
		return **node->as_string();
	}

	std::string required_string(std::string_view key)
	{
		std::optional<std::string> value = string(key);
		if (!value)
			fail(nullptr, "missing " + quoted(key));
		return *value;
	}

	std::optional<std::int64_t> integer(const IntRule &rule)
	{
		const toml::node *node = find(rule.key);
		if (!node)
			return std::nullopt;
		if (!node->is_integer())
			fail(node, quoted(rule.key) + " must be an integer");
		const std::int64_t value = **node->as_integer();
		if (const std::string problem = check_int(rule, value); !problem.empty())
			fail(node, problem);
		return value;
	}

	bool boolean(std::string_view key, bool fallback)
	{
		const toml::node *node = find(key);
		if (!node)
			return fallback;
		if (!node->is_boolean())
			fail(node, quoted(key) + " must be true or false");
		return **node->as_boolean();
	}

	nl::Uuid uuid_of(const toml::node &node, std::string_view key) const
	{
		if (!node.is_string())
			fail(&node, quoted(key) + " must be a UUID in a string");
		try {
			return nl::parse_uuid(**node.as_string());
		} catch (const std::invalid_argument &e) {
			fail(&node, quoted(key) + ": " + e.what());
		}
	}

	std::optional<nl::Uuid> uuid(std::string_view key)
	{
		const toml::node *node = find(key);
		if (!node)
			return std::nullopt;
		return uuid_of(*node, key);
	}

	std::vector<nl::Uuid> uuid_list(std::string_view key)
	{
		const toml::node *node = find(key);
		std::vector<nl::Uuid> list;
		if (!node)
			return list;
		const toml::array *array = node->as_array();
		if (!array)
			fail(node, quoted(key) + " must be an array of host ids (UUID strings)");
		for (const toml::node &item : *array) {
			const nl::Uuid id = uuid_of(item, key);
			for (const nl::Uuid &other : list)
				if (other == id)
					fail(&item, "host id " + nl::to_string(id) +
							    " is listed twice in " + quoted(key));
			list.push_back(id);
		}
		if (list.size() > RDMABLK_MAX_ALLOWED_HOSTS)
			fail(node, quoted(key) + " names " + std::to_string(list.size()) +
					   " hosts; at most " +
					   std::to_string(RDMABLK_MAX_ALLOWED_HOSTS) +
					   " are allowed");
		return list;
	}

	/* A key file's path, checked by check_key_file(). */
	std::optional<std::string> key_file(std::string_view key)
	{
		std::optional<std::string> value = string(key);
		if (value)
			if (const std::string problem = check_key_file(key, *value);
			    !problem.empty())
				fail(table_.get(key), problem);
		return value;
	}

	/* A checked address: check_address() must find nothing wrong with it. */
	std::string address(std::string_view key)
	{
		std::string value = required_string(key);
		if (const std::string problem = check_address(value); !problem.empty())
			fail(table_.get(key), problem);
		return value;
	}

	/* An array of "ADDR[:PORT]" strings, each a checked address as address() wants it. */
	std::vector<nl::Endpoint> endpoint_list(std::string_view key)
	{
		const toml::node *node = find(key);
		std::vector<nl::Endpoint> list;
		if (!node)
			return list;
		const toml::array *array = node->as_array();
		if (!array)
			fail(node, quoted(key) + " must be an array of \"ADDR[:PORT]\" strings");
		for (const toml::node &item : *array) {
			if (!item.is_string())
				fail(&item, quoted(key) + " must list \"ADDR[:PORT]\" strings");
			nl::Endpoint endpoint;
			try {
				endpoint = nl::parse_endpoint(**item.as_string());
			} catch (const std::invalid_argument &e) {
				fail(&item, quoted(key) + ": " + e.what());
			}
			if (const std::string problem = check_address(endpoint.addr);
			    !problem.empty())
				fail(&item, quoted(key) + ": " + problem);
			list.push_back(endpoint);
		}
		return list;
	}

	/* A path policy by name: queue-depth, round-robin, min-latency. */
	std::optional<std::uint32_t> policy(std::string_view key)
	{
		const std::optional<std::string> name = string(key);
		if (!name)
			return std::nullopt;
		try {
			return nl::parse_mp_policy(*name);
		} catch (const std::invalid_argument &e) {
			fail(find(key), quoted(key) + ": " + e.what());
		}
	}

	nl::Endpoint endpoint()
	{
		nl::Endpoint endpoint;
		endpoint.addr = address("address");
		if (std::optional<std::int64_t> port = integer(port_rule))
			endpoint.port = static_cast<std::uint16_t>(*port);
		return endpoint;
	}

	/* Fail at the first key of the table that was never asked for. */
	void finish() const
	{
		for (const auto &[key, node] : table_)
			if (!seen_.count(std::string(key.str())))
				fail_at(file_, key.source(),
					what_ + ": unknown key " + quoted(key.str()));
	}

private:
	const toml::table &table_;
	std::string what_;
	const std::string &file_;
	std::set<std::string> seen_;
};

DaemonSettings read_daemon(TableReader &reader)
{
	DaemonSettings settings;
	for (const DaemonSetting &s : daemon_settings())
		if (std::optional<std::int64_t> value = reader.integer(s.rule))
			settings.*s.member = static_cast<std::uint32_t>(*value);
	reader.finish();
	if (settings.retry_max < settings.retry_initial)
		reader.fail(nullptr, "retry_max (" + std::to_string(settings.retry_max) +
					     ") is less than retry_initial (" +
					     std::to_string(settings.retry_initial) + ")");
	return settings;
}

ListenerConfig read_listener(TableReader &reader)
{
	ListenerConfig listener{reader.endpoint()};
	reader.finish();
	return listener;
}

ExportConfig read_export(TableReader &reader)
{
	ExportConfig exp;
	exp.name = reader.required_string("name");
	if (const std::string problem = check_export_name(exp.name); !problem.empty())
		reader.fail(reader.find("name"), problem);
	exp.path = reader.required_string("path");
	if (const std::string problem = check_export_path(exp.path); !problem.empty())
		reader.fail(reader.find("path"), problem);
	exp.uuid = reader.uuid("uuid");
	exp.read_only = reader.boolean("read_only", false);
	exp.allow = reader.uuid_list("allow");
	exp.auth_required = reader.boolean("auth_required", false);
	reader.finish();
	return exp;
}

HostConfig read_host(TableReader &reader)
{
	HostConfig host;
	const std::optional<nl::Uuid> id = reader.uuid("id");
	if (!id)
		reader.fail(nullptr, "missing 'id' (the host id the host attaches with)");
	host.id = *id;
	host.key_file = reader.key_file("key_file").value_or("");
	if (host.key_file.empty())
		reader.fail(nullptr, "missing 'key_file' (the file holding the host's key; "
				     "rdmablkctl key generate writes one)");
	host.target_key_file = reader.key_file("target_key_file");
	reader.finish();
	return host;
}

/* key_file and target_key_file of an attachment or a discovery's settings. */
void read_key_files(TableReader &reader, AttachmentConfig &att)
{
	att.key_file = reader.key_file("key_file");
	att.target_key_file = reader.key_file("target_key_file");
	if (const std::string problem = check_key_pair(att.key_file, att.target_key_file);
	    !problem.empty())
		reader.fail(reader.find("target_key_file"), problem);
}

/* paths and standby of an attachment whose target is read. */
void read_paths(TableReader &reader, AttachmentConfig &att)
{
	att.paths = reader.endpoint_list("paths");
	att.standby = reader.endpoint_list("standby");
	if (const std::optional<PathProblem> p = check_paths(att))
		reader.fail(reader.find(p->key), p->problem);
}

AttachmentConfig read_attachment(TableReader &reader)
{
	AttachmentConfig att;
	att.target = reader.endpoint();
	att.export_name = reader.required_string("export");
	if (const std::string problem = check_export_name(att.export_name); !problem.empty())
		reader.fail(reader.find("export"), problem);
	for (const AttachSetting &s : attach_settings())
		if (std::optional<std::int64_t> value = reader.integer(s.rule))
			s.set(att, *value);
	read_key_files(reader, att);
	read_paths(reader, att);
	att.policy = reader.policy("policy");
	reader.finish();
	return att;
}

DiscoveryConfig read_discovery(TableReader &reader)
{
	DiscoveryConfig disc;
	const std::string address = reader.required_string("address");
	try {
		disc.target = nl::parse_endpoint(address);
	} catch (const std::invalid_argument &e) {
		reader.fail(reader.find("address"), e.what());
	}
	if (const std::string problem = check_address(disc.target.addr); !problem.empty())
		reader.fail(reader.find("address"), problem);
	if (const toml::node *node = reader.find("attach")) {
		if (const toml::array *array = node->as_array()) {
			disc.attach_all = false;
			for (const toml::node &item : *array) {
				if (!item.is_string())
					reader.fail(&item, "'attach' must list export names "
							   "or UUIDs in strings");
				std::string value;
				try {
					value = canonical_attach_item(**item.as_string());
				} catch (const std::invalid_argument &e) {
					reader.fail(&item, "'attach': " + std::string(e.what()));
				}
				if (std::find(disc.attach.begin(), disc.attach.end(), value) !=
				    disc.attach.end())
					reader.fail(&item, "'" + value +
								   "' is listed twice in 'attach'");
				disc.attach.push_back(value);
			}
			if (disc.attach.empty())
				reader.fail(node, "'attach' lists nothing; write attach = \"all\" "
						  "or name exports");
		} else if (!node->is_string() || **node->as_string() != "all") {
			reader.fail(node, "'attach' must be \"all\" or an array of export "
					  "names or UUIDs");
		}
	}
	for (const AttachSetting &s : attach_settings())
		if (std::optional<std::int64_t> value = reader.integer(s.rule))
			s.set(disc.settings, *value);
	read_key_files(reader, disc.settings);
	disc.settings.policy = reader.policy("policy");
	reader.finish();
	return disc;
}

/* Each table of array-of-tables @key, read by @read into @out. */
template <typename T, typename Read>
void read_tables(const toml::node &node, std::string_view key, const std::string &file,
		 std::vector<T> &out, Read read)
{
	const toml::array *array = node.as_array();
	if (!array)
		fail_at(file, node.source(),
			quoted(key) + " must be an array of tables: write [[" + std::string(key) +
				"]]");
	for (const toml::node &item : *array) {
		const toml::table *table = item.as_table();
		if (!table)
			fail_at(file, item.source(),
				quoted(key) + " must be an array of tables: write [[" +
					std::string(key) + "]]");
		TableReader reader(*table,
				   "[[" + std::string(key) + "]] #" +
					   std::to_string(out.size() + 1),
				   file);
		out.push_back(read(reader));
	}
}

/* The first two of @items that @same says are one, as "#i and #j", or empty. */
template <typename T, typename Same>
std::optional<std::pair<std::size_t, std::size_t>> first_duplicate(const std::vector<T> &items,
								   Same same)
{
	for (std::size_t j = 1; j < items.size(); j++)
		for (std::size_t i = 0; i < j; i++)
			if (same(items[i], items[j]))
				return std::pair{i, j};
	return std::nullopt;
}

/* Fail at the later of two tables of @key that describe the same object. */
template <typename T, typename Same>
void reject_duplicates(const toml::table &root, std::string_view key, const std::string &file,
		       const std::vector<T> &items, Same same, std::string_view what)
{
	const auto dup = first_duplicate(items, same);
	if (!dup)
		return;
	const toml::node &second = *root.get_as<toml::array>(key)->get(dup->second);
	fail_at(file, second.source(),
		"[[" + std::string(key) + "]] #" + std::to_string(dup->second + 1) + ": " +
			std::string(what) + " as [[" + std::string(key) + "]] #" +
			std::to_string(dup->first + 1));
}

} // namespace

Config parse_config(std::string_view text, const std::string &file)
{
	toml::table root;
	try {
		root = toml::parse(text, file);
	} catch (const toml::parse_error &e) {
		fail_at(file, e.source(), std::string(e.description()));
	}

	Config config;
	for (const auto &[key, node] : root) {
		if (key == "daemon") {
			const toml::table *table = node.as_table();
			if (!table)
				fail_at(file, node.source(), "'daemon' must be a table: write [daemon]");
			TableReader reader(*table, "[daemon]", file);
			config.daemon = read_daemon(reader);
		} else if (key == "listener") {
			read_tables(node, key.str(), file, config.listeners, read_listener);
		} else if (key == "host") {
			read_tables(node, key.str(), file, config.hosts, read_host);
		} else if (key == "export") {
			read_tables(node, key.str(), file, config.exports, read_export);
		} else if (key == "attachment") {
			read_tables(node, key.str(), file, config.attachments, read_attachment);
		} else if (key == "discovery") {
			read_tables(node, key.str(), file, config.discoveries, read_discovery);
		} else {
			fail_at(file, key.source(),
				"unknown key or table " + quoted(key.str()) +
					" (expected [daemon], [[listener]], [[host]], [[export]], "
					"[[attachment]], [[discovery]])");
		}
	}

	reject_duplicates(
		root, "listener", file, config.listeners,
		[](const auto &a, const auto &b) { return same_endpoint(a.endpoint, b.endpoint); },
		"the same address and port");
	reject_duplicates(
		root, "host", file, config.hosts,
		[](const auto &a, const auto &b) { return a.id == b.id; }, "the same id");
	reject_duplicates(
		root, "export", file, config.exports,
		[](const auto &a, const auto &b) { return a.name == b.name; }, "the same name");
	reject_duplicates(
		root, "export", file, config.exports,
		[](const auto &a, const auto &b) { return a.uuid && a.uuid == b.uuid; },
		"the same uuid");
	reject_duplicates(
		root, "attachment", file, config.attachments,
		[](const auto &a, const auto &b) {
			if (a.export_name != b.export_name)
				return false;
			return has_path(a, b.target) || std::ranges::any_of(b.paths, [&](const auto &p) {
				       return has_path(a, p);
			       });
		},
		"the same target and export");
	reject_duplicates(
		root, "discovery", file, config.discoveries,
		[](const auto &a, const auto &b) { return same_endpoint(a.target, b.target); },
		"the same address and port");
	return config;
}

} // namespace rdmablk::daemon
