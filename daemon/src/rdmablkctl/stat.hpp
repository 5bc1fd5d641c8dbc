// SPDX-License-Identifier: GPL-2.0
/*
 * rdmablkctl stat: what the devices did between two answers to the status
 * request, as rates, and the report of them as text or JSON. Pure
 * functions; stat_loop.hpp takes the samples.
 */
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace rdmablk::rdmablkctl {

/* One answer to the status request, and when it came. */
struct StatSample {
	std::chrono::steady_clock::time_point at; /* what intervals are measured with */
	std::chrono::system_clock::time_point time;
	nlohmann::json devices; /* the answer's "devices"; anything else: none */
};

/* One queue's rates over an interval. */
struct QueueRates {
	long long id = 0;
	std::string state; /* at the interval's end */
	double commands_per_s = 0;
	double read_bytes_per_s = 0;
	double write_bytes_per_s = 0;
	std::optional<double> latency_us; /* mean; nullopt when nothing completed */
	double errors_per_s = 0;
	std::uint64_t requeued = 0; /* in the interval */
};

/* A device's rates over an interval. */
struct DeviceRates {
	std::string device; /* "/dev/rdmablk0" */
	std::string export_name;
	std::string target; /* "192.0.2.1:7471" */
	std::string state;  /* at the interval's end */
	/* From /sys/block/NAME/stat; nullopt when a sample does not have it. */
	struct Io {
		double reads_per_s = 0;
		double writes_per_s = 0;
		double read_bytes_per_s = 0;
		double write_bytes_per_s = 0;
	};
	std::optional<Io> io;
	/* From the queues' counters. */
	std::optional<double> latency_us; /* mean; nullopt when nothing completed */
	double errors_per_s = 0;
	std::uint64_t requeued = 0;   /* in the interval */
	std::uint64_t reconnects = 0; /* in the interval */
	std::vector<QueueRates> queues;
};

/* What stat prints after an interval. */
struct StatReport {
	std::chrono::system_clock::time_point time; /* of the interval's end */
	double interval_s = 0;
	std::vector<DeviceRates> devices;
};

/*
 * The rates of each device between @before and @after, in @after's order.
 * A device is matched by its name, and shown once it is in both samples:
 * one only in @after (attached in between) comes in the next report, one
 * only in @before (detached) is left out. One whose export UUID changed or
 * one of whose counters went back (detached and attached again under the
 * same name) is new as well. Pending attachments (no device) have no I/O
 * and are left out; so is everything when @after is not later than @before.
 */
StatReport stat_report(const StatSample &before, const StatSample &after);

/*
 * @report as a table, one row per device under a header; with @per_queue
 * a second table follows, one row per queue.
 */
std::string stat_text(const StatReport &report, bool per_queue);

/*
 * @report as {"time", "interval_s", "devices": [{"device", "export",
 * "target", "state", "reads_per_s", "writes_per_s", "read_bytes_per_s",
 * "write_bytes_per_s", "latency_us", "errors_per_s", "requeued",
 * "reconnects"[, "queues": [{"id", "state", "commands_per_s",
 * "read_bytes_per_s", "write_bytes_per_s", "latency_us", "errors_per_s",
 * "requeued"}]]}]}: what is unknown (the I/O rates without
 * /sys/block/NAME/stat, a latency when nothing completed) is null.
 */
nlohmann::json stat_json(const StatReport &report, bool per_queue);

} // namespace rdmablk::rdmablkctl
