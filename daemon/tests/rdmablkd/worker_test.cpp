// SPDX-License-Identifier: GPL-2.0
/*
 * The worker thread and the command line.
 */
#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <thread>

#include <gtest/gtest.h>

#include <poll.h>

#include "memory_kernel.hpp"
#include "options.hpp"
#include "engine/worker.hpp"

namespace rdmablk::daemon {
namespace {

bool readable(int fd, int timeout_ms)
{
	pollfd p{fd, POLLIN, 0};
	return ::poll(&p, 1, timeout_ms) == 1;
}

TEST(Worker, JobsRunOnItsThreadInOrderAndTheirDoneOnTheCaller)
{
	auto kernel = std::make_unique<test::MemoryKernel>();
	Worker worker(std::move(kernel));
	std::vector<int> order;
	std::thread::id job_thread;
	for (int i = 0; i < 3; i++)
		worker.submit([&, i](Kernel &k) -> Done {
			k.listen_add({"192.0.2." + std::to_string(i + 1), 7471});
			job_thread = std::this_thread::get_id();
			return [&, i] { order.push_back(i); };
		});
	worker.submit([](Kernel &) -> Done { return {}; }); /* nothing to do after */
	while (order.size() < 3) {
		ASSERT_TRUE(readable(worker.fd(), 5000));
		worker.run_done();
	}
	EXPECT_EQ(order, (std::vector<int>{0, 1, 2}));
	EXPECT_NE(job_thread, std::this_thread::get_id());
}

TEST(Worker, StopsWithJobsQueued)
{
	using namespace std::chrono_literals;
	constexpr int queued = 100;
	auto worker = std::make_unique<Worker>(std::make_unique<test::MemoryKernel>());
	std::promise<void> started, release, all_dropped;
	std::shared_future<void> released = release.get_future().share();
	std::atomic<bool> first_finished{false};
	std::atomic<int> ran{0}, dropped{0};

	worker->submit([&](Kernel &) -> Done {
		started.set_value();
		released.wait();
		first_finished = true;
		return [] {};
	});
	for (int i = 0; i < queued; i++) {
		/* Counts when the last copy of the job is gone: run or dropped. */
		std::shared_ptr<int> token(new int(i), [&](int *p) {
			delete p;
			if (++dropped == queued)
				all_dropped.set_value();
		});
		worker->submit([&ran, token](Kernel &k) -> Done {
			ran++;
			k.dev_get();
			return [] {};
		});
	}
	const bool was_started = started.get_future().wait_for(5s) == std::future_status::ready;
	const int dropped_before = dropped;

	/* The destructor, on a thread of its own: it must wait for the job under way. */
	std::future<void> stopped = std::async(std::launch::async, [&] { worker.reset(); });
	const bool dropped_while_busy =
		all_dropped.get_future().wait_for(5s) == std::future_status::ready;
	const bool returned_early = stopped.wait_for(0s) == std::future_status::ready;
	release.set_value();
	ASSERT_EQ(stopped.wait_for(5s), std::future_status::ready) << "the destructor did not join";

	EXPECT_TRUE(was_started) << "the first job never ran";
	EXPECT_EQ(dropped_before, 0) << "queued jobs were dropped before the worker stopped";
	EXPECT_TRUE(dropped_while_busy) << "the queued jobs were not dropped at once";
	EXPECT_FALSE(returned_early) << "the destructor returned before the job under way ended";
	EXPECT_TRUE(first_finished) << "the job under way was cut short";
	EXPECT_EQ(ran, 0) << "jobs queued behind the stop ran";
	EXPECT_EQ(dropped, queued);
}

std::vector<char *> argv_of(std::vector<std::string> &args)
{
	std::vector<char *> out;
	for (std::string &a : args)
		out.push_back(a.data());
	out.push_back(nullptr);
	return out;
}

Options parse(std::vector<std::string> args)
{
	args.insert(args.begin(), "rdmablkd");
	std::vector<char *> argv = argv_of(args);
	return parse_options(static_cast<int>(args.size()), argv.data());
}

TEST(Options, DefaultsAndOverrides)
{
	::unsetenv("RDMABLK_CONFIG");
	::unsetenv("RDMABLK_SOCKET");
	::unsetenv("NOTIFY_SOCKET");
	Options o = parse({});
	EXPECT_EQ(o.config, "/etc/rdmablk/rdmablk.conf");
	EXPECT_EQ(o.socket, "/run/rdmablk/rdmablkd.sock");
	EXPECT_EQ(o.state_dir, "/var/lib/rdmablk");
	EXPECT_FALSE(o.notify);
	EXPECT_TRUE(o.modprobe);

	::setenv("RDMABLK_SOCKET", "/tmp/env.sock", 1);
	::setenv("NOTIFY_SOCKET", "/run/systemd/notify", 1);
	o = parse({"-c", "/tmp/x.conf", "--state-dir", "/tmp/st", "--no-modprobe"});
	EXPECT_EQ(o.config, "/tmp/x.conf");
	EXPECT_EQ(o.socket, "/tmp/env.sock");
	EXPECT_EQ(o.state_dir, "/tmp/st");
	EXPECT_TRUE(o.notify);
	EXPECT_FALSE(o.modprobe);
	EXPECT_EQ(parse({"--socket=/tmp/opt.sock"}).socket, "/tmp/opt.sock");
	::unsetenv("RDMABLK_SOCKET");
	::unsetenv("NOTIFY_SOCKET");
}

TEST(Options, Mistakes)
{
	EXPECT_THROW(parse({"--frob"}), UsageError);
	EXPECT_THROW(parse({"--config"}), UsageError);
	EXPECT_THROW(parse({"extra"}), UsageError);
	EXPECT_THROW(parse({"--config="}), UsageError);
	EXPECT_TRUE(parse({"--check-config"}).check_config);
}

} // namespace
} // namespace rdmablk::daemon
