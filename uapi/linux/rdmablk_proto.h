/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * rdmablk wire protocol, spoken between an initiator and a target over an
 * RDMA reliable connection (rdma_cm, RDMA_PS_TCP). All multi-byte fields are
 * little endian; every struct has a fixed size pinned by BUILD_BUG_ON in the
 * module; reserved fields are sent as zero and ignored on receipt.
 *
 * One connection carries one I/O queue. Sequence (docs/protocol.md):
 *
 *  1. rdma_connect() with struct rdmablk_conn_req as private data. The
 *     target accepts with struct rdmablk_conn_rep, or rejects with
 *     struct rdmablk_conn_rej saying why.
 *  2. The initiator sends RDMABLK_OP_OPEN whose inline payload is
 *     struct rdmablk_open_req (export name, host id); the response carries
 *     struct rdmablk_open_rsp (export UUID, size, block sizes, flags).
 *  3. I/O: a struct rdmablk_cmd by SEND, at most queue_depth outstanding,
 *     each with a distinct tag < queue_depth. Write payload is either inline
 *     (right after the command in the same SEND, at most inline_max bytes)
 *     or pulled by the target with RDMA READ from (addr, rkey); read payload
 *     is pushed by the target with RDMA WRITE to (addr, rkey). The target
 *     answers each command, echoing its tag and generation (gen), with a
 *     struct rdmablk_rsp by SEND, or by
 *     SEND_WITH_INV of the command's rkey when RDMABLK_CONN_REMOTE_INV was
 *     agreed, so the initiator need not invalidate its registration.
 *     When RDMABLK_CONN_READ_IMM was agreed, the target may answer a
 *     successful READ without a response: the last RDMA WRITE of its data
 *     carries immediate data (RDMABLK_IMM_*) naming the command, which
 *     consumes the receive the response would have, and the initiator
 *     invalidates its registration itself. The target chooses per READ
 *     (the initiator accepts either); a failed READ always gets a response.
 *     When RDMABLK_CONN_CMD_BATCH was agreed, one SEND may carry several
 *     commands without payload (RDMABLK_CMD_BATCH): each still takes its
 *     own credit and gets its own answer.
 *     When RDMABLK_CONN_RSP_BATCH was agreed, one SEND may carry the
 *     responses to several I/O commands (RDMABLK_RSP_BATCH), answers the
 *     target had ready together; it never waits for more to make one.
 *     When RDMABLK_CONN_WRITE_PUSH was agreed, a small WRITE's payload may
 *     come ahead of its command, by RDMA WRITE into a push slot of the
 *     target's (RDMABLK_CMD_PUSHED).
 *     When RDMABLK_CONN_READ_SEND was agreed, a small READ may ask for its
 *     data by SEND (RDMABLK_CMD_SEND_DATA): no registration, no key; a
 *     successful one is answered by a SEND_WITH_IMM whose payload is the
 *     data, into one of the initiator's receives.
 *     When RDMABLK_CONN_LONE was agreed, a READ or WRITE sent alone may say
 *     so (RDMABLK_CMD_LONE), and the target sends its answer at once.
 *  4. While connected, the initiator sends RDMABLK_OP_KEEPALIVE on every
 *     queue (each connection is reaped on its own, so each needs its own
 *     proof of life) every keepalive_ms / 2 unless a response arrived on
 *     that queue in that half interval, using the last of its credits,
 *     which it keeps for that; each side treats a peer silent for too long
 *     as gone.
 *  5. rdma_disconnect() by either side.
 *
 * A discovery session is a connection made with RDMABLK_CONN_DISCOVERY: it
 * opens no export and moves no data. Its commands are RDMABLK_OP_DISC_LOG
 * (which exports may this host see: the answer is struct rdmablk_disc_log
 * followed by up to RDMABLK_DISC_MAX_ENTRIES struct rdmablk_disc_entry, a
 * page of the list starting at the requested index), RDMABLK_OP_DISC_WAIT
 * (answered with a struct rdmablk_disc_log without entries once the
 * target's generation differs from the one the host knows; at most one
 * outstanding) and RDMABLK_OP_KEEPALIVE. Both DISC commands carry a
 * struct rdmablk_disc_req inline. The generation changes whenever an export
 * is added or removed; a host that reads the list in pages starts over
 * when the generation changed between pages.
 *
 * A malformed command gets an error response. A peer that breaks the rules
 * of the connection (more commands than queue_depth, a short command, an
 * RDMA access its keys do not allow) is disconnected. Tags and generations
 * are the initiator's business: the target echoes them without
 * interpretation. The initiator gives each sending of a command a new
 * generation and takes an answer only when it names the tag and the
 * generation of a command it sent: an answer the target made up, or one to
 * an earlier use of the tag, is a protocol violation.
 */
