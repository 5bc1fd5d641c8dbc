// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for auth.c: both roles' proofs equal vectors recorded with
 * an independent HMAC implementation (Python's hmac module over the
 * transcript of docs/protocol.md), the messages have the documented byte
 * layout, and every wrong key, malformed, repeated, replayed or
 * out-of-order message ends the exchange refused, with the secrets wiped.
 */
#include <kunit/test.h>
#include <linux/rdmablk.h>

#include "auth.h"
#include "proto.h"

/* Fixed inputs of the recorded vectors. */
static u8 nonce_host[RDMABLK_AUTH_NONCE_SIZE];		/* 0x40..0x5f */
static u8 nonce_target[RDMABLK_AUTH_NONCE_SIZE];	/* 0x80..0x9f */
static u8 hostid[RDMABLK_UUID_SIZE];			/* 0x11 each */
static u8 targetid[RDMABLK_UUID_SIZE];			/* 0x22 each */

static const u8 vec_sha256_host[] = {
	0x30, 0x14, 0xfd, 0xcb, 0x68, 0xb7, 0xff, 0x0d, 0x65, 0x58, 0x0e, 0x06,
	0xa6, 0xc7, 0xf4, 0x51, 0x8f, 0x26, 0xa1, 0xb5, 0x77, 0x1a, 0x21, 0x8d,
	0x02, 0x4a, 0x1f, 0x9f, 0x72, 0xd9, 0x46, 0xc9,
};

static const u8 vec_sha256_target[] = {
	0xc4, 0xb0, 0xb4, 0xaa, 0x59, 0x08, 0x7b, 0xed, 0xe5, 0x12, 0xd5, 0x9c,
	0xb1, 0x18, 0x56, 0x5d, 0x48, 0x23, 0xc3, 0x22, 0x7f, 0x39, 0xf7, 0x6d,
	0x0c, 0x07, 0x30, 0x9b, 0xba, 0x21, 0x97, 0x7a,
};

static const u8 vec_sha512_host_discovery[] = {
	0x00, 0x78, 0x09, 0xde, 0x7e, 0xb1, 0xee, 0x59, 0x54, 0xd1, 0x15, 0x92,
	0x93, 0xe0, 0xb7, 0x73, 0xef, 0x8b, 0xd9, 0xda, 0x9d, 0x4c, 0x7c, 0x36,
	0x2f, 0x3a, 0x55, 0xa3, 0x88, 0x10, 0x84, 0xfe, 0x28, 0xc6, 0x5b, 0x03,
	0x41, 0xd5, 0x01, 0xb9, 0x0e, 0x9b, 0x09, 0x7b, 0x0e, 0xfd, 0x13, 0x23,
	0x61, 0x05, 0x9c, 0xf3, 0x6d, 0x14, 0x79, 0x69, 0x54, 0x9c, 0x7b, 0xc0,
	0x88, 0xe1, 0x5a, 0xfb,
};

static const u8 vec_sha384_host[] = {
	0x65, 0x21, 0x0f, 0x3e, 0xb9, 0xbf, 0x3b, 0xf4, 0xe5, 0xab, 0x8d, 0xab,
	0x5f, 0xd1, 0xf7, 0x9c, 0x05, 0xf3, 0x8f, 0x60, 0xb0, 0x1d, 0x08, 0xf1,
	0x1d, 0xda, 0x84, 0x57, 0x3a, 0x29, 0xc9, 0x8e, 0xc1, 0x12, 0x55, 0x6b,
	0x71, 0xae, 0xa4, 0xf6, 0x60, 0xe5, 0x9b, 0xda, 0x13, 0x21, 0xe2, 0x15,
};

/* The target's proof with a SHA-256 key, in an exchange of SHA-384. */
static const u8 vec_sha384_mixed_target[] = {
	0xaa, 0xb6, 0xa8, 0x64, 0x92, 0xaf, 0xdd, 0xf7, 0x5f, 0x29, 0x08, 0xcd,
	0xba, 0x56, 0x67, 0x81, 0x16, 0x0a, 0xa1, 0xc5, 0x99, 0x5d, 0x1b, 0xe7,
	0x13, 0x44, 0xe9, 0x36, 0xba, 0x6d, 0xfe, 0x6f,
};

