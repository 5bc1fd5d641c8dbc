// SPDX-License-Identifier: GPL-2.0
/*
 * The request of each command, built from the raw command line and checked;
 * each throws std::invalid_argument naming what is wrong.
 */
#pragma once

#include <functional>

#include "ctl/protocol.hpp"
#include "raw.hpp"

namespace rdmablk::rdmablkctl {

/* A builder of the request @cmd, which takes no arguments. */
std::function<ctl::Request(const Raw &)> without_args(const char *cmd);

ctl::Request listen_request(const Raw &raw);
ctl::Request unlisten_request(const Raw &raw);
ctl::Request export_del_request(const Raw &raw);
ctl::Request status_request(const Raw &raw);
ctl::Request discover_request(const Raw &raw);
ctl::Request discovery_add_request(const Raw &raw);
ctl::Request discovery_del_request(const Raw &raw);
ctl::Request attach_request(const Raw &raw);
ctl::Request export_add_request(const Raw &raw);
/*
 * host add HOSTID --key-file FILE [--target-key-file FILE] [--reauth];
 * host del HOSTID.
 */
ctl::Request host_add_request(const Raw &raw);
ctl::Request host_del_request(const Raw &raw);
/* By DEVICE, or by ADDR[:PORT] NAME. */
ctl::Request detach_request(const Raw &raw);
ctl::Request reconnect_request(const Raw &raw);
ctl::Request dev_set_request(const Raw &raw);
/*
 * path add DEVICE ADDR[:PORT] [--standby], path del DEVICE ADDR[:PORT],
 * path set DEVICE ADDR[:PORT] --standby|--active.
 */
ctl::Request path_add_request(const Raw &raw);
ctl::Request path_del_request(const Raw &raw);
ctl::Request path_set_request(const Raw &raw);
/* key generate, run by rdmablkctl itself: {"hmac": "sha256"|"sha384"|"sha512"}. */
ctl::Request key_generate_request(const Raw &raw);

} // namespace rdmablk::rdmablkctl
