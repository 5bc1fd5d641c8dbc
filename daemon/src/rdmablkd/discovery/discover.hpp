// SPDX-License-Identifier: GPL-2.0
/*
 * The "discover" command: one DiscoverySession per request, which connects,
 * reads the export list, answers and goes. Runs on the event loop and never
 * blocks it; the session's deadlines bound how long an answer takes.
 */
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>

#include "ctl/protocol.hpp"
#include "discovery/discovery_session.hpp"
#include "event_loop.hpp"
#include "log.hpp"

namespace rdmablk::daemon {

class Discoveries {
public:
	using Reply = std::function<void(ctl::Response)>;

	/* More at once than this is a runaway script: answered busy. */
	static constexpr std::size_t max_running = 16;

	Discoveries(EventLoop &loop, Logger &log, DiscoveryTimeouts timeouts = {})
		: loop_(loop), log_(log), timeouts_(timeouts)
	{
	}

	/*
	 * Read @target's export list as host @hostid, authenticated with @keys
	 * if they hold a key; @reply gets it (discovery_json()) or the error.
	 */
	void start(const nl::Endpoint &target, const nl::Uuid &hostid, KeyPair keys, Reply reply);

	std::size_t running() const { return running_.size(); }

private:
	/* Answer and forget session @id; safe from inside its handlers. */
	void finish(std::uint64_t id, const ctl::Response &response);

	EventLoop &loop_;
	Logger &log_;
	DiscoveryTimeouts timeouts_;
	struct Running {
		std::unique_ptr<DiscoverySession> session;
		Reply reply;
	};
	std::map<std::uint64_t, Running> running_;
	std::uint64_t next_id_ = 1;
};

} // namespace rdmablk::daemon