static int auth_test_init(struct kunit *test)
{
	int i;

	for (i = 0; i < RDMABLK_AUTH_NONCE_SIZE; i++) {
		nonce_host[i] = 0x40 + i;
		nonce_target[i] = 0x80 + i;
	}
	memset(hostid, 0x11, sizeof(hostid));
	memset(targetid, 0x22, sizeof(targetid));
	return 0;
}

/* A key of @hmac whose secret bytes count up from @first. */
static void key_counting(struct kunit *test, struct rdmablk_key *key, u8 hmac,
			 u8 first)
{
	u8 secret[RDMABLK_AUTH_MAC_MAX];
	unsigned int i;

	for (i = 0; i < sizeof(secret); i++)
		secret[i] = first + i;
	KUNIT_ASSERT_EQ(test, rdmablk_key_set(key, hmac, secret,
					      rdmablk_auth_mac_len(hmac)), 0);
}

static bool all_zero(const void *p, size_t len)
{
	return !memchr_inv(p, 0, len);
}

static void expect_wiped(struct kunit *test, const struct rdmablk_auth *a)
{
	KUNIT_EXPECT_TRUE(test, all_zero(&a->key, sizeof(a->key)));
	KUNIT_EXPECT_TRUE(test, all_zero(&a->target_key, sizeof(a->target_key)));
}

/*
 * The first half of an exchange: a host holding @hkey (and @tkey_host, to
 * have the target prove itself) challenges a target holding @hkey_target
 * and @tkey_target for that host, which answers; the host's proof is in
 * @reply.
 */
static void challenged(struct kunit *test, const char *name,
		       const struct rdmablk_key *hkey,
		       const struct rdmablk_key *tkey_host,
		       const struct rdmablk_key *hkey_target,
		       const struct rdmablk_key *tkey_target,
		       struct rdmablk_auth *h, struct rdmablk_auth *t,
		       struct rdmablk_auth_reply_req *reply)
{
	struct rdmablk_auth_chal_req creq;
	struct rdmablk_auth_chal_rsp crsp;

	memset(h, 0, sizeof(*h));
	memset(t, 0, sizeof(*t));
	KUNIT_ASSERT_EQ(test, rdmablk_auth_host_begin(h, name, hostid, hkey,
						      tkey_host, nonce_host,
						      &creq), 0);
	KUNIT_ASSERT_EQ(test, rdmablk_auth_chal_req_decode(t, &creq, sizeof(creq)),
			RDMABLK_S_OK);
	KUNIT_ASSERT_EQ(test, rdmablk_auth_target_challenge(t, hkey_target,
							    tkey_target, targetid,
							    nonce_target, &crsp),
			RDMABLK_S_OK);
	KUNIT_ASSERT_EQ(test, rdmablk_auth_host_reply(h, RDMABLK_S_OK, &crsp,
						      sizeof(crsp), reply), 0);
}

/*
 * A whole exchange, as challenged(). Returns the target's verdict on the
 * host's reply; the host's result of finish is in *@host_ret.
 */
static u16 exchange(struct kunit *test, const char *name,
		    const struct rdmablk_key *hkey,
		    const struct rdmablk_key *tkey_host,
		    const struct rdmablk_key *hkey_target,
		    const struct rdmablk_key *tkey_target,
		    struct rdmablk_auth *h, struct rdmablk_auth *t,
		    struct rdmablk_auth_reply_req *reply,
		    struct rdmablk_auth_reply_rsp *proof, int *host_ret)
{
	u16 verdict;

	challenged(test, name, hkey, tkey_host, hkey_target, tkey_target, h, t,
		   reply);
	verdict = rdmablk_auth_target_verify(t, reply, sizeof(*reply), proof);
	*host_ret = rdmablk_auth_host_finish(h, verdict, proof, sizeof(*proof));
	return verdict;
}

