// SPDX-License-Identifier: GPL-2.0
#include "engine/views.hpp"

#include <algorithm>
#include <sstream>

#include <linux/rdmablk.h>

#include "auth/key.hpp"
#include "nl/file.hpp"
#include "engine/reconcile.hpp"
#include "nl/names.hpp"

namespace rdmablk::daemon {

namespace {

using nlohmann::json;

json uuids_json(const std::vector<nl::Uuid> &ids)
{
	json list = json::array();
	for (const nl::Uuid &id : ids)
		list.push_back(nl::to_string(id));
	return list;
}

json optional_json(const std::optional<std::int64_t> &value)
{
	return value ? json(*value) : json(nullptr);
}

/* Milliseconds until @retry is due, 0 when due or not waiting. */
std::int64_t retry_in_ms(const RetryEntry *retry, Time now)
{
	if (!retry || !retry->waiting || retry->next_due <= now)
		return 0;
	return std::chrono::duration_cast<std::chrono::milliseconds>(retry->next_due - now)
		.count();
}

json last_error_json(const RetryEntry *retry)
{
	return retry && !retry->last_error.empty() ? json(retry->last_error) : json(nullptr);
}

/* RDMABLK_EXP_* by name, in bit order. */
json export_flags_json(std::uint32_t flags)
{
	static constexpr std::pair<std::uint32_t, const char *> names[] = {
		{RDMABLK_EXP_READ_ONLY, "read_only"},
		{RDMABLK_EXP_FLUSH, "flush"},
		{RDMABLK_EXP_FUA, "fua"},
		{RDMABLK_EXP_DISCARD, "discard"},
		{RDMABLK_EXP_WRITE_ZEROES, "write_zeroes"},
		{RDMABLK_EXP_ROTATIONAL, "rotational"},
	};
	json list = json::array();
	for (const auto &[bit, name] : names)
		if (flags & bit)
			list.push_back(name);
	return list;
}

} // namespace

json listener_json(const nl::Listener &listener)
{
	return {{"address", listener.addr},
		{"port", listener.port},
		{"state", nl::listener_state_name(listener.state)}};
}

json export_json(const nl::Export &exp, bool configured)
{
	return {{"name", exp.name},
		{"path", exp.path},
		{"uuid", nl::to_string(exp.uuid)},
		{"read_only", exp.read_only},
		{"allow", uuids_json(exp.allowed_hosts)},
		{"auth_required", exp.auth_required},
		{"size", exp.size},
		{"logical_block_size", exp.logical_block_size},
		{"physical_block_size", exp.physical_block_size},
		{"connections", exp.nr_connections},
		{"state", "active"},
		{"configured", configured}};
}

json pending_export_json(const ExportConfig &exp, const RetryEntry *retry, Time now)
{
	return {{"name", exp.name},
		{"path", exp.path},
		{"uuid", exp.uuid ? json(nl::to_string(*exp.uuid)) : json(nullptr)},
		{"read_only", exp.read_only},
		{"allow", uuids_json(exp.allow)},
		{"auth_required", exp.auth_required},
		{"size", 0},
		{"logical_block_size", 0},
		{"physical_block_size", 0},
		{"connections", 0},
		{"state", "pending"},
		{"configured", true},
		{"retry_in_ms", retry_in_ms(retry, now)},
		{"last_error", last_error_json(retry)}};
}

json path_json(const nl::PathInfo &p)
{
	return {{"id", p.id},
		{"address", p.target.addr},
		{"port", p.target.port},
		{"state", nl::dev_state_name(p.state)},
		{"standby", p.standby},
		{"inflight", p.inflight},
		{"latency_us", p.latency_us},
		{"commands", p.commands},
		{"completed", p.completed},
		{"errors", p.errors},
		{"requeued", p.requeued},
		{"failovers", p.failovers},
		{"last_failover_ms", p.failovers ? json(p.failover_age_ms) : json(nullptr)},
		{"reconnect_attempt", p.reconnect_attempt},
		{"next_attempt_ms", p.next_attempt_ms},
		{"reconnects", p.reconnects},
		{"last_error", p.last_error ? json(*p.last_error) : json(nullptr)}};
}

namespace {

/* A configured path the device lacks: "state": "pending", "id" and the counters null. */
json pending_path_json(const nl::Endpoint &path, bool standby, const RetryEntry *retry, Time now)
{
	nl::PathInfo p;
	p.target = path;
	p.standby = standby;
	json out = path_json(p);
	for (const char *key : {"id", "inflight", "latency_us", "commands", "completed", "errors",
				"requeued", "failovers", "reconnect_attempt", "next_attempt_ms",
				"reconnects"})
		out[key] = nullptr;
	out["state"] = "pending";
	out["retry_in_ms"] = retry_in_ms(retry, now);
	out["last_error"] = last_error_json(retry);
	return out;
}

json policy_json(std::uint32_t policy)
{
	return policy ? json(nl::mp_policy_name(policy)) : json(nullptr);
}

} // namespace

void add_pending_paths(json &device, const AttachmentConfig &a, const nl::Device &dev,
		       const RetryBook &book, Time now)
{
	if (dev.paths.empty())
		return;
	json &paths = device["paths"];
	for (const nl::Endpoint &path : all_paths(a))
		if (!find_path(dev, path))
			paths.push_back(pending_path_json(
				path, is_standby(a, path),
				book.find(path_key(a.target, a.export_name, path)), now));
}

json device_json(const nl::Device &dev, bool managed)
{
	json paths = json::array();
	for (const nl::PathInfo &p : dev.paths)
		paths.push_back(path_json(p));
	return {{"device", "/dev/" + dev.name},
		{"index", dev.index},
		{"address", dev.target.addr},
		{"port", dev.target.port},
		{"export", dev.export_name},
		{"uuid", nl::to_string(dev.uuid)},
		{"size", dev.size},
		{"logical_block_size", dev.logical_block_size},
		{"physical_block_size", dev.physical_block_size},
		{"read_only", dev.read_only},
		{"queues", dev.nr_queues},
		{"poll_queues", dev.nr_poll_queues},
		{"queue_depth", dev.queue_depth},
		{"state", nl::dev_state_name(dev.state)},
		{"reconnect_delay", dev.reconnect_delay},
		{"ctrl_loss_tmo", dev.ctrl_loss_tmo},
		{"fast_io_fail_tmo", dev.fast_io_fail_tmo},
		{"keepalive_tmo", dev.keepalive_tmo},
		{"auth", nl::auth_mode_name(dev.auth)},
		{"reconnect_attempt", dev.reconnect_attempt},
		{"reconnect_max", dev.reconnect_max},
		{"next_attempt_ms", dev.next_attempt_ms},
		{"last_error", dev.last_error ? json(*dev.last_error) : json(nullptr)},
		{"managed", managed},
		{"policy", policy_json(dev.mp_policy)},
		{"paths", paths}};
}

namespace {

/* "sha256", "sha384", "sha512" for the kernel's enum rdmablk_auth_hmac. */
std::string hmac_text(std::uint32_t hmac)
{
	switch (hmac) {
	case RDMABLK_AUTH_HMAC_SHA256:
	case RDMABLK_AUTH_HMAC_SHA384:
	case RDMABLK_AUTH_HMAC_SHA512:
		return std::string(auth::hash_name(static_cast<auth::Hash>(hmac)));
	default:
		return "unknown (" + std::to_string(hmac) + ")";
	}
}

/* The authentication @a asks for, named as the kernel's auth_mode_name(). */
std::string configured_auth(const AttachmentConfig &a)
{
	if (!a.key_file)
		return nl::auth_mode_name(RDMABLK_AUTH_MODE_NONE);
	return nl::auth_mode_name(a.target_key_file ? RDMABLK_AUTH_MODE_MUTUAL
						    : RDMABLK_AUTH_MODE_HOST);
}

} // namespace

json host_json(const nl::Host &host, const HostConfig *configured)
{
	return {{"id", nl::to_string(host.hostid)},
		{"hmac", hmac_text(host.hmac)},
		{"mutual", host.target_hmac != 0},
		{"key_file", configured ? json(configured->key_file) : json(nullptr)},
		{"target_key_file", configured && configured->target_key_file
					    ? json(*configured->target_key_file)
					    : json(nullptr)},
		{"auth_ok", host.auth_ok},
		{"auth_failed", host.auth_failed},
		{"state", "active"},
		{"configured", configured != nullptr}};
}

json pending_host_json(const HostConfig &host, const RetryEntry *retry, Time now)
{
	return {{"id", nl::to_string(host.id)},
		{"hmac", nullptr},
		{"mutual", host.target_key_file.has_value()},
		{"key_file", host.key_file},
		{"target_key_file", host.target_key_file ? json(*host.target_key_file)
							 : json(nullptr)},
		{"auth_ok", 0},
		{"auth_failed", 0},
		{"state", "pending"},
		{"configured", true},
		{"retry_in_ms", retry_in_ms(retry, now)},
		{"last_error", last_error_json(retry)}};
}

json pending_json(const AttachmentConfig &a, const RetryEntry *retry, Time now)
{
	json paths = json::array();
	for (const nl::Endpoint &path : all_paths(a))
		paths.push_back(pending_path_json(path, is_standby(a, path), nullptr, now));
	return {{"device", nullptr},
		{"index", nullptr},
		{"address", a.target.addr},
		{"port", a.target.port},
		{"export", a.export_name},
		{"uuid", nullptr},
		{"size", nullptr},
		{"logical_block_size", nullptr},
		{"physical_block_size", nullptr},
		{"read_only", nullptr},
		{"queues", optional_json(a.queues)},
		{"poll_queues", optional_json(a.poll_queues)},
		{"queue_depth", optional_json(a.queue_depth)},
		{"state", "pending"},
		{"reconnect_delay", optional_json(a.reconnect_delay)},
		{"ctrl_loss_tmo", optional_json(a.ctrl_loss_tmo)},
		{"fast_io_fail_tmo", optional_json(a.fast_io_fail_tmo)},
		{"keepalive_tmo", optional_json(a.keepalive_tmo)},
		{"auth", configured_auth(a)},
		{"reconnect_attempt", retry ? retry->attempts : 0},
		{"reconnect_max", 0},
		{"next_attempt_ms", retry_in_ms(retry, now)},
		{"retry_in_ms", retry_in_ms(retry, now)},
		{"last_error", last_error_json(retry)},
		{"managed", true},
		{"policy", policy_json(a.policy.value_or(0))},
		{"paths", paths}};
}

std::optional<IoStats> parse_block_stat(std::string_view text)
{
	/* Documentation/block/stat.rst: reads, merges, sectors, ticks, writes, merges, sectors. */
	std::istringstream in{std::string(text)};
	std::uint64_t f[7];
	for (std::uint64_t &field : f)
		if (!(in >> field))
			return std::nullopt;
	return IoStats{f[0], f[4], f[2] * 512, f[6] * 512};
}

std::optional<IoStats> read_io_stats(const std::string &dev_name)
{
	if (dev_name.empty() || dev_name.find('/') != std::string::npos)
		return std::nullopt;
	try {
		if (std::optional<std::string> text =
			    nl::read_file("/sys/block/" + dev_name + "/stat", 4096))
			return parse_block_stat(*text);
	} catch (const std::exception &) {
	}
	return std::nullopt;
}

json status_json(const nl::Device &dev, bool managed, const std::optional<IoStats> &io)
{
	json out = device_json(dev, managed);
	json queues = json::array();
	for (const nl::QueueInfo &q : dev.queues)
		queues.push_back({{"id", q.id},
				  {"state", nl::queue_state_name(q.state)},
				  {"commands", q.commands},
				  {"errors", q.errors},
				  {"completed", q.completed},
				  {"requeued", q.requeued},
				  {"read_bytes", q.read_bytes},
				  {"write_bytes", q.write_bytes},
				  {"latency_us", q.latency_us}});
	out["queues_detail"] = std::move(queues);
	out["reconnects"] = dev.reconnects;
	if (io)
		out["io"] = {{"reads", io->reads},
			     {"writes", io->writes},
			     {"read_bytes", io->read_bytes},
			     {"write_bytes", io->write_bytes}};
	else
		out["io"] = nullptr;
	return out;
}

json discovery_json(const nl::Endpoint &target, const proto::DiscLog &log, std::uint32_t auth_mode)
{
	json exports = json::array();
	for (const proto::DiscEntry &e : log.entries)
		exports.push_back({{"name", e.name},
				   {"uuid", nl::to_string(nl::Uuid{e.uuid})},
				   {"size", e.size},
				   {"logical_block_size", e.logical_block_size},
				   {"physical_block_size", e.physical_block_size},
				   {"read_only", (e.flags & RDMABLK_EXP_READ_ONLY) != 0},
				   {"flags", export_flags_json(e.flags)}});
	return {{"target", nl::to_string(target)},
		{"address", target.addr},
		{"port", target.port},
		{"generation", log.generation},
		{"auth", nl::auth_mode_name(auth_mode)},
		{"exports", exports}};
}

} // namespace rdmablk::daemon
