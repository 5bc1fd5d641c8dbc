// SPDX-License-Identifier: GPL-2.0
/*
 * DiscoverySession: the librdmacm and libibverbs part of discovery.
 */
#include "discovery/discovery_session.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <system_error>

#include <netdb.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>

namespace rdmablk::daemon {

namespace {

/* wr_id of a SEND; receives use their slot number. */
constexpr std::uint64_t send_wr_id = 1ULL << 63;
constexpr std::size_t send_slot_size =
	sizeof(rdmablk_cmd) + std::max({sizeof(rdmablk_disc_req), sizeof(rdmablk_auth_chal_req),
					sizeof(rdmablk_auth_reply_req)});
/* A send's completion may be polled after its answer arrived and its tag was reused. */
constexpr unsigned int max_sends = 2 * RDMABLK_DISC_QUEUE_DEPTH;
constexpr unsigned int nr_recvs = RDMABLK_DISC_QUEUE_DEPTH;

int to_ms(std::chrono::milliseconds d)
{
	return static_cast<int>(d.count());
}

std::string seconds_text(std::chrono::milliseconds d)
{
	const auto ms = d.count();
	return ms % 1000 ? std::to_string(ms) + " ms" : std::to_string(ms / 1000) + " s";
}

sockaddr_storage resolve_numeric(const nl::Endpoint &target, const std::string &text)
{
	addrinfo hints = {};
	hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
	hints.ai_socktype = SOCK_STREAM;
	addrinfo *res = nullptr;
	if (const int rc = getaddrinfo(target.addr.c_str(), std::to_string(target.port).c_str(),
				       &hints, &res))
		throw DiscoveryError("cannot reach " + text + ": not an IP address (" +
				     gai_strerror(rc) + ")");
	sockaddr_storage ss = {};
	std::memcpy(&ss, res->ai_addr, std::min<std::size_t>(res->ai_addrlen, sizeof(ss)));
	freeaddrinfo(res);
	return ss;
}

/* "RDMA_CM_EVENT_UNREACHABLE: Connection timed out"; the status is a negative errno or a CM status. */
std::string event_text(rdma_cm_event_type type, int status)
{
	std::string s = rdma_event_str(type);
	if (status < 0)
		s += std::string(": ") + std::strerror(-status);
	else if (status > 0)
		s += " (status " + std::to_string(status) + ")";
	return s;
}

} // namespace

DiscoverySession::DiscoverySession(EventLoop &loop, const nl::Endpoint &target,
				   const nl::Uuid &hostid, Handlers handlers,
				   DiscoveryTimeouts timeouts, KeyPair keys)
	: loop_(loop), target_text_(nl::to_string(target)), hostid_(hostid.bytes),
	  hostid_text_(nl::to_string(hostid)), keys_(std::move(keys)),
	  handlers_(std::move(handlers)), timeouts_(timeouts), alive_(std::make_shared<bool>(true)),
	  started_(Clock::now())
{
	sockaddr_storage dst = resolve_numeric(target, target_text_);
	try {
		channel_ = verbs::make_event_channel();
	} catch (const std::system_error &e) {
		if (e.code().value() == ENOENT || e.code().value() == ENODEV)
			throw DiscoveryError("cannot reach " + target_text_ +
					     ": this host has no RDMA support (no "
					     "/dev/infiniband/rdma_cm; load rdma_ucm and an RDMA driver)");
		throw DiscoveryError("cannot reach " + target_text_ + ": " + e.what());
	}
	try {
		rdma_cm_id *raw = nullptr;
		if (rdma_create_id(channel_.get(), &raw, this, RDMA_PS_TCP))
			verbs::throw_errno("rdma_create_id", errno);
		id_.reset(raw);
		timer_ = ctl::UniqueFd(::timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC));
		if (!timer_)
			verbs::throw_errno("timerfd_create", errno);
		if (rdma_resolve_addr(id_.get(), nullptr, reinterpret_cast<sockaddr *>(&dst),
				      to_ms(timeouts_.resolve)))
			verbs::throw_errno("resolving its address", errno);
	} catch (const std::system_error &e) {
		throw DiscoveryError("cannot reach " + target_text_ + ": " + e.what());
	}
	step_ = "resolving its address";
	step_deadline_ = std::min(started_ + timeouts_.resolve, started_ + timeouts_.connect);
	cm_token_ = loop_.add(channel_->fd, EPOLLIN, [this](std::uint32_t) { on_cm_events(); });
	timer_token_ = loop_.add(timer_.get(), EPOLLIN, [this](std::uint32_t) { on_timer(); });
	arm_timer();
}

