// SPDX-License-Identifier: GPL-2.0
#include "engine/worker.hpp"

#include <cerrno>
#include <cstdint>
#include <system_error>

#include <sys/eventfd.h>
#include <unistd.h>

namespace rdmablk::daemon {

Worker::Worker(std::unique_ptr<Kernel> kernel)
	: kernel_(std::move(kernel)), event_(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC))
{
	if (!event_)
		throw std::system_error(errno, std::generic_category(), "creating an eventfd");
	thread_ = std::thread([this] { run(); });
}

Worker::~Worker()
{
	{
		std::lock_guard guard(lock_);
		stopping_ = true;
		jobs_.clear();
	}
	wake_.notify_one();
	thread_.join();
}

void Worker::submit(Job job)
{
	{
		std::lock_guard guard(lock_);
		jobs_.push_back(std::move(job));
	}
	wake_.notify_one();
}

void Worker::run()
{
	std::unique_lock guard(lock_);
	for (;;) {
		wake_.wait(guard, [this] { return stopping_ || !jobs_.empty(); });
		if (stopping_)
			return;
		Job job = std::move(jobs_.front());
		jobs_.pop_front();
		guard.unlock();
		Done done = job(*kernel_);
		guard.lock();
		if (done) {
			done_.push_back(std::move(done));
			const std::uint64_t one = 1;
			/* Cannot fail short of a counter overflow; the loop reads it empty. */
			[[maybe_unused]] const ssize_t n = ::write(event_.get(), &one, sizeof(one));
		}
	}
}

void Worker::run_done()
{
	std::uint64_t count;
	[[maybe_unused]] const ssize_t n = ::read(event_.get(), &count, sizeof(count));
	std::deque<Done> ready;
	{
		std::lock_guard guard(lock_);
		ready.swap(done_);
	}
	for (Done &done : ready)
		done();
}

} // namespace rdmablk::daemon
