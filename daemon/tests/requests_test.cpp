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

TEST(Requests, ExportAddCarriesNamePathAndUuid)
{
	const Msg msg = build_export_add(family_id, "disk0", "/dev/nullb0", test::example_uuid(),
					 false);
	expect_header(*msg, RDMABLK_CMD_EXPORT_ADD, NLM_F_ACK);
	EXPECT_EQ(attrs_of(*msg),
		  (std::vector<RawAttr>{
			  test::string_attr(RDMABLK_ATTR_EXPORT_NAME, "disk0"),
			  test::string_attr(RDMABLK_ATTR_EXPORT_PATH, "/dev/nullb0"),
			  test::uuid_attr(RDMABLK_ATTR_UUID, test::example_uuid()),
		  }));
}

TEST(Requests, ExportAddFlagsReadOnly)
{
	const Msg msg = build_export_add(family_id, "ro", "/dev/sdb", Uuid{}, true);
	const auto attrs = attrs_of(*msg);
	ASSERT_EQ(attrs.size(), 4u);
	EXPECT_EQ(attrs[2], test::uuid_attr(RDMABLK_ATTR_UUID, Uuid{}));
	EXPECT_EQ(attrs[3], test::flag_attr(RDMABLK_ATTR_READ_ONLY));
}

TEST(Requests, ExportAddNestsTheAllowList)
{
	const Msg msg = build_export_add(family_id, "disk0", "/dev/nullb0", test::example_uuid(),
					 false, {test::example_hostid(), test::example_uuid()});
	const auto attrs = attrs_of(*msg);
	ASSERT_EQ(attrs.size(), 4u);
	/* NLA_F_NESTED set: the kernel's strict validation insists. */
	EXPECT_EQ(attrs[3],
		  test::nested_attr(RDMABLK_ATTR_ALLOWED_HOSTS,
				    {test::uuid_attr(RDMABLK_ATTR_HOSTID, test::example_hostid()),
				     test::uuid_attr(RDMABLK_ATTR_HOSTID, test::example_uuid())}));
	EXPECT_EQ(attrs[3].type, RDMABLK_ATTR_ALLOWED_HOSTS | NLA_F_NESTED);
}

TEST(Requests, ExportAddLeavesAnEmptyAllowListOut)
{
	const Msg msg = build_export_add(family_id, "disk0", "/dev/nullb0", Uuid{}, true, {});
	const auto attrs = attrs_of(*msg);
	ASSERT_EQ(attrs.size(), 4u);
	EXPECT_EQ(attrs[3], test::flag_attr(RDMABLK_ATTR_READ_ONLY));
}

TEST(Requests, HostSetCarriesTheHostItsKeysAndReauthWhenAsked)
{
	const std::vector<std::uint8_t> key(32, 0x11), target_key(48, 0x22);
	const Msg plain = build_host_set(family_id, test::example_hostid(), key);
	expect_header(*plain, RDMABLK_CMD_HOST_SET, NLM_F_ACK);
	const auto attrs = attrs_of(*plain);
	ASSERT_EQ(attrs.size(), 2u);
	EXPECT_EQ(attrs[0], test::uuid_attr(RDMABLK_ATTR_HOSTID, test::example_hostid()));
	EXPECT_EQ(attrs[1].type, RDMABLK_ATTR_AUTH_KEY);

	const Msg reauth =
		build_host_set(family_id, test::example_hostid(), key, target_key, true);
	const auto more = attrs_of(*reauth);
	ASSERT_EQ(more.size(), 4u);
	EXPECT_EQ(more[2].type, RDMABLK_ATTR_AUTH_TARGET_KEY);
	EXPECT_EQ(more[3], test::flag_attr(RDMABLK_ATTR_HOST_REAUTH));
}