#ifndef _UAPI_LINUX_RDMABLK_PROTO_H
#define _UAPI_LINUX_RDMABLK_PROTO_H

#include <linux/types.h>

/* "RBLK" */
#define RDMABLK_PROTO_MAGIC		0x4b4c4252U
#define RDMABLK_PROTO_VERSION		1

#define RDMABLK_EXPORT_NAME_MAX		64	/* including the NUL */
#define RDMABLK_UUID_SIZE		16
#define RDMABLK_SECTOR_SHIFT		9

/* struct rdmablk_conn_req.flags and struct rdmablk_conn_rep.flags */
#define RDMABLK_CONN_REMOTE_INV		(1U << 0)	/* SEND_WITH_INV responses */
#define RDMABLK_CONN_DISCOVERY		(1U << 1)	/* discovery session, no I/O */
#define RDMABLK_CONN_READ_IMM		(1U << 2)	/* READ done by WRITE_WITH_IMM */
#define RDMABLK_CONN_AUTH		(1U << 3)	/* speaks RDMABLK_OP_AUTH_* */
#define RDMABLK_CONN_CMD_BATCH		(1U << 4)	/* several commands a SEND */
#define RDMABLK_CONN_RSP_BATCH		(1U << 5)	/* several responses a SEND */
#define RDMABLK_CONN_WRITE_PUSH		(1U << 6)	/* small WRITEs pushed */
#define RDMABLK_CONN_READ_SEND		(1U << 7)	/* small READs by SEND */
#define RDMABLK_CONN_LONE		(1U << 8)	/* commands marked lone */

/*
 * Write push (RDMABLK_CONN_WRITE_PUSH agreed): the OPEN response names an
 * area of push_slots slots of RDMABLK_PUSH_SLOT_SIZE bytes on the target
 * (struct rdmablk_open_rsp.push_*), registered for RDMA WRITE. For a WRITE
 * of at most one slot the initiator may, instead of sending the payload
 * inline or letting the target pull it, RDMA WRITE it into a slot it
 * holds and then send the command with RDMABLK_CMD_PUSHED and the slot's
 * index in @addr (@rkey zero). Such a command has no inline payload, so it
 * may share a SEND with others (RDMABLK_CMD_BATCH); the reliable
 * connection places the data before the SEND that follows it arrives.
 * There are at most queue_depth slots. A slot is the initiator's again
 * from the command's answer on; the target
 * answers only once it is done with the slot's bytes, and answers a
 * command naming a slot that an outstanding command already names with
 * RDMABLK_S_INVALID. A target that grants the flag may lower inline_max
 * (to RDMABLK_PUSH_INLINE_MAX) for the receives it no longer needs to size
 * for inline payloads of a slot.
 */
#define RDMABLK_PUSH_SLOT_SIZE		4096U
#define RDMABLK_PUSH_INLINE_MAX		1024U

/*
 * Read by SEND (RDMABLK_CONN_READ_SEND agreed): the initiator posts
 * receives of at least RDMABLK_READ_SEND_MAX bytes. A READ of at most that
 * many bytes may carry RDMABLK_CMD_SEND_DATA, with @addr and @rkey zero;
 * the target then answers it, when it succeeds, with one SEND_WITH_IMM
 * whose payload is exactly the data and whose immediate names the command
 * (RDMABLK_IMM_*), and when it fails with a response saying why. The
 * initiator copies the data out of its receive: the price of a copy of at
 * most one page for no memory registration and no invalidation at all.
 */
#define RDMABLK_READ_SEND_MAX		4096U

/*
 * Lone commands (RDMABLK_CONN_LONE agreed): a READ or a WRITE may carry
 * RDMABLK_CMD_LONE when the initiator sent it with no other command of
 * its path in flight, on a path whose recent commands went one at a time.
 * It is a hint that no other answer will be ready to go with this one, so
 * the target sends the answer at once, the RDMA device's deferred send
 * work included, instead of leaving that work to run later. The hint never
 * changes what the answer is. A target refuses the flag, with
 * RDMABLK_S_INVALID, on any other command and where it was not agreed.
 */

