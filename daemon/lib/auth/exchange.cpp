// SPDX-License-Identifier: GPL-2.0
#include "auth/exchange.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <system_error>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <sys/random.h>

#include "proto/wire.hpp"

namespace rdmablk::auth {

namespace {

/* Each label is 16 bytes, NUL-padded (kmod/auth.c). */
constexpr std::size_t label_size = 16;
constexpr char label_host[] = "RDMABLK-1 host";
constexpr char label_target[] = "RDMABLK-1 target";
static_assert(sizeof(label_target) - 1 == label_size, "the target's label fills its field");

/* The transcript's bytes, in the order of kmod/auth.c's struct rdmablk_auth_transcript. */
constexpr std::size_t transcript_size = label_size + 2 + 14 + 2 * RDMABLK_AUTH_NONCE_SIZE +
					2 * RDMABLK_UUID_SIZE + RDMABLK_EXPORT_NAME_MAX;
static_assert(transcript_size == 192, "docs/protocol.md: a 192-byte transcript");

const EVP_MD *digest(Hash hash)
{
	switch (hash) {
	case Hash::sha256:
		return EVP_sha256();
	case Hash::sha384:
		return EVP_sha384();
	case Hash::sha512:
		return EVP_sha512();
	}
	throw std::invalid_argument("unknown HMAC " + std::to_string(static_cast<unsigned>(hash)));
}

bool known_hmac(std::uint8_t hmac)
{
	return hmac == RDMABLK_AUTH_HMAC_SHA256 || hmac == RDMABLK_AUTH_HMAC_SHA384 ||
	       hmac == RDMABLK_AUTH_HMAC_SHA512;
}

} // namespace

Nonce random_nonce()
{
	Nonce n;
	std::size_t have = 0;
	while (have < n.size()) {
		const ssize_t got = ::getrandom(n.data() + have, n.size() - have, 0);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			throw std::system_error(errno, std::generic_category(), "getrandom");
		}
		have += static_cast<std::size_t>(got);
	}
	return n;
}

std::array<std::uint8_t, RDMABLK_AUTH_MAC_MAX> proof(const Transcript &t, bool target_proof,
						      const Key &key)
{
	if (key.secret().empty())
		throw std::invalid_argument("proof: an empty key");
	if (t.name.size() >= RDMABLK_EXPORT_NAME_MAX)
		throw std::invalid_argument("proof: export name too long");
	std::array<std::uint8_t, transcript_size> bytes{};
	std::size_t at = 0;
	const auto put = [&](const void *p, std::size_t n) {
		std::memcpy(bytes.data() + at, p, n);
		at += n;
	};
	const char *label = target_proof ? label_target : label_host;
	put(label, std::strlen(label));
	at = label_size;
	put(&t.hmac, 1);
	put(&t.flags, 1);
	at += 14;
	put(t.nonce_host.data(), t.nonce_host.size());
	put(t.nonce_target.data(), t.nonce_target.size());
	put(t.hostid.data(), t.hostid.size());
	put(t.targetid.data(), t.targetid.size());
	put(t.name.data(), t.name.size());

	std::array<std::uint8_t, RDMABLK_AUTH_MAC_MAX> mac{};
	unsigned int len = 0;
	if (!HMAC(digest(key.hash()), key.secret().data(), static_cast<int>(key.secret().size()),
		  bytes.data(), bytes.size(), mac.data(), &len) ||
	    len != key.secret().size())
		throw std::runtime_error("HMAC failed");
	return mac;
}

HostExchange::HostExchange(std::string_view name, const HostId &hostid, const Key &key,
			   const Key *target_key, const Nonce &nonce)
{
	if (name.size() >= RDMABLK_EXPORT_NAME_MAX)
		throw std::invalid_argument("export name longer than " +
					    std::to_string(RDMABLK_EXPORT_NAME_MAX - 1) + " bytes");
	if (key.secret().empty() || (target_key && target_key->secret().empty()))
		throw std::invalid_argument("HostExchange needs a key");
	key_.emplace(key.hash(), key.secret());
	if (target_key) {
		target_key_.emplace(target_key->hash(), target_key->secret());
		t_.flags |= RDMABLK_AUTH_BIDIR;
	}
	t_.hmac = static_cast<std::uint8_t>(key.hash());
	t_.hostid = hostid;
	t_.nonce_host = nonce;
	t_.name = name;
}

