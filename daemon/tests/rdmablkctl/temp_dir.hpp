// SPDX-License-Identifier: GPL-2.0
/*
 * A fresh directory under /tmp for one test, removed with everything in it.
 */
#pragma once

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

namespace rdmablk::rdmablkctl {

class TempDir {
public:
	TempDir()
	{
		char templ[] = "/tmp/rdmablkctl-test-XXXXXX";
		if (!::mkdtemp(templ))
			throw std::system_error(errno, std::generic_category(), "mkdtemp");
		path_ = templ;
	}
	~TempDir() { std::filesystem::remove_all(path_); }
	TempDir(const TempDir &) = delete;
	TempDir &operator=(const TempDir &) = delete;

	std::string path() const { return path_; }

private:
	std::string path_;
};

} // namespace rdmablk::rdmablkctl
