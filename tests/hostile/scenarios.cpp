// SPDX-License-Identifier: GPL-2.0
#include "scenarios.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <utility>
#include <vector>

#include <byteswap.h>

#include "auth/exchange.hpp"

namespace rdmablk::hostile {

namespace {

/* A transfer size every logical block size (512..4096) divides. */
constexpr std::uint32_t kBlock = 4096;
constexpr std::uint64_t kU64Max = std::numeric_limits<std::uint64_t>::max();

/* The target did not do what it must. */
struct Failure {
	std::string expected;
	std::string observed;
};

/* The scenario cannot run with the options given. */
struct Skipped {
	std::string reason;
};

std::string seconds(std::chrono::milliseconds t)
{
	std::array<char, 32> buf;
	std::snprintf(buf.data(), buf.size(), "%g s", static_cast<double>(t.count()) / 1000);
	return buf.data();
}

std::string hex(std::uint64_t value)
{
	std::array<char, 32> buf;
	std::snprintf(buf.data(), buf.size(), "0x%llx", static_cast<unsigned long long>(value));
	return buf.data();
}

/* Observations in order, repeats counted: "16 x receive completion: ...". */
class Tally {
public:
	void add(const std::string &what)
	{
		if (!seen_.empty() && seen_.back().first == what)
			seen_.back().second++;
		else
			seen_.emplace_back(what, 1);
	}

	bool empty() const { return seen_.empty(); }