static void rdmablk_auth_vectors_sha256_bidir(struct kunit *test)
{
	struct rdmablk_key hkey, tkey;
	struct rdmablk_auth h = {}, t = {};
	struct rdmablk_auth_chal_req creq;
	struct rdmablk_auth_chal_rsp crsp;
	struct rdmablk_auth_reply_req reply;
	struct rdmablk_auth_reply_rsp proof;
	const u8 *raw = (const u8 *)&creq;

	key_counting(test, &hkey, RDMABLK_AUTH_HMAC_SHA256, 0x00);
	key_counting(test, &tkey, RDMABLK_AUTH_HMAC_SHA256, 0x20);

	KUNIT_ASSERT_EQ(test, rdmablk_auth_host_begin(&h, "vol0", hostid, &hkey,
						      &tkey, nonce_host, &creq), 0);
	/* The documented layout: name, host id, HMAC, flags, nonce. */
	KUNIT_EXPECT_EQ(test, memcmp(raw, "vol0\0", 5), 0);
	KUNIT_EXPECT_TRUE(test, all_zero(raw + 5, 59));
	KUNIT_EXPECT_EQ(test, raw[64], 0x11);
	KUNIT_EXPECT_EQ(test, raw[80], RDMABLK_AUTH_HMAC_SHA256);
	KUNIT_EXPECT_EQ(test, raw[81], RDMABLK_AUTH_BIDIR);
	KUNIT_EXPECT_TRUE(test, all_zero(raw + 82, 14));
	KUNIT_EXPECT_EQ(test, raw[96], 0x40);
	KUNIT_EXPECT_EQ(test, raw[127], 0x5f);

	KUNIT_ASSERT_EQ(test, rdmablk_auth_chal_req_decode(&t, &creq, sizeof(creq)),
			RDMABLK_S_OK);
	KUNIT_EXPECT_STREQ(test, t.name, "vol0");
	KUNIT_EXPECT_EQ(test, memcmp(t.hostid, hostid, sizeof(hostid)), 0);
	KUNIT_ASSERT_EQ(test, rdmablk_auth_target_challenge(&t, &hkey, &tkey,
							    targetid, nonce_target,
							    &crsp), RDMABLK_S_OK);
	raw = (const u8 *)&crsp;
	KUNIT_EXPECT_EQ(test, raw[0], 0x22);
	KUNIT_EXPECT_EQ(test, raw[16], RDMABLK_AUTH_HMAC_SHA256);
	KUNIT_EXPECT_EQ(test, raw[17], RDMABLK_AUTH_BIDIR);
	KUNIT_EXPECT_EQ(test, raw[32], 0x80);

	KUNIT_ASSERT_EQ(test, rdmablk_auth_host_reply(&h, RDMABLK_S_OK, &crsp,
						      sizeof(crsp), &reply), 0);
	KUNIT_EXPECT_EQ(test, memcmp(reply.mac, vec_sha256_host,
				     sizeof(vec_sha256_host)), 0);
	KUNIT_EXPECT_TRUE(test, all_zero(reply.mac + 32, 32));

	KUNIT_ASSERT_EQ(test, rdmablk_auth_target_verify(&t, &reply, sizeof(reply),
							 &proof), RDMABLK_S_OK);
	KUNIT_EXPECT_EQ(test, memcmp(proof.mac, vec_sha256_target,
				     sizeof(vec_sha256_target)), 0);
	KUNIT_EXPECT_TRUE(test, all_zero(proof.mac + 32, 32));
	KUNIT_EXPECT_EQ(test, t.state, RDMABLK_AUTH_DONE);
	expect_wiped(test, &t);

	KUNIT_EXPECT_EQ(test, rdmablk_auth_host_finish(&h, RDMABLK_S_OK, &proof,
						       sizeof(proof)), 0);
	KUNIT_EXPECT_EQ(test, h.state, RDMABLK_AUTH_DONE);
	expect_wiped(test, &h);
}

static void rdmablk_auth_vector_sha512_discovery(struct kunit *test)
{
	struct rdmablk_key hkey;
	struct rdmablk_auth h, t;
	struct rdmablk_auth_reply_req reply;
	struct rdmablk_auth_reply_rsp proof;
	int host_ret;

	key_counting(test, &hkey, RDMABLK_AUTH_HMAC_SHA512, 0xc0);
	KUNIT_EXPECT_EQ(test, exchange(test, "", &hkey, NULL, &hkey, NULL, &h, &t,
				       &reply, &proof, &host_ret), RDMABLK_S_OK);
	KUNIT_EXPECT_EQ(test, host_ret, 0);
	KUNIT_EXPECT_EQ(test, memcmp(reply.mac, vec_sha512_host_discovery,
				     sizeof(vec_sha512_host_discovery)), 0);
	/* Not asked for: no proof from the target. */
	KUNIT_EXPECT_TRUE(test, all_zero(&proof, sizeof(proof)));
}

