// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for nl_parse.c: each operation's strict policy accepts what
 * the operation takes and rejects everything else with an extack message,
 * and request decoding rejects what the policy cannot express.
 */
#include <kunit/test.h>
#include <net/net_namespace.h>
#include <net/netlink.h>

#include "rdmablk.h"

/* A request's attributes, built as the kernel would receive them. */
struct nl_req {
	struct sk_buff *skb;
	struct nlattr *tb[RDMABLK_ATTR_MAX + 1];
	struct netlink_ext_ack extack;
};

static void nl_req_init(struct kunit *test, struct nl_req *r)
{
	memset(r, 0, sizeof(*r));
	r->skb = nlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r->skb);
}

static void nl_req_free(struct nl_req *r)
{
	kfree_skb(r->skb);
}

/* Validate the attributes put so far against @policy, as genetlink does. */
static int nl_req_parse(struct nl_req *r, const struct nla_policy *policy)
{
	return nla_parse(r->tb, RDMABLK_ATTR_MAX, (struct nlattr *)r->skb->data,
			 r->skb->len, policy, &r->extack);
}

static void rdmablk_nl_info_rejects_any_attr(struct kunit *test)
{
	struct nl_req r;

	nl_req_init(test, &r);
	KUNIT_ASSERT_EQ(test, nl_req_parse(&r, rdmablk_nl_info_policy), 0);

	KUNIT_ASSERT_EQ(test, nla_put_string(r.skb, RDMABLK_ATTR_ADDR, "192.0.2.1"), 0);
	KUNIT_EXPECT_EQ(test, nl_req_parse(&r, rdmablk_nl_info_policy), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, r.extack._msg);
	KUNIT_EXPECT_NOT_NULL(test, r.extack.bad_attr);
	nl_req_free(&r);
}

static void rdmablk_nl_listen_accepts(struct kunit *test)
{
	struct rdmablk_listen_req req;
	struct nl_req r;

	nl_req_init(test, &r);
	KUNIT_ASSERT_EQ(test, nla_put_string(r.skb, RDMABLK_ATTR_ADDR, "192.0.2.1"), 0);
	KUNIT_ASSERT_EQ(test, nla_put_u16(r.skb, RDMABLK_ATTR_PORT, 4791), 0);
	KUNIT_ASSERT_EQ(test, nl_req_parse(&r, rdmablk_nl_listen_policy), 0);
	KUNIT_ASSERT_EQ(test, rdmablk_nl_parse_listen(&init_net, r.tb, &req, &r.extack), 0);
	KUNIT_EXPECT_EQ(test, req.addr.ss_family, AF_INET);
	KUNIT_EXPECT_EQ(test, rdmablk_addr_port(&req.addr), 4791);
	nl_req_free(&r);
}

static void rdmablk_nl_listen_default_port(struct kunit *test)
{
	struct rdmablk_listen_req req;
	struct nl_req r;

	nl_req_init(test, &r);
	KUNIT_ASSERT_EQ(test, nla_put_string(r.skb, RDMABLK_ATTR_ADDR, "2001:db8::7"), 0);
	KUNIT_ASSERT_EQ(test, nl_req_parse(&r, rdmablk_nl_listen_policy), 0);
	KUNIT_ASSERT_EQ(test, rdmablk_nl_parse_listen(&init_net, r.tb, &req, &r.extack), 0);
	KUNIT_EXPECT_EQ(test, req.addr.ss_family, AF_INET6);
	KUNIT_EXPECT_EQ(test, rdmablk_addr_port(&req.addr), RDMABLK_DEFAULT_PORT);
	nl_req_free(&r);
}

static void rdmablk_nl_listen_missing_addr(struct kunit *test)
{
	struct rdmablk_listen_req req;
	struct nl_req r;

	nl_req_init(test, &r);
	KUNIT_ASSERT_EQ(test, nla_put_u16(r.skb, RDMABLK_ATTR_PORT, 7471), 0);
	KUNIT_ASSERT_EQ(test, nl_req_parse(&r, rdmablk_nl_listen_policy), 0);
	KUNIT_EXPECT_EQ(test, rdmablk_nl_parse_listen(&init_net, r.tb, &req, &r.extack),
			-EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, r.extack._msg);
	KUNIT_EXPECT_EQ(test, r.extack.miss_type, (u32)RDMABLK_ATTR_ADDR);
	nl_req_free(&r);
}

static void rdmablk_nl_listen_bad_addr(struct kunit *test)
{
	struct rdmablk_listen_req req;
	struct nl_req r;

	nl_req_init(test, &r);
	KUNIT_ASSERT_EQ(test, nla_put_string(r.skb, RDMABLK_ATTR_ADDR, "target.example"), 0);
	KUNIT_ASSERT_EQ(test, nl_req_parse(&r, rdmablk_nl_listen_policy), 0);
	KUNIT_EXPECT_EQ(test, rdmablk_nl_parse_listen(&init_net, r.tb, &req, &r.extack),
			-EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, r.extack._msg);
	KUNIT_EXPECT_PTR_EQ(test, r.extack.bad_attr,
			    (const struct nlattr *)r.tb[RDMABLK_ATTR_ADDR]);
	nl_req_free(&r);
}

/* Attributes the policy itself must refuse, one per case. */
enum bad_kind { BAD_PORT_ZERO, BAD_PORT_U32, BAD_ADDR_LONG, BAD_ADDR_NO_NUL,
		BAD_FOREIGN_ATTR, BAD_ATTR_OVER_MAX };

struct bad_case {
	const char *name;
	enum bad_kind kind;
	int ret;	/* what validation returns */
};

