// SPDX-License-Identifier: GPL-2.0
#include "control/control_server.hpp"

#include <cerrno>
#include <cstring>
#include <vector>

#include <sys/epoll.h>
#include <sys/socket.h>

#include "control/peer.hpp"

namespace rdmablk::daemon {

namespace {

/* More root clients at once than this is a runaway script. */
constexpr std::size_t max_clients = 256;

constexpr std::uint32_t nothing = 0;
constexpr std::uint32_t readable = EPOLLIN | EPOLLRDHUP;
constexpr std::uint32_t writable = EPOLLOUT;

} // namespace

ControlServer::ControlServer(EventLoop &loop, ctl::UniqueFd listener, Handler handler,
			     Logger &log)
	: loop_(loop), listener_(std::move(listener)), handler_(std::move(handler)), log_(log),
	  alive_(std::make_shared<bool>(true))
{
	listener_token_ = loop_.add(listener_.get(), EPOLLIN, [this](std::uint32_t) {
		accept_clients();
	});
}

ControlServer::~ControlServer()
{
	*alive_ = false;
	for (auto &[id, c] : connections_)
		loop_.remove(c->token);
	loop_.remove(listener_token_);
}

void ControlServer::accept_clients()
{
	for (;;) {
		ctl::UniqueFd fd(::accept4(listener_.get(), nullptr, nullptr,
					   SOCK_NONBLOCK | SOCK_CLOEXEC));
		if (!fd) {
			if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR &&
			    errno != ECONNABORTED)
				log_.warning(std::string("accepting a control connection: ") +
					     std::strerror(errno));
			return;
		}
		if (connections_.size() >= max_clients) {
			log_.warning("too many control connections; refusing one");
			continue;
		}
		auto c = std::make_unique<Connection>();
		c->refusal = refuse_peer(peer_uid(fd.get()));
		c->fd = std::move(fd);
		const std::uint64_t id = next_id_++;
		c->token = loop_.add(c->fd.get(), readable,
				     [this, id](std::uint32_t events) { on_ready(id, events); });
		connections_[id] = std::move(c);
	}
}

void ControlServer::on_ready(std::uint64_t id, std::uint32_t events)
{
	const auto it = connections_.find(id);
	if (it == connections_.end())
		return;
	Connection &c = *it->second;
	if (events & (EPOLLHUP | EPOLLERR)) {
		/* Gone: serve what it sent before hanging up, answer nobody. */
		receive(c);
		serve_next(id);
		close(id);
		return;
	}
	if (events & EPOLLOUT)
		flush(id);
	if (!connections_.count(id))
		return;
	if (events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR))
		receive(c);
	if (!connections_.count(id))
		return;
	serve_next(id);
	if (connections_.count(id))
		flush(id);
}

void ControlServer::receive(Connection &c)
{
	char buf[65536];
	while (!c.eof && !c.closing) {
		const ssize_t n = ::recv(c.fd.get(), buf, sizeof(buf), 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (n <= 0) {
			c.eof = true;
			break;
		}
		c.framer.feed({buf, static_cast<std::size_t>(n)});
		try {
			while (std::optional<std::string> line = c.framer.next_line())
				c.lines.push_back(std::move(*line));
		} catch (const ctl::ProtocolError &e) {
			c.lines.clear();
			c.out += ctl::to_line(ctl::to_json(ctl::fail(ctl::code::invalid_argument,
								     e.what())));
			c.closing = true;
		}
	}
	/* Nothing more will be read: stop being told about EOF. */
	loop_.modify(c.token, c.out.empty() ? nothing : writable);
}

void ControlServer::serve_next(std::uint64_t id)
{
	Connection &c = *connections_.at(id);
	serving_ = true;
	while (!c.busy && !c.closing && !c.lines.empty()) {
		const std::string line = std::move(c.lines.front());
		c.lines.pop_front();
		if (c.refusal) {
			c.out += ctl::to_line(ctl::to_json(*c.refusal));
			c.closing = true;
			break;
		}
		if (c.monitor) {
			c.out += ctl::to_line(ctl::to_json(ctl::fail(
				ctl::code::invalid_argument,
				"a monitor connection takes no further request",
				"open another connection to send requests")));
			c.closing = true;
			break;
		}
		ctl::Request request;
		try {
			request = ctl::parse_request_line(line);
		} catch (const ctl::ProtocolError &e) {
			c.out += ctl::to_line(
				ctl::to_json(ctl::fail(ctl::code::invalid_argument, e.what())));
			continue;
		}
		if (request.cmd == ctl::monitor_cmd) {
			c.out += ctl::to_line(ctl::to_json(ctl::ok({{"monitoring", true}})));
			c.monitor = true;
			continue;
		}
		c.busy = true;
		std::weak_ptr<bool> alive = alive_;
		handler_(request, [this, id, alive](ctl::Response response) {
			if (const auto a = alive.lock(); a && *a)
				answer(id, response);
		});
	}
	serving_ = false;
}

void ControlServer::publish(const nlohmann::json &event)
{
	const std::string line = ctl::event_line(event);
	std::vector<std::uint64_t> ready;

	for (auto &[id, c] : connections_) {
		if (!c->monitor || c->closing)
			continue;
		std::string note;
		if (c->dropped)
			note = ctl::event_line(
				{{"type", "dropped"},
				 {"count", c->dropped},
				 {"message", "this monitor fell behind: " + std::to_string(c->dropped) +
						     " event(s) dropped"}});
		if (c->out.size() + note.size() + line.size() > ctl::max_line) {
			c->dropped++;
			continue;
		}
		c->out += note + line;
		c->dropped = 0;
		ready.push_back(id);
	}
	/* flush() may close a connection: not while iterating over them. */
	for (const std::uint64_t id : ready)
		if (connections_.count(id))
			flush(id);
}

void ControlServer::answer(std::uint64_t id, const ctl::Response &response)
{
	const auto it = connections_.find(id);
	if (it == connections_.end())
		return; /* the client left; the work it asked for is done regardless */
	Connection &c = *it->second;
	c.out += ctl::to_line(ctl::to_json(response));
	c.busy = false;
	if (serving_)
		return; /* answered at once: serve_next() goes on, its caller flushes */
	serve_next(id);
	flush(id);
}

void ControlServer::flush(std::uint64_t id)
{
	Connection &c = *connections_.at(id);
	while (!c.out.empty()) {
		const ssize_t n = ::send(c.fd.get(), c.out.data(), c.out.size(), MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			loop_.modify(c.token, writable | (c.eof ? nothing : readable));
			return;
		}
		if (n < 0) {
			close(id);
			return;
		}
		c.out.erase(0, static_cast<std::size_t>(n));
	}
	/* A monitor that sent all it will still reads its events until it hangs up. */
	const bool done_reading = c.eof && c.lines.empty() && !c.monitor;
	if (c.closing || (done_reading && !c.busy)) {
		close(id);
		return;
	}
	loop_.modify(c.token, c.eof ? nothing : readable);
}

void ControlServer::close(std::uint64_t id)
{
	const auto it = connections_.find(id);
	if (it == connections_.end())
		return;
	loop_.remove(it->second->token);
	connections_.erase(it);
}

} // namespace rdmablk::daemon