static void rdmablk_auth_vector_sha384_mixed(struct kunit *test)
{
	struct rdmablk_key hkey, tkey;
	struct rdmablk_auth h, t;
	struct rdmablk_auth_reply_req reply;
	struct rdmablk_auth_reply_rsp proof;
	int host_ret;
	u8 secret[48];

	memset(secret, 0xa5, sizeof(secret));
	KUNIT_ASSERT_EQ(test, rdmablk_key_set(&hkey, RDMABLK_AUTH_HMAC_SHA384,
					      secret, sizeof(secret)), 0);
	key_counting(test, &tkey, RDMABLK_AUTH_HMAC_SHA256, 0x20);
	KUNIT_EXPECT_EQ(test, exchange(test, "vol0", &hkey, &tkey, &hkey, &tkey,
				       &h, &t, &reply, &proof, &host_ret),
			RDMABLK_S_OK);
	KUNIT_EXPECT_EQ(test, host_ret, 0);
	KUNIT_EXPECT_EQ(test, memcmp(reply.mac, vec_sha384_host,
				     sizeof(vec_sha384_host)), 0);
	KUNIT_EXPECT_EQ(test, memcmp(proof.mac, vec_sha384_mixed_target,
				     sizeof(vec_sha384_mixed_target)), 0);
}

/* The target refuses, with the same answer whatever the reason. */
static void rdmablk_auth_target_refuses(struct kunit *test)
{
	struct rdmablk_key hkey, other, tkey, k384;
	struct rdmablk_auth h, t;
	struct rdmablk_auth_reply_req reply;
	struct rdmablk_auth_reply_rsp proof;
	int host_ret;

	key_counting(test, &hkey, RDMABLK_AUTH_HMAC_SHA256, 0x00);
	key_counting(test, &other, RDMABLK_AUTH_HMAC_SHA256, 0x01);
	key_counting(test, &tkey, RDMABLK_AUTH_HMAC_SHA256, 0x20);
	key_counting(test, &k384, RDMABLK_AUTH_HMAC_SHA384, 0x00);

	/* Wrong key. */
	KUNIT_EXPECT_EQ(test, exchange(test, "vol0", &hkey, NULL, &other, NULL,
				       &h, &t, &reply, &proof, &host_ret),
			RDMABLK_S_AUTH_FAILED);
	KUNIT_EXPECT_EQ(test, host_ret, -EACCES);
	KUNIT_EXPECT_STREQ(test, t.why, "a wrong proof: the host holds another key");
	KUNIT_EXPECT_EQ(test, t.state, RDMABLK_AUTH_FAILED);
	KUNIT_EXPECT_EQ(test, h.state, RDMABLK_AUTH_FAILED);
	KUNIT_EXPECT_TRUE(test, all_zero(&proof, sizeof(proof)));
	expect_wiped(test, &t);
	expect_wiped(test, &h);

	/* No key for this host: challenged all the same, refused after. */
	KUNIT_EXPECT_EQ(test, exchange(test, "vol0", &hkey, NULL, NULL, NULL,
				       &h, &t, &reply, &proof, &host_ret),
			RDMABLK_S_AUTH_FAILED);
	KUNIT_EXPECT_EQ(test, host_ret, -EACCES);
	KUNIT_EXPECT_STREQ(test, t.why, "no key for this host");

	/* A key for another HMAC. */
	KUNIT_EXPECT_EQ(test, exchange(test, "vol0", &hkey, NULL, &k384, NULL,
				       &h, &t, &reply, &proof, &host_ret),
			RDMABLK_S_AUTH_FAILED);
	KUNIT_EXPECT_STREQ(test, t.why, "the host uses another HMAC than its key here");

	/* A proof asked of a target that has no target key. */
	KUNIT_EXPECT_EQ(test, exchange(test, "vol0", &hkey, &tkey, &hkey, NULL,
				       &h, &t, &reply, &proof, &host_ret),
			RDMABLK_S_AUTH_FAILED);
	KUNIT_EXPECT_EQ(test, host_ret, -EACCES);

	/*
	 * The proof is bound to the export: one made for vol0 does not open
	 * vol1, all else (nonces, identities, keys) the same.
	 */
	KUNIT_EXPECT_EQ(test, exchange(test, "vol0", &hkey, NULL, &hkey, NULL,
				       &h, &t, &reply, &proof, &host_ret),
			RDMABLK_S_OK);
	{
		struct rdmablk_auth_reply_req for_vol0 = reply;

		challenged(test, "vol1", &hkey, NULL, &hkey, NULL, &h, &t, &reply);
		KUNIT_EXPECT_EQ(test, rdmablk_auth_target_verify(&t, &for_vol0,
								 sizeof(for_vol0),
								 &proof),
				RDMABLK_S_AUTH_FAILED);
	}
}

