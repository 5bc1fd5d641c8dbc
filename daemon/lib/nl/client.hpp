// SPDX-License-Identifier: GPL-2.0
/*
 * Typed rdmablk requests over a Transport.
 */
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "nl/endpoint.hpp"
#include "nl/transport.hpp"
#include "nl/types.hpp"

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

	/* Send a request built by hand and return the replies, unparsed. */
	std::vector<Msg> request(nl_msg &msg, std::string_view what);

private:
	std::unique_ptr<Transport> transport_;
	int family_;
};

} // namespace rdmablk::nl
