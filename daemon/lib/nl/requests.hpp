// SPDX-License-Identifier: GPL-2.0
/*
 * rdmablk requests, built without touching a socket.
 *
 * Each request is addressed to generic netlink family @family, carries
 * RDMABLK_GENL_VERSION and leaves the port and sequence number for the
 * socket to fill in.
 */
#pragma once

#include <cstdint>

#include "nl/endpoint.hpp"
#include "nl/message.hpp"

namespace rdmablk::nl {

/* A request header only: command @cmd with netlink flags @flags (NLM_F_*). */
Msg build_request(int family, std::uint8_t cmd, int flags);

Msg build_get_info(int family);
Msg build_listen_add(int family, const Endpoint &endpoint);
Msg build_listen_del(int family, const Endpoint &endpoint);
/* A dump request: one reply per listener. */
Msg build_listen_get(int family);

} // namespace rdmablk::nl
