// SPDX-License-Identifier: GPL-2.0
/*
 * Just enough rdma_cm and verbs for an initiator that misbehaves on purpose:
 * owning handles for every resource, and a Session (one RC connection with
 * its PD, CQ, QP and registered buffers) that sends whatever it is given
 * and reports what the target does about it.
 *
 * Nothing here blocks without a deadline: the rdma_cm event channel and the
 * completion channel are non-blocking and waited on with poll().
 */
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>
#include <sys/socket.h>

#include "verbs/handles.hpp"
#include "wire.hpp"

namespace rdmablk::hostile {

using Clock = std::chrono::steady_clock;
using Deadline = Clock::time_point;

/* A step that must work for a test to mean anything failed. */
class SetupError : public std::runtime_error {
public:
	using std::runtime_error::runtime_error;
};

/* Throw SetupError "@what: strerror(@err)". */
[[noreturn]] void throw_errno(std::string_view what, int err);

using verbs::CmIdPtr;
using verbs::CmQp;
using verbs::CompChannelPtr;
using verbs::CqPtr;
using verbs::EventChannelPtr;
using verbs::make_event_channel;
using verbs::PdPtr;
using verbs::Region;

/* Where to connect, parsed once. */
struct Endpoint {
	sockaddr_storage target;
	std::optional<sockaddr_storage> source;
	std::string text; /* "ADDR:PORT", for messages */
};

/* Parse numeric addresses; throws SetupError. */
Endpoint make_endpoint(const std::string &addr, std::uint16_t port,
		       const std::optional<std::string> &source);

/* One rdma_cm event, copied out and acknowledged. */
struct CmEvent {
	rdma_cm_event_type type;
	int status;
	rdma_cm_id *id;
	std::vector<std::uint8_t> pdata;
};

/* The next event on @ch, or nullopt once @deadline passed. */
std::optional<CmEvent> next_cm_event(rdma_event_channel &ch, Deadline deadline);

/* "RDMA_CM_EVENT_REJECTED (status 28)"; status only when non-zero. */
std::string describe(const CmEvent &ev);

/* Responder resources to offer: how many RDMA READs the target may have
 * outstanding against us. */
std::uint8_t responder_resources(ibv_context &verbs);

/* How a connect attempt ended. */
struct ConnectOutcome {
	/* nullopt: no answer before the deadline. */
	std::optional<CmEvent> event;

	bool established() const;
	bool rejected() const;
	std::string describe() const;
};

/* What the target did after something was sent. */
struct Reaction {
	enum class Kind {
		Response,	 /* a response arrived */
		Data,		 /* a SEND_WITH_IMM: a READ's data (RDMABLK_CMD_SEND_DATA) */
		BadResponse,	 /* a SEND too short to be a response */
		CompletionError, /* a work request failed (flushed, remote error) */
		Disconnected,	 /* rdma_cm says the connection is gone */
	};
	Kind kind;
	std::optional<Response> response;
	/* Data: its immediate (host order) and bytes. */
	std::uint32_t imm = 0;
	std::vector<std::uint8_t> data;
	std::string detail;

	std::string describe() const;
};

struct SessionOptions {
	/* Connect private data exactly as sent; empty: a valid request. */
	std::optional<std::vector<std::uint8_t>> pdata;
	/* Queue depth asked for in the valid request, and receive buffers. */
	std::uint16_t queue_depth = 16;
	/* Response buffers to post; nullopt: one per credit asked for. */
	std::optional<unsigned int> recvs;
	/* Post a response buffer again once its response was read. */
	bool repost = true;
};

/*
 * One RC connection to the target. The constructor connects and waits for
 * the outcome (accepted, rejected, ...); only an established session can
 * send. The data region, 2 MiB with remote read and write access, is filled
 * with a canary pattern, so a command that must be refused can be checked
 * not to have written into it.
 */
class Session {
public:
	static constexpr std::size_t kDataSize = 2 << 20;
	static constexpr std::uint8_t kCanary = 0xa5;
	/* Room for a command, a maximal inline payload and more. */
	static constexpr std::size_t kSendSlotSize = 8192;

	Session(const Endpoint &ep, const SessionOptions &opts, std::chrono::milliseconds timeout);
	~Session();
	Session(const Session &) = delete;
	Session &operator=(const Session &) = delete;

	const ConnectOutcome &outcome() const { return outcome_; }
	/* Valid once established. */
	const ConnRep &rep() const { return *rep_; }

	const Region &data() const { return data_; }
	/* Did anything write into the data region since the last fill? */
	bool data_untouched() const;
	void fill_data();

	/* A tag below the granted queue depth, round robin. */
	std::uint16_t next_tag();

	/* SEND @cmd followed by @payload, as one message. */
	void send(const Cmd &cmd, std::span<const std::uint8_t> payload = {});
	/* SEND @bytes as they are. */
	void send_raw(std::span<const std::uint8_t> bytes);
	/*
	 * RDMA WRITE the first @length bytes of the data region to
	 * (@remote_addr, @rkey) with immediate data @imm: it consumes one of
	 * the peer's receives without filling it.
	 */
	void write_imm(std::uint64_t remote_addr, std::uint32_t rkey, std::uint32_t length,
		       std::uint32_t imm);

	/* The next reaction, or nullopt once @deadline passed. */
	std::optional<Reaction> next_reaction(Deadline deadline);

private:
	void setup_qp(const SessionOptions &opts);
	void post_recv(unsigned int slot);
	/* Before a post: established (@what names it) and a send credit free. */
	void need_send_credit(const char *what);
	void poll_cq();
	void poll_cm();

	EventChannelPtr channel_;
	CmIdPtr id_;
	PdPtr pd_;
	CompChannelPtr comp_;
	CqPtr cq_;
	CmQp qp_;
	Region recv_region_;
	Region send_region_;
	Region data_;

	unsigned int nr_recv_slots_ = 0;
	unsigned int nr_send_slots_ = 0;
	unsigned int next_send_slot_ = 0;
	unsigned int sends_in_flight_ = 0;
	std::uint16_t next_tag_ = 0;
	bool repost_ = true;
	bool connected_ = false;

	ConnectOutcome outcome_;
	std::optional<ConnRep> rep_;
	std::deque<Reaction> reactions_;
};

} // namespace rdmablk::hostile
