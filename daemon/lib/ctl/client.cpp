// SPDX-License-Identifier: GPL-2.0
#include "ctl/client.hpp"

#include <cerrno>
#include <cstring>
#include <system_error>

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>

namespace rdmablk::ctl {

namespace {

using Clock = std::chrono::steady_clock;

[[noreturn]] void fail_errno(int err, const std::string &what)
{
	throw std::system_error(err, std::generic_category(), what);
}

/* Wait until @fd is ready for @events or @deadline passes (ETIMEDOUT). */
void wait_for(int fd, short events, Clock::time_point deadline)
{
	for (;;) {
		const auto left =
			std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now());
		if (left.count() <= 0)
			fail_errno(ETIMEDOUT, "no answer from rdmablkd");
		pollfd pfd{fd, events, 0};
		const int n =
			::poll(&pfd, 1, static_cast<int>(std::min<long long>(left.count(), 60000)));
		if (n > 0)
			return;
		if (n < 0 && errno != EINTR)
			fail_errno(errno, "poll");
	}
}

void send_all(int fd, std::string_view data, Clock::time_point deadline)
{
	while (!data.empty()) {
		wait_for(fd, POLLOUT, deadline);
		const ssize_t n = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			fail_errno(errno, "send to rdmablkd");
		}
		data.remove_prefix(static_cast<std::size_t>(n));
	}
}

} // namespace

Client Client::connect(const std::string &path)
{
	sockaddr_un addr{};
	addr.sun_family = AF_UNIX;
	if (path.empty() || path.size() >= sizeof(addr.sun_path))
		fail_errno(ENAMETOOLONG, "socket path " + path);
	std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);

	UniqueFd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
	if (!fd)
		fail_errno(errno, "socket");
	int ret;
	do {
		ret = ::connect(fd.get(), reinterpret_cast<const sockaddr *>(&addr), sizeof(addr));
	} while (ret < 0 && errno == EINTR);
	if (ret < 0)
		fail_errno(errno, "connect to " + path);
	return Client(std::move(fd));
}

Response Client::call(const Request &request, std::chrono::milliseconds timeout)
{
	const auto deadline = Clock::now() + timeout;
	send_all(fd_.get(), to_line(to_json(request)), deadline);

	std::optional<std::string> line = read_line(deadline);
	if (!line)
		fail_errno(ECONNRESET, "rdmablkd closed the connection without answering");
	return parse_response_line(*line);
}

std::optional<std::string> Client::next_line()
{
	return read_line(std::nullopt);
}

std::optional<std::string> Client::read_line(std::optional<Clock::time_point> deadline)
{
	for (;;) {
		if (auto line = framer_.next_line())
			return line;

		if (deadline)
			wait_for(fd_.get(), POLLIN, *deadline);
		char buf[65536];
		const ssize_t n = ::recv(fd_.get(), buf, sizeof(buf), deadline ? MSG_DONTWAIT : 0);
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			fail_errno(errno, "receive from rdmablkd");
		}
		if (n == 0)
			return std::nullopt;
		framer_.feed(std::string_view(buf, static_cast<std::size_t>(n)));
	}
}

} // namespace rdmablk::ctl