/*
 * Immediate data of the RDMA WRITE_WITH_IMM that completes a READ under
 * RDMABLK_CONN_READ_IMM, and of the SEND_WITH_IMM that carries a READ's
 * data under RDMABLK_CONN_READ_SEND: a 32-bit number carried in network
 * byte order like every immediate: the command's tag in the low 16 bits,
 * its generation in the high 16 bits.
 */
#define RDMABLK_IMM_TAG_MASK		0x0000ffffU
#define RDMABLK_IMM_GEN_SHIFT		16

/**
 * struct rdmablk_conn_req - connect private data, initiator to target
 * @magic: RDMABLK_PROTO_MAGIC
 * @version: RDMABLK_PROTO_VERSION
 * @queue_id: which queue of the attachment this connection serves
 * @queue_depth: commands the initiator wants outstanding at once
 * @flags: RDMABLK_CONN_* the initiator supports
 * @keepalive_ms: the initiator sends RDMABLK_OP_KEEPALIVE (or gets a
 *	response) at least this often on this connection, whichever queue it
 *	is; the target drops a connection that stays silent for twice as
 *	long. 0: no keep-alive. Fixed for the life of the connection.
 * @reserved: zero
 */
struct rdmablk_conn_req {
	__le32	magic;
	__le16	version;
	__le16	queue_id;
	__le16	queue_depth;
	__le16	reserved0;
	__le32	flags;
	__le32	keepalive_ms;
	__u8	reserved[12];
};

/**
 * struct rdmablk_conn_rep - accept private data, target to initiator
 * @magic: RDMABLK_PROTO_MAGIC
 * @version: version the target speaks on this connection
 * @queue_depth: granted, <= requested; the number of credits
 * @max_queues: how many queues the target accepts per attachment
 * @flags: RDMABLK_CONN_* both sides agreed on
 * @max_io_size: largest data transfer of one command, in bytes
 * @inline_max: largest write payload that may travel inline, in bytes
 * @reserved: zero
 */
struct rdmablk_conn_rep {
	__le32	magic;
	__le16	version;
	__le16	queue_depth;
	__le16	max_queues;
	__le16	reserved0;
	__le32	flags;
	__le32	max_io_size;
	__le32	inline_max;
	__u8	reserved[8];
};

enum rdmablk_rej_reason {
	RDMABLK_REJ_INVALID = 1,	/* malformed connect request */
	RDMABLK_REJ_VERSION,		/* protocol version not supported */
	RDMABLK_REJ_RESOURCES,		/* target out of resources */
	RDMABLK_REJ_QUEUE_DEPTH,	/* queue depth 0 */
};

/**
 * struct rdmablk_conn_rej - reject private data, target to initiator
 * @magic: RDMABLK_PROTO_MAGIC
 * @reason: enum rdmablk_rej_reason
 * @version: highest version the target speaks
 */
struct rdmablk_conn_rej {
	__le32	magic;
	__le16	reason;
	__le16	version;
};

enum rdmablk_opcode {
	RDMABLK_OP_OPEN = 1,
	RDMABLK_OP_READ,
	RDMABLK_OP_WRITE,
	RDMABLK_OP_FLUSH,
	RDMABLK_OP_DISCARD,
	RDMABLK_OP_WRITE_ZEROES,
	RDMABLK_OP_KEEPALIVE,		/* no payload; answered at once */
	RDMABLK_OP_DISC_LOG,		/* discovery: a page of the export list */
	RDMABLK_OP_DISC_WAIT,		/* discovery: answered on a change */
	RDMABLK_OP_AUTH_CHALLENGE,	/* authentication: nonces exchanged */
	RDMABLK_OP_AUTH_REPLY,		/* authentication: proofs exchanged */
};

/* struct rdmablk_cmd.flags */
#define RDMABLK_CMD_FUA		(1U << 0)	/* WRITE: durable on completion */
#define RDMABLK_CMD_INLINE	(1U << 1)	/* payload follows the command */
#define RDMABLK_CMD_NOUNMAP	(1U << 2)	/* WRITE_ZEROES: keep allocated */
#define RDMABLK_CMD_PUSHED	(1U << 4)	/* WRITE: payload in push slot @addr */
#define RDMABLK_CMD_SEND_DATA	(1U << 5)	/* READ: data by SEND_WITH_IMM */
#define RDMABLK_CMD_LONE	(1U << 6)	/* READ, WRITE: sent alone */
#define RDMABLK_CMD_FLAGS_ALL	(RDMABLK_CMD_FUA | RDMABLK_CMD_INLINE | \
				 RDMABLK_CMD_NOUNMAP | RDMABLK_CMD_PUSHED | \
				 RDMABLK_CMD_SEND_DATA | RDMABLK_CMD_LONE)