/* The host refuses a target that cannot prove itself. */
static void rdmablk_auth_host_refuses_impostor(struct kunit *test)
{
	struct rdmablk_key hkey, tkey, wrong;
	struct rdmablk_auth h, t;
	struct rdmablk_auth_reply_req reply;
	struct rdmablk_auth_reply_rsp proof;
	int host_ret;

	key_counting(test, &hkey, RDMABLK_AUTH_HMAC_SHA256, 0x00);
	key_counting(test, &tkey, RDMABLK_AUTH_HMAC_SHA256, 0x20);
	key_counting(test, &wrong, RDMABLK_AUTH_HMAC_SHA256, 0x21);
	/* It knows the host's key (stolen, or guessed) but not the target's. */
	KUNIT_EXPECT_EQ(test, exchange(test, "vol0", &hkey, &tkey, &hkey, &wrong,
				       &h, &t, &reply, &proof, &host_ret),
			RDMABLK_S_OK);
	KUNIT_EXPECT_EQ(test, host_ret, -EKEYREJECTED);
	KUNIT_EXPECT_EQ(test, h.state, RDMABLK_AUTH_FAILED);
	expect_wiped(test, &h);

	/* The host's own proof sent back as the target's (a reflection). */
	memset(&h, 0, sizeof(h));
	KUNIT_EXPECT_EQ(test, exchange(test, "vol0", &hkey, &hkey, &hkey, &hkey,
				       &h, &t, &reply, &proof, &host_ret),
			RDMABLK_S_OK);
	KUNIT_EXPECT_EQ(test, host_ret, 0);
	KUNIT_EXPECT_NE(test, memcmp(reply.mac, proof.mac, 32), 0);
	challenged(test, "vol0", &hkey, &hkey, &hkey, &hkey, &h, &t, &reply);
	memset(&proof, 0, sizeof(proof));
	memcpy(proof.mac, reply.mac, sizeof(reply.mac));
	KUNIT_EXPECT_EQ(test, rdmablk_auth_host_finish(&h, RDMABLK_S_OK, &proof,
						       sizeof(proof)),
			-EKEYREJECTED);
}

/* A reply recorded on one connection proves nothing on another. */
static void rdmablk_auth_replay_refused(struct kunit *test)
{
	struct rdmablk_key hkey;
	struct rdmablk_auth h, t;
	struct rdmablk_auth_reply_req recorded, reply;
	struct rdmablk_auth_reply_rsp proof;
	int host_ret;

	key_counting(test, &hkey, RDMABLK_AUTH_HMAC_SHA256, 0x00);
	KUNIT_ASSERT_EQ(test, exchange(test, "vol0", &hkey, NULL, &hkey, NULL,
				       &h, &t, &recorded, &proof, &host_ret),
			RDMABLK_S_OK);

	/* The attacker replays the challenge and the reply; the target's nonce is new. */
	nonce_target[0] ^= 1;
	challenged(test, "vol0", &hkey, NULL, &hkey, NULL, &h, &t, &reply);
	KUNIT_EXPECT_EQ(test, rdmablk_auth_target_verify(&t, &recorded,
							 sizeof(recorded), &proof),
			RDMABLK_S_AUTH_FAILED);
	/* The honest reply to the new nonce passes. */
	challenged(test, "vol0", &hkey, NULL, &hkey, NULL, &h, &t, &reply);
	KUNIT_EXPECT_EQ(test, rdmablk_auth_target_verify(&t, &reply, sizeof(reply),
							 &proof),
			RDMABLK_S_OK);
}

