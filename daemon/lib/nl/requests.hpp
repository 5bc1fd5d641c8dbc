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
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "nl/endpoint.hpp"
#include "nl/message.hpp"
#include "nl/uuid.hpp"

namespace rdmablk::nl {

/* What RDMABLK_CMD_ATTACH asks for. */
struct AttachArgs {
	Endpoint target;
	std::string export_name;
	Uuid hostid;
	/* Left to the module when not given. */
	std::optional<std::uint32_t> nr_queues;
	std::optional<std::uint32_t> nr_poll_queues = {};
	std::optional<std::uint32_t> queue_depth;
	/* Recovery settings, seconds; see DevSetArgs. */
	std::optional<std::uint32_t> reconnect_delay = {};
	std::optional<std::int32_t> ctrl_loss_tmo = {};
	std::optional<std::int32_t> fast_io_fail_tmo = {};
	std::optional<std::uint32_t> keepalive_tmo = {};
	/* Which live path a request goes on: enum rdmablk_mp_policy. */
	std::optional<std::uint32_t> mp_policy = {};
	/*
	 * Authentication, borrowed (they must outlive the request): this
	 * host's secret, empty for none, and the target's secret for this
	 * host, empty to not have the target prove itself.
	 */
	std::span<const std::uint8_t> key = {};
	std::span<const std::uint8_t> target_key = {};
};

/* What RDMABLK_CMD_DEV_SET changes: the settings given, timeouts in seconds. */
struct DevSetArgs {
	std::optional<std::uint32_t> reconnect_delay = {};
	std::optional<std::int32_t> ctrl_loss_tmo = {};    /* RDMABLK_TMO_OFF: never give up */
	std::optional<std::int32_t> fast_io_fail_tmo = {}; /* RDMABLK_TMO_OFF: off */
	std::optional<std::uint32_t> keepalive_tmo = {};
	std::optional<std::uint32_t> mp_policy = {}; /* enum rdmablk_mp_policy */
	/*
	 * New keys for the next connections, borrowed as in AttachArgs; key
	 * empty: the keys stay as they are.
	 */
	std::span<const std::uint8_t> key = {};
	std::span<const std::uint8_t> target_key = {};
};

/*
 * A path of /dev/rdmablk@index, named by its target, for RDMABLK_CMD_PATH_ADD,
 * _DEL and _SET. standby: the path is used only while no other path is
 * live; PATH_ADD leaves it to the module when not given, PATH_DEL takes
 * none and PATH_SET needs it (the module refuses the request otherwise).
 */
struct PathArgs {
	std::uint32_t index;
	Endpoint target;
	std::optional<bool> standby = {};
};

/* A request header only: command @cmd with netlink flags @flags (NLM_F_*). */
Msg build_request(int family, std::uint8_t cmd, int flags);

Msg build_get_info(int family);
Msg build_listen_add(int family, const Endpoint &endpoint);
Msg build_listen_del(int family, const Endpoint &endpoint);
/* A dump request: one reply per listener. */
Msg build_listen_get(int family);

/*
 * @allowed_hosts empty: every host may connect. @auth_required: only hosts
 * that authenticate may open it or see it listed.
 */
Msg build_export_add(int family, std::string_view name, std::string_view path, const Uuid &uuid,
		     bool read_only, const std::vector<Uuid> &allowed_hosts = {},
		     bool auth_required = false);
Msg build_export_del(int family, std::string_view name);
/* A dump request: one reply per export. */
Msg build_export_get(int family);

Msg build_attach(int family, const AttachArgs &args);
/* Detach /dev/rdmablk@index. */
Msg build_detach(int family, std::uint32_t index);
/* Change the recovery settings or path policy of /dev/rdmablk@index. */
Msg build_dev_set(int family, std::uint32_t index, const DevSetArgs &args);
/* Have /dev/rdmablk@index try to reconnect now. */
Msg build_reconnect(int family, std::uint32_t index);
/* A dump request: one reply per attached device. */
Msg build_dev_get(int family);

/* Add a path to a device; the reply is the device. */
Msg build_path_add(int family, const PathArgs &args);
/* Remove a path of a device; its requests go to the others. */
Msg build_path_del(int family, const PathArgs &args);
/* Mark a path of a device standby or active. */
Msg build_path_set(int family, const PathArgs &args);

/*
 * The target's keys for host @hostid: @key, and @target_key (empty: none)
 * to prove itself to it; @reauth: close the host's live connections too,
 * so that they authenticate again. The message holds the secrets:
 * wipe_msg() it.
 */
Msg build_host_set(int family, const Uuid &hostid, std::span<const std::uint8_t> key,
		   std::span<const std::uint8_t> target_key = {}, bool reauth = false);
Msg build_host_del(int family, const Uuid &hostid);
/* A dump request: one reply per host the target holds keys for. */
Msg build_host_get(int family);

} // namespace rdmablk::nl
