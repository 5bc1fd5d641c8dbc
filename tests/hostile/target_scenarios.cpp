// SPDX-License-Identifier: GPL-2.0
/*
 * The hostile target's scenarios: one way each of breaking the protocol
 * against the kernel initiator, and what its application must see.
 */
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>
#include <random>
#include <string>

#include "target.hpp"

namespace rdmablk::hostile::target {

namespace {

/* The first tag that is not a credit of the connection. */
std::uint16_t past_credits(const Conn &c)
{
	return c.rep().queue_depth;
}

/* A tag of the connection's I/O range other than @tag. */
std::uint16_t other_tag(const Conn &c, std::uint16_t tag)
{
	const unsigned int io_tags = c.rep().queue_depth > 1 ? c.rep().queue_depth - 1U : 1U;
	return static_cast<std::uint16_t>((tag + 1U) % io_tags);
}

void status_unknown(Conn &c, const Cmd &cmd)
{
	c.misbehaved("status 0x1234");
	c.answer(cmd, 0x1234);
}

void status_ffff(Conn &c, const Cmd &cmd)
{
	c.misbehaved("status 0xffff");
	c.answer(cmd, 0xffff);
}

void tag_past_credits(Conn &c, const Cmd &cmd)
{
	if (cmd.opcode == RDMABLK_OP_READ)
		c.write_data(cmd);
	c.misbehaved("response with tag " + std::to_string(past_credits(c)));
	c.respond(cmd.opcode, past_credits(c), RDMABLK_S_OK, cmd.gen);
}

void tag_ffff(Conn &c, const Cmd &cmd)
{
	if (cmd.opcode == RDMABLK_OP_READ)
		c.write_data(cmd);
	c.misbehaved("response with tag 0xffff");
	c.respond(cmd.opcode, 0xffff, RDMABLK_S_OK, cmd.gen);
}

void duplicate(Conn &c, const Cmd &cmd)
{
	c.honest(cmd);
	c.misbehaved("second response to tag " + std::to_string(cmd.tag));
	c.answer(cmd, RDMABLK_S_OK);
}

/* --- batches of responses (RDMABLK_CONN_RSP_BATCH) ----------------------- */

/* The connect reply agrees on batches of responses. */
void rsp_batch(ConnRep &rep)
{
	rep.flags = RDMABLK_CONN_RSP_BATCH;
}

/* A response carrying @flags (RDMABLK_RSP_BATCH: a member of a batch). */
std::vector<std::uint8_t> member(std::uint8_t opcode, std::uint16_t tag, std::uint16_t gen,
				 std::uint8_t flags = RDMABLK_RSP_BATCH)
{
	std::vector<std::uint8_t> b = encode_rsp(opcode, tag, RDMABLK_S_OK, gen);
	b[offsetof(rdmablk_rsp, flags)] = flags;
	return b;
}

/*
 * SEND, as one message, the trap's command answered OK in a batch first
 * (its data never written: an initiator that took it before checking the
 * whole batch would return wrong bytes), then @rest, then @tail bytes.
 */
void bad_batch(Conn &c, const Cmd &cmd, const std::string &what,
	       const std::vector<std::vector<std::uint8_t>> &rest, std::size_t tail = 0)
{
	std::vector<std::uint8_t> msg = member(cmd.opcode, cmd.tag, cmd.gen);
	for (const auto &r : rest)
		msg.insert(msg.end(), r.begin(), r.end());
	msg.insert(msg.end(), tail, 0);
	c.misbehaved(what);
	c.send(msg);
}

/* A member answering a WRITE on another tag: well formed on its own. */
std::vector<std::uint8_t> other_member(const Conn &c, const Cmd &cmd)
{
	return member(RDMABLK_OP_WRITE, other_tag(c, cmd.tag), cmd.gen);
}

void batch_not_agreed(Conn &c, const Cmd &cmd)
{
	bad_batch(c, cmd, "a batch of 2 responses, batches not agreed", {other_member(c, cmd)});
}

void batch_of_one(Conn &c, const Cmd &cmd)
{
	bad_batch(c, cmd, "a batch of 1 response", {});
}

void batch_ragged(Conn &c, const Cmd &cmd)
{
	bad_batch(c, cmd, "a batch of 2 responses and 10 bytes more", {other_member(c, cmd)}, 10);
}

/*
 * 17 responses are 272 bytes, more than the initiator's receive holds: the
 * device fails the receive, or (soft-RoCE) delivers the first 256 bytes, a
 * well-formed batch of 16 that the initiator cannot tell from one sent so.
 * The READ's data is placed first, so either is right; the second member
 * answers a tag not outstanding, which drops the connection.
 */
void batch_over_max(Conn &c, const Cmd &cmd)
{
	if (cmd.opcode == RDMABLK_OP_READ)
		c.write_data(cmd);
	std::vector<std::vector<std::uint8_t>> rest(RDMABLK_RSP_BATCH_MAX, other_member(c, cmd));
	bad_batch(c, cmd, "a batch of " + std::to_string(RDMABLK_RSP_BATCH_MAX + 1) + " responses",
		  rest);
}

void batch_unflagged(Conn &c, const Cmd &cmd)
{
	bad_batch(c, cmd, "a batch of 3 responses, the last without RDMABLK_RSP_BATCH",
		  {other_member(c, cmd), member(RDMABLK_OP_WRITE, other_tag(c, cmd.tag), cmd.gen, 0)});
}

void batch_control(Conn &c, const Cmd &cmd)
{
	bad_batch(c, cmd, "a batch of 2 responses, the second to a KEEPALIVE",
		  {member(RDMABLK_OP_KEEPALIVE, past_credits(c) - 1U, 0)});
}

/* Well formed, but the command answered twice in it: the data was placed. */
void batch_duplicate(Conn &c, const Cmd &cmd)
{
	if (cmd.opcode == RDMABLK_OP_READ)
		c.write_data(cmd);
	c.misbehaved("a batch answering tag " + std::to_string(cmd.tag) + " twice");
	std::vector<std::uint8_t> msg = member(cmd.opcode, cmd.tag, cmd.gen);
	const std::vector<std::uint8_t> again = msg;
	msg.insert(msg.end(), again.begin(), again.end());
	c.send(msg);
}

void opcode_other(Conn &c, const Cmd &cmd)
{
	if (cmd.opcode == RDMABLK_OP_READ)
		c.write_data(cmd);
	const std::uint8_t op = cmd.opcode == RDMABLK_OP_READ ? RDMABLK_OP_WRITE : RDMABLK_OP_READ;
	c.misbehaved("response with opcode " + opcode_name(op));
	c.respond(op, cmd.tag, RDMABLK_S_OK, cmd.gen);
}

void opcode_unknown(Conn &c, const Cmd &cmd)
{
	if (cmd.opcode == RDMABLK_OP_READ)
		c.write_data(cmd);
	c.misbehaved("response with opcode 0x7f");
	c.respond(0x7f, cmd.tag, RDMABLK_S_OK, cmd.gen);
}

void imm_other_tag(Conn &c, const Cmd &cmd)
{
	if (cmd.opcode != RDMABLK_OP_READ || !(c.rep().flags & RDMABLK_CONN_READ_IMM)) {
		c.honest(cmd);
		return;
	}
	const std::uint16_t tag = other_tag(c, cmd.tag);
	c.misbehaved("immediate data naming tag " + std::to_string(tag));
	c.write_data(cmd, true, imm_of(tag, cmd.gen));
}

void imm_other_gen(Conn &c, const Cmd &cmd)
{
	if (cmd.opcode != RDMABLK_OP_READ || !(c.rep().flags & RDMABLK_CONN_READ_IMM)) {
		c.honest(cmd);
		return;
	}
	const auto gen = static_cast<std::uint16_t>(cmd.gen + 1U);
	c.misbehaved("immediate data naming generation " + std::to_string(gen) + " of tag " +
		     std::to_string(cmd.tag) + ", sent as " + std::to_string(cmd.gen));
	c.write_data(cmd, true, imm_of(cmd.tag, gen));
}

/* --- a READ's data by SEND (RDMABLK_CONN_READ_SEND) --------------------- */

/* The connect reply agrees on READs by SEND. */
void read_send(ConnRep &rep)
{
	rep.flags |= RDMABLK_CONN_READ_SEND;
}

/* Is @cmd a READ that asked for its data by SEND? Else it is answered honestly. */
bool asks_data(Conn &c, const Cmd &cmd)
{
	if (cmd.opcode == RDMABLK_OP_READ && (cmd.flags & RDMABLK_CMD_SEND_DATA))
		return true;
	c.honest(cmd);
	return false;
}

void send_data_short(Conn &c, const Cmd &cmd)
{
	if (!asks_data(c, cmd))
		return;
	c.misbehaved("a READ's data by SEND, 512 bytes short");
	c.send_data(cmd, cmd.length - 512, imm_of(cmd.tag, cmd.gen));
}

void send_data_twice(Conn &c, const Cmd &cmd)
{
	if (!asks_data(c, cmd))
		return;
	c.honest(cmd);
	c.misbehaved("a READ's data by SEND twice");
	c.send_data(cmd, cmd.length, imm_of(cmd.tag, cmd.gen));
}

/* A failure, then the data: the READ may be ending with its error meanwhile. */
void send_data_after_error(Conn &c, const Cmd &cmd)
{
	if (!asks_data(c, cmd))
		return;
	c.answer(cmd, RDMABLK_S_IO_ERROR);
	c.misbehaved("a READ's data by SEND after its failure");
	c.send_data(cmd, cmd.length, imm_of(cmd.tag, cmd.gen));
}

void send_data_ok_only(Conn &c, const Cmd &cmd)
{
	if (!asks_data(c, cmd))
		return;
	c.misbehaved("an OK response to a READ that asked for its data, no data");
	c.answer(cmd, RDMABLK_S_OK);
}

void send_data_other_gen(Conn &c, const Cmd &cmd)
{
	if (!asks_data(c, cmd))
		return;
	const auto gen = static_cast<std::uint16_t>(cmd.gen + 1U);
	c.misbehaved("a READ's data by SEND naming generation " + std::to_string(gen) +
		     ", sent as " + std::to_string(cmd.gen));
	c.send_data(cmd, cmd.length, imm_of(cmd.tag, gen));
}

/* Not agreed, so the READ is keyed: its data by SEND all the same. */
void send_data_not_agreed(Conn &c, const Cmd &cmd)
{
	if (cmd.opcode != RDMABLK_OP_READ) {
		c.honest(cmd);
		return;
	}
	c.misbehaved("a keyed READ's data by SEND, READ by SEND not agreed");
	c.send_data(cmd, cmd.length, imm_of(cmd.tag, cmd.gen));
}

void silence(Conn &c, const Cmd &cmd)
{
	c.misbehaved("no answer to tag " + std::to_string(cmd.tag));
}

/*
 * Not having received the commands, the target cannot know their
 * generations: it names 0 (right by a chance of 1 in 65536 per command the
 * initiator has sent by the time the answer arrives).
 */
void early_answers(Conn &c)
{
	c.misbehaved("responses to tags never sent");
	for (unsigned int tag = 0; tag + 1 < c.rep().queue_depth; tag++)
		c.respond(RDMABLK_OP_READ, static_cast<std::uint16_t>(tag), RDMABLK_S_OK, 0);
}

/*
 * Like early_answers, then more for a while: made-up answers keep arriving
 * while the initiator tears the connection down, also while an attach that
 * the first of them failed unwinds. Not longer: the target notices the drop
 * only after the flood. Only on the first connection: the initiator's
 * reconnects then find an honest target (a target that breaks every
 * session is early-answers' and unasked-keepalive's case).
 */
void answer_flood(Conn &c)
{
	if (c.number() > 1)
		return;
	c.misbehaved("a flood of responses to tags never sent");
	const auto tags = static_cast<unsigned int>(std::max<int>(c.rep().queue_depth - 1, 1));
	c.flood(
		[tags](unsigned int i) {
			return encode_rsp(RDMABLK_OP_READ, static_cast<std::uint16_t>(i % tags),
					  RDMABLK_S_OK, 0);
		},
		tags, std::chrono::milliseconds(300), std::chrono::microseconds(0));
}

void unasked_open(Conn &c)
{
	c.misbehaved("a second OPEN response");
	c.send_open_rsp(0, 0);
}

void unasked_keepalive(Conn &c)
{
	c.misbehaved("a KEEPALIVE response nobody asked for");
	// The keep-alive's own tag, the last credit asked for: only its
	// being unasked is wrong.
	c.respond(RDMABLK_OP_KEEPALIVE, static_cast<std::uint16_t>(c.req().queue_depth - 1),
		  RDMABLK_S_OK, 0);
}

void read_imm(ConnRep &rep)
{
	rep.flags = RDMABLK_CONN_READ_IMM;
}

void rep_qd0(ConnRep &rep)
{
	rep.queue_depth = 0;
}

void rep_qd1(ConnRep &rep)
{
	rep.queue_depth = 1;
}

void rep_qd_huge(ConnRep &rep)
{
	rep.queue_depth = 0xffff;
}

void rep_io0(ConnRep &rep)
{
	rep.max_io_size = 0;
}

void rep_io_unaligned(ConnRep &rep)
{
	rep.max_io_size = 4096 + 512;
}

void rep_io_huge(ConnRep &rep)
{
	rep.max_io_size = 0xffffffffU;
}

void rep_inline_huge(ConnRep &rep)
{
	rep.inline_max = 0xffffffffU;
}

/* --- an impostor: a target without the target key ----------------------- */

/* The connect reply agrees on RDMABLK_CONN_AUTH: the impostor claims to
 * authenticate. */
void rep_auth(ConnRep &rep)
{
	rep.flags |= RDMABLK_CONN_AUTH;
}

/* @n random bytes: what the impostor has instead of a nonce or a proof. */
std::vector<std::uint8_t> random_bytes(std::size_t n)
{
	static std::mt19937 gen{std::random_device{}()};
	std::vector<std::uint8_t> out(n);
	for (auto &b : out)
		b = static_cast<std::uint8_t>(gen());
	return out;
}

/* SEND the response to @cmd: @status, then @tail. */
void answer_with(Conn &c, const Cmd &cmd, std::uint16_t status,
		 std::span<const std::uint8_t> tail)
{
	std::vector<std::uint8_t> msg = encode_rsp(cmd.opcode, cmd.tag, status, cmd.gen);
	msg.insert(msg.end(), tail.begin(), tail.end());
	c.send(msg);
}

/*
 * Answer AUTH_CHALLENGE as a target would, with @nonce as the target's, or
 * a fresh one when empty. A challenge of the wrong size: INVALID.
 */
void answer_challenge(Conn &c, const Cmd &cmd, std::span<const std::uint8_t> payload,
		      std::span<const std::uint8_t> nonce = {})
{
	rdmablk_auth_chal_req req;
	if (payload.size() != sizeof(req)) {
		c.answer(cmd, RDMABLK_S_INVALID);
		return;
	}
	std::memcpy(&req, payload.data(), sizeof(req));
	rdmablk_auth_chal_rsp rsp = {};
	static constexpr char id[] = "hostile-target!";
	static_assert(sizeof(id) == sizeof(rsp.targetid));
	std::memcpy(rsp.targetid, id, sizeof(rsp.targetid));
	rsp.hmac = req.hmac;
	rsp.flags = req.flags;
	const auto fresh = random_bytes(sizeof(rsp.nonce));
	std::memcpy(rsp.nonce, nonce.empty() ? fresh.data() : nonce.data(), sizeof(rsp.nonce));
	answer_with(c, cmd, RDMABLK_S_OK, bytes_of(rsp));
}

/* The target's nonce is the host's own: the host would prove for it. */
void auth_echo_nonce(Conn &c, const Cmd &cmd, std::span<const std::uint8_t> payload)
{
	if (cmd.opcode != RDMABLK_OP_AUTH_CHALLENGE || payload.size() != sizeof(rdmablk_auth_chal_req)) {
		c.answer(cmd, RDMABLK_S_AUTH_FAILED);
		return;
	}
	c.misbehaved("challenge answered with the host's own nonce");
	answer_challenge(c, cmd, payload,
			 payload.subspan(offsetof(rdmablk_auth_chal_req, nonce),
					 RDMABLK_AUTH_NONCE_SIZE));
}

/* Any proof accepted, and a made-up proof of its own. */
void auth_forged_proof(Conn &c, const Cmd &cmd, std::span<const std::uint8_t> payload)
{
	if (cmd.opcode == RDMABLK_OP_AUTH_CHALLENGE) {
		answer_challenge(c, cmd, payload);
		return;
	}
	c.misbehaved("a made-up target proof");
	answer_with(c, cmd, RDMABLK_S_OK, random_bytes(sizeof(rdmablk_auth_reply_rsp)));
}

/* Any proof accepted, and none of its own though the host asked for it. */
void auth_no_proof(Conn &c, const Cmd &cmd, std::span<const std::uint8_t> payload)
{
	if (cmd.opcode == RDMABLK_OP_AUTH_CHALLENGE) {
		answer_challenge(c, cmd, payload);
		return;
	}
	c.misbehaved("OK without the target's proof");
	c.answer(cmd, RDMABLK_S_OK);
}

/* A push area of @slots slots, in wire order. */
void push_area(rdmablk_open_rsp &info, std::uint16_t slots)
{
	info.push_rkey = htole32(0x1234);
	info.push_addr = htole64(0x10000);
	info.push_slots = htole16(slots);
}

void open_push_not_agreed(rdmablk_open_rsp &info, const ConnRep &)
{
	push_area(info, 8);
}

void write_push(ConnRep &rep)
{
	rep.flags |= RDMABLK_CONN_WRITE_PUSH;
}

void open_push_too_many(rdmablk_open_rsp &info, const ConnRep &rep)
{
	push_area(info, static_cast<std::uint16_t>(rep.queue_depth + 1));
}

constexpr std::array kScenarios = {
	Scenario{"honest", "no misbehaviour: the reference", Expect::Data, false, nullptr,
		 nullptr, nullptr},
	Scenario{"rep-qd0", "connect reply grants queue depth 0", Expect::Refused, false,
		 rep_qd0, nullptr, nullptr},
	Scenario{"rep-qd1", "connect reply grants queue depth 1: the keep-alives' credit, none for I/O",
		 Expect::Refused, false, rep_qd1, nullptr, nullptr},
	Scenario{"rep-qd-huge", "connect reply grants queue depth 65535, more than asked",
		 Expect::Refused, false, rep_qd_huge, nullptr, nullptr},
	Scenario{"rep-io0", "connect reply with max_io_size 0", Expect::Refused, false, rep_io0,
		 nullptr, nullptr},
	Scenario{"rep-io-unaligned", "connect reply with max_io_size 4608, not a multiple of 4 KiB",
		 Expect::Refused, false, rep_io_unaligned, nullptr, nullptr},
	Scenario{"rep-io-huge", "connect reply with max_io_size 4 GiB - 1 (must be clamped)",
		 Expect::Data, false, rep_io_huge, nullptr, nullptr},
	Scenario{"rep-inline-huge", "connect reply with inline_max 4 GiB - 1", Expect::Refused,
		 false, rep_inline_huge, nullptr, nullptr},
	Scenario{"status-unknown", "I/O answered with status 0x1234", Expect::Error, false,
		 nullptr, nullptr, status_unknown},
	Scenario{"duplicate", "I/O answered twice", Expect::ErrorOrData, true, nullptr, nullptr,
		 duplicate},
	Scenario{"unasked-open", "right after OPEN, a second OPEN response", Expect::ErrorOrData,
		 true, nullptr, unasked_open, nullptr},
	Scenario{"unasked-keepalive", "right after OPEN, a KEEPALIVE response not asked for",
		 Expect::ErrorOrData, true, nullptr, unasked_keepalive, nullptr},
	Scenario{"early-answers", "right after OPEN, OK responses to every tag, none sent",
		 Expect::ErrorOrData, true, nullptr, early_answers, nullptr},
	Scenario{"answer-flood",
		 "right after the first OPEN, OK responses to every tag, none sent, then more for 300 ms",
		 Expect::ErrorOrData, true, nullptr, answer_flood, nullptr},
	Scenario{"silence", "I/O never answered (keep-alives are)", Expect::Error, false, nullptr,
		 nullptr, silence},
	Scenario{"silence-at-attach",
		 "no I/O answered, not even the partition read of the attach (keep-alives are)",
		 Expect::Detach, false, nullptr, nullptr, silence, true},
	Scenario{"imm-other-tag", "READ_IMM: immediate data naming a tag not outstanding",
		 Expect::Error, true, read_imm, nullptr, imm_other_tag},
	Scenario{"imm-other-gen",
		 "READ_IMM: immediate data naming the READ's tag with another generation",
		 Expect::Error, true, read_imm, nullptr, imm_other_gen},
	Scenario{"send-data-honest", "READ by SEND agreed, every READ answered honestly",
		 Expect::Data, false, read_send, nullptr, nullptr},
	Scenario{"send-data-short", "READ by SEND: the data 512 bytes short of the READ",
		 Expect::Error, true, read_send, nullptr, send_data_short},
	Scenario{"send-data-twice", "READ by SEND: the data sent twice",
		 Expect::ErrorOrData, true, read_send, nullptr, send_data_twice},
	Scenario{"send-data-after-error", "READ by SEND: an IO_ERROR response, then the data",
		 Expect::Error, true, read_send, nullptr, send_data_after_error},
	Scenario{"send-data-ok-only", "READ by SEND: an OK response, the data never sent",
		 Expect::Error, true, read_send, nullptr, send_data_ok_only},
	Scenario{"send-data-other-gen",
		 "READ by SEND: the data naming the READ's tag with another generation",
		 Expect::Error, true, read_send, nullptr, send_data_other_gen},
	Scenario{"send-data-not-agreed", "READ by SEND not agreed: a keyed READ's data by SEND",
		 Expect::Error, true, nullptr, nullptr, send_data_not_agreed},
	Scenario{"opcode-other", "READ answered as a WRITE", Expect::Error, true, nullptr,
		 nullptr, opcode_other},
	Scenario{"opcode-unknown", "I/O answered with opcode 0x7f", Expect::Error, true, nullptr,
		 nullptr, opcode_unknown},
	Scenario{"tag-past-credits", "I/O answered with the tag just past the credits",
		 Expect::Error, true, nullptr, nullptr, tag_past_credits},
	Scenario{"tag-ffff", "I/O answered with tag 0xffff", Expect::Error, true, nullptr,
		 nullptr, tag_ffff},
	Scenario{"status-ffff", "I/O answered with status 0xffff", Expect::Error, false, nullptr,
		 nullptr, status_ffff},
	Scenario{"rsp-batch-not-agreed",
		 "I/O answered in a batch of responses the reply did not agree to",
		 Expect::Error, true, nullptr, nullptr, batch_not_agreed},
	Scenario{"rsp-batch-of-one", "I/O answered in a batch of one response", Expect::Error,
		 true, rsp_batch, nullptr, batch_of_one},
	Scenario{"rsp-batch-ragged", "I/O answered in a batch of responses with a ragged length",
		 Expect::Error, true, rsp_batch, nullptr, batch_ragged},
	Scenario{"rsp-batch-over-max", "I/O answered in a batch of 17 responses, the data placed",
		 Expect::ErrorOrData, true, rsp_batch, nullptr, batch_over_max},
	Scenario{"rsp-batch-unflagged",
		 "I/O answered in a batch of responses whose last is not flagged", Expect::Error,
		 true, rsp_batch, nullptr, batch_unflagged},
	Scenario{"rsp-batch-control",
		 "I/O answered in a batch of responses with a KEEPALIVE response in it",
		 Expect::Error, true, rsp_batch, nullptr, batch_control},
	Scenario{"rsp-batch-duplicate", "I/O answered twice in one batch of responses",
		 Expect::ErrorOrData, true, rsp_batch, nullptr, batch_duplicate},
	Scenario{"auth-downgrade",
		 "an impostor: a host with keys offers authentication, the reply does not agree",
		 Expect::Refused, false, nullptr, nullptr, nullptr, false, true},
	Scenario{"auth-echo-nonce",
		 "an impostor: the challenge answered with the host's own nonce",
		 Expect::Refused, true, rep_auth, nullptr, nullptr, false, true, auth_echo_nonce},
	Scenario{"auth-forged-proof",
		 "an impostor: any proof accepted, a made-up proof of its own",
		 Expect::Refused, true, rep_auth, nullptr, nullptr, false, true, auth_forged_proof},
	Scenario{"auth-no-proof",
		 "an impostor: any proof accepted, no proof of its own though asked",
		 Expect::Refused, true, rep_auth, nullptr, nullptr, false, true, auth_no_proof},
	Scenario{"open-push-not-agreed",
		 "an OPEN response naming a push area the connect reply did not agree to",
		 Expect::Refused, false, nullptr, nullptr, nullptr, false, false, nullptr,
		 open_push_not_agreed},
	Scenario{"open-push-too-many",
		 "write push agreed, an OPEN response naming one push slot more than the credits",
		 Expect::Refused, false, write_push, nullptr, nullptr, false, false, nullptr,
		 open_push_too_many},
};

} // namespace

std::span<const Scenario> scenarios()
{
	return kScenarios;
}

std::string_view expect_name(Expect e)
{
	switch (e) {
	case Expect::Refused:
		return "refused";
	case Expect::Error:
		return "error";
	case Expect::ErrorOrData:
		return "error-or-data";
	case Expect::Data:
		return "data";
	case Expect::Detach:
		return "detach";
	}
	return "?";
}

} // namespace rdmablk::hostile::target
