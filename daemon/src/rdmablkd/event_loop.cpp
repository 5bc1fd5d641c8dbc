// SPDX-License-Identifier: GPL-2.0
#include "event_loop.hpp"

#include <cerrno>
#include <system_error>

#include <sys/epoll.h>

namespace rdmablk::daemon {

namespace {

[[noreturn]] void fail(const char *what)
{
	throw std::system_error(errno, std::generic_category(), what);
}

} // namespace

EventLoop::EventLoop() : epoll_(::epoll_create1(EPOLL_CLOEXEC))
{
	if (!epoll_)
		fail("creating an epoll instance");
}

std::uint64_t EventLoop::add(int fd, std::uint32_t events, Callback callback)
{
	const std::uint64_t token = next_token_++;
	epoll_event ev{};
	ev.events = events;
	ev.data.u64 = token;
	if (::epoll_ctl(epoll_.get(), EPOLL_CTL_ADD, fd, &ev) < 0)
		fail("watching a file descriptor");
	watches_[token] = Watch{fd, std::make_shared<Callback>(std::move(callback))};
	return token;
}

void EventLoop::modify(std::uint64_t token, std::uint32_t events)
{
	const auto it = watches_.find(token);
	if (it == watches_.end())
		return;
	epoll_event ev{};
	ev.events = events;
	ev.data.u64 = token;
	if (::epoll_ctl(epoll_.get(), EPOLL_CTL_MOD, it->second.fd, &ev) < 0)
		fail("changing what a file descriptor is watched for");
}

void EventLoop::remove(std::uint64_t token)
{
	const auto it = watches_.find(token);
	if (it == watches_.end())
		return;
	::epoll_ctl(epoll_.get(), EPOLL_CTL_DEL, it->second.fd, nullptr);
	watches_.erase(it);
}

void EventLoop::run(const std::function<void()> &after)
{
	running_ = true;
	while (running_) {
		epoll_event events[32];
		const int n = ::epoll_wait(epoll_.get(), events, 32, -1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			fail("waiting for events");
		for (int i = 0; i < n && running_; i++) {
			const auto it = watches_.find(events[i].data.u64);
			if (it == watches_.end())
				continue; /* removed by an earlier callback of this batch */
			const std::shared_ptr<Callback> callback = it->second.callback;
			(*callback)(events[i].events);
		}
		if (after)
			after();
	}
}

} // namespace rdmablk::daemon
