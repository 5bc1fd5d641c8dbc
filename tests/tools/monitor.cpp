// SPDX-License-Identifier: GPL-2.0
/*
 * rdmablk-nl monitor: print the events rdmablk.ko multicasts.
 *
 * "monitor: ready" is printed once subscribed, so that a script can start
 * the monitor in the background, wait for that line, then cause events
 * without racing the subscription.
 */
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <poll.h>

#include "commands.hpp"
#include "format.hpp"
#include "nl/error.hpp"
#include "nl/monitor.hpp"

namespace rdmablk::tool {

namespace {

using Clock = std::chrono::steady_clock;

struct MonitorArgs {
	unsigned int count = 0; /* 0: forever */
	double timeout = -1;	/* seconds; < 0: none */
};

/* Milliseconds poll() may wait until @deadline: -1 without one, rounded up. */
int poll_timeout(const std::optional<Clock::time_point> &deadline)
{
	if (!deadline)
		return -1;
	const auto left = std::chrono::ceil<std::chrono::milliseconds>(*deadline - Clock::now());
	if (left.count() <= 0)
		return 0;
	return static_cast<int>(std::min<std::chrono::milliseconds::rep>(
		left.count(), std::numeric_limits<int>::max()));
}

int run_monitor(const MonitorArgs &args)
{
	nl::EventMonitor monitor;
	std::cout << "monitor: ready" << std::endl;

	std::optional<Clock::time_point> deadline;
	if (args.timeout >= 0)
		deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
						  std::chrono::duration<double>(args.timeout));

	unsigned int seen = 0;
	while (args.count == 0 || seen < args.count) {
		pollfd pfd{.fd = monitor.fd(), .events = POLLIN, .revents = 0};
		const int ready = poll(&pfd, 1, poll_timeout(deadline));
		if (ready < 0) {
			if (errno == EINTR)
				continue;
			throw nl::Error("waiting for events", errno);
		}
		if (ready == 0) {
			std::ostringstream what;
			what << "monitor: timed out after " << args.timeout << " s with " << seen
			     << " event(s)";
			throw TimedOut(what.str());
		}
		for (const nl::Event &event : monitor.read()) {
			std::cout << format_event(event) << std::endl;
			if (++seen == args.count)
				break;
		}
	}
	return 0;
}

} // namespace

void add_monitor(CLI::App &app, Action &selected)
{
	auto args = std::make_shared<MonitorArgs>();
	CLI::App *sub = app.add_subcommand(
		"monitor", "Print events, one a line, once \"monitor: ready\" is printed");
	const CLI::Validator seconds(
		[](std::string &text) -> std::string {
			double value;
			if (!CLI::detail::lexical_cast(text, value) || !(value >= 0))
				return "\"" + text + "\" is not a number of seconds, 0 or more";
			return {};
		},
		"");

	sub->add_option("-c,--count", args->count, "Exit 0 after N events (default: never)")
		->type_name("N")
		->check(CLI::Range(1u, std::numeric_limits<unsigned int>::max()));
	sub->add_option("-t,--timeout", args->timeout,
			"Exit 3 after SEC seconds without N events (default: never)")
		->type_name("SEC")
		->check(seconds);
	sub->callback([&selected, args] { selected = [args] { return run_monitor(*args); }; });
}

} // namespace rdmablk::tool
