/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Authentication: the per-host secrets and the challenge-response exchange
 * of docs/protocol.md ("Authentication"), both roles, verbs-free so that
 * KUnit checks every step against recorded vectors and every malformed or
 * out-of-order message.
 *
 * Each side proves it holds a secret with an HMAC over one transcript of
 * the exchange: a role label, the HMAC and flags asked for, both nonces,
 * both host identities and the export name. The labels differ, so a proof
 * can never be reflected back as the other side's. Nonces come from the
 * caller (get_random_bytes() on a connection, fixed bytes in KUnit).
 *
 * Secrets live only in struct rdmablk_key, are wiped when a key or an
 * exchange is done with (rdmablk_key_wipe(), rdmablk_auth_wipe()) and
 * never appear in a log, an event or a reply.
 */
#ifndef RDMABLK_AUTH_H
#define RDMABLK_AUTH_H

#include <linux/types.h>
#include <linux/rdmablk_proto.h>

/* Bytes of the role label that starts the transcript. */
#define RDMABLK_AUTH_LABEL_SIZE		16

/**
 * struct rdmablk_key - a secret and the HMAC it is used with
 * @hmac: enum rdmablk_auth_hmac; 0: no key
 * @len: bytes of @secret used: the HMAC's digest size
 * @secret: the secret
 */
struct rdmablk_key {
	u8 hmac;
	u8 len;
	u8 secret[RDMABLK_AUTH_MAC_MAX];
};

/**
 * enum rdmablk_auth_state - where an exchange is
 * @RDMABLK_AUTH_NONE: nothing sent or received yet
 * @RDMABLK_AUTH_CHALLENGED: host: challenge sent; target: answered
 * @RDMABLK_AUTH_REPLIED: host: its proof sent
 * @RDMABLK_AUTH_DONE: authenticated (both ways if asked for)
 * @RDMABLK_AUTH_FAILED: refused; terminal
 */
enum rdmablk_auth_state {
	RDMABLK_AUTH_NONE,
	RDMABLK_AUTH_CHALLENGED,
	RDMABLK_AUTH_REPLIED,
	RDMABLK_AUTH_DONE,
	RDMABLK_AUTH_FAILED,
};

/**
 * struct rdmablk_auth - one exchange, on one connection, either role
 * @state: enum rdmablk_auth_state
 * @hmac: enum rdmablk_auth_hmac of the exchange
 * @flags: RDMABLK_AUTH_* asked for by the host
 * @nonce_host: the host's nonce
 * @nonce_target: the target's nonce
 * @hostid: the host's identity
 * @targetid: the target's identity
 * @name: the export (empty for discovery), NUL-padded
 * @key: the host's secret
 * @target_key: the target's secret, for RDMABLK_AUTH_BIDIR
 * @why: target: why it refused, for its rate-limited log; a constant string
 */
struct rdmablk_auth {
	u8 state;
	u8 hmac;
	u8 flags;
	u8 nonce_host[RDMABLK_AUTH_NONCE_SIZE];
	u8 nonce_target[RDMABLK_AUTH_NONCE_SIZE];
	u8 hostid[RDMABLK_UUID_SIZE];
	u8 targetid[RDMABLK_UUID_SIZE];
	char name[RDMABLK_EXPORT_NAME_MAX];
	struct rdmablk_key key;
	struct rdmablk_key target_key;
	const char *why;
};

unsigned int rdmablk_auth_mac_len(u8 hmac);
int rdmablk_key_set(struct rdmablk_key *key, u8 hmac, const void *secret,
		    size_t len);
void rdmablk_key_wipe(struct rdmablk_key *key);
void rdmablk_auth_wipe(struct rdmablk_auth *a);
int rdmablk_auth_mac(const struct rdmablk_auth *a, bool target_proof,
		     const struct rdmablk_key *key, u8 *mac);

/* The host's side. */
int rdmablk_auth_host_begin(struct rdmablk_auth *a, const char *name,
			    const u8 *hostid, const struct rdmablk_key *key,
			    const struct rdmablk_key *target_key,
			    const u8 *nonce,
			    struct rdmablk_auth_chal_req *out);
int rdmablk_auth_host_reply(struct rdmablk_auth *a, u16 status,
			    const void *data, u32 len,
			    struct rdmablk_auth_reply_req *out);
int rdmablk_auth_host_finish(struct rdmablk_auth *a, u16 status,
			     const void *data, u32 len);

/* The target's side. */
enum rdmablk_status rdmablk_auth_chal_req_decode(struct rdmablk_auth *a,
						 const void *data, u32 len);
enum rdmablk_status
rdmablk_auth_target_challenge(struct rdmablk_auth *a,
			      const struct rdmablk_key *key,
			      const struct rdmablk_key *target_key,
			      const u8 *targetid, const u8 *nonce,
			      struct rdmablk_auth_chal_rsp *out);
enum rdmablk_status rdmablk_auth_target_verify(struct rdmablk_auth *a,
					       const void *data, u32 len,
					       struct rdmablk_auth_reply_rsp *out);

#endif /* RDMABLK_AUTH_H */