static const struct bad_case bad_cases[] = {
	{ "port 0", BAD_PORT_ZERO, -ERANGE },
	{ "port as u32", BAD_PORT_U32, -EINVAL },
	{ "address too long", BAD_ADDR_LONG, -EINVAL },
	{ "address without NUL", BAD_ADDR_NO_NUL, -EINVAL },
	{ "attribute of another operation", BAD_FOREIGN_ATTR, -EINVAL },
	{ "attribute type over max", BAD_ATTR_OVER_MAX, -EINVAL },
};

static void bad_case_desc(const struct bad_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(bad, bad_cases, bad_case_desc);

static void rdmablk_nl_listen_policy_rejects(struct kunit *test)
{
	const struct bad_case *c = test->param_value;
	char longaddr[RDMABLK_ADDR_MAX_LEN + 1];
	struct nl_req r;
	int ret = 0;

	nl_req_init(test, &r);
	switch (c->kind) {
	case BAD_PORT_ZERO:
		ret = nla_put_u16(r.skb, RDMABLK_ATTR_PORT, 0);
		break;
	case BAD_PORT_U32:
		ret = nla_put_u32(r.skb, RDMABLK_ATTR_PORT, 7471);
		break;
	case BAD_ADDR_LONG:
		memset(longaddr, '1', sizeof(longaddr) - 1);
		longaddr[sizeof(longaddr) - 1] = '\0';
		ret = nla_put_string(r.skb, RDMABLK_ATTR_ADDR, longaddr);
		break;
	case BAD_ADDR_NO_NUL:
		ret = nla_put(r.skb, RDMABLK_ATTR_ADDR, 9, "192.0.2.1");
		break;
	case BAD_FOREIGN_ATTR:
		ret = nla_put_u32(r.skb, RDMABLK_ATTR_EVENT, 1);
		break;
	case BAD_ATTR_OVER_MAX:
		ret = nla_put_u32(r.skb, RDMABLK_ATTR_MAX + 1, 1);
		break;
	}
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, nl_req_parse(&r, rdmablk_nl_listen_policy), c->ret);
	KUNIT_EXPECT_NOT_NULL(test, r.extack._msg);
	nl_req_free(&r);
}

static const u8 test_uuid[RDMABLK_UUID_SIZE] = {
	0x6b, 0x1a, 0xd5, 0xc8, 0x3a, 0x3e, 0x4c, 0x1f,
	0x9d, 0x0a, 0x2f, 0x2f, 0x6c, 0x1d, 0x7e, 0x01,
};

static void put_export(struct kunit *test, struct nl_req *r, const char *name,
		       const char *path, const u8 *uuid)
{
	if (name)
		KUNIT_ASSERT_EQ(test, nla_put_string(r->skb, RDMABLK_ATTR_EXPORT_NAME, name), 0);
	if (path)
		KUNIT_ASSERT_EQ(test, nla_put_string(r->skb, RDMABLK_ATTR_EXPORT_PATH, path), 0);
	if (uuid)
		KUNIT_ASSERT_EQ(test, nla_put(r->skb, RDMABLK_ATTR_UUID, RDMABLK_UUID_SIZE,
					      uuid), 0);
}

/* Parse an EXPORT_ADD request; return what the policy or decoding said. */
static int export_add(struct kunit *test, struct nl_req *r,
		      struct rdmablk_export_req *req)
{
	int ret = nl_req_parse(r, rdmablk_nl_export_policy);

	if (ret)
		return ret;
	return rdmablk_nl_parse_export(r->tb, true, req, &r->extack);
}

static void rdmablk_nl_export_accepts(struct kunit *test)
{
	struct rdmablk_export_req *req = kunit_kzalloc(test, sizeof(*req), GFP_KERNEL);
	u8 other[RDMABLK_UUID_SIZE] = { 1 };
	struct nlattr *nest;
	struct nl_req r;

	KUNIT_ASSERT_NOT_NULL(test, req);
	nl_req_init(test, &r);
	put_export(test, &r, "db.prod-1", "/dev/ram0", test_uuid);
	KUNIT_ASSERT_EQ(test, nla_put_flag(r.skb, RDMABLK_ATTR_READ_ONLY), 0);
	nest = nla_nest_start(r.skb, RDMABLK_ATTR_ALLOWED_HOSTS);
	KUNIT_ASSERT_NOT_NULL(test, nest);
	KUNIT_ASSERT_EQ(test, nla_put(r.skb, RDMABLK_ATTR_HOSTID, RDMABLK_UUID_SIZE, test_uuid), 0);
	KUNIT_ASSERT_EQ(test, nla_put(r.skb, RDMABLK_ATTR_HOSTID, RDMABLK_UUID_SIZE, other), 0);
	nla_nest_end(r.skb, nest);
	KUNIT_ASSERT_EQ(test, export_add(test, &r, req), 0);
	KUNIT_EXPECT_STREQ(test, req->name, "db.prod-1");
	KUNIT_EXPECT_STREQ(test, req->path, "/dev/ram0");
	KUNIT_EXPECT_TRUE(test, req->read_only);
	KUNIT_EXPECT_EQ(test, memcmp(req->uuid, test_uuid, RDMABLK_UUID_SIZE), 0);
	KUNIT_EXPECT_EQ(test, req->nr_allowed, 2U);
	KUNIT_EXPECT_EQ(test, memcmp(req->allowed[1], other, RDMABLK_UUID_SIZE), 0);
	nl_req_free(&r);
}

struct export_bad {
	const char *name;
	const char *ename;
	const char *path;
	const u8 *uuid;
	int ret;
};

static const u8 nil_uuid[RDMABLK_UUID_SIZE];

static const struct export_bad export_bads[] = {
	{ "missing name", NULL, "/dev/ram0", test_uuid, -EINVAL },
	{ "name with a space", "a b", "/dev/ram0", test_uuid, -EINVAL },
	{ "name with a slash", "../x", "/dev/ram0", test_uuid, -EINVAL },
	{ "missing path", "x", NULL, test_uuid, -EINVAL },
	{ "relative path", "x", "ram0", test_uuid, -EINVAL },
	{ "missing uuid", "x", "/dev/ram0", NULL, -EINVAL },
	{ "nil uuid", "x", "/dev/ram0", nil_uuid, -EINVAL },
};