	std::string str() const
	{
		std::string s;
		for (const auto &[what, count] : seen_) {
			if (!s.empty())
				s += ", then ";
			s += count > 1 ? std::to_string(count) + " x " + what : what;
		}
		return s;
	}

private:
	std::vector<std::pair<std::string, unsigned int>> seen_;
};

std::vector<std::uint8_t> pattern(std::size_t len, std::uint8_t seed)
{
	std::vector<std::uint8_t> bytes(len);
	for (std::size_t i = 0; i < len; i++)
		bytes[i] = static_cast<std::uint8_t>(seed + i * 7);
	return bytes;
}

template <typename T> std::vector<std::uint8_t> bytes_of(const T &value)
{
	std::vector<std::uint8_t> bytes(sizeof(value));
	std::memcpy(bytes.data(), &value, sizeof(value));
	return bytes;
}

std::vector<std::uint8_t> open_payload(std::string_view name)
{
	return bytes_of(make_open_req(name));
}

/*
 * The keep-alive interval valid requests announce: the target refuses a
 * session without one, and none of these connections lives long enough
 * to need sending one.
 */
constexpr std::uint32_t kKeepaliveMs = 60000;

/* A valid connect request for @depth credits. */
std::vector<std::uint8_t> valid_pdata(std::uint16_t depth)
{
	return ConnReq{.queue_depth = depth, .keepalive_ms = kKeepaliveMs}.encode();
}

/* Connect with a valid request; anything but an accept fails the scenario. */
std::unique_ptr<Session> connect(const Config &cfg, SessionOptions opts = {})
{
	if (!opts.pdata)
		opts.pdata = valid_pdata(opts.queue_depth);
	auto s = std::make_unique<Session>(cfg.endpoint, opts, cfg.timeout);
	if (!s->outcome().established())
		throw Failure{"the connect request to " + cfg.endpoint.text + " to be accepted",
			      s->outcome().describe()};
	return s;
}

Reaction await(Session &s, const Config &cfg, const std::string &expected)
{
	auto r = s.next_reaction(Clock::now() + cfg.timeout);
	if (!r)
		throw Failure{expected, "no reaction within " + seconds(cfg.timeout)};
	return std::move(*r);
}

/* A command addressing the session's data region. */
Cmd io_cmd(Session &s, std::uint8_t opcode, std::uint64_t offset, std::uint32_t length,
	   std::uint8_t flags = 0)
{
	return {
		.opcode = opcode,
		.flags = flags,
		.tag = s.next_tag(),
		.length = length,
		.offset = offset,
		.addr = s.data().addr(),
		.rkey = s.data().rkey(),
	};
}

Cmd open_cmd(Session &s, std::uint8_t flags = RDMABLK_CMD_INLINE)
{
	return {
		.opcode = RDMABLK_OP_OPEN,
		.flags = flags,
		.tag = s.next_tag(),
		.length = sizeof(rdmablk_open_req),
		.offset = 0,
		.addr = 0,
		.rkey = 0,
	};
}

/*
 * Send @cmd with @payload; the response must carry @want and echo the
 * command's opcode and tag. A refused command must not have written into
 * the data region.
 */
Response expect_status(Session &s, const Config &cfg, const Cmd &cmd,
		       std::span<const std::uint8_t> payload, std::uint16_t want,
		       const std::string &what)
{
	const std::string expected = status_name(want) + " for " + what;
	s.send(cmd, payload);
	const Reaction r = await(s, cfg, expected);
	if (r.kind != Reaction::Kind::Response || r.response->status != want ||
	    r.response->opcode != cmd.opcode || r.response->tag != cmd.tag)
		throw Failure{expected, r.describe()};
	if (want != RDMABLK_S_OK && !s.data_untouched())
		throw Failure{expected + " and the initiator's buffer left alone",
			      "the target wrote into the buffer of the refused command"};
	return *r.response;
}

ExportInfo open_export(Session &s, const Config &cfg, const std::string &name)
{
	const Response r = expect_status(s, cfg, open_cmd(s), open_payload(name), RDMABLK_S_OK,
					 "OPEN of export " + name);
	if (!r.open)
		throw Failure{"an OPEN response carrying struct rdmablk_open_rsp",
			      "a " + std::to_string(r.len) + "-byte response"};
	return decode_open_rsp(*r.open);
}

/*
 * A valid READ of @length bytes at @offset must succeed and write exactly
 * @length bytes into the data region: proves the connection still works
 * after what went before.
 */
void expect_read_ok(Session &s, const Config &cfg, std::uint64_t offset = 0,
		    std::uint32_t length = kBlock)
{
	const std::string what = "a valid READ of " + std::to_string(length) + " bytes at offset " +
				 std::to_string(offset);
	expect_status(s, cfg, io_cmd(s, RDMABLK_OP_READ, offset, length), {}, RDMABLK_S_OK, what);
	const auto rest = s.data().bytes().subspan(length);
	if (!std::all_of(rest.begin(), rest.end(), [](std::uint8_t b) { return b == Session::kCanary; }))
		throw Failure{what + " to write " + std::to_string(length) + " bytes",
			      "the target wrote beyond them"};
	s.fill_data();
}

/*
 * Wait for the target to drop the connection (rdma_cm DISCONNECTED); error
 * completions on the way are noted. Returns what was seen.
 */
std::string expect_drop(Session &s, const Config &cfg, const std::string &what, bool ok_allowed)
{
	const std::string expected = "a disconnect after " + what;
	const Deadline deadline = Clock::now() + cfg.timeout;
	Tally seen;

	for (;;) {
		auto r = s.next_reaction(deadline);
		if (!r)
			throw Failure{expected, (seen.empty() ? "" : seen.str() + ", then ") +
							"no disconnect within " + seconds(cfg.timeout)};
		switch (r->kind) {
		case Reaction::Kind::Disconnected:
			seen.add(r->detail);
			return seen.str();
		case Reaction::Kind::Response:
			if (r->response->status == RDMABLK_S_OK && !ok_allowed)
				throw Failure{expected, "response OK: the target executed it"};
			seen.add("response " + status_name(r->response->status));
			break;
		case Reaction::Kind::Data:
			if (!ok_allowed)
				throw Failure{expected, r->describe() + ": the target executed it"};
			seen.add(r->describe());
			break;
		case Reaction::Kind::BadResponse:
		case Reaction::Kind::CompletionError:
			seen.add(r->detail);
			break;
		}
	}
}

std::string expect_rejected(const Config &cfg, std::vector<std::uint8_t> pdata,
			    std::uint16_t reason, const std::string &what)
{
	SessionOptions opts;
	opts.pdata = std::move(pdata);
	const Session s(cfg.endpoint, opts, cfg.timeout);
	const std::string expected = "REJECTED with " + rej_reason_name(reason) + " for " + what;
	const ConnectOutcome &o = s.outcome();
	if (!o.rejected())
		throw Failure{expected, o.describe()};
	const auto rej = decode_conn_rej(o.event->pdata);
	if (!rej || rej->reason != reason)
		throw Failure{expected, o.describe()};
	if (rej->version != RDMABLK_PROTO_VERSION)
		throw Failure{expected + ", naming version " + std::to_string(RDMABLK_PROTO_VERSION),
			      "version " + std::to_string(rej->version)};
	return rej_reason_name(reason);
}

/* --- connect requests ---------------------------------------------------- */

std::string conn_short_pdata(const Config &cfg)
{
	/*
	 * InfiniBand CM (and so RoCE) pads private data with zeroes to its
	 * fixed size, so a target cannot tell a short request from one whose
	 * tail is zero. What must be refused is a request cut inside the magic.
	 */
	const std::vector<std::uint8_t> valid = ConnReq{.queue_depth = 16}.encode();
	for (const std::size_t len : {0, 3})
		expect_rejected(cfg, {valid.begin(), valid.begin() + static_cast<long>(len)},
				RDMABLK_REJ_INVALID, std::to_string(len) + " bytes of private data");
	return "REJECTED with REJ_INVALID for 0 and 3 bytes of private data";
}

std::string conn_bad_magic(const Config &cfg)
{
	for (const std::uint32_t magic : {0xdeadbeefU, bswap_32(RDMABLK_PROTO_MAGIC), 0U})
		expect_rejected(cfg, ConnReq{.magic = magic, .queue_depth = 16}.encode(),
				RDMABLK_REJ_INVALID, "magic " + hex(magic));
	return "REJECTED with REJ_INVALID for magic 0xdeadbeef, byte-swapped and zero";
}

std::string conn_bad_version(const Config &cfg)
{
	for (const std::uint16_t version : {0, RDMABLK_PROTO_VERSION + 1, 0xffff})
		expect_rejected(cfg, ConnReq{.version = version, .queue_depth = 16}.encode(),
				RDMABLK_REJ_VERSION, "version " + std::to_string(version));
	return "REJECTED with REJ_VERSION naming version " +
	       std::to_string(RDMABLK_PROTO_VERSION) + " for versions 0, " +
	       std::to_string(RDMABLK_PROTO_VERSION + 1) + " and 65535";
}

std::string conn_zero_depth(const Config &cfg)
{
	return "REJECTED with " + expect_rejected(cfg, ConnReq{.queue_depth = 0}.encode(),
						  RDMABLK_REJ_QUEUE_DEPTH, "queue depth 0");
}

/* --- OPEN ---------------------------------------------------------------- */

std::string io_before_open(const Config &cfg)
{
	auto s = connect(cfg);
	const auto data = pattern(kBlock, 1);

	expect_status(*s, cfg, io_cmd(*s, RDMABLK_OP_READ, 0, kBlock), {}, RDMABLK_S_NOT_OPEN,
		      "READ before OPEN");
	expect_status(*s, cfg, io_cmd(*s, RDMABLK_OP_WRITE, 0, kBlock, RDMABLK_CMD_INLINE), data,
		      RDMABLK_S_NOT_OPEN, "inline WRITE before OPEN");
	expect_status(*s, cfg, io_cmd(*s, RDMABLK_OP_WRITE, 0, kBlock), {}, RDMABLK_S_NOT_OPEN,
		      "WRITE before OPEN");
	expect_status(*s, cfg, io_cmd(*s, RDMABLK_OP_FLUSH, 0, 0), {}, RDMABLK_S_NOT_OPEN,
		      "FLUSH before OPEN");
	expect_status(*s, cfg, io_cmd(*s, RDMABLK_OP_WRITE_ZEROES, 0, kBlock), {},
		      RDMABLK_S_NOT_OPEN, "WRITE_ZEROES before OPEN");
	expect_status(*s, cfg, io_cmd(*s, RDMABLK_OP_DISCARD, 0, kBlock), {}, RDMABLK_S_NOT_OPEN,
		      "DISCARD before OPEN");
	expect_status(*s, cfg, io_cmd(*s, RDMABLK_OP_KEEPALIVE, 0, 0), {}, RDMABLK_S_OK,
		      "KEEPALIVE before OPEN");
	open_export(*s, cfg, cfg.export_name);
	expect_read_ok(*s, cfg);
	return "NOT_OPEN for READ, inline and keyed WRITE, FLUSH, WRITE_ZEROES, DISCARD; "
	       "KEEPALIVE OK; after OPEN a READ OK";
}

std::string open_unknown_export(const Config &cfg)
{
	auto s = connect(cfg);
	const std::vector<std::string> names = {
		"no-such-export",
		"",
		"../" + cfg.export_name,
		std::string(RDMABLK_EXPORT_NAME_MAX - 1, 'z'),
	};
	for (const std::string &name : names)
		expect_status(*s, cfg, open_cmd(*s), open_payload(name), RDMABLK_S_NO_EXPORT,
			      "OPEN of \"" + name + "\"");
	/* A failed OPEN must leave the connection without an export. */
	expect_status(*s, cfg, io_cmd(*s, RDMABLK_OP_READ, 0, kBlock), {}, RDMABLK_S_NOT_OPEN,
		      "READ after failed OPENs");
	return "NO_EXPORT for \"no-such-export\", \"\", \"../" + cfg.export_name +
	       "\" and a 63-character name; a READ then NOT_OPEN";
}

std::string open_unterminated_name(const Config &cfg)
{
	auto s = connect(cfg);
	/* The real export's name, then no NUL in the whole field. */
	std::string name = cfg.export_name;
	name.resize(RDMABLK_EXPORT_NAME_MAX, 'x');
	expect_status(*s, cfg, open_cmd(*s), open_payload(name), RDMABLK_S_INVALID,
		      "OPEN with 64 name bytes and no NUL");
	expect_status(*s, cfg, io_cmd(*s, RDMABLK_OP_READ, 0, kBlock), {}, RDMABLK_S_NOT_OPEN,
		      "READ after the refused OPEN");
	return "INVALID for a 64-byte name without NUL; a READ then NOT_OPEN";
}

std::string open_twice(const Config &cfg)
{
	auto s = connect(cfg);
	open_export(*s, cfg, cfg.export_name);
	std::vector<std::string> names = {cfg.export_name, "no-such-export"};
	if (cfg.ro_export)
		names.push_back(*cfg.ro_export);
	for (const std::string &name : names)
		expect_status(*s, cfg, open_cmd(*s), open_payload(name), RDMABLK_S_INVALID,
			      "a second OPEN, of \"" + name + "\"");
	expect_read_ok(*s, cfg);
	return "INVALID for " + std::to_string(names.size()) +
	       " OPENs after the first; a READ then OK";
}

std::string open_malformed(const Config &cfg)
{
	auto s = connect(cfg);
	const auto req = open_payload(cfg.export_name);
	auto longer = req;
	longer.push_back(0);

	expect_status(*s, cfg, open_cmd(*s, 0), req, RDMABLK_S_INVALID,
		      "OPEN with its payload but without INLINE");
	expect_status(*s, cfg, open_cmd(*s), std::span(req).first(req.size() - 1),
		      RDMABLK_S_INVALID, "OPEN with a 95-byte payload");
	expect_status(*s, cfg, open_cmd(*s), longer, RDMABLK_S_INVALID,
		      "OPEN with a 97-byte payload");
	expect_status(*s, cfg, open_cmd(*s), {}, RDMABLK_S_INVALID, "OPEN without payload");
	expect_status(*s, cfg, io_cmd(*s, RDMABLK_OP_READ, 0, kBlock), {}, RDMABLK_S_NOT_OPEN,
		      "READ after the refused OPENs");
	return "INVALID for OPEN without INLINE, with 95, 97 and 0 payload bytes; "
	       "a READ then NOT_OPEN";
}

/* --- authentication ------------------------------------------------------ */

/* An AUTH_* command carrying @length inline bytes. */
Cmd auth_cmd(Session &s, std::uint8_t opcode, std::uint32_t length,
	     std::uint8_t flags = RDMABLK_CMD_INLINE)
{
	return {
		.opcode = opcode,
		.flags = flags,
		.tag = s.next_tag(),
		.length = length,
		.offset = 0,
		.addr = 0,
		.rkey = 0,
	};
}

/* A well-formed challenge for export @name, from the hostile host id. */
rdmablk_auth_chal_req chal_req(std::string_view name)
{
	const rdmablk_open_req open = make_open_req(name);
	rdmablk_auth_chal_req req = {};
	std::memcpy(req.name, open.name, sizeof(req.name));
	std::memcpy(req.hostid, open.hostid, sizeof(req.hostid));
	req.hmac = RDMABLK_AUTH_HMAC_SHA256;
	const auto nonce = pattern(sizeof(req.nonce), 0x5a);
	std::memcpy(req.nonce, nonce.data(), sizeof(req.nonce));
	return req;
}

/* A connection on which RDMABLK_CONN_AUTH was agreed. */
std::unique_ptr<Session> connect_auth(const Config &cfg)
{
	SessionOptions opts;
	opts.pdata = ConnReq{.queue_depth = opts.queue_depth,
			     .flags = RDMABLK_CONN_AUTH,
			     .keepalive_ms = kKeepaliveMs}
			     .encode();
	auto s = connect(cfg, opts);
	const auto rep = decode_conn_rep(s->outcome().event->pdata);
	if (!rep || !(rep->flags & RDMABLK_CONN_AUTH))
		throw Failure{"the target to agree on RDMABLK_CONN_AUTH", s->outcome().describe()};
	return s;
}

/* Send AUTH_CHALLENGE @req: the response must be @want. */
Response expect_chal(Session &s, const Config &cfg, std::span<const std::uint8_t> req,
		     std::uint16_t want, const std::string &what)
{
	return expect_status(s, cfg,
			     auth_cmd(s, RDMABLK_OP_AUTH_CHALLENGE,
				      static_cast<std::uint32_t>(req.size())),
			     req, want, what);
}

/*
 * Every malformed, repeated and out-of-order authentication message is
 * refused, and a connection whose exchange failed opens nothing. Not in
 * "all": its last, refused proof backs this address off, which would turn
 * away the scenarios after it (tests/vm/065 runs it).
 */
std::string auth_messages(const Config &cfg)
{
	const auto good = bytes_of(chal_req(cfg.export_name));
	const std::vector<std::uint8_t> reply(sizeof(rdmablk_auth_reply_req), 0xa5);
	unsigned int refused = 0;

	/* Not agreed at connect: AUTH_* are unknown commands there. */
	{
		auto s = connect(cfg);
		expect_chal(*s, cfg, good, RDMABLK_S_INVALID,
			    "AUTH_CHALLENGE where RDMABLK_CONN_AUTH was not agreed");
		open_export(*s, cfg, cfg.export_name);
		expect_read_ok(*s, cfg);
		refused++;
	}

	/* Malformed challenges: INVALID, and the exchange is over. */
	auto longer = good;
	longer.push_back(0);
	auto bad_hmac = chal_req(cfg.export_name);
	bad_hmac.hmac = 0x7f;
	auto bad_flags = chal_req(cfg.export_name);
	bad_flags.flags = 0x80;
	auto unterminated = chal_req(cfg.export_name);
	std::memset(unterminated.name, 'x', sizeof(unterminated.name));
	const std::vector<std::pair<std::vector<std::uint8_t>, std::string>> malformed = {
		{std::vector(good.begin(), good.end() - 1), "a challenge 1 byte short"},
		{longer, "a challenge 1 byte long"},
		{bytes_of(bad_hmac), "a challenge for HMAC 0x7f"},
		{bytes_of(bad_flags), "a challenge with unknown flags"},
		{bytes_of(unterminated), "a challenge whose export name has no NUL"},
		{bytes_of(chal_req("")), "a challenge naming no export on an I/O connection"},
	};
	for (const auto &[payload, what] : malformed) {
		auto s = connect_auth(cfg);
		expect_chal(*s, cfg, payload, RDMABLK_S_INVALID, what);
		expect_chal(*s, cfg, good, RDMABLK_S_AUTH_FAILED, "a challenge after " + what);
		expect_status(*s, cfg, open_cmd(*s), open_payload(cfg.export_name),
			      RDMABLK_S_AUTH_REQUIRED, "OPEN after " + what);
		refused += 3;
	}

	/* Out of order, repeated, and a wrong proof. */
	{
		auto s = connect_auth(cfg);
		expect_status(*s, cfg, auth_cmd(*s, RDMABLK_OP_AUTH_REPLY, reply.size()), reply,
			      RDMABLK_S_AUTH_FAILED, "AUTH_REPLY before any challenge");
		expect_status(*s, cfg, auth_cmd(*s, RDMABLK_OP_AUTH_CHALLENGE, good.size(), 0),
			      good, RDMABLK_S_INVALID, "AUTH_CHALLENGE without INLINE");
		refused += 2;
	}
	{
		auto s = connect_auth(cfg);
		const Response r = expect_chal(*s, cfg, good, RDMABLK_S_OK,
					       "a well-formed challenge (answered alike for any host)");
		if (r.len != sizeof(rdmablk_rsp) + sizeof(rdmablk_auth_chal_rsp))
			throw Failure{"the challenge answered with struct rdmablk_auth_chal_rsp",
				      "a " + std::to_string(r.len) + "-byte response"};
		expect_chal(*s, cfg, good, RDMABLK_S_AUTH_FAILED, "a second challenge");
		expect_status(*s, cfg, auth_cmd(*s, RDMABLK_OP_AUTH_REPLY, reply.size()), reply,
			      RDMABLK_S_AUTH_FAILED, "a proof after the exchange failed");
		expect_status(*s, cfg, open_cmd(*s), open_payload(cfg.export_name),
			      RDMABLK_S_AUTH_REQUIRED, "OPEN after a failed exchange");
		refused += 3;
	}
	{
		auto s = connect_auth(cfg);
		expect_chal(*s, cfg, good, RDMABLK_S_OK, "a well-formed challenge");
		expect_status(*s, cfg,
			      auth_cmd(*s, RDMABLK_OP_AUTH_REPLY, reply.size() - 1),
			      std::span(reply).first(reply.size() - 1), RDMABLK_S_AUTH_FAILED,
			      "a 63-byte proof");
		refused++;
	}
	/* Too late: after OPEN. */
	{
		auto s = connect_auth(cfg);
		open_export(*s, cfg, cfg.export_name);
		expect_chal(*s, cfg, good, RDMABLK_S_INVALID, "AUTH_CHALLENGE after OPEN");
		expect_read_ok(*s, cfg);
		refused++;
	}
	/* Last: a proof tried and refused backs this address off. */
	{
		auto s = connect_auth(cfg);
		expect_chal(*s, cfg, good, RDMABLK_S_OK, "a well-formed challenge");
		expect_status(*s, cfg, auth_cmd(*s, RDMABLK_OP_AUTH_REPLY, reply.size()), reply,
			      RDMABLK_S_AUTH_FAILED, "a proof from a host without a key");
		expect_status(*s, cfg, open_cmd(*s), open_payload(cfg.export_name),
			      RDMABLK_S_AUTH_REQUIRED, "OPEN after a refused proof");
		refused += 2;
	}
	return std::to_string(refused) +
	       " malformed, repeated, out-of-order or late authentication messages and OPENs "
	       "after a failed exchange refused; open connections still serve READs";
}

/*
 * A peer that tries wrong proofs at line rate for 10 s, reconnecting at
 * once after each refusal. Every connect must be accepted and every proof
 * refused: the target holds a refused proof against nothing it cannot
 * verify, and a source address is such a thing (a local user on a host,
 * or a spoofer, sends from that host's address). Guessing a key of 256
 * random bits or more is out of reach at any rate. Not in "all": it runs
 * for 10 s; tests/vm/067 runs it from the address of a host that holds its
 * key, beside that host's verified I/O and reconnect.
 */
std::string auth_hammer(const Config &cfg)
{
	constexpr auto kHammer = std::chrono::seconds(10);
	const auto good = bytes_of(chal_req(cfg.export_name));
	const std::vector<std::uint8_t> reply(sizeof(rdmablk_auth_reply_req), 0xa5);
	unsigned int proofs = 0;
	const auto start = Clock::now();

	while (Clock::now() < start + kHammer) {
		SessionOptions opts;
		opts.pdata = ConnReq{.queue_depth = opts.queue_depth,
				     .flags = RDMABLK_CONN_AUTH,
				     .keepalive_ms = kKeepaliveMs}
				     .encode();
		Session s(cfg.endpoint, opts, cfg.timeout);
		const ConnectOutcome &o = s.outcome();
		if (!o.established())
			throw Failure{"every connect accepted, after " + std::to_string(proofs) +
					      " refused proofs from this address",
				      o.describe()};
		expect_chal(s, cfg, good, RDMABLK_S_OK, "a well-formed challenge");
		expect_status(s, cfg, auth_cmd(s, RDMABLK_OP_AUTH_REPLY, reply.size()), reply,
			      RDMABLK_S_AUTH_FAILED, "a wrong proof");
		proofs++;
	}
	return std::to_string(proofs) + " wrong proofs in " + seconds(kHammer) +
	       ", each on a connection accepted at once, each refused";
}

/* The target's nonce in the response @r to AUTH_CHALLENGE. */
std::vector<std::uint8_t> target_nonce(const Response &r)
{
	if (r.body.size() != sizeof(rdmablk_auth_chal_rsp))
		throw Failure{"the challenge answered with struct rdmablk_auth_chal_rsp",
			      "a " + std::to_string(r.len) + "-byte response"};
	const auto nonce = std::span(r.body).subspan(offsetof(rdmablk_auth_chal_rsp, nonce),
						     RDMABLK_AUTH_NONCE_SIZE);
	return {nonce.begin(), nonce.end()};
}

/* What a genuine exchange sent and drew, for a replay. */
struct Proven {
	std::vector<std::uint8_t> nonce;
	std::vector<std::uint8_t> proof;
};

/*
 * Authenticate @s as the host of @ex, whose challenge is @challenge,
 * holding the key the target has for it: both must succeed.
 */
Proven authenticate(Session &s, const Config &cfg, auth::HostExchange &ex,
		    std::span<const std::uint8_t> challenge)
{
	const Response r = expect_chal(s, cfg, challenge, RDMABLK_S_OK,
				       "the challenge of a host holding its key");
	Proven p{target_nonce(r), bytes_of(ex.reply(r.status, r.body))};
	const Response done = expect_status(
		s, cfg, auth_cmd(s, RDMABLK_OP_AUTH_REPLY, static_cast<std::uint32_t>(p.proof.size())),
		p.proof, RDMABLK_S_OK, "the proof of a host holding its key");
	ex.finish(done.status, done.body);
	return p;
}

/* This host's id, as every OPEN and challenge of these scenarios names it. */
auth::HostId own_hostid()
{
	const rdmablk_open_req open = make_open_req("");
	auth::HostId hostid;
	std::memcpy(hostid.data(), open.hostid, hostid.size());
	return hostid;
}

/*
 * A connection speaks for one host. Holding the key the target has for
 * its host id (--key-file), this host authenticates, then OPENs naming
 * another host id: refused, and the connection dropped. Were the claim to
 * follow the last command, the connection would no longer count as the
 * proven host's when that host's keys are revoked (HOST_DEL closes the
 * connections that claimed it) and, staying up, could then OPEN under the
 * proven id: a revoked key would keep an export open.
 */
std::string auth_second_hostid(const Config &cfg)
{
	if (!cfg.key)
		throw Skipped{"needs the key the target holds for this host (--key-file)"};
	auth::HostExchange ex(cfg.export_name, own_hostid(), *cfg.key, nullptr,
			      auth::random_nonce());
	auto s = connect_auth(cfg);
	authenticate(*s, cfg, ex, bytes_of(ex.challenge()));
	rdmablk_open_req other = make_open_req(cfg.export_name);
	other.hostid[0] ^= 0xff;
	s->send(open_cmd(*s), bytes_of(other));
	return "authenticated, then an OPEN naming another host id: " +
	       expect_drop(*s, cfg, "an OPEN naming another host id than the one proved", false);
}

/*
 * A recorded exchange, replayed: holding the key the target has for its
 * host id (--key-file), this host authenticates once, opens the export and
 * reads, and keeps its challenge and its proof. Sent again word for word
 * on a new connection, the proof is over the earlier target nonce, not
 * the one the target now draws: refused, and the export stays closed.
 * What an attacker who recorded a genuine exchange on the fabric can do
 * with it. Not in "all": it needs the key the target holds for this
 * host, which tests/vm/065 gives it.
 */
std::string auth_replay(const Config &cfg)
{
	if (!cfg.key)
		throw Skipped{"needs the key the target holds for this host (--key-file)"};
	auth::HostExchange genuine(cfg.export_name, own_hostid(), *cfg.key, nullptr,
				   auth::random_nonce());
	const auto challenge = bytes_of(genuine.challenge());
	Proven recorded;
	{
		auto s = connect_auth(cfg);
		recorded = authenticate(*s, cfg, genuine, challenge);
		open_export(*s, cfg, cfg.export_name);
		expect_read_ok(*s, cfg);
	}

	auto s = connect_auth(cfg);
	const Response r = expect_chal(*s, cfg, challenge, RDMABLK_S_OK,
				       "the recorded challenge, sent again");
	if (target_nonce(r) == recorded.nonce)
		throw Failure{"a fresh target nonce for the replayed challenge",
			      "the nonce of the recorded exchange again"};
	expect_status(*s, cfg,
		      auth_cmd(*s, RDMABLK_OP_AUTH_REPLY, static_cast<std::uint32_t>(recorded.proof.size())),
		      recorded.proof, RDMABLK_S_AUTH_FAILED, "the recorded proof, replayed");
	expect_status(*s, cfg, open_cmd(*s), open_payload(cfg.export_name),
		      RDMABLK_S_AUTH_REQUIRED, "OPEN after the replayed proof");
	return "the genuine exchange opened the export and read; replayed on a new "
	       "connection, the target drew a fresh nonce, refused the recorded proof "
	       "(AUTH_FAILED) and the OPEN after it (AUTH_REQUIRED)";
}

/* --- malformed commands -------------------------------------------------- */

std::string unknown_opcode(const Config &cfg)
{
	auto s = connect(cfg);
	open_export(*s, cfg, cfg.export_name);
	for (const std::uint8_t op : {0x00, RDMABLK_OP_KEEPALIVE + 1, 0x7f, 0xff})
		expect_status(*s, cfg, io_cmd(*s, op, 0, kBlock), {}, RDMABLK_S_INVALID,
			      "opcode " + hex(op));
	expect_read_ok(*s, cfg);
	return "INVALID for opcodes 0x0, " + hex(RDMABLK_OP_KEEPALIVE + 1) +
	       ", 0x7f, 0xff; a READ then OK";
}

std::string unknown_flags(const Config &cfg)
{
	auto s = connect(cfg);
	open_export(*s, cfg, cfg.export_name);

	struct Case {
		std::uint8_t opcode;
		std::uint8_t flags;
		std::uint32_t length;
	};
	static constexpr std::array cases = {
		Case{RDMABLK_OP_READ, 0x80, kBlock},
		/* RDMABLK_CMD_BATCH << 1: the batch flag is framing (batch-*) */
		Case{RDMABLK_OP_READ, RDMABLK_CMD_BATCH << 1, kBlock},
		Case{RDMABLK_OP_READ, RDMABLK_CMD_FUA, kBlock},
		Case{RDMABLK_OP_READ, RDMABLK_CMD_NOUNMAP, kBlock},
		Case{RDMABLK_OP_WRITE, 0x40, kBlock},
		Case{RDMABLK_OP_WRITE, RDMABLK_CMD_NOUNMAP, kBlock},
		Case{RDMABLK_OP_FLUSH, RDMABLK_CMD_FUA, 0},
		Case{RDMABLK_OP_WRITE_ZEROES, RDMABLK_CMD_FUA, kBlock},
		Case{RDMABLK_OP_DISCARD, RDMABLK_CMD_NOUNMAP, kBlock},
		Case{RDMABLK_OP_KEEPALIVE, 0x80, 0},
	};
	for (const Case &c : cases)
		expect_status(*s, cfg, io_cmd(*s, c.opcode, 0, c.length, c.flags), {},
			      RDMABLK_S_INVALID, opcode_name(c.opcode) + " with flags " + hex(c.flags));
	expect_read_ok(*s, cfg);
	return "INVALID for " + std::to_string(cases.size()) +
	       " commands with unknown or misplaced flags; a READ then OK";
}

std::string zero_length(const Config &cfg)
{
	auto s = connect(cfg);
	const ExportInfo info = open_export(*s, cfg, cfg.export_name);
	std::vector<std::uint8_t> ops = {RDMABLK_OP_READ, RDMABLK_OP_WRITE};
	if (info.flags & RDMABLK_EXP_WRITE_ZEROES)
		ops.push_back(RDMABLK_OP_WRITE_ZEROES);
	if (info.flags & RDMABLK_EXP_DISCARD)
		ops.push_back(RDMABLK_OP_DISCARD);

	std::string names;
	for (const std::uint8_t op : ops) {
		expect_status(*s, cfg, io_cmd(*s, op, 0, 0), {}, RDMABLK_S_INVALID,
			      opcode_name(op) + " of 0 bytes");
		names += (names.empty() ? "" : ", ") + opcode_name(op);
	}
	expect_read_ok(*s, cfg);
	return "INVALID for " + names + " of 0 bytes; a READ then OK";
}

std::string misaligned(const Config &cfg)
{
	auto s = connect(cfg);
	const ExportInfo info = open_export(*s, cfg, cfg.export_name);
	const std::uint32_t half = info.logical_block_size / 2;

	struct Case {
		std::uint8_t opcode;
		std::uint64_t offset;
		std::uint32_t length;
	};
	const std::array cases = {
		Case{RDMABLK_OP_READ, 1, kBlock},
		Case{RDMABLK_OP_READ, half, kBlock},
		Case{RDMABLK_OP_READ, 0, kBlock + 1},
		Case{RDMABLK_OP_READ, 0, half},
		Case{RDMABLK_OP_WRITE, half, kBlock},
		Case{RDMABLK_OP_WRITE_ZEROES, 1, kBlock},
	};
	for (const Case &c : cases)
		expect_status(*s, cfg, io_cmd(*s, c.opcode, c.offset, c.length), {},
			      RDMABLK_S_INVALID,
			      opcode_name(c.opcode) + " of " + std::to_string(c.length) +
				      " bytes at offset " + std::to_string(c.offset));
	expect_read_ok(*s, cfg);
	return "INVALID for offsets 1 and " + std::to_string(half) + ", lengths " +
	       std::to_string(kBlock + 1) + " and " + std::to_string(half) +
	       " (logical block " + std::to_string(info.logical_block_size) +
	       "); a READ then OK";
}

std::string out_of_range(const Config &cfg)
{
	auto s = connect(cfg);
	const ExportInfo info = open_export(*s, cfg, cfg.export_name);
	const std::uint64_t size = info.size;
	const std::uint32_t lbs = info.logical_block_size;
	const auto data = pattern(kBlock, 2);

	struct Case {
		std::uint8_t opcode;
		std::uint8_t flags;
		std::uint64_t offset;
		std::uint32_t length;
		const char *what;
	};
	const std::array cases = {
		Case{RDMABLK_OP_READ, 0, size, kBlock, "at the end"},
		Case{RDMABLK_OP_READ, 0, size + kBlock, kBlock, "past the end"},
		Case{RDMABLK_OP_READ, 0, size - kBlock, 2 * kBlock, "straddling the end"},
		Case{RDMABLK_OP_READ, 0, kU64Max - kBlock + 1, 2 * kBlock, "wrapping past 2^64"},
		Case{RDMABLK_OP_READ, 0, kU64Max - lbs + 1, lbs, "ending at 2^64"},
		Case{RDMABLK_OP_WRITE, RDMABLK_CMD_INLINE, kU64Max - kBlock + 1, kBlock,
		     "ending at 2^64"},
		Case{RDMABLK_OP_WRITE, RDMABLK_CMD_INLINE, size, kBlock, "at the end"},
		Case{RDMABLK_OP_WRITE, 0, size - kBlock, 2 * kBlock, "straddling the end"},
		Case{RDMABLK_OP_WRITE_ZEROES, 0, size - kBlock, 2 * kBlock, "straddling the end"},
		Case{RDMABLK_OP_WRITE_ZEROES, 0, kU64Max - kBlock + 1, kBlock, "ending at 2^64"},
	};
	for (const Case &c : cases) {
		const bool inl = c.flags & RDMABLK_CMD_INLINE;
		expect_status(*s, cfg, io_cmd(*s, c.opcode, c.offset, c.length, c.flags),
			      inl ? std::span<const std::uint8_t>(data) : std::span<const std::uint8_t>(),
			      RDMABLK_S_RANGE,
			      std::string(inl ? "inline " : "") + opcode_name(c.opcode) + " " +
				      c.what + " (offset " + hex(c.offset) + ", " +
				      std::to_string(c.length) + " bytes)");
	}
	/* The last block is still in range. */
	expect_read_ok(*s, cfg, size - kBlock, kBlock);
	return "RANGE for " + std::to_string(cases.size()) +
	       " commands at, past, straddling the end and wrapping at 2^64; "
	       "a READ of the last block OK";
}

std::string oversized_length(const Config &cfg)
{
	auto s = connect(cfg);
	open_export(*s, cfg, cfg.export_name);
	const std::uint32_t max = s->rep().max_io_size;
	const std::uint32_t over = max + kBlock;
	const std::uint32_t huge = 0xfffff000;

	expect_status(*s, cfg, io_cmd(*s, RDMABLK_OP_READ, 0, over), {}, RDMABLK_S_INVALID,
		      "READ of max_io_size + 4096 bytes");
	expect_status(*s, cfg, io_cmd(*s, RDMABLK_OP_WRITE, 0, over), {}, RDMABLK_S_INVALID,
		      "WRITE of max_io_size + 4096 bytes");
	expect_status(*s, cfg, io_cmd(*s, RDMABLK_OP_READ, 0, huge), {}, RDMABLK_S_INVALID,
		      "READ of " + hex(huge) + " bytes");
	std::string boundary;
	if (max <= Session::kDataSize) {
		expect_read_ok(*s, cfg, 0, max);
		boundary = "; a READ of max_io_size OK";
	} else {
		expect_read_ok(*s, cfg);
		boundary = "; a READ then OK";
	}
	return "INVALID for READ and WRITE of " + std::to_string(over) + " bytes (max_io_size " +
	       std::to_string(max) + ") and READ of " + hex(huge) + boundary;
}

std::string inline_mismatch(const Config &cfg)
{
	auto s = connect(cfg);
	open_export(*s, cfg, cfg.export_name);
	const auto full = pattern(kBlock, 3);
	const auto half = std::span(full).first(kBlock / 2);
	const auto small = std::span(full).first(512);

	struct Case {
		std::uint8_t opcode;
		std::uint8_t flags;
		std::uint32_t length;
		std::span<const std::uint8_t> payload;
		const char *what;
	};
	const std::array cases = {
		Case{RDMABLK_OP_WRITE, RDMABLK_CMD_INLINE, kBlock, half, "INLINE 4096 bytes carrying 2048"},
		Case{RDMABLK_OP_WRITE, RDMABLK_CMD_INLINE, kBlock / 2, full, "INLINE 2048 bytes carrying 4096"},
		Case{RDMABLK_OP_WRITE, RDMABLK_CMD_INLINE, kBlock, {}, "INLINE without payload"},
		Case{RDMABLK_OP_WRITE, 0, kBlock, full, "4096-byte payload without INLINE"},
		Case{RDMABLK_OP_READ, RDMABLK_CMD_INLINE, kBlock, full, "INLINE with a payload"},
		Case{RDMABLK_OP_READ, 0, kBlock, small, "512-byte payload"},
		Case{RDMABLK_OP_FLUSH, 0, 0, small, "512-byte payload"},
		Case{RDMABLK_OP_KEEPALIVE, 0, 0, small, "512-byte payload"},
	};
	for (const Case &c : cases)
		expect_status(*s, cfg, io_cmd(*s, c.opcode, 0, c.length, c.flags), c.payload,
			      RDMABLK_S_INVALID, opcode_name(c.opcode) + " " + c.what);
	expect_read_ok(*s, cfg);
	return "INVALID for " + std::to_string(cases.size()) +
	       " commands whose payload and INLINE flag disagree; a READ then OK";
}

std::string write_read_only(const Config &cfg)
{
	if (!cfg.ro_export)
		throw Skipped{"needs a read-only export (--ro-export)"};
	const std::string &name = *cfg.ro_export;
	constexpr std::uint32_t len = 64 << 10;

	auto s = connect(cfg);
	const ExportInfo info = open_export(*s, cfg, name);
	if (!(info.flags & RDMABLK_EXP_READ_ONLY))
		throw Failure{"export " + name + " to be read-only",
			      "an OPEN response without RDMABLK_EXP_READ_ONLY"};

	expect_status(*s, cfg, io_cmd(*s, RDMABLK_OP_READ, 0, len), {}, RDMABLK_S_OK,
		      "READ of the read-only export");
	const std::vector<std::uint8_t> before(s->data().bytes().begin(),
					       s->data().bytes().begin() + len);
	s->fill_data();

	struct Case {
		std::uint8_t opcode;
		std::uint8_t flags;
		std::uint32_t length;
	};
	static constexpr std::array cases = {
		Case{RDMABLK_OP_WRITE, RDMABLK_CMD_INLINE, kBlock},
		Case{RDMABLK_OP_WRITE, 0, len},
		Case{RDMABLK_OP_WRITE, RDMABLK_CMD_FUA, kBlock},
		Case{RDMABLK_OP_WRITE_ZEROES, 0, len},
		Case{RDMABLK_OP_DISCARD, 0, len},
		Case{RDMABLK_OP_FLUSH, 0, 0},
	};
	const auto data = pattern(kBlock, 4);
	for (const Case &c : cases) {
		const bool inl = c.flags & RDMABLK_CMD_INLINE;
		expect_status(*s, cfg, io_cmd(*s, c.opcode, 0, c.length, c.flags),
			      inl ? std::span<const std::uint8_t>(data) : std::span<const std::uint8_t>(),
			      RDMABLK_S_READ_ONLY,
			      std::string(inl ? "inline " : "") + opcode_name(c.opcode) +
				      (c.flags & RDMABLK_CMD_FUA ? " FUA" : "") + " to " + name);
	}

	expect_status(*s, cfg, io_cmd(*s, RDMABLK_OP_READ, 0, len), {}, RDMABLK_S_OK,
		      "READ of the read-only export");
	if (!std::equal(before.begin(), before.end(), s->data().bytes().begin()))
		throw Failure{"the read-only export unchanged", "different data after the refused writes"};
	return "READ_ONLY for inline, keyed and FUA WRITE, WRITE_ZEROES, DISCARD, FLUSH; "
	       "the export's data unchanged";
}

/* --- commands the target cannot survive ---------------------------------- */

std::uint32_t random_rkey(const Session &s)
{
	static std::mt19937 rng{std::random_device{}()};
	std::uint32_t rkey;
	do
		rkey = static_cast<std::uint32_t>(rng());
	while (rkey == s.data().rkey());
	return rkey;
}

std::string bogus_rkey(const Config &cfg)
{
	std::string observed;
	for (const std::uint8_t op : {RDMABLK_OP_WRITE, RDMABLK_OP_READ}) {
		auto s = connect(cfg);
		open_export(*s, cfg, cfg.export_name);
		Cmd cmd = io_cmd(*s, op, 0, kBlock);
		cmd.rkey = random_rkey(*s);
		s->send(cmd);
		const std::string what = opcode_name(op) + " of 4096 bytes with rkey " + hex(cmd.rkey);
		const std::string seen = expect_drop(*s, cfg, what, false);
		if (!s->data_untouched())
			throw Failure{"nothing written through a bogus rkey",
				      "the data region changed"};
		observed += (observed.empty() ? "" : "; ") + what + ": " + seen;
	}
	return observed;
}

std::string credit_overrun(const Config &cfg)
{
	/*
	 * The target counts commands it has received and not answered. Against
	 * a fast device it answers each before the next is read, so extra
	 * commands alone go unnoticed; an initiator that also stops taking
	 * responses (posts no receive for them) keeps the target's request
	 * contexts busy until the commands beyond the credits pile up.
	 */
	SessionOptions opts;
	opts.queue_depth = 2;
	opts.recvs = 1; /* for the OPEN response only */
	opts.repost = false;
	auto s = connect(cfg, opts);
	open_export(*s, cfg, cfg.export_name);

	const std::uint16_t credits = s->rep().queue_depth;
	const unsigned int n = credits + 8U;
	for (unsigned int i = 0; i < n; i++) {
		Cmd cmd = io_cmd(*s, RDMABLK_OP_READ, std::uint64_t{i} * kBlock, kBlock);
		cmd.addr += std::uint64_t{i} * kBlock;
		s->send(cmd);
	}
	return std::to_string(n) + " READs on " + std::to_string(credits) +
	       " credits, no response taken: " +
	       expect_drop(*s, cfg, std::to_string(n) + " READs on " + std::to_string(credits) +
					    " credits",
			   true);
}

std::string short_command(const Config &cfg)
{
	auto s = connect(cfg);
	open_export(*s, cfg, cfg.export_name);
	const auto cmd = bytes_of(io_cmd(*s, RDMABLK_OP_READ, 0, kBlock).encode());
	s->send_raw(std::span(cmd).first(10));
	return "a 10-byte SEND: " + expect_drop(*s, cfg, "a 10-byte SEND", false);
}

std::string oversized_send(const Config &cfg)
{
	auto s = connect(cfg);
	open_export(*s, cfg, cfg.export_name);
	/* More than a command and the largest inline payload together. */
	const auto payload = pattern(s->rep().inline_max + 64, 5);
	s->send(io_cmd(*s, RDMABLK_OP_WRITE, 0, kBlock, RDMABLK_CMD_INLINE), payload);
	const std::string what =
		"a " + std::to_string(sizeof(rdmablk_cmd) + payload.size()) + "-byte SEND";
	return what + ": " + expect_drop(*s, cfg, what, false);
}

/* --- batched commands ---------------------------------------------------- */

/* A generation for a command of a batch: unlike the tags, never repeated. */
std::uint16_t next_gen()
{
	static std::uint16_t gen = 0x4200;
	return ++gen;
}

/* "READ of 4096 bytes at offset 0x0 (tag 3, gen 17, flags 0x8)", for messages. */
std::string describe_cmd(const Cmd &cmd)
{
	return opcode_name(cmd.opcode) + " of " + std::to_string(cmd.length) + " bytes at offset " +
	       hex(cmd.offset) + " (tag " + std::to_string(cmd.tag) + ", gen " +
	       std::to_string(cmd.gen) + ", flags " + hex(cmd.flags) + ")";
}

/* A member of a batch: a command with RDMABLK_CMD_BATCH and its own generation. */
Cmd batch_cmd(Session &s, std::uint8_t opcode, std::uint64_t offset, std::uint32_t length)
{
	Cmd cmd = io_cmd(s, opcode, offset, length, RDMABLK_CMD_BATCH);
	cmd.gen = next_gen();
	return cmd;
}

/* A member of a batch that moves no data: addr and rkey zero. */
Cmd batch_cmd_nodata(Session &s, std::uint8_t opcode, std::uint32_t length = 0)
{
	Cmd cmd = batch_cmd(s, opcode, 0, length);
	cmd.addr = 0;
	cmd.rkey = 0;
	return cmd;
}

/*
 * @n READs of 4 KiB for a batch, the i-th of the block at i * 4096 into
 * the data region at i * 4096: distinct tags as long as @n is within the
 * credits, distinct generations, distinct buffers.
 */
std::vector<Cmd> batch_reads(Session &s, unsigned int n)
{
	std::vector<Cmd> cmds;
	for (unsigned int i = 0; i < n; i++) {
		Cmd cmd = batch_cmd(s, RDMABLK_OP_READ, std::uint64_t{i} * kBlock, kBlock);
		cmd.addr += std::uint64_t{i} * kBlock;
		cmds.push_back(cmd);
	}
	return cmds;
}

/* SEND @cmds back to back, then @tail, as one message. */
void send_batch(Session &s, std::span<const Cmd> cmds, std::span<const std::uint8_t> tail = {})
{
	std::vector<std::uint8_t> msg = encode_batch(cmds);
	msg.insert(msg.end(), tail.begin(), tail.end());
	s.send_raw(msg);
}

/*
 * Did the target write into the data region nowhere but into the buffers
 * of @wrote (READs it may have executed)?
 */
bool untouched_but(const Session &s, std::span<const Cmd> wrote)
{
	const auto bytes = s.data().bytes();
	std::vector<bool> theirs(bytes.size());
	for (const Cmd &cmd : wrote) {
		if (cmd.opcode != RDMABLK_OP_READ || cmd.addr < s.data().addr())
			continue;
		const std::size_t start = cmd.addr - s.data().addr();
		const std::size_t end = std::min<std::size_t>(start + cmd.length, bytes.size());
		for (std::size_t i = start; i < end; i++)
			theirs[i] = true;
	}
	for (std::size_t i = 0; i < bytes.size(); i++)
		if (!theirs[i] && bytes[i] != Session::kCanary)
			return false;
	return true;
}

/* Connect offering @flag (named @name): the target must agree. */
std::unique_ptr<Session> connect_offering(const Config &cfg, std::uint32_t flag,
					  const std::string &name, SessionOptions opts = {})
{
	opts.pdata = ConnReq{.queue_depth = opts.queue_depth,
			     .flags = flag,
			     .keepalive_ms = kKeepaliveMs}
			     .encode();
	auto s = connect(cfg, opts);
	if (!(s->rep().flags & flag))
		throw Failure{"the target to agree on " + name + " on an I/O connection",
			      "connect reply flags " + hex(s->rep().flags)};
	return s;
}

/* Connect offering RDMABLK_CONN_CMD_BATCH: the target must agree. */
std::unique_ptr<Session> connect_batch(const Config &cfg, SessionOptions opts = {})
{
	return connect_offering(cfg, RDMABLK_CONN_CMD_BATCH, "RDMABLK_CONN_CMD_BATCH", opts);
}

/* A command of a batch and the statuses its own answer may carry. */
struct Member {
	Cmd cmd;
	std::vector<std::uint16_t> want;
};

std::string status_names(const std::vector<std::uint16_t> &statuses)
{
	std::string s;
	for (const std::uint16_t status : statuses)
		s += (s.empty() ? "" : " or ") + status_name(status);
	return s;
}

/*
 * SEND the commands of @members as one batch: each must be answered on its
 * own, in any order, by a response echoing its opcode, tag and generation
 * with one of the statuses it wants; nothing else may arrive meanwhile.
 * Only the READs answered OK may have written into the data region, each
 * into its own buffer; the region is filled with the canary again after.
 */
void expect_batch_answers(Session &s, const Config &cfg, const std::vector<Member> &members,
			  const std::string &what)
{
	const std::string expected = "each command of " + what + " answered on its own";
	std::vector<Cmd> cmds;
	for (const Member &m : members)
		cmds.push_back(m.cmd);
	send_batch(s, cmds);

	std::vector<bool> answered(members.size());
	std::vector<Cmd> wrote;
	for (std::size_t left = members.size(); left; left--) {
		const Reaction r = await(s, cfg, expected + " (" + std::to_string(left) +
							 " not answered yet)");
		if (r.kind != Reaction::Kind::Response)
			throw Failure{expected, r.describe()};
		const Response &rsp = *r.response;
		const auto it = std::find_if(members.begin(), members.end(), [&](const Member &m) {
			return m.cmd.tag == rsp.tag && m.cmd.gen == rsp.gen;
		});
		if (it == members.end())
			throw Failure{expected, r.describe() +
							", naming no command of the batch"};
		const auto i = static_cast<std::size_t>(it - members.begin());
		if (answered[i])
			throw Failure{expected, "a second " + r.describe()};
		answered[i] = true;
		if (rsp.opcode != it->cmd.opcode ||
		    std::find(it->want.begin(), it->want.end(), rsp.status) == it->want.end())
			throw Failure{status_names(it->want) + " for " + describe_cmd(it->cmd) +
					      " of " + what,
				      r.describe()};
		if (rsp.status == RDMABLK_S_OK)
			wrote.push_back(it->cmd);
	}
	if (!untouched_but(s, wrote))
		throw Failure{"only the READs of " + what + " answered OK to write into their buffers",
			      "the target wrote elsewhere in the data region"};
	s.fill_data();
}

/*
 * SEND @cmds, then @tail, as one message that breaks the batch's rules:
 * the target must drop the connection. It checks a batch whole before
 * running any of it, so none may be answered OK or write into the data
 * region.
 */
std::string expect_batch_drop(Session &s, const Config &cfg, std::span<const Cmd> cmds,
			      std::span<const std::uint8_t> tail, const std::string &what)
{
	send_batch(s, cmds, tail);
	const std::string seen = expect_drop(s, cfg, what, false);
	if (!untouched_but(s, {}))
		throw Failure{"a disconnect after " + what + ", nothing of the batch executed",
			      "the target wrote into their buffers"};
	return seen;
}

/*
 * A pushed WRITE (RDMABLK_CONN_WRITE_PUSH) must name a slot of the push
 * area OPEN named on its connection: one past the last, or any on a
 * connection that has none, is refused, and so is one that breaks the
 * shape of a pushed command (over a slot, a READ, an rkey, inline payload
 * too). Refused, so nothing reaches the export that honest I/O verifies.
 */
std::string push_slots_refused(const Config &cfg)
{
	auto s = connect_offering(cfg, RDMABLK_CONN_WRITE_PUSH, "RDMABLK_CONN_WRITE_PUSH");
	const std::uint32_t inline_max = s->rep().inline_max;
	if (inline_max < RDMABLK_PUSH_INLINE_MAX || inline_max > RDMABLK_PUSH_SLOT_SIZE)
		throw Failure{"inline_max " + std::to_string(RDMABLK_PUSH_INLINE_MAX) + " to " +
				      std::to_string(RDMABLK_PUSH_SLOT_SIZE) + " with write push agreed",
			      "inline_max " + std::to_string(inline_max)};
	const Response r = expect_status(*s, cfg, open_cmd(*s), open_payload(cfg.export_name),
					 RDMABLK_S_OK, "OPEN of export " + cfg.export_name);
	if (!r.open)
		throw Failure{"an OPEN response carrying struct rdmablk_open_rsp",
			      "a " + std::to_string(r.len) + "-byte response"};
	const std::uint16_t slots = le16toh(r.open->push_slots);
	if (!slots || slots > s->rep().queue_depth)
		throw Failure{"an OPEN response naming 1 to " + std::to_string(s->rep().queue_depth) +
				      " push slots",
			      std::to_string(slots) + " push slots"};

	auto pushed = [](Session &on, std::uint64_t slot, std::uint32_t length = kBlock,
			 std::uint8_t opcode = RDMABLK_OP_WRITE) {
		Cmd cmd = io_cmd(on, opcode, 0, length, RDMABLK_CMD_PUSHED);
		cmd.addr = slot;
		cmd.rkey = 0;
		return cmd;
	};
	const auto data = pattern(kBlock, 3);
	expect_status(*s, cfg, pushed(*s, slots), {}, RDMABLK_S_INVALID,
		      "a pushed WRITE naming slot " + std::to_string(slots) + ", one past the last");
	expect_status(*s, cfg, pushed(*s, kU64Max), {}, RDMABLK_S_INVALID,
		      "a pushed WRITE naming slot 2^64 - 1");
	expect_status(*s, cfg, pushed(*s, 0, 2 * kBlock), {}, RDMABLK_S_INVALID,
		      "a pushed WRITE of two slots' bytes");
	expect_status(*s, cfg, pushed(*s, 0, kBlock, RDMABLK_OP_READ), {}, RDMABLK_S_INVALID,
		      "a pushed READ");
	Cmd keyed = pushed(*s, 0);
	keyed.rkey = s->data().rkey();
	expect_status(*s, cfg, keyed, {}, RDMABLK_S_INVALID, "a pushed WRITE with an rkey");
	Cmd both = pushed(*s, 0, 512);
	both.flags |= RDMABLK_CMD_INLINE;
	expect_status(*s, cfg, both, std::span(data).first(512), RDMABLK_S_INVALID,
		      "a pushed WRITE with an inline payload too");
	expect_read_ok(*s, cfg);

	auto plain = connect(cfg);
	open_export(*plain, cfg, cfg.export_name);
	expect_status(*plain, cfg, pushed(*plain, 0), {}, RDMABLK_S_INVALID,
		      "a pushed WRITE on a connection without a push area");
	expect_read_ok(*plain, cfg);
	return "INVALID for slots " + std::to_string(slots) +
	       " (of " + std::to_string(slots) + ") and 2^64 - 1, two slots' bytes, a READ, "
	       "an rkey, inline payload too, and any slot without a push area; READs OK after";
}

/*
 * The bytes a keyed READ of a block at @offset, with @flags, placed in the
 * data region, which is then filled again.
 */
std::vector<std::uint8_t> keyed_read(Session &s, const Config &cfg, std::uint64_t offset,
				     std::uint8_t flags = 0)
{
	expect_status(s, cfg, io_cmd(s, RDMABLK_OP_READ, offset, kBlock, flags), {}, RDMABLK_S_OK,
		      flags ? "a keyed READ with flags " + std::to_string(flags) :
			      "a keyed READ");
	const auto first = s.data().bytes().first(kBlock);
	std::vector<std::uint8_t> got(first.begin(), first.end());
	s.fill_data();
	return got;
}

/*
 * A READ by SEND (RDMABLK_CONN_READ_SEND) has no key: its data comes in a
 * SEND_WITH_IMM naming it, exactly its bytes, into a receive. The flag on
 * anything else (a keyed READ, one with an address, over a page, a WRITE,
 * a FLUSH) or on a connection that did not agree to it is refused: the
 * target must never send more than the receive the initiator sized for it.
 */
std::string read_send_shape(const Config &cfg)
{
	auto s = connect_offering(cfg, RDMABLK_CONN_READ_SEND, "RDMABLK_CONN_READ_SEND");
	const std::uint64_t offset = open_export(*s, cfg, cfg.export_name).size - kBlock;
	/* The bytes a keyed READ places: what the data must be. */
	const std::vector<std::uint8_t> want = keyed_read(*s, cfg, offset);

	auto by_send = [](Session &on, std::uint8_t opcode, std::uint64_t off, std::uint32_t length) {
		Cmd cmd = io_cmd(on, opcode, off, length, RDMABLK_CMD_SEND_DATA);
		cmd.addr = 0;
		cmd.rkey = 0;
		cmd.gen = 0x5a5a;
		return cmd;
	};
	const Cmd read = by_send(*s, RDMABLK_OP_READ, offset, kBlock);
	const std::string what = "the data of a READ by SEND of the last block";
	s->send(read);
	const Reaction r = await(*s, cfg, what);
	const std::uint32_t imm = imm_of(read.tag, read.gen);
	if (r.kind != Reaction::Kind::Data || r.imm != imm || r.data != want)
		throw Failure{what + ", " + std::to_string(kBlock) + " bytes, immediate " +
				      std::to_string(imm),
			      r.kind == Reaction::Kind::Data && r.imm == imm &&
					      r.data.size() == want.size()
				      ? "other bytes than the keyed READ's"
				      : r.describe()};
	if (!s->data_untouched())
		throw Failure{what + " by SEND alone", "the target wrote into the data region"};

	Cmd keyed = by_send(*s, RDMABLK_OP_READ, 0, kBlock);
	keyed.rkey = s->data().rkey();
	expect_status(*s, cfg, keyed, {}, RDMABLK_S_INVALID, "a READ by SEND with an rkey");
	Cmd addressed = by_send(*s, RDMABLK_OP_READ, 0, kBlock);
	addressed.addr = s->data().addr();
	expect_status(*s, cfg, addressed, {}, RDMABLK_S_INVALID, "a READ by SEND with an address");
	expect_status(*s, cfg, by_send(*s, RDMABLK_OP_READ, 0, 2 * kBlock), {}, RDMABLK_S_INVALID,
		      "a READ by SEND of two pages");
	expect_status(*s, cfg, by_send(*s, RDMABLK_OP_WRITE, 0, kBlock), {}, RDMABLK_S_INVALID,
		      "a WRITE by SEND");
	expect_status(*s, cfg, by_send(*s, RDMABLK_OP_FLUSH, 0, 0), {}, RDMABLK_S_INVALID,
		      "a FLUSH by SEND");
	expect_read_ok(*s, cfg);

	auto plain = connect(cfg);
	open_export(*plain, cfg, cfg.export_name);
	expect_status(*plain, cfg, by_send(*plain, RDMABLK_OP_READ, 0, kBlock), {},
		      RDMABLK_S_INVALID, "a READ by SEND on a connection that did not agree to it");
	expect_read_ok(*plain, cfg);
	return "the data of a 4 KiB READ by SEND, as a keyed READ placed it; INVALID for an "
	       "rkey, an address, two pages, a WRITE, a FLUSH, and without the flag agreed; "
	       "READs OK after";
}

/*
 * A lone command (RDMABLK_CONN_LONE) is a hint about its answer, never a
 * change to it: a keyed READ marked lone gets its data and an OK. The flag
 * on anything but a READ or WRITE, or on a connection that did not agree
 * to it, is refused.
 */
std::string lone_shape(const Config &cfg)
{
	auto s = connect_offering(cfg, RDMABLK_CONN_LONE, "RDMABLK_CONN_LONE");
	const std::uint64_t offset = open_export(*s, cfg, cfg.export_name).size - kBlock;
	const std::vector<std::uint8_t> want = keyed_read(*s, cfg, offset);
	if (keyed_read(*s, cfg, offset, RDMABLK_CMD_LONE) != want)
		throw Failure{"a lone READ placing what a READ placed", "other bytes"};
	expect_status(*s, cfg, io_cmd(*s, RDMABLK_OP_FLUSH, 0, 0), {}, RDMABLK_S_OK,
		      "a FLUSH");
	expect_status(*s, cfg, io_cmd(*s, RDMABLK_OP_FLUSH, 0, 0, RDMABLK_CMD_LONE), {},
		      RDMABLK_S_INVALID, "the same FLUSH marked lone");
	expect_read_ok(*s, cfg);

	auto plain = connect(cfg);
	open_export(*plain, cfg, cfg.export_name);
	expect_status(*plain, cfg, io_cmd(*plain, RDMABLK_OP_READ, 0, kBlock, RDMABLK_CMD_LONE), {},
		      RDMABLK_S_INVALID, "a lone READ on a connection that did not agree to it");
	expect_read_ok(*plain, cfg);
	return "a lone READ placed the bytes a READ placed; INVALID for a lone FLUSH and "
	       "without the flag agreed; READs OK after";
}

/*
 * The push area is the one region of the target's the initiator may write
 * into. An RDMA WRITE with immediate data there consumes one of the
 * target's receives without filling it: the receive's buffers still hold
 * the command that last arrived in them, and the completion's length is
 * that of the write. Taken for a command, it would run that command again,
 * or take as many bytes of the receive's page for an inline payload as the
 * write was long. Every receive is first filled with a valid READ, so a
 * target that takes it for a command answers a READ that was never sent.
 */
std::string push_write_imm(const Config &cfg)
{
	auto s = connect_offering(cfg, RDMABLK_CONN_WRITE_PUSH, "RDMABLK_CONN_WRITE_PUSH");
	const Response r = expect_status(*s, cfg, open_cmd(*s), open_payload(cfg.export_name),
					 RDMABLK_S_OK, "OPEN of export " + cfg.export_name);
	if (!r.open || !le16toh(r.open->push_slots))
		throw Failure{"an OPEN response naming a push area",
			      r.open ? "no push slots" : "no struct rdmablk_open_rsp"};
	/* The target's receives, one past the credits, each used once. */
	for (unsigned int i = 0; i <= s->rep().queue_depth; i++)
		expect_read_ok(*s, cfg);
	s->write_imm(le64toh(r.open->push_addr), le32toh(r.open->push_rkey),
		     sizeof(rdmablk_cmd), 0);
	const std::string seen =
		expect_drop(*s, cfg, "an RDMA WRITE with immediate data into the push area", false);
	if (!s->data_untouched())
		throw Failure{"no READ run again", "the target wrote into the buffer of the last READ"};
	return seen;
}

/*
 * A valid batch is a set of commands of their own: each is checked and
 * answered alone, a refused one does not spoil the others, and a non-I/O
 * opcode has no business in a batch. READ_IMM is not offered, so every
 * READ gets a response.
 */
std::string batch_members_answered(const Config &cfg)
{
	auto s = connect_batch(cfg);

	Cmd open = batch_cmd_nodata(*s, RDMABLK_OP_OPEN, sizeof(rdmablk_open_req));
	expect_batch_answers(*s, cfg,
			     {
				     {batch_cmd(*s, RDMABLK_OP_READ, 0, kBlock), {RDMABLK_S_NOT_OPEN}},
				     {batch_cmd(*s, RDMABLK_OP_WRITE, 0, kBlock), {RDMABLK_S_NOT_OPEN}},
				     {batch_cmd(*s, RDMABLK_OP_FLUSH, 0, 0), {RDMABLK_S_NOT_OPEN}},
				     /* Never an OPEN, whichever refusal comes first. */
				     {open, {RDMABLK_S_INVALID, RDMABLK_S_NOT_OPEN}},
			     },
			     "a batch before OPEN (READ, keyed WRITE, FLUSH, OPEN)");
	expect_status(*s, cfg, io_cmd(*s, RDMABLK_OP_READ, 0, kBlock), {}, RDMABLK_S_NOT_OPEN,
		      "READ after a batch holding an OPEN");

	const ExportInfo info = open_export(*s, cfg, cfg.export_name);
	std::vector<Member> members;
	for (const std::uint64_t offset : {std::uint64_t{0}, info.size - kBlock, std::uint64_t{kBlock}}) {
		Cmd read = batch_cmd(*s, RDMABLK_OP_READ, offset, kBlock);
		read.addr += members.size() * std::uint64_t{kBlock};
		members.push_back({read, {RDMABLK_S_OK}});
	}
	/* Refused, so it writes nothing to the export honest I/O verifies. */
	Cmd past = batch_cmd(*s, RDMABLK_OP_WRITE, info.size, kBlock);
	past.addr += 3 * kBlock;
	members.insert(members.begin() + 2, {past, {RDMABLK_S_RANGE}});
	expect_batch_answers(*s, cfg, members,
			     "a batch of 3 READs and a keyed WRITE past the end");

	Cmd read = batch_cmd(*s, RDMABLK_OP_READ, 0, kBlock);
	open = batch_cmd_nodata(*s, RDMABLK_OP_OPEN, sizeof(rdmablk_open_req));
	expect_batch_answers(*s, cfg,
			     {
				     {batch_cmd_nodata(*s, RDMABLK_OP_KEEPALIVE), {RDMABLK_S_INVALID}},
				     {open, {RDMABLK_S_INVALID}},
				     {read, {RDMABLK_S_OK}},
			     },
			     "a batch of KEEPALIVE, OPEN and READ");

	expect_status(*s, cfg, io_cmd(*s, RDMABLK_OP_KEEPALIVE, 0, 0), {}, RDMABLK_S_OK,
		      "KEEPALIVE after the batches");
	expect_read_ok(*s, cfg);
	return "before OPEN a batch of READ, WRITE, FLUSH, OPEN answered NOT_OPEN each "
	       "(OPEN refused) and a READ then NOT_OPEN; after OPEN a batch of 3 READs and a "
	       "WRITE past the end answered OK, OK, RANGE, OK by tag and generation, a batch "
	       "of KEEPALIVE, OPEN, READ INVALID, INVALID, OK; a KEEPALIVE and a READ then OK";
}

std::string batch_not_agreed(const Config &cfg)
{
	std::string observed;
	{
		auto s = connect(cfg);
		if (s->rep().flags & RDMABLK_CONN_CMD_BATCH)
			throw Failure{"RDMABLK_CONN_CMD_BATCH not granted unasked",
				      "connect reply flags " + hex(s->rep().flags)};
		open_export(*s, cfg, cfg.export_name);
		const std::string what = "a batch of 2 READs where RDMABLK_CONN_CMD_BATCH was not offered";
		observed = what + ": " + expect_batch_drop(*s, cfg, batch_reads(*s, 2), {}, what);
	}
	{
		SessionOptions opts;
		opts.queue_depth = RDMABLK_DISC_QUEUE_DEPTH;
		opts.pdata = ConnReq{.queue_depth = opts.queue_depth,
				     .flags = RDMABLK_CONN_DISCOVERY | RDMABLK_CONN_CMD_BATCH,
				     .keepalive_ms = kKeepaliveMs}
				     .encode();
		auto s = connect(cfg, opts);
		if (s->rep().flags & RDMABLK_CONN_CMD_BATCH)
			throw Failure{"RDMABLK_CONN_CMD_BATCH never granted on a discovery session",
				      "connect reply flags " + hex(s->rep().flags)};
		const std::vector<Cmd> cmds = {batch_cmd_nodata(*s, RDMABLK_OP_KEEPALIVE),
					       batch_cmd_nodata(*s, RDMABLK_OP_KEEPALIVE)};
		const std::string what =
			"a batch of 2 KEEPALIVEs on a discovery session that offered it";
		observed += "; " + what + ": " + expect_batch_drop(*s, cfg, cmds, {}, what);
	}
	return observed;
}

std::string batch_of_one(const Config &cfg)
{
	auto s = connect_batch(cfg);
	open_export(*s, cfg, cfg.export_name);
	const std::string what = "a 64-byte SEND of one READ with RDMABLK_CMD_BATCH";
	return what + ": " + expect_batch_drop(*s, cfg, batch_reads(*s, 1), {}, what);
}

std::string batch_ragged(const Config &cfg)
{
	auto s = connect_batch(cfg);
	open_export(*s, cfg, cfg.export_name);
	const auto tail = pattern(10, 6);
	const std::string what = "a batch of 2 READs and 10 bytes more (138 bytes)";
	return what + ": " + expect_batch_drop(*s, cfg, batch_reads(*s, 2), tail, what);
}

std::string batch_over_max(const Config &cfg)
{
	constexpr unsigned int kOver = RDMABLK_CMD_BATCH_MAX + 1;
	/* Credits for more than the batch, so that only its size is wrong. */
	SessionOptions opts;
	opts.queue_depth = 2 * RDMABLK_CMD_BATCH_MAX;
	auto s = connect_batch(cfg, opts);
	open_export(*s, cfg, cfg.export_name);
	const std::uint16_t credits = s->rep().queue_depth;

	std::string observed;
	if (credits >= RDMABLK_CMD_BATCH_MAX) {
		std::vector<Member> members;
		for (const Cmd &cmd : batch_reads(*s, RDMABLK_CMD_BATCH_MAX))
			members.push_back({cmd, {RDMABLK_S_OK}});
		expect_batch_answers(*s, cfg, members, "a batch of 16 READs");
		observed = "a batch of 16 READs answered OK each; ";
	}
	const std::string what = "a batch of " + std::to_string(kOver) + " READs on " +
				 std::to_string(credits) + " credits";
	observed += what + ": " + expect_batch_drop(*s, cfg, batch_reads(*s, kOver), {}, what);
	if (credits < kOver)
		observed += " (only " + std::to_string(credits) +
			    " credits granted: the credits alone forbid it too)";
	return observed;
}

std::string batch_member_unflagged(const Config &cfg)
{
	auto s = connect_batch(cfg);
	open_export(*s, cfg, cfg.export_name);
	std::vector<Cmd> cmds = batch_reads(*s, 3);
	cmds[1].flags &= static_cast<std::uint8_t>(~RDMABLK_CMD_BATCH);
	const std::string what = "a batch of 3 READs whose second lacks RDMABLK_CMD_BATCH";
	/* The target checks a batch whole before running any of it. */
	return what + ": " + expect_batch_drop(*s, cfg, cmds, {}, what);
}

std::string batch_member_inline(const Config &cfg)
{
	std::string observed;
	for (const std::size_t bad : {std::size_t{0}, std::size_t{2}}) {
		auto s = connect_batch(cfg);
		const ExportInfo info = open_export(*s, cfg, cfg.export_name);
		std::vector<Cmd> cmds = batch_reads(*s, 3);
		/* Past the end: nothing of the export honest I/O verifies, whatever happens. */
		cmds[bad].opcode = RDMABLK_OP_WRITE;
		cmds[bad].offset = info.size;
		cmds[bad].flags |= RDMABLK_CMD_INLINE;
		const std::string what = "a batch of 3 commands whose " +
					 std::string(bad ? "last" : "first") +
					 " is a WRITE with RDMABLK_CMD_INLINE";
		observed += (observed.empty() ? "" : "; ") + what + ": " +
			    expect_batch_drop(*s, cfg, cmds, {}, what);
	}
	return observed;
}

std::string batch_credit_overrun(const Config &cfg)
{
	std::string observed;
	/* All credits in one batch, answered; then one more than the credits. */
	{
		SessionOptions opts;
		opts.queue_depth = 4;
		auto s = connect_batch(cfg, opts);
		open_export(*s, cfg, cfg.export_name);
		const std::uint16_t credits = s->rep().queue_depth;
		if (credits >= 2) {
			std::vector<Member> members;
			for (const Cmd &cmd : batch_reads(*s, credits))
				members.push_back({cmd, {RDMABLK_S_OK}});
			expect_batch_answers(*s, cfg, members,
					     "a batch of " + std::to_string(credits) + " READs");
			observed = "a batch of " + std::to_string(credits) + " READs answered; ";
		}
		const std::string what = "a batch of " + std::to_string(credits + 1) + " READs on " +
					 std::to_string(credits) + " credits";
		observed += what + ": " +
			    expect_batch_drop(*s, cfg, batch_reads(*s, credits + 1U), {}, what);
	}
	/*
	 * Batches of 2 stacked past the credits without taking a response
	 * (the way of credit-overrun): the answers meet no receive, so the
	 * target's request contexts stay busy and the batches behind them
	 * hold their credits until they exceed them.
	 */
	{
		SessionOptions opts;
		opts.queue_depth = 2;
		opts.recvs = 1; /* for the OPEN response only */
		opts.repost = false;
		auto s = connect_batch(cfg, opts);
		open_export(*s, cfg, cfg.export_name);
		const std::uint16_t credits = s->rep().queue_depth;
		const unsigned int batches = (credits + 8U + 1) / 2;
		for (unsigned int i = 0; i < batches; i++) {
			std::vector<Cmd> cmds = batch_reads(*s, 2);
			for (Cmd &cmd : cmds) {
				cmd.offset += std::uint64_t{2 * i} * kBlock;
				cmd.addr += std::uint64_t{2 * i} * kBlock;
			}
			send_batch(*s, cmds);
		}
		const std::string what = std::to_string(batches) + " batches of 2 READs on " +
					 std::to_string(credits) + " credits, no response taken";
		observed += "; " + what + ": " + expect_drop(*s, cfg, what, true);
	}
	return observed;
}

std::string keepalive_silent(const Config &cfg)
{
	/*
	 * The target takes at least a second as interval, so a hostile 1 ms
	 * cannot make its timer spin, and drops an initiator silent for two.
	 */
	constexpr auto kMinDrop = std::chrono::milliseconds(1500);
	SessionOptions opts;
	opts.pdata = ConnReq{.queue_depth = 16, .keepalive_ms = 1}.encode();
	auto s = connect(cfg, opts);
	open_export(*s, cfg, cfg.export_name);

	const auto silent_since = Clock::now();
	const std::string seen = expect_drop(*s, cfg, "silence with keep-alive interval 1 ms", false);
	const auto silent = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() -
										  silent_since);
	if (silent < kMinDrop)
		throw Failure{"no disconnect before two intervals of at least 1 s",
			      seen + " after " + seconds(silent)};
	return "keep-alive interval 1 ms, then silence: " + seen + " after " + seconds(silent);
}

/*
 * Connects as fast as possible, a window of them in flight, each torn down
 * at a different stage: before the answer, after it with and without
 * rdma_disconnect(), and right after sending OPEN.
 */
std::string connect_flood(const Config &cfg)
{
	const unsigned int connects = cfg.flood_connects;
	constexpr unsigned int kWindow = 16;
	const auto ms = static_cast<int>(cfg.timeout.count());
	const std::vector<std::uint8_t> pdata = valid_pdata(32);
	const auto start_time = Clock::now();

	struct Conn {
		CmIdPtr id;
		CmQp qp; /* after id: destroyed first */
		unsigned int index;
	};

	/* Declaration order is teardown order, reversed. */
	EventChannelPtr ch = make_event_channel();
	PdPtr pd;
	CqPtr cq;
	Region open_msg;
	std::map<rdma_cm_id *, Conn> conns;

	unsigned int started = 0, finished = 0, established = 0, refused = 0, abandoned = 0;
	std::vector<std::string> unexpected;

	const auto start = [&] {
		rdma_cm_id *raw = nullptr;
		if (rdma_create_id(ch.get(), &raw, nullptr, RDMA_PS_TCP))
			throw_errno("rdma_create_id", errno);
		CmIdPtr id(raw);
		sockaddr_storage dst = cfg.endpoint.target;
		std::optional<sockaddr_storage> src = cfg.endpoint.source;
		if (rdma_resolve_addr(raw, src ? reinterpret_cast<sockaddr *>(&*src) : nullptr,
				      reinterpret_cast<sockaddr *>(&dst), ms))
			throw_errno("rdma_resolve_addr", errno);
		conns.emplace(raw, Conn{std::move(id), CmQp(), started++});
	};
	const auto setup_shared = [&](ibv_context &verbs) {
		pd.reset(ibv_alloc_pd(&verbs));
		if (!pd)
			throw_errno("ibv_alloc_pd", errno);
		cq.reset(ibv_create_cq(&verbs, 4 * kWindow, nullptr, nullptr, 0));
		if (!cq)
			throw_errno("ibv_create_cq", errno);
		open_msg = Region(*pd, sizeof(rdmablk_cmd) + sizeof(rdmablk_open_req), 0);
		const Cmd cmd = {
			.opcode = RDMABLK_OP_OPEN,
			.flags = RDMABLK_CMD_INLINE,
			.tag = 0,
			.length = sizeof(rdmablk_open_req),
			.offset = 0,
			.addr = 0,
			.rkey = 0,
		};
		const rdmablk_cmd wire = cmd.encode();
		const rdmablk_open_req req = make_open_req(cfg.export_name);
		std::memcpy(open_msg.bytes().data(), &wire, sizeof(wire));
		std::memcpy(open_msg.bytes().data() + sizeof(wire), &req, sizeof(req));
	};
	const auto connect_one = [&](Conn &c) {
		if (!pd)
			setup_shared(*c.id->verbs);
		c.qp = CmQp(*c.id, *pd, verbs::rc_qp_attr(*cq, *cq, 1, 1));
		rdma_conn_param param = verbs::conn_param(pdata, 1);
		if (rdma_connect(c.id.get(), &param))
			throw_errno("rdma_connect", errno);
	};
	const auto send_open = [&](Conn &c) {
		ibv_sge sge = {
			.addr = open_msg.addr(),
			.length = static_cast<std::uint32_t>(open_msg.bytes().size()),
			.lkey = open_msg.lkey(),
		};
		ibv_send_wr wr = {};
		wr.sg_list = &sge;
		wr.num_sge = 1;
		wr.opcode = IBV_WR_SEND;
		ibv_send_wr *bad = nullptr;
		if (const int rc = ibv_post_send(&c.qp.get(), &wr, &bad))
			throw_errno("ibv_post_send", rc);
	};

	while (finished < connects) {
		while (conns.size() < kWindow && started < connects)
			start();
		if (cq) {
			/* Nothing is signalled; only errors could land here. */
			std::array<ibv_wc, 16> wcs;
			while (ibv_poll_cq(cq.get(), static_cast<int>(wcs.size()), wcs.data()) > 0)
				;
		}

		const auto ev = next_cm_event(*ch, Clock::now() + cfg.timeout);
		if (!ev)
			throw Failure{"every connect answered",
				      "no rdma_cm event within " + seconds(cfg.timeout) + " with " +
					      std::to_string(conns.size()) + " connects in flight, " +
					      std::to_string(finished) + " done"};
		const auto it = conns.find(ev->id);
		if (it == conns.end())
			continue;
		Conn &c = it->second;
		bool done = true;

		switch (ev->type) {
		case RDMA_CM_EVENT_ADDR_RESOLVED:
			if (rdma_resolve_route(c.id.get(), ms))
				throw_errno("rdma_resolve_route", errno);
			done = false;
			break;
		case RDMA_CM_EVENT_ROUTE_RESOLVED:
			connect_one(c);
			/* Every fourth goes away before the target's answer. */
			done = c.index % 4 == 0;
			if (done)
				abandoned++;
			break;
		case RDMA_CM_EVENT_ESTABLISHED:
			established++;
			if (c.index % 4 == 1)
				rdma_disconnect(c.id.get());
			else if (c.index % 4 == 3)
				send_open(c);
			break;
		case RDMA_CM_EVENT_REJECTED:
			if (const auto rej = decode_conn_rej(ev->pdata);
			    rej && rej->reason == RDMABLK_REJ_RESOURCES)
				refused++;
			else
				unexpected.push_back("connect " + std::to_string(c.index) + ": " +
						     ConnectOutcome{*ev}.describe());
			break;
		default:
			unexpected.push_back("connect " + std::to_string(c.index) + ": " +
					     describe(*ev));
			break;
		}
		if (done) {
			conns.erase(it);
			finished++;
		}
	}
	const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() -
										start_time);
	if (!unexpected.empty())
		throw Failure{"every connect accepted or refused with REJ_RESOURCES",
			      std::to_string(unexpected.size()) + " other outcomes, the first " +
				      unexpected.front()};

