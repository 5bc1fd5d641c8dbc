// SPDX-License-Identifier: GPL-2.0
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <regex>

#include "cli.hpp"

namespace rdmablk::rdmablkctl {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

constexpr const char *socket = "/run/test.sock";

Invocation parse_ok(const std::vector<std::string> &args)
{
	auto parsed = parse_args(args, socket);
	if (const auto *outcome = std::get_if<Outcome>(&parsed)) {
		ADD_FAILURE() << "exit " << outcome->exit_code << ": " << outcome->error;
		return {};
	}
	return std::get<Invocation>(parsed);
}

/* The usage error @args get; exit code 2 checked. */
std::string usage_error(const std::vector<std::string> &args)
{
	auto parsed = parse_args(args, socket);
	const auto *outcome = std::get_if<Outcome>(&parsed);
	if (!outcome) {
		ADD_FAILURE() << "parsed: " << ctl::to_json(std::get<Invocation>(parsed).request);
		return {};
	}
	EXPECT_EQ(outcome->exit_code, exit_usage);
	EXPECT_EQ(outcome->out, "");
	EXPECT_EQ(outcome->error.find('\n'), std::string::npos);
	return outcome->error;
}

void expect_request(const std::vector<std::string> &args, const char *cmd, const json &request_args)
{
	const Invocation invocation = parse_ok(args);
	EXPECT_EQ(invocation.request.cmd, cmd);
	EXPECT_EQ(invocation.request.args, request_args) << invocation.request.args.dump();
}

TEST(Cli, Defaults)
{
	const Invocation invocation = parse_ok({"list"});
	EXPECT_EQ(invocation.output, Output::text);
	EXPECT_EQ(invocation.socket, socket);
	EXPECT_EQ(invocation.timeout, 120s);
}

TEST(Cli, CommonOptionsBeforeOrAfterTheCommand)
{
	for (const auto &args : std::vector<std::vector<std::string>>{
		     {"-o", "json", "--socket", "/tmp/s", "--timeout", "5", "list"},
		     {"list", "-o", "json", "--socket", "/tmp/s", "--timeout", "5"},
		     {"export", "list", "--output=json", "--socket=/tmp/s", "--timeout=5"}}) {
		const Invocation invocation = parse_ok(args);
		EXPECT_EQ(invocation.output, Output::json);
		EXPECT_EQ(invocation.socket, "/tmp/s");
		EXPECT_EQ(invocation.timeout, 5s);
	}
}

TEST(Cli, BadCommonOptions)
{
	EXPECT_EQ(usage_error({"list", "-o", "yaml"}),
		  "--output: yaml not in {text,json}; see 'rdmablkctl list --help'");
	EXPECT_EQ(usage_error({"list", "--timeout", "0"}),
		  "invalid --timeout \"0\": expected an integer from 1 to 86400");
	EXPECT_EQ(usage_error({"list", "--timeout", "soon"}),
		  "invalid --timeout \"soon\": expected an integer from 1 to 86400");
}

TEST(Cli, CommandRequired)
{
	EXPECT_EQ(usage_error({}), "a subcommand is required; see 'rdmablkctl --help'");
	EXPECT_EQ(usage_error({"export"}),
		  "a subcommand is required; see 'rdmablkctl export --help'");
	EXPECT_EQ(usage_error({"frobnicate"}),
		  "unknown command \"frobnicate\"; see 'rdmablkctl --help'");
	EXPECT_EQ(usage_error({"export", "frob"}),
		  "unknown command \"frob\"; see 'rdmablkctl export --help'");
	EXPECT_EQ(usage_error({"list", "hostid"}),
		  "the following argument was not expected: hostid; see 'rdmablkctl list --help'");
	EXPECT_EQ(usage_error({"list", "--bogus"}),
		  "the following argument was not expected: --bogus; see 'rdmablkctl list --help'");
}

TEST(Cli, Listen)
{
	expect_request({"listen", "192.0.2.1"}, "listen",
		       {{"address", "192.0.2.1"}, {"port", 7471}});
	expect_request({"listen", "[2001:db8::1]:4791"}, "listen",
		       {{"address", "2001:db8::1"}, {"port", 4791}});
	EXPECT_EQ(usage_error({"listen"}),
		  "ADDR[:PORT] is required; see 'rdmablkctl listen --help'");
	EXPECT_EQ(usage_error({"listen", "192.0.2.1:70000"}),
		  "invalid address \"192.0.2.1:70000\": port must be 1 to 65535");
	EXPECT_EQ(usage_error({"listen", "[192.0.2.1]"}),
		  "invalid address \"[192.0.2.1]\": brackets are for IPv6 addresses only");
}

TEST(Cli, Unlisten)
{
	expect_request({"unlisten", "192.0.2.1:7000"}, "unlisten",
		       {{"address", "192.0.2.1"}, {"port", 7000}});
	EXPECT_EQ(usage_error({"unlisten", "host.example"}),
		  "invalid address \"host.example\": not an IPv4 or IPv6 address");
}

TEST(Cli, ExportAdd)
{
	expect_request({"export", "add", "db0", "/dev/nullb0"}, "export_add",
		       {{"name", "db0"},
			{"path", "/dev/nullb0"},
			{"read_only", false},
			{"allow", json::array()}});
	expect_request(
		{"export", "add", "db0", "/dev/nullb0", "--read-only", "--allow",
		 "6B1A0C2E-0000-4000-8000-000000000001", "--allow",
		 "6b1a0c2e-0000-4000-8000-000000000002", "--allow",
		 "6b1a0c2e-0000-4000-8000-000000000001", "--uuid",
		 "0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0"},
		"export_add",
		{{"name", "db0"},
		 {"path", "/dev/nullb0"},
		 {"read_only", true},
		 {"allow",
		  {"6b1a0c2e-0000-4000-8000-000000000001", "6b1a0c2e-0000-4000-8000-000000000002"}},
		 {"uuid", "0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0"}});
	EXPECT_EQ(usage_error({"export", "add", "db0"}),
		  "PATH is required; see 'rdmablkctl export add --help'");
	EXPECT_EQ(usage_error({"export", "add", "db/0", "/dev/nullb0"}),
		  "invalid export name \"db/0\": only letters, digits and . _ : - are allowed");
	EXPECT_EQ(usage_error({"export", "add", "db0", "/dev/nullb0", "--allow", "me"}),
		  "invalid UUID \"me\": expected xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx (36 "
		  "characters), "
		  "got 2 characters");
	EXPECT_EQ(usage_error({"export", "add", "db0", "/dev/nullb0", "--uuid", "x"}),
		  "invalid UUID \"x\": expected xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx (36 characters), "
		  "got 1 characters");
	std::vector<std::string> many = {"export", "add", "db0", "/dev/nullb0"};
	for (int i = 0; i <= 64; i++) {
		char id[37];
		std::snprintf(id, sizeof(id), "6b1a0c2e-0000-4000-8000-%012d", i);
		many.insert(many.end(), {"--allow", id});
	}
	EXPECT_EQ(usage_error(many), "too many --allow hosts: at most 64");
	EXPECT_EQ(usage_error({"export", "add", "db0", "/dev/nullb0", "--allow"}),
		  "--allow: 1 required HOSTID missing; see 'rdmablkctl export add --help'");
}

TEST(Cli, Authentication)
{
	expect_request({"export", "add", "db0", "/dev/nullb0", "--auth-required"}, "export_add",
		       {{"name", "db0"},
			{"path", "/dev/nullb0"},
			{"read_only", false},
			{"allow", json::array()},
			{"auth_required", true}});
	const std::string id = "6b1a0c2e-0000-4000-8000-000000000001";
	expect_request({"host", "add", "6B1A0C2E-0000-4000-8000-000000000001", "--key-file",
			"/etc/k/a.key", "--target-key-file", "/etc/k/../k/t.key"},
		       "host_add",
		       {{"id", id}, {"key_file", "/etc/k/a.key"}, {"target_key_file", "/etc/k/t.key"}});
	expect_request({"host", "add", id, "--key-file", "/etc/k/a.key", "--reauth"}, "host_add",
		       {{"id", id}, {"key_file", "/etc/k/a.key"}, {"reauth", true}});
	expect_request({"host", "del", id}, "host_del", {{"id", id}});
	expect_request({"host", "list"}, "host_list", json::object());
	expect_request({"attach", "192.0.2.1", "db0", "--key-file", "/etc/k/a.key"}, "attach",
		       {{"address", "192.0.2.1"},
			{"port", 7471},
			{"export", "db0"},
			{"key_file", "/etc/k/a.key"}});
	/* A relative path is taken from the current directory: rdmablkd reads it. */
	const Invocation relative = parse_ok({"attach", "192.0.2.1", "db0", "--key-file", "a.key"});
	EXPECT_EQ(relative.request.args["key_file"],
		  (std::filesystem::current_path() / "a.key").string());

	EXPECT_EQ(usage_error({"host", "add", id}),
		  "missing --key-file: the file holding the key this host authenticates with "
		  "(rdmablkctl key generate)");
	EXPECT_EQ(usage_error({"host", "add", "me", "--key-file", "/k"}),
		  "invalid UUID \"me\": expected xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx (36 "
		  "characters), got 2 characters");
	EXPECT_EQ(usage_error({"attach", "192.0.2.1", "db0", "--target-key-file", "/k"}),
		  "--target-key-file needs --key-file: this host proves itself before the target "
		  "does");
}

TEST(Cli, ExportDelAndList)
{
	expect_request({"export", "del", "db0"}, "export_del", {{"name", "db0"}});
	expect_request({"export", "list"}, "export_list", json::object());
	EXPECT_EQ(usage_error({"export", "del"}),
		  "NAME is required; see 'rdmablkctl export del --help'");
	EXPECT_EQ(usage_error({"export", "del", ""}), "empty export name");
	EXPECT_EQ(usage_error({"export", "list", "db0"}),
		  "the following argument was not expected: db0; see 'rdmablkctl export list "
		  "--help'");
}

TEST(Cli, Discover)
{
	expect_request({"discover", "192.0.2.1"}, "discover",
		       {{"address", "192.0.2.1"}, {"port", 7471}});
	expect_request({"discover", "[2001:db8::1]:7000", "-o", "json"}, "discover",
		       {{"address", "2001:db8::1"}, {"port", 7000}});
	EXPECT_EQ(usage_error({"discover"}),
		  "ADDR[:PORT] is required; see 'rdmablkctl discover --help'");
	EXPECT_NE(usage_error({"discover", "192.0.2.1", "db0"}).find("not expected: db0"),
		  std::string::npos);
	expect_request({"discover", "192.0.2.1", "--key-file", "/etc/k/a.key",
			"--target-key-file", "/etc/k/t.key"},
		       "discover",
		       {{"address", "192.0.2.1"},
			{"port", 7471},
			{"key_file", "/etc/k/a.key"},
			{"target_key_file", "/etc/k/t.key"}});
	EXPECT_NE(usage_error({"discover", "192.0.2.1", "--target-key-file", "/etc/k/t.key"})
			  .find("--target-key-file needs --key-file"),
		  std::string::npos);
}

TEST(Cli, Discovery)
{
	expect_request({"discovery", "add", "192.0.2.1"}, "discovery_add",
		       {{"address", "192.0.2.1"}, {"port", 7471}, {"attach", "all"}});
	expect_request({"discovery", "add", "[2001:db8::1]:7000", "--attach", "all", "--queues",
			"2", "--ctrl-loss-tmo", "-1"},
		       "discovery_add",
		       {{"address", "2001:db8::1"},
			{"port", 7000},
			{"attach", "all"},
			{"queues", 2},
			{"ctrl_loss_tmo", -1}});
	expect_request({"discovery", "add", "192.0.2.1", "--attach", "db0", "--attach",
			"6B1A0C2E-0000-4000-8000-000000000001", "--attach", "db0"},
		       "discovery_add",
		       {{"address", "192.0.2.1"},
			{"port", 7471},
			{"attach", {"db0", "6b1a0c2e-0000-4000-8000-000000000001"}}});
	expect_request({"discovery", "del", "192.0.2.1:7000"}, "discovery_del",
		       {{"address", "192.0.2.1"}, {"port", 7000}});
	expect_request({"discovery", "list", "-o", "json"}, "discovery_list", json::object());
	EXPECT_EQ(usage_error({"discovery", "add", "192.0.2.1", "--attach", "all", "--attach",
			       "db0"}),
		  "--attach all attaches every export; give it alone or name exports");
	EXPECT_NE(usage_error({"discovery", "add", "192.0.2.1", "--attach", "bad name"}).find(
			  "bad name"),
		  std::string::npos);
	EXPECT_EQ(usage_error({"discovery", "add"}),
		  "ADDR[:PORT] is required; see 'rdmablkctl discovery add --help'");
}

TEST(Cli, Attach)
{
	expect_request({"attach", "192.0.2.1", "db0"}, "attach",
		       {{"address", "192.0.2.1"}, {"port", 7471}, {"export", "db0"}});
	expect_request({"attach", "192.0.2.1:7000", "db0", "--queues", "4", "--poll-queues", "1",
			"--queue-depth", "256", "--reconnect-delay", "2", "--ctrl-loss-tmo", "-1", "--fast-io-fail-tmo",
			"30", "--keepalive-tmo", "3"},
		       "attach",
		       {{"address", "192.0.2.1"},
			{"port", 7000},
			{"export", "db0"},
			{"queues", 4},
			{"poll_queues", 1},
			{"queue_depth", 256},
			{"reconnect_delay", 2},
			{"ctrl_loss_tmo", -1},
			{"fast_io_fail_tmo", 30},
			{"keepalive_tmo", 3}});
	expect_request({"attach", "192.0.2.1", "db0", "--fast-io-fail-tmo=-1", "--ctrl-loss-tmo=0"},
		       "attach",
		       {{"address", "192.0.2.1"},
			{"port", 7471},
			{"export", "db0"},
			{"ctrl_loss_tmo", 0},
			{"fast_io_fail_tmo", -1}});
}

TEST(Cli, AttachBadArguments)
{
	EXPECT_EQ(usage_error({"attach", "192.0.2.1"}),
		  "NAME is required; see 'rdmablkctl attach --help'");
	EXPECT_EQ(usage_error({"attach", "db0", "192.0.2.1"}),
		  "invalid address \"db0\": not an IPv4 or IPv6 address");
	EXPECT_EQ(usage_error({"attach", "192.0.2.1", "db0", "--queues", "0"}),
		  "invalid --queues \"0\": expected an integer from 1 to 64");
	EXPECT_EQ(usage_error({"attach", "192.0.2.1", "db0", "--queues", "65"}),
		  "invalid --queues \"65\": expected an integer from 1 to 64");
	EXPECT_EQ(usage_error({"attach", "192.0.2.1", "db0", "--poll-queues", "64"}),
		  "invalid --poll-queues \"64\": expected an integer from 0 to 63");
	EXPECT_EQ(usage_error({"attach", "192.0.2.1", "db0", "--queue-depth", "many"}),
		  "invalid --queue-depth \"many\": expected an integer from 1 to 1024");
	EXPECT_EQ(usage_error({"attach", "192.0.2.1", "db0", "--reconnect-delay=-1"}),
		  "invalid --reconnect-delay \"-1\": expected an integer from 1 to 604800");
	EXPECT_EQ(
		usage_error({"attach", "192.0.2.1", "db0", "--ctrl-loss-tmo=-2"}),
		"invalid --ctrl-loss-tmo \"-2\": expected -1 (off) or an integer from 0 to 604800");
	EXPECT_EQ(usage_error({"attach", "192.0.2.1", "db0", "--fast-io-fail-tmo", "604801"}),
		  "invalid --fast-io-fail-tmo \"604801\": expected -1 (off) or an integer from 0 "
		  "to 604800");
	EXPECT_EQ(usage_error({"attach", "192.0.2.1", "db0", "--keepalive-tmo", "0"}),
		  "invalid --keepalive-tmo \"0\": expected an integer from 1 to 3600");
}

TEST(Cli, Detach)
{
	expect_request({"detach", "/dev/rdmablk0"}, "detach", {{"device", "/dev/rdmablk0"}});
	expect_request({"detach", "rdmablk3"}, "detach", {{"device", "/dev/rdmablk3"}});
	expect_request({"detach", "7"}, "detach", {{"device", "/dev/rdmablk7"}});
	expect_request({"detach", "192.0.2.1", "db0"}, "detach",
		       {{"address", "192.0.2.1"}, {"port", 7471}, {"export", "db0"}});
	expect_request({"detach", "[2001:db8::1]:7000", "db0"}, "detach",
		       {{"address", "2001:db8::1"}, {"port", 7000}, {"export", "db0"}});
	EXPECT_EQ(usage_error({"detach"}),
		  "DEVICE|ADDR[:PORT] is required; see 'rdmablkctl detach --help'");
	EXPECT_EQ(usage_error({"detach", "sda"}),
		  "invalid device \"sda\": expected /dev/rdmablkN, rdmablkN, N, or a link to "
		  "/dev/rdmablkN such as /dev/rdmablk/NAME");
	/* A path, though the export name in it looks like an address. */
	EXPECT_EQ(usage_error({"detach", "/nonexistent/rdmablk/db.0"}),
		  "invalid device \"/nonexistent/rdmablk/db.0\": no such file; expected "
		  "/dev/rdmablkN or a link to it such as /dev/rdmablk/NAME");
	EXPECT_EQ(usage_error({"detach", "192.0.2.1"}),
		  "missing export NAME after the address \"192.0.2.1\"; or give the DEVICE alone");
	EXPECT_EQ(usage_error({"detach", "rdmablk0", "db0"}),
		  "invalid address \"rdmablk0\": not an IPv4 or IPv6 address");
	EXPECT_EQ(usage_error({"detach", "192.0.2.1", "db0", "x"}),
		  "the following argument was not expected: x; see 'rdmablkctl detach --help'");
}

TEST(Cli, ListStatusHostid)
{
	expect_request({"list"}, "list", json::object());
	expect_request({"status"}, "status", json::object());
	expect_request({"status", "rdmablk2"}, "status", {{"device", "/dev/rdmablk2"}});
	expect_request({"hostid"}, "hostid", json::object());
	EXPECT_EQ(usage_error({"status", "nvme0n1"}),
		  "invalid device \"nvme0n1\": expected /dev/rdmablkN, rdmablkN, N, or a link to "
		  "/dev/rdmablkN such as /dev/rdmablk/NAME");
	EXPECT_EQ(usage_error({"status", "/dev/null"}),
		  "invalid device \"/dev/null\": not an rdmablk disk; expected /dev/rdmablkN or a "
		  "link to it such as /dev/rdmablk/NAME");
	EXPECT_EQ(usage_error({"hostid", "x"}),
		  "the following argument was not expected: x; see 'rdmablkctl hostid --help'");
}

TEST(Cli, ReconnectAndDevSet)
{
	expect_request({"reconnect", "rdmablk3"}, "reconnect", {{"device", "/dev/rdmablk3"}});
	expect_request({"reconnect", "192.0.2.1", "db0"}, "reconnect",
		       {{"address", "192.0.2.1"}, {"port", 7471}, {"export", "db0"}});
	expect_request({"dev-set", "0", "--fast-io-fail-tmo", "30", "--ctrl-loss-tmo", "-1"},
		       "dev_set",
		       {{"device", "/dev/rdmablk0"}, {"fast_io_fail_tmo", 30}, {"ctrl_loss_tmo", -1}});
	expect_request({"dev-set", "192.0.2.1", "db0", "--keepalive-tmo", "3",
			"--reconnect-delay", "2"},
		       "dev_set",
		       {{"address", "192.0.2.1"},
			{"port", 7471},
			{"export", "db0"},
			{"keepalive_tmo", 3},
			{"reconnect_delay", 2}});
	EXPECT_EQ(usage_error({"dev-set", "rdmablk0"}),
		  "nothing to change: give --reconnect-delay, --ctrl-loss-tmo, --fast-io-fail-tmo, "
		  "--keepalive-tmo or --policy");
	EXPECT_EQ(usage_error({"dev-set", "rdmablk0", "--queues", "2"}),
		  "the following argument was not expected: --queues; see 'rdmablkctl dev-set "
		  "--help'");
	EXPECT_EQ(usage_error({"reconnect"}),
		  "DEVICE|ADDR[:PORT] is required; see 'rdmablkctl reconnect --help'");
}

TEST(Cli, AttachWithPaths)
{
	expect_request({"attach", "192.0.2.1", "db0", "--path", "198.51.100.7:4420", "--path",
			"[2001:db8::2]", "--standby", "2001:db8::2", "--policy", "round-robin"},
		       "attach",
		       {{"address", "192.0.2.1"},
			{"port", 7471},
			{"export", "db0"},
			{"policy", "round-robin"},
			{"paths", {"198.51.100.7:4420", "[2001:db8::2]:7471"}},
			{"standby", {"[2001:db8::2]:7471"}}});
	/* A standby address is a path; the target may be standby too, but is no path. */
	expect_request({"attach", "192.0.2.1", "db0", "--standby", "198.51.100.7", "--standby",
			"192.0.2.1"},
		       "attach",
		       {{"address", "192.0.2.1"},
			{"port", 7471},
			{"export", "db0"},
			{"paths", {"198.51.100.7:7471"}},
			{"standby", {"198.51.100.7:7471", "192.0.2.1:7471"}}});
	EXPECT_EQ(usage_error({"attach", "192.0.2.1", "db0", "--path", "host.example"}),
		  "--path: invalid address \"host.example\": not an IPv4 or IPv6 address");
	EXPECT_EQ(usage_error({"attach", "192.0.2.1", "db0", "--policy", "fastest"}),
		  "invalid --policy: invalid policy \"fastest\": expected queue-depth, "
		  "round-robin or min-latency");
}

TEST(Cli, Path)
{
	expect_request({"path", "add", "rdmablk0", "198.51.100.7:4420"}, "path_add",
		       {{"device", "/dev/rdmablk0"}, {"address", "198.51.100.7"}, {"port", 4420}});
	expect_request({"path", "add", "0", "198.51.100.7", "--standby"}, "path_add",
		       {{"device", "/dev/rdmablk0"},
			{"address", "198.51.100.7"},
			{"port", 7471},
			{"standby", true}});
	expect_request({"path", "del", "/dev/rdmablk1", "198.51.100.7"}, "path_del",
		       {{"device", "/dev/rdmablk1"}, {"address", "198.51.100.7"}, {"port", 7471}});
	expect_request({"path", "set", "1", "198.51.100.7", "--active"}, "path_set",
		       {{"device", "/dev/rdmablk1"},
			{"address", "198.51.100.7"},
			{"port", 7471},
			{"standby", false}});
	expect_request({"path", "set", "1", "198.51.100.7", "--standby"}, "path_set",
		       {{"device", "/dev/rdmablk1"},
			{"address", "198.51.100.7"},
			{"port", 7471},
			{"standby", true}});
	EXPECT_EQ(usage_error({"path", "set", "1", "198.51.100.7"}),
		  "give --standby or --active: what the path is to be");
	EXPECT_EQ(usage_error({"path", "set", "1", "198.51.100.7", "--standby", "--active"}),
		  "give --standby or --active: what the path is to be");
	EXPECT_NE(usage_error({"path", "add", "rdmablk0"}).find("ADDR[:PORT] is required"),
		  std::string::npos);
	EXPECT_NE(usage_error({"path", "del", "rdmablk0", "198.51.100.7", "--standby"})
			  .find("--standby"),
		  std::string::npos);
	EXPECT_NE(usage_error({"path"}).find("subcommand"), std::string::npos);
}

TEST(Cli, SetPolicy)
{
	expect_request({"dev-set", "rdmablk0", "--policy", "min-latency"}, "dev_set",
		       {{"device", "/dev/rdmablk0"}, {"policy", "min-latency"}});
	expect_request({"set", "rdmablk0", "--policy", "queue-depth"}, "dev_set",
		       {{"device", "/dev/rdmablk0"}, {"policy", "queue-depth"}});
}

TEST(Cli, Version)
{
	auto parsed = parse_args({"--version"}, socket);
	const auto *outcome = std::get_if<Outcome>(&parsed);
	ASSERT_TRUE(outcome);
	EXPECT_EQ(outcome->exit_code, exit_ok);
	EXPECT_TRUE(std::regex_match(outcome->out, std::regex("rdmablkctl [0-9]+\\.[0-9]+\\.[0-9]+\n")))
		<< outcome->out;
}

TEST(Cli, UsageErrorsCarryTheirCodeForJson)
{
	auto parsed = parse_args({"-o", "json", "bogus"}, socket);
	const auto *outcome = std::get_if<Outcome>(&parsed);
	ASSERT_TRUE(outcome);
	EXPECT_EQ(outcome->exit_code, exit_usage);
	ASSERT_TRUE(outcome->info);
	EXPECT_EQ(outcome->info->code, "usage");
	EXPECT_EQ(outcome->info->message, outcome->error);
	for (const auto &args : std::vector<std::vector<std::string>>{
		     {"-o", "json", "bogus"}, {"bogus", "--output", "json"}, {"--output=json"}, {"-ojson"}})
		EXPECT_TRUE(asks_for_json(args)) << args.front();
	for (const auto &args : std::vector<std::vector<std::string>>{
		     {"-o", "text", "list"}, {"list", "-o"}, {"json"}})
		EXPECT_FALSE(asks_for_json(args)) << args.front();
}

TEST(Cli, Reload)
{
	expect_request({"reload"}, "reload", json::object());
	EXPECT_EQ(usage_error({"reload", "/etc/rdmablk/other.conf"}),
		  "the following argument was not expected: /etc/rdmablk/other.conf; see "
		  "'rdmablkctl reload --help'");
}

TEST(Cli, KeyGenerate)
{
	const Invocation invocation = parse_ok({"key", "generate"});
	EXPECT_EQ(invocation.mode, Mode::local);
	EXPECT_EQ(invocation.request.cmd, "key_generate");
	EXPECT_EQ(invocation.request.args, json({{"hmac", "sha256"}}));
	for (const char *hmac : {"sha256", "sha384", "sha512"})
		expect_request({"key", "generate", "--hmac", hmac}, "key_generate", {{"hmac", hmac}});
	expect_request({"key", "generate", "--hmac=sha384", "-o", "json"}, "key_generate",
		       {{"hmac", "sha384"}});
	EXPECT_EQ(usage_error({"key", "generate", "--hmac", "md5"}),
		  "invalid --hmac \"md5\": expected sha256, sha384 or sha512");
	EXPECT_EQ(usage_error({"key", "generate", "--hmac", "SHA-256"}),
		  "invalid --hmac \"SHA-256\": expected sha256, sha384 or sha512");
	EXPECT_EQ(usage_error({"key", "generate", "--hmac"}),
		  "--hmac: 1 required HASH missing; see 'rdmablkctl key generate --help'");
	EXPECT_EQ(usage_error({"key"}), "a subcommand is required; see 'rdmablkctl key --help'");
	EXPECT_EQ(usage_error({"key", "show"}),
		  "unknown command \"show\"; see 'rdmablkctl key --help'");
	/* Nothing is sent to rdmablkd: no socket to name, no answer to wait for. */
	EXPECT_EQ(usage_error({"key", "generate", "--socket=/tmp/s"}),
		  "the following argument was not expected: --socket=/tmp/s; see 'rdmablkctl "
		  "key generate --help'");
	EXPECT_EQ(usage_error({"key", "generate", "x"}),
		  "the following argument was not expected: x; see 'rdmablkctl key generate "
		  "--help'");
}

TEST(Cli, KeyGenerateHelp)
{
	auto parsed = parse_args({"key", "generate", "--help"}, socket);
	const auto *outcome = std::get_if<Outcome>(&parsed);
	ASSERT_TRUE(outcome);
	EXPECT_EQ(outcome->exit_code, exit_ok);
	EXPECT_NE(outcome->out.find("Usage: rdmablkctl key generate [OPTIONS]"), std::string::npos)
		<< outcome->out;
	EXPECT_NE(outcome->out.find("--hmac HASH"), std::string::npos);
	EXPECT_NE(outcome->out.find("--output"), std::string::npos);
	EXPECT_EQ(outcome->out.find("--socket"), std::string::npos);
	EXPECT_NE(outcome->out.find("rdmablkd need not run"), std::string::npos);
}

TEST(Cli, HelpForEveryCommand)
{
	for (const auto &args : std::vector<std::vector<std::string>>{{"--help"},
								      {"-h"},
								      {"listen", "--help"},
								      {"unlisten", "-h"},
								      {"export", "--help"},
								      {"export", "add", "--help"},
								      {"export", "del", "--help"},
								      {"export", "list", "--help"},
								      {"attach", "--help"},
								      {"detach", "--help"},
								      {"list", "--help"},
								      {"status", "--help"},
								      {"hostid", "--help"},
								      {"reload", "--help"},
								      {"reconnect", "--help"},
								      {"dev-set", "--help"}}) {
		auto parsed = parse_args(args, socket);
		const auto *outcome = std::get_if<Outcome>(&parsed);
		ASSERT_TRUE(outcome) << args.front();
		EXPECT_EQ(outcome->exit_code, exit_ok);
		EXPECT_EQ(outcome->error, "");
		EXPECT_NE(outcome->out.find("Usage: rdmablkctl"), std::string::npos)
			<< outcome->out;
		EXPECT_NE(outcome->out.find("--output"), std::string::npos) << outcome->out;
		EXPECT_NE(outcome->out.find("3 cannot reach rdmablkd; 4 not found; 5 exists"),
			  std::string::npos);
	}
}

TEST(Cli, HelpIsTheCommandsOwn)
{
	auto parsed = parse_args({"attach", "--help"}, socket);
	const std::string &help = std::get<Outcome>(parsed).out;
	EXPECT_NE(help.find("Usage: rdmablkctl attach [OPTIONS] ADDR[:PORT] NAME"),
		  std::string::npos)
		<< help;
	EXPECT_NE(help.find("--ctrl-loss-tmo SEC"), std::string::npos);
}

} // namespace
} // namespace rdmablk::rdmablkctl
