// SPDX-License-Identifier: GPL-2.0
/*
 * rdmablkctl stat's arithmetic and reports: status answers in, rates out.
 */
#include <gtest/gtest.h>

#include <functional>

#include "ctl/protocol.hpp"
#include "samples.hpp"
#include "stat.hpp"

namespace rdmablk::rdmablkctl {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

constexpr long long MiB = 1 << 20;

json io(long long reads, long long writes, long long read_bytes, long long write_bytes)
{
	return {{"reads", reads},
		{"writes", writes},
		{"read_bytes", read_bytes},
		{"write_bytes", write_bytes}};
}

/* Device rdmablk@index as status reports it. */
json device(int index, const json &io_counters, const std::vector<samples::Queue> &queues,
	    long long reconnects = 0)
{
	json d = samples::live_device();
	d["device"] = "/dev/rdmablk" + std::to_string(index);
	d["index"] = index;
	d["io"] = io_counters;
	d["queues_detail"] = json::array();
	for (const samples::Queue &q : queues)
		d["queues_detail"].push_back(samples::queue_status(q));
	d["reconnects"] = reconnects;
	return d;
}

/* A status answer @seconds after an arbitrary start. */
StatSample sample(double seconds, json devices)
{
	const auto since = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
		std::chrono::duration<double>(seconds));
	return {std::chrono::steady_clock::time_point(1h) + since,
		std::chrono::system_clock::time_point(1764049201s) +
			std::chrono::duration_cast<std::chrono::system_clock::duration>(since),
		std::move(devices)};
}

/* rdmablk0 with two queues, and the same two seconds later. */
StatSample busy_before()
{
	return sample(0, {device(0, io(1000, 500, 4 * MiB, 2 * MiB),
				 {{.id = 0,
				   .commands = 800,
				   .completed = 800,
				   .read_bytes = 3 * MiB,
				   .write_bytes = 1 * MiB,
				   .latency_us = 80000},
				  {.id = 1,
				   .commands = 700,
				   .completed = 700,
				   .read_bytes = 1 * MiB,
				   .write_bytes = 1 * MiB,
				   .latency_us = 70000}},
				 1)});
}

StatSample busy_after()
{
	return sample(2, {device(0, io(3000, 1500, 12 * MiB, 6 * MiB),
				 {{.id = 0,
				   .commands = 2800,
				   .completed = 2800,
				   .errors = 2,
				   .requeued = 3,
				   .read_bytes = 9 * MiB,
				   .write_bytes = 3 * MiB,
				   .latency_us = 280000},
				  {.id = 1,
				   .commands = 1700,
				   .completed = 1700,
				   .read_bytes = 3 * MiB,
				   .write_bytes = 3 * MiB,
				   .latency_us = 470000}},
				 2)});
}

TEST(StatReport, RatesOverTheInterval)
{
	const StatReport report = stat_report(busy_before(), busy_after());
	EXPECT_DOUBLE_EQ(report.interval_s, 2.0);
	EXPECT_EQ(report.time, busy_after().time);
	ASSERT_EQ(report.devices.size(), 1u);
	const DeviceRates &d = report.devices[0];
	EXPECT_EQ(d.device, "/dev/rdmablk0");
	EXPECT_EQ(d.export_name, "db0");
	EXPECT_EQ(d.target, "192.0.2.1:7471");
	EXPECT_EQ(d.state, "live");
	ASSERT_TRUE(d.io);
	EXPECT_DOUBLE_EQ(d.io->reads_per_s, 1000);
	EXPECT_DOUBLE_EQ(d.io->writes_per_s, 500);
	EXPECT_DOUBLE_EQ(d.io->read_bytes_per_s, 4 * MiB);
	EXPECT_DOUBLE_EQ(d.io->write_bytes_per_s, 2 * MiB);
	/* 2000 requests in 200000 us and 1000 in 400000 us: 200 us each on average. */
	ASSERT_TRUE(d.latency_us);
	EXPECT_DOUBLE_EQ(*d.latency_us, 200);
	EXPECT_DOUBLE_EQ(d.errors_per_s, 1);
	EXPECT_EQ(d.requeued, 3u);
	EXPECT_EQ(d.reconnects, 1u);

	ASSERT_EQ(d.queues.size(), 2u);
	EXPECT_EQ(d.queues[0].id, 0);
	EXPECT_EQ(d.queues[0].state, "live");
	EXPECT_DOUBLE_EQ(d.queues[0].commands_per_s, 1000);
	EXPECT_DOUBLE_EQ(d.queues[0].read_bytes_per_s, 3 * MiB);
	EXPECT_DOUBLE_EQ(d.queues[0].write_bytes_per_s, 1 * MiB);
	EXPECT_EQ(d.queues[0].latency_us, 100);
	EXPECT_DOUBLE_EQ(d.queues[0].errors_per_s, 1);
	EXPECT_EQ(d.queues[0].requeued, 3u);
	EXPECT_EQ(d.queues[1].id, 1);
	EXPECT_DOUBLE_EQ(d.queues[1].commands_per_s, 500);
	EXPECT_EQ(d.queues[1].latency_us, 400);
	EXPECT_DOUBLE_EQ(d.queues[1].errors_per_s, 0);
}