static void export_bad_desc(const struct export_bad *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(export_bad, export_bads, export_bad_desc);

static void rdmablk_nl_export_rejects(struct kunit *test)
{
	const struct export_bad *c = test->param_value;
	struct rdmablk_export_req *req = kunit_kzalloc(test, sizeof(*req), GFP_KERNEL);
	struct nl_req r;

	KUNIT_ASSERT_NOT_NULL(test, req);
	nl_req_init(test, &r);
	put_export(test, &r, c->ename, c->path, c->uuid);
	KUNIT_EXPECT_EQ(test, export_add(test, &r, req), c->ret);
	KUNIT_EXPECT_NOT_NULL(test, r.extack._msg);
	nl_req_free(&r);
}

static void rdmablk_nl_export_rejects_bad_allow_list(struct kunit *test)
{
	struct rdmablk_export_req *req = kunit_kzalloc(test, sizeof(*req), GFP_KERNEL);
	struct nlattr *nest;
	struct nl_req r;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, req);

	/* A short host id. */
	nl_req_init(test, &r);
	put_export(test, &r, "x", "/dev/ram0", test_uuid);
	nest = nla_nest_start(r.skb, RDMABLK_ATTR_ALLOWED_HOSTS);
	KUNIT_ASSERT_EQ(test, nla_put(r.skb, RDMABLK_ATTR_HOSTID, 3, test_uuid), 0);
	nla_nest_end(r.skb, nest);
	KUNIT_EXPECT_EQ(test, export_add(test, &r, req), -ERANGE);
	KUNIT_EXPECT_NOT_NULL(test, r.extack._msg);
	nl_req_free(&r);

	/* Something else than host ids. */
	nl_req_init(test, &r);
	put_export(test, &r, "x", "/dev/ram0", test_uuid);
	nest = nla_nest_start(r.skb, RDMABLK_ATTR_ALLOWED_HOSTS);
	KUNIT_ASSERT_EQ(test, nla_put_u16(r.skb, RDMABLK_ATTR_PORT, 1), 0);
	nla_nest_end(r.skb, nest);
	KUNIT_EXPECT_EQ(test, export_add(test, &r, req), -EINVAL);
	nl_req_free(&r);

	/* Too many. */
	nl_req_init(test, &r);
	nlmsg_free(r.skb);
	r.skb = nlmsg_new(8192, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r.skb);
	put_export(test, &r, "x", "/dev/ram0", test_uuid);
	nest = nla_nest_start(r.skb, RDMABLK_ATTR_ALLOWED_HOSTS);
	for (i = 0; i <= RDMABLK_MAX_ALLOWED_HOSTS; i++)
		KUNIT_ASSERT_EQ(test, nla_put(r.skb, RDMABLK_ATTR_HOSTID,
					      RDMABLK_UUID_SIZE, test_uuid), 0);
	nla_nest_end(r.skb, nest);
	KUNIT_EXPECT_EQ(test, export_add(test, &r, req), -E2BIG);
	KUNIT_EXPECT_NOT_NULL(test, r.extack._msg);
	nl_req_free(&r);
}

static int attach(struct nl_req *r, struct rdmablk_attach_req *req)
{
	int ret = nl_req_parse(r, rdmablk_nl_attach_policy);

	if (ret)
		return ret;
	return rdmablk_nl_parse_attach(&init_net, r->tb, req, &r->extack);
}

static void put_attach(struct kunit *test, struct nl_req *r, const char *addr)
{
	KUNIT_ASSERT_EQ(test, nla_put_string(r->skb, RDMABLK_ATTR_ADDR, addr), 0);
	KUNIT_ASSERT_EQ(test, nla_put_string(r->skb, RDMABLK_ATTR_EXPORT_NAME, "d0"), 0);
	KUNIT_ASSERT_EQ(test, nla_put(r->skb, RDMABLK_ATTR_HOSTID, RDMABLK_UUID_SIZE,
				      test_uuid), 0);
}

