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

static struct kunit_case rdmablk_nl_parse_test_cases[] = {
	KUNIT_CASE(rdmablk_nl_info_rejects_any_attr),
	KUNIT_CASE(rdmablk_nl_listen_accepts),
	KUNIT_CASE(rdmablk_nl_listen_default_port),
	KUNIT_CASE(rdmablk_nl_listen_missing_addr),
	KUNIT_CASE(rdmablk_nl_listen_bad_addr),
	KUNIT_CASE_PARAM(rdmablk_nl_listen_policy_rejects, bad_gen_params),
	{}
};

static struct kunit_suite rdmablk_nl_parse_test_suite = {
	.name = "rdmablk-nl-parse",
	.test_cases = rdmablk_nl_parse_test_cases,
};
kunit_test_suite(rdmablk_nl_parse_test_suite);
