// SPDX-License-Identifier: GPL-2.0
/*
 * Authentication: secrets, proofs and the two roles' state machines (see
 * auth.h). Computing a proof allocates an HMAC transform and may sleep.
 */
#include <crypto/algapi.h>
#include <crypto/hash.h>
#include <linux/build_bug.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/string.h>

#include "auth.h"
#include "proto.h"

/* Each label is exactly RDMABLK_AUTH_LABEL_SIZE bytes, NUL-padded. */
static const char rdmablk_auth_label_host[RDMABLK_AUTH_LABEL_SIZE] =
	"RDMABLK-1 host";
static const char rdmablk_auth_label_target[RDMABLK_AUTH_LABEL_SIZE] =
	"RDMABLK-1 target";

/*
 * The transcript both proofs are computed over, in this order; fixed-size
 * fields only, so that no two different exchanges give the same bytes.
 */
struct rdmablk_auth_transcript {
	u8 label[RDMABLK_AUTH_LABEL_SIZE];
	u8 hmac;
	u8 flags;
	u8 reserved[14];
	u8 nonce_host[RDMABLK_AUTH_NONCE_SIZE];
	u8 nonce_target[RDMABLK_AUTH_NONCE_SIZE];
	u8 hostid[RDMABLK_UUID_SIZE];
	u8 targetid[RDMABLK_UUID_SIZE];
	u8 name[RDMABLK_EXPORT_NAME_MAX];
} __packed;

static const char *rdmablk_auth_alg(u8 hmac)
{
	switch (hmac) {
	case RDMABLK_AUTH_HMAC_SHA256:
		return "hmac(sha256)";
	case RDMABLK_AUTH_HMAC_SHA384:
		return "hmac(sha384)";
	case RDMABLK_AUTH_HMAC_SHA512:
		return "hmac(sha512)";
	default:
		return NULL;
	}
}

/**
 * rdmablk_auth_mac_len() - digest size of an HMAC, and so of its secrets
 * @hmac: enum rdmablk_auth_hmac
 *
 * Return: bytes; 0 for an HMAC this module does not know.
 */
unsigned int rdmablk_auth_mac_len(u8 hmac)
{
	switch (hmac) {
	case RDMABLK_AUTH_HMAC_SHA256:
		return 32;
	case RDMABLK_AUTH_HMAC_SHA384:
		return 48;
	case RDMABLK_AUTH_HMAC_SHA512:
		return 64;
	default:
		return 0;
	}
}

/**
 * rdmablk_key_set() - make a key from a secret
 * @key: result
 * @hmac: enum rdmablk_auth_hmac
 * @secret: the secret
 * @len: its length, which must be the HMAC's digest size
 *
 * Return: 0, or -EINVAL (and @key wiped).
 */
int rdmablk_key_set(struct rdmablk_key *key, u8 hmac, const void *secret,
		    size_t len)
{
	rdmablk_key_wipe(key);
	if (!rdmablk_auth_mac_len(hmac) || len != rdmablk_auth_mac_len(hmac))
		return -EINVAL;
	key->hmac = hmac;
	key->len = len;
	memcpy(key->secret, secret, len);
	return 0;
}

void rdmablk_key_wipe(struct rdmablk_key *key)
{
	memzero_explicit(key, sizeof(*key));
}

/* The secrets of an exchange, once it is decided; what is left is public. */
void rdmablk_auth_wipe(struct rdmablk_auth *a)
{
	rdmablk_key_wipe(&a->key);
	rdmablk_key_wipe(&a->target_key);
}

static int rdmablk_auth_fail(struct rdmablk_auth *a, int err)
{
	a->state = RDMABLK_AUTH_FAILED;
	rdmablk_auth_wipe(a);
	return err;
}

static enum rdmablk_status rdmablk_auth_refuse(struct rdmablk_auth *a,
					       const char *why)
{
	a->why = why;
	rdmablk_auth_fail(a, 0);
	return RDMABLK_S_AUTH_FAILED;
}

/**
 * rdmablk_auth_mac() - one side's proof for an exchange
 * @a: the exchange: both nonces, both identities, the name
 * @target_proof: the target's proof, not the host's
 * @key: the prover's secret; its HMAC is the one computed
 * @mac: result, rdmablk_auth_mac_len(@key->hmac) bytes
 *
 * May sleep.
 *
 * Return: 0, -EINVAL for no key, or what the crypto API returned.
 */