TEST(Requests, ExportDelCarriesTheName)
{
	const Msg msg = build_export_del(family_id, "disk0");
	expect_header(*msg, RDMABLK_CMD_EXPORT_DEL, NLM_F_ACK);
	EXPECT_EQ(attrs_of(*msg), (std::vector<RawAttr>{
					  test::string_attr(RDMABLK_ATTR_EXPORT_NAME, "disk0"),
				  }));
}

TEST(Requests, AttachCarriesTargetExportAndHostid)
{
	const Uuid hostid = parse_uuid("0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0");
	const Msg msg = build_attach(family_id, {.target = {"2001:db8::1", 4420},
						 .export_name = "disk0",
						 .hostid = hostid,
						 .nr_queues = std::nullopt,
						 .queue_depth = std::nullopt});
	expect_header(*msg, RDMABLK_CMD_ATTACH, NLM_F_ACK);
	EXPECT_EQ(attrs_of(*msg), (std::vector<RawAttr>{
					  test::string_attr(RDMABLK_ATTR_ADDR, "2001:db8::1"),
					  test::u16_attr(RDMABLK_ATTR_PORT, 4420),
					  test::string_attr(RDMABLK_ATTR_EXPORT_NAME, "disk0"),
					  test::uuid_attr(RDMABLK_ATTR_HOSTID, hostid),
				  }));
}

TEST(Requests, AttachCarriesQueueSettingsWhenGiven)
{
	const Msg msg = build_attach(family_id, {.target = {"192.0.2.1", RDMABLK_DEFAULT_PORT},
						 .export_name = "disk0",
						 .hostid = Uuid{},
						 .nr_queues = 2,
						 .nr_poll_queues = 1,
						 .queue_depth = 64});
	const auto attrs = attrs_of(*msg);
	ASSERT_EQ(attrs.size(), 7u);
	EXPECT_EQ(attrs[4], test::u32_attr(RDMABLK_ATTR_NR_QUEUES, 2));
	EXPECT_EQ(attrs[5], test::u32_attr(RDMABLK_ATTR_NR_POLL_QUEUES, 1));
	EXPECT_EQ(attrs[6], test::u32_attr(RDMABLK_ATTR_QUEUE_DEPTH, 64));

	const Msg depth_only = build_attach(family_id, {.target = {"192.0.2.1", 1},
							.export_name = "disk0",
							.hostid = Uuid{},
							.nr_queues = std::nullopt,
							.queue_depth = 1});
	const auto depth_attrs = attrs_of(*depth_only);
	ASSERT_EQ(depth_attrs.size(), 5u);
	EXPECT_EQ(depth_attrs[4], test::u32_attr(RDMABLK_ATTR_QUEUE_DEPTH, 1));
}

TEST(Requests, AttachCarriesRecoverySettingsWhenGiven)
{
	const Msg msg = build_attach(family_id, {.target = {"192.0.2.1", 1},
						 .export_name = "disk0",
						 .hostid = Uuid{},
						 .nr_queues = std::nullopt,
						 .queue_depth = std::nullopt,
						 .reconnect_delay = 2,
						 .ctrl_loss_tmo = RDMABLK_TMO_OFF,
						 .fast_io_fail_tmo = 0,
						 .keepalive_tmo = 3});
	const auto attrs = attrs_of(*msg);
	ASSERT_EQ(attrs.size(), 8u);
	EXPECT_EQ(attrs[4], test::u32_attr(RDMABLK_ATTR_RECONNECT_DELAY, 2));
	EXPECT_EQ(attrs[5], test::s32_attr(RDMABLK_ATTR_CTRL_LOSS_TMO, -1));
	EXPECT_EQ(attrs[6], test::s32_attr(RDMABLK_ATTR_FAST_IO_FAIL_TMO, 0));
	EXPECT_EQ(attrs[7], test::u32_attr(RDMABLK_ATTR_KEEPALIVE_TMO, 3));
}

