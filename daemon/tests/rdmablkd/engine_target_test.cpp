// SPDX-License-Identifier: GPL-2.0
/*
 * Control requests of the target role, against a MemoryKernel.
 */
#include <cerrno>

#include "engine_fixture.hpp"

namespace rdmablk::daemon::test {
namespace {

using nlohmann::json;

TEST_F(EngineTest, ListenAddsToKernelAndConfigurationOnce)
{
	ctl::Response r = call("listen", {{"address", "192.0.2.1"}});
	ASSERT_TRUE(r.ok) << r.error->message;
	EXPECT_EQ(r.result, (json{{"address", "192.0.2.1"}, {"port", 7471}, {"state", "listening"}}));
	ASSERT_EQ(config().listeners.size(), 1u);
	ASSERT_EQ(saved.size(), 1u) << "saved before answering";

	r = call("listen", {{"address", "192.0.2.1"}, {"port", 7471}});
	EXPECT_TRUE(r.ok);
	EXPECT_EQ(kernel.changes(), std::vector<std::string>{"listen_add 192.0.2.1:7471"});
	EXPECT_EQ(config().listeners.size(), 1u);
	EXPECT_EQ(saved.size(), 1u) << "nothing changed, nothing written";
}

TEST_F(EngineTest, UnlistenRemovesFromBoth)
{
	call("listen", {{"address", "192.0.2.1"}});
	ctl::Response r = call("unlisten", {{"address", "192.0.2.1"}});
	ASSERT_TRUE(r.ok);
	EXPECT_TRUE(kernel.listeners.empty());
	EXPECT_TRUE(config().listeners.empty());

	r = call("unlisten", {{"address", "192.0.2.1"}});
	ASSERT_FALSE(r.ok);
	EXPECT_EQ(r.error->code, "not-found");
	EXPECT_EQ(r.error->errnum, ENOENT);
	EXPECT_NE(r.error->message.find("no listener there"), std::string::npos)
		<< "the kernel's extack message is passed on: " << r.error->message;
}

TEST_F(EngineTest, UnlistenOfAConfiguredListenerTheKernelLostSucceeds)
{
	Config c;
	c.listeners.push_back({{"192.0.2.1", 7471}});
	configure(c);
	EXPECT_TRUE(call("unlisten", {{"address", "192.0.2.1"}}).ok);
	EXPECT_TRUE(config().listeners.empty());
}

TEST_F(EngineTest, ExportAddGeneratesAndKeepsTheUuid)
{
	ctl::Response r = call("export_add", {{"name", "db0"}, {"path", "/dev/ram0"}});
	ASSERT_TRUE(r.ok) << r.error->message;
	ASSERT_EQ(config().exports.size(), 1u);
	ASSERT_TRUE(config().exports[0].uuid);
	const std::string uuid = nl::to_string(*config().exports[0].uuid);
	EXPECT_EQ(r.result["uuid"], uuid);
	EXPECT_EQ(r.result["state"], "active");
	EXPECT_EQ(r.result["configured"], true);
	EXPECT_EQ(nl::to_string(kernel.exports.at(0).uuid), uuid);

	/* The same again: not an error, same uuid, nothing new in the kernel. */
	r = call("export_add", {{"name", "db0"}, {"path", "/dev/ram0"}, {"read_only", false}});
	ASSERT_TRUE(r.ok);
	EXPECT_EQ(r.result["uuid"], uuid);
	EXPECT_EQ(kernel.changes(), std::vector<std::string>{"export_add db0"});
}

TEST_F(EngineTest, ExportAddWithOtherSettingsIsRefused)
{
	call("export_add", {{"name", "db0"}, {"path", "/dev/ram0"}});
	const ctl::Response r = call("export_add", {{"name", "db0"}, {"path", "/dev/ram1"}});
	ASSERT_FALSE(r.ok);
	EXPECT_EQ(r.error->code, "exists");
	EXPECT_EQ(r.error->message,
		  "export db0 is configured with other settings (path /dev/ram0, configured "
		  "/dev/ram1)");
	EXPECT_EQ(r.error->hint, "remove it first with 'rdmablkctl export del db0' to change it");
	EXPECT_EQ(config().exports[0].path, "/dev/ram0");
}

TEST_F(EngineTest, ExportAddAdoptsAMatchingKernelExport)
{
	kernel.export_add("db0", "/dev/ram0", test_hostid, false, {}, false);
	kernel.requests.clear();
	const ctl::Response r = call("export_add", {{"name", "db0"},
						    {"path", "/dev/ram0"},
						    {"uuid", nl::to_string(test_hostid)}});
	ASSERT_TRUE(r.ok) << r.error->message;
	EXPECT_TRUE(kernel.changes().empty());
	EXPECT_EQ(config().exports.at(0).uuid, test_hostid);
}

TEST_F(EngineTest, ExportAddRefusesAKernelExportWithOtherSettings)
{
	kernel.export_add("db0", "/dev/ram9", test_hostid, false, {}, false);
	const ctl::Response r = call("export_add", {{"name", "db0"}, {"path", "/dev/ram0"}});
	ASSERT_FALSE(r.ok);
	EXPECT_EQ(r.error->code, "exists");
	EXPECT_TRUE(config().exports.empty());
}

TEST_F(EngineTest, ExportAddPassesAllowListAndReadOnly)
{
	const ctl::Response r = call("export_add", {{"name", "db0"},
						    {"path", "/dev/ram0"},
						    {"read_only", true},
						    {"allow", {nl::to_string(test_hostid)}}});
	ASSERT_TRUE(r.ok);
	EXPECT_TRUE(kernel.exports.at(0).read_only);
	EXPECT_EQ(kernel.exports.at(0).allowed_hosts, std::vector<nl::Uuid>{test_hostid});
	EXPECT_EQ(r.result["allow"], json::array({nl::to_string(test_hostid)}));
}

TEST_F(EngineTest, ExportAddOfAMissingDeviceKeepsNothing)
{
	kernel.failures["export_add db0"] = {ENOENT, "cannot open the block device"};
	const ctl::Response r = call("export_add", {{"name", "db0"}, {"path", "/dev/nope"}});
	ASSERT_FALSE(r.ok);
	EXPECT_EQ(r.error->code, "not-found");
	EXPECT_EQ(r.error->hint, "the path must name an existing block device");
	EXPECT_TRUE(config().exports.empty());
}

TEST_F(EngineTest, ExportDelRemovesFromBoth)
{
	call("export_add", {{"name", "db0"}, {"path", "/dev/ram0"}});
	ASSERT_TRUE(call("export_del", {{"name", "db0"}}).ok);
	EXPECT_TRUE(kernel.exports.empty());
	EXPECT_TRUE(config().exports.empty());
	const ctl::Response r = call("export_del", {{"name", "db0"}});
	EXPECT_EQ(r.error->code, "not-found");
}

TEST_F(EngineTest, ExportListShowsKernelAndPendingExports)
{
	kernel.export_add("manual", "/dev/ram1", test_hostid, false, {}, false);
	Config c;
	c.exports.push_back({"db0", "/dev/ram0", test_hostid, false, {}, false});
	configure(c);
	const json list = listed("export_list", "exports");
	ASSERT_EQ(list.size(), 2u);
	EXPECT_EQ(list[0]["name"], "manual");
	EXPECT_EQ(list[0]["configured"], false);
	EXPECT_EQ(list[1]["name"], "db0");
	EXPECT_EQ(list[1]["state"], "pending");
}

TEST_F(EngineTest, ConfigurationThatCannotBeSavedIsAnError)
{
	save_fails = true;
	const ctl::Response r = call("listen", {{"address", "192.0.2.1"}});
	ASSERT_FALSE(r.ok);
	EXPECT_EQ(r.error->code, "internal");
	EXPECT_EQ(r.error->message, "the kernel was changed but the configuration could not be "
				    "saved: disk full");
	EXPECT_TRUE(config().listeners.empty());
}

TEST_F(EngineTest, BadRequestsAreInvalidArguments)
{
	const std::vector<std::pair<std::string, json>> bad = {
		{"listen", json::object()},
		{"listen", {{"address", "host.example"}}},
		{"listen", {{"address", "192.0.2.1"}, {"port", 0}}},
		{"listen", {{"address", "192.0.2.1"}, {"prot", 1}}},
		{"export_add", {{"name", "a b"}, {"path", "/dev/x"}}},
		{"export_add", {{"name", "a"}, {"path", "/dev/x"}, {"allow", {"nope"}}}},
		{"attach", {{"address", "192.0.2.1"}, {"export", "a"}, {"queues", 65}}},
		{"attach", {{"address", "192.0.2.1"}, {"export", "a"}, {"queues", "4"}}},
		{"detach", {{"device", "sda"}}},
		{"status", {{"device", 3.5}}},
	};
	for (const auto &[cmd, args] : bad) {
		const ctl::Response r = call(cmd, args);
		ASSERT_FALSE(r.ok) << cmd << " " << args.dump();
		EXPECT_EQ(r.error->code, "invalid-argument") << cmd << " " << args.dump();
	}
	EXPECT_TRUE(kernel.requests.empty()) << "nothing reached the kernel";

	const ctl::Response r = call("frobnicate");
	EXPECT_EQ(r.error->code, "invalid-argument");
	EXPECT_EQ(r.error->message, "unknown command 'frobnicate'");
	EXPECT_EQ(call("listen", {{"address", "192.0.2.1"}, {"port", 0}}).error->message,
		  "listen: port must be 1 to 65535, not 0");
}

TEST_F(EngineTest, HostidIsAnsweredAtOnce)
{
	const ctl::Response r = call("hostid");
	ASSERT_TRUE(r.ok);
	EXPECT_EQ(r.result, (json{{"hostid", "0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0"}}));
}

TEST_F(EngineTest, MissingModuleIsUnreachable)
{
	kernel.unloaded = true;
	const ctl::Response r = call("listen", {{"address", "192.0.2.1"}});
	ASSERT_FALSE(r.ok);
	EXPECT_EQ(r.error->code, "unreachable");
	EXPECT_EQ(r.error->hint, "load it: modprobe rdmablk");
}

} // namespace
} // namespace rdmablk::daemon::test