static void rdmablk_nl_attach_defaults(struct kunit *test)
{
	struct rdmablk_attach_req req;
	struct nl_req r;

	nl_req_init(test, &r);
	put_attach(test, &r, "192.0.2.1");
	KUNIT_ASSERT_EQ(test, attach(&r, &req), 0);
	KUNIT_EXPECT_EQ(test, rdmablk_addr_port(&req.addr), RDMABLK_DEFAULT_PORT);
	KUNIT_EXPECT_EQ(test, req.nr_queues, 0U);
	KUNIT_EXPECT_EQ(test, req.nr_poll_queues, 0U);
	KUNIT_EXPECT_EQ(test, req.queue_depth, (u32)RDMABLK_DEFAULT_QUEUE_DEPTH);
	KUNIT_EXPECT_EQ(test, req.tmo.reconnect_delay, (u32)RDMABLK_DEFAULT_RECONNECT_DELAY);
	KUNIT_EXPECT_EQ(test, req.tmo.ctrl_loss_tmo, RDMABLK_DEFAULT_CTRL_LOSS_TMO);
	KUNIT_EXPECT_EQ(test, req.tmo.fast_io_fail_tmo, RDMABLK_TMO_OFF);
	KUNIT_EXPECT_EQ(test, req.tmo.keepalive_tmo, (u32)RDMABLK_DEFAULT_KEEPALIVE_TMO);
	KUNIT_EXPECT_EQ(test, req.policy, (u32)RDMABLK_MP_QUEUE_DEPTH);
	nl_req_free(&r);

	nl_req_init(test, &r);
	put_attach(test, &r, "192.0.2.1");
	KUNIT_ASSERT_EQ(test, nla_put_u32(r.skb, RDMABLK_ATTR_MP_POLICY,
					  RDMABLK_MP_MIN_LATENCY), 0);
	KUNIT_ASSERT_EQ(test, attach(&r, &req), 0);
	KUNIT_EXPECT_EQ(test, req.policy, (u32)RDMABLK_MP_MIN_LATENCY);
	nl_req_free(&r);

	nl_req_init(test, &r);
	put_attach(test, &r, "192.0.2.1");
	KUNIT_ASSERT_EQ(test, nla_put_s32(r.skb, RDMABLK_ATTR_CTRL_LOSS_TMO, -1), 0);
	KUNIT_ASSERT_EQ(test, nla_put_s32(r.skb, RDMABLK_ATTR_FAST_IO_FAIL_TMO, 5), 0);
	KUNIT_ASSERT_EQ(test, nla_put_u32(r.skb, RDMABLK_ATTR_RECONNECT_DELAY, 86400), 0);
	KUNIT_ASSERT_EQ(test, attach(&r, &req), 0);
	KUNIT_EXPECT_EQ(test, req.tmo.ctrl_loss_tmo, -1);
	KUNIT_EXPECT_EQ(test, req.tmo.fast_io_fail_tmo, 5);
	KUNIT_EXPECT_EQ(test, req.tmo.reconnect_delay, 86400U);
	nl_req_free(&r);

	/* Poll queues besides the others, up to 64 in all. */
	nl_req_init(test, &r);
	put_attach(test, &r, "192.0.2.1");
	KUNIT_ASSERT_EQ(test, nla_put_u32(r.skb, RDMABLK_ATTR_NR_QUEUES, 60), 0);
	KUNIT_ASSERT_EQ(test, nla_put_u32(r.skb, RDMABLK_ATTR_NR_POLL_QUEUES, 4), 0);
	KUNIT_ASSERT_EQ(test, attach(&r, &req), 0);
	KUNIT_EXPECT_EQ(test, req.nr_queues, 60U);
	KUNIT_EXPECT_EQ(test, req.nr_poll_queues, 4U);
	nl_req_free(&r);

	nl_req_init(test, &r);
	put_attach(test, &r, "192.0.2.1");
	KUNIT_ASSERT_EQ(test, nla_put_u32(r.skb, RDMABLK_ATTR_NR_QUEUES, 60), 0);
	KUNIT_ASSERT_EQ(test, nla_put_u32(r.skb, RDMABLK_ATTR_NR_POLL_QUEUES, 5), 0);
	KUNIT_EXPECT_EQ(test, attach(&r, &req), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, r.extack._msg);
	KUNIT_EXPECT_PTR_EQ(test, r.extack.bad_attr,
			    (const struct nlattr *)r.tb[RDMABLK_ATTR_NR_POLL_QUEUES]);
	nl_req_free(&r);
}

struct attach_bad {
	const char *name;
	int attr;
	int kind;	/* 0: u32, 1: s32 */
	s64 value;
	int ret;
};

static const struct attach_bad attach_bads[] = {
	{ "0 queues", RDMABLK_ATTR_NR_QUEUES, 0, 0, -ERANGE },
	{ "65 queues", RDMABLK_ATTR_NR_QUEUES, 0, RDMABLK_MAX_QUEUES + 1, -ERANGE },
	{ "64 poll queues", RDMABLK_ATTR_NR_POLL_QUEUES, 0, RDMABLK_MAX_QUEUES, -ERANGE },
	{ "depth 0", RDMABLK_ATTR_QUEUE_DEPTH, 0, 0, -ERANGE },
	{ "depth 1025", RDMABLK_ATTR_QUEUE_DEPTH, 0, RDMABLK_MAX_QUEUE_DEPTH + 1, -ERANGE },
	{ "reconnect delay 0", RDMABLK_ATTR_RECONNECT_DELAY, 0, 0, -ERANGE },
	{ "ctrl loss -2", RDMABLK_ATTR_CTRL_LOSS_TMO, 1, -2, -ERANGE },
	{ "ctrl loss over a week", RDMABLK_ATTR_CTRL_LOSS_TMO, 1, RDMABLK_MAX_TMO + 1, -ERANGE },
	{ "fast io fail -5", RDMABLK_ATTR_FAST_IO_FAIL_TMO, 1, -5, -ERANGE },
	{ "keep-alive 0", RDMABLK_ATTR_KEEPALIVE_TMO, 0, 0, -ERANGE },
	{ "keep-alive 3601", RDMABLK_ATTR_KEEPALIVE_TMO, 0, 3601, -ERANGE },
	{ "policy 0", RDMABLK_ATTR_MP_POLICY, 0, 0, -ERANGE },
	{ "policy past the last", RDMABLK_ATTR_MP_POLICY, 0, __RDMABLK_MP_MAX, -ERANGE },
};

