// SPDX-License-Identifier: GPL-2.0
#include "nl/client.hpp"

#include <linux/rdmablk.h>

#include "nl/error.hpp"
#include "nl/replies.hpp"
#include "nl/requests.hpp"
#include "nl/socket.hpp"

namespace rdmablk::nl {

namespace {

/* The one message of a reply that must have exactly one, called @what. */
nl_msg &only(const std::vector<Msg> &replies, std::string_view what)
{
	if (replies.size() != 1)
		throw MalformedMessage(what,
				       "expected 1 message, got " + std::to_string(replies.size()));
	return *replies.front();
}

/* "rdmablkN", as requests name the device they are about. */
std::string dev_name(std::uint32_t index)
{
	return "rdmablk" + std::to_string(index);
}

/* A request that carries a secret is zeroed once sent, however that went. */
struct WipeOnExit {
	nl_msg &msg;
	~WipeOnExit() { wipe_msg(msg); }
};

} // namespace

template <typename Parse> auto Client::dump(nl_msg &req, std::string_view what, Parse parse)
{
	std::vector<decltype(parse(req))> entries;
	for (const Msg &reply : transport_->transact(req, what))
		entries.push_back(parse(*reply));
	return entries;
}

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
	const std::vector<Msg> replies = transport_->transact(*req, "getting module info");
	return parse_info(only(replies, "GET_INFO reply"));
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
	return dump(*req, "listing listeners", parse_listener);
}

void Client::export_add(std::string_view name, std::string_view path, const Uuid &uuid,
			bool read_only, const std::vector<Uuid> &allowed_hosts, bool auth_required)
{
	const Msg req =
		build_export_add(family_, name, path, uuid, read_only, allowed_hosts, auth_required);
	transport_->transact(*req, "adding export " + std::string(name));
}

void Client::export_del(std::string_view name)
{
	const Msg req = build_export_del(family_, name);
	transport_->transact(*req, "removing export " + std::string(name));
}

std::vector<Export> Client::export_get()
{
	const Msg req = build_export_get(family_);
	return dump(*req, "listing exports", parse_export);
}

Device Client::attach(const AttachArgs &args)
{
	const Msg req = build_attach(family_, args);
	const WipeOnExit wipe{*req};
	const std::vector<Msg> replies = transport_->transact(
		*req, "attaching export " + args.export_name + " from " + to_string(args.target));
	return parse_attach(only(replies, "ATTACH reply"));
}

void Client::detach(std::uint32_t index)
{
	const Msg req = build_detach(family_, index);
	transport_->transact(*req, "detaching " + dev_name(index));
}

void Client::dev_set(std::uint32_t index, const DevSetArgs &args)
{
	const Msg req = build_dev_set(family_, index, args);
	const WipeOnExit wipe{*req};
	transport_->transact(*req, "changing " + dev_name(index));
}

void Client::reconnect(std::uint32_t index)
{
	const Msg req = build_reconnect(family_, index);
	transport_->transact(*req, "reconnecting " + dev_name(index));
}

std::vector<Device> Client::dev_get()
{
	const Msg req = build_dev_get(family_);
	return dump(*req, "listing devices", parse_device);
}

Device Client::path_add(const PathArgs &args)
{
	const Msg req = build_path_add(family_, args);
	const std::vector<Msg> replies = transport_->transact(
		*req, "adding path " + to_string(args.target) + " to " + dev_name(args.index));
	return parse_path_add(only(replies, "PATH_ADD reply"));
}

void Client::path_del(const PathArgs &args)
{
	const Msg req = build_path_del(family_, args);
	transport_->transact(*req, "removing path " + to_string(args.target) + " of " +
					   dev_name(args.index));
}

void Client::path_set(const PathArgs &args)
{
	const Msg req = build_path_set(family_, args);
	transport_->transact(*req, "changing path " + to_string(args.target) + " of " +
					   dev_name(args.index));
}

void Client::host_set(const Uuid &hostid, std::span<const std::uint8_t> key,
		      std::span<const std::uint8_t> target_key, bool reauth)
{
	const Msg req = build_host_set(family_, hostid, key, target_key, reauth);
	const WipeOnExit wipe{*req};
	transport_->transact(*req, "setting the keys of host " + to_string(hostid));
}

void Client::host_del(const Uuid &hostid)
{
	const Msg req = build_host_del(family_, hostid);
	transport_->transact(*req, "removing the keys of host " + to_string(hostid));
}

std::vector<Host> Client::host_get()
{
	const Msg req = build_host_get(family_);
	return dump(*req, "listing hosts", parse_host);
}

std::vector<Msg> Client::request(nl_msg &msg, std::string_view what)
{
	return transport_->transact(msg, what);
}

} // namespace rdmablk::nl
