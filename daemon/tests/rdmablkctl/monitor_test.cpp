// SPDX-License-Identifier: GPL-2.0
/*
 * rdmablkctl monitor against a daemon played by the other end of a socket
 * pair: the answer to the monitor request, then event lines, then maybe
 * the daemon leaving.
 */
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "cli.hpp"
#include "monitor.hpp"
#include "render.hpp"
#include "socket_pair.hpp"

namespace rdmablk::rdmablkctl {
namespace {

using nlohmann::json;

const json state_event = {{"type", "device-state"},
			  {"time", "2026-11-25T05:40:01.123Z"},
			  {"message", "event device-state dev=rdmablk0 state=reconnecting"},
			  {"dev", "rdmablk0"},
			  {"state", "reconnecting"}};

Invocation monitoring(Output output, std::uint64_t count)
{
	Invocation invocation;
	invocation.request = {ctl::monitor_cmd, json::object()};
	invocation.output = output;
	invocation.mode = Mode::monitor;
	invocation.count = count;
	return invocation;
}

std::string ok_line()
{
	return ctl::to_line(ctl::to_json(ctl::ok({{"monitoring", true}})));
}

TEST(Monitor, ParsesToAStreamingInvocation)
{
	const auto parsed = parse_args({"monitor", "--count", "3", "-o", "json"}, "/s");
	const auto *invocation = std::get_if<Invocation>(&parsed);
	ASSERT_NE(invocation, nullptr);
	EXPECT_EQ(invocation->request.cmd, "monitor");
	EXPECT_EQ(invocation->mode, Mode::monitor);
	EXPECT_EQ(invocation->count, 3u);
	EXPECT_EQ(invocation->output, Output::json);

	const auto forever = parse_args({"monitor"}, "/s");
	ASSERT_NE(std::get_if<Invocation>(&forever), nullptr);
	EXPECT_EQ(std::get<Invocation>(forever).count, 0u);

	for (const char *bad : {"0", "x", "1.5"}) {
		const auto refused = parse_args({"monitor", "--count", bad}, "/s");
		const auto *outcome = std::get_if<Outcome>(&refused);
		ASSERT_NE(outcome, nullptr) << bad;
		EXPECT_EQ(outcome->exit_code, exit_usage) << bad;
		EXPECT_NE(outcome->error.find("--count"), std::string::npos) << outcome->error;
	}
	/* Other commands do not stream. */
	EXPECT_EQ(std::get<Invocation>(parse_args({"list"}, "/s")).mode, Mode::once);
}

TEST(Monitor, LinesAreTheTimeAndTheMessageOrTheEventAsJson)
{
	EXPECT_EQ(monitor_line(state_event, Output::text),
		  "2026-11-25T05:40:01.123Z event device-state dev=rdmablk0 state=reconnecting");
	EXPECT_EQ(json::parse(monitor_line(state_event, Output::json)), state_event);
	EXPECT_EQ(monitor_line(state_event, Output::json).find('\n'), std::string::npos);
	EXPECT_EQ(monitor_line({{"type", "dropped"}}, Output::text), "event dropped");
}

TEST(Monitor, PrintsEachEventAndStopsAfterCount)
{
	json second = state_event;
	second["state"] = "live";
	Pair pair(ok_line() + ctl::event_line(state_event) + ctl::event_line(second) +
			  ctl::event_line(state_event),
		  false);
	std::ostringstream out;
	const Outcome outcome = monitor(monitoring(Output::json, 2), *pair.client, out);
	EXPECT_EQ(outcome.exit_code, exit_ok) << outcome.error;
	std::istringstream lines(out.str());
	std::string line;
	ASSERT_TRUE(std::getline(lines, line));
	EXPECT_EQ(json::parse(line), state_event);
	ASSERT_TRUE(std::getline(lines, line));
	EXPECT_EQ(json::parse(line)["state"], "live");
	EXPECT_FALSE(std::getline(lines, line)) << "a third event printed: " << line;
}

TEST(Monitor, TheDaemonLeavingEndsItWithExitThree)
{
	Pair pair(ok_line() + ctl::event_line(state_event), true);
	std::ostringstream out;
	const Outcome outcome = monitor(monitoring(Output::text, 0), *pair.client, out);
	EXPECT_EQ(out.str(), monitor_line(state_event, Output::text) + "\n");
	EXPECT_EQ(outcome.exit_code, exit_unreachable);
	EXPECT_NE(outcome.error.find("rdmablkd closed the connection"), std::string::npos)
		<< outcome.error;
	ASSERT_TRUE(outcome.info);
	EXPECT_EQ(outcome.info->code, "daemon-unreachable");
	/* Under -o json the error is one more line of the stream. */
	const std::string line = as_json(outcome, true).out;
	EXPECT_EQ(line.find('\n'), line.size() - 1) << line;
	EXPECT_EQ(json::parse(line)["error"]["code"], "daemon-unreachable");
}

TEST(Monitor, ARefusalIsRenderedAndNothingIsRead)
{
	Pair pair(ctl::to_line(ctl::to_json(ctl::fail(ctl::code::permission_denied, "root only"))),
		  true);
	std::ostringstream out;
	const Outcome outcome = monitor(monitoring(Output::text, 0), *pair.client, out);
	EXPECT_EQ(outcome.exit_code, exit_denied);
	EXPECT_EQ(out.str(), "");
}

TEST(Monitor, ALineThatIsNotAnEventIsABadAnswer)
{
	Pair pair(ok_line() + ctl::to_line(json{{"ok", true}}), false);
	std::ostringstream out;
	const Outcome outcome = monitor(monitoring(Output::text, 0), *pair.client, out);
	EXPECT_EQ(outcome.exit_code, exit_failed);
	ASSERT_TRUE(outcome.info);
	EXPECT_EQ(outcome.info->code, "bad-answer");
}

} // namespace
} // namespace rdmablk::rdmablkctl
