// SPDX-License-Identifier: GPL-2.0
/*
 * A small epoll loop: file descriptors and what to call when they are ready.
 */
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>

#include "ctl/fd.hpp"

namespace rdmablk::daemon {

class EventLoop {
public:
	/* Called with the epoll events (EPOLLIN, EPOLLOUT, EPOLLHUP, ...) that occurred. */
	using Callback = std::function<void(std::uint32_t events)>;

	EventLoop();

	/* Watch @fd for @events; returns a token for modify() and remove(). */
	std::uint64_t add(int fd, std::uint32_t events, Callback callback);
	void modify(std::uint64_t token, std::uint32_t events);
	/* Stop watching; safe from inside any callback, its own included. */
	void remove(std::uint64_t token);

	/* Dispatch until stop(); @after runs after every batch of events. */
	void run(const std::function<void()> &after);
	void stop() { running_ = false; }

private:
	struct Watch {
		int fd;
		std::shared_ptr<Callback> callback;
	};

	ctl::UniqueFd epoll_;
	std::map<std::uint64_t, Watch> watches_;
	std::uint64_t next_token_ = 1;
	bool running_ = false;
};

} // namespace rdmablk::daemon