HostExchange::~HostExchange()
{
	wipe();
}

void HostExchange::wipe() noexcept
{
	key_.reset();
	target_key_.reset();
}

void HostExchange::fail(AuthError::Kind kind, const std::string &what)
{
	state_ = State::failed;
	wipe();
	throw AuthError(kind, what);
}

rdmablk_auth_chal_req HostExchange::challenge() const
{
	rdmablk_auth_chal_req req = {};
	std::copy(t_.name.begin(), t_.name.end(), req.name);
	std::copy(t_.hostid.begin(), t_.hostid.end(), req.hostid);
	req.hmac = t_.hmac;
	req.flags = t_.flags;
	std::copy(t_.nonce_host.begin(), t_.nonce_host.end(), req.nonce);
	return req;
}

rdmablk_auth_reply_req HostExchange::reply(std::uint16_t status,
					   std::span<const std::uint8_t> data)
{
	if (state_ != State::challenged)
		fail(AuthError::Kind::protocol, "an AUTH_CHALLENGE answer out of order");
	if (status == RDMABLK_S_AUTH_FAILED)
		fail(AuthError::Kind::refused, "the target refused the challenge");
	if (status != RDMABLK_S_OK)
		fail(AuthError::Kind::protocol,
		     "the target answered AUTH_CHALLENGE with " + proto::status_name(status));
	if (data.size() < sizeof(rdmablk_auth_chal_rsp))
		fail(AuthError::Kind::protocol, "the answer to AUTH_CHALLENGE is " +
							std::to_string(data.size()) + " bytes, not " +
							std::to_string(sizeof(rdmablk_auth_chal_rsp)));
	rdmablk_auth_chal_rsp rsp;
	std::memcpy(&rsp, data.data(), sizeof(rsp));
	if (rsp.hmac != t_.hmac || rsp.flags != t_.flags || !known_hmac(rsp.hmac))
		fail(AuthError::Kind::protocol,
		     "the target's answer changed the HMAC or the flags asked for");
	/* A peer that echoes our nonce would have us prove for it. */
	if (!CRYPTO_memcmp(rsp.nonce, t_.nonce_host.data(), t_.nonce_host.size()))
		fail(AuthError::Kind::protocol, "the target sent this host's own nonce back");
	std::copy(std::begin(rsp.targetid), std::end(rsp.targetid), t_.targetid.begin());
	std::copy(std::begin(rsp.nonce), std::end(rsp.nonce), t_.nonce_target.begin());

	rdmablk_auth_reply_req out = {};
	const auto mac = proof(t_, false, *key_);
	std::copy(mac.begin(), mac.begin() + static_cast<std::ptrdiff_t>(key_->secret().size()),
		  out.mac);
	state_ = State::replied;
	return out;
}

void HostExchange::finish(std::uint16_t status, std::span<const std::uint8_t> data)
{
	if (state_ != State::replied)
		fail(AuthError::Kind::protocol, "an AUTH_REPLY answer out of order");
	if (status == RDMABLK_S_AUTH_FAILED)
		fail(AuthError::Kind::refused, "the target refused this host's proof");
	if (status != RDMABLK_S_OK)
		fail(AuthError::Kind::protocol,
		     "the target answered AUTH_REPLY with " + proto::status_name(status));
	if (mutual()) {
		if (data.size() < sizeof(rdmablk_auth_reply_rsp))
			fail(AuthError::Kind::protocol, "the target's answer holds no proof");
		const auto want = proof(t_, true, *target_key_);
		if (CRYPTO_memcmp(want.data(), data.data(), target_key_->secret().size()))
			fail(AuthError::Kind::target_proof,
			     "the target's proof is not made with the target key");
	}
	state_ = State::done;
	wipe();
}

} // namespace rdmablk::auth