TEST(StatReport, LatencyIsUnknownWhenNothingCompleted)
{
	/* Commands sent, none back: a queue waiting for its target. */
	const StatSample before =
		sample(0, {device(0, io(10, 0, 40960, 0),
				  {{.id = 0, .commands = 10, .completed = 10, .latency_us = 900},
				   {.id = 1, .commands = 5, .completed = 5, .latency_us = 50}})});
	const StatSample after =
		sample(1, {device(0, io(10, 0, 40960, 0),
				  {{.id = 0, .commands = 14, .completed = 10, .latency_us = 900},
				   {.id = 1, .commands = 5, .completed = 6, .latency_us = 80}})});
	const StatReport report = stat_report(before, after);
	ASSERT_EQ(report.devices.size(), 1u);
	const DeviceRates &d = report.devices[0];
	EXPECT_DOUBLE_EQ(d.io->reads_per_s, 0);
	EXPECT_EQ(d.latency_us, 30);
	EXPECT_DOUBLE_EQ(d.queues[0].commands_per_s, 4);
	EXPECT_EQ(d.queues[0].latency_us, std::nullopt);
	EXPECT_EQ(d.queues[1].latency_us, 30);

	const StatReport idle = stat_report(after, sample(2, after.devices));
	EXPECT_EQ(idle.devices.at(0).latency_us, std::nullopt);
	EXPECT_EQ(stat_json(idle, true)["devices"][0]["latency_us"], nullptr);
	EXPECT_EQ(stat_json(idle, true)["devices"][0]["queues"][1]["latency_us"], nullptr);
	EXPECT_NE(stat_text(idle, false).find("  -  "), std::string::npos)
		<< stat_text(idle, false);
}

TEST(StatReport, ACounterGoingBackIsAFreshStart)
{
	/* Detached and attached again under the same name: counting from 0 again. */
	const StatSample again =
		sample(2, {device(0, io(30, 10, 120 * 1024, 40 * 1024),
				  {{.id = 0, .commands = 40, .completed = 40, .latency_us = 4000},
				   {.id = 1}})});
	EXPECT_TRUE(stat_report(busy_before(), again).devices.empty());

	/* Shown again from the next interval on, with rates from the new counters. */
	json later = again.devices;
	later[0]["io"] = io(130, 10, 520 * 1024, 40 * 1024);
	later[0]["queues_detail"][0] = samples::queue_status(
		{.id = 0, .commands = 140, .completed = 140, .latency_us = 14000});
	const StatReport report = stat_report(again, sample(3, later));
	ASSERT_EQ(report.devices.size(), 1u);
	EXPECT_DOUBLE_EQ(report.devices[0].io->reads_per_s, 100);
	EXPECT_EQ(report.devices[0].latency_us, 100);

	/* Each counter alone tells. */
	const auto after_with = [](const std::function<void(json &)> &change) {
		StatSample after = busy_after();
		change(after.devices[0]);
		return after;
	};
	for (const auto &change : std::vector<std::function<void(json &)>>{
		     [](json &d) { d["io"]["write_bytes"] = 0; },
		     [](json &d) { d["queues_detail"][1]["latency_us"] = 1; },
		     [](json &d) { d["queues_detail"][0]["completed"] = 1; },
		     [](json &d) { d["reconnects"] = 0; },
		     [](json &d) { d["uuid"] = "6b1a0c2e-0000-4000-8000-0000000000ff"; },
		     [](json &d) { d["queues_detail"].erase(1); },
		     [](json &d) { d["queues_detail"][1]["id"] = 2; }})
		EXPECT_TRUE(stat_report(busy_before(), after_with(change)).devices.empty())
			<< after_with(change).devices.dump();
}

