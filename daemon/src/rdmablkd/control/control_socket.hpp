// SPDX-License-Identifier: GPL-2.0
/*
 * The control socket's listening end: the one systemd passes
 * (rdmablkd.socket) or one created at the configured path, in a directory
 * of mode 0755, with mode 0600.
 */
#pragma once

#include <optional>
#include <string>

#include "ctl/fd.hpp"

namespace rdmablk::daemon {

class ListenSocket {
public:
	/*
	 * The socket systemd passed (sd_listen_fds), else a new one bound to
	 * @path. A stale socket file there (nobody answers) is replaced; one a
	 * running rdmablkd answers on is an error. Throws std::runtime_error.
	 */
	static ListenSocket open(const std::string &path);

	/* Removes the socket file if this process created it. */
	~ListenSocket();
	ListenSocket(ListenSocket &&other) noexcept;
	ListenSocket &operator=(ListenSocket &&) = delete;

	/* The listening descriptor, for the server to take. */
	ctl::UniqueFd take() { return std::move(fd_); }

	bool activated() const { return !created_; }
	const std::string &path() const { return path_; }

private:
	ListenSocket(ctl::UniqueFd fd, std::string path, bool created)
		: fd_(std::move(fd)), path_(std::move(path)), created_(created)
	{
	}

	ctl::UniqueFd fd_;
	std::string path_;
	bool created_;
};

} // namespace rdmablk::daemon
