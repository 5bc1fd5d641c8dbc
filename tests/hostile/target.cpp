// SPDX-License-Identifier: GPL-2.0
/*
 * rdmablk-hostile-target: listen, accept the kernel initiator's connections
 * and misbehave as one scenario says (target.hpp, target_scenarios.cpp).
 *
 *   rdmablk-hostile-target --listen ADDR [--port 7471] SCENARIO
 *   rdmablk-hostile-target --list
 *   rdmablk-hostile-target --pattern OFFSET LENGTH   (honest bytes, to stdout)
 *
 * Runs until SIGTERM or SIGINT. Prints one line per event ("conn 2: ...");
 * for every connection it misbehaved on, how long the initiator took to drop
 * it: "DROPPED conn N after MS ms (WHAT)", or at exit "KEPT conn N (WHAT)"
 * for one still up. Ends with "SUMMARY connections=N misbehaved=M
 * dropped=D slowest_drop_ms=S kept=K".
 */
#include <algorithm>
#include <array>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <thread>

#include <CLI/CLI.hpp>
#include <arpa/inet.h>
#include <endian.h>
#include <linux/rdmablk.h>
#include <poll.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "target.hpp"

namespace rdmablk::hostile::target {

std::uint8_t pattern_at(std::uint64_t offset)
{
	const std::uint64_t word = (offset & ~7ULL) ^ 0x5a5a5a5a00000000ULL;
	return static_cast<std::uint8_t>(word >> (8 * (offset & 7)));
}

namespace {

constexpr const char *prog = "rdmablk-hostile-target";
/* wr_id bit of a send-side work request; receives use their slot. */
constexpr std::uint64_t kSendWrId = 1ULL << 63;
constexpr std::size_t kRecvSlotSize = sizeof(rdmablk_cmd) + kInlineMax;
constexpr std::size_t kSendSlotSize = 256;
constexpr unsigned int kSendSlots = 256;

using Ms = std::chrono::milliseconds;

long ms_since(Clock::time_point t)
{
	return static_cast<long>(std::chrono::duration_cast<Ms>(Clock::now() - t).count());
}

/* Totals for the summary. */
struct Stats {
	unsigned int connections = 0;
	unsigned int misbehaved = 0;
	unsigned int dropped = 0;
	unsigned int kept = 0;
	long slowest_drop_ms = 0;
};

class Connection final : public Conn {
public:
	Connection(rdma_cm_id *id, unsigned int number, const ConnReq &req, const Scenario &sc,
		   Stats &stats);
	~Connection() override;

	const ConnReq &req() const override { return req_; }
	const ConnRep &rep() const override { return rep_; }
	unsigned int number() const override { return number_; }
	void send(std::span<const std::uint8_t> bytes) override;
	void send_open_rsp(std::uint16_t tag, std::uint16_t gen) override;
	void write_data(const Cmd &cmd, bool with_imm, std::uint32_t imm) override;
	void send_data(const Cmd &cmd, std::uint32_t len, std::uint32_t imm) override;
	void flood(const std::function<std::vector<std::uint8_t>(unsigned int)> &make,
		   unsigned int burst, std::chrono::milliseconds span,
		   std::chrono::microseconds gap) override;
	void honest(const Cmd &cmd) override;
	void misbehaved(std::string_view what) override;

	void accept();
	/* Handle what completed; false once the connection is broken. */
	bool poll();
	int comp_fd() const { return comp_->fd; }
	/* The initiator dropped the connection (or it broke). */
	void gone(std::string_view how);

private:
	/* Account for a completion: a send's slot is free again, an error
	 * breaks the connection; the receive slot of a command, else nullopt. */
	std::optional<unsigned int> take(const ibv_wc &wc);
	/* Take what completed without waiting; a command is not answered. */
	void reap();
	void post_recv(unsigned int slot);
	void on_command(std::span<const std::uint8_t> msg);
	bool post(ibv_send_wr &wr);
	/* The first @len bytes of READ @cmd's honest data, within the export. */
	ibv_sge honest_bytes(const Cmd &cmd, std::uint32_t len) const;
	void log(const std::string &what) const
	{
		std::cout << "conn " << number_ << ": " << what << std::endl;
	}

