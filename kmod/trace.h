/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of rdmablk.ko, in the "rdmablk" trace system:
 *
 *   initiator: rdmablk_cmd_submit, rdmablk_cmd_complete (each command of a
 *              disk's queue), rdmablk_dev_state (every state change of a
 *              disk, with its cause), rdmablk_reconnect (each reconnect
 *              attempt and its result)
 *   target:    rdmablk_target_cmd, rdmablk_target_rsp (each command a
 *              connection received and the status it was answered with)
 *
 * A command carries the same tag and generation on both sides: the
 * initiator traces (qid, tag, gen), the target (qpn, tag, gen). A request's
 * generation starts at a random value and grows with each sending, so in a
 * trace window the pair, with its time, lines a command up across hosts.
 * None of them records data or anything secret.
 * docs/admin-guide.md shows how to use them.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM rdmablk

#if !defined(RDMABLK_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define RDMABLK_TRACE_H

#include <linux/tracepoint.h>

#include <linux/rdmablk.h>

#include "proto.h"

/*
 * The format files name these enums' values, so that perf and trace-cmd,
 * which cannot see the headers, decode the symbolic fields.
 */
TRACE_DEFINE_ENUM(RDMABLK_OP_OPEN);
TRACE_DEFINE_ENUM(RDMABLK_OP_READ);
TRACE_DEFINE_ENUM(RDMABLK_OP_WRITE);
TRACE_DEFINE_ENUM(RDMABLK_OP_FLUSH);
TRACE_DEFINE_ENUM(RDMABLK_OP_DISCARD);
TRACE_DEFINE_ENUM(RDMABLK_OP_WRITE_ZEROES);
TRACE_DEFINE_ENUM(RDMABLK_OP_KEEPALIVE);
TRACE_DEFINE_ENUM(RDMABLK_OP_DISC_LOG);
TRACE_DEFINE_ENUM(RDMABLK_OP_DISC_WAIT);
TRACE_DEFINE_ENUM(RDMABLK_OP_AUTH_CHALLENGE);
TRACE_DEFINE_ENUM(RDMABLK_OP_AUTH_REPLY);
TRACE_DEFINE_ENUM(RDMABLK_S_OK);
TRACE_DEFINE_ENUM(RDMABLK_S_INVALID);
TRACE_DEFINE_ENUM(RDMABLK_S_RANGE);
TRACE_DEFINE_ENUM(RDMABLK_S_READ_ONLY);
TRACE_DEFINE_ENUM(RDMABLK_S_IO_ERROR);
TRACE_DEFINE_ENUM(RDMABLK_S_NO_EXPORT);
TRACE_DEFINE_ENUM(RDMABLK_S_DENIED);
TRACE_DEFINE_ENUM(RDMABLK_S_NOT_OPEN);
TRACE_DEFINE_ENUM(RDMABLK_S_UNSUPPORTED);
TRACE_DEFINE_ENUM(RDMABLK_S_NO_SPACE);
TRACE_DEFINE_ENUM(RDMABLK_S_AUTH_FAILED);
TRACE_DEFINE_ENUM(RDMABLK_S_AUTH_REQUIRED);
TRACE_DEFINE_ENUM(RDMABLK_DEV_LIVE);
TRACE_DEFINE_ENUM(RDMABLK_DEV_DEAD);
TRACE_DEFINE_ENUM(RDMABLK_DEV_DELETING);
TRACE_DEFINE_ENUM(RDMABLK_DEV_RECONNECTING);

#define rdmablk_show_opcode(op)						\
	__print_symbolic(op,						\
			 { RDMABLK_OP_OPEN, "OPEN" },			\
			 { RDMABLK_OP_READ, "READ" },			\
			 { RDMABLK_OP_WRITE, "WRITE" },			\
			 { RDMABLK_OP_FLUSH, "FLUSH" },			\
			 { RDMABLK_OP_DISCARD, "DISCARD" },		\
			 { RDMABLK_OP_WRITE_ZEROES, "WRITE_ZEROES" },	\
			 { RDMABLK_OP_KEEPALIVE, "KEEPALIVE" },		\
			 { RDMABLK_OP_DISC_LOG, "DISC_LOG" },		\
			 { RDMABLK_OP_DISC_WAIT, "DISC_WAIT" },		\
			 { RDMABLK_OP_AUTH_CHALLENGE, "AUTH_CHALLENGE" }, \
			 { RDMABLK_OP_AUTH_REPLY, "AUTH_REPLY" })