int rdmablk_auth_mac(const struct rdmablk_auth *a, bool target_proof,
		     const struct rdmablk_key *key, u8 *mac)
{
	struct rdmablk_auth_transcript t = {};
	struct crypto_shash *tfm;
	const char *alg = rdmablk_auth_alg(key->hmac);
	int ret;

	BUILD_BUG_ON(sizeof(t) != 192);
	BUILD_BUG_ON(sizeof(rdmablk_auth_label_target) !=
		     RDMABLK_AUTH_LABEL_SIZE);
	if (!alg || key->len != rdmablk_auth_mac_len(key->hmac))
		return -EINVAL;
	memcpy(t.label, target_proof ? rdmablk_auth_label_target :
	       rdmablk_auth_label_host, sizeof(t.label));
	t.hmac = a->hmac;
	t.flags = a->flags;
	memcpy(t.nonce_host, a->nonce_host, sizeof(t.nonce_host));
	memcpy(t.nonce_target, a->nonce_target, sizeof(t.nonce_target));
	memcpy(t.hostid, a->hostid, sizeof(t.hostid));
	memcpy(t.targetid, a->targetid, sizeof(t.targetid));
	memcpy(t.name, a->name, sizeof(t.name));

	tfm = crypto_alloc_shash(alg, 0, 0);
	if (IS_ERR(tfm))
		return PTR_ERR(tfm);
	ret = crypto_shash_setkey(tfm, key->secret, key->len);
	if (!ret)
		ret = crypto_shash_tfm_digest(tfm, (const u8 *)&t, sizeof(t),
					      mac);
	crypto_free_shash(tfm);
	return ret;
}

/* Whether @mac is @key's proof for @a; in constant time. */
static bool rdmablk_auth_mac_ok(const struct rdmablk_auth *a, bool target_proof,
				const struct rdmablk_key *key, const u8 *mac)
{
	u8 want[RDMABLK_AUTH_MAC_MAX];
	bool ok;

	ok = !rdmablk_auth_mac(a, target_proof, key, want) &&
	     !crypto_memneq(want, mac, key->len);
	memzero_explicit(want, sizeof(want));
	return ok;
}

/**
 * rdmablk_auth_host_begin() - the host's first message
 * @a: a zeroed exchange
 * @name: the export to open, "" for discovery
 * @hostid: this host's identity
 * @key: this host's secret
 * @target_key: the target's secret, to have it prove itself; or NULL
 * @nonce: RDMABLK_AUTH_NONCE_SIZE fresh random bytes
 * @out: the AUTH_CHALLENGE payload to send
 *
 * Return: 0, or -EINVAL for a call this module should never make.
 */
int rdmablk_auth_host_begin(struct rdmablk_auth *a, const char *name,
			    const u8 *hostid, const struct rdmablk_key *key,
			    const struct rdmablk_key *target_key,
			    const u8 *nonce,
			    struct rdmablk_auth_chal_req *out)
{
	if (a->state != RDMABLK_AUTH_NONE || !key->hmac ||
	    (target_key && !target_key->hmac) ||
	    strscpy_pad(a->name, name, sizeof(a->name)) < 0)
		return rdmablk_auth_fail(a, -EINVAL);
	a->key = *key;
	if (target_key) {
		a->target_key = *target_key;
		a->flags |= RDMABLK_AUTH_BIDIR;
	}
	a->hmac = key->hmac;
	memcpy(a->hostid, hostid, sizeof(a->hostid));
	memcpy(a->nonce_host, nonce, sizeof(a->nonce_host));

	memset(out, 0, sizeof(*out));
	memcpy(out->name, a->name, sizeof(out->name));
	memcpy(out->hostid, a->hostid, sizeof(out->hostid));
	out->hmac = a->hmac;
	out->flags = a->flags;
	memcpy(out->nonce, a->nonce_host, sizeof(out->nonce));
	a->state = RDMABLK_AUTH_CHALLENGED;
	return 0;
}

/**
 * rdmablk_auth_host_reply() - take the target's challenge, give the proof
 * @a: the exchange
 * @status: the response's status
 * @data: what followed the response, untrusted
 * @len: its length
 * @out: the AUTH_REPLY payload to send
 *
 * Return: 0; -EACCES when the target refused; -EPROTO for an answer that
 * breaks the protocol; an error of rdmablk_auth_mac(). The exchange has
 * failed unless 0.
 */