	CmIdPtr id_;
	PdPtr pd_;
	CompChannelPtr comp_;
	CqPtr cq_;
	CmQp qp_;
	Region recv_region_;
	Region send_region_;
	Region data_;

	unsigned int number_;
	ConnReq req_;
	ConnRep rep_ = {};
	const Scenario &sc_;
	Stats &stats_;
	unsigned int nr_recvs_ = 0;
	unsigned int next_send_slot_ = 0;
	unsigned int in_flight_ = 0;
	bool broken_ = false;
	bool reported_ = false;
	std::optional<Clock::time_point> misbehaved_at_;
	std::string misbehaviour_;
};

Connection::Connection(rdma_cm_id *id, unsigned int number, const ConnReq &req,
		       const Scenario &sc, Stats &stats)
	: id_(id), number_(number), req_(req), sc_(sc), stats_(stats)
{
	rep_ = {
		.version = RDMABLK_PROTO_VERSION,
		.queue_depth = std::min<std::uint16_t>(req.queue_depth, 32),
		.max_queues = 1,
		.flags = 0,
		.max_io_size = kMaxIoSize,
		.inline_max = kInlineMax,
	};
	if (sc.reply)
		sc.reply(rep_);
	rep_.flags &= req.flags;

	/* Room for what the initiator may send, whatever was granted. */
	nr_recvs_ = std::max<unsigned int>(req.queue_depth, 1) + 1;
	pd_.reset(ibv_alloc_pd(id->verbs));
	if (!pd_)
		throw_errno("ibv_alloc_pd", errno);
	comp_ = verbs::make_comp_channel(*id->verbs);
	cq_.reset(ibv_create_cq(id->verbs, static_cast<int>(kSendSlots * 2 + nr_recvs_ + 1),
				nullptr, comp_.get(), 0));
	if (!cq_)
		throw_errno("ibv_create_cq", errno);
	qp_ = CmQp(*id, *pd_, verbs::rc_qp_attr(*cq_, *cq_, kSendSlots * 2, nr_recvs_));
	recv_region_ = Region(*pd_, nr_recvs_ * kRecvSlotSize, IBV_ACCESS_LOCAL_WRITE);
	send_region_ = Region(*pd_, kSendSlots * kSendSlotSize, 0);
	data_ = Region(*pd_, kSize, 0);
	static const std::vector<std::uint8_t> honest_bytes = [] {
		std::vector<std::uint8_t> b(kSize);
		for (std::uint64_t off = 0; off < kSize; off++)
			b[off] = pattern_at(off);
		return b;
	}();
	std::copy(honest_bytes.begin(), honest_bytes.end(), data_.bytes().begin());
	for (unsigned int i = 0; i < nr_recvs_; i++)
		post_recv(i);
	if (ibv_req_notify_cq(cq_.get(), 0))
		throw SetupError("ibv_req_notify_cq failed");
}

Connection::~Connection()
{
	if (misbehaved_at_ && !reported_) {
		std::cout << "KEPT conn " << number_ << " (" << misbehaviour_
			  << "): still connected " << ms_since(*misbehaved_at_)
			  << " ms after the misbehaviour" << std::endl;
		stats_.kept++;
	}
	if (!broken_)
		rdma_disconnect(id_.get());
}

void Connection::accept()
{
	const std::vector<std::uint8_t> pdata = encode_conn_rep(rep_);
	rdma_conn_param param = {};
	param.private_data = pdata.data();
	param.private_data_len = static_cast<std::uint8_t>(pdata.size());
	param.responder_resources = 0;
	param.initiator_depth = 0;
	param.rnr_retry_count = 7;
	if (rdma_accept(id_.get(), &param))
		throw_errno("rdma_accept", errno);
	log("accepted: asked queue_id " + std::to_string(req_.queue_id) + " depth " +
	    std::to_string(req_.queue_depth) + " flags " + std::to_string(req_.flags) +
	    " keepalive " + std::to_string(req_.keepalive_ms) + " ms; granted depth " +
	    std::to_string(rep_.queue_depth) + " max_io " + std::to_string(rep_.max_io_size) +
	    " inline " + std::to_string(rep_.inline_max) + " flags " + std::to_string(rep_.flags));
}

void Connection::gone(std::string_view how)
{
	if (reported_)
		return;
	log(std::string(how));
	broken_ = true;
	if (!misbehaved_at_)
		return;
	reported_ = true;
	const long ms = ms_since(*misbehaved_at_);
	std::cout << "DROPPED conn " << number_ << " after " << ms << " ms (" << misbehaviour_
		  << ")" << std::endl;
	stats_.dropped++;
	stats_.slowest_drop_ms = std::max(stats_.slowest_drop_ms, ms);
}

void Connection::misbehaved(std::string_view what)
{
	log("misbehaving: " + std::string(what));
	if (misbehaved_at_)
		return;
	misbehaved_at_ = Clock::now();
	misbehaviour_ = what;
	stats_.misbehaved++;
}

void Connection::post_recv(unsigned int slot)
{
	verbs::post_recv(qp_.get(), recv_region_, slot * kRecvSlotSize, kRecvSlotSize, slot);
}

bool Connection::post(ibv_send_wr &wr)
{
	ibv_send_wr *bad = nullptr;
	if (in_flight_ >= kSendSlots) {
		log("send queue full, dropping a work request");
		return false;
	}
	wr.send_flags |= IBV_SEND_SIGNALED;
	wr.wr_id |= kSendWrId;
	if (ibv_post_send(&qp_.get(), &wr, &bad)) {
		log(std::string("ibv_post_send: ") + std::strerror(errno));
		return false;
	}
	in_flight_++;
	return true;
}

void Connection::send(std::span<const std::uint8_t> bytes)
{
	if (broken_)
		return;
	if (in_flight_ >= kSendSlots) {
		log("send queue full, dropping a message");
		return;
	}
	const unsigned int slot = next_send_slot_;
	next_send_slot_ = (next_send_slot_ + 1) % kSendSlots;
	const auto len = std::min(bytes.size(), kSendSlotSize);
	std::copy_n(bytes.begin(), len, send_region_.bytes().begin() + slot * kSendSlotSize);
	ibv_sge sge = {
		.addr = send_region_.addr() + slot * kSendSlotSize,
		.length = static_cast<std::uint32_t>(len),
		.lkey = send_region_.lkey(),
	};
	ibv_send_wr wr = {};
	wr.wr_id = slot;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = IBV_WR_SEND;
	post(wr);
}

void Connection::send_open_rsp(std::uint16_t tag, std::uint16_t gen)
{
	rdmablk_open_rsp info = {};
	static constexpr char uuid[] = "hostile-target!";
	static_assert(sizeof(uuid) == sizeof(info.uuid));
	std::memcpy(info.uuid, uuid, sizeof(info.uuid));
	info.size = htole64(kSize);
	info.logical_block_size = htole32(512);
	info.physical_block_size = htole32(4096);
	if (sc_.open) {
		sc_.open(info, rep());
		misbehaved("OPEN response naming a push area it may not");
	}
	send(encode_open_rsp(tag, gen, RDMABLK_S_OK, info));
}

ibv_sge Connection::honest_bytes(const Cmd &cmd, std::uint32_t len) const
{
	/* Never beyond the pattern: a READ past the end gets what fits. */
	const std::uint64_t off = std::min(cmd.offset, kSize);
	return {
		.addr = data_.addr() + off,
		.length = static_cast<std::uint32_t>(std::min<std::uint64_t>(len, kSize - off)),
		.lkey = data_.lkey(),
	};
}

void Connection::write_data(const Cmd &cmd, bool with_imm, std::uint32_t imm)
{
	if (broken_)
		return;
	ibv_sge sge = honest_bytes(cmd, cmd.length);
	ibv_send_wr wr = {};
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = with_imm ? IBV_WR_RDMA_WRITE_WITH_IMM : IBV_WR_RDMA_WRITE;
	if (with_imm)
		wr.imm_data = htonl(imm);
	wr.wr.rdma.remote_addr = cmd.addr;
	wr.wr.rdma.rkey = cmd.rkey;
	post(wr);
}

void Connection::send_data(const Cmd &cmd, std::uint32_t len, std::uint32_t imm)
{
	if (broken_)
		return;
	ibv_sge sge = honest_bytes(cmd, len);
	ibv_send_wr wr = {};
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = IBV_WR_SEND_WITH_IMM;
	wr.imm_data = htonl(imm);
	post(wr);
}

std::optional<unsigned int> Connection::take(const ibv_wc &wc)
{
	const bool is_send = wc.wr_id & kSendWrId;
	if (is_send)
		in_flight_--;
	if (wc.status != IBV_WC_SUCCESS) {
		if (!broken_)
			gone(std::string(is_send ? "send" : "receive") +
			     " completion: " + ibv_wc_status_str(wc.status));
		return std::nullopt;
	}
	if (is_send)
		return std::nullopt;
	return static_cast<unsigned int>(wc.wr_id);
}

void Connection::reap()
{
	std::array<ibv_wc, 16> wcs;
	int n;
	while ((n = ibv_poll_cq(cq_.get(), static_cast<int>(wcs.size()), wcs.data())) > 0) {
		for (const ibv_wc &wc : std::span(wcs.data(), static_cast<std::size_t>(n))) {
			const std::optional<unsigned int> slot = take(wc);
			if (!slot)
				continue;
			log("a command during the flood, not answered");
			if (!broken_)
				post_recv(*slot);
		}
	}
	if (n < 0)
		throw SetupError("ibv_poll_cq failed");
}

void Connection::flood(const std::function<std::vector<std::uint8_t>(unsigned int)> &make,
		       unsigned int burst, std::chrono::milliseconds span,
		       std::chrono::microseconds gap)
{
	const Deadline end = Clock::now() + span;
	unsigned int sent = 0;

	while (!broken_ && Clock::now() < end) {
		reap();
		if (!broken_ && in_flight_ < kSendSlots)
			send(make(sent++));
		if (sent >= burst)
			std::this_thread::sleep_for(gap);
	}
	log("flood: " + std::to_string(sent) + " messages sent");
}

void Connection::honest(const Cmd &cmd)
{
	switch (cmd.opcode) {
	case RDMABLK_OP_READ:
		if (cmd.offset >= kSize || cmd.length > kSize - cmd.offset) {
			answer(cmd, RDMABLK_S_RANGE);
			return;
		}
		if ((cmd.flags & RDMABLK_CMD_SEND_DATA) && (rep_.flags & RDMABLK_CONN_READ_SEND)) {
			send_data(cmd, cmd.length, imm_of(cmd.tag, cmd.gen));
			return;
		}
		write_data(cmd, false, 0);
		answer(cmd, RDMABLK_S_OK);
		return;
	case RDMABLK_OP_WRITE:
		/* Acknowledged and dropped: reads return the pattern. */
		answer(cmd, cmd.offset < kSize && cmd.length <= kSize - cmd.offset ? RDMABLK_S_OK
										  : RDMABLK_S_RANGE);
		return;
	case RDMABLK_OP_KEEPALIVE:
	case RDMABLK_OP_FLUSH:
		answer(cmd, RDMABLK_S_OK);
		return;
	default:
		answer(cmd, RDMABLK_S_UNSUPPORTED);
		return;
	}
}

void Connection::on_command(std::span<const std::uint8_t> msg)
{
	const std::optional<Cmd> cmd = decode_cmd(msg);
	if (!cmd) {
		log("a " + std::to_string(msg.size()) + "-byte SEND, too short for a command");
		return;
	}
	if (cmd->opcode == RDMABLK_OP_OPEN) {
		log("OPEN tag " + std::to_string(cmd->tag));
		send_open_rsp(cmd->tag, cmd->gen);
		if (sc_.after_open)
			sc_.after_open(*this);
		return;
	}
	if (cmd->opcode == RDMABLK_OP_AUTH_CHALLENGE || cmd->opcode == RDMABLK_OP_AUTH_REPLY) {
		log(opcode_name(cmd->opcode) + " tag " + std::to_string(cmd->tag));
		if (sc_.auth)
			sc_.auth(*this, *cmd, msg.subspan(std::min(msg.size(), sizeof(rdmablk_cmd))));
		else
			honest(*cmd);
		return;
	}
	if (cmd->opcode != RDMABLK_OP_KEEPALIVE && sc_.trap &&
	    (sc_.trap_all || cmd->offset >= kTrapOffset)) {
		log(opcode_name(cmd->opcode) + " tag " + std::to_string(cmd->tag) + " offset " +
		    std::to_string(cmd->offset) + " length " + std::to_string(cmd->length));
		sc_.trap(*this, *cmd);
		return;
	}
	honest(*cmd);
}

bool Connection::poll()
{
	ibv_cq *cq = nullptr;
	void *ctx = nullptr;
	unsigned int events = 0;
	while (!ibv_get_cq_event(comp_.get(), &cq, &ctx))
		events++;
	if (events)
		ibv_ack_cq_events(cq_.get(), events);

	for (bool armed = false;;) {
		std::array<ibv_wc, 16> wcs;
		const int n = ibv_poll_cq(cq_.get(), static_cast<int>(wcs.size()), wcs.data());
		if (n < 0)
			throw SetupError("ibv_poll_cq failed");
		for (const ibv_wc &wc : std::span(wcs.data(), static_cast<std::size_t>(n))) {
			const std::optional<unsigned int> slot = take(wc);
			if (!slot)
				continue;
			on_command(recv_region_.bytes().subspan(
				*slot * kRecvSlotSize,
				std::min<std::size_t>(wc.byte_len, kRecvSlotSize)));
			if (!broken_)
				post_recv(*slot);
		}
		if (n > 0)
			continue;
		if (armed)
			break;
		if (ibv_req_notify_cq(cq_.get(), 0))
			throw SetupError("ibv_req_notify_cq failed");
		armed = true;
	}
	return !broken_;
}

/* The listener and its connections. */
class Target {
public:
	Target(const Endpoint &ep, const Scenario &sc);
	/* Serve until a signal in @signal_fd. */
	void run(int signal_fd);
	const Stats &stats() const { return stats_; }
	void close_all() { conns_.clear(); }

private:
	void on_cm_event(const CmEvent &ev);

