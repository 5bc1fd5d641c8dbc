// SPDX-License-Identifier: GPL-2.0
#include <gtest/gtest.h>

#include <netlink/genl/genl.h>

#include <linux/rdmablk.h>

#include "fake_kernel.hpp"
#include "nl/requests.hpp"

namespace rdmablk::nl {
namespace {

using test::attrs_of;
using test::family_id;
using test::RawAttr;

void expect_header(nl_msg &msg, std::uint8_t cmd, int flags)
{
	const nlmsghdr *nlh = nlmsg_hdr(&msg);
	EXPECT_EQ(nlh->nlmsg_type, family_id);
	EXPECT_EQ(nlh->nlmsg_flags, NLM_F_REQUEST | flags);
	/* Left for the socket to fill in. */
	EXPECT_EQ(nlh->nlmsg_seq, 0u);
	EXPECT_EQ(nlh->nlmsg_pid, 0u);

	ASSERT_TRUE(genlmsg_valid_hdr(const_cast<nlmsghdr *>(nlh), 0));
	const genlmsghdr *gnlh = genlmsg_hdr(const_cast<nlmsghdr *>(nlh));
	EXPECT_EQ(gnlh->cmd, cmd);
	EXPECT_EQ(gnlh->version, RDMABLK_GENL_VERSION);
}

TEST(Requests, GetInfoHasNoAttributes)
{
	const Msg msg = build_get_info(family_id);
	expect_header(*msg, RDMABLK_CMD_GET_INFO, NLM_F_ACK);
	EXPECT_TRUE(attrs_of(*msg).empty());
}

struct ListenCase {
	const char *name;
	Msg (*build)(int family, const Endpoint &endpoint);
	std::uint8_t cmd;
	Endpoint endpoint;
};

class ListenRequest : public testing::TestWithParam<ListenCase> {};

TEST_P(ListenRequest, CarriesAddrStringAndPortU16)
{
	const ListenCase &c = GetParam();
	const Msg msg = c.build(family_id, c.endpoint);
	expect_header(*msg, c.cmd, NLM_F_ACK);
	EXPECT_EQ(attrs_of(*msg), (std::vector<RawAttr>{
					  test::string_attr(RDMABLK_ATTR_ADDR, c.endpoint.addr),
					  test::u16_attr(RDMABLK_ATTR_PORT, c.endpoint.port),
				  }));
}

INSTANTIATE_TEST_SUITE_P(
	AddAndDel, ListenRequest,
	testing::Values(ListenCase{"add", build_listen_add, RDMABLK_CMD_LISTEN_ADD,
				   Endpoint{"192.0.2.1", 4791}},
			ListenCase{"del", build_listen_del, RDMABLK_CMD_LISTEN_DEL,
				   Endpoint{"fe80::1%eth0", RDMABLK_DEFAULT_PORT}}),
	[](const auto &p) { return std::string(p.param.name); });

TEST(Requests, ListenGetIsADump)
{
	const Msg msg = build_listen_get(family_id);
	expect_header(*msg, RDMABLK_CMD_LISTEN_GET, NLM_F_DUMP);
	EXPECT_TRUE(attrs_of(*msg).empty());
}

TEST(Requests, AttributesArePaddedToFourBytes)
{
	/* "1.2.3.4" + NUL is 8 bytes; a 7-byte string must still align the next attribute. */
	const Msg msg = build_listen_add(family_id, {"1.2.3.4", 1});
	const auto attrs = attrs_of(*msg);
	ASSERT_EQ(attrs.size(), 2u);
	EXPECT_EQ(attrs[1], test::u16_attr(RDMABLK_ATTR_PORT, 1));
	EXPECT_EQ(nlmsg_hdr(msg.get())->nlmsg_len % NLMSG_ALIGNTO, 0u);
}

} // namespace
} // namespace rdmablk::nl
