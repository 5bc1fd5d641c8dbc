// SPDX-License-Identifier: GPL-2.0
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <linux/rdmablk.h>

#include "config/config.hpp"
#include "temp_dir.hpp"

namespace rdmablk::daemon {
namespace {

const std::string file = "rdmablk.conf";

Config full_config()
{
	Config c;
	c.daemon.retry_initial = 2;
	c.daemon.retry_max = 120;
	c.daemon.check_interval = 0;
	c.listeners.push_back({{"192.0.2.1", 7471}});
	c.listeners.push_back({{"fe80::1%eth0", 7000}});
	ExportConfig e;
	e.name = "db0";
	e.path = "/dev/disk/by-id/nvme-\"odd\\name";
	e.uuid = nl::parse_uuid("00112233-4455-4677-8899-aabbccddeeff");
	e.read_only = true;
	e.allow = {nl::parse_uuid("0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0"),
		   nl::parse_uuid("11111111-2222-4333-8444-555555555555")};
	e.auth_required = true;
	c.exports.push_back(e);
	c.hosts.push_back({nl::parse_uuid("0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0"),
			   "/etc/rdmablk/keys/a.key", "/etc/rdmablk/keys/target-a.key"});
	c.hosts.push_back({nl::parse_uuid("11111111-2222-4333-8444-555555555555"),
			   "/etc/rdmablk/keys/\"b\".key", std::nullopt});
	ExportConfig plain;
	plain.name = "scratch.1";
	plain.path = "/dev/ram0";
	c.exports.push_back(plain);
	AttachmentConfig a;
	a.target = {"192.0.2.2", 7471};
	a.export_name = "remote:db";
	a.queues = 4;
	a.poll_queues = 1;
	a.queue_depth = 256;
	a.reconnect_delay = 5;
	a.ctrl_loss_tmo = -1;
	a.fast_io_fail_tmo = 30;
	a.keepalive_tmo = 3;
	a.key_file = "/etc/rdmablk/keys/me.key";
	a.target_key_file = "/etc/rdmablk/keys/them.key";
	a.paths = {{"198.51.100.7", 4420}, {"2001:db8::2", 7471}};
	a.standby = {{"2001:db8::2", 7471}};
	a.policy = RDMABLK_MP_ROUND_ROBIN;
	c.attachments.push_back(a);
	AttachmentConfig defaults;
	defaults.target = {"2001:db8::7", 9000};
	defaults.export_name = "x";
	c.attachments.push_back(defaults);
	DiscoveryConfig all;
	all.target = {"192.0.2.9", 7471};
	c.discoveries.push_back(all);
	DiscoveryConfig some;
	some.target = {"fe80::1%eth0", 7000};
	some.attach_all = false;
	some.attach = {"db0", "00112233-4455-4677-8899-aabbccddeeff"};
	some.settings.queues = 2;
	some.settings.ctrl_loss_tmo = -1;
	some.settings.key_file = "/etc/rdmablk/keys/me.key";
	some.settings.policy = RDMABLK_MP_MIN_LATENCY;
	c.discoveries.push_back(some);
	return c;
}

/* parse_config() must fail with exactly @message. */
void expect_error(const std::string &text, const std::string &message)
{
	try {
		parse_config(text, file);
		FAIL() << "accepted:\n" << text;
	} catch (const ConfigError &e) {
		EXPECT_EQ(e.what(), message);
	}
}

/* parse_config() must fail with a message that contains each of @parts. */
void expect_error_saying(const std::string &text, std::initializer_list<std::string> parts)
{
	try {
		parse_config(text, file);
		FAIL() << "accepted:\n" << text;
	} catch (const ConfigError &e) {
		for (const std::string &part : parts)
			EXPECT_NE(std::string(e.what()).find(part), std::string::npos)
				<< "'" << part << "' not in: " << e.what();
	}
}

TEST(Config, ReadsAuthenticationSettings)
{
	const Config c = parse_config(R"(
[[host]]
id = "11111111-2222-4333-8444-555555555555"
key_file = "/etc/rdmablk/keys/a.key"

[[export]]
name = "db0"
path = "/dev/ram0"
auth_required = true

[[attachment]]
address = "192.0.2.1"
export = "db0"
key_file = "/etc/rdmablk/keys/me.key"
target_key_file = "/etc/rdmablk/keys/them.key"
)",
				      file);
	ASSERT_EQ(c.hosts.size(), 1u);
	EXPECT_EQ(c.hosts[0].key_file, "/etc/rdmablk/keys/a.key");
	EXPECT_FALSE(c.hosts[0].target_key_file);
	EXPECT_TRUE(c.exports.at(0).auth_required);
	EXPECT_EQ(c.attachments.at(0).key_file, "/etc/rdmablk/keys/me.key");
	EXPECT_EQ(c.attachments.at(0).target_key_file, "/etc/rdmablk/keys/them.key");
}

TEST(Config, RejectsBadAuthenticationSettings)
{
	const std::string id = "id = \"11111111-2222-4333-8444-555555555555\"\n";
	expect_error_saying("[[host]]\n" + id + "key_file = \"a.key\"\n",
			    {"rdmablk.conf:3:", "[[host]] #1", "key_file must be an absolute path"});
	expect_error_saying("[[host]]\nkey_file = \"/k\"\n", {"[[host]] #1", "missing 'id'"});
	expect_error_saying("[[host]]\n" + id, {"[[host]] #1", "missing 'key_file'"});
	expect_error_saying("[[host]]\n" + id + "key_file = \"/k\"\nkey = \"RDMABLK-1:\"\n",
			    {"unknown key 'key'"});
	expect_error_saying("[[host]]\n" + id + "key_file = \"/k\"\n[[host]]\n" + id +
				    "key_file = \"/j\"\n",
			    {"[[host]] #2: the same id as [[host]] #1"});
	expect_error_saying("[[attachment]]\naddress = \"192.0.2.1\"\nexport = \"x\"\n"
			    "target_key_file = \"/t\"\n",
			    {"rdmablk.conf:4:", "target_key_file needs key_file"});
	expect_error_saying("[[discovery]]\naddress = \"192.0.2.1\"\nkey_file = \"k\"\n",
			    {"[[discovery]] #1", "key_file must be an absolute path"});
	expect_error_saying("[[export]]\nname = \"a\"\npath = \"/dev/x\"\nauth_required = 1\n",
			    {"'auth_required' must be true or false"});
}

TEST(Config, EmptyTextIsTheDefaults)
{
	EXPECT_EQ(parse_config("", file), Config{});
	EXPECT_EQ(Config{}.daemon.retry_initial, 1u);
	EXPECT_EQ(Config{}.daemon.retry_max, 60u);
}

TEST(Config, WriteThenParseGivesTheSameConfig)
{
	const Config c = full_config();
	EXPECT_EQ(parse_config(format_config(c), file), c);
	EXPECT_EQ(parse_config(format_config(Config{}), file), Config{});
}

TEST(Config, WrittenTextStartsWithTheExplanation)
{
	const std::string text = format_config(full_config());
	EXPECT_EQ(text.rfind("# rdmablk.conf - ", 0), 0u);
	EXPECT_NE(text.find("see rdmablk.conf(5)"), std::string::npos);
	EXPECT_NE(text.find("\n[daemon]\nretry_initial = 2\nretry_max = 120\n"), std::string::npos);
	/* Attachment settings left to the kernel are not written. */
	const std::string tail = text.substr(text.rfind("[[attachment]]"));
	EXPECT_EQ(tail.substr(0, tail.find("\n\n")),
		  "[[attachment]]\naddress = \"2001:db8::7\"\nport = 9000\nexport = \"x\"");
	EXPECT_NE(text.find("[[discovery]]\naddress = \"[fe80::1%eth0]:7000\"\nattach = [\"db0\", "
			    "\"00112233-4455-4677-8899-aabbccddeeff\"]\nqueues = 2\nctrl_loss_tmo = -1\n"),
		  std::string::npos);
	EXPECT_NE(text.find("[[discovery]]\naddress = \"192.0.2.9:7471\"\nattach = \"all\"\n"),
		  std::string::npos);
}

TEST(Config, ReadsWhatAnAdministratorWrites)
{
	const Config c = parse_config(R"(
# comment
[[listener]]
address = "192.0.2.1"   # port defaults to 7471

[[export]]
name = "db0"
path = "/dev/ram0"

[[attachment]]
address = "192.0.2.1"
export = "db0"
ctrl_loss_tmo = -1
)",
				      file);
	ASSERT_EQ(c.listeners.size(), 1u);
	EXPECT_EQ(c.listeners[0].endpoint.port, 7471);
	ASSERT_EQ(c.exports.size(), 1u);
	EXPECT_FALSE(c.exports[0].uuid);
	EXPECT_FALSE(c.exports[0].read_only);
	EXPECT_TRUE(c.exports[0].allow.empty());
	ASSERT_EQ(c.attachments.size(), 1u);
	EXPECT_EQ(c.attachments[0].ctrl_loss_tmo, -1);
	EXPECT_FALSE(c.attachments[0].queues);
}

