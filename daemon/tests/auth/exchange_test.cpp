// SPDX-License-Identifier: GPL-2.0
/*
 * The host's side of the authentication exchange in userspace gives the
 * proofs the kernel gives: the vectors are those of kmod/auth_test.c
 * (recorded with Python's hmac module over the transcript of
 * docs/protocol.md). Every refusal, wrong proof and answer out of order
 * ends the exchange.
 */
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <numeric>
#include <vector>

#include "auth/exchange.hpp"

namespace rdmablk::auth {
namespace {

const std::vector<std::uint8_t> vec_sha256_host = {
	0x30, 0x14, 0xfd, 0xcb, 0x68, 0xb7, 0xff, 0x0d, 0x65, 0x58, 0x0e, 0x06,
	0xa6, 0xc7, 0xf4, 0x51, 0x8f, 0x26, 0xa1, 0xb5, 0x77, 0x1a, 0x21, 0x8d,
	0x02, 0x4a, 0x1f, 0x9f, 0x72, 0xd9, 0x46, 0xc9,
};
const std::vector<std::uint8_t> vec_sha256_target = {
	0xc4, 0xb0, 0xb4, 0xaa, 0x59, 0x08, 0x7b, 0xed, 0xe5, 0x12, 0xd5, 0x9c,
	0xb1, 0x18, 0x56, 0x5d, 0x48, 0x23, 0xc3, 0x22, 0x7f, 0x39, 0xf7, 0x6d,
	0x0c, 0x07, 0x30, 0x9b, 0xba, 0x21, 0x97, 0x7a,
};
const std::vector<std::uint8_t> vec_sha512_host_discovery = {
	0x00, 0x78, 0x09, 0xde, 0x7e, 0xb1, 0xee, 0x59, 0x54, 0xd1, 0x15, 0x92,
	0x93, 0xe0, 0xb7, 0x73, 0xef, 0x8b, 0xd9, 0xda, 0x9d, 0x4c, 0x7c, 0x36,
	0x2f, 0x3a, 0x55, 0xa3, 0x88, 0x10, 0x84, 0xfe, 0x28, 0xc6, 0x5b, 0x03,
	0x41, 0xd5, 0x01, 0xb9, 0x0e, 0x9b, 0x09, 0x7b, 0x0e, 0xfd, 0x13, 0x23,
	0x61, 0x05, 0x9c, 0xf3, 0x6d, 0x14, 0x79, 0x69, 0x54, 0x9c, 0x7b, 0xc0,
	0x88, 0xe1, 0x5a, 0xfb,
};
const std::vector<std::uint8_t> vec_sha384_host = {
	0x65, 0x21, 0x0f, 0x3e, 0xb9, 0xbf, 0x3b, 0xf4, 0xe5, 0xab, 0x8d, 0xab,
	0x5f, 0xd1, 0xf7, 0x9c, 0x05, 0xf3, 0x8f, 0x60, 0xb0, 0x1d, 0x08, 0xf1,
	0x1d, 0xda, 0x84, 0x57, 0x3a, 0x29, 0xc9, 0x8e, 0xc1, 0x12, 0x55, 0x6b,
	0x71, 0xae, 0xa4, 0xf6, 0x60, 0xe5, 0x9b, 0xda, 0x13, 0x21, 0xe2, 0x15,
};
/* The target's proof with a SHA-256 key, in an exchange of SHA-384. */
const std::vector<std::uint8_t> vec_sha384_mixed_target = {
	0xaa, 0xb6, 0xa8, 0x64, 0x92, 0xaf, 0xdd, 0xf7, 0x5f, 0x29, 0x08, 0xcd,
	0xba, 0x56, 0x67, 0x81, 0x16, 0x0a, 0xa1, 0xc5, 0x99, 0x5d, 0x1b, 0xe7,
	0x13, 0x44, 0xe9, 0x36, 0xba, 0x6d, 0xfe, 0x6f,
};

/* kmod/auth_test.c's inputs: nonces 0x40.. and 0x80.., host id 0x11, target id 0x22. */
Nonce nonce_from(std::uint8_t first)
{
	Nonce n;
	std::iota(n.begin(), n.end(), first);
	return n;
}

const HostId hostid = [] {
	HostId id;
	id.fill(0x11);
	return id;
}();

/* A key of @hash whose secret bytes count up from @first. */
Key key_counting(Hash hash, std::uint8_t first)
{
	std::vector<std::uint8_t> s(secret_size(hash));
	std::iota(s.begin(), s.end(), first);
	return Key(hash, s);
}

/* What a target answers to @req: its id 0x22, the challenge's HMAC and flags, nonce 0x80... */
std::vector<std::uint8_t> chal_rsp(const rdmablk_auth_chal_req &req)
{
	rdmablk_auth_chal_rsp rsp = {};
	std::fill(std::begin(rsp.targetid), std::end(rsp.targetid), 0x22);
	rsp.hmac = req.hmac;
	rsp.flags = req.flags;
	const Nonce n = nonce_from(0x80);
	std::copy(n.begin(), n.end(), rsp.nonce);
	std::vector<std::uint8_t> bytes(sizeof(rsp));
	std::memcpy(bytes.data(), &rsp, sizeof(rsp));
	return bytes;
}

std::vector<std::uint8_t> mac_of(const rdmablk_auth_reply_req &r, std::size_t len)
{
	return {r.mac, r.mac + len};
}

/* A reply_rsp carrying @proof, zero-padded. */
std::vector<std::uint8_t> reply_rsp(const std::vector<std::uint8_t> &proof)
{
	std::vector<std::uint8_t> bytes(sizeof(rdmablk_auth_reply_rsp));
	std::copy(proof.begin(), proof.end(), bytes.begin());
	return bytes;
}

TEST(Exchange, Sha256MutualMatchesTheKernelsVectors)
{
	const Key hkey = key_counting(Hash::sha256, 0x00);
	const Key tkey = key_counting(Hash::sha256, 0x20);
	HostExchange ex("vol0", hostid, hkey, &tkey, nonce_from(0x40));
	EXPECT_TRUE(ex.mutual());

	/* The documented layout: name, host id, HMAC, flags, nonce. */
	const rdmablk_auth_chal_req req = ex.challenge();
	const auto *raw = reinterpret_cast<const std::uint8_t *>(&req);
	ASSERT_EQ(sizeof(req), 128u);
	EXPECT_EQ(std::memcmp(raw, "vol0", 5), 0);
	EXPECT_TRUE(std::all_of(raw + 5, raw + 64, [](std::uint8_t b) { return b == 0; }));
	EXPECT_EQ(raw[64], 0x11);
	EXPECT_EQ(raw[80], RDMABLK_AUTH_HMAC_SHA256);
	EXPECT_EQ(raw[81], RDMABLK_AUTH_BIDIR);
	EXPECT_TRUE(std::all_of(raw + 82, raw + 96, [](std::uint8_t b) { return b == 0; }));
	EXPECT_EQ(raw[96], 0x40);
	EXPECT_EQ(raw[127], 0x5f);

	const rdmablk_auth_reply_req reply = ex.reply(RDMABLK_S_OK, chal_rsp(req));
	EXPECT_EQ(mac_of(reply, 32), vec_sha256_host);
	EXPECT_TRUE(std::all_of(reply.mac + 32, reply.mac + 64, [](std::uint8_t b) { return b == 0; }));

	EXPECT_NO_THROW(ex.finish(RDMABLK_S_OK, reply_rsp(vec_sha256_target)));
	EXPECT_TRUE(ex.done());
}

TEST(Exchange, Sha512DiscoveryMatchesTheKernelsVector)
{
	const Key hkey = key_counting(Hash::sha512, 0xc0);
	HostExchange ex("", hostid, hkey, nullptr, nonce_from(0x40));
	EXPECT_FALSE(ex.mutual());
	const rdmablk_auth_chal_req req = ex.challenge();
	EXPECT_EQ(req.name[0], '\0');
	EXPECT_EQ(req.flags, 0);
	const rdmablk_auth_reply_req reply = ex.reply(RDMABLK_S_OK, chal_rsp(req));
	EXPECT_EQ(mac_of(reply, 64), vec_sha512_host_discovery);
	/* Not asked for: no proof from the target, none checked. */
	EXPECT_NO_THROW(ex.finish(RDMABLK_S_OK, reply_rsp({})));
	EXPECT_TRUE(ex.done());
}

TEST(Exchange, TargetKeyOfAnotherHmacMatchesTheKernelsVectors)
{
	const std::vector<std::uint8_t> secret(48, 0xa5);
	const Key hkey(Hash::sha384, secret);
	const Key tkey = key_counting(Hash::sha256, 0x20);
	HostExchange ex("vol0", hostid, hkey, &tkey, nonce_from(0x40));
	const rdmablk_auth_reply_req reply = ex.reply(RDMABLK_S_OK, chal_rsp(ex.challenge()));
	EXPECT_EQ(mac_of(reply, 48), vec_sha384_host);
	EXPECT_NO_THROW(ex.finish(RDMABLK_S_OK, reply_rsp(vec_sha384_mixed_target)));
}

/* Runs @f and returns the kind of AuthError it threw; fails the test if none. */
template <typename F> AuthError::Kind kind_of(F f)
{
	try {
		f();
	} catch (const AuthError &e) {
		return e.kind();
	}
	ADD_FAILURE() << "no AuthError";
	return AuthError::Kind::protocol;
}

TEST(Exchange, WrongTargetProofIsRefusedAndEndsTheExchange)
{
	const Key hkey = key_counting(Hash::sha256, 0x00);
	const Key tkey = key_counting(Hash::sha256, 0x21); /* not the target's 0x20 */
	HostExchange ex("vol0", hostid, hkey, &tkey, nonce_from(0x40));
	ex.reply(RDMABLK_S_OK, chal_rsp(ex.challenge()));
	EXPECT_EQ(kind_of([&] { ex.finish(RDMABLK_S_OK, reply_rsp(vec_sha256_target)); }),
		  AuthError::Kind::target_proof);
	EXPECT_FALSE(ex.done());
	EXPECT_EQ(kind_of([&] { ex.finish(RDMABLK_S_OK, reply_rsp(vec_sha256_target)); }),
		  AuthError::Kind::protocol);
}

TEST(Exchange, MutualWithoutAProofIsRefused)
{
	const Key hkey = key_counting(Hash::sha256, 0x00);
	const Key tkey = key_counting(Hash::sha256, 0x20);
	HostExchange ex("vol0", hostid, hkey, &tkey, nonce_from(0x40));
	ex.reply(RDMABLK_S_OK, chal_rsp(ex.challenge()));
	EXPECT_EQ(kind_of([&] { ex.finish(RDMABLK_S_OK, {}); }), AuthError::Kind::protocol);
}

TEST(Exchange, RefusalsAreReportedAsSuch)
{
	const Key hkey = key_counting(Hash::sha256, 0x00);
	HostExchange a("vol0", hostid, hkey, nullptr, nonce_from(0x40));
	EXPECT_EQ(kind_of([&] { a.reply(RDMABLK_S_AUTH_FAILED, {}); }), AuthError::Kind::refused);

	HostExchange b("vol0", hostid, hkey, nullptr, nonce_from(0x40));
	b.reply(RDMABLK_S_OK, chal_rsp(b.challenge()));
	EXPECT_EQ(kind_of([&] { b.finish(RDMABLK_S_AUTH_FAILED, {}); }), AuthError::Kind::refused);
	EXPECT_FALSE(b.done());
}

TEST(Exchange, MalformedOrOutOfOrderAnswersEndTheExchange)
{
	const Key hkey = key_counting(Hash::sha256, 0x00);
	const auto fresh = [&] {
		return std::make_unique<HostExchange>("vol0", hostid, hkey, nullptr,
						      nonce_from(0x40));
	};
	const auto rsp_with = [&](HostExchange &ex, auto change) {
		std::vector<std::uint8_t> bytes = chal_rsp(ex.challenge());
		auto *rsp = reinterpret_cast<rdmablk_auth_chal_rsp *>(bytes.data());
		change(*rsp);
		return bytes;
	};

	/* The proof answered before the challenge was. */
	auto ex = fresh();
	EXPECT_EQ(kind_of([&] { ex->finish(RDMABLK_S_OK, reply_rsp({})); }),
		  AuthError::Kind::protocol);
	/* Short, another status, another HMAC, other flags, our own nonce back. */
	ex = fresh();
	EXPECT_EQ(kind_of([&] { ex->reply(RDMABLK_S_OK, std::vector<std::uint8_t>(63)); }),
		  AuthError::Kind::protocol);
	ex = fresh();
	EXPECT_EQ(kind_of([&] { ex->reply(RDMABLK_S_INVALID, chal_rsp(ex->challenge())); }),
		  AuthError::Kind::protocol);
	ex = fresh();
	auto other_hmac = rsp_with(*ex, [](rdmablk_auth_chal_rsp &r) { r.hmac = RDMABLK_AUTH_HMAC_SHA512; });
	EXPECT_EQ(kind_of([&] { ex->reply(RDMABLK_S_OK, other_hmac); }), AuthError::Kind::protocol);
	ex = fresh();
	auto other_flags = rsp_with(*ex, [](rdmablk_auth_chal_rsp &r) { r.flags = RDMABLK_AUTH_BIDIR; });
	EXPECT_EQ(kind_of([&] { ex->reply(RDMABLK_S_OK, other_flags); }), AuthError::Kind::protocol);
	ex = fresh();
	auto echoed = rsp_with(*ex, [](rdmablk_auth_chal_rsp &r) {
		const Nonce n = nonce_from(0x40);
		std::copy(n.begin(), n.end(), r.nonce);
	});
	EXPECT_EQ(kind_of([&] { ex->reply(RDMABLK_S_OK, echoed); }), AuthError::Kind::protocol);
	/* A second answer to the challenge. */
	ex = fresh();
	ex->reply(RDMABLK_S_OK, chal_rsp(ex->challenge()));
	EXPECT_EQ(kind_of([&] { ex->reply(RDMABLK_S_OK, chal_rsp(ex->challenge())); }),
		  AuthError::Kind::protocol);
}

TEST(Exchange, RefusesWhatItCannotSend)
{
	const Key hkey = key_counting(Hash::sha256, 0x00);
	EXPECT_THROW(HostExchange(std::string(RDMABLK_EXPORT_NAME_MAX, 'a'), hostid, hkey, nullptr,
				  nonce_from(0x40)),
		     std::invalid_argument);
	EXPECT_NO_THROW(HostExchange(std::string(RDMABLK_EXPORT_NAME_MAX - 1, 'a'), hostid, hkey,
				     nullptr, nonce_from(0x40)));
}

TEST(Exchange, NoncesAreFresh)
{
	EXPECT_NE(random_nonce(), random_nonce());
}

} // namespace
} // namespace rdmablk::auth
