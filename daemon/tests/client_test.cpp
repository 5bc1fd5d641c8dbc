// SPDX-License-Identifier: GPL-2.0
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cerrno>

#include <netlink/genl/genl.h>

#include <linux/rdmablk.h>

#include "fake_kernel.hpp"
#include "nl/client.hpp"
#include "nl/error.hpp"
#include "nl/requests.hpp"

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

std::vector<Msg> replies(Msg first, Msg second)
{
	std::vector<Msg> v = replies(std::move(first));
	v.push_back(std::move(second));
	return v;
}

Client client_on(FakeKernel::Handler handler)
{
	return Client(std::make_unique<FakeKernel>(std::move(handler)), test::family_id);
}

/* A client expecting command @cmd with @attrs, described as @what, and answering with nothing. */
Client acking_client(std::uint8_t cmd, std::string what, std::vector<test::RawAttr> attrs,
		     int &calls)
{
	return client_on([cmd, what, attrs, &calls](nl_msg &req, std::string_view got) {
		calls++;
		EXPECT_EQ(cmd_of(req), cmd);
		EXPECT_EQ(got, what);
		EXPECT_EQ(attrs_of(req), attrs);
		return std::vector<Msg>{};
	});
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
	Client client = acking_client(RDMABLK_CMD_LISTEN_ADD, "adding listener [2001:db8::1]:4420",
				      {test::string_attr(RDMABLK_ATTR_ADDR, "2001:db8::1"),
				       test::u16_attr(RDMABLK_ATTR_PORT, 4420)},
				      calls);
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

TEST(Client, ExportAddSendsTheExport)
{
	int calls = 0;
	Client client = acking_client(RDMABLK_CMD_EXPORT_ADD, "adding export disk0",
				      {test::string_attr(RDMABLK_ATTR_EXPORT_NAME, "disk0"),
				       test::string_attr(RDMABLK_ATTR_EXPORT_PATH, "/dev/nullb0"),
				       test::uuid_attr(RDMABLK_ATTR_UUID, test::example_uuid()),
				       test::flag_attr(RDMABLK_ATTR_READ_ONLY)},
				      calls);
	client.export_add("disk0", "/dev/nullb0", test::example_uuid(), true);
	EXPECT_EQ(calls, 1);
}

TEST(Client, ExportAddSendsTheAllowList)
{
	int calls = 0;
	Client client = acking_client(
		RDMABLK_CMD_EXPORT_ADD, "adding export disk0",
		{test::string_attr(RDMABLK_ATTR_EXPORT_NAME, "disk0"),
		 test::string_attr(RDMABLK_ATTR_EXPORT_PATH, "/dev/nullb0"),
		 test::uuid_attr(RDMABLK_ATTR_UUID, test::example_uuid()),
		 test::nested_attr(RDMABLK_ATTR_ALLOWED_HOSTS,
				   {test::uuid_attr(RDMABLK_ATTR_HOSTID, test::example_hostid())})},
		calls);
	client.export_add("disk0", "/dev/nullb0", test::example_uuid(), false,
			  {test::example_hostid()});
	EXPECT_EQ(calls, 1);
}

TEST(Client, ExportDelReportsTheKernelsRefusal)
{
	Client client = client_on([](nl_msg &req, std::string_view what) -> std::vector<Msg> {
		EXPECT_EQ(cmd_of(req), RDMABLK_CMD_EXPORT_DEL);
		throw Error(std::string(what), ENOENT, "no export \"disk9\"");
	});
	try {
		client.export_del("disk9");
		ADD_FAILURE() << "refusal lost";
	} catch (const Error &e) {
		EXPECT_STREQ(e.what(), "removing export disk9: No such file or directory: "
				       "no export \"disk9\"");
	}
}

TEST(Client, ExportGetParsesEveryDumpEntry)
{
	Export second = test::example_export();
	second.name = "disk1";
	second.read_only = true;
	Client client = client_on([&](nl_msg &req, std::string_view what) {
		EXPECT_EQ(cmd_of(req), RDMABLK_CMD_EXPORT_GET);
		EXPECT_TRUE(nlmsg_hdr(&req)->nlmsg_flags & NLM_F_DUMP);
		EXPECT_EQ(what, "listing exports");
		return replies(test::export_reply(test::example_export()),
			       test::export_reply(second));
	});
	EXPECT_EQ(client.export_get(), (std::vector<Export>{test::example_export(), second}));
}

TEST(Client, AttachReturnsTheDevice)
{
	const AttachArgs args{.target = {"192.0.2.1", 4420},
			      .export_name = "disk0",
			      .hostid = test::example_uuid(),
			      .nr_queues = 4,
			      .queue_depth = std::nullopt};
	Client client = client_on([&](nl_msg &req, std::string_view what) {
		EXPECT_EQ(cmd_of(req), RDMABLK_CMD_ATTACH);
		EXPECT_EQ(what, "attaching export disk0 from 192.0.2.1:4420");
		EXPECT_EQ(attrs_of(req), attrs_of(*build_attach(test::family_id, args)));
		return replies(test::device_reply(RDMABLK_CMD_ATTACH, test::example_device()));
	});
	EXPECT_EQ(client.attach(args), test::example_device());
}

TEST(Client, AttachWantsExactlyOneReply)
{
	Client client = client_on([](nl_msg &, std::string_view) {
		return replies(test::device_reply(RDMABLK_CMD_ATTACH, test::example_device()),
			       test::device_reply(RDMABLK_CMD_ATTACH, test::example_device()));
	});
	try {
		client.attach({});
		ADD_FAILURE() << "two replies accepted";
	} catch (const MalformedMessage &e) {
		EXPECT_STREQ(e.what(), "malformed ATTACH reply: expected 1 message, got 2");
	}
}

TEST(Client, AttachRejectsAMalformedReply)
{
	Client client = client_on([](nl_msg &, std::string_view) {
		return replies(test::device_reply(RDMABLK_CMD_DEV_GET, test::example_device()));
	});
	EXPECT_THROW(client.attach({}), MalformedMessage);
}

TEST(Client, DetachSendsTheIndex)
{
	int calls = 0;
	Client client = acking_client(RDMABLK_CMD_DETACH, "detaching rdmablk3",
				      {test::u32_attr(RDMABLK_ATTR_DEV_INDEX, 3)}, calls);
	client.detach(3);
	EXPECT_EQ(calls, 1);
}

TEST(Client, DevSetSendsTheSettings)
{
	int calls = 0;
	Client client = acking_client(RDMABLK_CMD_DEV_SET, "changing rdmablk3",
				      {test::u32_attr(RDMABLK_ATTR_DEV_INDEX, 3),
				       test::s32_attr(RDMABLK_ATTR_CTRL_LOSS_TMO, -1)},
				      calls);
	client.dev_set(3, {.ctrl_loss_tmo = RDMABLK_TMO_OFF});
	EXPECT_EQ(calls, 1);
}

TEST(Client, ReconnectSendsTheIndex)
{
	int calls = 0;
	Client client = acking_client(RDMABLK_CMD_RECONNECT, "reconnecting rdmablk0",
				      {test::u32_attr(RDMABLK_ATTR_DEV_INDEX, 0)}, calls);
	client.reconnect(0);
	EXPECT_EQ(calls, 1);
}

TEST(Client, DevGetParsesEveryDumpEntry)
{
	Device second = test::example_device();
	second.index = 4;
	second.name = "rdmablk4";
	second.state = RDMABLK_DEV_DEAD;
	Client client = client_on([&](nl_msg &req, std::string_view what) {
		EXPECT_EQ(cmd_of(req), RDMABLK_CMD_DEV_GET);
		EXPECT_TRUE(nlmsg_hdr(&req)->nlmsg_flags & NLM_F_DUMP);
		EXPECT_EQ(what, "listing devices");
		return replies(test::device_reply(RDMABLK_CMD_DEV_GET, test::example_device()),
			       test::device_reply(RDMABLK_CMD_DEV_GET, second));
	});
	EXPECT_EQ(client.dev_get(), (std::vector<Device>{test::example_device(), second}));
}

TEST(Client, PathAddReturnsTheDevice)
{
	const PathArgs args{.index = 3, .target = {"198.51.100.7", 4420}, .standby = true};
	Client client = client_on([&](nl_msg &req, std::string_view what) {
		EXPECT_EQ(cmd_of(req), RDMABLK_CMD_PATH_ADD);
		EXPECT_EQ(what, "adding path 198.51.100.7:4420 to rdmablk3");
		EXPECT_EQ(attrs_of(req), attrs_of(*build_path_add(test::family_id, args)));
		return replies(test::device_reply(RDMABLK_CMD_PATH_ADD,
						  test::example_multipath_device()));
	});
	EXPECT_EQ(client.path_add(args), test::example_multipath_device());
}

TEST(Client, PathAddWantsExactlyOneReply)
{
	Client client = client_on([](nl_msg &, std::string_view) { return std::vector<Msg>{}; });
	try {
		client.path_add({.index = 0, .target = {"192.0.2.1", 7471}});
		ADD_FAILURE() << "no reply accepted";
	} catch (const MalformedMessage &e) {
		EXPECT_STREQ(e.what(), "malformed PATH_ADD reply: expected 1 message, got 0");
	}
}

TEST(Client, PathDelAndPathSetSendThePath)
{
	const PathArgs del{.index = 2, .target = {"2001:db8::1", 4420}};
	const PathArgs set{.index = 0, .target = {"192.0.2.1", 7471}, .standby = true};
	int calls = 0;
	acking_client(RDMABLK_CMD_PATH_DEL, "removing path [2001:db8::1]:4420 of rdmablk2",
		      attrs_of(*build_path_del(test::family_id, del)), calls)
		.path_del(del);
	acking_client(RDMABLK_CMD_PATH_SET, "changing path 192.0.2.1:7471 of rdmablk0",
		      attrs_of(*build_path_set(test::family_id, set)), calls)
		.path_set(set);
	EXPECT_EQ(calls, 2);
}

TEST(Client, DevGetRejectsAMalformedEntry)
{
	Client client = client_on([](nl_msg &, std::string_view) {
		return replies(test::kernel_msg(RDMABLK_CMD_DEV_GET));
	});
	EXPECT_THROW(client.dev_get(), MalformedMessage);
}

} // namespace
} // namespace rdmablk::nl