DiscoverySession::~DiscoverySession()
{
	*alive_ = false;
	for (const std::uint64_t token : {cm_token_, cq_token_, timer_token_})
		if (token)
			loop_.remove(token);
	if (state_ == State::established)
		rdma_disconnect(id_.get());
	/* The members go in reverse order: buffers, QP, CQ, channel, PD, id, event channel. */
}

template <typename F, typename... Args>
bool DiscoverySession::notify(const F &handler, Args &&...args)
{
	if (!handler)
		return true;
	const std::shared_ptr<bool> alive = alive_;
	const F copy = handler; /* the owner may destroy this session, and handlers_ with it */
	copy(std::forward<Args>(args)...);
	return *alive;
}

void DiscoverySession::fail(const std::string &error)
{
	if (state_ == State::failed)
		return;
	const bool was_established = state_ == State::established;
	state_ = State::failed;
	for (std::uint64_t *token : {&cm_token_, &cq_token_, &timer_token_})
		if (*token)
			loop_.remove(std::exchange(*token, 0));
	if (was_established)
		rdma_disconnect(id_.get());
	notify(handlers_.failed, error);
}

void DiscoverySession::on_cm_events()
{
	const std::shared_ptr<bool> alive = alive_;
	while (*alive && state_ != State::failed) {
		rdma_cm_event *ev = nullptr;
		if (rdma_get_cm_event(channel_.get(), &ev)) {
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				fail("lost the connection to " + target_text_ +
				     ": reading rdma_cm events: " + std::strerror(errno));
			return;
		}
		/* Copied and acknowledged first: destroying the id waits for every acknowledgement. */
		const rdma_cm_event_type type = ev->event;
		const int status = ev->status;
		const auto *p = static_cast<const std::uint8_t *>(ev->param.conn.private_data);
		std::vector<std::uint8_t> pdata;
		if (p)
			pdata.assign(p, p + ev->param.conn.private_data_len);
		rdma_ack_cm_event(ev);
		if (!on_cm_event(type, status, pdata))
			return;
	}
}