	auto s = connect(cfg);
	open_export(*s, cfg, cfg.export_name);
	expect_read_ok(*s, cfg);
	return std::to_string(connects) + " connects in " + seconds(took) + ": " +
	       std::to_string(established) + " accepted, " + std::to_string(refused) +
	       " refused for resources, " + std::to_string(abandoned) +
	       " abandoned before the answer; then connect, OPEN and READ OK";
}

/*
 * OPEN racing teardown: each connection queues commands the target answers
 * with NOT_OPEN, then OPEN behind them, and disconnects at once, so the
 * target may see the disconnect before its completion work reached the
 * OPEN. Whatever the order, the target must not keep a connection it tore
 * down (tests/vm/043 checks the export's connections and its removal).
 */
std::string open_disconnect_race(const Config &cfg)
{
	constexpr unsigned int kRounds = 40;
	constexpr std::uint16_t kDepth = 64;
	const auto start_time = Clock::now();
	unsigned int rounds = 0;

	for (; rounds < kRounds; rounds++) {
		SessionOptions opts;
		opts.queue_depth = kDepth;
		auto s = connect(cfg, opts);
		const std::uint16_t credits = s->rep().queue_depth;
		const unsigned int before = std::min<unsigned int>(credits, kDepth) - 4;
		for (unsigned int i = 0; i < before; i++)
			s->send(io_cmd(*s, RDMABLK_OP_READ, 0, kBlock));
		s->send(open_cmd(*s), open_payload(cfg.export_name));
		/* The destructor disconnects, right behind the OPEN. */
	}
	const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() -
										start_time);
	auto s = connect(cfg);
	open_export(*s, cfg, cfg.export_name);
	expect_read_ok(*s, cfg);
	return std::to_string(rounds) + " connections sending OPEN behind commands and disconnecting at once, in " +
	       seconds(took) + "; then connect, OPEN and READ OK";
}