static void attach_bad_desc(const struct attach_bad *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(attach_bad, attach_bads, attach_bad_desc);

static void rdmablk_nl_attach_rejects(struct kunit *test)
{
	const struct attach_bad *c = test->param_value;
	struct rdmablk_attach_req req;
	struct nl_req r;

	nl_req_init(test, &r);
	put_attach(test, &r, "192.0.2.1");
	if (c->kind)
		KUNIT_ASSERT_EQ(test, nla_put_s32(r.skb, c->attr, c->value), 0);
	else
		KUNIT_ASSERT_EQ(test, nla_put_u32(r.skb, c->attr, c->value), 0);
	KUNIT_EXPECT_EQ(test, attach(&r, &req), c->ret);
	KUNIT_EXPECT_NOT_NULL(test, r.extack._msg);
	nl_req_free(&r);
}

static void rdmablk_nl_attach_rejects_wildcard(struct kunit *test)
{
	struct rdmablk_attach_req req;
	struct nl_req r;

	nl_req_init(test, &r);
	put_attach(test, &r, "::");
	KUNIT_EXPECT_EQ(test, attach(&r, &req), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, r.extack._msg);
	nl_req_free(&r);

	nl_req_init(test, &r);
	KUNIT_ASSERT_EQ(test, nla_put_string(r.skb, RDMABLK_ATTR_ADDR, "192.0.2.1"), 0);
	KUNIT_ASSERT_EQ(test, nla_put_string(r.skb, RDMABLK_ATTR_EXPORT_NAME, "d0"), 0);
	KUNIT_EXPECT_EQ(test, attach(&r, &req), -EINVAL);
	KUNIT_EXPECT_EQ(test, r.extack.miss_type, (u32)RDMABLK_ATTR_HOSTID);
	nl_req_free(&r);
}

static void rdmablk_nl_dev_set_checks(struct kunit *test)
{
	struct rdmablk_dev_set_req req;
	struct nl_req r;

	nl_req_init(test, &r);
	KUNIT_ASSERT_EQ(test, nla_put_u32(r.skb, RDMABLK_ATTR_DEV_INDEX, 3), 0);
	KUNIT_ASSERT_EQ(test, nl_req_parse(&r, rdmablk_nl_dev_set_policy), 0);
	KUNIT_EXPECT_EQ(test, rdmablk_nl_parse_dev_set(r.tb, &req, &r.extack), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, r.extack._msg);
	nl_req_free(&r);

	nl_req_init(test, &r);
	KUNIT_ASSERT_EQ(test, nla_put_u32(r.skb, RDMABLK_ATTR_DEV_INDEX, 3), 0);
	KUNIT_ASSERT_EQ(test, nla_put_s32(r.skb, RDMABLK_ATTR_FAST_IO_FAIL_TMO, 0), 0);
	KUNIT_ASSERT_EQ(test, nl_req_parse(&r, rdmablk_nl_dev_set_policy), 0);
	KUNIT_ASSERT_EQ(test, rdmablk_nl_parse_dev_set(r.tb, &req, &r.extack), 0);
	KUNIT_EXPECT_EQ(test, req.index, 3U);
	KUNIT_EXPECT_EQ(test, req.mask, (u32)RDMABLK_TMO_SET_FAST_IO_FAIL);
	KUNIT_EXPECT_EQ(test, req.tmo.fast_io_fail_tmo, 0);
	nl_req_free(&r);

	nl_req_init(test, &r);
	KUNIT_ASSERT_EQ(test, nla_put_u32(r.skb, RDMABLK_ATTR_DEV_INDEX, 3), 0);
	KUNIT_ASSERT_EQ(test, nla_put_u32(r.skb, RDMABLK_ATTR_MP_POLICY,
					  RDMABLK_MP_ROUND_ROBIN), 0);
	KUNIT_ASSERT_EQ(test, nl_req_parse(&r, rdmablk_nl_dev_set_policy), 0);
	KUNIT_ASSERT_EQ(test, rdmablk_nl_parse_dev_set(r.tb, &req, &r.extack), 0);
	KUNIT_EXPECT_EQ(test, req.mask, (u32)RDMABLK_DEV_SET_POLICY);
	KUNIT_EXPECT_EQ(test, req.policy, (u32)RDMABLK_MP_ROUND_ROBIN);
	nl_req_free(&r);

	/* An attribute DEV_SET does not take. */
	nl_req_init(test, &r);
	KUNIT_ASSERT_EQ(test, nla_put_u32(r.skb, RDMABLK_ATTR_DEV_INDEX, 3), 0);
	KUNIT_ASSERT_EQ(test, nla_put_u32(r.skb, RDMABLK_ATTR_QUEUE_DEPTH, 8), 0);
	KUNIT_EXPECT_EQ(test, nl_req_parse(&r, rdmablk_nl_dev_set_policy), -EINVAL);
	nl_req_free(&r);
}

static int path_req(struct nl_req *r, int cmd, struct rdmablk_path_req *req)
{
	int ret = nl_req_parse(r, rdmablk_nl_path_policy);

	if (ret)
		return ret;
	return rdmablk_nl_parse_path(&init_net, r->tb, cmd, req, &r->extack);
}

static void put_path(struct kunit *test, struct nl_req *r, const char *addr)
{
	KUNIT_ASSERT_EQ(test, nla_put_u32(r->skb, RDMABLK_ATTR_DEV_INDEX, 2), 0);
	KUNIT_ASSERT_EQ(test, nla_put_string(r->skb, RDMABLK_ATTR_ADDR, addr), 0);
}

/*
 * PATH_ADD, PATH_DEL, PATH_SET: a device and a unicast address; standby
 * optional but for PATH_SET, where it is the change, and refused by
 * PATH_DEL; only 0 or 1.
 */
static void rdmablk_nl_path_checks(struct kunit *test)
{
	struct rdmablk_path_req req;
	struct nl_req r;

	nl_req_init(test, &r);
	put_path(test, &r, "198.51.100.1");
	KUNIT_ASSERT_EQ(test, path_req(&r, RDMABLK_CMD_PATH_ADD, &req), 0);
	KUNIT_EXPECT_EQ(test, req.index, 2U);
	KUNIT_EXPECT_EQ(test, rdmablk_addr_port(&req.addr), RDMABLK_DEFAULT_PORT);
	KUNIT_EXPECT_FALSE(test, req.has_standby);
	nl_req_free(&r);

	nl_req_init(test, &r);
	put_path(test, &r, "198.51.100.1");
	KUNIT_ASSERT_EQ(test, nla_put_u16(r.skb, RDMABLK_ATTR_PORT, 4000), 0);
	KUNIT_ASSERT_EQ(test, nla_put_u8(r.skb, RDMABLK_ATTR_PATH_STANDBY, 1), 0);
	KUNIT_ASSERT_EQ(test, path_req(&r, RDMABLK_CMD_PATH_ADD, &req), 0);
	KUNIT_EXPECT_EQ(test, rdmablk_addr_port(&req.addr), 4000);
	KUNIT_EXPECT_TRUE(test, req.has_standby);
	KUNIT_EXPECT_TRUE(test, req.standby);
	nl_req_free(&r);

	nl_req_init(test, &r);
	put_path(test, &r, "198.51.100.1");
	KUNIT_ASSERT_EQ(test, nla_put_u8(r.skb, RDMABLK_ATTR_PATH_STANDBY, 1), 0);
	KUNIT_EXPECT_EQ(test, path_req(&r, RDMABLK_CMD_PATH_DEL, &req), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, r.extack._msg);
	nl_req_free(&r);

	nl_req_init(test, &r);
	put_path(test, &r, "198.51.100.1");
	KUNIT_EXPECT_EQ(test, path_req(&r, RDMABLK_CMD_PATH_SET, &req), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, r.extack._msg);
	nl_req_free(&r);

	nl_req_init(test, &r);
	put_path(test, &r, "198.51.100.1");
	KUNIT_ASSERT_EQ(test, nla_put_u8(r.skb, RDMABLK_ATTR_PATH_STANDBY, 2), 0);
	KUNIT_EXPECT_EQ(test, path_req(&r, RDMABLK_CMD_PATH_SET, &req), -ERANGE);
	nl_req_free(&r);

	nl_req_init(test, &r);
	put_path(test, &r, "0.0.0.0");
	KUNIT_EXPECT_EQ(test, path_req(&r, RDMABLK_CMD_PATH_ADD, &req), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, r.extack._msg);
	nl_req_free(&r);

	nl_req_init(test, &r);
	KUNIT_ASSERT_EQ(test, nla_put_string(r.skb, RDMABLK_ATTR_ADDR, "198.51.100.1"), 0);
	KUNIT_EXPECT_EQ(test, path_req(&r, RDMABLK_CMD_PATH_ADD, &req), -EINVAL);
	KUNIT_EXPECT_EQ(test, r.extack.miss_type, (u32)RDMABLK_ATTR_DEV_INDEX);
	nl_req_free(&r);

	/* An attribute the path commands do not take. */
	nl_req_init(test, &r);
	put_path(test, &r, "198.51.100.1");
	KUNIT_ASSERT_EQ(test, nla_put_u32(r.skb, RDMABLK_ATTR_QUEUE_DEPTH, 8), 0);
	KUNIT_EXPECT_EQ(test, nl_req_parse(&r, rdmablk_nl_path_policy), -EINVAL);
	nl_req_free(&r);
}

/* Secrets of each length a key may have; none is all zero. */
static u8 test_secret[RDMABLK_AUTH_MAC_MAX];

static void fill_secret(void)
{
	unsigned int i;

	for (i = 0; i < sizeof(test_secret); i++)
		test_secret[i] = 0xa0 + i;
}

/* ATTACH takes a key and a target key; the HMAC follows from the length. */
static void rdmablk_nl_attach_keys(struct kunit *test)
{
	struct rdmablk_attach_req req;
	struct nl_req r;

	fill_secret();
	nl_req_init(test, &r);
	put_attach(test, &r, "192.0.2.1");
	KUNIT_ASSERT_EQ(test, attach(&r, &req), 0);
	KUNIT_EXPECT_EQ(test, req.key.hmac, 0);
	KUNIT_EXPECT_EQ(test, req.target_key.hmac, 0);
	nl_req_free(&r);

	nl_req_init(test, &r);
	put_attach(test, &r, "192.0.2.1");
	KUNIT_ASSERT_EQ(test, nla_put(r.skb, RDMABLK_ATTR_AUTH_KEY, 32, test_secret), 0);
	KUNIT_ASSERT_EQ(test, nla_put(r.skb, RDMABLK_ATTR_AUTH_TARGET_KEY, 64,
				      test_secret), 0);
	KUNIT_ASSERT_EQ(test, attach(&r, &req), 0);
	KUNIT_EXPECT_EQ(test, req.key.hmac, RDMABLK_AUTH_HMAC_SHA256);
	KUNIT_EXPECT_EQ(test, req.key.len, 32);
	KUNIT_EXPECT_EQ(test, memcmp(req.key.secret, test_secret, 32), 0);
	KUNIT_EXPECT_EQ(test, req.target_key.hmac, RDMABLK_AUTH_HMAC_SHA512);
	KUNIT_EXPECT_EQ(test, req.target_key.len, 64);
	rdmablk_attach_req_wipe(&req);
	KUNIT_EXPECT_EQ(test, req.key.hmac, 0);
	KUNIT_EXPECT_TRUE(test, !memchr_inv(&req.key, 0, sizeof(req.key)));
	KUNIT_EXPECT_TRUE(test, !memchr_inv(&req.target_key, 0, sizeof(req.target_key)));
	nl_req_free(&r);

	/* DEV_SET: new keys alone are a change. */
	nl_req_init(test, &r);
	KUNIT_ASSERT_EQ(test, nla_put_u32(r.skb, RDMABLK_ATTR_DEV_INDEX, 3), 0);
	KUNIT_ASSERT_EQ(test, nla_put(r.skb, RDMABLK_ATTR_AUTH_KEY, 48, test_secret), 0);
	KUNIT_ASSERT_EQ(test, nl_req_parse(&r, rdmablk_nl_dev_set_policy), 0);
	{
		struct rdmablk_dev_set_req set;

		KUNIT_ASSERT_EQ(test, rdmablk_nl_parse_dev_set(r.tb, &set, &r.extack), 0);
		KUNIT_EXPECT_EQ(test, set.mask, (u32)RDMABLK_DEV_SET_KEYS);
		KUNIT_EXPECT_EQ(test, set.key.hmac, RDMABLK_AUTH_HMAC_SHA384);
		KUNIT_EXPECT_EQ(test, set.target_key.hmac, 0);
		rdmablk_dev_set_req_wipe(&set);
		KUNIT_EXPECT_TRUE(test, !memchr_inv(&set.key, 0, sizeof(set.key)));
	}
	nl_req_free(&r);

	/* DEV_SET: a target key too replaces the device's; alone it would not. */
	nl_req_init(test, &r);
	KUNIT_ASSERT_EQ(test, nla_put_u32(r.skb, RDMABLK_ATTR_DEV_INDEX, 3), 0);
	KUNIT_ASSERT_EQ(test, nla_put(r.skb, RDMABLK_ATTR_AUTH_KEY, 48, test_secret), 0);
	KUNIT_ASSERT_EQ(test, nla_put(r.skb, RDMABLK_ATTR_AUTH_TARGET_KEY, 32,
				      test_secret), 0);
	KUNIT_ASSERT_EQ(test, nl_req_parse(&r, rdmablk_nl_dev_set_policy), 0);
	{
		struct rdmablk_dev_set_req set;

		KUNIT_ASSERT_EQ(test, rdmablk_nl_parse_dev_set(r.tb, &set, &r.extack), 0);
		KUNIT_EXPECT_EQ(test, set.mask,
				(u32)(RDMABLK_DEV_SET_KEYS | RDMABLK_DEV_SET_TARGET_KEY));
		KUNIT_EXPECT_EQ(test, set.target_key.hmac, RDMABLK_AUTH_HMAC_SHA256);
		rdmablk_dev_set_req_wipe(&set);
		KUNIT_EXPECT_TRUE(test, !memchr_inv(&set.target_key, 0, sizeof(set.target_key)));
	}
	nl_req_free(&r);

	/* A target key alone: refused, the target proves itself only in reply. */
	nl_req_init(test, &r);
	put_attach(test, &r, "192.0.2.1");
	KUNIT_ASSERT_EQ(test, nla_put(r.skb, RDMABLK_ATTR_AUTH_TARGET_KEY, 32,
				      test_secret), 0);
	KUNIT_EXPECT_EQ(test, attach(&r, &req), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, r.extack._msg);
	nl_req_free(&r);
}

/* Keys of a length no HMAC has, or of zero bytes only, are refused. */
static void rdmablk_nl_key_rejects(struct kunit *test)
{
	static const u32 bad_len[] = { 1, 16, 31, 33, 40, 63, 65, 128 };
	static const u8 zero[RDMABLK_AUTH_MAC_MAX];
	struct rdmablk_attach_req req;
	u8 big[128] = { 1 };
	struct nl_req r;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad_len); i++) {
		memset(&req, 0, sizeof(req));
		nl_req_init(test, &r);
		put_attach(test, &r, "192.0.2.1");
		KUNIT_ASSERT_EQ(test, nla_put(r.skb, RDMABLK_ATTR_AUTH_KEY, bad_len[i], big), 0);
		/* -ERANGE from the policy, -EINVAL from decoding. */
		KUNIT_EXPECT_LT_MSG(test, attach(&r, &req), 0, "length %u", bad_len[i]);
		KUNIT_EXPECT_NOT_NULL_MSG(test, r.extack._msg, "length %u", bad_len[i]);
		KUNIT_EXPECT_EQ(test, req.key.hmac, 0);
		nl_req_free(&r);
	}
	nl_req_init(test, &r);
	put_attach(test, &r, "192.0.2.1");
	KUNIT_ASSERT_EQ(test, nla_put(r.skb, RDMABLK_ATTR_AUTH_KEY, 48, zero), 0);
	KUNIT_EXPECT_EQ(test, attach(&r, &req), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, r.extack.bad_attr);
	nl_req_free(&r);
}