	EventChannelPtr channel_;
	CmIdPtr listener_;
	const Scenario &sc_;
	Stats stats_;
	std::map<rdma_cm_id *, std::unique_ptr<Connection>> conns_;
};

Target::Target(const Endpoint &ep, const Scenario &sc) : sc_(sc)
{
	channel_ = make_event_channel();
	rdma_cm_id *raw = nullptr;
	if (rdma_create_id(channel_.get(), &raw, nullptr, RDMA_PS_TCP))
		throw_errno("rdma_create_id", errno);
	listener_.reset(raw);
	sockaddr_storage addr = ep.target;
	if (rdma_bind_addr(listener_.get(), reinterpret_cast<sockaddr *>(&addr)))
		throw_errno("rdma_bind_addr " + ep.text, errno);
	if (rdma_listen(listener_.get(), 16))
		throw_errno("rdma_listen " + ep.text, errno);
	std::cout << "listening on " << ep.text << ", scenario " << sc.name << std::endl;
}

void Target::on_cm_event(const CmEvent &ev)
{
	if (ev.type == RDMA_CM_EVENT_CONNECT_REQUEST) {
		const std::optional<ConnReq> req = decode_conn_req(ev.pdata);
		const unsigned int number = ++stats_.connections;
		if (!req) {
			std::cout << "conn " << number << ": not an rdmablk connect request"
				  << std::endl;
			rdma_reject(ev.id, nullptr, 0);
			rdma_destroy_id(ev.id);
			return;
		}
		try {
			auto conn = std::make_unique<Connection>(ev.id, number, *req, sc_, stats_);
			conn->accept();
			conns_[ev.id] = std::move(conn);
		} catch (const std::exception &e) {
			/* The Connection, if built, destroyed the id already. */
			std::cout << "conn " << number << ": cannot accept: " << e.what()
				  << std::endl;
		}
		return;
	}
	const auto it = conns_.find(ev.id);
	if (it == conns_.end())
		return;
	switch (ev.type) {
	case RDMA_CM_EVENT_ESTABLISHED:
		std::cout << "conn " << it->second->number() << ": established" << std::endl;
		return;
	case RDMA_CM_EVENT_DISCONNECTED:
	case RDMA_CM_EVENT_CONNECT_ERROR:
	case RDMA_CM_EVENT_UNREACHABLE:
	case RDMA_CM_EVENT_REJECTED:
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
	case RDMA_CM_EVENT_TIMEWAIT_EXIT:
		it->second->gone(hostile::describe(ev));
		conns_.erase(it);
		return;
	default:
		return;
	}
}

void Target::run(int signal_fd)
{
	for (;;) {
		std::vector<pollfd> fds = {
			{.fd = signal_fd, .events = POLLIN, .revents = 0},
			{.fd = channel_->fd, .events = POLLIN, .revents = 0},
		};
		for (const auto &[id, conn] : conns_)
			fds.push_back({.fd = conn->comp_fd(), .events = POLLIN, .revents = 0});
		if (::poll(fds.data(), fds.size(), 1000) < 0 && errno != EINTR)
			throw_errno("poll", errno);
		if (fds[0].revents & POLLIN)
			return;
		while (const auto ev = next_cm_event(*channel_, Clock::now()))
			on_cm_event(*ev);
		for (const auto &[id, conn] : conns_)
			conn->poll();
	}
}

int list()
{
	for (const Scenario &s : scenarios())
		std::cout << s.name << ' ' << expect_name(s.expect) << ' '
			  << (s.must_drop ? "drop" : "-") << ' ' << (s.keys ? "keys" : "-") << ' '
			  << s.summary << '\n';
	return 0;
}

int pattern(std::uint64_t offset, std::uint64_t length)
{
	std::vector<char> buf(length);
	for (std::uint64_t i = 0; i < length; i++)
		buf[i] = static_cast<char>(pattern_at(offset + i));
	std::cout.write(buf.data(), static_cast<std::streamsize>(buf.size()));
	return std::cout ? 0 : 1;
}

} // namespace

} // namespace rdmablk::hostile::target