/* --- admission and resources ---------------------------------------------- */

std::string keepalive_zero(const Config &cfg)
{
	return "REJECTED with " +
	       expect_rejected(cfg, ConnReq{.queue_depth = 16, .keepalive_ms = 0}.encode(),
			       RDMABLK_REJ_INVALID, "an I/O session without keep-alive");
}

std::string queue_beyond_max(const Config &cfg)
{
	SessionOptions opts;
	auto s = connect(cfg, opts);
	const std::uint16_t max = s->rep().max_queues;
	s.reset();
	for (const std::uint16_t id : {max, static_cast<std::uint16_t>(0xffff)})
		expect_rejected(cfg,
				ConnReq{.queue_id = id, .queue_depth = 16, .keepalive_ms = kKeepaliveMs}
					.encode(),
				RDMABLK_REJ_INVALID, "queue " + std::to_string(id));
	return "max_queues " + std::to_string(max) + "; REJECTED with REJ_INVALID for queues " +
	       std::to_string(max) + " and 65535";
}

/*
 * An initiator that sends its credits' worth of 128 KiB READs and never
 * posts a receive for the answers: the target's data and responses meet
 * RNR NAKs, its payload pages stay pinned. It must give up after a
 * bounded time, not retry for ever.
 */
std::string responses_not_taken(const Config &cfg)
{
	constexpr std::uint32_t kLen = 128 << 10;
	SessionOptions opts;
	opts.queue_depth = 16;
	opts.recvs = 1; /* for the OPEN response only */
	opts.repost = false;
	auto s = connect(cfg, opts);
	open_export(*s, cfg, cfg.export_name);

	const unsigned int n = std::min<unsigned int>(s->rep().queue_depth, 16);
	const auto since = Clock::now();
	for (unsigned int i = 0; i < n; i++) {
		Cmd cmd = io_cmd(*s, RDMABLK_OP_READ, std::uint64_t{i} * kLen, kLen);
		cmd.addr += std::uint64_t{i} * kLen;
		s->send(cmd);
	}
	const std::string seen = expect_drop(*s, cfg, std::to_string(n) +
					     " READs whose answers find no receive", true);
	const auto took =
		std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - since);
	return std::to_string(n) + " READs of 128 KiB, no receive posted: " + seen + " after " +
	       seconds(took);
}

