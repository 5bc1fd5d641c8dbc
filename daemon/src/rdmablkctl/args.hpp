// SPDX-License-Identifier: GPL-2.0
/*
 * Checking command-line arguments before anything is sent to rdmablkd. Each
 * function throws std::invalid_argument with a message that quotes the bad
 * text and says what is wrong.
 */
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace rdmablk::rdmablkctl {

/* "ADDR[:PORT]" as {"address", "port"}, the port defaulting to 7471. */
nlohmann::json endpoint_args(std::string_view text);

/* An export name: 1 to 63 of [A-Za-z0-9._:-]. */
std::string export_name(std::string_view text);

/* A block device path, made absolute against the current directory. */
std::string export_path(std::string_view text);

/*
 * A key file's path, made absolute against the current directory: rdmablkd
 * reads it. Its content is never read here.
 */
std::string key_file_arg(std::string_view option, std::string_view text);

/* A UUID (--allow host id, --uuid) in canonical lowercase form. */
std::string uuid_arg(std::string_view text);

/*
 * The disk @text names, as "/dev/rdmablkN". "N", "rdmablkN" and "/dev/rdmablkN"
 * are taken as written, whether or not the node exists; any other text with a
 * '/' is a path, resolved with every link followed, that must lead to a disk
 * rdmablkN in @dev: /dev/rdmablk/NAME, /dev/disk/by-id/rdmablk-NAME-UUID. A
 * partition of one is refused. @dev is where the disks' nodes are, "/dev"
 * but for tests.
 */
std::string device_path(std::string_view text, const std::filesystem::path &dev = "/dev");

/*
 * The decimal integer @text given to @option, within [@min, @max]; -1 is
 * also accepted when @off_allowed.
 */
long long integer_arg(std::string_view option, std::string_view text, long long min, long long max,
		      bool off_allowed = false);

/*
 * The decimal number of seconds @text given to @option ("2", "0.5"), from
 * 0.1 to a day, to the millisecond.
 */
std::chrono::milliseconds interval_arg(std::string_view option, std::string_view text);

} // namespace rdmablk::rdmablkctl
