// SPDX-License-Identifier: GPL-2.0
#include "discovery/discover.hpp"

#include "engine/views.hpp"

namespace rdmablk::daemon {

namespace {

constexpr const char *unreachable_hint =
	"check the address and port, that the target runs rdmablk and listens there "
	"('rdmablkctl listen' on it), and that this host has an RDMA device that reaches it";

} // namespace

void Discoveries::start(const nl::Endpoint &target, const nl::Uuid &hostid, KeyPair keys,
			Reply reply)
{
	if (running_.size() >= max_running) {
		reply(ctl::fail(ctl::code::busy,
				std::to_string(max_running) + " discoveries are running already",
				"try again in a few seconds"));
		return;
	}
	const std::uint64_t id = next_id_++;
	DiscoverySession::Handlers handlers;
	handlers.connected = [this, id] { running_.at(id).session->read_log(); };
	handlers.log = [this, id, target](const proto::DiscLog &log) {
		finish(id, ctl::ok(discovery_json(target, log, running_.at(id).session->auth_mode())));
	};
	handlers.failed = [this, id](const std::string &error) {
		log_.info("discovery: " + error);
		/* The other failures say what to do themselves. */
		switch (running_.at(id).session->failure()) {
		case DiscoverySession::Failure::refused:
			finish(id, ctl::fail(ctl::code::permission_denied, error));
			return;
		case DiscoverySession::Failure::other:
			break;
		}
		finish(id, ctl::fail(ctl::code::unreachable, error,
				     error.starts_with("cannot reach ") ? unreachable_hint : ""));
	};
	try {
		auto session = std::make_unique<DiscoverySession>(
			loop_, target, hostid, std::move(handlers), timeouts_, std::move(keys));
		running_[id] = Running{std::move(session), std::move(reply)};
	} catch (const DiscoveryError &e) {
		reply(ctl::fail(ctl::code::unreachable, e.what(), unreachable_hint));
	}
}

void Discoveries::finish(std::uint64_t id, const ctl::Response &response)
{
	const auto it = running_.find(id);
	if (it == running_.end())
		return;
	const Reply reply = std::move(it->second.reply);
	running_.erase(it);
	reply(response);
}

} // namespace rdmablk::daemon
