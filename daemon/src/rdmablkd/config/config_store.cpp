// SPDX-License-Identifier: GPL-2.0
#include "config/config_store.hpp"

namespace rdmablk::daemon {

ConfigStore::ConfigStore(std::string path) : path_(std::move(path))
{
}

Config ConfigStore::load()
{
	const std::lock_guard guard(lock_);
	std::optional<std::string> text = read_config_text(path_);
	Config config = text ? parse_config(*text, path_) : Config{};
	known_ = std::move(text);
	return config;
}

void ConfigStore::check_locked() const
{
	std::optional<std::string> now;
	try {
		now = read_config_text(path_);
	} catch (const ConfigError &e) {
		throw SaveError(e.what());
	}
	if (now != known_)
		throw ConfigChanged(path_ + (now ? " was changed" : " was removed") +
				    " since rdmablkd last read it; apply the edit with "
				    "'rdmablkctl reload' (or 'systemctl reload rdmablkd'), "
				    "then repeat the command");
}

void ConfigStore::check() const
{
	const std::lock_guard guard(lock_);
	check_locked();
}

void ConfigStore::save(const Config &config)
{
	const std::lock_guard guard(lock_);
	check_locked();
	std::string text = format_config(config);
	save_config_text(path_, text);
	known_ = std::move(text);
}

} // namespace rdmablk::daemon
