// SPDX-License-Identifier: GPL-2.0
/*
 * A directory of the test's own under $TMPDIR, removed with everything in it.
 */
#pragma once

#include <filesystem>
#include <string>

#include <unistd.h>

namespace rdmablk::daemon::test {

class TempDir {
public:
	explicit TempDir(const std::string &what)
		: path_(std::filesystem::temp_directory_path() /
			("rdmablkd-" + what + "-" + std::to_string(::getpid())))
	{
		std::filesystem::remove_all(path_);
	}
	~TempDir() { std::filesystem::remove_all(path_); }
	TempDir(const TempDir &) = delete;
	TempDir &operator=(const TempDir &) = delete;

	const std::filesystem::path &path() const { return path_; }
	std::filesystem::path operator/(const std::string &name) const { return path_ / name; }

private:
	std::filesystem::path path_;
};

} // namespace rdmablk::daemon::test
