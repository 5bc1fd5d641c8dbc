// SPDX-License-Identifier: GPL-2.0
#include "control/control_socket.hpp"

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <systemd/sd-daemon.h>
#include <unistd.h>

#include "config/atomic_file.hpp"

namespace rdmablk::daemon {

namespace {

[[noreturn]] void fail(const std::string &what, int err = errno)
{
	throw std::runtime_error(what + ": " + std::strerror(err));
}

sockaddr_un address_of(const std::string &path)
{
	sockaddr_un addr{};
	addr.sun_family = AF_UNIX;
	if (path.empty() || path.size() >= sizeof(addr.sun_path))
		throw std::runtime_error("control socket path \"" + path +
					 "\" is empty or too long");
	std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
	return addr;
}

/* Does a process accept connections on @path? */
bool answers(const sockaddr_un &addr)
{
	ctl::UniqueFd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
	return fd && ::connect(fd.get(), reinterpret_cast<const sockaddr *>(&addr),
			       sizeof(addr)) == 0;
}

/* The socket systemd passed, if any; others passed are not ours to keep. */
std::optional<ctl::UniqueFd> activated_socket()
{
	const int n = sd_listen_fds(1);
	if (n <= 0)
		return std::nullopt;
	if (n > 1)
		throw std::runtime_error("systemd passed " + std::to_string(n) +
					 " sockets; rdmablkd takes one (rdmablkd.socket)");
	const int fd = SD_LISTEN_FDS_START;
	if (sd_is_socket_unix(fd, SOCK_STREAM, 1, nullptr, 0) <= 0)
		throw std::runtime_error("the socket systemd passed is not a listening UNIX "
					 "stream socket");
	ctl::UniqueFd owned(fd);
	const int flags = ::fcntl(fd, F_GETFL);
	if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0 ||
	    ::fcntl(fd, F_SETFD, FD_CLOEXEC) < 0)
		fail("setting up the socket systemd passed");
	return owned;
}

} // namespace

ListenSocket ListenSocket::open(const std::string &path)
{
	if (std::optional<ctl::UniqueFd> fd = activated_socket())
		return ListenSocket(std::move(*fd), path, false);

	const sockaddr_un addr = address_of(path);
	make_dirs(parent_dir(path), 0755);
	struct stat st;
	if (::lstat(path.c_str(), &st) == 0) {
		if (!S_ISSOCK(st.st_mode))
			throw std::runtime_error(path + " exists and is not a socket; remove it");
		if (answers(addr))
			throw std::runtime_error("another rdmablkd answers on " + path);
		::unlink(path.c_str());
	}

	ctl::UniqueFd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
	if (!fd)
		fail("creating the control socket");
	const mode_t old_mask = ::umask(0177);
	const int bound = ::bind(fd.get(), reinterpret_cast<const sockaddr *>(&addr), sizeof(addr));
	const int bind_errno = errno;
	::umask(old_mask);
	if (bound < 0)
		fail("binding the control socket to " + path, bind_errno);
	ListenSocket sock(std::move(fd), path, true);
	if (::chmod(path.c_str(), 0600) < 0)
		fail("setting the mode of " + path);
	if (::listen(sock.fd_.get(), 64) < 0)
		fail("listening on " + path);
	return sock;
}

ListenSocket::ListenSocket(ListenSocket &&other) noexcept
	: fd_(std::move(other.fd_)), path_(std::move(other.path_)),
	  created_(std::exchange(other.created_, false))
{
}

ListenSocket::~ListenSocket()
{
	if (created_)
		::unlink(path_.c_str());
}

} // namespace rdmablk::daemon