/* A connect that was not established: it must be REJ_RESOURCES. */
void expect_rej_resources(const Session &s, const std::string &expected, const std::string &which)
{
	const auto rej = s.outcome().rejected() ? decode_conn_rej(s.outcome().event->pdata)
						: std::nullopt;
	if (!rej || rej->reason != RDMABLK_REJ_RESOURCES)
		throw Failure{expected, which + ": " + s.outcome().describe()};
}

/*
 * Connections from one address beyond the target's per-host limit are
 * refused with REJ_RESOURCES; those accepted before keep working. Run it
 * with the limit lowered (tests/vm/045), or it may only show every connect
 * accepted.
 */
std::string connection_limit(const Config &cfg)
{
	constexpr unsigned int kMax = 64;
	std::vector<std::unique_ptr<Session>> held;
	unsigned int refused = 0;
	std::string other;

	for (unsigned int i = 0; i < kMax && !refused; i++) {
		SessionOptions opts;
		opts.queue_depth = 4;
		opts.pdata = valid_pdata(opts.queue_depth);
		auto s = std::make_unique<Session>(cfg.endpoint, opts, cfg.timeout);
		if (s->outcome().established()) {
			/*
			 * At once: the target drops a connection that has
			 * not opened an export within 15 s, and connecting
			 * up to the limit can take longer than that on a
			 * slow (debug) kernel.
			 */
			open_export(*s, cfg, cfg.export_name);
			held.push_back(std::move(s));
			continue;
		}
		expect_rej_resources(*s, "connects accepted up to the limit, then REJ_RESOURCES",
				     "connect " + std::to_string(i));
		refused++;
	}
	if (!refused)
		throw Failure{"REJ_RESOURCES within " + std::to_string(kMax) + " connections",
			      std::to_string(held.size()) + " accepted"};
	if (held.empty())
		throw Failure{"some connections accepted before the limit", "the first refused"};
	/* The ones accepted still serve. */
	expect_read_ok(*held.front(), cfg);
	return std::to_string(held.size()) +
	       " connections accepted and opened, the next refused with REJ_RESOURCES; the first "
	       "still reads";
}

