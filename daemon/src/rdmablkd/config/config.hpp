// SPDX-License-Identifier: GPL-2.0
/*
 * rdmablkd's desired state: what /etc/rdmablk/rdmablk.conf asks for
 * (rdmablk.conf(5)), as plain values, and the TOML text it is kept in.
 */
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "nl/endpoint.hpp"
#include "nl/uuid.hpp"

namespace rdmablk::daemon {

inline constexpr const char *default_config_path = "/etc/rdmablk/rdmablk.conf";

/* [[listener]]: serve exports on this address. */
struct ListenerConfig {
	nl::Endpoint endpoint;

	bool operator==(const ListenerConfig &) const = default;
};

/* [[export]]: serve a block device under a name. */
struct ExportConfig {
	std::string name;
	std::string path;
	/* Generated and written back when the file gives none. */
	std::optional<nl::Uuid> uuid;
	bool read_only = false;
	/* Host ids that may attach; empty: every host. */
	std::vector<nl::Uuid> allow;
	/* Only hosts that authenticate (a [[host]] key) may open it or see it listed. */
	bool auth_required = false;

	bool operator==(const ExportConfig &) const = default;
};

/*
 * [[host]]: on the target, a host that authenticates with a key. The keys
 * stay in their files (RDMABLK-1: lines, no access for group or others);
 * rdmablkd reads them when it hands them to the kernel, and they appear
 * nowhere else.
 */
struct HostConfig {
	nl::Uuid id;
	/* The key the host proves itself with. */
	std::string key_file;
	/* The key the target proves itself with, when the host asks. */
	std::optional<std::string> target_key_file;

	bool operator==(const HostConfig &) const = default;
};

/* [[attachment]]: attach an export of a target as /dev/rdmablkN. Unset: the kernel's default. */
struct AttachmentConfig {
	nl::Endpoint target;
	std::string export_name;
	std::optional<std::uint32_t> queues;
	std::optional<std::uint32_t> poll_queues;
	std::optional<std::uint32_t> queue_depth;
	std::optional<std::uint32_t> reconnect_delay;
	std::optional<std::int32_t> ctrl_loss_tmo;
	std::optional<std::int32_t> fast_io_fail_tmo;
	std::optional<std::uint32_t> keepalive_tmo;
	/* This host's key, and the target's (mutual authentication); files as for [[host]]. */
	std::optional<std::string> key_file;
	std::optional<std::string> target_key_file;
	/* Multipath: the target's other addresses, each a path of the device besides target. */
	std::vector<nl::Endpoint> paths = {};
	/* Of target and paths, those used only while no other path is live. */
	std::vector<nl::Endpoint> standby = {};
	/* Which live path a request goes on: enum rdmablk_mp_policy; unset: the kernel's. */
	std::optional<std::uint32_t> policy = {};

	bool operator==(const AttachmentConfig &) const = default;
};

/* @a reaches its export through @endpoint: its target or one of its paths. */
bool has_path(const AttachmentConfig &a, const nl::Endpoint &endpoint);
/* @endpoint is one of @a's standby paths. */
bool is_standby(const AttachmentConfig &a, const nl::Endpoint &endpoint);
/* @a is the attachment of @export_name through @target, its first path or another. */
bool same_attachment(const AttachmentConfig &a, const nl::Endpoint &target,
		     std::string_view export_name);
/*
 * Make @endpoint a path of @a (when it is none yet) and mark it standby or
 * not as @standby says (unset: as it is).
 */
void add_path(AttachmentConfig &a, const nl::Endpoint &endpoint, std::optional<bool> standby);
/*
 * Forget path @endpoint of @a; when it is the target, the first other path
 * becomes the target. False when it is @a's only path.
 */
bool remove_path(AttachmentConfig &a, const nl::Endpoint &endpoint);

/*
 * [[discovery]]: keep a discovery session with a target and attach what it
 * offers this host. An entry of @attach is an export name or an export
 * UUID (kept in canonical lower-case form).
 */
struct DiscoveryConfig {
	nl::Endpoint target;
	/* true: every export offered; else those named in @attach. */
	bool attach_all = true;
	std::vector<std::string> attach;
	/* The per-attachment settings (target and export_name unused). */
	AttachmentConfig settings;

	bool operator==(const DiscoveryConfig &) const = default;
};

/* [daemon]: seconds. */
struct DaemonSettings {
	/* Backoff for what cannot be set up now: first wait, doubling up to retry_max. */
	std::uint32_t retry_initial = 1;
	std::uint32_t retry_max = 60;
	/* A full comparison with the kernel at least this often; 0: only on events. */
	std::uint32_t check_interval = 60;

	bool operator==(const DaemonSettings &) const = default;
};

struct Config {
	DaemonSettings daemon;
	std::vector<ListenerConfig> listeners;
	std::vector<HostConfig> hosts;
	std::vector<ExportConfig> exports;
	std::vector<AttachmentConfig> attachments;
	std::vector<DiscoveryConfig> discoveries;

	bool operator==(const Config &) const = default;
};

/* A file that is not a valid configuration; what() reads "FILE:LINE:COLUMN: problem". */
class ConfigError : public std::runtime_error {
public:
	using runtime_error::runtime_error;
};

/*
 * Parse configuration text @text read from @file (named in messages).
 * Throws ConfigError at the first problem: TOML syntax, an unknown key or
 * table, a value of the wrong type or out of range, a duplicate.
 */
Config parse_config(std::string_view text, const std::string &file);

/* @config as TOML, with the explanatory header rdmablk.conf(5) describes; parse_config() reads it back equal. */
std::string format_config(const Config &config);

/* Where the configuration lives: --config, else $RDMABLK_CONFIG, else default_config_path. */
std::string config_path(const std::optional<std::string> &option);

/*
 * The configuration in @path; an empty Config when the file does not
 * exist. Throws ConfigError (also for a file that cannot be read).
 */
Config load_config(const std::string &path);
/* The text of @path; nullopt when it does not exist. Throws ConfigError. */
std::optional<std::string> read_config_text(const std::string &path);

/* Write @config to @path atomically (rdmablk::daemon::write_atomic), mode 0644. */
void save_config(const std::string &path, const Config &config);
/* The same for configuration text already formatted. */
void save_config_text(const std::string &path, std::string_view text);

/*
 * Lookups by identity: listener endpoint, export name, attachment target
 * (or another of its paths) and export.
 */
const ListenerConfig *find_listener(const Config &config, const nl::Endpoint &endpoint);
const ExportConfig *find_export(const Config &config, std::string_view name);
const HostConfig *find_host(const Config &config, const nl::Uuid &id);
const AttachmentConfig *find_attachment(const Config &config, const nl::Endpoint &target,
					std::string_view export_name);
const DiscoveryConfig *find_discovery(const Config &config, const nl::Endpoint &target);

/*
 * One item of a discovery's attach list: an export UUID in canonical form,
 * or an export name; throws std::invalid_argument saying what is wrong.
 */
std::string canonical_attach_item(std::string_view item);

} // namespace rdmablk::daemon