int rdmablk_auth_host_reply(struct rdmablk_auth *a, u16 status,
			    const void *data, u32 len,
			    struct rdmablk_auth_reply_req *out)
{
	const struct rdmablk_auth_chal_rsp *rsp = data;
	int ret;

	if (a->state != RDMABLK_AUTH_CHALLENGED)
		return rdmablk_auth_fail(a, -EPROTO);
	if (status == RDMABLK_S_AUTH_FAILED)
		return rdmablk_auth_fail(a, -EACCES);
	if (status != RDMABLK_S_OK || len < sizeof(*rsp) ||
	    rsp->hmac != a->hmac || rsp->flags != a->flags)
		return rdmablk_auth_fail(a, -EPROTO);
	/* A peer that echoes our nonce would have us prove for it. */
	if (!memcmp(rsp->nonce, a->nonce_host, sizeof(rsp->nonce)))
		return rdmablk_auth_fail(a, -EPROTO);
	memcpy(a->targetid, rsp->targetid, sizeof(a->targetid));
	memcpy(a->nonce_target, rsp->nonce, sizeof(a->nonce_target));

	memset(out, 0, sizeof(*out));
	ret = rdmablk_auth_mac(a, false, &a->key, out->mac);
	if (ret) {
		memset(out, 0, sizeof(*out));
		return rdmablk_auth_fail(a, ret);
	}
	a->state = RDMABLK_AUTH_REPLIED;
	return 0;
}

/**
 * rdmablk_auth_host_finish() - take the target's verdict (and proof)
 * @a: the exchange
 * @status: the response's status
 * @data: what followed the response, untrusted
 * @len: its length
 *
 * Return: 0 when authenticated (and the target proved itself, if asked);
 * -EACCES when the target refused; -EKEYREJECTED when the target's proof
 * is wrong (another target key, or not the target); -EPROTO for an answer
 * that breaks the protocol. The secrets are wiped either way.
 */
int rdmablk_auth_host_finish(struct rdmablk_auth *a, u16 status,
			     const void *data, u32 len)
{
	const struct rdmablk_auth_reply_rsp *rsp = data;

	if (a->state != RDMABLK_AUTH_REPLIED)
		return rdmablk_auth_fail(a, -EPROTO);
	if (status == RDMABLK_S_AUTH_FAILED)
		return rdmablk_auth_fail(a, -EACCES);
	if (status != RDMABLK_S_OK)
		return rdmablk_auth_fail(a, -EPROTO);
	if (a->flags & RDMABLK_AUTH_BIDIR) {
		if (len < sizeof(*rsp))
			return rdmablk_auth_fail(a, -EPROTO);
		if (!rdmablk_auth_mac_ok(a, true, &a->target_key, rsp->mac))
			return rdmablk_auth_fail(a, -EKEYREJECTED);
	}
	rdmablk_auth_wipe(a);
	a->state = RDMABLK_AUTH_DONE;
	return 0;
}

/**
 * rdmablk_auth_chal_req_decode() - check and take a host's challenge
 * @a: the connection's exchange
 * @data: AUTH_CHALLENGE's inline payload, untrusted
 * @len: its length
 *
 * Fills in who asks (@a->hostid), for which export (@a->name), so the
 * caller can look up the keys for rdmablk_auth_target_challenge().
 *
 * Return: RDMABLK_S_OK; RDMABLK_S_INVALID for a malformed challenge;
 * RDMABLK_S_AUTH_FAILED for a second one. The exchange has failed unless
 * RDMABLK_S_OK.
 */
enum rdmablk_status rdmablk_auth_chal_req_decode(struct rdmablk_auth *a,
						 const void *data, u32 len)
{
	const struct rdmablk_auth_chal_req *req = data;

	if (a->state != RDMABLK_AUTH_NONE)
		return rdmablk_auth_refuse(a, "a second challenge on the connection");
	if (len != sizeof(*req) ||
	    !memchr(req->name, '\0', sizeof(req->name)) ||
	    (req->name[0] && !rdmablk_export_name_valid(req->name)) ||
	    !rdmablk_auth_mac_len(req->hmac) ||
	    req->flags & ~RDMABLK_AUTH_BIDIR) {
		a->why = "a malformed challenge";
		rdmablk_auth_fail(a, 0);
		return RDMABLK_S_INVALID;
	}
	strscpy_pad(a->name, req->name, sizeof(a->name));
	memcpy(a->hostid, req->hostid, sizeof(a->hostid));
	a->hmac = req->hmac;
	a->flags = req->flags;
	memcpy(a->nonce_host, req->nonce, sizeof(a->nonce_host));
	return RDMABLK_S_OK;
}