/*
 * Discovery sessions need no export and no authentication, and idling
 * does not end them: the target holds at most 8 of one host at once
 * (RDMABLK_DISC_PER_HOST in kmod/target/tconn.c), so that a few addresses
 * cannot take the places I/O connections need. With the 9th refused, an
 * I/O connection from the same address is still taken and reads.
 */
std::string discovery_limit(const Config &cfg)
{
	constexpr unsigned int kPerHost = 8;
	constexpr unsigned int kTries = 2 * kPerHost;
	std::vector<std::unique_ptr<Session>> held;

	for (unsigned int i = 0; i < kTries; i++) {
		SessionOptions opts;
		opts.queue_depth = RDMABLK_DISC_QUEUE_DEPTH;
		opts.pdata = ConnReq{.queue_depth = opts.queue_depth,
				     .flags = RDMABLK_CONN_DISCOVERY,
				     .keepalive_ms = kKeepaliveMs}
				     .encode();
		auto s = std::make_unique<Session>(cfg.endpoint, opts, cfg.timeout);
		if (s->outcome().established()) {
			held.push_back(std::move(s));
			continue;
		}
		expect_rej_resources(*s,
				     "discovery sessions accepted up to the limit, then REJ_RESOURCES",
				     "session " + std::to_string(i));
		break;
	}
	if (held.size() != kPerHost)
		throw Failure{std::to_string(kPerHost) + " discovery sessions held, the next refused",
			      std::to_string(held.size()) + " of " + std::to_string(kTries) +
				      " accepted"};
	auto io = connect(cfg);
	open_export(*io, cfg, cfg.export_name);
	expect_read_ok(*io, cfg);
	return std::to_string(held.size()) +
	       " discovery sessions held, the next refused with REJ_RESOURCES; an I/O "
	       "connection from the same address still opened and read";
}

