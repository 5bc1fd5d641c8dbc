// SPDX-License-Identifier: GPL-2.0
#include "config/atomic_file.hpp"

#include <cerrno>
#include <cstdlib>
#include <system_error>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctl/fd.hpp"

namespace rdmablk::daemon {

namespace {

[[noreturn]] void fail(const std::string &what, const std::string &path, int err = errno)
{
	throw std::system_error(err, std::generic_category(), what + " " + path);
}

void write_all(int fd, std::string_view content, const std::string &path)
{
	while (!content.empty()) {
		const ssize_t n = ::write(fd, content.data(), content.size());
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			fail("writing", path);
		content.remove_prefix(static_cast<std::size_t>(n));
	}
}

/* Removes the temporary file unless it was renamed into place. */
struct TempFile {
	std::string path;
	bool keep = false;
	~TempFile()
	{
		if (!keep)
			::unlink(path.c_str());
	}
};

} // namespace

std::string parent_dir(const std::string &path)
{
	const std::size_t slash = path.rfind('/');
	if (slash == std::string::npos)
		return ".";
	if (slash == 0)
		return "/";
	return path.substr(0, slash);
}

void make_dirs(const std::string &path, mode_t mode)
{
	struct stat st;
	if (::stat(path.c_str(), &st) == 0) {
		if (!S_ISDIR(st.st_mode))
			fail("not a directory:", path, ENOTDIR);
		return;
	}
	const std::string parent = parent_dir(path);
	if (parent != path && parent != "." && parent != "/")
		make_dirs(parent, mode);
	if (::mkdir(path.c_str(), mode) < 0 && errno != EEXIST)
		fail("creating directory", path);
}

void write_atomic(const std::string &path, std::string_view content, mode_t mode)
{
	const std::string dir = parent_dir(path);
	std::string tmpl = path + ".XXXXXX";
	ctl::UniqueFd fd(::mkostemp(tmpl.data(), O_CLOEXEC));
	if (!fd)
		fail("creating a temporary file for", path);
	TempFile tmp{tmpl};

	if (::fchmod(fd.get(), mode) < 0)
		fail("setting the mode of", tmp.path);
	write_all(fd.get(), content, tmp.path);
	if (::fsync(fd.get()) < 0)
		fail("syncing", tmp.path);
	fd.reset();
	if (::rename(tmp.path.c_str(), path.c_str()) < 0)
		fail("renaming " + tmp.path + " to", path);
	tmp.keep = true;

	ctl::UniqueFd dirfd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
	if (!dirfd || ::fsync(dirfd.get()) < 0)
		fail("syncing directory", dir);
}

} // namespace rdmablk::daemon
