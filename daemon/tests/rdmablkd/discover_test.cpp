// SPDX-License-Identifier: GPL-2.0
/*
 * The "discover" command: its arguments, and the export list as the
 * control socket shows it. The network part (DiscoverySession) needs RDMA
 * and is exercised by the VM tests.
 */
#include <endian.h>

#include "discovery/discover.hpp"
#include "engine_fixture.hpp"
#include "engine/views.hpp"

namespace rdmablk::daemon::test {
namespace {

using nlohmann::json;

TEST_F(EngineTest, DiscoverAsksForTheTargetGiven)
{
	discover_answer = ctl::ok({{"exports", json::array()}});
	const ctl::Response r = call("discover", {{"address", "192.0.2.1"}, {"port", 4420}});
	ASSERT_TRUE(r.ok) << r.error->message;
	EXPECT_EQ(r.result, discover_answer.result);
	ASSERT_EQ(discovered.size(), 1u);
	EXPECT_EQ(discovered[0], (nl::Endpoint{"192.0.2.1", 4420}));
}

TEST_F(EngineTest, DiscoverDefaultsToPort7471)
{
	EXPECT_TRUE(call("discover", {{"address", "2001:db8::1"}}).ok);
	ASSERT_EQ(discovered.size(), 1u);
	EXPECT_EQ(discovered[0], (nl::Endpoint{"2001:db8::1", 7471}));
}

TEST_F(EngineTest, DiscoverPassesFailuresOn)
{
	discover_answer = ctl::fail(ctl::code::unreachable, "cannot reach 192.0.2.1:7471: timed out");
	const ctl::Response r = call("discover", {{"address", "192.0.2.1"}});
	ASSERT_FALSE(r.ok);
	EXPECT_EQ(r.error->code, "unreachable");
	EXPECT_EQ(r.error->message, "cannot reach 192.0.2.1:7471: timed out");
}

TEST_F(EngineTest, DiscoverRefusesBadArguments)
{
	for (const json &args : {json::object(),
				 json{{"address", "example.com"}},
				 json{{"address", "192.0.2.1"}, {"port", 0}},
				 json{{"address", "192.0.2.1"}, {"export", "db0"}}}) {
		const ctl::Response r = call("discover", args);
		ASSERT_FALSE(r.ok) << args.dump();
		EXPECT_EQ(r.error->code, "invalid-argument") << args.dump();
	}
	EXPECT_TRUE(discovered.empty());
}

TEST(DiscoveryJson, StableFieldNames)
{
	proto::DiscLog log;
	log.generation = 42;
	proto::DiscEntry e;
	e.name = "db0";
	for (std::size_t i = 0; i < e.uuid.size(); i++)
		e.uuid[i] = static_cast<std::uint8_t>(i);
	e.size = 1ULL << 40;
	e.logical_block_size = 512;
	e.physical_block_size = 4096;
	e.flags = RDMABLK_EXP_READ_ONLY | RDMABLK_EXP_DISCARD | RDMABLK_EXP_ROTATIONAL;
	log.entries.push_back(e);
	e.name = "db1";
	e.flags = 0;
	log.entries.push_back(e);

	const json j = discovery_json({"fe80::1%eth0", 7471}, log);
	EXPECT_EQ(j["target"], "[fe80::1%eth0]:7471");
	EXPECT_EQ(j["address"], "fe80::1%eth0");
	EXPECT_EQ(j["port"], 7471);
	EXPECT_EQ(j["generation"], 42);
	ASSERT_EQ(j["exports"].size(), 2u);
	const json &first = j["exports"][0];
	EXPECT_EQ(first["name"], "db0");
	EXPECT_EQ(first["uuid"], "00010203-0405-0607-0809-0a0b0c0d0e0f");
	EXPECT_EQ(first["size"], 1ULL << 40);
	EXPECT_EQ(first["logical_block_size"], 512);
	EXPECT_EQ(first["physical_block_size"], 4096);
	EXPECT_EQ(first["read_only"], true);
	EXPECT_EQ(first["flags"], json({"read_only", "discard", "rotational"}));
	EXPECT_EQ(j["exports"][1]["read_only"], false);
	EXPECT_EQ(j["exports"][1]["flags"], json::array());
	EXPECT_EQ(j["auth"], "none");
	EXPECT_EQ(discovery_json({"192.0.2.1", 7471}, log, RDMABLK_AUTH_MODE_MUTUAL)["auth"],
		  "mutual");
	EXPECT_EQ(discovery_json({"192.0.2.1", 7471}, log, RDMABLK_AUTH_MODE_HOST)["auth"], "host");
}

/*
 * Wherever this runs (no RDMA device, or one without a route or a listener
 * there), a discovery of a target that is not there ends with one
 * "cannot reach" line, soon, and leaves nothing behind.
 */
TEST(Discoveries, UnreachableTargetIsAnsweredInTime)
{
	EventLoop loop;
	std::vector<LogRecord> logged;
	Logger log([&](const LogRecord &r) { logged.push_back(r); });
	DiscoveryTimeouts t;
	t.resolve = std::chrono::milliseconds(300);
	t.connect = std::chrono::milliseconds(900);
	t.read_log = std::chrono::milliseconds(300);
	Discoveries discoveries(loop, log, t);

	std::optional<ctl::Response> got;
	const auto started = std::chrono::steady_clock::now();
	/* TEST-NET-1: routed nowhere. */
	discoveries.start({"192.0.2.1", 7471}, test_hostid, {}, [&](ctl::Response r) {
		got = std::move(r);
		loop.stop();
	});
	if (!got)
		loop.run({});
	ASSERT_TRUE(got);
	EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(3));
	ASSERT_FALSE(got->ok);
	EXPECT_EQ(got->error->code, "unreachable");
	EXPECT_TRUE(got->error->message.starts_with("cannot reach 192.0.2.1:7471: "))
		<< got->error->message;
	EXPECT_EQ(got->error->message.find('\n'), std::string::npos);
	EXPECT_FALSE(got->error->hint.empty());
	EXPECT_EQ(discoveries.running(), 0u);
}

} // namespace
} // namespace rdmablk::daemon::test