constexpr std::array kScenarios = {
	Scenario{"conn-short-pdata", "connect private data cut inside the magic: REJ_INVALID",
		 conn_short_pdata},
	Scenario{"conn-bad-magic", "connect private data with a wrong magic: REJ_INVALID",
		 conn_bad_magic},
	Scenario{"conn-bad-version", "connect request for another version: REJ_VERSION",
		 conn_bad_version},
	Scenario{"conn-zero-depth", "connect request for queue depth 0: REJ_QUEUE_DEPTH",
		 conn_zero_depth},
	Scenario{"io-before-open", "I/O commands before OPEN: NOT_OPEN", io_before_open},
	Scenario{"open-unknown-export", "OPEN of names no export has: NO_EXPORT",
		 open_unknown_export},
	Scenario{"open-unterminated-name", "OPEN whose name has no NUL: INVALID",
		 open_unterminated_name},
	Scenario{"open-twice", "OPEN on an opened connection: INVALID", open_twice},
	Scenario{"open-malformed", "OPEN without INLINE or with a wrong payload size: INVALID",
		 open_malformed},
	Scenario{"unknown-opcode", "opcodes the protocol does not define: INVALID", unknown_opcode},
	Scenario{"unknown-flags", "unknown flags, or flags the opcode does not take: INVALID",
		 unknown_flags},
	Scenario{"zero-length", "READ, WRITE, WRITE_ZEROES, DISCARD of 0 bytes: INVALID",
		 zero_length},
	Scenario{"misaligned", "offsets and lengths off the logical block size: INVALID",
		 misaligned},
	Scenario{"out-of-range", "ranges past the end or wrapping at 2^64: RANGE", out_of_range},
	Scenario{"oversized-length", "transfers above max_io_size: INVALID", oversized_length},
	Scenario{"inline-mismatch", "INLINE flag and payload disagree: INVALID", inline_mismatch},
	Scenario{"write-read-only", "writes to a read-only export: READ_ONLY", write_read_only},
	Scenario{"bogus-rkey", "WRITE and READ with a random rkey: disconnect", bogus_rkey},
	Scenario{"credit-overrun", "credits + 8 commands, responses not taken: disconnect",
		 credit_overrun},
	Scenario{"short-command", "a 10-byte SEND: disconnect", short_command},
	Scenario{"oversized-send", "a SEND larger than command and inline payload: disconnect",
		 oversized_send},
	Scenario{"batch-members-answered",
		 "batches of valid and refused commands: each answered alone, by tag and gen",
		 batch_members_answered},
	Scenario{"batch-not-agreed",
		 "a batch where RDMABLK_CONN_CMD_BATCH was not agreed: disconnect",
		 batch_not_agreed},
	Scenario{"batch-of-one", "a batch of a single command: disconnect", batch_of_one},
	Scenario{"batch-ragged", "a batch of 2 commands and 10 bytes more: disconnect",
		 batch_ragged},
	Scenario{"batch-over-max", "a batch of 16 answered, one of 17 commands: disconnect",
		 batch_over_max},
	Scenario{"push-slots-refused",
		 "pushed WRITEs naming no slot of the connection, or breaking a pushed command's shape: INVALID",
		 push_slots_refused},
	Scenario{"read-send-shape",
		 "READs by SEND: the data in a SEND_WITH_IMM; the flag on any other command, or not agreed: INVALID",
		 read_send_shape},
	Scenario{"lone-shape",
		 "a lone READ answered as any READ; the flag on a FLUSH, or not agreed: INVALID",
		 lone_shape},
	Scenario{"push-write-imm",
		 "an RDMA WRITE with immediate data into the push area, taking a receive it did not fill: disconnect",
		 push_write_imm},
	Scenario{"batch-member-unflagged",
		 "a batch member without RDMABLK_CMD_BATCH: disconnect, nothing of the batch run",
		 batch_member_unflagged},
	Scenario{"batch-member-inline", "a batch member with RDMABLK_CMD_INLINE: disconnect, nothing of the batch run",
		 batch_member_inline},
	Scenario{"batch-credit-overrun",
		 "a batch of credits + 1, batches stacked past the credits: disconnect",
		 batch_credit_overrun},
	Scenario{"keepalive-silent",
		 "keep-alive interval 1 ms, then silence: disconnect after seconds, not at once",
		 keepalive_silent},
	Scenario{"connect-flood", "connects (200 unless --flood-connects) torn down at every stage; then I/O still works",
		 connect_flood},
};

