// SPDX-License-Identifier: GPL-2.0
/*
 * Discovery entries and what discovery wants attached, in the Engine.
 */
#include <linux/rdmablk.h>

#include "engine_fixture.hpp"

namespace rdmablk::daemon::test {
namespace {

using nlohmann::json;

AutoAttachment wanted(const std::string &addr, const std::string &name, std::uint8_t id)
{
	AutoAttachment w;
	w.attachment.target = {addr, 7471};
	w.attachment.export_name = name;
	w.attachment.queues = 2;
	w.uuid.bytes.fill(id);
	return w;
}

TEST_F(EngineTest, DiscoveryAddKeepsTheEntryAndTellsTheSessions)
{
	const auto &told = told_discoveries;
	const ctl::Response r = call("discovery_add", {{"address", "192.0.2.1"},
						       {"port", 7471},
						       {"attach", {"db0"}},
						       {"queues", 2}});
	ASSERT_TRUE(r.ok) << r.error->message;
	ASSERT_EQ(config().discoveries.size(), 1u);
	EXPECT_FALSE(config().discoveries[0].attach_all);
	EXPECT_EQ(config().discoveries[0].attach, std::vector<std::string>{"db0"});
	EXPECT_EQ(config().discoveries[0].settings.queues, 2u);
	ASSERT_EQ(told.size(), 1u);
	EXPECT_EQ(told[0], config().discoveries);

	/* Adding it again changes it, never duplicates it. */
	ASSERT_TRUE(call("discovery_add", {{"address", "192.0.2.1"}, {"attach", "all"}}).ok);
	ASSERT_EQ(config().discoveries.size(), 1u);
	EXPECT_TRUE(config().discoveries[0].attach_all);

	ASSERT_TRUE(call("discovery_del", {{"address", "192.0.2.1"}, {"port", 7471}}).ok);
	EXPECT_TRUE(config().discoveries.empty());
	EXPECT_EQ(told.size(), 3u);
	const ctl::Response missing = call("discovery_del", {{"address", "192.0.2.1"}});
	ASSERT_FALSE(missing.ok);
	EXPECT_EQ(missing.error->message, "no discovery of 192.0.2.1:7471");
	EXPECT_TRUE(call("discovery_list").ok);
}

TEST_F(EngineTest, DiscoveryAddRejectsBadArguments)
{
	const ctl::Response r =
		call("discovery_add", {{"address", "192.0.2.1"}, {"attach", "some"}});
	ASSERT_FALSE(r.ok);
	EXPECT_EQ(r.error->message,
		  "discovery_add: argument 'attach': must be \"all\" or an array of export names or UUIDs");
}

TEST_F(EngineTest, WhatDiscoveryWantsIsAttachedOnceAndNotWrittenToTheFile)
{
	pass();
	engine.set_auto_attachments({wanted("192.0.2.1", "e1", 1)});
	exec.run();
	ASSERT_EQ(kernel.devices.size(), 1u);
	EXPECT_EQ(kernel.devices[0].nr_queues, 2u);
	EXPECT_TRUE(config().attachments.empty());
	/* The same again, and another pass: nothing new. */
	engine.set_auto_attachments({wanted("192.0.2.1", "e1", 1)});
	exec.run();
	pass();
	EXPECT_EQ(kernel.changes(), std::vector<std::string>{"attach 192.0.2.1:7471/e1"});
	const json devices = listed("list", "devices");
	ASSERT_EQ(devices.size(), 1u);
	EXPECT_EQ(devices[0]["managed"], true);
}

TEST_F(EngineTest, AnAutoconnectedDeviceAlreadyInTheKernelIsAdopted)
{
	kernel.add_device("192.0.2.1", "e1", RDMABLK_DEV_LIVE);
	pass();
	engine.set_auto_attachments({wanted("192.0.2.1", "e1", 1)});
	exec.run();
	EXPECT_TRUE(kernel.changes().empty());
	EXPECT_EQ(kernel.devices.size(), 1u);
}

TEST_F(EngineTest, DetachingAnAutoconnectedDeviceIsNotUndone)
{
	pass();
	engine.set_auto_attachments({wanted("192.0.2.1", "e1", 1)});
	exec.run();
	ASSERT_EQ(kernel.devices.size(), 1u);
	ASSERT_TRUE(call("detach", {{"device", "rdmablk0"}}).ok);
	engine.set_auto_attachments({wanted("192.0.2.1", "e1", 1)});
	exec.run();
	pass();
	EXPECT_TRUE(kernel.devices.empty());
}

} // namespace
} // namespace rdmablk::daemon::test