bool DiscoverySession::on_cm_event(rdma_cm_event_type type, int status,
				   const std::vector<std::uint8_t> &pdata)
{
	const std::string unreachable = "cannot reach " + target_text_ + ": ";
	try {
		switch (type) {
		case RDMA_CM_EVENT_ADDR_RESOLVED:
			if (state_ != State::resolving_addr)
				return true;
			if (rdma_resolve_route(id_.get(), to_ms(timeouts_.resolve)))
				verbs::throw_errno("resolving a route", errno);
			state_ = State::resolving_route;
			step_ = "resolving a route to it";
			step_deadline_ = std::min(Clock::now() + timeouts_.resolve,
						  started_ + timeouts_.connect);
			arm_timer();
			return true;
		case RDMA_CM_EVENT_ROUTE_RESOLVED:
			if (state_ != State::resolving_route)
				return true;
			setup_qp();
			connect();
			state_ = State::connecting;
			step_ = "waiting for it to accept the connection";
			step_deadline_ = started_ + timeouts_.connect;
			arm_timer();
			return true;
		case RDMA_CM_EVENT_ESTABLISHED: {
			if (const auto raw = proto::decode_conn_rep(pdata);
			    raw && !(raw->flags & RDMABLK_CONN_DISCOVERY)) {
				fail("the target at " + target_text_ +
				     " does not offer discovery (its rdmablk is older); attach its "
				     "exports by name");
				return false;
			}
			const proto::ConnRep rep = proto::check_discovery_rep(pdata);
			if (keys_.key && !(rep.flags & RDMABLK_CONN_AUTH)) {
				fail("the target at " + target_text_ +
				     " does not authenticate (its rdmablk is older), and this "
				     "discovery has a key: it will not list without proof; remove the "
				     "key from this discovery or update the target");
				return false;
			}
			queue_depth_ = rep.queue_depth;
			outstanding_.assign(queue_depth_, 0);
			state_ = State::established;
			keepalive_due_ = Clock::now() + timeouts_.keepalive / 2;
			if (keys_.key) {
				/* The exchange is part of connecting: the same deadline. */
				step_ = "authenticating";
				start_auth();
				arm_timer();
				return state_ != State::failed;
			}
			step_deadline_.reset();
			arm_timer();
			return ready() && state_ != State::failed;
		}
		case RDMA_CM_EVENT_REJECTED:
			if (const auto rej = proto::decode_conn_rej(pdata)) {
				fail(target_text_ + " refused the discovery connection (" +
				     proto::rej_reason_name(rej->reason) + ", it speaks version " +
				     std::to_string(rej->version) + ")");
			} else {
				fail(unreachable + "connection refused; is rdmablk listening on that port?");
			}
			return false;
		case RDMA_CM_EVENT_ADDR_ERROR:
			fail(unreachable + "no RDMA device can reach that address (" +
			     event_text(type, status) + ")");
			return false;
		case RDMA_CM_EVENT_ROUTE_ERROR:
		case RDMA_CM_EVENT_UNREACHABLE:
		case RDMA_CM_EVENT_CONNECT_ERROR:
			fail(unreachable + event_text(type, status));
			return false;
		case RDMA_CM_EVENT_DISCONNECTED:
		case RDMA_CM_EVENT_DEVICE_REMOVAL:
		case RDMA_CM_EVENT_ADDR_CHANGE:
		case RDMA_CM_EVENT_TIMEWAIT_EXIT:
			fail("lost the connection to " + target_text_ + ": " + event_text(type, status));
			return false;
		default:
			return true;
		}
	} catch (const proto::ProtocolError &e) {
		fail("bad answer from " + target_text_ + ": " + e.what());
	} catch (const std::system_error &e) {
		fail(unreachable + e.what());
	}
	return false;
}

void DiscoverySession::setup_qp()
{
	ibv_context *ctx = id_->verbs;
	pd_.reset(ibv_alloc_pd(ctx));
	if (!pd_)
		verbs::throw_errno("ibv_alloc_pd", errno);
	comp_ = verbs::make_comp_channel(*ctx);
	cq_.reset(ibv_create_cq(ctx, static_cast<int>(max_sends + nr_recvs + 1), nullptr,
				comp_.get(), 0));
	if (!cq_)
		verbs::throw_errno("ibv_create_cq", errno);

	qp_ = verbs::CmQp(*id_, *pd_, verbs::rc_qp_attr(*cq_, *cq_, max_sends, nr_recvs));

	recv_region_ = verbs::Region(*pd_, nr_recvs * RDMABLK_DISC_RSP_SIZE, IBV_ACCESS_LOCAL_WRITE);
	send_region_ = verbs::Region(*pd_, RDMABLK_DISC_QUEUE_DEPTH * send_slot_size, 0);
	for (unsigned int slot = 0; slot < nr_recvs; slot++)
		post_recv(slot);
	if (ibv_req_notify_cq(cq_.get(), 0))
		verbs::throw_errno("ibv_req_notify_cq", errno);
	cq_token_ = loop_.add(comp_->fd, EPOLLIN, [this](std::uint32_t) { on_completions(); });
}

void DiscoverySession::connect()
{
	const std::vector<std::uint8_t> pdata =
		proto::discovery_conn_req(static_cast<std::uint32_t>(timeouts_.keepalive.count()),
					  keys_.key.has_value())
			.encode();
	/* Discovery moves no data: no RDMA READ either way. */
	rdma_conn_param param = verbs::conn_param(pdata, 0);
	if (rdma_connect(id_.get(), &param))
		verbs::throw_errno("connecting", errno);
}