/*
 * Not in "all": run by name by the tests that check their aftermath
 * (tests/vm/043, tests/vm/045), so tests/vm/040 keeps its duration;
 * connection-limit also needs a lowered limit.
 */
constexpr std::array kExtraScenarios = {
	Scenario{"open-disconnect-race",
		 "OPEN then disconnect at once, 40 times; then I/O still works",
		 open_disconnect_race},
	Scenario{"keepalive-zero", "an I/O session without keep-alive: REJ_INVALID",
		 keepalive_zero},
	Scenario{"queue-beyond-max", "queue ids from max_queues up: REJ_INVALID",
		 queue_beyond_max},
	Scenario{"responses-not-taken",
		 "READs whose answers find no receive: disconnect within the timeout",
		 responses_not_taken},
	Scenario{"connection-limit",
		 "connections from one address beyond the limit: REJ_RESOURCES",
		 connection_limit},
	Scenario{"discovery-limit",
		 "discovery sessions from one address beyond 8: REJ_RESOURCES, I/O still taken",
		 discovery_limit},
	Scenario{"auth-messages",
		 "malformed, repeated, out-of-order and late AUTH_*: refused, nothing opened",
		 auth_messages},
	Scenario{"auth-hammer",
		 "wrong proofs at line rate for 10 s: every connect accepted, every proof refused",
		 auth_hammer},
	Scenario{"auth-replay",
		 "a genuine exchange recorded and replayed on a new connection: refused",
		 auth_replay},
	Scenario{"auth-second-hostid",
		 "authenticated, then an OPEN naming another host id: the connection dropped",
		 auth_second_hostid},
};

} // namespace

std::span<const Scenario> scenarios()
{
	return kScenarios;
}

std::span<const Scenario> extra_scenarios()
{
	return kExtraScenarios;
}

Verdict run_scenario(const Scenario &scenario, const Config &cfg)
{
	try {
		return {Verdict::Kind::Pass, scenario.run(cfg)};
	} catch (const Failure &f) {
		return {Verdict::Kind::Fail, "expected " + f.expected + ", observed " + f.observed};
	} catch (const Skipped &s) {
		return {Verdict::Kind::Skip, s.reason};
	} catch (const std::exception &e) {
		return {Verdict::Kind::Fail,
			"expected the scenario to run, observed a local error: " +
				std::string(e.what())};
	}
}

} // namespace rdmablk::hostile
