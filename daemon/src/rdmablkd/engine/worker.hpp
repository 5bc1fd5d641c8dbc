// SPDX-License-Identifier: GPL-2.0
/*
 * The worker thread: the one place rdmablkd talks to the kernel (and
 * writes its files), so that a request that takes seconds (attaching to a
 * slow target) never holds up the event loop.
 *
 * A Job runs on the worker, one at a time in the order submitted, and
 * returns what to do with its outcome: a Done, which the event loop runs
 * (Worker::run_done(), when fd() is readable). Nothing else crosses
 * threads.
 */
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

#include "ctl/fd.hpp"
#include "kernel/kernel.hpp"

namespace rdmablk::daemon {

/* Runs on the event loop thread. */
using Done = std::function<void()>;
/* Runs on the worker thread; must not throw. */
using Job = std::function<Done(Kernel &)>;

class Executor {
public:
	virtual ~Executor() = default;
	virtual void submit(Job job) = 0;
};

class Worker final : public Executor {
public:
	/* Start the thread; it owns @kernel from now on. */
	explicit Worker(std::unique_ptr<Kernel> kernel);
	/* Finishes the job under way, drops those not started, joins. */
	~Worker() override;

	Worker(const Worker &) = delete;
	Worker &operator=(const Worker &) = delete;

	void submit(Job job) override;

	/* An eventfd, readable when finished jobs wait for run_done(). */
	int fd() const noexcept { return event_.get(); }

	/* Run the Done of every finished job, in order. Event loop thread only. */
	void run_done();

private:
	void run();

	std::unique_ptr<Kernel> kernel_;
	ctl::UniqueFd event_;
	std::mutex lock_;
	std::condition_variable wake_;
	std::deque<Job> jobs_;
	std::deque<Done> done_;
	bool stopping_ = false;
	std::thread thread_;
};

} // namespace rdmablk::daemon
