// SPDX-License-Identifier: GPL-2.0
/*
 * Authentication on the target: the keys it holds per host (HOST_SET),
 * the exchange on a connection (AUTH_CHALLENGE, AUTH_REPLY; the protocol
 * and its proofs are in ../auth.c), who may then OPEN or discover what,
 * and what a refused proof leaves: a count against the host and a line in
 * the log, nothing against its source address.
 *
 * Rules (docs/protocol.md, "Authentication"):
 *  - A host the target holds keys for must authenticate before OPEN or
 *    DISC_*: its host id alone is no proof, allow list or not.
 *  - An export with auth_required is opened by, and listed to,
 *    authenticated hosts only.
 *  - A connection that authenticated opens only the export it named in
 *    its challenge, under the host id it proved (a discovery session:
 *    lists only under that host id).
 *  - Every refusal of the exchange is the same RDMABLK_S_AUTH_FAILED; why
 *    goes to the rate-limited log, never on the wire.
 *
 * Locking:
 *  - rdmablk_thosts_lock (mutex) protects rdmablk_thosts and each entry's
 *    keys and counters. Connections copy the keys they need under it into
 *    their own exchange, which wipes them once it is decided.
 *  - A connection's exchange (@conn->auth, @conn->auth_mode) is touched
 *    only by its receive handling, one command at a time (tconn.h), and
 *    freed by its teardown.
 *  - Revocation and forced re-authentication: a command notes the host id
 *    it claims (rdmablk_tconn_claim_host(), under rdmablk_tconns_lock;
 *    the first claim stands, another closes the connection) before it
 *    takes rdmablk_thosts_lock to look at that host's keys; HOST_DEL,
 *    and HOST_SET with HOST_REAUTH, change the keys under
 *    rdmablk_thosts_lock and then close the connections that claimed the
 *    host. So a command either sees the new keys or is closed. The two
 *    locks are never held together.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mutex.h>
#include <linux/random.h>
#include <linux/slab.h>

#include "tconn.h"

/**
 * struct rdmablk_thost - the keys of one host
 * @node: entry in rdmablk_thosts
 * @dump_id: its dump cursor (roles.h), from rdmablk_thosts_ids
 * @hostid: the host
 * @key: the secret the host proves itself with
 * @target_key: the secret the target proves itself to the host with, or
 *	none (@target_key.hmac 0)
 * @auth_ok: exchanges that succeeded
 * @auth_failed: exchanges refused
 */
struct rdmablk_thost {
	struct list_head node;
	unsigned long dump_id;
	u8 hostid[RDMABLK_UUID_SIZE];
	struct rdmablk_key key;
	struct rdmablk_key target_key;
	u64 auth_ok;
	u64 auth_failed;
};

static LIST_HEAD(rdmablk_thosts);
static unsigned int rdmablk_nr_thosts;
static DEFINE_MUTEX(rdmablk_thosts_lock);
/* Under rdmablk_thosts_lock: the last dump id given out. */
static unsigned long rdmablk_thosts_ids;

/*
 * The target's identity in the transcript: random, drawn at load. The
 * proofs bind it; a host need not know it beforehand.
 */
static u8 rdmablk_target_id[RDMABLK_UUID_SIZE];

static struct rdmablk_thost *rdmablk_thost_find(const u8 *hostid)
{
	struct rdmablk_thost *h;

	lockdep_assert_held(&rdmablk_thosts_lock);
	list_for_each_entry(h, &rdmablk_thosts, node)
		if (!memcmp(h->hostid, hostid, RDMABLK_UUID_SIZE))
			return h;
	return NULL;
}

static void rdmablk_thost_free(struct rdmablk_thost *h)
{
	rdmablk_key_wipe(&h->key);
	rdmablk_key_wipe(&h->target_key);
	kfree_sensitive(h);
}

/*
 * After the keys of @hostid changed under rdmablk_thosts_lock: close the
 * connections that claimed it. One that claims it later sees the new keys.
 */
static void rdmablk_thost_close(const u8 *hostid, const char *why)
{
	unsigned int n = rdmablk_tconn_close_host(hostid);

	if (n)
		pr_info("host %pUb: %s; closed its %u connection(s)\n", hostid, why, n);
}

