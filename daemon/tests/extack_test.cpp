// SPDX-License-Identifier: GPL-2.0
#include <gtest/gtest.h>

#include <cerrno>

#include <linux/rdmablk.h>

#include "fake_kernel.hpp"
#include "nl/extack.hpp"
#include "nl/requests.hpp"

namespace rdmablk::nl {
namespace {

const nlmsghdr &hdr(const Msg &msg)
{
	return *nlmsg_hdr(msg.get());
}

TEST(Extack, FromAnErrorEchoingTheWholeRequest)
{
	const Msg req = build_listen_add(test::family_id, {"192.0.2.1", 7471});
	const Msg err = test::error_reply(*req, EINVAL, "attribute PORT out of range", false);
	EXPECT_EQ(extack_message(hdr(err)), "attribute PORT out of range");
}

TEST(Extack, FromAnErrorEchoingTheRequestHeaderOnly)
{
	const Msg req = build_listen_add(test::family_id, {"192.0.2.1", 7471});
	const Msg err = test::error_reply(*req, EPERM, "not permitted here", true);
	EXPECT_EQ(extack_message(hdr(err)), "not permitted here");
}

TEST(Extack, CookieOfARefusal)
{
	const Msg req = build_get_info(test::family_id);
	const Uuid uuid = test::example_uuid();
	const Msg err = test::error_reply(*req, EEXIST, "attached already", false, uuid.bytes);
	EXPECT_EQ(extack_message(hdr(err)), "attached already");
	EXPECT_EQ(extack_cookie(hdr(err)),
		  std::vector<std::uint8_t>(uuid.bytes.begin(), uuid.bytes.end()));
}

TEST(Extack, NoCookieWhenNoneWasSent)
{
	const Msg req = build_get_info(test::family_id);
	const Msg err = test::error_reply(*req, EEXIST, "attached already", true);
	EXPECT_TRUE(extack_cookie(hdr(err)).empty());
}

TEST(Extack, AbsentWithoutTlvs)
{
	const Msg req = build_get_info(test::family_id);
	const Msg err = test::error_reply(*req, EPERM, "", false);
	EXPECT_EQ(extack_message(hdr(err)), "");
}

TEST(Extack, IgnoredWithoutTheAckTlvsFlag)
{
	const Msg req = build_get_info(test::family_id);
	const Msg err = test::error_reply(*req, EPERM, "hidden", true);
	nlmsg_hdr(err.get())->nlmsg_flags &= ~NLM_F_ACK_TLVS;
	EXPECT_EQ(extack_message(hdr(err)), "");
}

TEST(Extack, SurvivesAnEchoLongerThanTheMessage)
{
	const Msg req = build_get_info(test::family_id);
	const Msg err = test::error_reply(*req, EPERM, "text", false);
	/* The echoed header claims more than was echoed: no TLVs can be found. */
	auto *echoed = reinterpret_cast<nlmsghdr *>(
		static_cast<unsigned char *>(nlmsg_data(nlmsg_hdr(err.get()))) + sizeof(int));
	echoed->nlmsg_len = 0xffff;
	EXPECT_EQ(extack_message(hdr(err)), "");
}

TEST(Extack, FromAFailedDump)
{
	const Msg done = test::done_reply(-EMSGSIZE, "dump too large");
	EXPECT_EQ(done_status(hdr(done)), -EMSGSIZE);
	EXPECT_EQ(extack_message(hdr(done)), "dump too large");
}

TEST(Extack, SuccessfulDumpHasStatusZero)
{
	const Msg done = test::done_reply(0, "");
	EXPECT_EQ(done_status(hdr(done)), 0);
	EXPECT_EQ(extack_message(hdr(done)), "");
}

TEST(Extack, NoneOnOrdinaryMessages)
{
	const Msg msg = test::info_reply("0.1.0", 1, 0);
	nlmsg_hdr(msg.get())->nlmsg_flags |= NLM_F_ACK_TLVS;
	EXPECT_EQ(extack_message(hdr(msg)), "");
	EXPECT_EQ(done_status(hdr(msg)), 0);
}

} // namespace
} // namespace rdmablk::nl