TEST(Config, ReadsDiscoveryEntries)
{
	const Config c = parse_config(R"([[discovery]]
address = "192.0.2.1"

[[discovery]]
address = "[2001:db8::1]:9000"
attach = ["db0", "00112233-4455-4677-8899-AABBCCDDEEFF"]
fast_io_fail_tmo = 5
)",
				      file);
	ASSERT_EQ(c.discoveries.size(), 2u);
	EXPECT_EQ(c.discoveries[0].target, (nl::Endpoint{"192.0.2.1", 7471}));
	EXPECT_TRUE(c.discoveries[0].attach_all);
	EXPECT_EQ(c.discoveries[1].target, (nl::Endpoint{"2001:db8::1", 9000}));
	EXPECT_FALSE(c.discoveries[1].attach_all);
	EXPECT_EQ(c.discoveries[1].attach,
		  (std::vector<std::string>{"db0", "00112233-4455-4677-8899-aabbccddeeff"}));
	EXPECT_EQ(c.discoveries[1].settings.fast_io_fail_tmo, 5);
	EXPECT_EQ(parse_config(format_config(c), file), c);
}

TEST(Config, RejectsBadDiscoveryEntries)
{
	expect_error("[[discovery]]\nattach = \"all\"\n",
		     "rdmablk.conf:1:1: [[discovery]] #1: missing 'address'");
	expect_error("[[discovery]]\naddress = \"192.0.2.1:0\"\n",
		     "rdmablk.conf:2:11: [[discovery]] #1: invalid address \"192.0.2.1:0\": port "
		     "must be 1 to 65535");
	expect_error("[[discovery]]\naddress = \"192.0.2.1\"\nattach = \"some\"\n",
		     "rdmablk.conf:3:10: [[discovery]] #1: 'attach' must be \"all\" or an array of "
		     "export names or UUIDs");
	expect_error("[[discovery]]\naddress = \"192.0.2.1\"\nattach = []\n",
		     "rdmablk.conf:3:10: [[discovery]] #1: 'attach' lists nothing; write attach = "
		     "\"all\" or name exports");
	expect_error("[[discovery]]\naddress = \"192.0.2.1\"\nattach = [\"a\", 1]\n",
		     "rdmablk.conf:3:16: [[discovery]] #1: 'attach' must list export names or UUIDs "
		     "in strings");
	expect_error("[[discovery]]\naddress = \"192.0.2.1\"\nattach = [\"a\", \"a\"]\n",
		     "rdmablk.conf:3:16: [[discovery]] #1: 'a' is listed twice in 'attach'");
	expect_error("[[discovery]]\naddress = \"192.0.2.1\"\nqueue = 4\n",
		     "rdmablk.conf:3:1: [[discovery]] #1: unknown key 'queue'");
	expect_error("[[discovery]]\naddress = \"192.0.2.1\"\n\n[[discovery]]\n"
		     "address = \"192.0.2.1:7471\"\n",
		     "rdmablk.conf:4:1: [[discovery]] #2: the same address and port as "
		     "[[discovery]] #1");
}