static int host(struct nl_req *r, bool set, struct rdmablk_host_req *req)
{
	int ret = nl_req_parse(r, rdmablk_nl_host_policy);

	if (ret)
		return ret;
	return rdmablk_nl_parse_host(r->tb, set, req, &r->extack);
}

/* HOST_SET (@set) or HOST_DEL of test_uuid with flag attribute @flag. */
static int host_with_flag(struct kunit *test, struct nl_req *r, int flag, bool set,
			  struct rdmablk_host_req *req)
{
	nl_req_init(test, r);
	KUNIT_ASSERT_EQ(test, nla_put(r->skb, RDMABLK_ATTR_HOSTID, RDMABLK_UUID_SIZE,
				      test_uuid), 0);
	KUNIT_ASSERT_EQ(test, nla_put_flag(r->skb, flag), 0);
	return host(r, set, req);
}

static void rdmablk_nl_host_checks(struct kunit *test)
{
	struct rdmablk_host_req req;
	struct nl_req r;

	fill_secret();
	/* HOST_SET: a host id and a key, a target key optional. */
	nl_req_init(test, &r);
	KUNIT_ASSERT_EQ(test, nla_put(r.skb, RDMABLK_ATTR_HOSTID, RDMABLK_UUID_SIZE,
				      test_uuid), 0);
	KUNIT_ASSERT_EQ(test, nla_put(r.skb, RDMABLK_ATTR_AUTH_KEY, 48, test_secret), 0);
	KUNIT_ASSERT_EQ(test, host(&r, true, &req), 0);
	KUNIT_EXPECT_EQ(test, memcmp(req.hostid, test_uuid, RDMABLK_UUID_SIZE), 0);
	KUNIT_EXPECT_EQ(test, req.key.hmac, RDMABLK_AUTH_HMAC_SHA384);
	KUNIT_EXPECT_EQ(test, req.target_key.hmac, 0);
	KUNIT_EXPECT_FALSE(test, req.reauth);
	rdmablk_host_req_wipe(&req);
	/* ... HOST_REAUTH: the host's connections are closed too. */
	KUNIT_ASSERT_EQ(test, nla_put_flag(r.skb, RDMABLK_ATTR_HOST_REAUTH), 0);
	KUNIT_ASSERT_EQ(test, host(&r, true, &req), 0);
	KUNIT_EXPECT_TRUE(test, req.reauth);
	rdmablk_host_req_wipe(&req);
	nl_req_free(&r);

	/* ... without a key: refused. */
	nl_req_init(test, &r);
	KUNIT_ASSERT_EQ(test, nla_put(r.skb, RDMABLK_ATTR_HOSTID, RDMABLK_UUID_SIZE,
				      test_uuid), 0);
	KUNIT_EXPECT_EQ(test, host(&r, true, &req), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, r.extack._msg);
	nl_req_free(&r);

	/* ... without a host: refused. */
	nl_req_init(test, &r);
	KUNIT_ASSERT_EQ(test, nla_put(r.skb, RDMABLK_ATTR_AUTH_KEY, 32, test_secret), 0);
	KUNIT_EXPECT_EQ(test, host(&r, true, &req), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, r.extack._msg);
	nl_req_free(&r);

	/* HOST_DEL: a host id, and no key. */
	nl_req_init(test, &r);
	KUNIT_ASSERT_EQ(test, nla_put(r.skb, RDMABLK_ATTR_HOSTID, RDMABLK_UUID_SIZE,
				      test_uuid), 0);
	KUNIT_EXPECT_EQ(test, host(&r, false, &req), 0);
	KUNIT_ASSERT_EQ(test, nla_put(r.skb, RDMABLK_ATTR_AUTH_KEY, 32, test_secret), 0);
	KUNIT_EXPECT_EQ(test, host(&r, false, &req), -EINVAL);
	nl_req_free(&r);

	/* ... and no HOST_REAUTH: it always closes the host's connections. */
	KUNIT_EXPECT_EQ(test, host_with_flag(test, &r, RDMABLK_ATTR_HOST_REAUTH, false, &req),
			-EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, r.extack._msg);
	nl_req_free(&r);

	/* Another operation's attribute: the policy refuses it. */
	KUNIT_EXPECT_EQ(test, host_with_flag(test, &r, RDMABLK_ATTR_AUTH_REQUIRED, true, &req),
			-EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, r.extack.bad_attr);
	nl_req_free(&r);
}

