// SPDX-License-Identifier: GPL-2.0
/*
 * A discovery session with one target: an RDMA connection made with
 * RDMABLK_CONN_DISCOVERY (uapi/linux/rdmablk_proto.h) that reads the
 * export list and can wait for it to change. It never blocks: the rdma_cm
 * event channel, the completion channel and a timerfd are non-blocking
 * and watched by the daemon's EventLoop; every step has a deadline.
 *
 * Lifecycle: the constructor starts resolving the target's address; once
 * the target accepted (and, given a key, the session authenticated: the
 * exchange of docs/protocol.md, with auth::HostExchange), Handlers::connected
 * runs. Then read_log() reads the
 * whole list (Handlers::log), wait_change() asks to be told when it
 * changes (Handlers::changed). A session that stays open sends
 * RDMABLK_OP_KEEPALIVE every keepalive / 2 and fails when the target
 * stops answering. Any failure (unreachable, refused, timed out,
 * disconnected, a malformed answer) ends the session: Handlers::failed
 * runs once with one line saying what happened, and nothing else runs
 * after it. The owner may destroy the session from inside any handler.
 *
 * The wire format and paging are rdmablk::proto's (daemon/lib/proto).
 */
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <linux/rdmablk.h>

#include "auth/exchange.hpp"
#include "ctl/fd.hpp"
#include "engine/keys.hpp"
#include "event_loop.hpp"
#include "nl/endpoint.hpp"
#include "nl/uuid.hpp"
#include "proto/disc.hpp"
#include "verbs/handles.hpp"

namespace rdmablk::daemon {

struct DiscoveryTimeouts {
	/* Address resolution, and route resolution, each. */
	std::chrono::milliseconds resolve{2000};
	/* From the constructor until the target accepted. */
	std::chrono::milliseconds connect{6000};
	/* One read_log(), every page of it. */
	std::chrono::milliseconds read_log{4000};
	/* keepalive_ms of the connect request: the target drops a session silent for twice as long. */
	std::chrono::milliseconds keepalive{5000};
};

/* The session could not even start; what() says why, in one line. */
class DiscoveryError : public std::runtime_error {
public:
	using std::runtime_error::runtime_error;
};

class DiscoverySession {
public:
	struct Handlers {
		std::function<void()> connected;
		std::function<void(const proto::DiscLog &)> log;
		std::function<void(std::uint64_t generation)> changed;
		std::function<void(const std::string &error)> failed;
	};

	/*
	 * Start connecting to @target as host @hostid; throws DiscoveryError.
	 * With @keys.key, the session authenticates as @hostid before it
	 * lists (and with @keys.target_key, the target must prove itself).
	 */
	DiscoverySession(EventLoop &loop, const nl::Endpoint &target, const nl::Uuid &hostid,
			 Handlers handlers, DiscoveryTimeouts timeouts = {}, KeyPair keys = {});
	~DiscoverySession();

	DiscoverySession(const DiscoverySession &) = delete;
	DiscoverySession &operator=(const DiscoverySession &) = delete;

	/* Connected (and authenticated, if it had a key) and not failed. */
	bool connected() const { return state_ == State::established && ready_; }

	/* What ended a failed session: Handlers::failed may ask. */
	enum class Failure {
		other,	 /* unreachable, lost, timed out, a malformed answer */
		refused, /* authentication: refused, or the target did not prove itself */
	};
	Failure failure() const { return failure_; }

	/* The session authenticated: AUTH_MODE_HOST, AUTH_MODE_MUTUAL; NONE without a key. */
	std::uint32_t auth_mode() const { return auth_mode_; }

	/* Read the whole export list; once connected, one read at a time. */
	void read_log();

	/* Be told (Handlers::changed) once the target's generation is not @generation. */
	void wait_change(std::uint64_t generation);

	/* "192.0.2.1:7471". */
	const std::string &target() const { return target_text_; }

private:
	using Clock = std::chrono::steady_clock;
	using Time = Clock::time_point;
	enum class State { resolving_addr, resolving_route, connecting, established, failed };

	void on_cm_events();
	void on_completions();
	void on_timer();
	/* Handle one rdma_cm event; false once the session failed. */
	bool on_cm_event(rdma_cm_event_type type, int status, const std::vector<std::uint8_t> &pdata);
	void setup_qp();
	void connect();
	void on_response(std::span<const std::uint8_t> buf);
	void on_log_page(std::span<const std::uint8_t> buf);
	/* Send AUTH_CHALLENGE; the answers go to on_auth(). */
	void start_auth();
	void on_auth(std::uint8_t opcode, std::uint16_t status, std::span<const std::uint8_t> data);
	/* The session is ready for read_log(): tell the owner; false once it destroyed the session. */
	bool ready();
	/* Send what waits for a free tag: the next page, a DISC_WAIT. */
	void pump();
	std::optional<std::uint16_t> free_tag() const;
	void send(std::uint16_t tag, std::uint8_t opcode, const std::vector<std::uint8_t> &msg);
	void post_recv(unsigned int slot);
	void send_keepalive(Time now);
	void arm_timer();
	/* End the session: stop watching, tell the owner. */
	void fail(const std::string &error);
	/* Run @handler unless the session failed; false when the owner destroyed it meanwhile. */
	template <typename F, typename... Args> bool notify(const F &handler, Args &&...args);

	EventLoop &loop_;
	std::string target_text_;
	proto::Id hostid_;
	std::string hostid_text_;
	KeyPair keys_;
	std::unique_ptr<auth::HostExchange> auth_;
	std::uint32_t auth_mode_ = RDMABLK_AUTH_MODE_NONE;
	bool ready_ = false;
	Failure failure_ = Failure::other;
	Handlers handlers_;
	DiscoveryTimeouts timeouts_;
	std::shared_ptr<bool> alive_;
	State state_ = State::resolving_addr;
	Time started_;

	verbs::EventChannelPtr channel_;
	verbs::CmIdPtr id_;
	verbs::PdPtr pd_;
	verbs::CompChannelPtr comp_;
	verbs::CqPtr cq_;
	verbs::CmQp qp_;
	verbs::Region recv_region_;
	verbs::Region send_region_;
	ctl::UniqueFd timer_;
	std::uint64_t cm_token_ = 0;
	std::uint64_t cq_token_ = 0;
	std::uint64_t timer_token_ = 0;

	std::uint16_t queue_depth_ = 0;
	/* Opcode of the command outstanding on each tag; 0: free. */
	std::vector<std::uint8_t> outstanding_;
	unsigned int sends_in_flight_ = 0;

	std::optional<Time> step_deadline_; /* connecting */
	std::string step_;		    /* "resolving its address", ... */
	std::optional<proto::LogReader> reader_;
	bool page_wanted_ = false;
	std::optional<Time> log_deadline_;
	std::optional<std::uint64_t> wait_wanted_;
	bool waiting_ = false;
	std::optional<Time> keepalive_due_;
	std::optional<Time> keepalive_sent_;
};

} // namespace rdmablk::daemon
