// SPDX-License-Identifier: GPL-2.0
#include <gtest/gtest.h>

#include <linux/rdmablk.h>

#include "engine/request_args.hpp"
#include "engine/views.hpp"

namespace rdmablk::daemon {
namespace {

using nlohmann::json;

std::string problem(void (*parse)(const json &), const json &args)
{
	try {
		parse(args);
	} catch (const ArgError &e) {
		return e.what();
	}
	return "accepted";
}

TEST(RequestArgs, Endpoint)
{
	EXPECT_EQ(endpoint_args({{"address", "192.0.2.1"}}), (nl::Endpoint{"192.0.2.1", 7471}));
	EXPECT_EQ(endpoint_args({{"address", "2001:db8::1"}, {"port", 9}, {"x", nullptr}}).port, 9);
	const auto parse = [](const json &a) { endpoint_args(a); };
	EXPECT_EQ(problem(parse, json::object()), "missing argument 'address'");
	EXPECT_EQ(problem(parse, {{"address", 1}}), "argument 'address': must be a string");
	EXPECT_EQ(problem(parse, {{"address", "192.0.2.1"}, {"port", 70000}}),
		  "port must be 1 to 65535, not 70000");
	EXPECT_EQ(problem(parse, json::array()), "'args' must be an object");
}

TEST(RequestArgs, Export)
{
	const ExportConfig e = export_args({{"name", "db0"},
					    {"path", "/dev/ram0"},
					    {"read_only", true},
					    {"allow",
					     {"0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0",
					      "0F1E2D3C-4B5A-4968-8776-A5B4C3D2E1F0"}}});
	EXPECT_TRUE(e.read_only);
	EXPECT_EQ(e.allow.size(), 1u) << "the same host twice is one host";
	EXPECT_FALSE(e.uuid);
	const auto parse = [](const json &a) { export_args(a); };
	EXPECT_EQ(problem(parse, {{"name", "db0"}, {"path", "/dev/x"}, {"ro", true}}),
		  "unknown argument 'ro'");
	EXPECT_EQ(problem(parse, {{"name", "db0"}, {"path", "/dev/x"}, {"allow", "x"}}),
		  "argument 'allow': must be an array of host ids");
	EXPECT_EQ(problem(parse, {{"name", std::string(64, 'a')}, {"path", "/dev/x"}}),
		  "the export name is longer than 63 characters");
}

TEST(RequestArgs, Attach)
{
	const AttachmentConfig a = attach_args({{"address", "192.0.2.1"},
						{"export", "db0"},
						{"queues", 4},
						{"fast_io_fail_tmo", -1},
						{"keepalive_tmo", nullptr}});
	EXPECT_EQ(a.queues, 4u);
	EXPECT_EQ(a.fast_io_fail_tmo, -1);
	EXPECT_FALSE(a.keepalive_tmo);
	const auto parse = [](const json &args) { attach_args(args); };
	EXPECT_EQ(problem(parse, {{"address", "192.0.2.1"}, {"export", "db0"}, {"keepalive_tmo", 0}}),
		  "keepalive_tmo must be 1 to 3600, not 0");
	EXPECT_EQ(problem(parse, {{"address", "192.0.2.1"}, {"export", "db0"}, {"queue", 1}}),
		  "unknown argument 'queue'");
	EXPECT_EQ(problem(parse, {{"address", "192.0.2.1"}}), "missing argument 'export'");
}

TEST(RequestArgs, AttachWithPathsAndPolicy)
{
	const AttachmentConfig a = attach_args({{"address", "192.0.2.1"},
						{"export", "db0"},
						{"paths", {"198.51.100.7:4420", "[2001:db8::2]"}},
						{"standby", {"2001:db8::2"}},
						{"policy", "round-robin"}});
	EXPECT_EQ(a.paths,
		  (std::vector<nl::Endpoint>{{"198.51.100.7", 4420}, {"2001:db8::2", 7471}}));
	EXPECT_EQ(a.standby, (std::vector<nl::Endpoint>{{"2001:db8::2", 7471}}));
	EXPECT_EQ(a.policy, RDMABLK_MP_ROUND_ROBIN);

	const auto parse = [](const json &args) { attach_args(args); };
	const json base = {{"address", "192.0.2.1"}, {"export", "db0"}};
	const auto with = [&](const char *key, json value) {
		json args = base;
		args[key] = std::move(value);
		return args;
	};
	EXPECT_EQ(problem(parse, with("paths", "192.0.2.2")),
		  "argument 'paths': must be an array of \"ADDR[:PORT]\" strings");
	EXPECT_EQ(problem(parse, with("paths", {1})),
		  "argument 'paths': must list \"ADDR[:PORT]\" strings");
	EXPECT_EQ(problem(parse, with("paths", {"host.example"})),
		  "argument 'paths': invalid address \"host.example\": not an IPv4 or IPv6 address");
	EXPECT_EQ(problem(parse, with("paths", {"192.0.2.1:7471"})),
		  "argument 'paths': 'paths' lists 192.0.2.1:7471, the attachment's own address; "
		  "list only the target's other addresses");
	EXPECT_EQ(problem(parse, with("paths", {"192.0.2.2", "192.0.2.2:7471"})),
		  "argument 'paths': 192.0.2.2:7471 is listed twice in 'paths'");
	EXPECT_EQ(problem(parse, with("standby", {"192.0.2.3"})),
		  "argument 'standby': 'standby' lists 192.0.2.3:7471, which is neither the "
		  "attachment's address nor in 'paths'");
	EXPECT_EQ(problem(parse, with("policy", "fastest")),
		  "argument 'policy': invalid policy \"fastest\": expected queue-depth, "
		  "round-robin or min-latency");
}

TEST(RequestArgs, Paths)
{
	PathArgs p = path_args({{"device", "/dev/rdmablk2"}, {"address", "198.51.100.7"},
				{"port", 4420}, {"standby", true}},
			       PathStandby::optional);
	EXPECT_EQ(p.index, 2u);
	EXPECT_EQ(p.path, (nl::Endpoint{"198.51.100.7", 4420}));
	EXPECT_EQ(p.standby, true);
	p = path_args({{"device", 2}, {"address", "198.51.100.7"}}, PathStandby::none);
	EXPECT_EQ(p.path.port, 7471);
	EXPECT_FALSE(p.standby);

	const auto problem_of = [](const json &args, PathStandby standby) {
		try {
			path_args(args, standby);
		} catch (const ArgError &e) {
			return std::string(e.what());
		}
		return std::string("accepted");
	};
	const json path = {{"device", "rdmablk2"}, {"address", "198.51.100.7"}};
	EXPECT_EQ(problem_of(path, PathStandby::required),
		  "missing argument 'standby' (true: standby, false: active)");
	EXPECT_EQ(problem_of({{"device", "rdmablk2"}, {"address", "198.51.100.7"},
			      {"standby", true}},
			     PathStandby::none),
		  "unknown argument 'standby'");
	EXPECT_EQ(problem_of({{"device", "rdmablk2"}, {"address", "198.51.100.7"},
			      {"standby", "yes"}},
			     PathStandby::required),
		  "argument 'standby': must be true or false");
	EXPECT_EQ(problem_of({{"address", "198.51.100.7"}}, PathStandby::optional),
		  "missing argument 'device'");
	EXPECT_EQ(problem_of({{"device", "rdmablk2"}}, PathStandby::optional),
		  "missing argument 'address'");
	EXPECT_EQ(problem_of({{"device", "rdmablk2"}, {"address", "198.51.100.7"}, {"export", "x"}},
			     PathStandby::optional),
		  "unknown argument 'export'");
}

TEST(RequestArgs, DevSetPolicy)
{
	const DevSetArgs set = dev_set_args({{"device", "rdmablk0"}, {"policy", "min-latency"}});
	EXPECT_EQ(set.settings.policy, RDMABLK_MP_MIN_LATENCY);
	const auto parse = [](const json &a) { dev_set_args(a); };
	EXPECT_EQ(problem(parse, {{"device", "rdmablk0"}}),
		  "nothing to change: give reconnect_delay, ctrl_loss_tmo, fast_io_fail_tmo, "
		  "keepalive_tmo or policy");
	EXPECT_EQ(problem(parse, {{"device", "rdmablk0"}, {"policy", 1}}),
		  "argument 'policy': must be a string");
}

TEST(RequestArgs, Detach)
{
	EXPECT_EQ(detach_args({{"device", "/dev/rdmablk3"}}).index, 3u);
	EXPECT_EQ(detach_args({{"device", "rdmablk3"}}).index, 3u);
	EXPECT_EQ(detach_args({{"device", 3}}).index, 3u);
	const DetachTarget t = detach_args({{"address", "192.0.2.1"}, {"export", "db0"}});
	ASSERT_TRUE(t.attachment);
	EXPECT_EQ(t.attachment->target.port, 7471);
	const auto parse = [](const json &a) { detach_args(a); };
	EXPECT_EQ(problem(parse, {{"device", "0"}, {"export", "db0"}}),
		  "give either 'device' or 'address' and 'export', not both");
	EXPECT_EQ(problem(parse, {{"device", "sda"}}),
		  "argument 'device': invalid device \"sda\": expected N, rdmablkN or "
		  "/dev/rdmablkN");
	/* Links are the client's to resolve. */
	EXPECT_EQ(problem(parse, {{"device", "/dev/rdmablk/db0"}}),
		  "argument 'device': invalid device \"/dev/rdmablk/db0\": expected N, rdmablkN or "
		  "/dev/rdmablkN (links such as /dev/rdmablk/NAME are not followed; give the "
		  "device they lead to)");
	EXPECT_NE(problem(parse, {{"device", "/dev/rdmablk0p1"}}), "accepted");
}

TEST(RequestArgs, Status)
{
	EXPECT_FALSE(status_args(json::object()));
	EXPECT_EQ(status_args({{"device", "2"}}), 2u);
	EXPECT_EQ(status_args({{"device", "/dev/rdmablk2"}}), 2u);
	const auto parse = [](const json &a) { status_args(a); };
	EXPECT_EQ(problem(parse, {{"device", "/dev/disk/by-id/rdmablk-db0-x"}}),
		  "argument 'device': invalid device \"/dev/disk/by-id/rdmablk-db0-x\": expected "
		  "N, rdmablkN or /dev/rdmablkN (links such as /dev/rdmablk/NAME are not "
		  "followed; give the device they lead to)");
	EXPECT_EQ(problem(parse, {{"device", 2}}), "argument 'device': must be a string");
}

TEST(Views, BlockStat)
{
	const auto io = parse_block_stat("     120        0     9600       50      300        4    "
					 "48000     200        0      100      250");
	ASSERT_TRUE(io);
	EXPECT_EQ(*io, (IoStats{120, 300, 9600 * 512ULL, 48000 * 512ULL}));
	EXPECT_FALSE(parse_block_stat("1 2 3"));
	EXPECT_FALSE(read_io_stats("../etc"));
}

} // namespace
} // namespace rdmablk::daemon