/* EXPORT_ADD's AUTH_REQUIRED flag, and no key on an export. */
static void rdmablk_nl_export_auth_required(struct kunit *test)
{
	struct rdmablk_export_req *req;
	struct nl_req r;

	req = kunit_kzalloc(test, sizeof(*req), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, req);
	nl_req_init(test, &r);
	put_export(test, &r, "vol0", "/dev/ram0", test_uuid);
	KUNIT_ASSERT_EQ(test, nl_req_parse(&r, rdmablk_nl_export_policy), 0);
	KUNIT_ASSERT_EQ(test, rdmablk_nl_parse_export(r.tb, true, req, &r.extack), 0);
	KUNIT_EXPECT_FALSE(test, req->auth_required);
	KUNIT_ASSERT_EQ(test, nla_put_flag(r.skb, RDMABLK_ATTR_AUTH_REQUIRED), 0);
	KUNIT_ASSERT_EQ(test, nl_req_parse(&r, rdmablk_nl_export_policy), 0);
	KUNIT_ASSERT_EQ(test, rdmablk_nl_parse_export(r.tb, true, req, &r.extack), 0);
	KUNIT_EXPECT_TRUE(test, req->auth_required);
	KUNIT_ASSERT_EQ(test, nla_put(r.skb, RDMABLK_ATTR_AUTH_KEY, 32, test_uuid), 0);
	KUNIT_EXPECT_EQ(test, nl_req_parse(&r, rdmablk_nl_export_policy), -EINVAL);
	nl_req_free(&r);
}

