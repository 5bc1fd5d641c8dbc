// SPDX-License-Identifier: GPL-2.0
/*
 * The configuration file on disk, and finding objects in a configuration.
 */
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
		if (a.export_name == export_name && same_endpoint(a.target, target))
			return &a;
	return nullptr;
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