TEST(Requests, AttachCarriesThePolicyWhenGiven)
{
	const Msg msg = build_attach(family_id, {.target = {"192.0.2.1", 1},
						 .export_name = "disk0",
						 .hostid = Uuid{},
						 .nr_queues = std::nullopt,
						 .queue_depth = std::nullopt,
						 .keepalive_tmo = 3,
						 .mp_policy = RDMABLK_MP_MIN_LATENCY});
	const auto attrs = attrs_of(*msg);
	ASSERT_EQ(attrs.size(), 6u);
	EXPECT_EQ(attrs[4], test::u32_attr(RDMABLK_ATTR_KEEPALIVE_TMO, 3));
	EXPECT_EQ(attrs[5], test::u32_attr(RDMABLK_ATTR_MP_POLICY, RDMABLK_MP_MIN_LATENCY));
}

TEST(Requests, DevSetCarriesTheIndexAndTheSettingsGiven)
{
	const Msg msg = build_dev_set(family_id, 5,
				      {.reconnect_delay = 1,
				       .ctrl_loss_tmo = 600,
				       .fast_io_fail_tmo = RDMABLK_TMO_OFF,
				       .keepalive_tmo = 10});
	expect_header(*msg, RDMABLK_CMD_DEV_SET, NLM_F_ACK);
	EXPECT_EQ(attrs_of(*msg), (std::vector<RawAttr>{
					  test::u32_attr(RDMABLK_ATTR_DEV_INDEX, 5),
					  test::u32_attr(RDMABLK_ATTR_RECONNECT_DELAY, 1),
					  test::s32_attr(RDMABLK_ATTR_CTRL_LOSS_TMO, 600),
					  test::s32_attr(RDMABLK_ATTR_FAST_IO_FAIL_TMO, -1),
					  test::u32_attr(RDMABLK_ATTR_KEEPALIVE_TMO, 10),
				  }));

	const Msg one = build_dev_set(family_id, 0, {.fast_io_fail_tmo = 5});
	EXPECT_EQ(attrs_of(*one), (std::vector<RawAttr>{
					  test::u32_attr(RDMABLK_ATTR_DEV_INDEX, 0),
					  test::s32_attr(RDMABLK_ATTR_FAST_IO_FAIL_TMO, 5),
				  }));

	const Msg policy = build_dev_set(family_id, 1, {.mp_policy = RDMABLK_MP_ROUND_ROBIN});
	EXPECT_EQ(attrs_of(*policy), (std::vector<RawAttr>{
					     test::u32_attr(RDMABLK_ATTR_DEV_INDEX, 1),
					     test::u32_attr(RDMABLK_ATTR_MP_POLICY,
							    RDMABLK_MP_ROUND_ROBIN),
				     }));

	const Msg none = build_dev_set(family_id, 2, {});
	EXPECT_EQ(attrs_of(*none), (std::vector<RawAttr>{
					   test::u32_attr(RDMABLK_ATTR_DEV_INDEX, 2),
				   }));
}

TEST(Requests, ReconnectCarriesTheIndex)
{
	const Msg msg = build_reconnect(family_id, 9);
	expect_header(*msg, RDMABLK_CMD_RECONNECT, NLM_F_ACK);
	EXPECT_EQ(attrs_of(*msg), (std::vector<RawAttr>{
					  test::u32_attr(RDMABLK_ATTR_DEV_INDEX, 9),
				  }));
}

TEST(Requests, DetachCarriesTheIndex)
{
	const Msg msg = build_detach(family_id, 7);
	expect_header(*msg, RDMABLK_CMD_DETACH, NLM_F_ACK);
	EXPECT_EQ(attrs_of(*msg), (std::vector<RawAttr>{
					  test::u32_attr(RDMABLK_ATTR_DEV_INDEX, 7),
				  }));
}

struct PathCase {
	const char *name;
	Msg (*build)(int family, const PathArgs &args);
	std::uint8_t cmd;
	PathArgs args;
};

class PathRequest : public testing::TestWithParam<PathCase> {};

