// SPDX-License-Identifier: GPL-2.0
/*
 * Authentication through rdmablkd, against a MemoryKernel: host keys on the
 * target (host_add, host_del, host_list, passes, reload), exports that
 * require authentication, and attachments that authenticate. Keys live in
 * files of a TempDir; no answer, log line or saved configuration may hold
 * one.
 */
#include <fstream>

#include <sys/stat.h>

#include "auth/key.hpp"
#include "engine_fixture.hpp"
#include "temp_dir.hpp"

namespace rdmablk::daemon::test {
namespace {

using nlohmann::json;

const nl::Uuid host_a = nl::parse_uuid("11111111-2222-4333-8444-555555555555");

class EngineAuthTest : public EngineTest {
protected:
	/* A key file of @secret_byte repeated (HMAC-SHA-256), with @mode. */
	std::string key_file(const std::string &name, std::uint8_t secret_byte,
			     mode_t mode = 0600)
	{
		const std::array<std::uint8_t, 32> secret = filled(secret_byte);
		const auth::Key key(auth::Hash::sha256, secret);
		const std::string path = dir / name;
		std::ofstream(path) << key.to_string() << "\n";
		::chmod(path.c_str(), mode);
		return path;
	}

	static std::array<std::uint8_t, 32> filled(std::uint8_t byte)
	{
		std::array<std::uint8_t, 32> secret;
		secret.fill(byte);
		return secret;
	}

	static std::vector<std::uint8_t> bytes(std::uint8_t byte)
	{
		return std::vector<std::uint8_t>(32, byte);
	}

	/* No answer, log line or saved configuration holds the key text of @path. */
	void expect_never_shown(const std::string &path, const std::string &answer_text)
	{
		std::ifstream in(path);
		std::string line;
		std::getline(in, line);
		ASSERT_FALSE(line.empty());
		EXPECT_EQ(answer_text.find(line), std::string::npos);
		for (const LogRecord &r : logged)
			EXPECT_EQ(r.message.find(line), std::string::npos) << r.message;
		for (const Config &c : saved)
			EXPECT_EQ(format_config(c).find(line), std::string::npos);
	}

	TempDir dir{"auth"};