static void rdmablk_auth_target_malformed(struct kunit *test)
{
	struct rdmablk_key hkey;
	struct rdmablk_auth h, t;
	struct rdmablk_auth_chal_req good, bad;
	struct rdmablk_auth_chal_rsp crsp;
	struct rdmablk_auth_reply_req reply = {};
	struct rdmablk_auth_reply_rsp proof;

	key_counting(test, &hkey, RDMABLK_AUTH_HMAC_SHA256, 0x00);
	memset(&h, 0, sizeof(h));
	KUNIT_ASSERT_EQ(test, rdmablk_auth_host_begin(&h, "vol0", hostid, &hkey,
						      NULL, nonce_host, &good), 0);

#define EXPECT_CHAL(msg, len, want) do {				\
		enum rdmablk_status __want = (want);			\
		memset(&t, 0, sizeof(t));				\
		KUNIT_EXPECT_EQ(test, rdmablk_auth_chal_req_decode(&t, msg, len), \
				__want);				\
		if (__want != RDMABLK_S_OK)				\
			KUNIT_EXPECT_EQ(test, t.state, RDMABLK_AUTH_FAILED); \
	} while (0)

	EXPECT_CHAL(&good, sizeof(good), RDMABLK_S_OK);
	EXPECT_CHAL(&good, sizeof(good) - 1, RDMABLK_S_INVALID);
	EXPECT_CHAL(&good, sizeof(good) + 1, RDMABLK_S_INVALID);
	EXPECT_CHAL(&good, 0, RDMABLK_S_INVALID);
	bad = good;
	memset(bad.name, 'a', sizeof(bad.name));	/* not terminated */
	EXPECT_CHAL(&bad, sizeof(bad), RDMABLK_S_INVALID);
	bad = good;
	strscpy_pad(bad.name, "a/b", sizeof(bad.name));
	EXPECT_CHAL(&bad, sizeof(bad), RDMABLK_S_INVALID);
	bad = good;
	bad.hmac = 0;
	EXPECT_CHAL(&bad, sizeof(bad), RDMABLK_S_INVALID);
	bad.hmac = RDMABLK_AUTH_HMAC_SHA512 + 1;
	EXPECT_CHAL(&bad, sizeof(bad), RDMABLK_S_INVALID);
	bad = good;
	bad.flags = 2;
	EXPECT_CHAL(&bad, sizeof(bad), RDMABLK_S_INVALID);
	/* Reserved bytes are ignored. */
	bad = good;
	bad.reserved0[3] = 7;
	EXPECT_CHAL(&bad, sizeof(bad), RDMABLK_S_OK);
#undef EXPECT_CHAL

	/* A second challenge on the connection. */
	memset(&t, 0, sizeof(t));
	rdmablk_auth_chal_req_decode(&t, &good, sizeof(good));
	rdmablk_auth_target_challenge(&t, &hkey, NULL, targetid, nonce_target, &crsp);
	KUNIT_EXPECT_EQ(test, rdmablk_auth_chal_req_decode(&t, &good, sizeof(good)),
			RDMABLK_S_AUTH_FAILED);
	KUNIT_EXPECT_EQ(test, t.state, RDMABLK_AUTH_FAILED);
	expect_wiped(test, &t);
	/* ... after which nothing is accepted. */
	KUNIT_EXPECT_EQ(test, rdmablk_auth_target_verify(&t, &reply, sizeof(reply),
							 &proof),
			RDMABLK_S_AUTH_FAILED);

	/* A reply before any challenge. */
	memset(&t, 0, sizeof(t));
	KUNIT_EXPECT_EQ(test, rdmablk_auth_target_verify(&t, &reply, sizeof(reply),
							 &proof),
			RDMABLK_S_AUTH_FAILED);
	/* A challenge answered without being decoded. */
	memset(&t, 0, sizeof(t));
	KUNIT_EXPECT_EQ(test, rdmablk_auth_target_challenge(&t, &hkey, NULL, targetid,
							    nonce_target, &crsp),
			RDMABLK_S_AUTH_FAILED);

	/* A short or a long reply, then a second reply after the verdict. */
	memset(&t, 0, sizeof(t));
	rdmablk_auth_chal_req_decode(&t, &good, sizeof(good));
	rdmablk_auth_target_challenge(&t, &hkey, NULL, targetid, nonce_target, &crsp);
	KUNIT_EXPECT_EQ(test, rdmablk_auth_target_verify(&t, &reply, sizeof(reply) - 1,
							 &proof),
			RDMABLK_S_AUTH_FAILED);
	KUNIT_EXPECT_STREQ(test, t.why, "a malformed reply");
	KUNIT_EXPECT_EQ(test, rdmablk_auth_target_verify(&t, &reply, sizeof(reply),
							 &proof),
			RDMABLK_S_AUTH_FAILED);
}

