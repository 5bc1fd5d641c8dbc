// SPDX-License-Identifier: GPL-2.0
/*
 * reconnect and dev_set: runtime operations on an attached device.
 */
#include <cerrno>

#include "engine_fixture.hpp"

namespace rdmablk::daemon::test {
namespace {

using nlohmann::json;

TEST_F(EngineTest, ReconnectNamesTheDeviceEitherWay)
{
	ASSERT_TRUE(call("attach", attach_db0).ok);
	kernel.requests.clear();
	ctl::Response r = call("reconnect", {{"device", "/dev/rdmablk0"}});
	ASSERT_TRUE(r.ok) << r.error->message;
	EXPECT_EQ(r.result, (json{{"device", "/dev/rdmablk0"}}));
	r = call("reconnect", attach_db0);
	ASSERT_TRUE(r.ok) << r.error->message;
	EXPECT_EQ(kernel.changes(), (std::vector<std::string>{"reconnect 0", "reconnect 0"}));

	r = call("reconnect", {{"device", "/dev/rdmablk7"}});
	ASSERT_FALSE(r.ok);
	EXPECT_EQ(r.error->code, "not-found");
	EXPECT_EQ(r.error->message, "no device rdmablk7");
	r = call("reconnect", {{"address", "192.0.2.1"}, {"export", "db9"}});
	EXPECT_EQ(r.error->message, "no device attached from export db9 of 192.0.2.1:7471");
}

TEST_F(EngineTest, DevSetChangesTheKernelAndTheConfiguredAttachment)
{
	ASSERT_TRUE(call("attach", attach_db0).ok);
	const ctl::Response r = call("dev_set", {{"device", "rdmablk0"},
						 {"fast_io_fail_tmo", 7},
						 {"ctrl_loss_tmo", -1}});
	ASSERT_TRUE(r.ok) << r.error->message;
	EXPECT_EQ(r.result["fast_io_fail_tmo"], 7);
	EXPECT_EQ(r.result["ctrl_loss_tmo"], -1);
	EXPECT_EQ(kernel.devices[0].fast_io_fail_tmo, 7);
	ASSERT_EQ(config().attachments.size(), 1u);
	EXPECT_EQ(config().attachments[0].fast_io_fail_tmo, 7) << "kept across restarts";
	EXPECT_EQ(config().attachments[0].ctrl_loss_tmo, -1);
	EXPECT_FALSE(config().attachments[0].keepalive_tmo) << "what was not given stays unset";
}

TEST_F(EngineTest, DevSetRefusesWhatItCannotChange)
{
	ASSERT_TRUE(call("attach", attach_db0).ok);
	kernel.requests.clear();
	for (const auto &[args, message] : std::vector<std::pair<json, std::string>>{
		     {{{"device", "rdmablk0"}}, "nothing to change"},
		     {{{"device", "rdmablk0"}, {"queues", 2}}, "unknown argument 'queues'"},
		     {{{"device", "rdmablk0"}, {"keepalive_tmo", 0}}, "keepalive_tmo must be"}}) {
		const ctl::Response r = call("dev_set", args);
		ASSERT_FALSE(r.ok) << args.dump();
		EXPECT_EQ(r.error->code, "invalid-argument");
		EXPECT_NE(r.error->message.find(message), std::string::npos) << r.error->message;
	}
	kernel.failures["dev_set 0"] = {EINVAL, "fast_io_fail_tmo must not exceed ctrl_loss_tmo"};
	const ctl::Response r = call("dev_set", {{"device", "rdmablk0"}, {"fast_io_fail_tmo", 9}});
	ASSERT_FALSE(r.ok);
	EXPECT_NE(r.error->message.find("fast_io_fail_tmo must not exceed"), std::string::npos);
	EXPECT_FALSE(config().attachments[0].fast_io_fail_tmo) << "refused: not configured";
}

} // namespace
} // namespace rdmablk::daemon::test
