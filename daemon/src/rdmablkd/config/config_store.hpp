// SPDX-License-Identifier: GPL-2.0
/*
 * The configuration file, with rdmablkd as its one writer.
 *
 * An admin may edit the file by hand and apply the edit with a reload; a
 * change made through rdmablkctl must then never overwrite an edit that
 * was not applied yet. The store remembers the file's text as it last
 * read or wrote it, and refuses to write over any other text
 * (ConfigChanged), so the admin learns about it instead of losing it.
 *
 * Thread-safe; in the daemon, only the worker reads and writes the file
 * once it is running.
 */
#pragma once

#include <mutex>
#include <optional>
#include <string>

#include "config/config.hpp"
#include "config/desired.hpp"

namespace rdmablk::daemon {

class ConfigStore {
public:
	explicit ConfigStore(std::string path);

	const std::string &path() const { return path_; }

	/*
	 * Read and parse the file and remember its text; an empty Config when
	 * it does not exist. Throws ConfigError and then remembers nothing new.
	 */
	Config load();

	/*
	 * Write @config (save_config) unless the file changed since it was last
	 * loaded or saved here: then throws ConfigChanged and writes nothing.
	 * Other failures throw std::exception with the reason.
	 */
	void save(const Config &config);

	/* Throws ConfigChanged when the file is no longer what was loaded or saved. */
	void check() const;

private:
	void check_locked() const;

	const std::string path_;
	mutable std::mutex lock_; /* known_, and each read-compare-write */
	/* The text last loaded or saved; nullopt: the file did not exist. */
	std::optional<std::string> known_;
};

} // namespace rdmablk::daemon
