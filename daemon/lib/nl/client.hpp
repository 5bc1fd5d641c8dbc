// SPDX-License-Identifier: GPL-2.0
/*
 * Typed rdmablk requests over a Transport.
 */
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "nl/endpoint.hpp"
#include "nl/requests.hpp"
#include "nl/transport.hpp"
#include "nl/types.hpp"
#include "nl/uuid.hpp"

namespace rdmablk::nl {

class Client {
public:
	/* Requests go to family @family through @transport. */
	Client(std::unique_ptr<Transport> transport, int family);

	/* A client on a new generic netlink socket; FamilyNotFound without rdmablk.ko. */
	static Client connect();

	int family() const noexcept { return family_; }

	Info get_info();
	void listen_add(const Endpoint &endpoint);
	void listen_del(const Endpoint &endpoint);
	std::vector<Listener> listen_get();

	/* @allowed_hosts empty: every host may connect. */
	void export_add(std::string_view name, std::string_view path, const Uuid &uuid,
			bool read_only, const std::vector<Uuid> &allowed_hosts = {},
			bool auth_required = false);
	void export_del(std::string_view name);
	std::vector<Export> export_get();

	/* The device the module created. */
	Device attach(const AttachArgs &args);
	/* Detach /dev/rdmablk@index. */
	void detach(std::uint32_t index);
	/* Change the recovery settings or path policy of /dev/rdmablk@index. */
	void dev_set(std::uint32_t index, const DevSetArgs &args);
	/* Have /dev/rdmablk@index, reconnecting or dead, try to reconnect now. */
	void reconnect(std::uint32_t index);
	std::vector<Device> dev_get();

	/* The device, with the path to @args.target it now has. */
	Device path_add(const PathArgs &args);
	void path_del(const PathArgs &args);
	/* Mark a path standby or active, as @args.standby says. */
	void path_set(const PathArgs &args);

	/*
	 * The target's keys for @hostid; @target_key empty: none. @reauth:
	 * the host's live connections are closed and authenticate again.
	 */
	void host_set(const Uuid &hostid, std::span<const std::uint8_t> key,
		      std::span<const std::uint8_t> target_key = {}, bool reauth = false);
	/* Forget @hostid's keys; the target closes its live connections. */
	void host_del(const Uuid &hostid);
	std::vector<Host> host_get();

	/* Send a request built by hand and return the replies, unparsed. */
	std::vector<Msg> request(nl_msg &msg, std::string_view what);

private:
	/* Send dump request @req and parse every reply with @parse. */
	template <typename Parse> auto dump(nl_msg &req, std::string_view what, Parse parse);

	std::unique_ptr<Transport> transport_;
	int family_;
};

} // namespace rdmablk::nl
