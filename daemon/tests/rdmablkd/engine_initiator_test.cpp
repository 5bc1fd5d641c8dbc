// SPDX-License-Identifier: GPL-2.0
/*
 * Control requests of the initiator role, against a MemoryKernel.
 */
#include <cerrno>

#include <linux/rdmablk.h>

#include "engine_fixture.hpp"

namespace rdmablk::daemon::test {
namespace {

using nlohmann::json;

TEST_F(EngineTest, AttachAnswersTheDeviceAndKeepsTheAttachment)
{
	const ctl::Response r = call("attach", {{"address", "192.0.2.1"},
						{"port", 7471},
						{"export", "db0"},
						{"queues", 2},
						{"ctrl_loss_tmo", -1}});
	ASSERT_TRUE(r.ok) << r.error->message;
	EXPECT_EQ(r.result["device"], "/dev/rdmablk0");
	EXPECT_EQ(r.result["index"], 0);
	EXPECT_EQ(r.result["state"], "live");
	EXPECT_EQ(r.result["queues"], 2);
	EXPECT_EQ(r.result["managed"], true);
	ASSERT_EQ(config().attachments.size(), 1u);
	EXPECT_EQ(config().attachments[0].queues, 2u);
	EXPECT_EQ(config().attachments[0].ctrl_loss_tmo, -1);
	EXPECT_FALSE(config().attachments[0].queue_depth);
	EXPECT_EQ(saved.size(), 1u);
}

TEST_F(EngineTest, AttachIsIdempotent)
{
	const ctl::Response first = call("attach", attach_db0);
	const ctl::Response again = call("attach", {{"address", "192.0.2.1"},
						    {"port", 7471},
						    {"export", "db0"},
						    {"queues", 8}});
	ASSERT_TRUE(again.ok);
	EXPECT_EQ(again.result["device"], first.result["device"]);
	EXPECT_EQ(kernel.changes(), std::vector<std::string>{"attach 192.0.2.1:7471/db0"});
	EXPECT_EQ(kernel.devices.size(), 1u);
	EXPECT_EQ(config().attachments.size(), 1u);
}

TEST_F(EngineTest, AttachAdoptsADeviceAttachedBySomeoneElse)
{
	kernel.add_device("192.0.2.1", "db0", RDMABLK_DEV_LIVE);
	const ctl::Response r = call("attach", attach_db0);
	ASSERT_TRUE(r.ok);
	EXPECT_EQ(r.result["device"], "/dev/rdmablk0");
	EXPECT_TRUE(kernel.changes().empty());
	EXPECT_EQ(config().attachments.size(), 1u);
}

TEST_F(EngineTest, AttachToAnUnknownExportIsNotFound)
{
	kernel.failures["attach 192.0.2.1:7471/db0"] = {
		ENOENT, "the target has no export of this name (rdmablkctl export list on the target)"};
	const ctl::Response r = call("attach", attach_db0);
	ASSERT_FALSE(r.ok);
	EXPECT_EQ(r.error->code, "not-found");
	EXPECT_EQ(r.error->hint, "run 'rdmablkctl export list' on the target");
	EXPECT_EQ(r.error->errnum, ENOENT);
	EXPECT_NE(r.error->message.find("the target has no export of this name"), std::string::npos);
	EXPECT_TRUE(config().attachments.empty()) << "a failed attach is not remembered";
	EXPECT_TRUE(saved.empty());
}

TEST_F(EngineTest, AttachRefusedByTheAllowListSaysSo)
{
	kernel.failures["attach 192.0.2.1:7471/db0"] = {EACCES, "the target's allow list ..."};
	const ctl::Response r = call("attach", attach_db0);
	ASSERT_FALSE(r.ok);
	EXPECT_EQ(r.error->code, "permission-denied");
	EXPECT_NE(r.error->message.find("is not allowed"), std::string::npos) << r.error->message;
	EXPECT_NE(r.error->hint.find("--allow 0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0"),
		  std::string::npos)
		<< r.error->hint;
}

TEST_F(EngineTest, AttachToAnUnreachableTargetIsUnreachable)
{
	kernel.failures["attach 192.0.2.1:7471/db0"] = {ECONNREFUSED, "connection refused"};
	const ctl::Response r = call("attach", attach_db0);
	ASSERT_FALSE(r.ok);
	EXPECT_EQ(r.error->code, "unreachable");
}

TEST_F(EngineTest, AttachOfAPendingAttachmentAnswersItPending)
{
	Config c;
	c.attachments.push_back({{"192.0.2.1", 7471}, "db0", {}, {}, {}, {}, {}, {}, {}, {}, {}});
	configure(c);
	kernel.failures["attach 192.0.2.1:7471/db0"] = {ECONNREFUSED, "connection refused"};
	const ctl::Response r = call("attach", attach_db0);
	ASSERT_TRUE(r.ok);
	EXPECT_EQ(r.result["state"], "pending");
	EXPECT_EQ(r.result["device"], nullptr);
	EXPECT_GT(r.result["retry_in_ms"].get<int>(), 0);

	kernel.failures.clear();
	const ctl::Response later = call("attach", attach_db0);
	EXPECT_EQ(later.result["device"], "/dev/rdmablk0");
}

TEST_F(EngineTest, DetachByDeviceOrTargetRemovesFromBoth)
{
	call("attach", attach_db0);
	call("attach", {{"address", "192.0.2.1"}, {"export", "db1"}});
	ASSERT_TRUE(call("detach", {{"device", "/dev/rdmablk0"}}).ok);
	ASSERT_TRUE(call("detach", {{"address", "192.0.2.1"}, {"port", 7471}, {"export", "db1"}}).ok);
	EXPECT_TRUE(kernel.devices.empty());
	EXPECT_TRUE(config().attachments.empty());
	EXPECT_EQ(kernel.changes(),
		  (std::vector<std::string>{"attach 192.0.2.1:7471/db0", "attach 192.0.2.1:7471/db1",
					    "detach 0", "detach 1"}));
}

TEST_F(EngineTest, DetachOfAPendingAttachmentOnlyForgetsIt)
{
	Config c;
	c.attachments.push_back({{"192.0.2.1", 7471}, "db0", {}, {}, {}, {}, {}, {}, {}, {}, {}});
	configure(c);
	ASSERT_TRUE(call("detach", attach_db0).ok);
	EXPECT_TRUE(config().attachments.empty());
	EXPECT_TRUE(kernel.changes().empty());
}

TEST_F(EngineTest, DetachOfNothingIsNotFound)
{
	ctl::Response r = call("detach", {{"device", "rdmablk7"}});
	EXPECT_EQ(r.error->code, "not-found");
	EXPECT_EQ(r.error->message, "no device rdmablk7");
	r = call("detach", attach_db0);
	EXPECT_EQ(r.error->code, "not-found");
	EXPECT_EQ(r.error->message, "no attachment of export db0 from 192.0.2.1:7471");
}

TEST_F(EngineTest, ListShowsDevicesThenPendingAttachments)
{
	kernel.add_device("192.0.2.5", "manual", RDMABLK_DEV_RECONNECTING);
	call("attach", attach_db0);
	Config c = config();
	c.attachments.push_back({{"192.0.2.9", 7471}, "later", 4, {}, {}, {}, {}, {}, {}, {}, {}});
	configure(c);
	const json list = listed("list", "devices");
	ASSERT_EQ(list.size(), 3u);
	EXPECT_EQ(list[0]["device"], "/dev/rdmablk0");
	EXPECT_EQ(list[0]["state"], "reconnecting");
	EXPECT_EQ(list[0]["managed"], false);
	EXPECT_EQ(list[1]["export"], "db0");
	EXPECT_EQ(list[1]["managed"], true);
	EXPECT_EQ(list[2]["state"], "pending");
	EXPECT_EQ(list[2]["device"], nullptr);
	EXPECT_EQ(list[2]["queues"], 4);
	EXPECT_EQ(list[2]["retry_in_ms"], 0);
	EXPECT_EQ(list[2]["last_error"], nullptr);
}

TEST_F(EngineTest, StatusAddsQueuesAndFiltersByDevice)
{
	call("attach", attach_db0);
	call("attach", {{"address", "192.0.2.1"}, {"export", "db1"}});
	kernel.devices[1].reconnects = 3;
	ctl::Response r = call("status", {{"device", "rdmablk1"}});
	ASSERT_TRUE(r.ok);
	ASSERT_EQ(r.result["devices"].size(), 1u);
	const json &dev = r.result["devices"][0];
	EXPECT_EQ(dev["export"], "db1");
	ASSERT_EQ(dev["queues_detail"].size(), 2u);
	EXPECT_EQ(dev["queues_detail"][1], (json{{"id", 1},
						 {"state", "live"},
						 {"commands", 20},
						 {"errors", 1},
						 {"completed", 19},
						 {"requeued", 2},
						 {"read_bytes", 4096},
						 {"write_bytes", 61440},
						 {"latency_us", 3000}}));
	EXPECT_EQ(dev["reconnects"], 3);
	EXPECT_TRUE(dev.contains("io"));
	EXPECT_EQ(r.result["daemon"]["hostid"], "0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0");

	r = call("status");
	EXPECT_EQ(r.result["devices"].size(), 2u);
	r = call("status", {{"device", "/dev/rdmablk9"}});
	EXPECT_EQ(r.error->code, "not-found");
}

} // namespace
} // namespace rdmablk::daemon::test