/**
 * rdmablk_thost_set() - HOST_SET: a host's keys, for new connections
 * @req: the host and its keys
 * @extack: where a failure is explained
 *
 * Connections that authenticated with the former keys stay up, unless
 * @req->reauth: then every connection of the host is closed, and its
 * initiators authenticate again as they reconnect.
 *
 * Return: 0, -ENOSPC past RDMABLK_MAX_AUTH_HOSTS, or -ENOMEM.
 */
int rdmablk_thost_set(const struct rdmablk_host_req *req,
		      struct netlink_ext_ack *extack)
{
	struct rdmablk_thost *h, *new;

	new = kzalloc(sizeof(*new), GFP_KERNEL);
	if (!new)
		return -ENOMEM;
	mutex_lock(&rdmablk_thosts_lock);
	h = rdmablk_thost_find(req->hostid);
	if (h) {
		h->key = req->key;
		h->target_key = req->target_key;
		mutex_unlock(&rdmablk_thosts_lock);
		kfree(new);
		goto out;
	}
	if (rdmablk_nr_thosts >= RDMABLK_MAX_AUTH_HOSTS) {
		mutex_unlock(&rdmablk_thosts_lock);
		kfree(new);
		NL_SET_ERR_MSG(extack,
			       "the target holds keys for as many hosts as it can; remove one first");
		return -ENOSPC;
	}
	memcpy(new->hostid, req->hostid, sizeof(new->hostid));
	new->key = req->key;
	new->target_key = req->target_key;
	new->dump_id = ++rdmablk_thosts_ids;
	list_add_tail(&new->node, &rdmablk_thosts);
	rdmablk_nr_thosts++;
	mutex_unlock(&rdmablk_thosts_lock);
out:
	if (req->reauth)
		rdmablk_thost_close(req->hostid, "keys changed");
	return 0;
}

/**
 * rdmablk_thost_del() - HOST_DEL: forget a host's keys
 * @hostid: the host
 * @extack: where a failure is explained
 *
 * The host's connections are closed: a revoked key keeps nothing open.
 *
 * Return: 0, or -ENOENT.
 */
int rdmablk_thost_del(const u8 *hostid, struct netlink_ext_ack *extack)
{
	struct rdmablk_thost *h;

	mutex_lock(&rdmablk_thosts_lock);
	h = rdmablk_thost_find(hostid);
	if (h) {
		list_del(&h->node);
		rdmablk_nr_thosts--;
	}
	mutex_unlock(&rdmablk_thosts_lock);
	if (!h) {
		NL_SET_ERR_MSG(extack, "the target holds no keys for this host");
		return -ENOENT;
	}
	rdmablk_thost_free(h);
	rdmablk_thost_close(hostid, "keys removed");
	return 0;
}

/**
 * rdmablk_thost_get() - HOST_GET: the next host of a dump, without its
 *	secrets
 * @pos: the dump cursor (roles.h), set past the host
 * @info: result
 *
 * Return: 0, or -ENOENT past the last host.
 */
int rdmablk_thost_get(unsigned long *pos, struct rdmablk_host_info *info)
{
	struct rdmablk_thost *h;
	int ret = -ENOENT;

	mutex_lock(&rdmablk_thosts_lock);
	list_for_each_entry(h, &rdmablk_thosts, node) {
		if (h->dump_id < *pos)
			continue;
		*pos = h->dump_id + 1;
		memcpy(info->hostid, h->hostid, sizeof(info->hostid));
		info->hmac = h->key.hmac;
		info->target_hmac = h->target_key.hmac;
		info->auth_ok = h->auth_ok;
		info->auth_failed = h->auth_failed;
		ret = 0;
		break;
	}
	mutex_unlock(&rdmablk_thosts_lock);
	return ret;
}

/* Whether the target holds keys for @hostid. */
static bool rdmablk_thost_known(const u8 *hostid)
{
	bool known;

	mutex_lock(&rdmablk_thosts_lock);
	known = rdmablk_thost_find(hostid);
	mutex_unlock(&rdmablk_thosts_lock);
	return known;
}

