// SPDX-License-Identifier: GPL-2.0
/*
 * GenlSocket against the running kernel. rdmablk.ko need not be loaded:
 * the tests talk to the generic netlink controller ("nlctrl"), which every
 * kernel has, to exercise the real send, receive and error paths.
 */
#include <gtest/gtest.h>

#include <cerrno>

#include <linux/genetlink.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>

#include "nl/error.hpp"
#include "nl/socket.hpp"

namespace rdmablk::nl {
namespace {

Msg ctrl_request(int flags)
{
	Msg msg = alloc_msg();
	EXPECT_NE(genlmsg_put(msg.get(), NL_AUTO_PORT, NL_AUTO_SEQ, GENL_ID_CTRL, 0,
			      NLM_F_REQUEST | flags, CTRL_CMD_GETFAMILY, 1),
		  nullptr);
	return msg;
}

std::uint16_t family_id_of(nl_msg &reply)
{
	nlattr *tb[CTRL_ATTR_MAX + 1];
	EXPECT_EQ(genlmsg_parse(nlmsg_hdr(&reply), 0, tb, CTRL_ATTR_MAX, nullptr), 0);
	return tb[CTRL_ATTR_FAMILY_ID] ? nla_get_u16(tb[CTRL_ATTR_FAMILY_ID]) : 0;
}

class GenlSocketTest : public testing::Test {
protected:
	void SetUp() override
	{
		try {
			sock_.emplace();
		} catch (const Error &e) {
			GTEST_SKIP() << "no generic netlink here: " << e.what();
		}
	}

	std::optional<GenlSocket> sock_;
};

TEST_F(GenlSocketTest, ResolvesAFamily)
{
	EXPECT_EQ(sock_->resolve_family("nlctrl"), GENL_ID_CTRL);
}

TEST_F(GenlSocketTest, MissingFamilyIsNotAnError)
{
	EXPECT_EQ(sock_->resolve_family("rdmablk-none"), std::nullopt);
}

TEST_F(GenlSocketTest, ResolvesGroups)
{
	EXPECT_TRUE(sock_->resolve_group("nlctrl", "notify").has_value());
	EXPECT_EQ(sock_->resolve_group("nlctrl", "no-such-group"), std::nullopt);
	EXPECT_EQ(sock_->resolve_group("rdmablk-none", "events"), std::nullopt);
}

TEST_F(GenlSocketTest, TransactReturnsTheReply)
{
	for (int round = 0; round < 2; round++) {
		const Msg req = ctrl_request(NLM_F_ACK);
		put_string(*req, CTRL_ATTR_FAMILY_NAME, "nlctrl");
		const std::vector<Msg> replies = sock_->transact(*req, "getting nlctrl");
		ASSERT_EQ(replies.size(), 1u);
		EXPECT_EQ(family_id_of(*replies.front()), GENL_ID_CTRL);
	}
}

TEST_F(GenlSocketTest, TransactRunsDumpsToTheEnd)
{
	const Msg req = ctrl_request(NLM_F_DUMP);
	const std::vector<Msg> replies = sock_->transact(*req, "listing families");
	ASSERT_FALSE(replies.empty());
	bool found = false;
	for (const Msg &reply : replies)
		found |= family_id_of(*reply) == GENL_ID_CTRL;
	EXPECT_TRUE(found);

	/* The socket is still in step for the next request. */
	EXPECT_EQ(sock_->resolve_family("nlctrl"), GENL_ID_CTRL);
}

TEST_F(GenlSocketTest, TransactRaisesTheKernelsErrno)
{
	const Msg req = ctrl_request(NLM_F_ACK);
	put_string(*req, CTRL_ATTR_FAMILY_NAME, "rdmablk-none");
	try {
		sock_->transact(*req, "getting a missing family");
		ADD_FAILURE() << "the kernel accepted it";
	} catch (const Error &e) {
		EXPECT_EQ(e.errnum(), ENOENT);
		EXPECT_EQ(e.context(), "getting a missing family");
	}
}

TEST_F(GenlSocketTest, TransactCarriesTheExtack)
{
	/* CTRL_ATTR_FAMILY_ID is a u16: one byte is too short for the kernel's policy. */
	const Msg req = ctrl_request(NLM_F_ACK);
	const std::uint8_t short_id = 1;
	put_attr(*req, CTRL_ATTR_FAMILY_ID, &short_id, sizeof(short_id));
	try {
		sock_->transact(*req, "sending a short attribute");
		ADD_FAILURE() << "the kernel accepted it";
	} catch (const Error &e) {
		EXPECT_EQ(e.errnum(), ERANGE);
		EXPECT_FALSE(e.extack().empty());
		EXPECT_EQ(std::string(e.what()),
			  "sending a short attribute: Numerical result out of range: " + e.extack());
	}
}

TEST_F(GenlSocketTest, SubscribedSocketNeverBlocks)
{
	const std::optional<int> group = sock_->resolve_group("nlctrl", "notify");
	ASSERT_TRUE(group.has_value());
	sock_->subscribe(*group, "subscribing to nlctrl");
	/* Nothing registers a family meanwhile: an empty read, at once. */
	EXPECT_TRUE(sock_->receive("receiving nlctrl notifications").empty());
}

} // namespace
} // namespace rdmablk::nl
