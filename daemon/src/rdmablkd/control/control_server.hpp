// SPDX-License-Identifier: GPL-2.0
/*
 * The control socket's server side, on the event loop: accepts clients,
 * cuts their bytes into request lines, hands each request to the handler
 * and writes the response back when the handler answers (maybe much
 * later: a client may wait for a slow attach while others are served).
 *
 * A connection serves its requests one after the other, in order. A
 * client that is not root gets one permission-denied answer and is
 * disconnected. A client that hangs up is forgotten at once; what it
 * asked for still happens. A line that is not a request gets an invalid-argument
 * answer; a line longer than ctl::max_line ends the connection.
 *
 * A "monitor" request is answered here, not by the handler: the
 * connection then gets every event published, one line each, until the
 * client hangs up. A monitor that does not read falls behind by at most
 * ctl::max_line bytes; events past that are dropped for it, and the next
 * event that fits is preceded by a "dropped" event that counts them.
 */
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "ctl/fd.hpp"
#include "ctl/framer.hpp"
#include "ctl/protocol.hpp"
#include "event_loop.hpp"
#include "log.hpp"

namespace rdmablk::daemon {

class ControlServer {
public:
	using Reply = std::function<void(ctl::Response)>;
	using Handler = std::function<void(const ctl::Request &, Reply)>;

	/* Serve on listening socket @listener (non-blocking). */
	ControlServer(EventLoop &loop, ctl::UniqueFd listener, Handler handler, Logger &log);
	~ControlServer();

	ControlServer(const ControlServer &) = delete;
	ControlServer &operator=(const ControlServer &) = delete;

	/* Connections open now. */
	std::size_t clients() const { return connections_.size(); }

	/* Send @event (an object with a "type") to every monitor. */
	void publish(const nlohmann::json &event);

private:
	struct Connection {
		ctl::UniqueFd fd;
		std::uint64_t token = 0;
		ctl::LineFramer framer;
		std::deque<std::string> lines; /* received, not served yet */
		std::string out;	       /* to send */
		std::optional<ctl::Response> refusal; /* not root: the one answer it gets */
		bool busy = false;	       /* a request is with the handler */
		bool eof = false;	       /* the client sent everything it will */
		bool closing = false;	       /* close once @out is sent */
		bool monitor = false;	       /* gets events; takes no request */
		std::uint64_t dropped = 0;     /* events it fell too far behind for */
	};

	void accept_clients();
	void on_ready(std::uint64_t id, std::uint32_t events);
	void receive(Connection &c);
	void serve_next(std::uint64_t id);
	void answer(std::uint64_t id, const ctl::Response &response);
	/* Send what can be sent; closes the connection when done with it. */
	void flush(std::uint64_t id);
	void close(std::uint64_t id);

	EventLoop &loop_;
	ctl::UniqueFd listener_;
	std::uint64_t listener_token_;
	Handler handler_;
	Logger &log_;
	std::map<std::uint64_t, std::unique_ptr<Connection>> connections_;
	std::uint64_t next_id_ = 1;
	bool serving_ = false; /* in serve_next(): answers wait for it to finish */
	/* Answers to connections closed meanwhile are dropped: see answer(). */
	std::shared_ptr<bool> alive_;
};

} // namespace rdmablk::daemon