/*
 * One of the commands of a batched SEND (RDMABLK_CONN_CMD_BATCH agreed): a
 * SEND whose first command carries this flag holds 2 to
 * RDMABLK_CMD_BATCH_MAX whole commands back to back and nothing else; every
 * one of them carries the flag, none carries RDMABLK_CMD_INLINE, and each
 * is a command of its own (its own credit, tag, generation and answer).
 * A target that grants RDMABLK_CONN_CMD_BATCH posts receives that hold
 * RDMABLK_CMD_BATCH_MAX commands (1 KiB), whatever its inline_max.
 * The flag is about framing only: it is not one of RDMABLK_CMD_FLAGS_ALL.
 */
#define RDMABLK_CMD_BATCH	(1U << 3)
#define RDMABLK_CMD_BATCH_MAX	16

/**
 * struct rdmablk_cmd - a command, initiator to target, by SEND
 * @opcode: enum rdmablk_opcode
 * @flags: RDMABLK_CMD_*
 * @tag: echoed in the response; < queue_depth and not outstanding
 * @length: bytes to transfer (READ, WRITE), or to discard / zero
 * @offset: byte offset into the export; a multiple of its logical block size
 * @addr: initiator buffer for READ and non-inline WRITE; with
 *	RDMABLK_CMD_PUSHED the index of the push slot holding the payload;
 *	zero with RDMABLK_CMD_SEND_DATA
 * @rkey: remote key of @addr; zero with RDMABLK_CMD_PUSHED and
 *	RDMABLK_CMD_SEND_DATA
 * @gen: generation: the initiator's number for this sending of the command,
 *	echoed in the answer
 * @reserved0: zero
 * @reserved: zero
 */
struct rdmablk_cmd {
	__u8	opcode;
	__u8	flags;
	__le16	tag;
	__le32	length;
	__le64	offset;
	__le64	addr;
	__le32	rkey;
	__le16	gen;
	__le16	reserved0;
	__u8	reserved[32];
};

/**
 * struct rdmablk_open_req - inline payload of RDMABLK_OP_OPEN
 * @name: export name, NUL-terminated, NUL-padded
 * @hostid: the initiator host's identity
 * @reserved: zero
 */
struct rdmablk_open_req {
	char	name[RDMABLK_EXPORT_NAME_MAX];
	__u8	hostid[RDMABLK_UUID_SIZE];
	__u8	reserved[16];
};

enum rdmablk_status {
	RDMABLK_S_OK = 0,
	RDMABLK_S_INVALID,		/* malformed command */
	RDMABLK_S_RANGE,		/* beyond the end of the export */
	RDMABLK_S_READ_ONLY,		/* write to a read-only export */
	RDMABLK_S_IO_ERROR,		/* the backing device failed */
	RDMABLK_S_NO_EXPORT,		/* OPEN: no export of that name */
	RDMABLK_S_DENIED,		/* OPEN: host not allowed */
	RDMABLK_S_NOT_OPEN,		/* I/O before a successful OPEN */
	RDMABLK_S_UNSUPPORTED,		/* operation not supported by the export */
	RDMABLK_S_NO_SPACE,		/* backing device out of space */
	RDMABLK_S_AUTH_FAILED,		/* AUTH_*: refused, for whatever reason */
	RDMABLK_S_AUTH_REQUIRED,	/* OPEN, DISC_*: authenticate first */
};

/**
 * struct rdmablk_rsp - a response, target to initiator, by SEND
 * @opcode: the command's opcode
 * @flags: RDMABLK_RSP_*
 * @tag: the command's tag
 * @status: enum rdmablk_status
 * @gen: the command's generation
 * @reserved: zero
 */
struct rdmablk_rsp {
	__u8	opcode;
	__u8	flags;
	__le16	tag;
	__le16	status;
	__le16	gen;
	__u8	reserved[8];
};

