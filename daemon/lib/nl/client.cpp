// SPDX-License-Identifier: GPL-2.0
#include "nl/client.hpp"

#include <linux/rdmablk.h>

#include "nl/error.hpp"
#include "nl/replies.hpp"
#include "nl/requests.hpp"
#include "nl/socket.hpp"

namespace rdmablk::nl {

Client::Client(std::unique_ptr<Transport> transport, int family)
	: transport_(std::move(transport)), family_(family)
{
}

Client Client::connect()
{
	auto sock = std::make_unique<GenlSocket>();
	const std::optional<int> family = sock->resolve_family(RDMABLK_GENL_NAME);
	if (!family)
		throw FamilyNotFound();
	return Client(std::move(sock), *family);
}

Info Client::get_info()
{
	const Msg req = build_get_info(family_);
	std::vector<Msg> replies = transport_->transact(*req, "getting module info");
	if (replies.size() != 1)
		throw MalformedMessage("GET_INFO reply",
				       "expected 1 message, got " + std::to_string(replies.size()));
	return parse_info(*replies.front());
}

void Client::listen_add(const Endpoint &endpoint)
{
	const Msg req = build_listen_add(family_, endpoint);
	transport_->transact(*req, "adding listener " + to_string(endpoint));
}

void Client::listen_del(const Endpoint &endpoint)
{
	const Msg req = build_listen_del(family_, endpoint);
	transport_->transact(*req, "removing listener " + to_string(endpoint));
}

std::vector<Listener> Client::listen_get()
{
	const Msg req = build_listen_get(family_);
	std::vector<Listener> listeners;
	for (const Msg &reply : transport_->transact(*req, "listing listeners"))
		listeners.push_back(parse_listener(*reply));
	return listeners;
}

std::vector<Msg> Client::request(nl_msg &msg, std::string_view what)
{
	return transport_->transact(msg, what);
}

} // namespace rdmablk::nl
