// SPDX-License-Identifier: GPL-2.0
/*
 * The configuration file on disk, and finding objects in a configuration.
 */
#include <algorithm>
#include <cstdlib>
#include <system_error>

#include "config/addr.hpp"
#include "config/atomic_file.hpp"
#include "config/config.hpp"
#include "config/rules.hpp"
#include "nl/error.hpp"
#include "nl/file.hpp"

namespace rdmablk::daemon {

namespace {

/* Far more than any real configuration; guards against reading a wrong file whole. */
constexpr std::size_t config_max = 16 * 1024 * 1024;

} // namespace

std::string config_path(const std::optional<std::string> &option)
{
	if (option)
		return *option;
	if (const char *env = std::getenv("RDMABLK_CONFIG"); env && *env)
		return env;
	return default_config_path;
}

std::optional<std::string> read_config_text(const std::string &path)
{
	try {
		return nl::read_file(path, config_max);
	} catch (const nl::Error &e) {
		throw ConfigError(path + ": " + e.what());
	}
}

Config load_config(const std::string &path)
{
	const std::optional<std::string> text = read_config_text(path);
	if (!text)
		return Config{};
	return parse_config(*text, path);
}

void save_config_text(const std::string &path, std::string_view text)
{
	make_dirs(parent_dir(path), 0755);
	write_atomic(path, text, 0644);
}

void save_config(const std::string &path, const Config &config)
{
	save_config_text(path, format_config(config));
}

const ListenerConfig *find_listener(const Config &config, const nl::Endpoint &endpoint)
{
	for (const ListenerConfig &l : config.listeners)
		if (same_endpoint(l.endpoint, endpoint))
			return &l;
	return nullptr;
}

const ExportConfig *find_export(const Config &config, std::string_view name)
{
	for (const ExportConfig &e : config.exports)
		if (e.name == name)
			return &e;
	return nullptr;
}

const HostConfig *find_host(const Config &config, const nl::Uuid &id)
{
	for (const HostConfig &h : config.hosts)
		if (h.id == id)
			return &h;
	return nullptr;
}

const AttachmentConfig *find_attachment(const Config &config, const nl::Endpoint &target,
					std::string_view export_name)
{
	for (const AttachmentConfig &a : config.attachments)
		if (same_attachment(a, target, export_name))
			return &a;
	return nullptr;
}

namespace {

bool listed(const std::vector<nl::Endpoint> &list, const nl::Endpoint &endpoint)
{
	return std::any_of(list.begin(), list.end(),
			   [&](const nl::Endpoint &e) { return same_endpoint(e, endpoint); });
}

void unlist(std::vector<nl::Endpoint> &list, const nl::Endpoint &endpoint)
{
	std::erase_if(list, [&](const nl::Endpoint &e) { return same_endpoint(e, endpoint); });
}

} // namespace

bool has_path(const AttachmentConfig &a, const nl::Endpoint &endpoint)
{
	return same_endpoint(a.target, endpoint) || listed(a.paths, endpoint);
}

bool is_standby(const AttachmentConfig &a, const nl::Endpoint &endpoint)
{
	return listed(a.standby, endpoint);
}

bool same_attachment(const AttachmentConfig &a, const nl::Endpoint &target,
		     std::string_view export_name)
{
	return a.export_name == export_name && has_path(a, target);
}

void add_path(AttachmentConfig &a, const nl::Endpoint &endpoint, std::optional<bool> standby)
{
	if (!has_path(a, endpoint))
		a.paths.push_back(endpoint);
	if (!standby)
		return;
	unlist(a.standby, endpoint);
	if (*standby)
		a.standby.push_back(endpoint);
}

bool remove_path(AttachmentConfig &a, const nl::Endpoint &endpoint)
{
	if (same_endpoint(a.target, endpoint)) {
		if (a.paths.empty())
			return false;
		a.target = a.paths.front();
		a.paths.erase(a.paths.begin());
	}
	unlist(a.paths, endpoint);
	unlist(a.standby, endpoint);
	return true;
}

const DiscoveryConfig *find_discovery(const Config &config, const nl::Endpoint &target)
{
	for (const DiscoveryConfig &d : config.discoveries)
		if (same_endpoint(d.target, target))
			return &d;
	return nullptr;
}

std::string canonical_attach_item(std::string_view item)
{
	try {
		return nl::to_string(nl::parse_uuid(item));
	} catch (const std::invalid_argument &) {
	}
	if (const std::string problem = check_export_name(item); !problem.empty())
		throw std::invalid_argument("'" + std::string(item) +
					    "' is neither an export UUID nor an export name: " +
					    problem);
	return std::string(item);
}

} // namespace rdmablk::daemon