void DiscoverySession::post_recv(unsigned int slot)
{
	verbs::post_recv(qp_.get(), recv_region_, slot * RDMABLK_DISC_RSP_SIZE,
			 RDMABLK_DISC_RSP_SIZE, slot);
}

void DiscoverySession::on_completions()
{
	const std::shared_ptr<bool> alive = alive_;
	ibv_cq *cq = nullptr;
	void *ctx = nullptr;
	while (!ibv_get_cq_event(comp_.get(), &cq, &ctx))
		ibv_ack_cq_events(cq, 1);
	if (ibv_req_notify_cq(cq_.get(), 0)) {
		fail("lost the connection to " + target_text_ + ": ibv_req_notify_cq failed");
		return;
	}

	std::array<ibv_wc, 8> wcs;
	int n;
	while (*alive && state_ == State::established &&
	       (n = ibv_poll_cq(cq_.get(), static_cast<int>(wcs.size()), wcs.data())) > 0) {
		for (const ibv_wc &wc : std::span(wcs.data(), static_cast<std::size_t>(n))) {
			if (!*alive || state_ != State::established)
				return;
			const bool is_send = wc.wr_id & send_wr_id;
			if (is_send)
				sends_in_flight_--;
			if (wc.status != IBV_WC_SUCCESS) {
				fail("lost the connection to " + target_text_ + ": " +
				     (is_send ? "send" : "receive") + " failed (" +
				     ibv_wc_status_str(wc.status) + ")");
				return;
			}
			if (is_send)
				continue;
			const auto slot = static_cast<unsigned int>(wc.wr_id);
			const auto buf = recv_region_.bytes().subspan(
				slot * RDMABLK_DISC_RSP_SIZE,
				std::min<std::size_t>(wc.byte_len, RDMABLK_DISC_RSP_SIZE));
			try {
				/* Decoded into values first: the buffer is posted again before anyone is told. */
				on_response(buf);
			} catch (const proto::ProtocolError &e) {
				fail("bad answer from " + target_text_ + ": " + e.what());
				return;
			} catch (const std::system_error &e) {
				fail("lost the connection to " + target_text_ + ": " + e.what());
				return;
			}
		}
	}
}

void DiscoverySession::on_response(std::span<const std::uint8_t> buf)
{
	const std::optional<proto::RspHeader> rsp = proto::decode_rsp_header(buf);
	if (!rsp)
		throw proto::ProtocolError("a " + std::to_string(buf.size()) +
					   "-byte message is too short for a response");
	if (rsp->tag >= queue_depth_ || !outstanding_[rsp->tag])
		throw proto::ProtocolError("an answer for tag " + std::to_string(rsp->tag) +
					   ", which no command has");
	const std::uint8_t opcode = std::exchange(outstanding_[rsp->tag], 0);
	const std::size_t slot = static_cast<std::size_t>(buf.data() - recv_region_.bytes().data()) /
				 RDMABLK_DISC_RSP_SIZE;

	if (opcode == RDMABLK_OP_KEEPALIVE) {
		if (rsp->opcode != opcode || rsp->status != RDMABLK_S_OK)
			throw proto::ProtocolError("the answer to KEEPALIVE is " +
						   proto::opcode_name(rsp->opcode) + " " +
						   proto::status_name(rsp->status));
		keepalive_sent_.reset();
		post_recv(static_cast<unsigned int>(slot));
		arm_timer();
		pump();
		return;
	}
	if (opcode == RDMABLK_OP_AUTH_CHALLENGE || opcode == RDMABLK_OP_AUTH_REPLY) {
		if (rsp->opcode != opcode)
			throw proto::ProtocolError("the answer to " + proto::opcode_name(opcode) +
						   " is " + proto::opcode_name(rsp->opcode));
		/* Copied: the buffer is posted again before the exchange goes on. */
		const std::vector<std::uint8_t> data(buf.begin() + sizeof(rdmablk_rsp), buf.end());
		post_recv(static_cast<unsigned int>(slot));
		on_auth(opcode, rsp->status, data);
		return;
	}
	if (rsp->status == RDMABLK_S_AUTH_REQUIRED) {
		failure_ = Failure::refused;
		fail(target_text_ + " lists its exports to host " + hostid_text_ +
		     " only after it authenticates: the target holds a key for this host; give "
		     "this discovery the host's key (--key-file, or key_file in its [[discovery]])");
		return;
	}
	const proto::DiscPage page = proto::decode_disc_response(buf, opcode);
	post_recv(static_cast<unsigned int>(slot));

	if (opcode == RDMABLK_OP_DISC_WAIT) {
		waiting_ = false;
		pump();
		notify(handlers_.changed, page.generation);
		return;
	}
	if (!reader_)
		throw proto::ProtocolError("a DISC_LOG answer nobody asked for");
	if (!reader_->add(page)) {
		page_wanted_ = true;
		pump();
		return;
	}
	const proto::DiscLog log = reader_->log();
	reader_.reset();
	log_deadline_.reset();
	arm_timer();
	pump();
	notify(handlers_.log, log);
}