static void rdmablk_thost_count(const u8 *hostid, bool ok)
{
	struct rdmablk_thost *h;

	mutex_lock(&rdmablk_thosts_lock);
	h = rdmablk_thost_find(hostid);
	if (h && ok)
		h->auth_ok++;
	else if (h)
		h->auth_failed++;
	mutex_unlock(&rdmablk_thosts_lock);
}

/*
 * The exchange of @conn was decided: log a refusal; and when a proof was
 * checked (@proof: a key was tried), count it against the host. A
 * malformed or out-of-order message tries no key: it is refused and
 * logged, not counted.
 *
 * Nothing is held against the source address: the target cannot verify
 * it (a local user of a host, or a spoofer, sends from that host's
 * address), so refusing an address after refused proofs would let anyone
 * keep an honest host from reconnecting. Nor is a key guessed online at
 * any rate: each is 256 random bits or more. As NVMe's DH-HMAC-CHAP.
 */
static void rdmablk_tauth_decided(struct rdmablk_tconn *conn, bool ok,
				  bool proof)
{
	struct rdmablk_auth *a = conn->auth;
	struct sockaddr *peer = (struct sockaddr *)&conn->cm_id->route.addr.dst_addr;

	if (proof)
		rdmablk_thost_count(a->hostid, ok);
	if (ok) {
		conn->auth_mode = a->flags & RDMABLK_AUTH_BIDIR ?
				  RDMABLK_AUTH_MODE_MUTUAL :
				  RDMABLK_AUTH_MODE_HOST;
		return;
	}
	pr_warn_ratelimited("authentication of host %pUb at %pISpc for '%s' refused: %s\n",
			    a->hostid, peer, a->name[0] ? a->name : "discovery",
			    a->why ?: "refused");
}

/* AUTH_CHALLENGE: answer with our nonce, whoever asks (no oracle). */
static u16 rdmablk_tauth_challenge(struct rdmablk_tconn *conn,
				   struct rdmablk_treq *req, const void *data,
				   u32 len)
{
	struct rdmablk_auth_chal_rsp *out = req->rsp + sizeof(struct rdmablk_rsp);
	bool discovery = conn->params.flags & RDMABLK_CONN_DISCOVERY;
	struct rdmablk_key *key, *target_key;
	struct rdmablk_auth *a = conn->auth;
	u8 nonce[RDMABLK_AUTH_NONCE_SIZE];
	struct rdmablk_thost *h;
	u16 status;

	status = rdmablk_auth_chal_req_decode(a, data, len);
	if (status != RDMABLK_S_OK)
		goto refused;
	/* An I/O connection names its export; a discovery session none. */
	if (!a->name[0] != discovery) {
		a->why = discovery ? "an export named on a discovery session" :
				     "no export named on an I/O connection";
		a->state = RDMABLK_AUTH_FAILED;
		status = RDMABLK_S_INVALID;
		goto refused;
	}

	/* Before the keys are copied: see rdmablk_tconn_claim_host(). */
	if (!rdmablk_tconn_claim_host(conn, a->hostid)) {
		a->why = "a second host id on one connection";
		a->state = RDMABLK_AUTH_FAILED;
		status = RDMABLK_S_AUTH_FAILED;
		goto refused;
	}
	key = kzalloc(2 * sizeof(*key), GFP_KERNEL);
	if (!key)
		return RDMABLK_S_IO_ERROR;
	target_key = key + 1;
	mutex_lock(&rdmablk_thosts_lock);
	h = rdmablk_thost_find(a->hostid);
	if (h) {
		*key = h->key;
		*target_key = h->target_key;
	}
	mutex_unlock(&rdmablk_thosts_lock);

	get_random_bytes(nonce, sizeof(nonce));
	status = rdmablk_auth_target_challenge(a, h ? key : NULL,
					       h ? target_key : NULL,
					       rdmablk_target_id, nonce, out);
	kfree_sensitive(key);
	if (status != RDMABLK_S_OK)
		goto refused;
	req->rsp_extra = sizeof(*out);
	return RDMABLK_S_OK;

refused:
	rdmablk_tauth_decided(conn, false, false);
	return status;
}

/**
 * rdmablk_tconn_auth() - AUTH_CHALLENGE or AUTH_REPLY on a connection
 * @conn: the connection
 * @req: the command; its response carries what follows a success
 * @recv: receive buffer holding the inline payload
 * @inline_len: its bytes
 *
 * Context: CQ work, one receive completion of @conn at a time.
 *
 * Return: the status to answer with.
 */