TEST(Config, RejectsBadTomlWithItsPosition)
{
	expect_error("[[listener]]\naddress = \"192.0.2.1\n",
		     "rdmablk.conf:2:21: Error while parsing string: unescaped control characters "
		     "other than TAB (U+0009) are explicitly prohibited");
}

TEST(Config, RejectsUnknownKeysAndTables)
{
	expect_error("[[export]]\nname = \"a\"\npath = \"/dev/x\"\nreadonly = true\n",
		     "rdmablk.conf:4:1: [[export]] #1: unknown key 'readonly'");
	expect_error("\n\n[exports]\n",
		     "rdmablk.conf:3:2: unknown key or table 'exports' (expected [daemon], "
		     "[[listener]], [[host]], [[export]], [[attachment]], [[discovery]])");
	expect_error("[daemon]\nretry_min = 1\n", "rdmablk.conf:2:1: [daemon]: unknown key 'retry_min'");
}

TEST(Config, RejectsWrongTypes)
{
	expect_error("[[listener]]\naddress = \"192.0.2.1\"\nport = \"7471\"\n",
		     "rdmablk.conf:3:8: [[listener]] #1: 'port' must be an integer");
	expect_error("[[export]]\nname = \"a\"\npath = \"/dev/x\"\nread_only = 1\n",
		     "rdmablk.conf:4:13: [[export]] #1: 'read_only' must be true or false");
	expect_error("[listener]\naddress = \"192.0.2.1\"\n",
		     "rdmablk.conf:1:1: 'listener' must be an array of tables: write [[listener]]");
	expect_error("daemon = 3\n", "rdmablk.conf:1:10: 'daemon' must be a table: write [daemon]");
}

