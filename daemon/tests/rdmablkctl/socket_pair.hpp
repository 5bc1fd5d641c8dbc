// SPDX-License-Identifier: GPL-2.0
/*
 * A client whose daemon is played by the other end of a socket pair, with
 * what the daemon says written in advance.
 */
#pragma once

#include <optional>
#include <string>

#include <gtest/gtest.h>

#include <sys/socket.h>
#include <unistd.h>

#include "ctl/client.hpp"

namespace rdmablk::rdmablkctl {

/*
 * A client whose daemon already sent @daemon_says and, when @leave, will
 * send nothing more (its end shut down for writing: the client's requests
 * still go through, as to a daemon that answers and then exits).
 */
struct Pair {
	explicit Pair(const std::string &daemon_says, bool leave)
	{
		int fds[2];
		EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
		client.emplace(ctl::UniqueFd(fds[0]));
		daemon = ctl::UniqueFd(fds[1]);
		EXPECT_EQ(::write(daemon.get(), daemon_says.data(), daemon_says.size()),
			  static_cast<ssize_t>(daemon_says.size()));
		if (leave) {
			EXPECT_EQ(::shutdown(daemon.get(), SHUT_WR), 0);
		}
	}

	std::optional<ctl::Client> client;
	ctl::UniqueFd daemon;
};

} // namespace rdmablk::rdmablkctl
