// SPDX-License-Identifier: GPL-2.0
/*
 * rdmablkctl stat from the command line to the reports, against a daemon
 * played by the other end of a socket pair whose answers are written in
 * advance.
 */
#include <gtest/gtest.h>

#include <csignal>
#include <sstream>
#include <string>
#include <thread>

#include <unistd.h>

#include "cli.hpp"
#include "render.hpp"
#include "samples.hpp"
#include "socket_pair.hpp"
#include "stat_loop.hpp"

namespace rdmablk::rdmablkctl {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

Invocation stat_invocation(Output output, std::uint64_t count, json args = json::object())
{
	Invocation invocation;
	invocation.request = {"status", std::move(args)};
	invocation.output = output;
	invocation.socket = "/run/test.sock";
	invocation.mode = Mode::stat;
	invocation.count = count;
	invocation.interval = 100ms;
	return invocation;
}

/* A status answer with rdmablk0 after @reads reads. */
std::string status_line(long long reads)
{
	json device = samples::with_status(samples::live_device(), reads);
	device["io"]["reads"] = reads;
	return ctl::to_line(
		ctl::to_json(ctl::ok({{"devices", {device}}, {"daemon", json::object()}})));
}

std::string not_found_line()
{
	return ctl::to_line(
		ctl::to_json(ctl::fail(ctl::code::not_found, "no device rdmablk0",
				       "'rdmablkctl list' shows the attached devices")));
}

std::vector<json> json_lines(const std::string &out)
{
	std::vector<json> lines;
	std::istringstream in(out);
	for (std::string line; std::getline(in, line);)
		lines.push_back(json::parse(line));
	return lines;
}

TEST(Stat, ParsesToAStatInvocation)
{
	const auto parsed = parse_args(
		{"stat", "rdmablk2", "--interval", "0.5", "--count", "3", "--queues", "-o", "json"},
		"/s");
	const auto *invocation = std::get_if<Invocation>(&parsed);
	ASSERT_NE(invocation, nullptr) << std::get<Outcome>(parsed).error;
	EXPECT_EQ(invocation->mode, Mode::stat);
	EXPECT_EQ(invocation->request.cmd, "status");
	EXPECT_EQ(invocation->request.args, (json{{"device", "/dev/rdmablk2"}}));
	EXPECT_EQ(invocation->interval, 500ms);
	EXPECT_EQ(invocation->count, 3u);
	EXPECT_TRUE(invocation->per_queue);
	EXPECT_EQ(invocation->output, Output::json);

	const Invocation defaults = std::get<Invocation>(parse_args({"stat"}, "/s"));
	EXPECT_EQ(defaults.request.args, json::object());
	EXPECT_EQ(defaults.interval, 1s);
	EXPECT_EQ(defaults.count, 0u);
	EXPECT_FALSE(defaults.per_queue);
	EXPECT_EQ(std::get<Invocation>(parse_args({"stat", "--interval", "2"}, "/s")).interval, 2s);
	EXPECT_EQ(std::get<Invocation>(parse_args({"stat", "--interval", "0.1"}, "/s")).interval,
		  100ms);
	EXPECT_EQ(std::get<Invocation>(parse_args({"stat", "--interval", "1.2345"}, "/s")).interval,
		  1235ms);
	EXPECT_EQ(std::get<Invocation>(parse_args({"status"}, "/s")).mode, Mode::once);
}

TEST(Stat, RefusesBadOptionsAsUsageErrors)
{
	for (const char *bad : {"0", "0.09", "-1", "x", "1s", "1e3", "nan", "inf", "86401"}) {
		const auto refused = parse_args({"stat", "--interval", bad}, "/s");
		const auto *outcome = std::get_if<Outcome>(&refused);
		ASSERT_NE(outcome, nullptr) << bad;
		EXPECT_EQ(outcome->exit_code, exit_usage) << bad;
		EXPECT_EQ(outcome->error, std::string("invalid --interval \"") + bad +
						  "\": expected a number of seconds from 0.1 to "
						  "86400")
			<< bad;
	}
	const auto refused = parse_args({"stat", "--count", "0"}, "/s");
	ASSERT_NE(std::get_if<Outcome>(&refused), nullptr);
	EXPECT_NE(std::get<Outcome>(refused).error.find("--count"), std::string::npos);
	const auto not_a_device = parse_args({"stat", "nvme0n1"}, "/s");
	ASSERT_NE(std::get_if<Outcome>(&not_a_device), nullptr);
	EXPECT_EQ(std::get<Outcome>(not_a_device).exit_code, exit_usage);
}

TEST(Stat, PrintsAJsonLineAnIntervalAndStopsAfterCount)
{
	Pair pair(status_line(100) + status_line(200) + status_line(300) + status_line(400), false);
	std::ostringstream out;
	const auto start = std::chrono::steady_clock::now();
	const Outcome outcome = stat_loop(stat_invocation(Output::json, 2), *pair.client, out);
	EXPECT_GE(std::chrono::steady_clock::now() - start, 200ms);
	EXPECT_EQ(outcome.exit_code, exit_ok) << outcome.error;

	const std::vector<json> reports = json_lines(out.str());
	ASSERT_EQ(reports.size(), 2u) << out.str();
	/*
	 * Answers are due 100 ms apart from the first on: one interval may be
	 * a little shorter when the answer before it came late, not both.
	 */
	EXPECT_GE(reports[0]["interval_s"].get<double>() + reports[1]["interval_s"].get<double>(),
		  0.199);
	for (const json &report : reports) {
		EXPECT_GT(report["interval_s"].get<double>(), 0);
		ASSERT_EQ(report["devices"].size(), 1u);
		const json &device = report["devices"][0];
		EXPECT_EQ(device["device"], "/dev/rdmablk0");
		/* 100 reads in the interval, as rounded in JSON. */
		EXPECT_NEAR(device["reads_per_s"].get<double>() *
				    report["interval_s"].get<double>(),
			    100, 1);
		EXPECT_EQ(device["latency_us"], 100.0);
		EXPECT_FALSE(device.contains("queues"));
	}
}

TEST(Stat, TextReportsAreABlankLineApart)
{
	Pair pair(status_line(100) + status_line(200) + status_line(300), false);
	std::ostringstream out;
	Invocation invocation = stat_invocation(Output::text, 2);
	invocation.per_queue = true;
	const Outcome outcome = stat_loop(invocation, *pair.client, out);
	EXPECT_EQ(outcome.exit_code, exit_ok) << outcome.error;

	const std::string text = out.str();
	const std::size_t blank = text.find("\n\n");
	ASSERT_NE(blank, std::string::npos) << text;
	const std::string first = text.substr(0, blank + 1);
	const std::string second = text.substr(blank + 2);
	for (const std::string &report : {first, second}) {
		EXPECT_TRUE(report.starts_with("DEVICE         EXPORT  STATE ")) << report;
		EXPECT_NE(report.find("\n/dev/rdmablk0  db0     live "), std::string::npos)
			<< report;
		EXPECT_NE(report.find("\nDEVICE         QUEUE  STATE "), std::string::npos)
			<< report;
		EXPECT_NE(report.find("\n/dev/rdmablk0  1      live "), std::string::npos)
			<< report;
	}
}

TEST(Stat, AnUnknownDeviceEndsItAsStatusWould)
{
	Pair pair(not_found_line(), false);
	std::ostringstream out;
	const Outcome outcome = stat_loop(
		stat_invocation(Output::json, 0, {{"device", "/dev/rdmablk0"}}), *pair.client, out);
	EXPECT_EQ(out.str(), "");
	EXPECT_EQ(outcome.exit_code, exit_not_found);
	EXPECT_EQ(outcome.error,
		  "no device rdmablk0; 'rdmablkctl list' shows the attached devices");
	const std::string line = as_json(outcome, true).out;
	EXPECT_EQ(line.find('\n'), line.size() - 1) << line;
	EXPECT_EQ(json::parse(line)["error"]["code"], "not-found");
}

TEST(Stat, ADeviceThatGoesAwayLaterIsLeftOutUntilItIsBack)
{
	Pair pair(status_line(100) + not_found_line() + status_line(0) + status_line(50), false);
	std::ostringstream out;
	const Outcome outcome = stat_loop(
		stat_invocation(Output::json, 3, {{"device", "/dev/rdmablk0"}}), *pair.client, out);
	EXPECT_EQ(outcome.exit_code, exit_ok) << outcome.error;
	const std::vector<json> reports = json_lines(out.str());
	ASSERT_EQ(reports.size(), 3u) << out.str();
	EXPECT_EQ(reports[0]["devices"], json::array());
	EXPECT_EQ(reports[1]["devices"], json::array());
	ASSERT_EQ(reports[2]["devices"].size(), 1u);
}

TEST(Stat, TheDaemonLeavingEndsItWithExitThree)
{
	Pair pair(status_line(100) + status_line(200), true);
	std::ostringstream out;
	const Outcome outcome = stat_loop(stat_invocation(Output::json, 0), *pair.client, out);
	EXPECT_EQ(json_lines(out.str()).size(), 1u) << out.str();
	EXPECT_EQ(outcome.exit_code, exit_unreachable);
	EXPECT_NE(outcome.error.find("lost the connection to rdmablkd at /run/test.sock"),
		  std::string::npos)
		<< outcome.error;
}

/*
 * stat_loop(@invocation) on @pair, with @signo sent to this process from
 * another thread @delay after it starts: it must end at once, and cleanly.
 */
void expect_stopped_by(int signo, std::chrono::milliseconds delay, Pair &pair,
		       const Invocation &invocation)
{
	std::ostringstream out;
	std::thread sender([signo, delay] {
		std::this_thread::sleep_for(delay);
		::kill(::getpid(), signo);
	});
	const auto start = std::chrono::steady_clock::now();
	const Outcome outcome = stat_loop(invocation, *pair.client, out);
	sender.join();
	EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);
	EXPECT_EQ(outcome.exit_code, exit_ok) << outcome.error;
	EXPECT_EQ(outcome.error, "");
	EXPECT_EQ(out.str(), "");
}

TEST(Stat, SigtermBetweenReportsEndsItCleanly)
{
	Pair pair(status_line(100) + status_line(200), false);
	Invocation invocation = stat_invocation(Output::text, 0);
	invocation.interval = 30s;
	expect_stopped_by(SIGTERM, 100ms, pair, invocation);
}

TEST(Stat, SigintWhileWaitingForAnAnswerEndsItCleanly)
{
	/* The second answer never comes. */
	Pair pair(status_line(100), false);
	Invocation invocation = stat_invocation(Output::json, 0);
	invocation.timeout = 30s;
	expect_stopped_by(SIGINT, 300ms, pair, invocation);
}

} // namespace
} // namespace rdmablk::rdmablkctl