/*
 * struct rdmablk_rsp.flags: one of the responses of a batched SEND
 * (RDMABLK_CONN_RSP_BATCH agreed). A SEND whose first response carries
 * this flag holds 2 to RDMABLK_RSP_BATCH_MAX whole struct rdmablk_rsp back
 * to back and nothing else; every one carries the flag, answers an I/O
 * command (READ, WRITE, FLUSH, WRITE_ZEROES, DISCARD) and is the answer
 * to that command alone, as if it had come in a SEND of its own. A batched
 * SEND is a plain SEND, never SEND_WITH_INV: the initiator invalidates the
 * registrations of its commands itself. An initiator that offers
 * RDMABLK_CONN_RSP_BATCH posts receives that hold RDMABLK_RSP_BATCH_MAX
 * responses (256 bytes).
 */
#define RDMABLK_RSP_BATCH	(1U << 0)
#define RDMABLK_RSP_BATCH_MAX	16

/* struct rdmablk_open_rsp.flags */
#define RDMABLK_EXP_READ_ONLY		(1U << 0)
#define RDMABLK_EXP_FLUSH		(1U << 1)	/* volatile write cache */
#define RDMABLK_EXP_FUA			(1U << 2)
#define RDMABLK_EXP_DISCARD		(1U << 3)
#define RDMABLK_EXP_WRITE_ZEROES	(1U << 4)
#define RDMABLK_EXP_ROTATIONAL		(1U << 5)

/**
 * struct rdmablk_open_rsp - follows struct rdmablk_rsp in an OPEN response
 * @uuid: the export's UUID
 * @size: capacity in bytes
 * @logical_block_size: bytes
 * @physical_block_size: bytes
 * @flags: RDMABLK_EXP_*
 * @max_discard_sectors: largest DISCARD / WRITE_ZEROES, in 512-byte sectors
 * @discard_granularity: bytes
 * @push_rkey: remote key of the push area (RDMABLK_CONN_WRITE_PUSH)
 * @push_addr: address of its first slot
 * @push_slots: slots of RDMABLK_PUSH_SLOT_SIZE bytes, back to back from
 *	@push_addr; 0: no push area on this connection (and @push_* zero)
 * @reserved: zero
 */
struct rdmablk_open_rsp {
	__u8	uuid[RDMABLK_UUID_SIZE];
	__le64	size;
	__le32	logical_block_size;
	__le32	physical_block_size;
	__le32	flags;
	__le32	max_discard_sectors;
	__le32	discard_granularity;
	__le32	push_rkey;
	__le64	push_addr;
	__le16	push_slots;
	__u8	reserved[6];
};

/**
 * struct rdmablk_disc_req - inline payload of RDMABLK_OP_DISC_LOG and
 *	RDMABLK_OP_DISC_WAIT
 * @hostid: the asking host's identity: only exports that allow it are listed
 * @generation: DISC_WAIT: the generation the host has seen; DISC_LOG: zero
 * @start: DISC_LOG: index of the first entry wanted; DISC_WAIT: zero
 * @reserved: zero
 */
struct rdmablk_disc_req {
	__u8	hostid[RDMABLK_UUID_SIZE];
	__le64	generation;
	__le32	start;
	__le32	reserved;
};

/**
 * struct rdmablk_disc_log - follows struct rdmablk_rsp in a DISC response
 * @generation: the target's export list generation
 * @total: exports visible to the host
 * @count: struct rdmablk_disc_entry that follow (0 for DISC_WAIT)
 * @reserved: zero
 */
struct rdmablk_disc_log {
	__le64	generation;
	__le32	total;
	__le32	count;
	__u8	reserved[16];
};

/**
 * struct rdmablk_disc_entry - one export in a discovery log
 * @name: export name, NUL-terminated, NUL-padded
 * @uuid: the export's UUID
 * @size: capacity in bytes
 * @logical_block_size: bytes
 * @physical_block_size: bytes
 * @flags: RDMABLK_EXP_*
 * @reserved: zero
 */
struct rdmablk_disc_entry {
	char	name[RDMABLK_EXPORT_NAME_MAX];
	__u8	uuid[RDMABLK_UUID_SIZE];
	__le64	size;
	__le32	logical_block_size;
	__le32	physical_block_size;
	__le32	flags;
	__u8	reserved[28];
};

/* Entries in one DISC_LOG response, and the receive buffer it needs. */
#define RDMABLK_DISC_MAX_ENTRIES	30
#define RDMABLK_DISC_RSP_SIZE	(sizeof(struct rdmablk_rsp) + \
				 sizeof(struct rdmablk_disc_log) + \
				 RDMABLK_DISC_MAX_ENTRIES * \
				 sizeof(struct rdmablk_disc_entry))
