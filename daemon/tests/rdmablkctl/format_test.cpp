// SPDX-License-Identifier: GPL-2.0
#include <gtest/gtest.h>

#include "format.hpp"
#include "samples.hpp"

namespace rdmablk::rdmablkctl {
namespace {

using nlohmann::json;

TEST(Format, ListTable)
{
	const json result = {{"devices",
			      {samples::live_device(), samples::reconnecting_device(),
			       samples::pending_device()}}};
	EXPECT_EQ(format_text("list", result),
		  "DEVICE         TARGET              EXPORT   SIZE    STATE         QUEUES\n"
		  "/dev/rdmablk0  192.0.2.1:7471      db0      256.0M  live          2\n"
		  "/dev/rdmablk1  [2001:db8::7]:7471  logs     1.0G    reconnecting  2\n"
		  "-              192.0.2.9:7471      scratch  -       pending       4\n");
}

TEST(Format, EmptyListIsTheHeader)
{
	EXPECT_EQ(format_text("list", {{"devices", json::array()}}),
		  "DEVICE  TARGET  EXPORT  SIZE  STATE  QUEUES\n");
	EXPECT_EQ(format_text("list", json::object()),
		  "DEVICE  TARGET  EXPORT  SIZE  STATE  QUEUES\n");
}

TEST(Format, StatusOfLiveDevice)
{
	const json result = {{"devices", {samples::with_status(samples::live_device(), 900)}}};
	EXPECT_EQ(
		format_text("status", result),
		"/dev/rdmablk0  192.0.2.1:7471  db0  256.0M  live\n"
		"  uuid 6b1a0c2e-0000-4000-8000-000000000001  queues 2 x 128  timeouts: reconnect "
		"10 s, ctrl-loss 600 s, fast-io-fail off, keep-alive 5 s  reconnects 1\n"
		"  io: 1234 reads (4.8M), 567 writes (2.2M)\n"
		"  queue 0: live, 900 commands, 900 completed, 0 errors, 0 requeued, 1.8M read, "
		"1.8M written, mean latency 100 us\n"
		"  queue 1: live, 901 commands, 901 completed, 0 errors, 0 requeued, 1.8M read, "
		"1.8M written, mean latency 100 us\n");
}

TEST(Format, StatusShowsThePolicyAndEachPath)
{
	json device = samples::with_status(samples::live_device(), 900);
	device["policy"] = "round-robin";
	device["paths"] = {
		{{"id", 0},
		 {"address", "192.0.2.1"},
		 {"port", 7471},
		 {"state", "live"},
		 {"standby", false},
		 {"inflight", 3},
		 {"latency_us", 85},
		 {"commands", 1200},
		 {"completed", 1197},
		 {"errors", 0},
		 {"requeued", 0},
		 {"failovers", 0},
		 {"last_failover_ms", nullptr},
		 {"reconnect_attempt", 0},
		 {"next_attempt_ms", 0},
		 {"reconnects", 0},
		 {"last_error", nullptr}},
		{{"id", 1},
		 {"address", "198.51.100.7"},
		 {"port", 4420},
		 {"state", "reconnecting"},
		 {"standby", true},
		 {"inflight", 0},
		 {"latency_us", 0},
		 {"commands", 10},
		 {"completed", 10},
		 {"errors", 2},
		 {"requeued", 2},
		 {"failovers", 1},
		 {"last_failover_ms", 12000},
		 {"reconnect_attempt", 2},
		 {"next_attempt_ms", 4500},
		 {"reconnects", 1},
		 {"last_error", "connection refused"}},
		{{"id", nullptr},
		 {"address", "203.0.113.9"},
		 {"port", 7471},
		 {"state", "pending"},
		 {"standby", false},
		 {"retry_in_ms", 8000},
		 {"last_error", "no route to host"}}};
	const std::string text = format_text("status", {{"devices", {device}}});
	EXPECT_NE(text.find("  io: 1234 reads (4.8M), 567 writes (2.2M)\n"
			    "  policy round-robin, 3 paths, 1 live\n"
			    "  path 0: 192.0.2.1:7471, live, active, 3 in flight, 1200 commands, "
			    "0 errors, 0 failovers, 0 reconnects, latency 85 us\n"
			    "  path 1: 198.51.100.7:4420, reconnecting: attempt 2, next in 5 s, "
			    "standby, 0 in flight, 10 commands, 2 errors, 1 failovers, last failover "
			    "12 s ago, 1 reconnects, last error: connection refused\n"
			    "  path -: 203.0.113.9:7471, pending: retrying in 8 s, active, last "
			    "error: no route to host\n"
			    "  queue 0: live"),
		  std::string::npos)
		<< text;
	/* The lines before are those of a device without paths. */
	EXPECT_EQ(text.rfind("/dev/rdmablk0  192.0.2.1:7471  db0  256.0M  live\n", 0), 0u);
}

TEST(Format, PathCommandsShowTheDevice)
{
	json device = samples::live_device();
	device["policy"] = "queue-depth";
	device["paths"] = json::array(
		{{{"id", 0}, {"address", "192.0.2.1"}, {"port", 7471}, {"state", "live"}}});
	for (const char *cmd : {"path_add", "path_del", "path_set"})
		EXPECT_NE(format_text(cmd, device).find("  path 0: 192.0.2.1:7471, live, active\n"),
			  std::string::npos)
			<< cmd;
}

TEST(Format, StatusNamesThePollQueues)
{
	json device = samples::with_status(samples::live_device(), 900);
	device["queues"] = 1;
	device["poll_queues"] = 1;
	const std::string text = format_text("status", {{"devices", {device}}});
	EXPECT_NE(text.find("  queues 1 + 1 polled x 128  "), std::string::npos) << text;
	EXPECT_NE(text.find("\n  queue 0: live, 900 commands"), std::string::npos) << text;
	EXPECT_NE(text.find("\n  queue 1 (polled): live, 901 commands"), std::string::npos) << text;
}

TEST(Format, StatusOfReconnectingAndPendingDevices)
{
	json reconnecting = samples::with_status(samples::reconnecting_device(), 10);
	reconnecting["queues_detail"][1]["state"] = "down";
	reconnecting["queues_detail"][1]["errors"] = 3;
	reconnecting["queues_detail"][1]["requeued"] = 2;
	reconnecting["queues_detail"][1]["latency_us"] = 2200;
	const json result = {{"devices", {reconnecting, samples::pending_device()}}};
	EXPECT_EQ(
		format_text("status", result),
		"/dev/rdmablk1  [2001:db8::7]:7471  logs  1.0G  reconnecting: attempt 3 of 60, "
		"next in 10 s, last error: keep-alive timeout\n"
		"  uuid 6b1a0c2e-0000-4000-8000-000000000001  queues 2 x 128  timeouts: reconnect "
		"10 s, ctrl-loss 600 s, fast-io-fail off, keep-alive 5 s  reconnects 1  read-only\n"
		"  io: 1234 reads (4.8M), 567 writes (2.2M)\n"
		"  queue 0: live, 10 commands, 10 completed, 0 errors, 0 requeued, 20.0K read, "
		"20.0K written, mean latency 100 us\n"
		"  queue 1: down, 11 commands, 11 completed, 3 errors, 2 requeued, 20.0K read, "
		"24.0K written, mean latency 200 us\n"
		"\n"
		"-  192.0.2.9:7471  scratch  -  pending: retrying in 5 s, last error: connection "
		"refused\n"
		"  queues 4  timeouts: ctrl-loss off\n");
}

TEST(Format, StateTexts)
{
	json device = samples::reconnecting_device();
	device["reconnect_max"] = 0;
	EXPECT_EQ(state_text(device), "reconnecting: attempt 3 of unlimited, next in 10 s, last "
				      "error: keep-alive timeout");
	device.erase("last_error");
	EXPECT_EQ(state_text(device), "reconnecting: attempt 3 of unlimited, next in 10 s");
	EXPECT_EQ(state_text({{"state", "dead"}, {"last_error", "ctrl_loss_tmo expired"}}),
		  "dead, last error: ctrl_loss_tmo expired");
	EXPECT_EQ(state_text({{"state", "pending"}, {"retry_in_ms", 0}}),
		  "pending: retrying in 0 s");
	EXPECT_EQ(state_text({{"state", "deleting"}}), "deleting");
	EXPECT_EQ(state_text(json::object()), "-");
}

TEST(Format, StatusWithNoDevicesIsEmpty)
{
	EXPECT_EQ(format_text("status", {{"devices", json::array()}}), "");
}

TEST(Format, ExportList)
{
	json ro = samples::db0_export();
	ro.update(
		{{"name", "logs"},
		 {"path", "/srv/logs.img"},
		 {"read_only", true},
		 {"allow",
		  {"6b1a0c2e-0000-4000-8000-000000000002", "6b1a0c2e-0000-4000-8000-000000000003"}},
		 {"size", 1536},
		 {"connections", 0}});
	EXPECT_EQ(format_text("export_list", {{"exports", {samples::db0_export(), ro}}}),
		  "NAME  PATH           SIZE    MODE  ALLOW" + std::string(70, ' ') +
			  "CONNECTIONS  AUTH\n"
			  "db0   /dev/vg0/db0   256.0M  rw    any" +
			  std::string(72, ' ') + "2" + std::string(12, ' ') +
			  "-\n"
			  "logs  /srv/logs.img  1.5K    ro    "
			  "6b1a0c2e-0000-4000-8000-000000000002,6b1a0c2e-"
			  "0000-4000-8000-000000000003  0" +
			  std::string(12, ' ') + "-\n");
}

TEST(Format, PendingExportHasNoSize)
{
	json pending = samples::db0_export();
	pending.update({{"state", "pending"},
			{"size", 0},
			{"connections", 0},
			{"retry_in_ms", 3000},
			{"last_error", "no such device"}});
	EXPECT_EQ(format_text("export_list", {{"exports", {pending}}}),
		  "NAME  PATH          SIZE  MODE  ALLOW  CONNECTIONS  AUTH\n"
		  "db0   /dev/vg0/db0  -     rw    any    0            -\n");
}

TEST(Format, StatusWithoutIoCounters)
{
	json device = samples::with_status(samples::live_device(), 0);
	device["io"] = nullptr;
	device["last_error"] = nullptr;
	const std::string text = format_text("status", {{"devices", {device}}});
	EXPECT_EQ(text.find("io:"), std::string::npos) << text;
	EXPECT_NE(text.find("  queue 1: live, 1 commands, 1 completed, 0 errors, 0 requeued, 0B "
			    "read, 4.0K written, mean latency 100 us\n"),
		  std::string::npos)
		<< text;
}

TEST(Format, StatusOfAnOlderDaemonLeavesOutTheCountersItLacks)
{
	json device = samples::live_device();
	device["queues_detail"] = {{{"id", 0}, {"state", "live"}, {"commands", 7}, {"errors", 1}},
				   {{"id", 1}, {"state", "live"}, {"completed", 0}}};
	const std::string text = format_text("status", {{"devices", {device}}});
	EXPECT_NE(text.find("keep-alive 5 s\n"), std::string::npos) << text;
	EXPECT_NE(text.find("  queue 0: live, 7 commands, 1 errors\n"), std::string::npos) << text;
	/* Nothing completed: no mean latency. */
	EXPECT_NE(text.find("  queue 1: live, 0 commands, 0 completed, 0 errors\n"),
		  std::string::npos)
		<< text;
}

TEST(Format, ExportAddShowsTheExport)
{
	EXPECT_EQ(format_text("export_add", samples::db0_export()),
		  "NAME  PATH          SIZE    MODE  ALLOW  CONNECTIONS  AUTH\n"
		  "db0   /dev/vg0/db0  256.0M  rw    any    2            -\n");
	json secure = samples::db0_export();
	secure["auth_required"] = true;
	EXPECT_EQ(format_text("export_add", secure),
		  "NAME  PATH          SIZE    MODE  ALLOW  CONNECTIONS  AUTH\n"
		  "db0   /dev/vg0/db0  256.0M  rw    any    2            required\n");
}

TEST(Format, HostListShowsNoKey)
{
	const json active = {{"id", "6b1a0c2e-0000-4000-8000-000000000001"},
			     {"hmac", "sha256"},
			     {"mutual", true},
			     {"key_file", "/etc/k/a.key"},
			     {"target_key_file", "/etc/k/t.key"},
			     {"auth_ok", 3},
			     {"auth_failed", 1},
			     {"state", "active"},
			     {"configured", true}};
	const json pending = {{"id", "6b1a0c2e-0000-4000-8000-000000000002"},
			      {"hmac", nullptr},
			      {"mutual", false},
			      {"key_file", "/etc/k/b.key"},
			      {"target_key_file", nullptr},
			      {"auth_ok", 0},
			      {"auth_failed", 0},
			      {"state", "pending"},
			      {"configured", true},
			      {"retry_in_ms", 1000},
			      {"last_error", "/etc/k/b.key: no such file"}};
	EXPECT_EQ(format_text("host_list", {{"hosts", {active, pending}}}),
		  "HOSTID                                HMAC    MUTUAL  AUTH OK  REFUSED  STATE    "
		  "KEY FILE\n"
		  "6b1a0c2e-0000-4000-8000-000000000001  sha256  yes     3        1        active   "
		  "/etc/k/a.key\n"
		  "6b1a0c2e-0000-4000-8000-000000000002  -       no      0        0        pending  "
		  "/etc/k/b.key\n"
		  "6b1a0c2e-0000-4000-8000-000000000002: /etc/k/b.key: no such file\n");
	EXPECT_EQ(format_text("host_del", json::object()), "");
}

TEST(Format, StatusSaysHowTheDeviceAuthenticated)
{
	for (const auto &[mode, says] : {std::pair{"host", "authenticated (this host)"},
					 {"mutual", "authenticated (both ways)"}}) {
		json device = samples::with_status(samples::live_device(), 0);
		device["auth"] = mode;
		const std::string text = format_text("status", {{"devices", {device}}});
		EXPECT_NE(text.find(says), std::string::npos) << text;
	}
	json device = samples::with_status(samples::live_device(), 0);
	device["auth"] = "none";
	EXPECT_EQ(format_text("status", {{"devices", {device}}}).find("authenticated"),
		  std::string::npos);
}

TEST(Format, OneLiners)
{
	EXPECT_EQ(format_text("attach", samples::live_device()), "/dev/rdmablk0\n");
	EXPECT_EQ(format_text("listen",
			      {{"address", "192.0.2.1"}, {"port", 7471}, {"state", "listening"}}),
		  "192.0.2.1:7471 listening\n");
	EXPECT_EQ(format_text("hostid", {{"hostid", "6b1a0c2e-0000-4000-8000-000000000001"}}),
		  "6b1a0c2e-0000-4000-8000-000000000001\n");
	EXPECT_EQ(format_text("reload", {{"config", "/etc/rdmablk/rdmablk.conf"}}),
		  "reloaded /etc/rdmablk/rdmablk.conf\n");
	for (const char *cmd : {"unlisten", "export_del", "detach"})
		EXPECT_EQ(format_text(cmd, json::object()), "") << cmd;
}

TEST(Format, JsonIsTheResultPretty)
{
	const json result = {{"devices", {samples::pending_device()}}};
	const std::string text = format_json(result);
	EXPECT_EQ(json::parse(text), result);
	EXPECT_EQ(text.back(), '\n');
	EXPECT_NE(text.find("\n  \"devices\": [\n"), std::string::npos) << text;
	EXPECT_EQ(format_json(json::object()), "{}\n");
}

TEST(Format, JsonKeepsDocumentedFieldNames)
{
	const json status = samples::with_status(samples::live_device(), 1);
	const json back = json::parse(format_json({{"devices", {status}}}))["devices"][0];
	for (const char *key : {"device",
				"index",
				"address",
				"port",
				"export",
				"uuid",
				"size",
				"logical_block_size",
				"physical_block_size",
				"read_only",
				"queues",
				"queue_depth",
				"state",
				"reconnect_delay",
				"ctrl_loss_tmo",
				"fast_io_fail_tmo",
				"keepalive_tmo",
				"reconnect_attempt",
				"reconnect_max",
				"next_attempt_ms",
				"last_error",
				"io",
				"queues_detail",
				"reconnects"})
		EXPECT_TRUE(back.contains(key)) << key;
}

json discovered()
{
	return {{"target", "192.0.2.1:7471"},
		{"address", "192.0.2.1"},
		{"port", 7471},
		{"generation", 3},
		{"exports",
		 {{{"name", "db0"},
		   {"uuid", "6b1a0c2e-0000-4000-8000-000000000001"},
		   {"size", 268435456},
		   {"logical_block_size", 512},
		   {"physical_block_size", 4096},
		   {"read_only", false},
		   {"flags", json::array()}},
		  {{"name", "logs"},
		   {"uuid", "6b1a0c2e-0000-4000-8000-000000000002"},
		   {"size", 1536},
		   {"logical_block_size", 4096},
		   {"physical_block_size", 4096},
		   {"read_only", true},
		   {"flags", {"read_only", "flush", "discard"}}}}}};
}

TEST(Format, DiscoveredExports)
{
	EXPECT_EQ(format_text("discover", discovered()),
		  "target 192.0.2.1:7471, generation 3, 2 exports\n"
		  "NAME  UUID                                  SIZE    BLOCK      FLAGS\n"
		  "db0   6b1a0c2e-0000-4000-8000-000000000001  256.0M  512/4096   -\n"
		  "logs  6b1a0c2e-0000-4000-8000-000000000002  1.5K    4096/4096  ro,flush,discard\n");
}

TEST(Format, DiscoveredNothing)
{
	json result = discovered();
	result["exports"] = json::array();
	EXPECT_EQ(format_text("discover", result), "target 192.0.2.1:7471, generation 3, 0 exports\n");
}

TEST(Format, DiscoveredSaysHowTheSessionAuthenticated)
{
	json result = discovered();
	result["exports"] = json::array();
	result["auth"] = "none";
	EXPECT_EQ(format_text("discover", result), "target 192.0.2.1:7471, generation 3, 0 exports\n");
	result["auth"] = "host";
	EXPECT_EQ(format_text("discover", result),
		  "target 192.0.2.1:7471, generation 3, authenticated, 0 exports\n");
	result["auth"] = "mutual";
	EXPECT_EQ(format_text("discover", result),
		  "target 192.0.2.1:7471, generation 3, authenticated both ways, 0 exports\n");
}

TEST(Format, DiscoveredJsonKeepsTheFieldNames)
{
	EXPECT_EQ(json::parse(format_json(discovered())), discovered());
}

json discoveries()
{
	return {{"discoveries",
		 {{{"address", "192.0.2.1"},
		   {"port", 7471},
		   {"attach", "all"},
		   {"state", "connected"},
		   {"generation", 4},
		   {"last_error", nullptr},
		   {"next_retry_s", nullptr},
		   {"matched",
		    {{{"name", "e1"}, {"uuid", "6b1a0c2e-0000-4000-8000-000000000001"},
		      {"attached_here", true}},
		     {{"name", "e2"}, {"uuid", "6b1a0c2e-0000-4000-8000-000000000002"},
		      {"attached_here", false}}}},
		   {"gone", {{{"name", "e3"}, {"uuid", "6b1a0c2e-0000-4000-8000-000000000003"}}}}},
		  {{"address", "2001:db8::1"},
		   {"port", 7000},
		   {"attach", {"db0"}},
		   {"state", "retrying"},
		   {"generation", nullptr},
		   {"last_error", "cannot reach 2001:db8::1: timed out"},
		   {"next_retry_s", 8},
		   {"matched", json::array()},
		   {"gone", json::array()}}}}};
}

TEST(Format, DiscoveryList)
{
	EXPECT_EQ(format_text("discovery_list", discoveries()),
		  "ADDRESS             STATE      GENERATION  ATTACH  EXPORTS           GONE  RETRY IN\n"
		  "192.0.2.1:7471      connected  4           all     e1,e2(elsewhere)  e3    -\n"
		  "[2001:db8::1]:7000  retrying   -           db0     -                 -     8 s\n"
		  "[2001:db8::1]:7000: cannot reach 2001:db8::1: timed out\n");
	EXPECT_EQ(format_text("discovery_add", json::object()), "");
	EXPECT_EQ(format_text("discovery_del", json::object()), "");
	EXPECT_EQ(json::parse(format_json(discoveries())), discoveries());
}

TEST(Format, UnexpectedShapesDoNotThrow)
{
	for (const json &result : {json(nullptr), json::array(), json({{"devices", 5}}),
				   json({{"devices", {nullptr, 5, "x", json::object()}}}),
				   json({{"exports", {{{"size", "big"}, {"allow", "all"}}}}})}) {
		EXPECT_NO_THROW(format_text("list", result));
		EXPECT_NO_THROW(format_text("status", result));
		EXPECT_NO_THROW(format_text("export_list", result));
		EXPECT_NO_THROW(format_text("attach", result));
		EXPECT_NO_THROW(format_text("listen", result));
		EXPECT_NO_THROW(format_text("discover", result));
		EXPECT_NO_THROW(format_text("discovery_list", result));
		EXPECT_NO_THROW(format_text("discovery_list", json({{"discoveries", result}})));
	}
}

TEST(Format, UnknownCommandPrintsJson)
{
	EXPECT_EQ(format_text("future", {{"x", 1}}), "{\n  \"x\": 1\n}\n");
}

} // namespace
} // namespace rdmablk::rdmablkctl
