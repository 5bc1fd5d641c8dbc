// SPDX-License-Identifier: GPL-2.0
#include "verbs.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <utility>

#include <netdb.h>
#include <poll.h>

namespace rdmablk::hostile {

namespace {

/* wr_id of a SEND; receives use their slot number. */
constexpr std::uint64_t kSendWrId = 1ULL << 63;
/* A response, or the data of a READ by SEND (RDMABLK_READ_SEND_MAX). */
constexpr std::size_t kRecvSlotSize = RDMABLK_READ_SEND_MAX;
constexpr unsigned int kSendSlots = 64;

/* Milliseconds to @deadline, rounded up; 0 once it passed. */
int remaining_ms(Deadline deadline)
{
	const auto left = deadline - Clock::now();
	if (left <= Clock::duration::zero())
		return 0;
	return static_cast<int>(std::chrono::ceil<std::chrono::milliseconds>(left).count());
}

/* Wait until one of @fds is readable or @deadline passes. */
void wait_readable(std::span<pollfd> fds, Deadline deadline)
{
	const int ms = remaining_ms(deadline);
	if (poll(fds.data(), fds.size(), ms) < 0 && errno != EINTR)
		throw_errno("poll", errno);
}

bool ends_connection(rdma_cm_event_type type)
{
	switch (type) {
	case RDMA_CM_EVENT_DISCONNECTED:
	case RDMA_CM_EVENT_TIMEWAIT_EXIT:
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
	case RDMA_CM_EVENT_ADDR_CHANGE:
	case RDMA_CM_EVENT_CONNECT_ERROR:
	case RDMA_CM_EVENT_UNREACHABLE:
	case RDMA_CM_EVENT_REJECTED:
		return true;
	default:
		return false;
	}
}

} // namespace

void throw_errno(std::string_view what, int err)
{
	throw SetupError(std::string(what) + ": " + std::strerror(err));
}

Endpoint make_endpoint(const std::string &addr, std::uint16_t port,
		       const std::optional<std::string> &source)
{
	const auto parse = [](const std::string &host, std::uint16_t p) {
		addrinfo hints = {};
		hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
		hints.ai_socktype = SOCK_STREAM;
		addrinfo *res = nullptr;
		const int rc = getaddrinfo(host.c_str(), std::to_string(p).c_str(), &hints, &res);
		if (rc)
			throw SetupError("\"" + host + "\" is not an IP address: " + gai_strerror(rc));
		sockaddr_storage ss = {};
		std::memcpy(&ss, res->ai_addr, res->ai_addrlen);
		freeaddrinfo(res);
		return ss;
	};

	Endpoint ep = {
		.target = parse(addr, port),
		.source = std::nullopt,
		.text = (addr.find(':') != std::string::npos ? "[" + addr + "]" : addr) + ":" +
			std::to_string(port),
	};
	if (source)
		ep.source = parse(*source, 0);
	return ep;
}

std::optional<CmEvent> next_cm_event(rdma_event_channel &ch, Deadline deadline)
{
	for (;;) {
		rdma_cm_event *ev = nullptr;
		if (!rdma_get_cm_event(&ch, &ev)) {
			CmEvent out = {
				.type = ev->event,
				.status = ev->status,
				.id = ev->id,
				.pdata = {},
			};
			const auto *pdata = static_cast<const std::uint8_t *>(ev->param.conn.private_data);
			if (pdata)
				out.pdata.assign(pdata, pdata + ev->param.conn.private_data_len);
			rdma_ack_cm_event(ev);
			return out;
		}
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			throw_errno("rdma_get_cm_event", errno);
		if (Clock::now() >= deadline)
			return std::nullopt;
		std::array<pollfd, 1> fds = {{{.fd = ch.fd, .events = POLLIN, .revents = 0}}};
		wait_readable(fds, deadline);
	}
}

std::string describe(const CmEvent &ev)
{
	std::string s = rdma_event_str(ev.type);
	if (ev.status)
		s += " (status " + std::to_string(ev.status) + ")";
	return s;
}

std::uint8_t responder_resources(ibv_context &verbs)
{
	ibv_device_attr attr = {};
	if (ibv_query_device(&verbs, &attr))
		throw_errno("ibv_query_device", errno);
	return static_cast<std::uint8_t>(std::clamp(attr.max_qp_rd_atom, 1, 16));
}

bool ConnectOutcome::established() const
{
	return event && event->type == RDMA_CM_EVENT_ESTABLISHED;
}

bool ConnectOutcome::rejected() const
{
	return event && event->type == RDMA_CM_EVENT_REJECTED;
}

std::string ConnectOutcome::describe() const
{
	if (!event)
		return "no answer to the connect request";
	if (rejected()) {
		const auto rej = decode_conn_rej(event->pdata);
		if (!rej)
			return "REJECTED (IB CM status " + std::to_string(event->status) +
			       ") without rdmablk reject data";
		return "REJECTED with " + rej_reason_name(rej->reason);
	}
	if (established())
		return "ESTABLISHED";
	return hostile::describe(*event);
}

std::string Reaction::describe() const
{
	switch (kind) {
	case Kind::Response:
		return "response " + status_name(response->status) + " (opcode " +
		       opcode_name(response->opcode) + ", tag " + std::to_string(response->tag) +
		       ", gen " + std::to_string(response->gen) + ", " +
		       std::to_string(response->len) + " bytes)";
	case Kind::Data:
		return "data by SEND, " + std::to_string(data.size()) + " bytes, immediate " +
		       std::to_string(imm);
	case Kind::BadResponse:
	case Kind::CompletionError:
	case Kind::Disconnected:
		return detail;
	}
	return detail;
}

Session::Session(const Endpoint &ep, const SessionOptions &opts, std::chrono::milliseconds timeout)
{
	const Deadline deadline = Clock::now() + timeout;
	const auto ms = static_cast<int>(timeout.count());

	channel_ = make_event_channel();
	rdma_cm_id *raw = nullptr;
	if (rdma_create_id(channel_.get(), &raw, this, RDMA_PS_TCP))
		throw_errno("rdma_create_id", errno);
	id_.reset(raw);

	/* rdma_resolve_addr() takes non-const pointers. */
	sockaddr_storage dst = ep.target;
	std::optional<sockaddr_storage> src = ep.source;
	if (rdma_resolve_addr(id_.get(), src ? reinterpret_cast<sockaddr *>(&*src) : nullptr,
			      reinterpret_cast<sockaddr *>(&dst), ms))
		throw_errno("rdma_resolve_addr " + ep.text, errno);
	auto ev = next_cm_event(*channel_, deadline);
	if (!ev || ev->type != RDMA_CM_EVENT_ADDR_RESOLVED)
		throw SetupError("resolving " + ep.text + ": " +
				 (ev ? hostile::describe(*ev) : "timed out"));
	if (rdma_resolve_route(id_.get(), ms))
		throw_errno("rdma_resolve_route " + ep.text, errno);
	ev = next_cm_event(*channel_, deadline);
	if (!ev || ev->type != RDMA_CM_EVENT_ROUTE_RESOLVED)
		throw SetupError("resolving a route to " + ep.text + ": " +
				 (ev ? hostile::describe(*ev) : "timed out"));

	setup_qp(opts);

	ConnReq req;
	req.queue_depth = opts.queue_depth;
	const std::vector<std::uint8_t> pdata = opts.pdata.value_or(req.encode());
	rdma_conn_param param = verbs::conn_param(pdata, responder_resources(*id_->verbs));
	if (rdma_connect(id_.get(), &param))
		throw_errno("rdma_connect " + ep.text, errno);

	outcome_.event = next_cm_event(*channel_, deadline);
	if (!outcome_.established())
		return;
	connected_ = true;
	rep_ = decode_conn_rep(outcome_.event->pdata);
	if (!rep_ || rep_->queue_depth > opts.queue_depth)
		throw SetupError("the target accepted with an invalid connect reply");
}

Session::~Session()
{
	/* Polite teardown; destroying the id would send the DREQ as well. */
	if (connected_)
		rdma_disconnect(id_.get());
}

void Session::setup_qp(const SessionOptions &opts)
{
	ibv_context *verbs = id_->verbs;
	const unsigned int recvs = opts.recvs.value_or(opts.queue_depth);

	nr_recv_slots_ = std::max({1U, recvs, static_cast<unsigned int>(opts.queue_depth)});
	repost_ = opts.repost;
	nr_send_slots_ = kSendSlots;

	pd_.reset(ibv_alloc_pd(verbs));
	if (!pd_)
		throw_errno("ibv_alloc_pd", errno);
	comp_ = verbs::make_comp_channel(*verbs);
	cq_.reset(ibv_create_cq(verbs, static_cast<int>(nr_send_slots_ + nr_recv_slots_ + 1), nullptr,
				comp_.get(), 0));
	if (!cq_)
		throw_errno("ibv_create_cq", errno);

	qp_ = CmQp(*id_, *pd_, verbs::rc_qp_attr(*cq_, *cq_, nr_send_slots_, nr_recv_slots_));

	recv_region_ = Region(*pd_, nr_recv_slots_ * kRecvSlotSize, IBV_ACCESS_LOCAL_WRITE);
	send_region_ = Region(*pd_, nr_send_slots_ * kSendSlotSize, 0);
	data_ = Region(*pd_, kDataSize,
		       IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE);
	fill_data();
	for (unsigned int i = 0; i < recvs; i++)
		post_recv(i);
}

bool Session::data_untouched() const
{
	const auto bytes = data_.bytes();
	return std::all_of(bytes.begin(), bytes.end(), [](std::uint8_t b) { return b == kCanary; });
}

void Session::fill_data()
{
	const auto bytes = data_.bytes();
	std::fill(bytes.begin(), bytes.end(), kCanary);
}

std::uint16_t Session::next_tag()
{
	const std::uint16_t tag = next_tag_;
	next_tag_ = static_cast<std::uint16_t>((next_tag_ + 1) % rep_->queue_depth);
	return tag;
}

void Session::post_recv(unsigned int slot)
{
	verbs::post_recv(qp_.get(), recv_region_, slot * kRecvSlotSize, kRecvSlotSize, slot);
}

void Session::send(const Cmd &cmd, std::span<const std::uint8_t> payload)
{
	std::vector<std::uint8_t> msg(sizeof(rdmablk_cmd) + payload.size());
	const rdmablk_cmd wire = cmd.encode();
	std::memcpy(msg.data(), &wire, sizeof(wire));
	std::copy(payload.begin(), payload.end(), msg.begin() + sizeof(wire));
	send_raw(msg);
}

void Session::need_send_credit(const char *what)
{
	if (!connected_)
		throw SetupError(std::string(what) + " on a connection that was not established");
	poll_cq();
	if (sends_in_flight_ == nr_send_slots_)
		throw SetupError("every send buffer is still in flight");
}

void Session::send_raw(std::span<const std::uint8_t> bytes)
{
	if (bytes.size() > kSendSlotSize)
		throw SetupError("message of " + std::to_string(bytes.size()) + " bytes is too long");
	need_send_credit("sending");

	const unsigned int slot = next_send_slot_;
	next_send_slot_ = (next_send_slot_ + 1) % nr_send_slots_;
	verbs::post_send(qp_.get(), send_region_, slot * kSendSlotSize, bytes, kSendWrId | slot);
	sends_in_flight_++;
}

void Session::write_imm(std::uint64_t remote_addr, std::uint32_t rkey, std::uint32_t length,
			std::uint32_t imm)
{
	if (length > kDataSize)
		throw SetupError("RDMA WRITE of " + std::to_string(length) + " bytes is too long");
	need_send_credit("writing");

	ibv_sge sge = {
		.addr = data_.addr(),
		.length = length,
		.lkey = data_.lkey(),
	};
	ibv_send_wr wr = {};
	ibv_send_wr *bad = nullptr;
	/* Not a send slot's: the completion only gives the credit back. */
	wr.wr_id = kSendWrId | nr_send_slots_;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = IBV_WR_RDMA_WRITE_WITH_IMM;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.imm_data = htonl(imm);
	wr.wr.rdma.remote_addr = remote_addr;
	wr.wr.rdma.rkey = rkey;
	if (const int rc = ibv_post_send(&qp_.get(), &wr, &bad))
		throw_errno("ibv_post_send", rc);
	sends_in_flight_++;
}

void Session::poll_cq()
{
	std::array<ibv_wc, 16> wcs;
	int n;

	while ((n = ibv_poll_cq(cq_.get(), static_cast<int>(wcs.size()), wcs.data())) > 0) {
		for (const ibv_wc &wc : std::span(wcs.data(), static_cast<std::size_t>(n))) {
			const bool is_send = wc.wr_id & kSendWrId;
			if (is_send)
				sends_in_flight_--;
			if (wc.status != IBV_WC_SUCCESS) {
				reactions_.push_back({
					.kind = Reaction::Kind::CompletionError,
					.response = std::nullopt,
					.imm = 0,
					.data = {},
					.detail = std::string(is_send ? "send" : "receive") +
						  " completion: " + ibv_wc_status_str(wc.status),
				});
				continue;
			}
			if (is_send)
				continue;

			const auto slot = static_cast<unsigned int>(wc.wr_id);
			const auto buf = recv_region_.bytes().subspan(slot * kRecvSlotSize,
								      std::min<std::size_t>(wc.byte_len, kRecvSlotSize));
			if (wc.wc_flags & IBV_WC_WITH_IMM)
				reactions_.push_back({.kind = Reaction::Kind::Data,
						      .response = std::nullopt,
						      .imm = ntohl(wc.imm_data),
						      .data = {buf.begin(), buf.end()},
						      .detail = {}});
			else if (auto rsp = decode_response(buf))
				reactions_.push_back({.kind = Reaction::Kind::Response,
						      .response = rsp,
						      .imm = 0,
						      .data = {},
						      .detail = {}});
			else
				reactions_.push_back({
					.kind = Reaction::Kind::BadResponse,
					.response = std::nullopt,
					.imm = 0,
					.data = {},
					.detail = "a " + std::to_string(wc.byte_len) +
						  "-byte SEND, too short for a response",
				});
			if (repost_)
				post_recv(slot);
		}
	}
	if (n < 0)
		throw SetupError("ibv_poll_cq failed");
}

void Session::poll_cm()
{
	/* Deadline now: only what is queued already. */
	while (auto ev = next_cm_event(*channel_, Clock::now())) {
		if (!ends_connection(ev->type))
			continue;
		reactions_.push_back({
			.kind = Reaction::Kind::Disconnected,
			.response = std::nullopt,
			.imm = 0,
			.data = {},
			.detail = hostile::describe(*ev),
		});
	}
}

std::optional<Reaction> Session::next_reaction(Deadline deadline)
{
	for (;;) {
		if (!reactions_.empty()) {
			Reaction r = std::move(reactions_.front());
			reactions_.pop_front();
			return r;
		}
		poll_cq();
		poll_cm();
		if (!reactions_.empty())
			continue;
		/* Arm, then look again: a completion may have slipped in between. */
		if (ibv_req_notify_cq(cq_.get(), 0))
			throw SetupError("ibv_req_notify_cq failed");
		poll_cq();
		if (!reactions_.empty())
			continue;
		if (Clock::now() >= deadline)
			return std::nullopt;

		std::array<pollfd, 2> fds = {{
			{.fd = channel_->fd, .events = POLLIN, .revents = 0},
			{.fd = comp_->fd, .events = POLLIN, .revents = 0},
		}};
		wait_readable(fds, deadline);
		if (fds[1].revents & POLLIN) {
			ibv_cq *cq = nullptr;
			void *ctx = nullptr;
			if (!ibv_get_cq_event(comp_.get(), &cq, &ctx))
				ibv_ack_cq_events(cq, 1);
		}
	}
}

} // namespace rdmablk::hostile