static struct kunit_case rdmablk_nl_parse_test_cases[] = {
	KUNIT_CASE(rdmablk_nl_info_rejects_any_attr),
	KUNIT_CASE(rdmablk_nl_listen_accepts),
	KUNIT_CASE(rdmablk_nl_listen_default_port),
	KUNIT_CASE(rdmablk_nl_listen_missing_addr),
	KUNIT_CASE(rdmablk_nl_listen_bad_addr),
	KUNIT_CASE_PARAM(rdmablk_nl_listen_policy_rejects, bad_gen_params),
	KUNIT_CASE(rdmablk_nl_export_accepts),
	KUNIT_CASE_PARAM(rdmablk_nl_export_rejects, export_bad_gen_params),
	KUNIT_CASE(rdmablk_nl_export_rejects_bad_allow_list),
	KUNIT_CASE(rdmablk_nl_attach_defaults),
	KUNIT_CASE_PARAM(rdmablk_nl_attach_rejects, attach_bad_gen_params),
	KUNIT_CASE(rdmablk_nl_attach_rejects_wildcard),
	KUNIT_CASE(rdmablk_nl_dev_set_checks),
	KUNIT_CASE(rdmablk_nl_path_checks),
	KUNIT_CASE(rdmablk_nl_attach_keys),
	KUNIT_CASE(rdmablk_nl_key_rejects),
	KUNIT_CASE(rdmablk_nl_host_checks),
	KUNIT_CASE(rdmablk_nl_export_auth_required),
	{}
};

static struct kunit_suite rdmablk_nl_parse_test_suite = {
	.name = "rdmablk-nl-parse",
	.test_cases = rdmablk_nl_parse_test_cases,
};
kunit_test_suite(rdmablk_nl_parse_test_suite);
