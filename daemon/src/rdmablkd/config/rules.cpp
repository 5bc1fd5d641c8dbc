// SPDX-License-Identifier: GPL-2.0
#include "config/rules.hpp"

#include <array>

#include <linux/rdmablk.h>

#include "config/addr.hpp"
#include "proto/disc.hpp"

namespace rdmablk::daemon {

namespace {

template <auto Member> std::optional<std::int64_t> get(const AttachmentConfig &a)
{
	if (!(a.*Member))
		return std::nullopt;
	return static_cast<std::int64_t>(*(a.*Member));
}

template <auto Member> void set(AttachmentConfig &a, std::int64_t value)
{
	using T = typename std::remove_reference_t<decltype(a.*Member)>::value_type;
	a.*Member = static_cast<T>(value);
}

template <auto Member> constexpr AttachSetting setting(std::string_view key, std::int64_t min,
						       std::int64_t max)
{
	return AttachSetting{IntRule{key, min, max}, get<Member>, set<Member>};
}

constexpr std::array attach_table{
	setting<&AttachmentConfig::queues>("queues", 1, RDMABLK_MAX_QUEUES),
	setting<&AttachmentConfig::poll_queues>("poll_queues", 0, RDMABLK_MAX_QUEUES - 1),
	setting<&AttachmentConfig::queue_depth>("queue_depth", 1, RDMABLK_MAX_QUEUE_DEPTH),
	setting<&AttachmentConfig::reconnect_delay>("reconnect_delay", 1, RDMABLK_MAX_TMO),
	setting<&AttachmentConfig::ctrl_loss_tmo>("ctrl_loss_tmo", RDMABLK_TMO_OFF,
						  RDMABLK_MAX_TMO),
	setting<&AttachmentConfig::fast_io_fail_tmo>("fast_io_fail_tmo", RDMABLK_TMO_OFF,
						     RDMABLK_MAX_TMO),
	setting<&AttachmentConfig::keepalive_tmo>("keepalive_tmo", 1, 3600),
};

/* A day: longer waits would only hide a problem. */
constexpr std::int64_t max_wait = 24 * 3600;

constexpr std::array daemon_table{
	DaemonSetting{IntRule{"retry_initial", 1, max_wait}, &DaemonSettings::retry_initial},
	DaemonSetting{IntRule{"retry_max", 1, max_wait}, &DaemonSettings::retry_max},
	DaemonSetting{IntRule{"check_interval", 0, max_wait}, &DaemonSettings::check_interval},
};

} // namespace

std::string check_address(std::string_view address)
{
	if (address.empty())
		return "the address is empty";
	if (address.size() >= RDMABLK_ADDR_MAX_LEN)
		return "the address is longer than " + std::to_string(RDMABLK_ADDR_MAX_LEN - 1) +
		       " characters";
	if (!canonical_address(address))
		return std::string(1, '"').append(address).append(
			"\" is not an IPv4 or IPv6 address (names are not resolved)");
	return {};
}

std::optional<PathProblem> check_paths(const AttachmentConfig &a)
{
	for (std::size_t i = 0; i < a.paths.size(); i++) {
		const std::string path = nl::to_string(a.paths[i]);
		if (same_endpoint(a.paths[i], a.target))
			return PathProblem{"paths", "'paths' lists " + path +
							    ", the attachment's own address; list "
							    "only the target's other addresses"};
		for (std::size_t j = 0; j < i; j++)
			if (same_endpoint(a.paths[i], a.paths[j]))
				return PathProblem{"paths", path + " is listed twice in 'paths'"};
	}
	if (a.paths.size() + 1 > RDMABLK_MAX_PATHS)
		return PathProblem{"paths", "'paths' lists " + std::to_string(a.paths.size()) +
						    " addresses; a device has at most " +
						    std::to_string(RDMABLK_MAX_PATHS) +
						    " paths, its address included"};
	for (std::size_t i = 0; i < a.standby.size(); i++) {
		const std::string path = nl::to_string(a.standby[i]);
		if (!has_path(a, a.standby[i]))
			return PathProblem{"standby",
					   "'standby' lists " + path +
						   ", which is neither the attachment's address nor "
						   "in 'paths'"};
		for (std::size_t j = 0; j < i; j++)
			if (same_endpoint(a.standby[i], a.standby[j]))
				return PathProblem{"standby", path + " is listed twice in 'standby'"};
	}
	return std::nullopt;
}

std::string check_export_name(std::string_view name)
{
	if (name.empty())
		return "the export name is empty";
	if (name.size() >= RDMABLK_EXPORT_NAME_MAX)
		return "the export name is longer than " +
		       std::to_string(RDMABLK_EXPORT_NAME_MAX - 1) + " characters";
	for (char c : name) {
		if (!proto::is_export_name_char(c))
			return "the export name \"" + std::string(name) +
			       "\" may only hold letters, digits and . _ : -";
	}
	return {};
}

std::string check_export_path(std::string_view path)
{
	if (path.empty() || path.front() != '/')
		return "the export path \"" + std::string(path) +
		       "\" is not absolute (give the block device, e.g. /dev/nvme0n1)";
	if (path.size() >= RDMABLK_PATH_MAX)
		return "the export path is longer than " + std::to_string(RDMABLK_PATH_MAX - 1) +
		       " characters";
	return {};
}

std::string check_key_file(std::string_view key, std::string_view path)
{
	if (path.empty() || path.front() != '/')
		return std::string(key) + " must be an absolute path, not '" + std::string(path) +
		       "'";
	if (path.find('\0') != std::string_view::npos)
		return std::string(key) + " must not contain a NUL byte";
	return {};
}

std::string check_key_pair(const std::optional<std::string> &key_file,
			   const std::optional<std::string> &target_key_file)
{
	if (target_key_file && !key_file)
		return "target_key_file needs key_file: the host proves itself before it "
		       "asks the target to";
	return {};
}

std::string check_int(const IntRule &rule, std::int64_t value)
{
	if (value >= rule.min && value <= rule.max)
		return {};
	return std::string(rule.key) + " must be " + std::to_string(rule.min) + " to " +
	       std::to_string(rule.max) + ", not " + std::to_string(value);
}

std::span<const AttachSetting> attach_settings()
{
	return attach_table;
}

std::span<const DaemonSetting> daemon_settings()
{
	return daemon_table;
}

} // namespace rdmablk::daemon