TEST(StatReport, DevicesComeAfterAFullIntervalAndGoAtOnce)
{
	const json rdmablk0 = device(0, io(0, 0, 0, 0), {{.id = 0}});
	const json rdmablk1 = device(1, io(0, 0, 0, 0), {{.id = 0}});
	const json rdmablk1_later = device(1, io(50, 0, 204800, 0), {{.id = 0}});

	/* rdmablk0 detached, rdmablk1 attached: nothing to say about either yet. */
	const StatSample first = sample(0, {rdmablk0});
	const StatSample second = sample(1, {rdmablk1});
	EXPECT_TRUE(stat_report(first, second).devices.empty());

	const StatReport report = stat_report(second, sample(2, {rdmablk1_later, rdmablk0}));
	ASSERT_EQ(report.devices.size(), 1u);
	EXPECT_EQ(report.devices[0].device, "/dev/rdmablk1");
	EXPECT_DOUBLE_EQ(report.devices[0].io->reads_per_s, 50);

	/* In the order of the later answer. */
	const StatReport both =
		stat_report(sample(0, {rdmablk0, rdmablk1}), sample(1, {rdmablk1, rdmablk0}));
	ASSERT_EQ(both.devices.size(), 2u);
	EXPECT_EQ(both.devices[0].device, "/dev/rdmablk1");
	EXPECT_EQ(both.devices[1].device, "/dev/rdmablk0");
}

TEST(StatReport, PendingAttachmentsAndOddAnswersHaveNoRates)
{
	const StatSample pending = sample(0, {samples::pending_device()});
	EXPECT_TRUE(stat_report(pending, sample(1, pending.devices)).devices.empty());
	EXPECT_TRUE(stat_report(sample(0, nullptr), sample(1, json::object())).devices.empty());
	/* No time between the answers: no rates. */
	const StatReport none = stat_report(busy_before(), sample(0, busy_after().devices));
	EXPECT_TRUE(none.devices.empty());
}

TEST(StatReport, FractionalIntervals)
{
	const StatSample before = sample(0.5, {device(0, io(100, 20, 409600, 81920), {{.id = 0}})});
	const StatSample after =
		sample(0.75, {device(0, io(200, 25, 819200, 102400), {{.id = 0}})});
	const StatReport report = stat_report(before, after);
	EXPECT_DOUBLE_EQ(report.interval_s, 0.25);
	ASSERT_EQ(report.devices.size(), 1u);
	EXPECT_DOUBLE_EQ(report.devices[0].io->reads_per_s, 400);
	EXPECT_DOUBLE_EQ(report.devices[0].io->writes_per_s, 20);
	EXPECT_DOUBLE_EQ(report.devices[0].io->read_bytes_per_s, 1638400);
	EXPECT_EQ(stat_json(report, false)["interval_s"], 0.25);
}

TEST(StatReport, WithoutBlockLayerCountersTheIoRatesAreUnknown)
{
	StatSample before = busy_before();
	before.devices[0]["io"] = nullptr;
	const StatReport report = stat_report(before, busy_after());
	ASSERT_EQ(report.devices.size(), 1u);
	EXPECT_FALSE(report.devices[0].io);
	EXPECT_EQ(report.devices[0].latency_us, 200);

	const json j = stat_json(report, false)["devices"][0];
	for (const char *key :
	     {"reads_per_s", "writes_per_s", "read_bytes_per_s", "write_bytes_per_s"})
		EXPECT_EQ(j[key], nullptr) << key;
	EXPECT_EQ(stat_text(report, false),
		  "DEVICE         EXPORT  STATE  r/s  w/s  rMB/s  wMB/s  lat_us  err/s  requeued  "
		  "reconnects\n"
		  "/dev/rdmablk0  db0     live     -    -      -      -   200.0   1.00         3  "
		  "         1\n");
}

TEST(StatJson, OneObjectAReport)
{
	const StatReport report = stat_report(busy_before(), busy_after());
	const json j = stat_json(report, false);
	EXPECT_EQ(j, json::parse(R"({
		"time": "2025-11-25T05:40:03.000Z", "interval_s": 2.0,
		"devices": [{
			"device": "/dev/rdmablk0", "export": "db0", "target": "192.0.2.1:7471",
			"state": "live", "reads_per_s": 1000.0, "writes_per_s": 500.0,
			"read_bytes_per_s": 4194304.0, "write_bytes_per_s": 2097152.0,
			"latency_us": 200.0, "errors_per_s": 1.0, "requeued": 3, "reconnects": 1}]})"));
	EXPECT_EQ(ctl::to_line(j).find('\n'), ctl::to_line(j).size() - 1);

	const json queues = stat_json(report, true)["devices"][0]["queues"];
	EXPECT_EQ(queues, json::parse(R"([
		{"id": 0, "state": "live", "commands_per_s": 1000.0,
		 "read_bytes_per_s": 3145728.0, "write_bytes_per_s": 1048576.0,
		 "latency_us": 100.0, "errors_per_s": 1.0, "requeued": 3},
		{"id": 1, "state": "live", "commands_per_s": 500.0,
		 "read_bytes_per_s": 1048576.0, "write_bytes_per_s": 1048576.0,
		 "latency_us": 400.0, "errors_per_s": 0.0, "requeued": 0}])"));

	EXPECT_EQ(stat_json({}, true), (json{{"time", "1970-01-01T00:00:00.000Z"},
					     {"interval_s", 0.0},
					     {"devices", json::array()}}));
}