/**
 * rdmablk_auth_target_challenge() - answer a host's challenge
 * @a: the exchange, after rdmablk_auth_chal_req_decode()
 * @key: the secret this target holds for @a->hostid, or NULL for none
 * @target_key: the target's own secret for that host, or NULL for none
 * @targetid: this target's identity
 * @nonce: RDMABLK_AUTH_NONCE_SIZE fresh random bytes
 * @out: what follows the response
 *
 * The host learns nothing here: a host without a key, or with a key for
 * another HMAC, or asking for a proof this target cannot give, gets a
 * challenge like any other and is refused only after its reply.
 *
 * Return: RDMABLK_S_OK, or RDMABLK_S_AUTH_FAILED out of order.
 */
enum rdmablk_status
rdmablk_auth_target_challenge(struct rdmablk_auth *a,
			      const struct rdmablk_key *key,
			      const struct rdmablk_key *target_key,
			      const u8 *targetid, const u8 *nonce,
			      struct rdmablk_auth_chal_rsp *out)
{
	if (a->state != RDMABLK_AUTH_NONE || !a->hmac)
		return rdmablk_auth_refuse(a, "a challenge answered twice");
	if (!key || !key->hmac)
		a->why = "no key for this host";
	else if (key->hmac != a->hmac)
		a->why = "the host uses another HMAC than its key here";
	else if ((a->flags & RDMABLK_AUTH_BIDIR) &&
		 (!target_key || !target_key->hmac))
		a->why = "the host asks the target to prove itself, with no target key set for it";
	if (key)
		a->key = *key;
	if (target_key)
		a->target_key = *target_key;
	memcpy(a->targetid, targetid, sizeof(a->targetid));
	memcpy(a->nonce_target, nonce, sizeof(a->nonce_target));

	memset(out, 0, sizeof(*out));
	memcpy(out->targetid, a->targetid, sizeof(out->targetid));
	out->hmac = a->hmac;
	out->flags = a->flags;
	memcpy(out->nonce, a->nonce_target, sizeof(out->nonce));
	a->state = RDMABLK_AUTH_CHALLENGED;
	return RDMABLK_S_OK;
}

/**
 * rdmablk_auth_target_verify() - check a host's proof, give the target's
 * @a: the exchange, after rdmablk_auth_target_challenge()
 * @data: AUTH_REPLY's inline payload, untrusted
 * @len: its length
 * @out: what follows a successful response (the target's proof, with
 *	RDMABLK_AUTH_BIDIR; zero otherwise)
 *
 * Return: RDMABLK_S_OK when the host proved it holds its key; else
 * RDMABLK_S_AUTH_FAILED, whatever the reason (@a->why says it, for the
 * target's log only). The secrets are wiped either way.
 */
enum rdmablk_status rdmablk_auth_target_verify(struct rdmablk_auth *a,
					       const void *data, u32 len,
					       struct rdmablk_auth_reply_rsp *out)
{
	const struct rdmablk_auth_reply_req *req = data;

	memset(out, 0, sizeof(*out));
	if (a->state != RDMABLK_AUTH_CHALLENGED)
		return rdmablk_auth_refuse(a, "a reply before the challenge or after the verdict");
	if (a->why)
		return rdmablk_auth_refuse(a, a->why);
	if (len != sizeof(*req))
		return rdmablk_auth_refuse(a, "a malformed reply");
	if (!rdmablk_auth_mac_ok(a, false, &a->key, req->mac))
		return rdmablk_auth_refuse(a, "a wrong proof: the host holds another key");
	if ((a->flags & RDMABLK_AUTH_BIDIR) &&
	    rdmablk_auth_mac(a, true, &a->target_key, out->mac)) {
		memset(out, 0, sizeof(*out));
		return rdmablk_auth_refuse(a, "cannot compute the target's proof");
	}
	rdmablk_auth_wipe(a);
	a->state = RDMABLK_AUTH_DONE;
	return RDMABLK_S_OK;
}