#define rdmablk_show_status(status)					\
	__print_symbolic(status,					\
			 { RDMABLK_S_OK, "OK" },			\
			 { RDMABLK_S_INVALID, "INVALID" },		\
			 { RDMABLK_S_RANGE, "RANGE" },			\
			 { RDMABLK_S_READ_ONLY, "READ_ONLY" },		\
			 { RDMABLK_S_IO_ERROR, "IO_ERROR" },		\
			 { RDMABLK_S_NO_EXPORT, "NO_EXPORT" },		\
			 { RDMABLK_S_DENIED, "DENIED" },		\
			 { RDMABLK_S_NOT_OPEN, "NOT_OPEN" },		\
			 { RDMABLK_S_UNSUPPORTED, "UNSUPPORTED" },	\
			 { RDMABLK_S_NO_SPACE, "NO_SPACE" },		\
			 { RDMABLK_S_AUTH_FAILED, "AUTH_FAILED" },	\
			 { RDMABLK_S_AUTH_REQUIRED, "AUTH_REQUIRED" })

#define rdmablk_show_dev_state(state)					\
	__print_symbolic(state,						\
			 { 0, "new" },					\
			 { RDMABLK_DEV_LIVE, "live" },			\
			 { RDMABLK_DEV_DEAD, "dead" },			\
			 { RDMABLK_DEV_DELETING, "deleting" },		\
			 { RDMABLK_DEV_RECONNECTING, "reconnecting" })

TRACE_EVENT(rdmablk_cmd_submit,
	    TP_PROTO(const char *disk, u16 qid, const struct rdmablk_cmd_info *c),
	    TP_ARGS(disk, qid, c),
	    TP_STRUCT__entry(__string(disk, disk)
			     __field(u16, qid)
			     __field(u16, tag)
			     __field(u16, gen)
			     __field(u8, opcode)
			     __field(u8, flags)
			     __field(u32, length)
			     __field(u64, offset)),
	    TP_fast_assign(__assign_str(disk, disk);
			   __entry->qid = qid;
			   __entry->tag = c->tag;
			   __entry->gen = c->gen;
			   __entry->opcode = c->opcode;
			   __entry->flags = c->flags;
			   __entry->length = c->length;
			   __entry->offset = c->offset;),
	    TP_printk("%s qid=%u tag=%u gen=%u op=%s flags=0x%x offset=%llu length=%u",
		      __get_str(disk), __entry->qid, __entry->tag, __entry->gen,
		      rdmablk_show_opcode(__entry->opcode), __entry->flags,
		      __entry->offset, __entry->length)
);

/*
 * @requeue: the request is sent again after a reconnect rather than
 * completed; @latency_ns: from its start (struct rdmablk_ireq.start_ns)
 */
TRACE_EVENT(rdmablk_cmd_complete,
	    TP_PROTO(const char *disk, u16 qid, u16 tag, u16 gen, u16 status,
		     bool requeue, u64 latency_ns),
	    TP_ARGS(disk, qid, tag, gen, status, requeue, latency_ns),
	    TP_STRUCT__entry(__string(disk, disk)
			     __field(u16, qid)
			     __field(u16, tag)
			     __field(u16, gen)
			     __field(u16, status)
			     __field(bool, requeue)
			     __field(u64, latency_ns)),
	    TP_fast_assign(__assign_str(disk, disk);
			   __entry->qid = qid;
			   __entry->tag = tag;
			   __entry->gen = gen;
			   __entry->status = status;
			   __entry->requeue = requeue;
			   __entry->latency_ns = latency_ns;),
	    TP_printk("%s qid=%u tag=%u gen=%u status=%s%s latency_ns=%llu",
		      __get_str(disk), __entry->qid, __entry->tag, __entry->gen,
		      rdmablk_show_status(__entry->status),
		      __entry->requeue ? " requeued" : "",
		      __entry->latency_ns)
);

