// SPDX-License-Identifier: GPL-2.0
/*
 * This host's id, the one it attaches with and targets allow: created once
 * in /etc/rdmablk/hostid and kept from then on.
 */
#pragma once

#include <string>

#include "nl/uuid.hpp"

namespace rdmablk::daemon {

struct HostIdentity {
	nl::Uuid id;
	bool created = false; /* written by this call */
};

/*
 * The UUID in @path; when the file does not exist, a new random (version
 * 4) UUID is written there first, mode 0644. Throws std::runtime_error
 * naming the file when it holds something else or cannot be written.
 */
HostIdentity ensure_hostid(const std::string &path);

} // namespace rdmablk::daemon