static void rdmablk_auth_host_malformed(struct kunit *test)
{
	struct rdmablk_key hkey, none = {};
	struct rdmablk_auth h;
	struct rdmablk_auth_chal_req creq;
	struct rdmablk_auth_chal_rsp good = {}, bad;
	struct rdmablk_auth_reply_req reply;
	struct rdmablk_auth_reply_rsp proof = {};
	char long_name[RDMABLK_EXPORT_NAME_MAX + 1];

	key_counting(test, &hkey, RDMABLK_AUTH_HMAC_SHA256, 0x00);
	good.hmac = RDMABLK_AUTH_HMAC_SHA256;
	memcpy(good.nonce, nonce_target, sizeof(good.nonce));

#define BEGIN() do {							\
		memset(&h, 0, sizeof(h));				\
		KUNIT_ASSERT_EQ(test, rdmablk_auth_host_begin(&h, "vol0", hostid, \
							      &hkey, NULL, \
							      nonce_host, &creq), 0); \
	} while (0)

	/* Calls the module never makes. */
	memset(&h, 0, sizeof(h));
	KUNIT_EXPECT_EQ(test, rdmablk_auth_host_begin(&h, "vol0", hostid, &none,
						      NULL, nonce_host, &creq),
			-EINVAL);
	memset(long_name, 'a', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	memset(&h, 0, sizeof(h));
	KUNIT_EXPECT_EQ(test, rdmablk_auth_host_begin(&h, long_name, hostid, &hkey,
						      NULL, nonce_host, &creq),
			-EINVAL);
	BEGIN();
	KUNIT_EXPECT_EQ(test, rdmablk_auth_host_begin(&h, "vol0", hostid, &hkey,
						      NULL, nonce_host, &creq),
			-EINVAL);

	/* Out of order. */
	memset(&h, 0, sizeof(h));
	KUNIT_EXPECT_EQ(test, rdmablk_auth_host_reply(&h, RDMABLK_S_OK, &good,
						      sizeof(good), &reply), -EPROTO);
	BEGIN();
	KUNIT_EXPECT_EQ(test, rdmablk_auth_host_finish(&h, RDMABLK_S_OK, &proof,
						       sizeof(proof)), -EPROTO);
	KUNIT_EXPECT_EQ(test, h.state, RDMABLK_AUTH_FAILED);
	expect_wiped(test, &h);

	/* Bad answers to the challenge. */
	BEGIN();
	KUNIT_EXPECT_EQ(test, rdmablk_auth_host_reply(&h, RDMABLK_S_AUTH_FAILED,
						      NULL, 0, &reply), -EACCES);
	BEGIN();
	KUNIT_EXPECT_EQ(test, rdmablk_auth_host_reply(&h, RDMABLK_S_INVALID, &good,
						      sizeof(good), &reply), -EPROTO);
	BEGIN();
	KUNIT_EXPECT_EQ(test, rdmablk_auth_host_reply(&h, RDMABLK_S_OK, &good,
						      sizeof(good) - 1, &reply),
			-EPROTO);
	bad = good;
	bad.hmac = RDMABLK_AUTH_HMAC_SHA512;
	BEGIN();
	KUNIT_EXPECT_EQ(test, rdmablk_auth_host_reply(&h, RDMABLK_S_OK, &bad,
						      sizeof(bad), &reply), -EPROTO);
	bad = good;
	bad.flags = RDMABLK_AUTH_BIDIR;
	BEGIN();
	KUNIT_EXPECT_EQ(test, rdmablk_auth_host_reply(&h, RDMABLK_S_OK, &bad,
						      sizeof(bad), &reply), -EPROTO);
	bad = good;
	memcpy(bad.nonce, nonce_host, sizeof(bad.nonce));
	BEGIN();
	KUNIT_EXPECT_EQ(test, rdmablk_auth_host_reply(&h, RDMABLK_S_OK, &bad,
						      sizeof(bad), &reply), -EPROTO);
	KUNIT_EXPECT_EQ(test, h.state, RDMABLK_AUTH_FAILED);

	/* Bad verdicts. */
	BEGIN();
	KUNIT_ASSERT_EQ(test, rdmablk_auth_host_reply(&h, RDMABLK_S_OK, &good,
						      sizeof(good), &reply), 0);
	KUNIT_EXPECT_EQ(test, rdmablk_auth_host_reply(&h, RDMABLK_S_OK, &good,
						      sizeof(good), &reply), -EPROTO);
	BEGIN();
	rdmablk_auth_host_reply(&h, RDMABLK_S_OK, &good, sizeof(good), &reply);
	KUNIT_EXPECT_EQ(test, rdmablk_auth_host_finish(&h, RDMABLK_S_NOT_OPEN, &proof,
						       sizeof(proof)), -EPROTO);
	BEGIN();
	rdmablk_auth_host_reply(&h, RDMABLK_S_OK, &good, sizeof(good), &reply);
	KUNIT_EXPECT_EQ(test, rdmablk_auth_host_finish(&h, RDMABLK_S_OK, &proof,
						       sizeof(proof)), 0);
	/* After the verdict, nothing more. */
	KUNIT_EXPECT_EQ(test, rdmablk_auth_host_finish(&h, RDMABLK_S_OK, &proof,
						       sizeof(proof)), -EPROTO);
#undef BEGIN
}

