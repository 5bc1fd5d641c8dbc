// SPDX-License-Identifier: GPL-2.0
/*
 * The objects of the control protocol (docs/control-socket.md) as JSON:
 * listeners, exports, devices, pending attachments and device status.
 */
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <linux/rdmablk.h>
#include <nlohmann/json.hpp>

#include "config/config.hpp"
#include "nl/endpoint.hpp"
#include "nl/types.hpp"
#include "proto/disc.hpp"
#include "engine/retry.hpp"

namespace rdmablk::daemon {

nlohmann::json listener_json(const nl::Listener &listener);

/* @configured: the configuration names it (rdmablkd keeps it up). */
nlohmann::json export_json(const nl::Export &exp, bool configured);

/* A configured export the kernel does not have (yet): "state": "pending". */
nlohmann::json pending_export_json(const ExportConfig &exp, const RetryEntry *retry, Time now);

/*
 * A host the target holds keys for: "id", "hmac", "mutual" (the target
 * proves itself too), "key_file" and "target_key_file" (from @configured,
 * null when not configured), "auth_ok", "auth_failed", "state": "active",
 * "configured". Never a key.
 */
nlohmann::json host_json(const nl::Host &host, const HostConfig *configured);
/* A configured host the kernel holds no keys for (yet): "state": "pending", "hmac": null. */
nlohmann::json pending_host_json(const HostConfig &host, const RetryEntry *retry, Time now);

/*
 * @managed: the configuration names it (rdmablkd keeps it attached).
 * "policy" (null from a module without multipath) and "paths": each
 * path_json().
 */
nlohmann::json device_json(const nl::Device &dev, bool managed);

/*
 * A path of a device: "id", "address", "port", "state", "standby",
 * "inflight", "latency_us", "commands", "completed", "errors",
 * "requeued", "failovers", "last_failover_ms" (null before the first),
 * "reconnect_attempt", "next_attempt_ms", "reconnects", "last_error".
 */
nlohmann::json path_json(const nl::PathInfo &path);

/*
 * To @device, the JSON of @dev, the paths of attachment @a that @dev
 * lacks: "state": "pending", with "retry_in_ms" and "last_error" of
 * their retries in @book. Nothing from a module without multipath.
 */
void add_pending_paths(nlohmann::json &device, const AttachmentConfig &a, const nl::Device &dev,
		       const RetryBook &book, Time now);

/*
 * A configured attachment the kernel has no device for: "state": "pending",
 * "device": null; its configured paths pending too.
 */
nlohmann::json pending_json(const AttachmentConfig &attachment, const RetryEntry *retry,
			    Time now);

/*
 * The export list @target gave by discovery: "target", "address", "port",
 * "generation", "auth" (how the session authenticated: "none", "host",
 * "mutual"; auth_mode_name()) and "exports" [{"name", "uuid", "size", "logical_block_size",
 * "physical_block_size", "read_only", "flags": ["read_only", "flush", ...]}].
 */
nlohmann::json discovery_json(const nl::Endpoint &target, const proto::DiscLog &log,
			      std::uint32_t auth_mode = RDMABLK_AUTH_MODE_NONE);

/* Counters of /sys/block/NAME/stat. */
struct IoStats {
	std::uint64_t reads = 0;
	std::uint64_t writes = 0;
	std::uint64_t read_bytes = 0;
	std::uint64_t write_bytes = 0;

	bool operator==(const IoStats &) const = default;
};

/* The content of a /sys/block/NAME/stat file; nullopt when it is not one. */
std::optional<IoStats> parse_block_stat(std::string_view text);

/* /sys/block/@dev_name/stat read and parsed; nullopt when it cannot be. */
std::optional<IoStats> read_io_stats(const std::string &dev_name);

/* device_json() plus "queues_detail", "reconnects" and "io" (null when unknown). */
nlohmann::json status_json(const nl::Device &dev, bool managed, const std::optional<IoStats> &io);

} // namespace rdmablk::daemon