void DiscoverySession::start_auth()
{
	auth_ = std::make_unique<auth::HostExchange>(
		"", hostid_, *keys_.key, keys_.target_key ? &*keys_.target_key : nullptr,
		auth::random_nonce());
	/* The exchange holds its own copies, wiped when it ends. */
	keys_ = {};
	const rdmablk_auth_chal_req req = auth_->challenge();
	send(0, RDMABLK_OP_AUTH_CHALLENGE,
	     proto::encode_inline_cmd(RDMABLK_OP_AUTH_CHALLENGE, 0, proto::bytes_of(req)));
}

void DiscoverySession::on_auth(std::uint8_t opcode, std::uint16_t status,
			       std::span<const std::uint8_t> data)
{
	if (!auth_)
		throw proto::ProtocolError("an answer to " + proto::opcode_name(opcode) +
					   " nobody asked for");
	try {
		if (opcode == RDMABLK_OP_AUTH_CHALLENGE) {
			const rdmablk_auth_reply_req reply = auth_->reply(status, data);
			const auto tag = free_tag();
			if (!tag)
				throw proto::ProtocolError("no credit left for AUTH_REPLY");
			send(*tag, RDMABLK_OP_AUTH_REPLY,
			     proto::encode_inline_cmd(RDMABLK_OP_AUTH_REPLY, *tag,
						      proto::bytes_of(reply)));
			return;
		}
		auth_->finish(status, data);
	} catch (const auth::AuthError &e) {
		auth_.reset();
		if (e.kind() != auth::AuthError::Kind::protocol)
			failure_ = Failure::refused;
		switch (e.kind()) {
		case auth::AuthError::Kind::refused:
			fail(target_text_ + " refused authentication as host " + hostid_text_ +
			     ": the key given is not the one the target holds for this host, or it "
			     "holds none (on the target: rdmablkctl host add " + hostid_text_ +
			     " --key-file FILE)");
			return;
		case auth::AuthError::Kind::target_proof:
			fail("the target at " + target_text_ +
			     " did not prove itself: its proof is not made with the target key given "
			     "for it (another target key on it, or not the target it claims to "
			     "be); nothing was listed");
			return;
		case auth::AuthError::Kind::protocol:
			throw proto::ProtocolError(std::string("authentication: ") + e.what());
		}
	}
	auth_mode_ = auth_->mutual() ? RDMABLK_AUTH_MODE_MUTUAL : RDMABLK_AUTH_MODE_HOST;
	auth_.reset();
	step_deadline_.reset();
	arm_timer();
	ready();
}

bool DiscoverySession::ready()
{
	ready_ = true;
	return notify(handlers_.connected);
}

std::optional<std::uint16_t> DiscoverySession::free_tag() const
{
	for (std::uint16_t tag = 0; tag < queue_depth_; tag++)
		if (!outstanding_[tag])
			return tag;
	return std::nullopt;
}

void DiscoverySession::pump()
{
	if (state_ != State::established)
		return;
	if (page_wanted_) {
		if (const auto tag = free_tag()) {
			page_wanted_ = false;
			send(*tag, RDMABLK_OP_DISC_LOG,
			     proto::encode_disc_cmd(RDMABLK_OP_DISC_LOG, *tag, hostid_, 0,
						    reader_->next_start()));
		}
	}
	if (wait_wanted_ && !waiting_) {
		if (const auto tag = free_tag()) {
			waiting_ = true;
			send(*tag, RDMABLK_OP_DISC_WAIT,
			     proto::encode_disc_cmd(RDMABLK_OP_DISC_WAIT, *tag, hostid_,
						    *std::exchange(wait_wanted_, std::nullopt), 0));
		}
	}
}

