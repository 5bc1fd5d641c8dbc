// SPDX-License-Identifier: GPL-2.0
/*
 * What values rdmablkd accepts, the same whether they come from the
 * configuration file or from rdmablkctl: the kernel's own limits
 * (uapi/linux/rdmablk.h), checked before a request is sent so that the
 * user hears about a mistake in the words of the file or command.
 */
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "config/config.hpp"

namespace rdmablk::daemon {

/* Each check_*() returns an empty string for a good value, else what is wrong with it. */
std::string check_address(std::string_view address);
std::string check_export_name(std::string_view name);
std::string check_export_path(std::string_view path);
/* A key file's path: absolute, as rdmablkd reads it from / whatever its directory. */
std::string check_key_file(std::string_view key, std::string_view path);
/* A target key needs the host's own key beside it (the host proves itself first). */
std::string check_key_pair(const std::optional<std::string> &key_file,
			   const std::optional<std::string> &target_key_file);

/* What is wrong with the paths of an attachment, and under which key. */
struct PathProblem {
	std::string_view key; /* "paths" or "standby" */
	std::string problem;
};

/*
 * @a's paths and standby marks: no address twice, not the target among
 * the paths, at most RDMABLK_MAX_PATHS in all, standby ones among them;
 * nullopt when all is well.
 */
std::optional<PathProblem> check_paths(const AttachmentConfig &a);

/* An integer setting and its bounds, inclusive. */
struct IntRule {
	std::string_view key;
	std::int64_t min;
	std::int64_t max;
};

/* "port must be 1 to 65535, not 0"; empty when @value is within @rule. */
std::string check_int(const IntRule &rule, std::int64_t value);

inline constexpr IntRule port_rule{"port", 1, 65535};

/* An optional setting of an attachment, known by its key in the file and in requests. */
struct AttachSetting {
	IntRule rule;
	std::optional<std::int64_t> (*get)(const AttachmentConfig &);
	void (*set)(AttachmentConfig &, std::int64_t);
};

/* queues, poll_queues, queue_depth, reconnect_delay, ctrl_loss_tmo, fast_io_fail_tmo, keepalive_tmo. */
std::span<const AttachSetting> attach_settings();

/* A [daemon] setting. */
struct DaemonSetting {
	IntRule rule;
	std::uint32_t DaemonSettings::*member;
};

/* retry_initial, retry_max, check_interval. */
std::span<const DaemonSetting> daemon_settings();

} // namespace rdmablk::daemon