static void rdmablk_auth_keys(struct kunit *test)
{
	struct rdmablk_key key;
	u8 secret[RDMABLK_AUTH_MAC_MAX] = { 1 };

	KUNIT_EXPECT_EQ(test, rdmablk_auth_mac_len(RDMABLK_AUTH_HMAC_SHA256), 32U);
	KUNIT_EXPECT_EQ(test, rdmablk_auth_mac_len(RDMABLK_AUTH_HMAC_SHA384), 48U);
	KUNIT_EXPECT_EQ(test, rdmablk_auth_mac_len(RDMABLK_AUTH_HMAC_SHA512), 64U);
	KUNIT_EXPECT_EQ(test, rdmablk_auth_mac_len(0), 0U);
	KUNIT_EXPECT_EQ(test, rdmablk_auth_mac_len(4), 0U);

	KUNIT_EXPECT_EQ(test, rdmablk_key_set(&key, RDMABLK_AUTH_HMAC_SHA256,
					      secret, 32), 0);
	KUNIT_EXPECT_EQ(test, key.len, 32);
	KUNIT_EXPECT_EQ(test, key.secret[0], 1);
	/* A secret of the wrong length for its HMAC leaves no key. */
	KUNIT_EXPECT_EQ(test, rdmablk_key_set(&key, RDMABLK_AUTH_HMAC_SHA256,
					      secret, 31), -EINVAL);
	KUNIT_EXPECT_TRUE(test, all_zero(&key, sizeof(key)));
	KUNIT_EXPECT_EQ(test, rdmablk_key_set(&key, RDMABLK_AUTH_HMAC_SHA384,
					      secret, 64), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdmablk_key_set(&key, 9, secret, 32), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdmablk_key_set(&key, RDMABLK_AUTH_HMAC_SHA512,
					      secret, 64), 0);
	rdmablk_key_wipe(&key);
	KUNIT_EXPECT_TRUE(test, all_zero(&key, sizeof(key)));
}

static struct kunit_case rdmablk_auth_test_cases[] = {
	KUNIT_CASE(rdmablk_auth_keys),
	KUNIT_CASE(rdmablk_auth_vectors_sha256_bidir),
	KUNIT_CASE(rdmablk_auth_vector_sha512_discovery),
	KUNIT_CASE(rdmablk_auth_vector_sha384_mixed),
	KUNIT_CASE(rdmablk_auth_target_refuses),
	KUNIT_CASE(rdmablk_auth_host_refuses_impostor),
	KUNIT_CASE(rdmablk_auth_replay_refused),
	KUNIT_CASE(rdmablk_auth_target_malformed),
	KUNIT_CASE(rdmablk_auth_host_malformed),
	{}
};

static struct kunit_suite rdmablk_auth_test_suite = {
	.name = "rdmablk-auth",
	.init = auth_test_init,
	.test_cases = rdmablk_auth_test_cases,
};
kunit_test_suite(rdmablk_auth_test_suite);