TEST_P(PathRequest, CarriesTheDeviceTheTargetAndStandbyAsAU8WhenGiven)
{
	const PathCase &c = GetParam();
	const Msg msg = c.build(family_id, c.args);
	expect_header(*msg, c.cmd, NLM_F_ACK);
	std::vector<RawAttr> expected{
		test::u32_attr(RDMABLK_ATTR_DEV_INDEX, c.args.index),
		test::string_attr(RDMABLK_ATTR_ADDR, c.args.target.addr),
		test::u16_attr(RDMABLK_ATTR_PORT, c.args.target.port),
	};
	if (c.args.standby)
		expected.push_back(test::u8_attr(RDMABLK_ATTR_PATH_STANDBY, *c.args.standby));
	EXPECT_EQ(attrs_of(*msg), expected);
}

INSTANTIATE_TEST_SUITE_P(
	AddDelAndSet, PathRequest,
	testing::Values(PathCase{"add", build_path_add, RDMABLK_CMD_PATH_ADD,
				 PathArgs{.index = 3, .target = {"198.51.100.7", 4420}}},
			PathCase{"add_standby", build_path_add, RDMABLK_CMD_PATH_ADD,
				 PathArgs{.index = 0,
					  .target = {"fe80::1%eth0", 7471},
					  .standby = true}},
			PathCase{"add_active", build_path_add, RDMABLK_CMD_PATH_ADD,
				 PathArgs{.index = 0,
					  .target = {"192.0.2.1", 7471},
					  .standby = false}},
			PathCase{"del", build_path_del, RDMABLK_CMD_PATH_DEL,
				 PathArgs{.index = 7, .target = {"192.0.2.2", 1}}},
			PathCase{"set_active", build_path_set, RDMABLK_CMD_PATH_SET,
				 PathArgs{.index = 2,
					  .target = {"2001:db8::1", 4420},
					  .standby = false}},
			PathCase{"set_standby", build_path_set, RDMABLK_CMD_PATH_SET,
				 PathArgs{.index = 9,
					  .target = {"192.0.2.3", 7471},
					  .standby = true}}),
	[](const auto &p) { return std::string(p.param.name); });

TEST(Requests, PathAddCarriesExactlyTheDeviceAndTheTarget)
{
	const Msg msg = build_path_add(family_id, {.index = 3, .target = {"198.51.100.7", 4420}});
	EXPECT_EQ(attrs_of(*msg), (std::vector<RawAttr>{
					  test::u32_attr(RDMABLK_ATTR_DEV_INDEX, 3),
					  test::string_attr(RDMABLK_ATTR_ADDR, "198.51.100.7"),
					  test::u16_attr(RDMABLK_ATTR_PORT, 4420),
				  }));
	/* The module reads PATH_STANDBY as a u8: 0 or 1, one byte. */
	const Msg standby = build_path_add(
		family_id, {.index = 3, .target = {"192.0.2.1", 1}, .standby = true});
	EXPECT_EQ(attrs_of(*standby).back(),
		  (RawAttr{RDMABLK_ATTR_PATH_STANDBY, std::vector<std::uint8_t>{1}}));
}

struct DumpCase {
	const char *name;
	Msg (*build)(int family);
	std::uint8_t cmd;
};

class DumpRequest : public testing::TestWithParam<DumpCase> {};

TEST_P(DumpRequest, HasNoAttributes)
{
	const Msg msg = GetParam().build(family_id);
	expect_header(*msg, GetParam().cmd, NLM_F_DUMP);
	EXPECT_TRUE(attrs_of(*msg).empty());
}

INSTANTIATE_TEST_SUITE_P(
	EachDump, DumpRequest,
	testing::Values(DumpCase{"listen_get", build_listen_get, RDMABLK_CMD_LISTEN_GET},
			DumpCase{"export_get", build_export_get, RDMABLK_CMD_EXPORT_GET},
			DumpCase{"dev_get", build_dev_get, RDMABLK_CMD_DEV_GET}),
	[](const auto &p) { return std::string(p.param.name); });

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