/* Commands a discovery session may have outstanding. */
#define RDMABLK_DISC_QUEUE_DEPTH	4

/*
 * Authentication (docs/protocol.md, "Authentication"): on a connection made
 * with RDMABLK_CONN_AUTH agreed, before OPEN or DISC_LOG, the initiator
 * sends RDMABLK_OP_AUTH_CHALLENGE with struct rdmablk_auth_chal_req inline
 * (who it is, which export, its nonce); the response carries struct
 * rdmablk_auth_chal_rsp (who the target is, its nonce). The initiator then
 * sends RDMABLK_OP_AUTH_REPLY with struct rdmablk_auth_reply_req inline:
 * its proof, an HMAC with its secret over both nonces, both identities and
 * the export name. The target answers RDMABLK_S_OK, followed by struct
 * rdmablk_auth_reply_rsp with its own proof when RDMABLK_AUTH_BIDIR was
 * asked for, or RDMABLK_S_AUTH_FAILED whatever went wrong.
 */
enum rdmablk_auth_hmac {
	RDMABLK_AUTH_HMAC_SHA256 = 1,	/* 32-byte secret and proof */
	RDMABLK_AUTH_HMAC_SHA384,	/* 48 */
	RDMABLK_AUTH_HMAC_SHA512,	/* 64 */
};

#define RDMABLK_AUTH_NONCE_SIZE		32
#define RDMABLK_AUTH_MAC_MAX		64

/* struct rdmablk_auth_chal_req.flags */
#define RDMABLK_AUTH_BIDIR		(1U << 0)	/* the target proves itself */

/**
 * struct rdmablk_auth_chal_req - inline payload of RDMABLK_OP_AUTH_CHALLENGE
 * @name: the export OPEN will name, NUL-terminated, NUL-padded; empty on
 *	a discovery session
 * @hostid: the initiator host's identity, as OPEN or DISC_* will name it
 * @hmac: enum rdmablk_auth_hmac, that of the host's secret
 * @flags: RDMABLK_AUTH_*
 * @reserved0: zero
 * @nonce: fresh random bytes, never used twice
 */
struct rdmablk_auth_chal_req {
	char	name[RDMABLK_EXPORT_NAME_MAX];
	__u8	hostid[RDMABLK_UUID_SIZE];
	__u8	hmac;
	__u8	flags;
	__u8	reserved0[14];
	__u8	nonce[RDMABLK_AUTH_NONCE_SIZE];
};

/**
 * struct rdmablk_auth_chal_rsp - follows struct rdmablk_rsp in the
 *	response to AUTH_CHALLENGE
 * @targetid: the target host's identity
 * @hmac: the challenge's, echoed
 * @flags: the challenge's, echoed
 * @reserved0: zero
 * @nonce: fresh random bytes, never used twice
 */
struct rdmablk_auth_chal_rsp {
	__u8	targetid[RDMABLK_UUID_SIZE];
	__u8	hmac;
	__u8	flags;
	__u8	reserved0[14];
	__u8	nonce[RDMABLK_AUTH_NONCE_SIZE];
};

/**
 * struct rdmablk_auth_reply_req - inline payload of RDMABLK_OP_AUTH_REPLY
 * @mac: the host's proof, as long as its HMAC's digest, zero-padded
 */
struct rdmablk_auth_reply_req {
	__u8	mac[RDMABLK_AUTH_MAC_MAX];
};

/**
 * struct rdmablk_auth_reply_rsp - follows struct rdmablk_rsp in a successful
 *	response to AUTH_REPLY
 * @mac: with RDMABLK_AUTH_BIDIR, the target's proof, as long as the HMAC's
 *	digest, zero-padded; zero otherwise
 */
struct rdmablk_auth_reply_rsp {
	__u8	mac[RDMABLK_AUTH_MAC_MAX];
};

/* What the initiator posts receive buffers for. */
#define RDMABLK_RSP_BUF_SIZE	(sizeof(struct rdmablk_rsp) + \
				 sizeof(struct rdmablk_open_rsp))
#define RDMABLK_RSP_BATCH_SIZE	(RDMABLK_RSP_BATCH_MAX * \
				 sizeof(struct rdmablk_rsp))

#endif /* _UAPI_LINUX_RDMABLK_PROTO_H */