u16 rdmablk_tconn_auth(struct rdmablk_tconn *conn, struct rdmablk_treq *req,
		       struct rdmablk_trecv *recv, u32 inline_len)
{
	struct rdmablk_auth_reply_rsp *out = req->rsp + sizeof(struct rdmablk_rsp);
	const void *data = rdmablk_trecv_data(recv);
	bool proof;
	u16 status;

	/*
	 * Only where it was agreed, and only before the connection is in
	 * use: after OPEN, or after a discovery session listed, it is too
	 * late to say who one is.
	 */
	if (!(conn->params.flags & RDMABLK_CONN_AUTH) || conn->exp ||
	    conn->disc_used || conn->auth_mode != RDMABLK_AUTH_MODE_NONE ||
	    !(req->cmd.flags & RDMABLK_CMD_INLINE) ||
	    req->cmd.length != inline_len)
		return RDMABLK_S_INVALID;
	if (!conn->auth) {
		if (req->cmd.opcode != RDMABLK_OP_AUTH_CHALLENGE)
			return RDMABLK_S_AUTH_FAILED;
		conn->auth = kzalloc(sizeof(*conn->auth), GFP_KERNEL);
		if (!conn->auth)
			return RDMABLK_S_IO_ERROR;
	}
	if (req->cmd.opcode == RDMABLK_OP_AUTH_CHALLENGE)
		return rdmablk_tauth_challenge(conn, req, data, inline_len);

	proof = conn->auth->state == RDMABLK_AUTH_CHALLENGED &&
		inline_len == sizeof(struct rdmablk_auth_reply_req);
	status = rdmablk_auth_target_verify(conn->auth, data, inline_len, out);
	rdmablk_tauth_decided(conn, status == RDMABLK_S_OK, proof);
	if (status == RDMABLK_S_OK)
		req->rsp_extra = sizeof(*out);
	return status;
}

/**
 * rdmablk_tconn_auth_admit() - may this connection open or list as @hostid?
 * @conn: the connection
 * @hostid: the host id OPEN or DISC_* names
 * @name: the export OPEN names, "" for discovery
 * @auth_required: the export requires authentication
 *
 * Return: RDMABLK_S_OK, or RDMABLK_S_AUTH_REQUIRED.
 */
u16 rdmablk_tconn_auth_admit(struct rdmablk_tconn *conn, const u8 *hostid,
			     const char *name, bool auth_required)
{
	const struct rdmablk_auth *a = conn->auth;

	if (!rdmablk_tconn_claim_host(conn, hostid))
		return RDMABLK_S_AUTH_REQUIRED;
	if (conn->auth_mode != RDMABLK_AUTH_MODE_NONE)
		return !memcmp(a->hostid, hostid, RDMABLK_UUID_SIZE) &&
		       !strcmp(a->name, name) ?
		       RDMABLK_S_OK : RDMABLK_S_AUTH_REQUIRED;
	/* Began an exchange and did not finish it, or was refused. */
	if (a)
		return RDMABLK_S_AUTH_REQUIRED;
	if (auth_required || rdmablk_thost_known(hostid))
		return RDMABLK_S_AUTH_REQUIRED;
	return RDMABLK_S_OK;
}

/* Teardown: the exchange's secrets were wiped when it was decided. */
void rdmablk_tconn_auth_release(struct rdmablk_tconn *conn)
{
	if (conn->auth)
		rdmablk_auth_wipe(conn->auth);
	kfree_sensitive(conn->auth);
	conn->auth = NULL;
}

/* At load, before any listener. */
void rdmablk_tauth_init(void)
{
	get_random_bytes(rdmablk_target_id, sizeof(rdmablk_target_id));
}

/* At unload: every key wiped. */
void rdmablk_tauth_exit(void)
{
	struct rdmablk_thost *h, *tmp;

	mutex_lock(&rdmablk_thosts_lock);
	list_for_each_entry_safe(h, tmp, &rdmablk_thosts, node) {
		list_del(&h->node);
		rdmablk_thost_free(h);
	}
	rdmablk_nr_thosts = 0;
	mutex_unlock(&rdmablk_thosts_lock);
}