TRACE_EVENT(rdmablk_dev_state,
	    TP_PROTO(const char *disk, int path, u32 old, u32 new,
		     const char *why),
	    TP_ARGS(disk, path, old, new, why),
	    TP_STRUCT__entry(__string(disk, disk)
			     __field(int, path)
			     __field(u32, old)
			     __field(u32, new)
			     __string(why, why ?: "")),
	    TP_fast_assign(__assign_str(disk, disk);
			   __entry->path = path;
			   __entry->old = old;
			   __entry->new = new;
			   __assign_str(why, why ?: "");),
	    TP_printk("%s path=%d %s -> %s reason=%s", __get_str(disk),
		      __entry->path, rdmablk_show_dev_state(__entry->old),
		      rdmablk_show_dev_state(__entry->new), __get_str(why))
);

/* @max: attempts before giving up, 0 = unlimited; @result: 0 or -errno */
TRACE_EVENT(rdmablk_reconnect,
	    TP_PROTO(const char *disk, u32 path, u32 attempt, u32 max,
		     int result, const char *why),
	    TP_ARGS(disk, path, attempt, max, result, why),
	    TP_STRUCT__entry(__string(disk, disk)
			     __field(u32, path)
			     __field(u32, attempt)
			     __field(u32, max)
			     __field(int, result)
			     __string(why, why ?: "")),
	    TP_fast_assign(__assign_str(disk, disk);
			   __entry->path = path;
			   __entry->attempt = attempt;
			   __entry->max = max;
			   __entry->result = result;
			   __assign_str(why, why ?: "");),
	    TP_printk("%s path=%u attempt=%u max=%u result=%d reason=%s",
		      __get_str(disk), __entry->path, __entry->attempt, __entry->max,
		      __entry->result, __get_str(why))
);

TRACE_EVENT(rdmablk_target_cmd,
	    TP_PROTO(u32 qpn, const struct rdmablk_cmd_info *c),
	    TP_ARGS(qpn, c),
	    TP_STRUCT__entry(__field(u32, qpn)
			     __field(u16, tag)
			     __field(u16, gen)
			     __field(u8, opcode)
			     __field(u8, flags)
			     __field(u32, length)
			     __field(u64, offset)),
	    TP_fast_assign(__entry->qpn = qpn;
			   __entry->tag = c->tag;
			   __entry->gen = c->gen;
			   __entry->opcode = c->opcode;
			   __entry->flags = c->flags;
			   __entry->length = c->length;
			   __entry->offset = c->offset;),
	    TP_printk("qpn=%u tag=%u gen=%u op=%s flags=0x%x offset=%llu length=%u",
		      __entry->qpn, __entry->tag, __entry->gen,
		      rdmablk_show_opcode(__entry->opcode), __entry->flags,
		      __entry->offset, __entry->length)
);

TRACE_EVENT(rdmablk_target_rsp,
	    TP_PROTO(u32 qpn, const struct rdmablk_cmd_info *c, u16 status),
	    TP_ARGS(qpn, c, status),
	    TP_STRUCT__entry(__field(u32, qpn)
			     __field(u16, tag)
			     __field(u16, gen)
			     __field(u8, opcode)
			     __field(u16, status)),
	    TP_fast_assign(__entry->qpn = qpn;
			   __entry->tag = c->tag;
			   __entry->gen = c->gen;
			   __entry->opcode = c->opcode;
			   __entry->status = status;),
	    TP_printk("qpn=%u tag=%u gen=%u op=%s status=%s", __entry->qpn,
		      __entry->tag, __entry->gen,
		      rdmablk_show_opcode(__entry->opcode),
		      rdmablk_show_status(__entry->status))
);

#endif /* RDMABLK_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