void DiscoverySession::send(std::uint16_t tag, std::uint8_t opcode,
			    const std::vector<std::uint8_t> &msg)
{
	if (sends_in_flight_ >= max_sends)
		throw std::system_error(ENOBUFS, std::generic_category(), "every send is in flight");
	verbs::post_send(qp_.get(), send_region_, tag * send_slot_size, msg, send_wr_id | tag);
	sends_in_flight_++;
	outstanding_[tag] = opcode;
}

void DiscoverySession::read_log()
{
	if (!connected() || reader_)
		throw std::logic_error("read_log() needs a connected session without a read");
	reader_.emplace();
	page_wanted_ = true;
	log_deadline_ = Clock::now() + timeouts_.read_log;
	arm_timer();
	try {
		pump();
	} catch (const std::system_error &e) {
		fail("lost the connection to " + target_text_ + ": " + e.what());
	}
}

void DiscoverySession::wait_change(std::uint64_t generation)
{
	if (!connected() || waiting_ || wait_wanted_)
		throw std::logic_error("wait_change() needs a connected session without a wait");
	wait_wanted_ = generation;
	try {
		pump();
	} catch (const std::system_error &e) {
		fail("lost the connection to " + target_text_ + ": " + e.what());
	}
}

void DiscoverySession::send_keepalive(Time now)
{
	keepalive_due_ = now + timeouts_.keepalive / 2;
	if (keepalive_sent_)
		return; /* the last one is still unanswered; on_timer() watches it */
	const auto tag = free_tag();
	if (!tag)
		return; /* every credit carries a command: the target hears from us */
	send(*tag, RDMABLK_OP_KEEPALIVE, proto::encode_keepalive(*tag));
	keepalive_sent_ = now;
}

void DiscoverySession::on_timer()
{
	std::uint64_t expirations;
	[[maybe_unused]] const ssize_t n = ::read(timer_.get(), &expirations, sizeof(expirations));
	const Time now = Clock::now();
	if (step_deadline_ && now >= *step_deadline_) {
		fail("cannot reach " + target_text_ + ": timed out " + step_);
		return;
	}
	if (log_deadline_ && now >= *log_deadline_) {
		fail(target_text_ + " did not send its export list within " +
		     seconds_text(timeouts_.read_log));
		return;
	}
	if (keepalive_sent_ && now >= *keepalive_sent_ + timeouts_.keepalive) {
		fail("lost the connection to " + target_text_ + ": no keep-alive answer within " +
		     seconds_text(timeouts_.keepalive));
		return;
	}
	if (keepalive_due_ && now >= *keepalive_due_) {
		try {
			send_keepalive(now);
		} catch (const std::system_error &e) {
			fail("lost the connection to " + target_text_ + ": " + e.what());
			return;
		}
	}
	arm_timer();
}

void DiscoverySession::arm_timer()
{
	std::optional<Time> next;
	const std::optional<Time> ka_deadline =
		keepalive_sent_ ? std::optional<Time>(*keepalive_sent_ + timeouts_.keepalive) :
				  std::nullopt;
	for (const auto &t : {step_deadline_, log_deadline_, keepalive_due_, ka_deadline})
		if (t && (!next || *t < *next))
			next = t;
	itimerspec spec = {};
	if (next) {
		const auto left = std::max(std::chrono::duration_cast<std::chrono::nanoseconds>(
						   *next - Clock::now()),
					   std::chrono::nanoseconds(1));
		spec.it_value.tv_sec = static_cast<time_t>(left.count() / 1000000000);
		spec.it_value.tv_nsec = static_cast<long>(left.count() % 1000000000);
	}
	::timerfd_settime(timer_.get(), 0, &spec, nullptr);
}

} // namespace rdmablk::daemon
