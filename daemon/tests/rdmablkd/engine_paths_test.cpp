// SPDX-License-Identifier: GPL-2.0
/*
 * Multipath: attach with paths, path_add, path_del, path_set, the policy,
 * and the passes that give a device its configured paths.
 */
#include <cerrno>

#include <linux/rdmablk.h>

#include "engine_fixture.hpp"

namespace rdmablk::daemon::test {
namespace {

using nlohmann::json;

const nl::Endpoint second{"198.51.100.7", 4420};

json with(json args, const char *key, json value)
{
	args[key] = std::move(value);
	return args;
}

/* An attachment of db0 through 192.0.2.1 and @paths. */
Config configured(std::vector<nl::Endpoint> paths)
{
	Config c;
	AttachmentConfig a;
	a.target = {"192.0.2.1", 7471};
	a.export_name = "db0";
	a.paths = std::move(paths);
	c.attachments.push_back(a);
	return c;
}

TEST_F(EngineTest, AttachWithPathsAddsThemAndKeepsThem)
{
	json args = with(attach_db0, "paths", {"198.51.100.7:4420"});
	args["standby"] = {"198.51.100.7:4420"};
	args["policy"] = "round-robin";
	const ctl::Response r = call("attach", args);
	ASSERT_TRUE(r.ok) << r.error->message;
	EXPECT_EQ(kernel.changes(), (std::vector<std::string>{"attach 192.0.2.1:7471/db0",
							     "path_add 0 198.51.100.7:4420 standby"}));
	EXPECT_EQ(kernel.devices[0].mp_policy, RDMABLK_MP_ROUND_ROBIN) << "given at attach";
	EXPECT_EQ(r.result["policy"], "round-robin");
	ASSERT_EQ(r.result["paths"].size(), 2u);
	EXPECT_EQ(r.result["paths"][1]["address"], "198.51.100.7");
	EXPECT_EQ(r.result["paths"][1]["port"], 4420);
	EXPECT_EQ(r.result["paths"][1]["standby"], true);
	EXPECT_EQ(r.result["paths"][1]["state"], "live");

	const AttachmentConfig a = config().attachments.at(0);
	EXPECT_EQ(a.paths, std::vector<nl::Endpoint>{second});
	EXPECT_EQ(a.standby, std::vector<nl::Endpoint>{second});
	EXPECT_EQ(a.policy, RDMABLK_MP_ROUND_ROBIN);
}

TEST_F(EngineTest, APathThatCannotBeAddedIsPendingAndRetried)
{
	kernel.failures["path_add 0 198.51.100.7:4420"] = {ECONNREFUSED, "connection refused"};
	ctl::Response r = call("attach", with(attach_db0, "paths", {"198.51.100.7:4420"}));
	ASSERT_TRUE(r.ok) << r.error->message;
	ASSERT_EQ(r.result["paths"].size(), 2u);
	EXPECT_EQ(r.result["paths"][1]["state"], "pending");
	EXPECT_TRUE(r.result["paths"][1]["id"].is_null());
	EXPECT_NE(r.result["paths"][1]["last_error"].get<std::string>().find("connection refused"),
		  std::string::npos);
	EXPECT_GT(r.result["paths"][1]["retry_in_ms"].get<long>(), 0);

	const json status = listed("status", "devices");
	ASSERT_EQ(status.size(), 1u);
	EXPECT_EQ(status[0]["paths"][1]["state"], "pending");

	retried_once_due("path_add 0 198.51.100.7:4420");
	EXPECT_EQ(listed("status", "devices")[0]["paths"][1]["state"], "live");
}

TEST_F(EngineTest, PassesGiveAnAdoptedDeviceItsConfiguredPaths)
{
	configure(configured({second}));
	kernel.add_device("192.0.2.1", "db0", RDMABLK_DEV_LIVE);
	pass();
	EXPECT_EQ(kernel.changes(), std::vector<std::string>{"path_add 0 198.51.100.7:4420"});
	kernel.requests.clear();
	pass();
	EXPECT_TRUE(kernel.changes().empty()) << "added once";
}

TEST_F(EngineTest, APassThatAttachesGivesTheDeviceItsPathsAtOnce)
{
	/* As at boot: the configuration has a disk of two paths, the kernel nothing. */
	Config c = configured({second});
	c.attachments[0].standby = {second};
	configure(c);
	pass();
	EXPECT_EQ(kernel.changes(), (std::vector<std::string>{"attach 192.0.2.1:7471/db0",
							     "path_add 0 198.51.100.7:4420 standby"}))
		<< "the second path came only with a later pass (the periodic check's)";
	kernel.requests.clear();
	pass();
	EXPECT_TRUE(kernel.changes().empty()) << "added once";
}

TEST_F(EngineTest, APathThatFailsInThePassThatAttachedIsRetried)
{
	configure(configured({second}));
	kernel.failures["path_add 0 198.51.100.7:4420"] = {ECONNREFUSED, "connection refused"};
	pass();
	EXPECT_EQ(kernel.changes(), (std::vector<std::string>{"attach 192.0.2.1:7471/db0",
							     "path_add 0 198.51.100.7:4420"}))
		<< "tried in the pass that attached";
	EXPECT_EQ(kernel.devices.at(0).paths.size(), 1u);
	EXPECT_EQ(logs_with("adding path 198.51.100.7:4420 to rdmablk0 (192.0.2.1:7471 db0) "
			    "failed: ").size(),
		  1u);

	retried_once_due("path_add 0 198.51.100.7:4420");
}

TEST_F(EngineTest, PathsTheConfigurationLacksAreLeftAlone)
{
	configure(configured({}));
	kernel.add_device("192.0.2.1", "db0", RDMABLK_DEV_LIVE);
	kernel.path_add({0, second, {}});
	kernel.requests.clear();
	pass();
	EXPECT_TRUE(kernel.changes().empty());
	EXPECT_EQ(kernel.devices[0].paths.size(), 2u);
}

TEST_F(EngineTest, PathCommandsChangeTheKernelThenTheConfiguration)
{
	ASSERT_TRUE(call("attach", attach_db0).ok);
	const json path = {{"device", "/dev/rdmablk0"}, {"address", "198.51.100.7"}, {"port", 4420}};

	ctl::Response r = call("path_add", with(path, "standby", true));
	ASSERT_TRUE(r.ok) << r.error->message;
	EXPECT_EQ(r.result["paths"].size(), 2u);
	EXPECT_EQ(config().attachments[0].paths, std::vector<nl::Endpoint>{second});
	EXPECT_EQ(config().attachments[0].standby, std::vector<nl::Endpoint>{second});

	r = call("path_set", with(path, "standby", false));
	ASSERT_TRUE(r.ok) << r.error->message;
	EXPECT_FALSE(kernel.devices[0].paths[1].standby);
	EXPECT_TRUE(config().attachments[0].standby.empty());

	r = call("path_add", path);
	ASSERT_FALSE(r.ok);
	EXPECT_EQ(r.error->code, "exists");

	r = call("path_del", path);
	ASSERT_TRUE(r.ok) << r.error->message;
	EXPECT_EQ(kernel.devices[0].paths.size(), 1u);
	EXPECT_TRUE(config().attachments[0].paths.empty());

	/* The last path: the kernel's refusal is the answer, and nothing changes. */
	r = call("path_del", {{"device", "0"}, {"address", "192.0.2.1"}});
	ASSERT_FALSE(r.ok);
	EXPECT_EQ(r.error->code, "busy");
	EXPECT_NE(r.error->message.find("last path"), std::string::npos) << r.error->message;
	EXPECT_EQ(config().attachments.size(), 1u);

	r = call("path_add", {{"device", "rdmablk9"}, {"address", "198.51.100.7"}});
	ASSERT_FALSE(r.ok);
	EXPECT_EQ(r.error->code, "not-found");
	r = call("path_set", path);
	ASSERT_FALSE(r.ok);
	EXPECT_EQ(r.error->code, "invalid-argument");
}

TEST_F(EngineTest, ADeviceWhoseFirstPathWasRemovedIsStillItsAttachments)
{
	ASSERT_TRUE(call("attach", with(attach_db0, "paths", {"198.51.100.7:4420"})).ok);
	const ctl::Response r =
		call("path_del", {{"device", "rdmablk0"}, {"address", "192.0.2.1"}});
	ASSERT_TRUE(r.ok) << r.error->message;
	EXPECT_EQ(r.result["address"], "198.51.100.7");
	EXPECT_EQ(r.result["managed"], true);
	ASSERT_EQ(config().attachments.size(), 1u);
	EXPECT_EQ(config().attachments[0].target, second);
	EXPECT_TRUE(config().attachments[0].paths.empty());

	kernel.requests.clear();
	pass();
	EXPECT_TRUE(kernel.changes().empty()) << "neither attached again nor given the path back";
	ASSERT_TRUE(call("detach", {{"device", "rdmablk0"}}).ok);
	EXPECT_TRUE(config().attachments.empty());
}

TEST_F(EngineTest, DevSetChangesThePolicy)
{
	ASSERT_TRUE(call("attach", attach_db0).ok);
	const ctl::Response r = call("dev_set", {{"device", "rdmablk0"}, {"policy", "min-latency"}});
	ASSERT_TRUE(r.ok) << r.error->message;
	EXPECT_EQ(r.result["policy"], "min-latency");
	EXPECT_EQ(kernel.devices[0].mp_policy, RDMABLK_MP_MIN_LATENCY);
	EXPECT_EQ(config().attachments[0].policy, RDMABLK_MP_MIN_LATENCY);

	/* Changed behind rdmablkd's back: a pass sets it again. */
	kernel.devices[0].mp_policy = RDMABLK_MP_ROUND_ROBIN;
	kernel.requests.clear();
	pass();
	EXPECT_EQ(kernel.changes(), std::vector<std::string>{"dev_set 0"});
	EXPECT_EQ(kernel.devices[0].mp_policy, RDMABLK_MP_MIN_LATENCY);
}

TEST_F(EngineTest, DiscoveryMakesAnotherAddressOfAnAttachedExportAPath)
{
	ASSERT_TRUE(call("attach", attach_db0).ok);
	kernel.devices[0].uuid = nl::parse_uuid("00112233-4455-4677-8899-aabbccddeeff");
	kernel.requests.clear();
	engine.set_auto_paths({{kernel.devices[0].uuid, "db0", second}});
	exec.run();
	EXPECT_EQ(kernel.changes(), std::vector<std::string>{"path_add 0 198.51.100.7:4420"});
	EXPECT_EQ(config().attachments[0].paths, std::vector<nl::Endpoint>{second})
		<< "kept in the configured attachment";
}

/* The target offers db0 under one UUID at 192.0.2.1:7471 and at @second. */
void offer_db0_twice(MemoryKernel &kernel)
{
	const nl::Uuid uuid = nl::parse_uuid("00112233-4455-4677-8899-aabbccddeeff");
	kernel.export_uuids["192.0.2.1:7471/db0"] = uuid;
	kernel.export_uuids["198.51.100.7:4420/db0"] = uuid;
}

const json attach_db0_second = {{"address", "198.51.100.7"}, {"port", 4420}, {"export", "db0"}};

TEST_F(EngineTest, AttachThroughAnotherAddressOfAnAttachedExportAddsAPath)
{
	offer_db0_twice(kernel);
	ASSERT_TRUE(call("attach", attach_db0).ok);
	kernel.requests.clear();
	const ctl::Response r = call("attach", attach_db0_second);
	ASSERT_TRUE(r.ok) << r.error->message;
	EXPECT_EQ(kernel.changes(), (std::vector<std::string>{"attach 198.51.100.7:4420/db0",
							     "path_add 0 198.51.100.7:4420"}))
		<< "refused as a second disk, added as a path of the first";
	ASSERT_EQ(kernel.devices.size(), 1u);
	EXPECT_EQ(r.result["device"], "/dev/rdmablk0");
	ASSERT_EQ(r.result["paths"].size(), 2u);
	EXPECT_EQ(r.result["paths"][1]["address"], "198.51.100.7");

	ASSERT_EQ(config().attachments.size(), 1u) << "one disk, one attachment";
	EXPECT_EQ(config().attachments[0].target, (nl::Endpoint{"192.0.2.1", 7471}));
	EXPECT_EQ(config().attachments[0].paths, std::vector<nl::Endpoint>{second});
}

TEST_F(EngineTest, AttachThroughAnotherAddressOfADeviceAttachedBySomeoneElseConfiguresBoth)
{
	offer_db0_twice(kernel);
	kernel.add_device("192.0.2.1", "db0", RDMABLK_DEV_LIVE).uuid =
		kernel.export_uuids["192.0.2.1:7471/db0"];
	const ctl::Response r = call("attach", attach_db0_second);
	ASSERT_TRUE(r.ok) << r.error->message;
	EXPECT_EQ(kernel.changes(), (std::vector<std::string>{"attach 198.51.100.7:4420/db0",
							     "path_add 0 198.51.100.7:4420"}));
	ASSERT_EQ(config().attachments.size(), 1u);
	EXPECT_EQ(config().attachments[0].target, (nl::Endpoint{"192.0.2.1", RDMABLK_DEFAULT_PORT}))
		<< "the device's own path is kept first";
	EXPECT_EQ(config().attachments[0].paths, std::vector<nl::Endpoint>{second});
}

TEST_F(EngineTest, AnExportAttachedUnderAnotherNameIsNotJoined)
{
	kernel.export_uuids["198.51.100.7:4420/other"] =
		nl::parse_uuid("00112233-4455-4677-8899-aabbccddeeff");
	kernel.export_uuids["192.0.2.1:7471/db0"] = kernel.export_uuids["198.51.100.7:4420/other"];
	ASSERT_TRUE(call("attach", attach_db0).ok);
	kernel.requests.clear();
	const ctl::Response r =
		call("attach", {{"address", "198.51.100.7"}, {"port", 4420}, {"export", "other"}});
	ASSERT_FALSE(r.ok);
	EXPECT_EQ(r.error->code, "exists");
	EXPECT_NE(r.error->hint.find("under the same name"), std::string::npos) << r.error->hint;
	EXPECT_EQ(kernel.changes(), std::vector<std::string>{"attach 198.51.100.7:4420/other"});
	EXPECT_EQ(config().attachments.size(), 1u);
}

} // namespace
} // namespace rdmablk::daemon::test
