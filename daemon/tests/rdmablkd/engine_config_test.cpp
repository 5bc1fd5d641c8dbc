// SPDX-License-Identifier: GPL-2.0
/*
 * The engine as the configuration file's one writer: reload in turn with
 * the queued changes, a reload that can fail, changes refused while a hand
 * edit waits for a reload, removals saved before the kernel is changed.
 */
#include <cerrno>

#include "engine_fixture.hpp"

namespace rdmablk::daemon::test {
namespace {

using nlohmann::json;

TEST_F(EngineTest, ReloadOfABadFileFailsAndKeepsTheConfigurationInUse)
{
	ASSERT_TRUE(call("listen", {{"address", "192.0.2.1"}}).ok);
	file_error = "rdmablk.conf:3:8: [[listener]] #1: port must be 1 to 65535, not 0";
	const ctl::Response r = call("reload");
	ASSERT_FALSE(r.ok);
	EXPECT_EQ(r.error->code, "bad-config");
	EXPECT_EQ(r.error->message, *file_error);
	EXPECT_EQ(r.error->hint, "fix the file and reload again; the configuration in use stays");
	EXPECT_EQ(config().listeners.size(), 1u);
	EXPECT_EQ(logs_with("not reloading: " + *file_error).size(), 1u);
}

TEST_F(EngineTest, ReloadReadsTheFileInTurnWithChangesQueuedBeforeIt)
{
	/* An attach queued, then a SIGHUP before the attach ran. */
	std::optional<ctl::Response> attached, reloaded;
	engine.handle({"attach", attach_db0}, [&](ctl::Response r) { attached = std::move(r); });
	engine.reload([&](ctl::Response r) { reloaded = std::move(r); });
	exec.run();
	ASSERT_TRUE(attached && attached->ok);
	ASSERT_TRUE(reloaded && reloaded->ok);
	ASSERT_EQ(config().attachments.size(), 1u)
		<< "the reload read the file the attach had written, not an older one";
	EXPECT_EQ(kernel.devices.size(), 1u);
}

TEST_F(EngineTest, ChangesAreRefusedWhileAHandEditWaitsForAReload)
{
	ASSERT_TRUE(call("listen", {{"address", "192.0.2.1"}}).ok);
	kernel.requests.clear();
	file_edited = true;
	for (const auto &[cmd, args] : std::vector<std::pair<std::string, json>>{
		     {"listen", {{"address", "192.0.2.2"}}},
		     {"unlisten", {{"address", "192.0.2.1"}}},
		     {"export_add", {{"name", "db0"}, {"path", "/dev/ram0"}}},
		     {"attach", attach_db0},
		     {"discovery_add", {{"address", "192.0.2.1"}}}}) {
		const ctl::Response r = call(cmd, args);
		ASSERT_FALSE(r.ok) << cmd;
		EXPECT_EQ(r.error->code, "config-changed") << cmd;
		EXPECT_EQ(r.error->message, "rdmablk.conf was changed since rdmablkd last read it")
			<< cmd;
	}
	EXPECT_TRUE(kernel.changes().empty()) << "the kernel is not touched";
	EXPECT_TRUE(call("list").ok) << "looking is still fine";

	ASSERT_TRUE(call("reload").ok);
	EXPECT_TRUE(call("listen", {{"address", "192.0.2.2"}}).ok);
}

TEST_F(EngineTest, RemovalIsSavedBeforeTheKernelChanges)
{
	ASSERT_TRUE(call("export_add", {{"name", "db0"}, {"path", "/dev/ram0"}}).ok);
	ASSERT_TRUE(call("attach", attach_db0).ok);
	save_fails = true;
	for (const auto &[cmd, args] : std::vector<std::pair<std::string, json>>{
		     {"export_del", {{"name", "db0"}}}, {"detach", attach_db0}}) {
		const ctl::Response r = call(cmd, args);
		ASSERT_FALSE(r.ok) << cmd;
		EXPECT_EQ(r.error->code, "internal") << cmd;
		EXPECT_EQ(r.error->message,
			  "the configuration could not be saved: disk full; nothing was changed")
			<< cmd;
	}
	EXPECT_EQ(kernel.exports.size(), 1u) << "a removal that would come back is not made";
	EXPECT_EQ(kernel.devices.size(), 1u);
	EXPECT_EQ(config().exports.size(), 1u);
	EXPECT_EQ(config().attachments.size(), 1u);
}

TEST_F(EngineTest, RemovalTheKernelRefusesPutsTheConfigurationBack)
{
	ASSERT_TRUE(call("export_add", {{"name", "db0"}, {"path", "/dev/ram0"}}).ok);
	ASSERT_TRUE(call("attach", attach_db0).ok);
	const Config before = config();
	kernel.failures["export_del db0"] = {EBUSY, "export in use"};
	kernel.failures["detach 0"] = {EBUSY, "device in use"};
	EXPECT_FALSE(call("export_del", {{"name", "db0"}}).ok);
	EXPECT_FALSE(call("detach", attach_db0).ok);
	EXPECT_EQ(config(), before);
	EXPECT_EQ(file, before) << "and saved so";
}

} // namespace
} // namespace rdmablk::daemon::test
