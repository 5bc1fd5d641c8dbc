// SPDX-License-Identifier: GPL-2.0
/*
 * Who may use the control socket: root only. The socket's mode (0600) is
 * the first guard; the peer's credentials (SO_PEERCRED) the second, for a
 * socket systemd created with another mode or a directory opened up by
 * mistake.
 */
#pragma once

#include <optional>

#include <sys/types.h>

#include "ctl/protocol.hpp"

namespace rdmablk::daemon {

/* The uid of the process at the other end of UNIX socket @fd; nullopt when unknown. */
std::optional<uid_t> peer_uid(int fd);

/* nullopt when @uid may send requests; else the answer to give before closing. */
std::optional<ctl::Response> refuse_peer(std::optional<uid_t> uid);

} // namespace rdmablk::daemon
