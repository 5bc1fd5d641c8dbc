// SPDX-License-Identifier: GPL-2.0
#include "format.hpp"

#include <algorithm>
#include <vector>

#include "text.hpp"

namespace rdmablk::rdmablkctl {

using nlohmann::json;

namespace {

std::string last_error_suffix(const json &device)
{
	const auto error = text_field(device, "last_error");
	return error && !error->empty() ? ", last error: " + *error : "";
}

std::string size_text(const json &device)
{
	const auto size = int_field(device, "size");
	if (!size || *size < 0 || !text_field(device, "device"))
		return "-";
	return human_size(static_cast<std::uint64_t>(*size));
}

std::string or_dash(const std::optional<std::string> &text)
{
	return text ? *text : "-";
}

std::string join(const std::vector<std::string> &parts, const char *separator)
{
	std::string out;
	for (const std::string &part : parts)
		out += (out.empty() ? "" : separator) + part;
	return out;
}

/* "uuid ...  queues 2 x 128  timeouts: ...  reconnects 1", from whatever of it is known. */
std::string settings_line(const json &device)
{
	std::vector<std::string> parts;
	if (const auto uuid = text_field(device, "uuid"))
		parts.push_back("uuid " + *uuid);

	const auto queues = int_field(device, "queues");
	const auto poll = int_field(device, "poll_queues");
	const auto depth = int_field(device, "queue_depth");
	if (queues && *queues > 0)
		parts.push_back("queues " + std::to_string(*queues) +
				(poll && *poll > 0 ? " + " + std::to_string(*poll) + " polled" : "") +
				(depth ? " x " + std::to_string(*depth) : ""));

	std::vector<std::string> timeouts;
	for (const auto &[key, label] : {std::pair{"reconnect_delay", "reconnect"},
					 {"ctrl_loss_tmo", "ctrl-loss"},
					 {"fast_io_fail_tmo", "fast-io-fail"},
					 {"keepalive_tmo", "keep-alive"}})
		if (const auto value = int_field(device, key))
			timeouts.push_back(std::string(label) + " " + seconds_text(*value));
	if (!timeouts.empty())
		parts.push_back("timeouts: " + join(timeouts, ", "));
	if (const auto reconnects = int_field(device, "reconnects"))
		parts.push_back("reconnects " + std::to_string(*reconnects));

	/* "host": this host proved itself; "mutual": the target too. */
	if (const auto auth = text_field(device, "auth"); auth == "host")
		parts.push_back("authenticated (this host)");
	else if (auth == "mutual")
		parts.push_back("authenticated (both ways)");
	if (bool_field(device, "read_only"))
		parts.push_back("read-only");
	return join(parts, "  ");
}

/* Member @key of @object as a byte count ("4.0M"), 0 when it is not one. */
std::string bytes_text(const json &object, const char *key)
{
	const long long bytes = int_field(object, key).value_or(0);
	return human_size(static_cast<std::uint64_t>(std::max(0LL, bytes)));
}

std::string io_line(const json &io)
{
	const auto count = [&](const char *key) {
		return std::to_string(int_field(io, key).value_or(0));
	};
	return "io: " + count("reads") + " reads (" + bytes_text(io, "read_bytes") + "), " +
	       count("writes") + " writes (" + bytes_text(io, "write_bytes") + ")";
}

/*
 * "queue 0: live, 1200 commands, 1180 completed, 0 errors, 3 requeued, 4.0M
 * read, 1.0M written, mean latency 85 us". The counters after errors came
 * later: those an older daemon does not send are left out. A queue past
 * the device's @irq_queues interrupt-driven ones is a poll queue: "queue 2
 * (polled): ...".
 */
std::string queue_line(const json &queue, std::optional<long long> irq_queues)
{
	std::vector<std::string> parts{or_dash(text_field(queue, "state"))};
	const auto count = [&](const char *key, const char *what, bool always = false) {
		const auto value = int_field(queue, key);
		if (value || always)
			parts.push_back(std::to_string(value.value_or(0)) + " " + what);
	};
	const auto bytes = [&](const char *key, const char *what) {
		if (int_field(queue, key))
			parts.push_back(bytes_text(queue, key) + " " + what);
	};
	count("commands", "commands", true);
	count("completed", "completed");
	count("errors", "errors", true);
	count("requeued", "requeued");
	bytes("read_bytes", "read");
	bytes("write_bytes", "written");
	const auto completed = int_field(queue, "completed");
	const auto latency = int_field(queue, "latency_us");
	if (completed && *completed > 0 && latency && *latency >= 0)
		parts.push_back("mean latency " +
				std::to_string((*latency + *completed / 2) / *completed) + " us");
	const auto id = int_field(queue, "id");
	const bool polled = id && irq_queues && *id >= *irq_queues;
	return "queue " + or_dash(text_field(queue, "id")) + (polled ? " (polled)" : "") + ": " +
	       join(parts, ", ");
}

/* "policy round-robin, 2 paths, 1 live"; empty from a daemon or module without paths. */
std::string policy_line(const json &device)
{
	const auto policy = text_field(device, "policy");
	const auto it = device.find("paths");
	if (!policy || it == device.end() || !it->is_array() || it->empty())
		return {};
	const auto live = std::count_if(it->begin(), it->end(), [](const json &path) {
		return text_field(path, "state") == "live";
	});
	return "policy " + *policy + ", " + std::to_string(it->size()) +
	       (it->size() == 1 ? " path, " : " paths, ") + std::to_string(live) + " live";
}

/*
 * "path 1: 198.51.100.7:4420, reconnecting, standby, 0 in flight, 10
 * commands, 2 errors, 1 failovers, last failover 12 s ago, 0 reconnects,
 * last error: ..."; a configured path the device lacks: "path -:
 * 203.0.113.9:7471, pending: retrying in 8 s, active, last error: ...".
 */
std::string path_line(const json &path)
{
	std::vector<std::string> parts{target_text(path)};
	const std::string state = or_dash(text_field(path, "state"));
	if (state == "pending")
		parts.push_back("pending: retrying in " +
				std::to_string(ms_to_s(int_field(path, "retry_in_ms").value_or(0))) +
				" s");
	else if (state == "reconnecting")
		parts.push_back("reconnecting: attempt " +
				std::to_string(int_field(path, "reconnect_attempt").value_or(0)) +
				", next in " +
				std::to_string(ms_to_s(int_field(path, "next_attempt_ms").value_or(0))) +
				" s");
	else
		parts.push_back(state);
	parts.push_back(bool_field(path, "standby") ? "standby" : "active");
	const auto count = [&](const char *key, const char *what) {
		if (const auto value = int_field(path, key))
			parts.push_back(std::to_string(*value) + " " + what);
	};
	count("inflight", "in flight");
	count("commands", "commands");
	count("errors", "errors");
	count("failovers", "failovers");
	if (const auto age = int_field(path, "last_failover_ms"))
		parts.push_back("last failover " + std::to_string(ms_to_s(*age)) + " s ago");
	count("reconnects", "reconnects");
	if (const auto latency = int_field(path, "latency_us"); latency && *latency > 0)
		parts.push_back("latency " + std::to_string(*latency) + " us");
	if (const auto error = text_field(path, "last_error"); error && !error->empty())
		parts.push_back("last error: " + *error);
	return "path " + or_dash(text_field(path, "id")) + ": " + join(parts, ", ");
}

std::string status_block(const json &device)
{
	std::string out =
		join({or_dash(text_field(device, "device")), target_text(device),
		      or_dash(text_field(device, "export")), size_text(device), state_text(device)},
		     "  ") +
		'\n';
	if (const std::string settings = settings_line(device); !settings.empty())
		out += "  " + settings + '\n';
	if (const auto it = device.find("io"); it != device.end() && it->is_object())
		out += "  " + io_line(*it) + '\n';
	if (const std::string policy = policy_line(device); !policy.empty()) {
		out += "  " + policy + '\n';
		for (const json &path : device.at("paths"))
			out += "  " + path_line(path) + '\n';
	}
	if (const auto it = device.find("queues_detail"); it != device.end() && it->is_array())
		for (const json &queue : *it)
			out += "  " + queue_line(queue, int_field(device, "queues")) + '\n';
	return out;
}

const json &array_or_empty(const json &value)
{
	static const json empty = json::array();
	return value.is_array() ? value : empty;
}

} // namespace

std::string state_text(const json &device)
{
	const std::string state = or_dash(text_field(device, "state"));
	if (state == "reconnecting") {
		const long long max = int_field(device, "reconnect_max").value_or(0);
		return "reconnecting: attempt " +
		       std::to_string(int_field(device, "reconnect_attempt").value_or(0)) + " of " +
		       (max > 0 ? std::to_string(max) : "unlimited") + ", next in " +
		       std::to_string(ms_to_s(int_field(device, "next_attempt_ms").value_or(0))) +
		       " s" + last_error_suffix(device);
	}
	if (state == "pending")
		return "pending: retrying in " +
		       std::to_string(ms_to_s(int_field(device, "retry_in_ms").value_or(0))) +
		       " s" + last_error_suffix(device);
	if (state == "dead")
		return state + last_error_suffix(device);
	return state;
}

std::string device_table(const json &devices)
{
	std::vector<std::vector<std::string>> rows;
	for (const json &device : array_or_empty(devices))
		rows.push_back({or_dash(text_field(device, "device")), target_text(device),
				or_dash(text_field(device, "export")), size_text(device),
				or_dash(text_field(device, "state")),
				or_dash(text_field(device, "queues"))});
	return table({"DEVICE", "TARGET", "EXPORT", "SIZE", "STATE", "QUEUES"}, rows);
}

std::string status_blocks(const json &devices)
{
	std::string out;
	for (const json &device : array_or_empty(devices))
		out += (out.empty() ? "" : "\n") + status_block(device);
	return out;
}

} // namespace rdmablk::rdmablkctl
