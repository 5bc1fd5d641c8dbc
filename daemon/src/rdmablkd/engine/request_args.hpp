// SPDX-License-Identifier: GPL-2.0
/*
 * The "args" of control requests, checked and typed. A missing or
 * malformed argument, or one the command does not take, is an ArgError
 * whose message names it; the daemon answers invalid-argument. A null
 * value counts as absent.
 */
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "config/config.hpp"

namespace rdmablk::daemon {

class ArgError : public std::runtime_error {
public:
	using runtime_error::runtime_error;
};

/* Fails unless every key of @args is one of @known. */
void only_args(const nlohmann::json &args, std::initializer_list<std::string_view> known);

/* listen, unlisten: "address", "port" (default 7471). */
nl::Endpoint endpoint_args(const nlohmann::json &args);

/* export_add: "name", "path", "read_only", "allow", "uuid", "auth_required". */
ExportConfig export_args(const nlohmann::json &args);

/* export_del: "name". */
std::string export_name_args(const nlohmann::json &args);

/*
 * host_add: "id", "key_file", "target_key_file" (optional); absolute paths;
 * "reauth" (optional, bool), which host_reauth_arg() reads.
 */
HostConfig host_args(const nlohmann::json &args);
bool host_reauth_arg(const nlohmann::json &args);

/* host_del: "id". */
nl::Uuid host_id_args(const nlohmann::json &args);

/*
 * attach: "address", "port", "export", the settings of attach_settings(),
 * "key_file" and "target_key_file" (absolute paths; the second needs the
 * first), "policy" (a path policy by name), "paths" and "standby" (arrays
 * of "ADDR[:PORT]" strings, as check_paths() wants them).
 */
AttachmentConfig attach_args(const nlohmann::json &args);

/*
 * path_add, path_del, path_set: "device" (as for detach, by name or
 * number only), "address", "port" (default 7471) of the path, and
 * "standby": true or false, which path_set needs, path_add may give and
 * path_del does not take.
 */
struct PathArgs {
	std::uint32_t index = 0;
	nl::Endpoint path;
	std::optional<bool> standby;
};
enum class PathStandby { none, optional, required };
PathArgs path_args(const nlohmann::json &args, PathStandby standby);

/* discover: "address", "port", "key_file", "target_key_file" (as for attach). */
struct DiscoverArgs {
	nl::Endpoint target;
	std::optional<std::string> key_file;
	std::optional<std::string> target_key_file;
};
DiscoverArgs discover_args(const nlohmann::json &args);

/*
 * discovery_add: "address", "port", "attach" ("all" or [names and UUIDs]),
 * attach settings, key files and policy.
 */
DiscoveryConfig discovery_args(const nlohmann::json &args);

/*
 * detach, reconnect: "device" ("/dev/rdmablkN", "rdmablkN", "N") or
 * "address", "port", "export".
 */
struct DetachTarget {
	std::optional<std::uint32_t> index;
	std::optional<AttachmentConfig> attachment; /* target and export only */
};
DetachTarget detach_args(const nlohmann::json &args);

/*
 * dev_set: the device as for detach, and at least one of "reconnect_delay",
 * "ctrl_loss_tmo", "fast_io_fail_tmo", "keepalive_tmo" (the rules of
 * attach_settings()) and "policy", set in @settings; its target and export
 * stay empty.
 */
struct DevSetArgs {
	DetachTarget device;
	AttachmentConfig settings;
};
DevSetArgs dev_set_args(const nlohmann::json &args);

/* status: optional "device". */
std::optional<std::uint32_t> status_args(const nlohmann::json &args);

} // namespace rdmablk::daemon
