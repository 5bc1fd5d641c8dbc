// SPDX-License-Identifier: GPL-2.0
/*
 * Autoconnect: one long-lived DiscoverySession per [[discovery]] entry,
 * on the event loop. Each export list read is decided on
 * (autoconnect_policy.hpp); what every address wants is handed to the
 * Engine, whose reconcile passes attach (or adopt) it like a configured
 * attachment. A session that fails is made anew after a backoff, forever.
 */
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>

#include <nlohmann/json.hpp>

#include "discovery/autoconnect_policy.hpp"
#include "ctl/fd.hpp"
#include "discovery/discovery_session.hpp"
#include "event_loop.hpp"
#include "log.hpp"

namespace rdmablk::daemon {

class AutoConnect {
public:
	using Clock = std::chrono::steady_clock;

	struct Hooks {
		/* The kernel's devices as last seen. */
		std::function<std::vector<nl::Device>()> devices;
		/* The [[attachment]] entries. */
		std::function<std::vector<AttachmentConfig>()> configured;
		/* What all addresses want now: attach what is missing. */
		std::function<void(const std::vector<AutoAttachment> &)> wanted;
		/* The addresses that are paths of devices attached through others; may be unset. */
		std::function<void(const std::vector<AutoPath> &)> paths = {};
	};

	AutoConnect(EventLoop &loop, Logger &log, const nl::Uuid &hostid, Hooks hooks,
		    DiscoveryTimeouts timeouts = {});
	~AutoConnect();

	AutoConnect(const AutoConnect &) = delete;
	AutoConnect &operator=(const AutoConnect &) = delete;

	/* Keep a session per entry of @discoveries: start new ones, end removed or changed ones. */
	void configure(const std::vector<DiscoveryConfig> &discoveries);

	/* {"discoveries": [...]}: rdmablkctl discovery list. */
	nlohmann::json status() const;

private:
	struct Address {
		DiscoveryConfig config;
		std::unique_ptr<DiscoverySession> session;
		bool connected = false;
		std::optional<std::uint64_t> generation;
		std::string last_error;
		std::optional<Clock::time_point> next_retry;
		DiscoveryBackoff backoff;
		std::vector<SeenExport> matched;
		std::vector<AutoAttachment> wanted;
		std::vector<std::pair<SeenExport, std::string>> elsewhere;
		std::vector<SeenExport> gone;
		std::vector<AutoPath> paths;
	};

	void start(const std::string &key);
	void on_log(const std::string &key, const proto::DiscLog &log);
	void on_failed(const std::string &key, const std::string &error);
	void publish();
	void arm();
	void on_timer();

	EventLoop &loop_;
	Logger &log_;
	nl::Uuid hostid_;
	Hooks hooks_;
	DiscoveryTimeouts timeouts_;
	ctl::UniqueFd timer_;
	std::uint64_t timer_token_ = 0;
	std::map<std::string, Address> addresses_;
};

} // namespace rdmablk::daemon