int main(int argc, char **argv)
{
	using namespace rdmablk::hostile;
	using namespace rdmablk::hostile::target;

	std::string addr;
	std::uint16_t port = RDMABLK_DEFAULT_PORT;
	std::string scenario;
	std::vector<std::uint64_t> pat;
	bool want_list = false;

	std::vector<std::string> choices;
	for (const Scenario &s : scenarios())
		choices.emplace_back(s.name);

	CLI::App app("A target that breaks the rdmablk wire protocol against the kernel initiator.",
		     prog);
	app.add_option("--listen", addr, "Address to listen on (IPv4 or IPv6 literal)")
		->type_name("ADDR");
	app.add_option("--port", port, "Port")->capture_default_str();
	app.add_flag("--list", want_list, "List the scenarios: NAME EXPECT DROP KEYS SUMMARY");
	app.add_option("--pattern", pat, "Print LENGTH honest bytes from OFFSET and exit")
		->expected(2)
		->type_name("OFFSET LENGTH");
	app.add_option("scenario", scenario, "The scenario")->check(CLI::IsMember(choices));
	try {
		app.parse(argc, argv);
	} catch (const CLI::ParseError &e) {
		return app.exit(e) == 0 ? 0 : 2;
	}
	if (want_list)
		return list();
	if (pat.size() == 2)
		return pattern(pat[0], pat[1]);
	if (addr.empty() || scenario.empty()) {
		std::cerr << prog << ": --listen and a scenario are required (--help)\n";
		return 2;
	}
	const Scenario *sc = nullptr;
	for (const Scenario &s : scenarios())
		if (s.name == scenario)
			sc = &s;

	sigset_t mask;
	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigprocmask(SIG_BLOCK, &mask, nullptr);
	const int sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sfd < 0) {
		std::cerr << prog << ": signalfd: " << std::strerror(errno) << '\n';
		return 1;
	}
	try {
		Target t(make_endpoint(addr, port, std::nullopt), *sc);
		t.run(sfd);
		t.close_all();
		const Stats &s = t.stats();
		std::cout << "SUMMARY connections=" << s.connections << " misbehaved=" << s.misbehaved
			  << " dropped=" << s.dropped << " slowest_drop_ms=" << s.slowest_drop_ms
			  << " kept=" << s.kept << std::endl;
	} catch (const std::exception &e) {
		std::cerr << prog << ": " << e.what() << '\n';
		close(sfd);
		return 1;
	}
	close(sfd);
	return 0;
}