	void SetUp() override { std::filesystem::create_directories(dir.path()); }
};

TEST_F(EngineAuthTest, HostAddHandsTheKeysToTheKernelAndKeepsOnlyThePaths)
{
	const std::string key = key_file("a.key", 0x11);
	const std::string target_key = key_file("target.key", 0x22);
	const ctl::Response r = call("host_add", {{"id", nl::to_string(host_a)},
						  {"key_file", key},
						  {"target_key_file", target_key}});
	ASSERT_TRUE(r.ok) << r.error->message;
	EXPECT_EQ(kernel.changes(), std::vector<std::string>{"host_set " + nl::to_string(host_a)});
	EXPECT_EQ(kernel.host_keys[nl::to_string(host_a)].first, bytes(0x11));
	EXPECT_EQ(kernel.host_keys[nl::to_string(host_a)].second, bytes(0x22));
	EXPECT_EQ(r.result["id"], nl::to_string(host_a));
	EXPECT_EQ(r.result["hmac"], "sha256");
	EXPECT_EQ(r.result["mutual"], true);
	EXPECT_EQ(r.result["key_file"], key);
	EXPECT_EQ(r.result["state"], "active");

	ASSERT_EQ(config().hosts.size(), 1u);
	EXPECT_EQ(config().hosts[0].key_file, key);
	EXPECT_EQ(config().hosts[0].target_key_file, target_key);
	expect_never_shown(key, r.result.dump());
	expect_never_shown(target_key, r.result.dump());
}

TEST_F(EngineAuthTest, HostAddAgainReplacesTheKeys)
{
	call("host_add", {{"id", nl::to_string(host_a)}, {"key_file", key_file("old.key", 1)}});
	const std::string fresh = key_file("new.key", 2);
	ASSERT_TRUE(call("host_add", {{"id", nl::to_string(host_a)}, {"key_file", fresh}}).ok);
	EXPECT_EQ(kernel.host_keys[nl::to_string(host_a)].first, bytes(2));
	EXPECT_TRUE(kernel.host_keys[nl::to_string(host_a)].second.empty());
	ASSERT_EQ(config().hosts.size(), 1u);
	EXPECT_EQ(config().hosts[0].key_file, fresh);
	EXPECT_FALSE(config().hosts[0].target_key_file);
}

TEST_F(EngineAuthTest, HostAddWithReauthAsksTheKernelToCloseTheHostsSessions)
{
	const std::string key = key_file("a.key", 1);
	ASSERT_TRUE(call("host_add", {{"id", nl::to_string(host_a)}, {"key_file", key}}).ok);
	ASSERT_TRUE(call("host_add",
			 {{"id", nl::to_string(host_a)}, {"key_file", key}, {"reauth", true}})
			    .ok);
	ASSERT_TRUE(call("host_add",
			 {{"id", nl::to_string(host_a)}, {"key_file", key}, {"reauth", false}})
			    .ok);
	EXPECT_EQ(kernel.changes(), (std::vector<std::string>{
					    "host_set " + nl::to_string(host_a),
					    "host_set " + nl::to_string(host_a) + " reauth",
					    "host_set " + nl::to_string(host_a)}));
	/* A one-off: the configuration does not keep it. */
	ASSERT_EQ(config().hosts.size(), 1u);
	EXPECT_EQ(format_config(config()).find("reauth"), std::string::npos);

	const ctl::Response r = call(
		"host_add", {{"id", nl::to_string(host_a)}, {"key_file", key}, {"reauth", "yes"}});
	ASSERT_FALSE(r.ok);
	EXPECT_EQ(r.error->code, "invalid-argument");
	EXPECT_NE(r.error->message.find("reauth"), std::string::npos) << r.error->message;
}

TEST_F(EngineAuthTest, HostAddWithAnUnusableKeyFileChangesNothing)
{
	const std::string open_to_all = key_file("open.key", 3, 0644);
	const std::string missing = dir / "missing.key";
	const std::string garbage = dir / "garbage.key";
	std::ofstream(garbage) << "notakey\n";
	::chmod(garbage.c_str(), 0600);

	for (const auto &[path, says] : {std::pair{open_to_all, "chmod 600"},
					 {missing, "rdmablkctl key generate"},
					 {garbage, "RDMABLK-1"}}) {
		const ctl::Response r =
			call("host_add", {{"id", nl::to_string(host_a)}, {"key_file", path}});
		ASSERT_FALSE(r.ok) << path;
		EXPECT_EQ(r.error->code, "invalid-argument") << r.error->message;
		EXPECT_NE(r.error->message.find(path), std::string::npos) << r.error->message;
		EXPECT_NE(r.error->message.find(says), std::string::npos) << r.error->message;
	}
	EXPECT_TRUE(kernel.changes().empty());
	EXPECT_TRUE(config().hosts.empty());
	EXPECT_TRUE(saved.empty());
}

TEST_F(EngineAuthTest, HostArgumentsAreChecked)
{
	const std::string key = key_file("a.key", 1);
	const auto refused = [&](json args, const std::string &says) {
		const ctl::Response r = call("host_add", std::move(args));
		ASSERT_FALSE(r.ok);
		EXPECT_EQ(r.error->code, "invalid-argument");
		EXPECT_NE(r.error->message.find(says), std::string::npos) << r.error->message;
	};
	refused({{"key_file", key}}, "missing argument 'id'");
	refused({{"id", "not-a-uuid"}, {"key_file", key}}, "id");
	refused({{"id", nl::to_string(host_a)}}, "key_file");
	refused({{"id", nl::to_string(host_a)}, {"key_file", "a.key"}}, "absolute");
	refused({{"id", nl::to_string(host_a)}, {"key_file", key}, {"key", "x"}},
		"unknown argument 'key'");
	EXPECT_TRUE(kernel.changes().empty());
}

TEST_F(EngineAuthTest, HostDelForgetsTheHostInBoth)
{
	call("host_add", {{"id", nl::to_string(host_a)}, {"key_file", key_file("a.key", 1)}});
	ASSERT_TRUE(call("host_del", {{"id", nl::to_string(host_a)}}).ok);
	EXPECT_TRUE(kernel.hosts.empty());
	EXPECT_TRUE(config().hosts.empty());

	const ctl::Response r = call("host_del", {{"id", nl::to_string(host_a)}});
	ASSERT_FALSE(r.ok);
	EXPECT_EQ(r.error->code, "not-found");
}

TEST_F(EngineAuthTest, HostListShowsKernelAndPendingHostsWithoutKeys)
{
	call("host_add", {{"id", nl::to_string(host_a)}, {"key_file", key_file("a.key", 1)}});
	kernel.hosts[0].auth_ok = 4;
	kernel.hosts[0].auth_failed = 2;
	/* Configured, its key file unusable: the pass cannot set it. */
	Config c = config();
	const nl::Uuid host_b = nl::parse_uuid("22222222-3333-4444-8555-666666666666");
	c.hosts.push_back({host_b, (dir / "missing.key").string(), std::nullopt});
	configure(c);
	pass();

	const json hosts = listed("host_list", "hosts");
	ASSERT_EQ(hosts.size(), 2u) << hosts.dump();
	EXPECT_EQ(hosts[0]["id"], nl::to_string(host_a));
	EXPECT_EQ(hosts[0]["auth_ok"], 4);
	EXPECT_EQ(hosts[0]["auth_failed"], 2);
	EXPECT_EQ(hosts[0]["configured"], true);
	EXPECT_EQ(hosts[1]["id"], nl::to_string(host_b));
	EXPECT_EQ(hosts[1]["state"], "pending");
	EXPECT_NE(hosts[1]["last_error"].get<std::string>().find("missing.key"), std::string::npos)
		<< hosts[1].dump();
}

TEST_F(EngineAuthTest, APassSetsTheKeysOfConfiguredHostsTheKernelLacks)
{
	const std::string key = key_file("a.key", 5);
	Config c;
	c.hosts.push_back({host_a, key, std::nullopt});
	configure(c);
	pass();
	EXPECT_EQ(kernel.host_keys[nl::to_string(host_a)].first, bytes(5));

	/* The module reloaded: its keys are gone, and set again. */
	kernel.hosts.clear();
	kernel.requests.clear();
	pass();
	EXPECT_EQ(kernel.changes(), std::vector<std::string>{"host_set " + nl::to_string(host_a)});

	/* Present: not set again by a pass. */
	kernel.requests.clear();
	pass();
	EXPECT_TRUE(kernel.changes().empty());
}

TEST_F(EngineAuthTest, ReloadSetsEveryHostsKeysFromTheirFilesAgain)
{
	const std::string key = key_file("a.key", 6);
	call("host_add", {{"id", nl::to_string(host_a)}, {"key_file", key}});
	key_file("a.key", 7); /* rotated in place */
	file = config();
	ASSERT_TRUE(call("reload").ok);
	EXPECT_EQ(kernel.host_keys[nl::to_string(host_a)].first, bytes(7));

	/* A file broken since: the kernel keeps the key it has, and the log says why. */
	std::ofstream(key) << "broken\n";
	ASSERT_TRUE(call("reload").ok);
	EXPECT_EQ(kernel.host_keys[nl::to_string(host_a)].first, bytes(7));
	EXPECT_FALSE(logs_with("keeping the key in use").empty());
}

TEST_F(EngineAuthTest, ExportAuthRequiredReachesTheKernelAndTheConfiguration)
{
	const ctl::Response r = call("export_add", {{"name", "db0"},
						    {"path", "/dev/ram0"},
						    {"auth_required", true}});
	ASSERT_TRUE(r.ok) << r.error->message;
	ASSERT_EQ(kernel.exports.size(), 1u);
	EXPECT_TRUE(kernel.exports[0].auth_required);
	EXPECT_TRUE(config().exports[0].auth_required);
	EXPECT_EQ(r.result["auth_required"], true);

	/* The same export without the requirement is another export. */
	const ctl::Response again =
		call("export_add", {{"name", "db0"}, {"path", "/dev/ram0"}});
	ASSERT_FALSE(again.ok);
	EXPECT_EQ(again.error->code, "exists");
}

TEST_F(EngineAuthTest, AttachHandsTheKeysOfItsFilesToTheKernel)
{
	const std::string key = key_file("mine.key", 8);
	const std::string target_key = key_file("target.key", 9);
	const ctl::Response r = call("attach", {{"address", "192.0.2.1"},
						{"export", "db0"},
						{"key_file", key},
						{"target_key_file", target_key}});
	ASSERT_TRUE(r.ok) << r.error->message;
	EXPECT_EQ(kernel.attach_keys["db0"].first, bytes(8));
	EXPECT_EQ(kernel.attach_keys["db0"].second, bytes(9));
	EXPECT_EQ(r.result["auth"], "mutual");
	ASSERT_EQ(config().attachments.size(), 1u);
	EXPECT_EQ(config().attachments[0].key_file, key);
	EXPECT_EQ(config().attachments[0].target_key_file, target_key);
	expect_never_shown(key, r.result.dump());

	/* The attachment is set up again, after a reboot, with the same keys. */
	kernel.devices.clear();
	kernel.attach_keys.clear();
	pass();
	EXPECT_EQ(kernel.attach_keys["db0"].first, bytes(8));
}

TEST_F(EngineAuthTest, ReloadHandsAttachedDevicesTheirRotatedKeys)
{
	const std::string key = key_file("mine.key", 1);
	ASSERT_TRUE(call("attach", {{"address", "192.0.2.1"}, {"export", "db0"}, {"key_file", key}})
			    .ok);
	ASSERT_TRUE(call("attach", {{"address", "192.0.2.1"}, {"export", "open"}}).ok);
	key_file("mine.key", 2);
	file = config();
	kernel.requests.clear();
	ASSERT_TRUE(call("reload").ok);
	EXPECT_EQ(kernel.attach_keys["db0"].first, bytes(2));
	/* The device without a key is left as it is. */
	EXPECT_EQ(kernel.changes(), std::vector<std::string>{"dev_set 0"});
}

TEST_F(EngineAuthTest, AttachWithAnUnusableKeyFileIsRefusedAndNotConfigured)
{
	const ctl::Response r = call("attach", {{"address", "192.0.2.1"},
						{"export", "db0"},
						{"key_file", key_file("open.key", 1, 0640)}});
	ASSERT_FALSE(r.ok);
	EXPECT_EQ(r.error->code, "invalid-argument");
	EXPECT_NE(r.error->message.find("chmod 600"), std::string::npos) << r.error->message;
	EXPECT_TRUE(kernel.devices.empty());
	EXPECT_TRUE(config().attachments.empty());

	const ctl::Response lone = call("attach", {{"address", "192.0.2.1"},
						   {"export", "db0"},
						   {"target_key_file", key_file("t.key", 2)}});
	ASSERT_FALSE(lone.ok);
	EXPECT_NE(lone.error->message.find("needs key_file"), std::string::npos)
		<< lone.error->message;
}

TEST_F(EngineAuthTest, AttachRefusalsSayWhichSideRefusedAndWhatToDo)
{
	const auto refused = [&](int errnum, const std::string &says) {
		kernel.failures["attach 192.0.2.1:7471/db0"] = {errnum, "the kernel's words"};
		const ctl::Response r =
			call("attach", {{"address", "192.0.2.1"}, {"export", "db0"}});
		ASSERT_FALSE(r.ok);
		EXPECT_EQ(r.error->code, "permission-denied");
		EXPECT_NE((r.error->message + " " + r.error->hint).find(says), std::string::npos)
			<< r.error->message << " / " << r.error->hint;
		EXPECT_NE(r.error->message.find("the kernel's words"), std::string::npos);
	};
	refused(ENOKEY, "requires authentication");
	refused(EKEYREJECTED, "refused this host's key");
	refused(EBADMSG, "did not prove it holds the target key");
}

TEST_F(EngineAuthTest, DiscoverAuthenticatesWithTheKeysGiven)
{
	const std::string key = key_file("a.key", 0x11);
	const std::string target_key = key_file("target.key", 0x22);
	discover_answer = ctl::ok({{"exports", json::array()}});
	ASSERT_TRUE(call("discover", {{"address", "192.0.2.1"}}).ok);
	const ctl::Response r = call("discover", {{"address", "192.0.2.1"},
						  {"key_file", key},
						  {"target_key_file", target_key}});
	ASSERT_TRUE(r.ok) << r.error->message;
	ASSERT_TRUE(call("discover", {{"address", "192.0.2.1"}, {"key_file", key}}).ok);
	EXPECT_EQ(discovered_keys,
		  (std::vector<std::pair<bool, bool>>{{false, false}, {true, true}, {true, false}}));
	expect_never_shown(key, r.result.dump());
}

TEST_F(EngineAuthTest, DiscoverRefusesUnusableKeyFiles)
{
	const std::string open_key = key_file("open.key", 0x11, 0644);
	const std::string target_key = key_file("target.key", 0x22);
	for (const json &args : {json{{"address", "192.0.2.1"}, {"key_file", open_key}},
				 json{{"address", "192.0.2.1"}, {"key_file", (dir / "none.key").string()}},
				 json{{"address", "192.0.2.1"}, {"key_file", "relative.key"}},
				 json{{"address", "192.0.2.1"}, {"target_key_file", target_key}}}) {
		const ctl::Response r = call("discover", args);
		ASSERT_FALSE(r.ok) << args.dump();
		EXPECT_EQ(r.error->code, "invalid-argument") << args.dump();
	}
	EXPECT_TRUE(discovered.empty());
}

} // namespace
} // namespace rdmablk::daemon::test
