// SPDX-License-Identifier: GPL-2.0
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cerrno>

#include <netlink/genl/genl.h>

#include <linux/rdmablk.h>

#include "fake_kernel.hpp"
#include "nl/client.hpp"
#include "nl/error.hpp"

namespace rdmablk::nl {
namespace {

using test::attrs_of;
using test::FakeKernel;

std::uint8_t cmd_of(nl_msg &msg)
{
	return genlmsg_hdr(nlmsg_hdr(&msg))->cmd;
}

std::vector<Msg> replies(Msg first)
{
	std::vector<Msg> v;
	v.push_back(std::move(first));
	return v;
}

Client client_on(FakeKernel::Handler handler)
{
	return Client(std::make_unique<FakeKernel>(std::move(handler)), test::family_id);
}

TEST(Client, GetInfoParsesTheReply)
{
	Client client = client_on([](nl_msg &req, std::string_view what) {
		EXPECT_EQ(cmd_of(req), RDMABLK_CMD_GET_INFO);
		EXPECT_EQ(nlmsg_hdr(&req)->nlmsg_type, test::family_id);
		EXPECT_EQ(what, "getting module info");
		return replies(test::info_reply("1.2.3", 1, RDMABLK_FEAT_LISTEN));
	});
	EXPECT_EQ(client.get_info(), (Info{"1.2.3", RDMABLK_GENL_VERSION, 1, RDMABLK_FEAT_LISTEN}));
}

TEST(Client, GetInfoWantsExactlyOneReply)
{
	Client client = client_on([](nl_msg &, std::string_view) { return std::vector<Msg>{}; });
	try {
		client.get_info();
		ADD_FAILURE() << "no reply accepted";
	} catch (const MalformedMessage &e) {
		EXPECT_STREQ(e.what(), "malformed GET_INFO reply: expected 1 message, got 0");
	}
}

TEST(Client, ListenAddSendsTheEndpoint)
{
	int calls = 0;
	Client client = client_on([&](nl_msg &req, std::string_view what) {
		calls++;
		EXPECT_EQ(cmd_of(req), RDMABLK_CMD_LISTEN_ADD);
		EXPECT_EQ(what, "adding listener [2001:db8::1]:4420");
		EXPECT_EQ(attrs_of(req), (std::vector<test::RawAttr>{
						 test::string_attr(RDMABLK_ATTR_ADDR, "2001:db8::1"),
						 test::u16_attr(RDMABLK_ATTR_PORT, 4420),
					 }));
		return std::vector<Msg>{};
	});
	client.listen_add({"2001:db8::1", 4420});
	EXPECT_EQ(calls, 1);
}

TEST(Client, ListenDelReportsTheKernelsRefusal)
{
	Client client = client_on([](nl_msg &req, std::string_view what) -> std::vector<Msg> {
		EXPECT_EQ(cmd_of(req), RDMABLK_CMD_LISTEN_DEL);
		throw Error(std::string(what), ENOENT, "no such listener");
	});
	try {
		client.listen_del({"192.0.2.1", 7471});
		ADD_FAILURE() << "refusal lost";
	} catch (const Error &e) {
		EXPECT_EQ(e.errnum(), ENOENT);
		EXPECT_EQ(e.extack(), "no such listener");
		EXPECT_STREQ(e.what(), "removing listener 192.0.2.1:7471: No such file or directory: "
				       "no such listener");
	}
}

TEST(Client, ListenGetParsesEveryDumpEntry)
{
	Client client = client_on([](nl_msg &req, std::string_view) {
		EXPECT_EQ(cmd_of(req), RDMABLK_CMD_LISTEN_GET);
		EXPECT_TRUE(nlmsg_hdr(&req)->nlmsg_flags & NLM_F_DUMP);
		std::vector<Msg> v;
		v.push_back(test::listener_reply("192.0.2.1", 7471, RDMABLK_LISTENER_LISTENING));
		v.push_back(test::listener_reply("::1", 4420, RDMABLK_LISTENER_LISTENING));
		return v;
	});
	EXPECT_EQ(client.listen_get(),
		  (std::vector<Listener>{{"192.0.2.1", 7471, RDMABLK_LISTENER_LISTENING},
					 {"::1", 4420, RDMABLK_LISTENER_LISTENING}}));
}

TEST(Client, ListenGetRejectsAMalformedEntry)
{
	Client client = client_on([](nl_msg &, std::string_view) {
		std::vector<Msg> v;
		v.push_back(test::listener_reply("192.0.2.1", 7471, RDMABLK_LISTENER_LISTENING));
		v.push_back(test::kernel_msg(RDMABLK_CMD_LISTEN_GET));
		return v;
	});
	EXPECT_THROW(client.listen_get(), MalformedMessage);
}

} // namespace
} // namespace rdmablk::nl
