// SPDX-License-Identifier: GPL-2.0
#include "stat_loop.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <system_error>
#include <variant>

#include <poll.h>
#include <sys/socket.h>

#include "render.hpp"
#include "stat.hpp"

namespace rdmablk::rdmablkctl {

namespace {

using Clock = std::chrono::steady_clock;

volatile std::sig_atomic_t stop_requested = 0;
/* The connection to rdmablkd, which a stop signal shuts down. */
std::atomic<int> stop_fd{-1};
static_assert(std::atomic<int>::is_always_lock_free, "a signal handler reads stop_fd");

void on_stop_signal(int)
{
	stop_requested = 1;
	const int fd = stop_fd.load();
	if (fd >= 0)
		::shutdown(fd, SHUT_RDWR);
}

/*
 * While it lives, SIGINT and SIGTERM end the loop rather than the
 * process: the handler notes the request and shuts the connection @fd
 * down, which ends at once whatever the loop waits for, an answer or the
 * next sample (it waits for @fd then too). A signal the process was
 * started ignoring stays ignored.
 */
class StopSignals {
public:
	explicit StopSignals(int fd)
	{
		stop_requested = 0;
		stop_fd = fd;
		struct sigaction action {};
		action.sa_handler = on_stop_signal;
		sigemptyset(&action.sa_mask);
		for (auto &[signo, old] : saved_) {
			::sigaction(signo, &action, &old);
			if (old.sa_handler == SIG_IGN)
				::sigaction(signo, &old, nullptr);
		}
	}
	~StopSignals()
	{
		for (const auto &[signo, old] : saved_)
			::sigaction(signo, &old, nullptr);
		stop_fd = -1;
	}
	StopSignals(const StopSignals &) = delete;
	StopSignals &operator=(const StopSignals &) = delete;

	bool requested() const { return stop_requested != 0; }

private:
	std::pair<int, struct sigaction> saved_[2] = {{SIGINT, {}}, {SIGTERM, {}}};
};

/*
 * Wait until @deadline, unless a stop is requested or @fd has something to
 * read first: rdmablkd sends nothing unasked, so it closed the connection,
 * which the next request finds out.
 */
void wait_until(Clock::time_point deadline, int fd, const StopSignals &stop)
{
	while (!stop.requested()) {
		const auto left =
			std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now())
				.count();
		if (left <= 0)
			return;
		pollfd pfd{fd, POLLIN, 0};
		const int n = ::poll(&pfd, 1, static_cast<int>(std::min<long long>(left, 60000)));
		if (n > 0 || (n < 0 && errno != EINTR))
			return;
	}
}

/* A DEVICE asked for that is not there (any more). */
bool device_gone(const Invocation &invocation, const ctl::Response &response)
{
	return invocation.request.args.contains("device") && response.error &&
	       response.error->code == ctl::code::not_found;
}

/*
 * The status of the devices now, or how the run ends: with the error of
 * any other command, but when a stop was requested or, after the @first
 * sample, when the DEVICE asked for went away (then it has no devices).
 */
std::variant<StatSample, Outcome> take_sample(const Invocation &invocation, ctl::Client &client,
					      bool first, const StopSignals &stop)
{
	ctl::Response response;
	try {
		response = client.call(invocation.request, invocation.timeout);
	} catch (const std::system_error &e) {
		if (stop.requested())
			return Outcome{};
		return no_answer(invocation, e.code());
	} catch (const ctl::ProtocolError &e) {
		if (stop.requested())
			return Outcome{};
		return bad_answer(e.what());
	}
	if (stop.requested())
		return Outcome{};

	StatSample sample{Clock::now(), std::chrono::system_clock::now(), nlohmann::json::array()};
	if (response.ok) {
		if (const auto it = response.result.find("devices"); it != response.result.end())
			sample.devices = std::move(*it);
	} else if (first || !device_gone(invocation, response)) {
		return render(invocation, response);
	}
	return sample;
}

} // namespace

Outcome stat_loop(const Invocation &invocation, ctl::Client &client, std::ostream &out)
{
	const StopSignals stop(client.fd());
	auto taken = take_sample(invocation, client, true, stop);
	if (auto *end = std::get_if<Outcome>(&taken))
		return std::move(*end);
	StatSample last = std::get<StatSample>(std::move(taken));

	Clock::time_point due = last.at;
	for (std::uint64_t reports = 0; !invocation.count || reports < invocation.count;
	     reports++) {
		/* On time; when rdmablkd was slower than that, an interval after its answer. */
		due += invocation.interval;
		if (due <= last.at)
			due = last.at + invocation.interval;
		wait_until(due, client.fd(), stop);
		if (stop.requested())
			break;
		taken = take_sample(invocation, client, false, stop);
		if (auto *end = std::get_if<Outcome>(&taken))
			return std::move(*end);
		StatSample sample = std::get<StatSample>(std::move(taken));

		const StatReport report = stat_report(last, sample);
		if (invocation.output == Output::json)
			out << ctl::to_line(stat_json(report, invocation.per_queue));
		else
			out << (reports ? "\n" : "") << stat_text(report, invocation.per_queue);
		out << std::flush;
		last = std::move(sample);
	}
	return Outcome{};
}

} // namespace rdmablk::rdmablkctl