TEST(Config, RejectsValuesOutOfRange)
{
	expect_error("[[listener]]\naddress = \"192.0.2.1\"\nport = 0\n",
		     "rdmablk.conf:3:8: [[listener]] #1: port must be 1 to 65535, not 0");
	expect_error("[[attachment]]\naddress = \"192.0.2.1\"\nexport = \"a\"\nqueues = 65\n",
		     "rdmablk.conf:4:10: [[attachment]] #1: queues must be 1 to 64, not 65");
	expect_error("[[attachment]]\naddress = \"192.0.2.1\"\nexport = \"a\"\npoll_queues = 64\n",
		     "rdmablk.conf:4:15: [[attachment]] #1: poll_queues must be 0 to 63, not 64");
	expect_error("[[attachment]]\naddress = \"192.0.2.1\"\nexport = \"a\"\nctrl_loss_tmo = -2\n",
		     "rdmablk.conf:4:17: [[attachment]] #1: ctrl_loss_tmo must be -1 to 604800, "
		     "not -2");
	expect_error("[daemon]\nretry_initial = 10\nretry_max = 5\n",
		     "rdmablk.conf:1:1: [daemon]: retry_max (5) is less than retry_initial (10)");
}

TEST(Config, RejectsBadNamesAddressesAndPaths)
{
	expect_error("[[listener]]\naddress = \"target.example\"\n",
		     "rdmablk.conf:2:11: [[listener]] #1: \"target.example\" is not an IPv4 or "
		     "IPv6 address (names are not resolved)");
	expect_error("[[listener]]\nport = 7471\n",
		     "rdmablk.conf:1:1: [[listener]] #1: missing 'address'");
	expect_error("[[export]]\nname = \"a b\"\npath = \"/dev/x\"\n",
		     "rdmablk.conf:2:8: [[export]] #1: the export name \"a b\" may only hold "
		     "letters, digits and . _ : -");
	expect_error("[[export]]\nname = \"a\"\npath = \"dev/x\"\n",
		     "rdmablk.conf:3:8: [[export]] #1: the export path \"dev/x\" is not absolute "
		     "(give the block device, e.g. /dev/nvme0n1)");
}

TEST(Config, RejectsBadUuids)
{
	expect_error("[[export]]\nname = \"a\"\npath = \"/dev/x\"\nuuid = \"0011\"\n",
		     "rdmablk.conf:4:8: [[export]] #1: 'uuid': invalid UUID \"0011\": expected "
		     "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx (36 characters), got 4 characters");
	expect_error("[[export]]\nname = \"a\"\npath = \"/dev/x\"\nallow = [\"x\"]\n",
		     "rdmablk.conf:4:10: [[export]] #1: 'allow': invalid UUID \"x\": expected "
		     "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx (36 characters), got 1 characters");
}