TEST(StatJson, RoundsAwayFloatNoise)
{
	/* 1 read in 3 s: 0.333... a second. */
	const StatReport report = stat_report(
		sample(0, {device(0, io(0, 0, 0, 0), {{.id = 0}})}),
		sample(3, {device(0, io(1, 0, 4096, 0),
				  {{.id = 0, .commands = 3, .completed = 3, .latency_us = 100}})}));
	const json j = stat_json(report, true)["devices"][0];
	EXPECT_EQ(j["reads_per_s"].dump(), "0.33");
	EXPECT_EQ(j["read_bytes_per_s"].dump(), "1365.33");
	EXPECT_EQ(j["latency_us"].dump(), "33.3");
	EXPECT_EQ(j["queues"][0]["commands_per_s"].dump(), "1.0");
}

TEST(StatText, AlignedColumnsUnderAHeader)
{
	StatSample before = busy_before();
	StatSample after = busy_after();
	json other = device(10, io(0, 0, 0, 0), {{.id = 0}});
	other["export"] = "logs";
	other["address"] = "2001:db8::7";
	before.devices.push_back(other);
	other["state"] = "reconnecting";
	other["queues_detail"][0]["state"] = "down";
	after.devices.push_back(other);
	const StatReport report = stat_report(before, after);

	EXPECT_EQ(stat_text(report, false),
		  "DEVICE          EXPORT  STATE             r/s     w/s  rMB/s  wMB/s  lat_us  "
		  "err/s  requeued  reconnects\n"
		  "/dev/rdmablk0   db0     live          1000.00  500.00   4.00   2.00   200.0   "
		  "1.00         3           1\n"
		  "/dev/rdmablk10  logs    reconnecting     0.00    0.00   0.00   0.00       -   "
		  "0.00         0           0\n");
	EXPECT_EQ(stat_text(report, true),
		  stat_text(report, false) +
			  "DEVICE          QUEUE  STATE    cmd/s  rMB/s  wMB/s  lat_us  err/s  "
			  "requeued\n"
			  "/dev/rdmablk0   0      live   1000.00   3.00   1.00   100.0   1.00  "
			  "       3\n"
			  "/dev/rdmablk0   1      live    500.00   1.00   1.00   400.0   0.00  "
			  "       0\n"
			  "/dev/rdmablk10  0      down      0.00   0.00   0.00       -   0.00  "
			  "       0\n");
}

/* The examples of rdmablkctl(8) and docs/admin-guide.md. */
TEST(StatText, TheDocumentedExamples)
{
	const StatReport report = stat_report(busy_before(), busy_after());
	EXPECT_EQ(stat_text(report, true),
		  "DEVICE         EXPORT  STATE      r/s     w/s  rMB/s  wMB/s  lat_us  err/s  "
		  "requeued  reconnects\n"
		  "/dev/rdmablk0  db0     live   1000.00  500.00   4.00   2.00   200.0   1.00  "
		  "       3           1\n"
		  "DEVICE         QUEUE  STATE    cmd/s  rMB/s  wMB/s  lat_us  err/s  requeued\n"
		  "/dev/rdmablk0  0      live   1000.00   3.00   1.00   100.0   1.00         3\n"
		  "/dev/rdmablk0  1      live    500.00   1.00   1.00   400.0   0.00         0\n");
	EXPECT_EQ(ctl::to_line(stat_json(report, false)),
		  R"({"devices":[{"device":"/dev/rdmablk0","errors_per_s":1.0,"export":"db0",)"
		  R"("latency_us":200.0,"read_bytes_per_s":4194304.0,"reads_per_s":1000.0,)"
		  R"("reconnects":1,"requeued":3,"state":"live","target":"192.0.2.1:7471",)"
		  R"("write_bytes_per_s":2097152.0,"writes_per_s":500.0}],"interval_s":2.0,)"
		  R"("time":"2025-11-25T05:40:03.000Z"})"
		  "\n");
}

TEST(StatText, NoDevicesIsTheHeader)
{
	EXPECT_EQ(stat_text({}, false), "DEVICE  EXPORT  STATE  r/s  w/s  rMB/s  wMB/s  lat_us  "
					"err/s  requeued  reconnects\n");
	EXPECT_EQ(stat_text({}, true),
		  stat_text({}, false) +
			  "DEVICE  QUEUE  STATE  cmd/s  rMB/s  wMB/s  lat_us  err/s  requeued\n");
}

} // namespace
} // namespace rdmablk::rdmablkctl
