// SPDX-License-Identifier: GPL-2.0
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>

#include <linux/rdmablk.h>

#include "nl/names.hpp"

namespace rdmablk::nl {
namespace {

TEST(EventName, IsTotalOverTheUapiEnum)
{
	std::set<std::string> seen;
	for (std::uint32_t event = 0; event <= RDMABLK_EVENT_MAX; event++) {
		const std::string name = event_name(event);
		EXPECT_THAT(name, testing::MatchesRegex("[a-z]+(-[a-z]+)*")) << event;
		EXPECT_NE(name.rfind("unknown", 0), 0u) << event << " has no name";
		EXPECT_TRUE(seen.insert(name).second) << name << " used twice";
	}
}

TEST(EventName, IsStable)
{
	/* Scripts match these: never rename them. */
	EXPECT_EQ(event_name(RDMABLK_EVENT_LISTENER_ADDED), "listener-added");
	EXPECT_EQ(event_name(RDMABLK_EVENT_LISTENER_REMOVED), "listener-removed");
	EXPECT_EQ(event_name(RDMABLK_EVENT_EXPORT_ADDED), "export-added");
	EXPECT_EQ(event_name(RDMABLK_EVENT_EXPORT_REMOVED), "export-removed");
	EXPECT_EQ(event_name(RDMABLK_EVENT_DEVICE_ATTACHED), "device-attached");
	EXPECT_EQ(event_name(RDMABLK_EVENT_DEVICE_DETACHED), "device-detached");
	EXPECT_EQ(event_name(RDMABLK_EVENT_DEVICE_STATE), "device-state");
	EXPECT_EQ(event_name(RDMABLK_EVENT_DEVICE_RESIZED), "device-resized");
	EXPECT_EQ(event_name(RDMABLK_EVENT_PATH_ADDED), "path-added");
	EXPECT_EQ(event_name(RDMABLK_EVENT_PATH_REMOVED), "path-removed");
	EXPECT_EQ(event_name(RDMABLK_EVENT_PATH_STATE), "path-state");
	EXPECT_EQ(event_name(RDMABLK_EVENT_PATH_FAILOVER), "path-failover");
}

TEST(EventName, NumbersValuesNewerThanThisBuild)
{
	EXPECT_EQ(event_name(RDMABLK_EVENT_MAX + 1), "unknown-" + std::to_string(RDMABLK_EVENT_MAX + 1));
	EXPECT_EQ(event_name(0xffffffff), "unknown-4294967295");
}

TEST(ListenerStateName, NamesEveryState)
{
	EXPECT_EQ(listener_state_name(RDMABLK_LISTENER_LISTENING), "listening");
	EXPECT_EQ(listener_state_name(RDMABLK_LISTENER_DEVICE_GONE), "device-gone");
	EXPECT_EQ(listener_state_name(0), "unknown-0");
	EXPECT_EQ(listener_state_name(7), "unknown-7");
}

TEST(DevStateName, NamesEveryState)
{
	EXPECT_EQ(dev_state_name(RDMABLK_DEV_LIVE), "live");
	EXPECT_EQ(dev_state_name(RDMABLK_DEV_DEAD), "dead");
	EXPECT_EQ(dev_state_name(RDMABLK_DEV_DELETING), "deleting");
	EXPECT_EQ(dev_state_name(RDMABLK_DEV_RECONNECTING), "reconnecting");
	EXPECT_EQ(dev_state_name(0), "unknown-0");
	EXPECT_EQ(dev_state_name(RDMABLK_DEV_RECONNECTING + 1),
		  "unknown-" + std::to_string(RDMABLK_DEV_RECONNECTING + 1));
}

TEST(QueueStateName, NamesEveryState)
{
	EXPECT_EQ(queue_state_name(RDMABLK_QUEUE_LIVE), "live");
	EXPECT_EQ(queue_state_name(RDMABLK_QUEUE_DOWN), "down");
	EXPECT_EQ(queue_state_name(0), "unknown-0");
	EXPECT_EQ(queue_state_name(RDMABLK_QUEUE_DOWN + 1),
		  "unknown-" + std::to_string(RDMABLK_QUEUE_DOWN + 1));
}

/* Each enum starts at 1 and has no gaps: name every value up to @last, each once. */
void expect_total(std::string (*name)(std::uint32_t), std::uint32_t last)
{
	std::set<std::string> seen;
	for (std::uint32_t value = 1; value <= last; value++) {
		const std::string n = name(value);
		EXPECT_THAT(n, testing::MatchesRegex("[a-z]+(-[a-z]+)*")) << value;
		EXPECT_TRUE(seen.insert(n).second) << n << " used twice";
	}
}

TEST(StateNames, AreTotalOverTheUapiEnums)
{
	expect_total(listener_state_name, RDMABLK_LISTENER_DEVICE_GONE);
	expect_total(dev_state_name, RDMABLK_DEV_RECONNECTING);
	expect_total(queue_state_name, RDMABLK_QUEUE_DOWN);
	expect_total(mp_policy_name, __RDMABLK_MP_MAX - 1);
}

TEST(MpPolicyName, IsStable)
{
	/* Scripts and command lines use these: never rename them. */
	EXPECT_EQ(mp_policy_name(RDMABLK_MP_QUEUE_DEPTH), "queue-depth");
	EXPECT_EQ(mp_policy_name(RDMABLK_MP_ROUND_ROBIN), "round-robin");
	EXPECT_EQ(mp_policy_name(RDMABLK_MP_MIN_LATENCY), "min-latency");
	EXPECT_EQ(mp_policy_name(0), "unknown-0");
	EXPECT_EQ(mp_policy_name(__RDMABLK_MP_MAX), "unknown-" + std::to_string(__RDMABLK_MP_MAX));
}

TEST(ParseMpPolicy, InvertsTheNames)
{
	for (std::uint32_t policy = RDMABLK_MP_QUEUE_DEPTH; policy < __RDMABLK_MP_MAX; policy++)
		EXPECT_EQ(parse_mp_policy(mp_policy_name(policy)), policy);
}

TEST(ParseMpPolicy, RejectsOtherText)
{
	for (const char *text :
	     {"", "Round-Robin", "round_robin", "unknown-0", "1", "queue-depth "}) {
		try {
			parse_mp_policy(text);
			ADD_FAILURE() << '"' << text << "\" accepted";
		} catch (const std::invalid_argument &e) {
			EXPECT_EQ(e.what(), "invalid policy \"" + std::string(text) +
						    "\": expected queue-depth, round-robin or "
						    "min-latency");
		}
	}
}

} // namespace
} // namespace rdmablk::nl