TEST(Config, RejectsDuplicates)
{
	expect_error("[[export]]\nname = \"a\"\npath = \"/dev/x\"\n\n"
		     "[[export]]\nname = \"a\"\npath = \"/dev/y\"\n",
		     "rdmablk.conf:5:1: [[export]] #2: the same name as [[export]] #1");
	expect_error("[[listener]]\naddress = \"2001:db8::1\"\n"
		     "[[listener]]\naddress = \"2001:0db8:0::1\"\nport = 7471\n",
		     "rdmablk.conf:3:1: [[listener]] #2: the same address and port as "
		     "[[listener]] #1");
	expect_error("[[attachment]]\naddress = \"192.0.2.1\"\nexport = \"a\"\n"
		     "[[attachment]]\naddress = \"192.0.2.1\"\nexport = \"a\"\n",
		     "rdmablk.conf:4:1: [[attachment]] #2: the same target and export as "
		     "[[attachment]] #1");
}

TEST(Config, ReadsPathsStandbyAndPolicy)
{
	const Config c = parse_config(R"(
[[attachment]]
address = "192.0.2.1"
export = "db0"
paths = ["198.51.100.7:4420", "[2001:db8::2]", "2001:db8::3"]
standby = ["192.0.2.1", "198.51.100.7:4420"]
policy = "min-latency"
)",
				      file);
	const AttachmentConfig &a = c.attachments.at(0);
	EXPECT_EQ(a.paths, (std::vector<nl::Endpoint>{
				   {"198.51.100.7", 4420}, {"2001:db8::2", 7471}, {"2001:db8::3", 7471}}));
	EXPECT_EQ(a.standby,
		  (std::vector<nl::Endpoint>{{"192.0.2.1", 7471}, {"198.51.100.7", 4420}}));
	EXPECT_EQ(a.policy, RDMABLK_MP_MIN_LATENCY);
	EXPECT_TRUE(is_standby(a, {"192.0.2.1", 7471}));
	EXPECT_FALSE(is_standby(a, {"2001:db8::3", 7471}));

	/* Found by any of its paths. */
	EXPECT_EQ(find_attachment(c, {"2001:0db8::3", 7471}, "db0"), &a);
	EXPECT_EQ(find_attachment(c, {"198.51.100.7", 7471}, "db0"), nullptr);
	EXPECT_EQ(find_attachment(c, {"198.51.100.7", 4420}, "db1"), nullptr);
}

TEST(Config, WritesPathsOnlyWhenThereAreSome)
{
	Config c;
	AttachmentConfig a;
	a.target = {"192.0.2.1", 7471};
	a.export_name = "db0";
	c.attachments.push_back(a);
	EXPECT_EQ(format_config(c).find("paths ="), std::string::npos);
	EXPECT_EQ(format_config(c).find("policy ="), std::string::npos);
	c.attachments[0].paths = {{"198.51.100.7", 4420}};
	c.attachments[0].standby = {{"192.0.2.1", 7471}};
	c.attachments[0].policy = RDMABLK_MP_QUEUE_DEPTH;
	const std::string text = format_config(c);
	EXPECT_NE(text.find("paths = [\"198.51.100.7:4420\"]\n"), std::string::npos) << text;
	EXPECT_NE(text.find("standby = [\"192.0.2.1:7471\"]\n"), std::string::npos) << text;
	EXPECT_NE(text.find("policy = \"queue-depth\"\n"), std::string::npos) << text;
	EXPECT_EQ(parse_config(text, file), c);
}

