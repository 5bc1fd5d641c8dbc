// SPDX-License-Identifier: GPL-2.0
#include "stat.hpp"

#include <array>
#include <cmath>
#include <cstdio>
#include <map>

#include "ctl/protocol.hpp"
#include "text.hpp"

namespace rdmablk::rdmablkctl {

using nlohmann::json;

namespace {

/* A queue's counters in a status answer (docs/control-socket.md), by index. */
enum QueueCounter : std::size_t {
	q_commands,
	q_errors,
	q_completed,
	q_requeued,
	q_read_bytes,
	q_write_bytes,
	q_latency_us,
	queue_counters,
};
constexpr std::array<const char *, queue_counters> queue_keys = {
	"commands", "errors", "completed", "requeued", "read_bytes", "write_bytes", "latency_us",
};

/* A device's "io" counters, from /sys/block/NAME/stat, by index. */
enum IoCounter : std::size_t {
	io_reads,
	io_writes,
	io_read_bytes,
	io_write_bytes,
	io_counters,
};
constexpr std::array<const char *, io_counters> io_keys = {
	"reads",
	"writes",
	"read_bytes",
	"write_bytes",
};

template <std::size_t N> using Counts = std::array<std::uint64_t, N>;

struct QueueSample {
	long long id = 0;
	std::string state;
	Counts<queue_counters> counts{};
};

/* A device of a sample: its status object, and its counters read from it. */
struct DeviceSample {
	const json *status = nullptr;
	std::optional<Counts<io_counters>> io;
	std::uint64_t reconnects = 0;
	std::vector<QueueSample> queues;
};

/* Member @key of @object as a counter; 0 when it is not a non-negative integer. */
std::uint64_t counter(const json &object, const char *key)
{
	const auto it = object.find(key);
	if (it == object.end() || !it->is_number_integer())
		return 0;
	if (it->is_number_unsigned())
		return it->get<std::uint64_t>();
	const auto value = it->get<std::int64_t>();
	return value < 0 ? 0 : static_cast<std::uint64_t>(value);
}

template <std::size_t N>
Counts<N> counts_of(const json &object, const std::array<const char *, N> &keys)
{
	Counts<N> counts{};
	for (std::size_t i = 0; i < N; i++)
		counts[i] = counter(object, keys[i]);
	return counts;
}

std::string text_or_dash(const json &object, const char *key)
{
	return text_field(object, key).value_or("-");
}

/* Those of @devices that are in the kernel (not pending), by device name, in order. */
std::vector<std::pair<std::string, DeviceSample>> device_samples(const json &devices)
{
	std::vector<std::pair<std::string, DeviceSample>> samples;
	if (!devices.is_array())
		return samples;
	for (const json &status : devices) {
		const std::optional<std::string> name = text_field(status, "device");
		if (!name)
			continue;
		DeviceSample sample;
		sample.status = &status;
		if (const auto io = status.find("io"); io != status.end() && io->is_object())
			sample.io = counts_of(*io, io_keys);
		sample.reconnects = counter(status, "reconnects");
		if (const auto queues = status.find("queues_detail");
		    queues != status.end() && queues->is_array()) {
			for (const json &queue : *queues)
				sample.queues.push_back({int_field(queue, "id").value_or(-1),
							 text_or_dash(queue, "state"),
							 counts_of(queue, queue_keys)});
		}
		samples.emplace_back(*name, std::move(sample));
	}
	return samples;
}

template <std::size_t N> bool went_back(const Counts<N> &before, const Counts<N> &after)
{
	for (std::size_t i = 0; i < N; i++)
		if (after[i] < before[i])
			return true;
	return false;
}

/*
 * Whether @after is the device @before was: the same export, the same
 * queues, and no counter gone back, which a device detached and attached
 * again under its name shows.
 */
bool continues(const DeviceSample &before, const DeviceSample &after)
{
	if (text_field(*before.status, "uuid") != text_field(*after.status, "uuid") ||
	    after.reconnects < before.reconnects ||
	    (before.io && after.io && went_back(*before.io, *after.io)) ||
	    before.queues.size() != after.queues.size())
		return false;
	for (std::size_t i = 0; i < after.queues.size(); i++)
		if (before.queues[i].id != after.queues[i].id ||
		    went_back(before.queues[i].counts, after.queues[i].counts))
			return false;
	return true;
}

template <std::size_t N> Counts<N> growth(const Counts<N> &before, const Counts<N> &after)
{
	Counts<N> grown{};
	for (std::size_t i = 0; i < N; i++)
		grown[i] = after[i] - before[i];
	return grown;
}

/* The mean latency of the requests completed in an interval; nullopt when none did. */
std::optional<double> mean_latency(const Counts<queue_counters> &grown)
{
	if (grown[q_completed] == 0)
		return std::nullopt;
	return static_cast<double>(grown[q_latency_us]) / static_cast<double>(grown[q_completed]);
}

DeviceRates device_rates(const DeviceSample &before, const DeviceSample &after, double seconds)
{
	const auto rate = [seconds](std::uint64_t grown) {
		return static_cast<double>(grown) / seconds;
	};
	DeviceRates rates;
	rates.device = text_or_dash(*after.status, "device");
	rates.export_name = text_or_dash(*after.status, "export");
	rates.target = target_text(*after.status);
	rates.state = text_or_dash(*after.status, "state");
	if (before.io && after.io) {
		const Counts<io_counters> io = growth(*before.io, *after.io);
		rates.io = DeviceRates::Io{rate(io[io_reads]), rate(io[io_writes]),
					   rate(io[io_read_bytes]), rate(io[io_write_bytes])};
	}

	Counts<queue_counters> total{};
	for (std::size_t i = 0; i < after.queues.size(); i++) {
		const QueueSample &queue = after.queues[i];
		const Counts<queue_counters> grown = growth(before.queues[i].counts, queue.counts);
		for (std::size_t c = 0; c < queue_counters; c++)
			total[c] += grown[c];
		rates.queues.push_back({
			.id = queue.id,
			.state = queue.state,
			.commands_per_s = rate(grown[q_commands]),
			.read_bytes_per_s = rate(grown[q_read_bytes]),
			.write_bytes_per_s = rate(grown[q_write_bytes]),
			.latency_us = mean_latency(grown),
			.errors_per_s = rate(grown[q_errors]),
			.requeued = grown[q_requeued],
		});
	}
	rates.latency_us = mean_latency(total);
	rates.errors_per_s = rate(total[q_errors]);
	rates.requeued = total[q_requeued];
	rates.reconnects = after.reconnects - before.reconnects;
	return rates;
}

/* @value printed with @decimals decimals. */
std::string fixed(double value, int decimals)
{
	char text[64];
	std::snprintf(text, sizeof(text), "%.*f", decimals, value);
	return text;
}

std::string rate_text(double per_s)
{
	return fixed(per_s, 2);
}

/* Bytes per second as MiB per second, as iostat's MB/s. */
std::string mb_text(double bytes_per_s)
{
	return fixed(bytes_per_s / (1024 * 1024), 2);
}

std::string latency_text(const std::optional<double> &us)
{
	return us ? fixed(*us, 1) : "-";
}

/* @value rounded to @decimals decimals, for JSON without float noise. */
double rounded(double value, int decimals)
{
	const double scale = std::pow(10.0, decimals);
	return std::round(value * scale) / scale;
}

json rate_json(double per_s)
{
	return rounded(per_s, 2);
}

json latency_json(const std::optional<double> &us)
{
	return us ? json(rounded(*us, 1)) : json(nullptr);
}

} // namespace

StatReport stat_report(const StatSample &before, const StatSample &after)
{
	StatReport report;
	report.time = after.time;
	report.interval_s = std::chrono::duration<double>(after.at - before.at).count();
	if (report.interval_s <= 0)
		return report;

	const auto earlier = device_samples(before.devices);
	const std::map<std::string, DeviceSample> was(earlier.begin(), earlier.end());
	for (const auto &[name, now] : device_samples(after.devices)) {
		const auto then = was.find(name);
		if (then != was.end() && continues(then->second, now))
			report.devices.push_back(
				device_rates(then->second, now, report.interval_s));
	}
	return report;
}

std::string stat_text(const StatReport &report, bool per_queue)
{
	std::vector<std::vector<std::string>> rows;
	for (const DeviceRates &d : report.devices) {
		const auto io = [&](double DeviceRates::Io::*member, bool bytes) {
			if (!d.io)
				return std::string("-");
			return bytes ? mb_text((*d.io).*member) : rate_text((*d.io).*member);
		};
		rows.push_back({d.device, d.export_name, d.state,
				io(&DeviceRates::Io::reads_per_s, false),
				io(&DeviceRates::Io::writes_per_s, false),
				io(&DeviceRates::Io::read_bytes_per_s, true),
				io(&DeviceRates::Io::write_bytes_per_s, true),
				latency_text(d.latency_us), rate_text(d.errors_per_s),
				std::to_string(d.requeued), std::to_string(d.reconnects)});
	}
	std::string out = table({"DEVICE", "EXPORT", "STATE", "r/s", "w/s", "rMB/s", "wMB/s",
				 "lat_us", "err/s", "requeued", "reconnects"},
				rows, 3);
	if (!per_queue)
		return out;

	rows.clear();
	for (const DeviceRates &d : report.devices)
		for (const QueueRates &q : d.queues)
			rows.push_back({d.device, std::to_string(q.id), q.state,
					rate_text(q.commands_per_s), mb_text(q.read_bytes_per_s),
					mb_text(q.write_bytes_per_s), latency_text(q.latency_us),
					rate_text(q.errors_per_s), std::to_string(q.requeued)});
	return out + table({"DEVICE", "QUEUE", "STATE", "cmd/s", "rMB/s", "wMB/s", "lat_us",
			    "err/s", "requeued"},
			   rows, 3);
}

json stat_json(const StatReport &report, bool per_queue)
{
	json devices = json::array();
	for (const DeviceRates &d : report.devices) {
		const auto io = [&](double DeviceRates::Io::*member) {
			return d.io ? rate_json((*d.io).*member) : json(nullptr);
		};
		json device = {{"device", d.device},
			       {"export", d.export_name},
			       {"target", d.target},
			       {"state", d.state},
			       {"reads_per_s", io(&DeviceRates::Io::reads_per_s)},
			       {"writes_per_s", io(&DeviceRates::Io::writes_per_s)},
			       {"read_bytes_per_s", io(&DeviceRates::Io::read_bytes_per_s)},
			       {"write_bytes_per_s", io(&DeviceRates::Io::write_bytes_per_s)},
			       {"latency_us", latency_json(d.latency_us)},
			       {"errors_per_s", rate_json(d.errors_per_s)},
			       {"requeued", d.requeued},
			       {"reconnects", d.reconnects}};
		if (per_queue) {
			json queues = json::array();
			for (const QueueRates &q : d.queues)
				queues.push_back(
					{{"id", q.id},
					 {"state", q.state},
					 {"commands_per_s", rate_json(q.commands_per_s)},
					 {"read_bytes_per_s", rate_json(q.read_bytes_per_s)},
					 {"write_bytes_per_s", rate_json(q.write_bytes_per_s)},
					 {"latency_us", latency_json(q.latency_us)},
					 {"errors_per_s", rate_json(q.errors_per_s)},
					 {"requeued", q.requeued}});
			device["queues"] = std::move(queues);
		}
		devices.push_back(std::move(device));
	}
	return {{"time", ctl::utc_timestamp(report.time)},
		{"interval_s", rounded(report.interval_s, 3)},
		{"devices", std::move(devices)}};
}

} // namespace rdmablk::rdmablkctl
