// SPDX-License-Identifier: GPL-2.0
#include "nl/file.hpp"

#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

#include "nl/error.hpp"

namespace rdmablk::nl {

namespace {

class Fd {
public:
	explicit Fd(int fd) noexcept : fd_(fd) {}
	Fd(const Fd &) = delete;
	Fd &operator=(const Fd &) = delete;
	~Fd()
	{
		if (fd_ >= 0)
			close(fd_);
	}

	int get() const noexcept { return fd_; }

private:
	int fd_;
};

} // namespace

std::optional<std::string> read_file(const std::string &path, std::size_t max)
{
	const Fd fd(open(path.c_str(), O_RDONLY | O_CLOEXEC));
	if (fd.get() < 0) {
		if (errno == ENOENT)
			return std::nullopt;
		throw Error("opening " + path, errno);
	}

	std::string content(max, '\0');
	std::size_t have = 0;
	while (have < max) {
		const ssize_t n = read(fd.get(), content.data() + have, max - have);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			throw Error("reading " + path, errno);
		}
		if (n == 0)
			break;
		have += static_cast<std::size_t>(n);
	}
	content.resize(have);
	return content;
}

} // namespace rdmablk::nl
