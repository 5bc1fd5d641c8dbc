// SPDX-License-Identifier: GPL-2.0
/*
 * The client side of the control socket: connect, send a request, wait for
 * its response.
 */
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "ctl/fd.hpp"
#include "ctl/framer.hpp"
#include "ctl/protocol.hpp"

namespace rdmablk::ctl {

class Client {
public:
	/*
	 * Connect to the daemon's socket at @path. Throws std::system_error
	 * with the errno; ENOENT and ECONNREFUSED mean rdmablkd is not running.
	 */
	static Client connect(const std::string &path);

	/* A client on an already connected stream socket. */
	explicit Client(UniqueFd fd) noexcept : fd_(std::move(fd)) {}

	/*
	 * Send @request and wait at most @timeout for the response. Throws
	 * std::system_error (ETIMEDOUT when the time ran out, ECONNRESET when
	 * the daemon closed the connection, or the failing call's errno) and
	 * ProtocolError when the answer is not a response.
	 */
	Response call(const Request &request, std::chrono::milliseconds timeout);

	/*
	 * The next line the daemon sends, without its '\n', waiting as long
	 * as it takes (a monitor's events); nullopt when the daemon closed
	 * the connection. Throws std::system_error and ProtocolError (a line
	 * too long).
	 */
	std::optional<std::string> next_line();

	int fd() const noexcept { return fd_.get(); }

private:
	using Clock = std::chrono::steady_clock;

	/* The next line; waits until @deadline (ETIMEDOUT), or for ever. */
	std::optional<std::string> read_line(std::optional<Clock::time_point> deadline);

	UniqueFd fd_;
	LineFramer framer_;
};

} // namespace rdmablk::ctl
