// SPDX-License-Identifier: GPL-2.0
/*
 * The host's side of the authentication exchange of docs/protocol.md ("The
 * exchange"), as the kernel's initiator runs it (kmod/auth.c), for the
 * connections userspace makes itself: rdmablkd's discovery sessions.
 *
 *   HostExchange ex(name, hostid, key, target_key, nonce);
 *   send AUTH_CHALLENGE with ex.challenge();
 *   send AUTH_REPLY with ex.reply(status, what followed the response);
 *   ex.finish(status, what followed the response): authenticated.
 *
 * Each proof is an HMAC, with the prover's secret, over the 192-byte
 * transcript of the exchange; the proofs equal the kernel's for the same
 * inputs (the vectors of kmod/auth_test.c are checked by the unit tests).
 * Any step that fails throws AuthError and ends the exchange: a second call
 * is refused. The secrets are wiped when the exchange ends, either way.
 */
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include <linux/rdmablk_proto.h>

#include "auth/key.hpp"

namespace rdmablk::auth {

using Nonce = std::array<std::uint8_t, RDMABLK_AUTH_NONCE_SIZE>;
using HostId = std::array<std::uint8_t, RDMABLK_UUID_SIZE>;

/* A nonce from getrandom(2); throws std::system_error. */
Nonce random_nonce();

/* What the exchange is over: both identities, both nonces, the export. */
struct Transcript {
	std::uint8_t hmac = 0;
	std::uint8_t flags = 0;
	Nonce nonce_host{};
	Nonce nonce_target{};
	HostId hostid{};
	HostId targetid{};
	/* "" for discovery; at most RDMABLK_EXPORT_NAME_MAX - 1 bytes. */
	std::string name;
};

/*
 * @key's proof over @t: the host's, or with @target_proof the target's.
 * secret_size(key.hash()) bytes (the HMAC's digest).
 */
std::array<std::uint8_t, RDMABLK_AUTH_MAC_MAX> proof(const Transcript &t, bool target_proof,
						      const Key &key);

/* Why an exchange failed. */
class AuthError : public std::runtime_error {
public:
	enum class Kind {
		refused,	/* the target answered AUTH_FAILED */
		target_proof,	/* the target's proof is not the target key's */
		protocol,	/* an answer that breaks the protocol */
	};

	AuthError(Kind kind, const std::string &what) : std::runtime_error(what), kind_(kind) {}
	Kind kind() const noexcept { return kind_; }

private:
	Kind kind_;
};

class HostExchange {
public:
	/*
	 * Begin an exchange for export @name ("" for discovery) as @hostid,
	 * proving @key; with @target_key, the target must prove it holds it
	 * (RDMABLK_AUTH_BIDIR). The keys are copied. Throws
	 * std::invalid_argument for a name too long or an empty key.
	 */
	HostExchange(std::string_view name, const HostId &hostid, const Key &key,
		     const Key *target_key, const Nonce &nonce);
	~HostExchange();

	HostExchange(const HostExchange &) = delete;
	HostExchange &operator=(const HostExchange &) = delete;

	/* AUTH_CHALLENGE's inline payload. */
	rdmablk_auth_chal_req challenge() const;

	/*
	 * The answer to AUTH_CHALLENGE (its status, what followed the
	 * response) in; AUTH_REPLY's inline payload out. Throws AuthError.
	 */
	rdmablk_auth_reply_req reply(std::uint16_t status, std::span<const std::uint8_t> data);

	/* The answer to AUTH_REPLY; returns once authenticated. Throws AuthError. */
	void finish(std::uint16_t status, std::span<const std::uint8_t> data);

	/* The target was asked to prove itself. */
	bool mutual() const noexcept { return t_.flags & RDMABLK_AUTH_BIDIR; }
	bool done() const noexcept { return state_ == State::done; }

private:
	enum class State { challenged, replied, done, failed };

	[[noreturn]] void fail(AuthError::Kind kind, const std::string &what);
	void wipe() noexcept;

	State state_ = State::challenged;
	Transcript t_;
	std::optional<Key> key_;
	std::optional<Key> target_key_;
};

} // namespace rdmablk::auth
