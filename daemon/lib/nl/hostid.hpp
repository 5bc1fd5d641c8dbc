// SPDX-License-Identifier: GPL-2.0
/*
 * This host's identity as an initiator (RDMABLK_ATTR_HOSTID): what a target
 * knows it by across reboots and reattachments.
 */
#pragma once

#include <string>

#include "nl/uuid.hpp"

namespace rdmablk::nl {

/* Written by the administrator: one UUID in canonical form. */
inline constexpr const char *hostid_path = "/etc/rdmablk/hostid";
/* systemd's machine ID: 32 hex digits. */
inline constexpr const char *machine_id_path = "/etc/machine-id";

/*
 * The UUID in @hostid_file when it exists; else one derived from the
 * machine ID in @machine_id_file (its 128 bits, with the version 4 and
 * RFC 4122 variant bits set), the same on every call. Surrounding
 * whitespace is ignored. Throws std::runtime_error naming the file when the
 * one used holds something else, and Error when neither exists or one
 * cannot be read.
 */
Uuid read_hostid(const std::string &hostid_file = hostid_path,
		 const std::string &machine_id_file = machine_id_path);

} // namespace rdmablk::nl
