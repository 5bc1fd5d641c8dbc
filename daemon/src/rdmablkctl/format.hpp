// SPDX-License-Identifier: GPL-2.0
/*
 * rdmablkd's answers as rdmablkctl prints them: the result object as JSON,
 * or tables and lines for people. Fields that are missing or of another
 * type print as "-" instead of failing.
 */
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace rdmablk::rdmablkctl {

/* @result pretty-printed, field names as docs/control-socket.md has them. */
std::string format_json(const nlohmann::json &result);

/* The text output of command @cmd (the request's "cmd") given its @result. */
std::string format_text(const std::string &cmd, const nlohmann::json &result);

/* DEVICE TARGET EXPORT SIZE STATE QUEUES, one row per device. */
std::string device_table(const nlohmann::json &devices);

/* One block per device status, separated by blank lines. */
std::string status_blocks(const nlohmann::json &devices);

/* "live", "reconnecting: attempt 3 of 60, next in 10 s, last error: ...", ... */
std::string state_text(const nlohmann::json &device);

/* NAME PATH SIZE MODE ALLOW CONNECTIONS, one row per export. */
std::string export_table(const nlohmann::json &exports);

/* host list: a table of the hosts the target holds keys for, never a key. */
std::string host_table(const nlohmann::json &hosts);

/*
 * "target 192.0.2.1:7471, generation 3, 2 exports", then NAME UUID SIZE
 * BLOCK FLAGS, one row per export a target offers.
 */
std::string discovery_text(const nlohmann::json &result);

/* discovery list: one row per discovery address. */
std::string discovery_list_text(const nlohmann::json &discoveries);

} // namespace rdmablk::rdmablkctl