TEST(Config, RejectsBadPaths)
{
	const std::string att = "[[attachment]]\naddress = \"192.0.2.1\"\nexport = \"a\"\n";
	expect_error(att + "paths = \"192.0.2.2\"\n",
		     "rdmablk.conf:4:9: [[attachment]] #1: 'paths' must be an array of "
		     "\"ADDR[:PORT]\" strings");
	expect_error(att + "paths = [\"192.0.2.2\", 3]\n",
		     "rdmablk.conf:4:23: [[attachment]] #1: 'paths' must list \"ADDR[:PORT]\" "
		     "strings");
	expect_error(att + "paths = [\"192.0.2.2:0\"]\n",
		     "rdmablk.conf:4:10: [[attachment]] #1: 'paths': invalid address "
		     "\"192.0.2.2:0\": port must be 1 to 65535");
	expect_error(att + "paths = [\"target.example\"]\n",
		     "rdmablk.conf:4:10: [[attachment]] #1: 'paths': invalid address "
		     "\"target.example\": not an IPv4 or IPv6 address");
	expect_error(att + "paths = [\"192.0.2.2\", \"192.0.2.2:7471\"]\n",
		     "rdmablk.conf:4:9: [[attachment]] #1: 192.0.2.2:7471 is listed twice in "
		     "'paths'");
	expect_error(att + "paths = [\"192.0.2.1:7471\"]\n",
		     "rdmablk.conf:4:9: [[attachment]] #1: 'paths' lists 192.0.2.1:7471, the "
		     "attachment's own address; list only the target's other addresses");
	expect_error_saying(att + "paths = [\"10.0.0.1\", \"10.0.0.2\", \"10.0.0.3\", "
				  "\"10.0.0.4\", \"10.0.0.5\", \"10.0.0.6\", \"10.0.0.7\", "
				  "\"10.0.0.8\"]\n",
			    {"rdmablk.conf:4:9:", "'paths' lists 8 addresses; a device has at most 8 "
						  "paths, its address included"});
	expect_error(att + "standby = [\"192.0.2.2\"]\n",
		     "rdmablk.conf:4:11: [[attachment]] #1: 'standby' lists 192.0.2.2:7471, which "
		     "is neither the attachment's address nor in 'paths'");
	expect_error(att + "policy = \"fastest\"\n",
		     "rdmablk.conf:4:10: [[attachment]] #1: 'policy': invalid policy "
		     "\"fastest\": expected queue-depth, round-robin or min-latency");
	expect_error("[[discovery]]\naddress = \"192.0.2.1\"\npaths = [\"192.0.2.2\"]\n",
		     "rdmablk.conf:3:1: [[discovery]] #1: unknown key 'paths'");
	/* One export through an address another attachment has as a path. */
	expect_error(att + "paths = [\"192.0.2.2\"]\n[[attachment]]\naddress = \"192.0.2.2\"\n"
			   "export = \"a\"\n",
		     "rdmablk.conf:5:1: [[attachment]] #2: the same target and export as "
		     "[[attachment]] #1");
}

class ConfigFile : public ::testing::Test {
protected:
	test::TempDir dir_{"config"};
};

TEST_F(ConfigFile, MissingFileIsAnEmptyConfig)
{
	EXPECT_EQ(load_config((dir_ / "none.conf").string()), Config{});
}

TEST_F(ConfigFile, SaveCreatesTheDirectoryAndLoadReadsItBack)
{
	const std::string path = (dir_ / "etc" / "rdmablk.conf").string();
	save_config(path, full_config());
	EXPECT_EQ(load_config(path), full_config());
	struct stat st;
	ASSERT_EQ(::stat(path.c_str(), &st), 0);
	EXPECT_EQ(st.st_mode & 07777, 0644u);
	/* No temporary file is left behind. */
	EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir_ / "etc"),
				std::filesystem::directory_iterator()),
		  1);
}

TEST_F(ConfigFile, ErrorsNameTheFile)
{
	std::filesystem::create_directories(dir_.path());
	const std::string path = (dir_ / "bad.conf").string();
	std::ofstream(path) << "[[listener]]\naddress = 7\n";
	try {
		load_config(path);
		FAIL();
	} catch (const ConfigError &e) {
		EXPECT_EQ(e.what(), path + ":2:11: [[listener]] #1: 'address' must be a string");
	}
}

TEST(ConfigPath, OptionThenEnvironmentThenDefault)
{
	::unsetenv("RDMABLK_CONFIG");
	EXPECT_EQ(config_path(std::nullopt), "/etc/rdmablk/rdmablk.conf");
	::setenv("RDMABLK_CONFIG", "/tmp/env.conf", 1);
	EXPECT_EQ(config_path(std::nullopt), "/tmp/env.conf");
	EXPECT_EQ(config_path("/tmp/opt.conf"), "/tmp/opt.conf");
	::unsetenv("RDMABLK_CONFIG");
}

} // namespace
} // namespace rdmablk::daemon
