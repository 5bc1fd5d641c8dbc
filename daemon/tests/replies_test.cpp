// SPDX-License-Identifier: GPL-2.0
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include <linux/rdmablk.h>

#include "fake_kernel.hpp"
#include "nl/error.hpp"
#include "nl/replies.hpp"

namespace rdmablk::nl {
namespace {

using test::kernel_msg;
using test::RawAttr;
using testing::HasSubstr;

/* The event parse_event() should make of a message. */
Event event_of(std::uint32_t type, std::optional<Endpoint> listener = std::nullopt,
	       std::optional<ExportRef> export_ref = std::nullopt,
	       std::optional<Device> device = std::nullopt)
{
	Event event;
	event.type = type;
	event.listener = std::move(listener);
	event.export_ref = std::move(export_ref);
	event.device = std::move(device);
	return event;
}

/* @attrs without attribute @type. */
std::vector<RawAttr> without(std::vector<RawAttr> attrs, std::uint16_t type)
{
	std::erase_if(attrs, [type](const RawAttr &a) { return a.type == type; });
	return attrs;
}

/* @attrs with attribute @type's payload replaced by @payload. */
std::vector<RawAttr> with_payload(std::vector<RawAttr> attrs, std::uint16_t type,
				  std::vector<std::uint8_t> payload)
{
	for (RawAttr &a : attrs)
		if (a.type == type)
			a.payload = payload;
	return attrs;
}

/* Run @parse on @msg and return the MalformedMessage text it must raise. */
template <typename Parse> std::string malformed(Parse parse, nl_msg &msg)
{
	try {
		parse(msg);
	} catch (const MalformedMessage &e) {
		EXPECT_EQ(e.errnum(), EBADMSG);
		return e.what();
	}
	ADD_FAILURE() << "message accepted";
	return {};
}

TEST(ParseInfo, ReadsEveryField)
{
	const Msg msg = test::info_reply("0.1.0", 3, RDMABLK_FEAT_LISTEN);
	EXPECT_EQ(parse_info(*msg), (Info{"0.1.0", RDMABLK_GENL_VERSION, 3, RDMABLK_FEAT_LISTEN}));
}

TEST(ParseInfo, IgnoresAttributesNewerThanThisBuild)
{
	const Msg msg = test::info_reply("0.1.0", 3, 0);
	put_u32(*msg, RDMABLK_ATTR_MAX + 1, 42);
	put_u32(*msg, RDMABLK_ATTR_PAD, 0);
	EXPECT_EQ(parse_info(*msg).module_version, "0.1.0");
}

struct MissingAttr {
	rdmablk_attr absent;
	const char *name;
};

class ParseInfoMissing : public testing::TestWithParam<MissingAttr> {};

TEST_P(ParseInfoMissing, NamesTheMissingAttribute)
{
	const Msg msg = kernel_msg(RDMABLK_CMD_GET_INFO);
	if (GetParam().absent != RDMABLK_ATTR_MODULE_VERSION)
		put_string(*msg, RDMABLK_ATTR_MODULE_VERSION, "0.1.0");
	if (GetParam().absent != RDMABLK_ATTR_GENL_VERSION)
		put_u32(*msg, RDMABLK_ATTR_GENL_VERSION, 1);
	if (GetParam().absent != RDMABLK_ATTR_PROTO_VERSION)
		put_u32(*msg, RDMABLK_ATTR_PROTO_VERSION, 1);
	if (GetParam().absent != RDMABLK_ATTR_FEATURES)
		put_u64(*msg, RDMABLK_ATTR_FEATURES, 0);

	EXPECT_EQ(malformed(parse_info, *msg), std::string("malformed GET_INFO reply: attribute ") +
						       GetParam().name + " is missing");
}

INSTANTIATE_TEST_SUITE_P(EachMandatory, ParseInfoMissing,
			 testing::Values(MissingAttr{RDMABLK_ATTR_MODULE_VERSION, "MODULE_VERSION"},
					 MissingAttr{RDMABLK_ATTR_GENL_VERSION, "GENL_VERSION"},
					 MissingAttr{RDMABLK_ATTR_PROTO_VERSION, "PROTO_VERSION"},
					 MissingAttr{RDMABLK_ATTR_FEATURES, "FEATURES"}),
			 [](const auto &p) { return std::string(p.param.name); });

TEST(ParseInfo, RejectsAWrongSizeInteger)
{
	const Msg msg = kernel_msg(RDMABLK_CMD_GET_INFO);
	put_string(*msg, RDMABLK_ATTR_MODULE_VERSION, "0.1.0");
	put_u16(*msg, RDMABLK_ATTR_GENL_VERSION, 1);
	EXPECT_EQ(malformed(parse_info, *msg),
		  "malformed GET_INFO reply: attribute GENL_VERSION has 2 bytes, expected 4");
}

TEST(ParseInfo, RejectsAnUnterminatedString)
{
	const Msg msg = kernel_msg(RDMABLK_CMD_GET_INFO);
	put_attr(*msg, RDMABLK_ATTR_MODULE_VERSION, "0.1.0", 5);
	EXPECT_EQ(malformed(parse_info, *msg),
		  "malformed GET_INFO reply: attribute MODULE_VERSION is not NUL-terminated");
}

TEST(ParseInfo, RejectsAnEmptyString)
{
	const Msg msg = kernel_msg(RDMABLK_CMD_GET_INFO);
	put_attr(*msg, RDMABLK_ATTR_MODULE_VERSION, nullptr, 0);
	EXPECT_EQ(malformed(parse_info, *msg),
		  "malformed GET_INFO reply: attribute MODULE_VERSION is empty");
}

TEST(ParseInfo, RejectsAnotherCommand)
{
	const Msg msg = test::listener_reply("192.0.2.1", 7471, RDMABLK_LISTENER_LISTENING);
	EXPECT_EQ(malformed(parse_info, *msg), "malformed GET_INFO reply: command 4, expected 1");
}

TEST(ParseInfo, RejectsATruncatedGenlHeader)
{
	const Msg msg = alloc_msg();
	ASSERT_NE(nlmsg_put(msg.get(), 0, 1, test::family_id, 0, 0), nullptr);
	EXPECT_EQ(malformed(parse_info, *msg),
		  "malformed GET_INFO reply: truncated generic netlink header");
}

TEST(ParseListener, ReadsEveryField)
{
	const Msg msg = test::listener_reply("2001:db8::1", 4420, RDMABLK_LISTENER_LISTENING);
	EXPECT_EQ(parse_listener(*msg),
		  (Listener{"2001:db8::1", 4420, RDMABLK_LISTENER_LISTENING}));
}

TEST(ParseListener, RejectsAU32Port)
{
	const Msg msg = kernel_msg(RDMABLK_CMD_LISTEN_GET);
	put_string(*msg, RDMABLK_ATTR_ADDR, "192.0.2.1");
	put_u32(*msg, RDMABLK_ATTR_PORT, 7471);
	put_u32(*msg, RDMABLK_ATTR_LISTENER_STATE, RDMABLK_LISTENER_LISTENING);
	EXPECT_EQ(malformed(parse_listener, *msg),
		  "malformed LISTEN_GET reply: attribute PORT has 4 bytes, expected 2");
}

TEST(ParseListener, RejectsPortZero)
{
	const Msg msg = test::listener_reply("192.0.2.1", 0, RDMABLK_LISTENER_LISTENING);
	EXPECT_EQ(malformed(parse_listener, *msg),
		  "malformed LISTEN_GET reply: attribute PORT is 0");
}

TEST(ParseListener, RejectsAnOverlongAddress)
{
	const Msg msg = test::listener_reply(std::string(RDMABLK_ADDR_MAX_LEN, 'a'), 7471,
					     RDMABLK_LISTENER_LISTENING);
	EXPECT_EQ(malformed(parse_listener, *msg),
		  "malformed LISTEN_GET reply: attribute ADDR has 65 bytes, at most 64 allowed");
}

TEST(ParseListener, RejectsAMissingState)
{
	const Msg msg = kernel_msg(RDMABLK_CMD_LISTEN_GET);
	put_string(*msg, RDMABLK_ATTR_ADDR, "192.0.2.1");
	put_u16(*msg, RDMABLK_ATTR_PORT, 7471);
	EXPECT_THAT(malformed(parse_listener, *msg), HasSubstr("LISTENER_STATE is missing"));
}

TEST(ParseListener, KeepsAnUnknownState)
{
	const Msg msg = test::listener_reply("192.0.2.1", 7471, 99);
	EXPECT_EQ(parse_listener(*msg).state, 99u);
}

TEST(ParseExport, ReadsEveryField)
{
	const Export exp = test::example_export();
	const Msg msg = test::export_reply(exp);
	EXPECT_EQ(parse_export(*msg), exp);
}

TEST(ParseExport, ReadsTheReadOnlyFlag)
{
	Export exp = test::example_export();
	exp.read_only = true;
	const Msg msg = test::export_reply(exp);
	EXPECT_TRUE(parse_export(*msg).read_only);
}

class ParseExportMissing : public testing::TestWithParam<MissingAttr> {};

TEST_P(ParseExportMissing, NamesTheMissingAttribute)
{
	const Msg msg = test::kernel_reply(
		RDMABLK_CMD_EXPORT_GET,
		without(test::export_attrs(test::example_export()), GetParam().absent));
	EXPECT_EQ(malformed(parse_export, *msg),
		  std::string("malformed EXPORT_GET reply: attribute ") + GetParam().name +
			  " is missing");
}

INSTANTIATE_TEST_SUITE_P(
	EachMandatory, ParseExportMissing,
	testing::Values(MissingAttr{RDMABLK_ATTR_EXPORT_NAME, "EXPORT_NAME"},
			MissingAttr{RDMABLK_ATTR_EXPORT_PATH, "EXPORT_PATH"},
			MissingAttr{RDMABLK_ATTR_UUID, "UUID"},
			MissingAttr{RDMABLK_ATTR_SIZE, "SIZE"},
			MissingAttr{RDMABLK_ATTR_LOGICAL_BLOCK_SIZE, "LOGICAL_BLOCK_SIZE"},
			MissingAttr{RDMABLK_ATTR_PHYSICAL_BLOCK_SIZE, "PHYSICAL_BLOCK_SIZE"},
			MissingAttr{RDMABLK_ATTR_NR_CONNECTIONS, "NR_CONNECTIONS"}),
	[](const auto &p) { return std::string(p.param.name); });

struct BadAttr {
	const char *name;
	rdmablk_attr type;
	std::vector<std::uint8_t> payload;
	const char *problem;
};

class ParseExportBadAttr : public testing::TestWithParam<BadAttr> {};

TEST_P(ParseExportBadAttr, NamesTheAttribute)
{
	const BadAttr &c = GetParam();
	const Msg msg = test::kernel_reply(
		RDMABLK_CMD_EXPORT_GET,
		with_payload(test::export_attrs(test::example_export()), c.type, c.payload));
	EXPECT_EQ(malformed(parse_export, *msg),
		  std::string("malformed EXPORT_GET reply: attribute ") + c.problem);
}

INSTANTIATE_TEST_SUITE_P(
	Table, ParseExportBadAttr,
	testing::Values(BadAttr{"short_uuid", RDMABLK_ATTR_UUID, std::vector<std::uint8_t>(15),
				 "UUID has 15 bytes, expected 16"},
			BadAttr{"long_uuid", RDMABLK_ATTR_UUID, std::vector<std::uint8_t>(17),
				 "UUID has 17 bytes, expected 16"},
			BadAttr{"u32_size", RDMABLK_ATTR_SIZE, std::vector<std::uint8_t>(4),
				 "SIZE has 4 bytes, expected 8"},
			BadAttr{"u16_connections", RDMABLK_ATTR_NR_CONNECTIONS,
				 std::vector<std::uint8_t>(2),
				 "NR_CONNECTIONS has 2 bytes, expected 4"},
			BadAttr{"long_name", RDMABLK_ATTR_EXPORT_NAME,
				 std::vector<std::uint8_t>(RDMABLK_EXPORT_NAME_MAX + 1, 'a'),
				 "EXPORT_NAME has 65 bytes, at most 64 allowed"}),
	[](const auto &p) { return std::string(p.param.name); });

TEST(ParseExport, ReadsTheAllowList)
{
	Export exp = test::example_export();
	exp.allowed_hosts = {test::example_hostid(), test::example_uuid()};
	const Msg msg = test::export_reply(exp);
	EXPECT_EQ(parse_export(*msg), exp);
}

TEST(ParseExport, RejectsAShortAllowedHost)
{
	std::vector<RawAttr> attrs = test::export_attrs(test::example_export());
	attrs.push_back(test::nested_attr(RDMABLK_ATTR_ALLOWED_HOSTS,
					  {RawAttr{RDMABLK_ATTR_HOSTID, std::vector<std::uint8_t>(4)}}));
	const Msg msg = test::kernel_reply(RDMABLK_CMD_EXPORT_GET, attrs);
	EXPECT_EQ(malformed(parse_export, *msg),
		  "malformed EXPORT_GET reply: attribute HOSTID has 4 bytes, expected 16");
}

TEST(ParseExport, RejectsAFlagWithPayload)
{
	const Msg msg = test::export_reply(test::example_export());
	put_u32(*msg, RDMABLK_ATTR_READ_ONLY, 1);
	EXPECT_EQ(malformed(parse_export, *msg),
		  "malformed EXPORT_GET reply: attribute READ_ONLY has 4 bytes, expected 0");
}

TEST(ParseDevice, ReadsEveryField)
{
	Device dev = test::example_device();
	dev.target = {"fe80::1%eth0", 4420};
	dev.read_only = true;
	dev.state = RDMABLK_DEV_DELETING;
	const Msg msg = test::device_reply(RDMABLK_CMD_DEV_GET, dev);
	EXPECT_EQ(parse_device(*msg), dev);
}

TEST(ParseDevice, ReadsRecoveryStateAndQueues)
{
	Device dev = test::example_device();
	dev.state = RDMABLK_DEV_RECONNECTING;
	dev.reconnect_delay = 1;
	dev.ctrl_loss_tmo = RDMABLK_TMO_OFF;
	dev.fast_io_fail_tmo = 30;
	dev.keepalive_tmo = 2;
	dev.reconnect_attempt = 7;
	dev.reconnect_max = 0;
	dev.next_attempt_ms = 950;
	dev.last_error = "keep-alive timeout";
	dev.reconnects = 0xffffffffU;
	dev.queues = {{0, RDMABLK_QUEUE_DOWN, 12, 3, 10, 2, 4096, 8192, 1500},
		      {1, 99, 0xffffffffffffffffULL, 0, 0xfffffffffffffffeULL, 0, 0, 0,
		       0xffffffffffffffffULL}};
	const Msg msg = test::device_reply(RDMABLK_CMD_DEV_GET, dev);
	EXPECT_EQ(parse_device(*msg), dev);
}

TEST(ParseDevice, ReadsAnEmptyQueueList)
{
	Device dev = test::example_device();
	dev.queues.clear();
	const Msg msg = test::device_reply(RDMABLK_CMD_DEV_GET, dev);
	EXPECT_EQ(parse_device(*msg).queues, std::vector<QueueInfo>{});
}

TEST(ParseDevice, LeavesRecoveryAttributesAnOlderModuleLacksAtZero)
{
	std::vector<RawAttr> attrs = test::device_attrs(test::example_device());
	std::erase_if(attrs, [](const RawAttr &a) {
		return (a.type & NLA_TYPE_MASK) >= RDMABLK_ATTR_RECONNECT_DELAY;
	});
	const Msg msg = test::kernel_reply(RDMABLK_CMD_DEV_GET, attrs);

	Device expected = test::example_device();
	expected.reconnect_delay = 0;
	expected.ctrl_loss_tmo = 0;
	expected.fast_io_fail_tmo = 0;
	expected.keepalive_tmo = 0;
	expected.reconnect_max = 0;
	expected.reconnects = 0;
	expected.nr_poll_queues = 0;
	expected.queues.clear();
	EXPECT_EQ(parse_device(*msg), expected);
}

/* Queue 0's mandatory attributes: all that a module older than the I/O counters sends. */
std::vector<RawAttr> mandatory_queue_attrs(std::uint64_t commands, std::uint64_t errors)
{
	return {test::u32_attr(RDMABLK_ATTR_QUEUE_ID, 0),
		test::u32_attr(RDMABLK_ATTR_QUEUE_STATE, RDMABLK_QUEUE_LIVE),
		test::u64_attr(RDMABLK_ATTR_QUEUE_COMMANDS, commands),
		test::u64_attr(RDMABLK_ATTR_QUEUE_ERRORS, errors)};
}

/* @attrs, a device's, with its queues replaced by one of attributes @queue. */
std::vector<RawAttr> with_queue(std::vector<RawAttr> attrs, std::vector<RawAttr> queue)
{
	attrs.back() = test::nested_attr(RDMABLK_ATTR_QUEUES,
					 {test::nested_attr(RDMABLK_ATTR_QUEUE, std::move(queue))});
	return attrs;
}

TEST(ParseDevice, LeavesIoCountersAnOlderModuleLacksAtZero)
{
	const std::vector<RawAttr> attrs =
		without(test::device_attrs(test::example_device()), RDMABLK_ATTR_RECONNECTS);
	const Msg msg = test::kernel_reply(RDMABLK_CMD_DEV_GET,
					   with_queue(attrs, mandatory_queue_attrs(5, 1)));

	Device expected = test::example_device();
	expected.reconnects = 0;
	expected.queues = {{.id = 0, .state = RDMABLK_QUEUE_LIVE, .commands = 5, .errors = 1}};
	EXPECT_EQ(parse_device(*msg), expected);
}

TEST(ParseDevice, RejectsAQueueCounterOfTheWrongSize)
{
	std::vector<RawAttr> queue = mandatory_queue_attrs(5, 1);
	queue.push_back(test::u32_attr(RDMABLK_ATTR_QUEUE_LATENCY_US, 7));
	const Msg msg = test::kernel_reply(
		RDMABLK_CMD_DEV_GET, with_queue(test::device_attrs(test::example_device()), queue));
	EXPECT_EQ(malformed(parse_device, *msg),
		  "malformed DEV_GET reply: attribute QUEUE_LATENCY_US has 4 bytes, expected 8");
}

TEST(ParseDevice, IgnoresUnknownAttributesInAQueue)
{
	std::vector<RawAttr> attrs = test::device_attrs(test::example_device());
	attrs.back() = test::nested_attr(
		RDMABLK_ATTR_QUEUES,
		{test::u32_attr(RDMABLK_ATTR_MAX + 1, 1),
		 test::nested_attr(RDMABLK_ATTR_QUEUE,
				   {test::u32_attr(RDMABLK_ATTR_QUEUE_ID, 0),
				    test::u32_attr(RDMABLK_ATTR_MAX + 5, 1),
				    test::u32_attr(RDMABLK_ATTR_QUEUE_STATE, RDMABLK_QUEUE_LIVE),
				    test::u64_attr(RDMABLK_ATTR_QUEUE_COMMANDS, 5),
				    test::u64_attr(RDMABLK_ATTR_QUEUE_ERRORS, 6)})});
	const Msg msg = test::kernel_reply(RDMABLK_CMD_DEV_GET, attrs);
	EXPECT_EQ(parse_device(*msg).queues,
		  (std::vector<QueueInfo>{{0, RDMABLK_QUEUE_LIVE, 5, 6}}));
}

class ParseQueueMissing : public testing::TestWithParam<MissingAttr> {};

TEST_P(ParseQueueMissing, NamesTheMissingAttribute)
{
	const Msg msg = test::kernel_reply(
		RDMABLK_CMD_DEV_GET, with_queue(test::device_attrs(test::example_device()),
						without(mandatory_queue_attrs(0, 0), GetParam().absent)));
	EXPECT_EQ(malformed(parse_device, *msg),
		  std::string("malformed DEV_GET reply: attribute ") + GetParam().name +
			  " is missing");
}

INSTANTIATE_TEST_SUITE_P(
	EachMandatory, ParseQueueMissing,
	testing::Values(MissingAttr{RDMABLK_ATTR_QUEUE_ID, "QUEUE_ID"},
			MissingAttr{RDMABLK_ATTR_QUEUE_STATE, "QUEUE_STATE"},
			MissingAttr{RDMABLK_ATTR_QUEUE_COMMANDS, "QUEUE_COMMANDS"},
			MissingAttr{RDMABLK_ATTR_QUEUE_ERRORS, "QUEUE_ERRORS"}),
	[](const auto &p) { return std::string(p.param.name); });

TEST(ParseDevice, ReadsThePolicyAndEveryPath)
{
	const Device dev = test::example_multipath_device();
	const Msg msg = test::device_reply(RDMABLK_CMD_DEV_GET, dev);
	const Device parsed = parse_device(*msg);
	EXPECT_EQ(parsed, dev);

	EXPECT_EQ(parsed.mp_policy, static_cast<std::uint32_t>(RDMABLK_MP_ROUND_ROBIN));
	ASSERT_EQ(parsed.paths.size(), 2u);
	const PathInfo &first = parsed.paths[0];
	EXPECT_EQ(first.id, 0u);
	EXPECT_EQ(first.target, (Endpoint{"192.0.2.1", RDMABLK_DEFAULT_PORT}));
	EXPECT_EQ(first.state, static_cast<std::uint32_t>(RDMABLK_DEV_LIVE));
	EXPECT_FALSE(first.standby);
	EXPECT_EQ(first.inflight, 12u);
	EXPECT_EQ(first.latency_us, 85u);
	EXPECT_EQ(first.commands, 3000u);
	EXPECT_EQ(first.completed, 2988u);
	EXPECT_EQ(first.errors, 1u);
	EXPECT_EQ(first.requeued, 4u);
	EXPECT_EQ(first.failovers, 0u);
	/* Sent only after a failover. */
	EXPECT_EQ(first.failover_age_ms, 0u);
	EXPECT_EQ(first.reconnects, 2u);
	EXPECT_EQ(first.last_error, std::nullopt);
	const PathInfo &second = parsed.paths[1];
	EXPECT_EQ(second.id, 1u);
	EXPECT_EQ(second.target, (Endpoint{"198.51.100.7", 4420}));
	EXPECT_EQ(second.state, static_cast<std::uint32_t>(RDMABLK_DEV_RECONNECTING));
	EXPECT_TRUE(second.standby);
	EXPECT_EQ(second.latency_us, 1ULL << 40);
	EXPECT_EQ(second.completed, (1ULL << 40) - 9);
	EXPECT_EQ(second.requeued, 9u);
	EXPECT_EQ(second.failovers, 3u);
	EXPECT_EQ(second.failover_age_ms, 1500u);
	EXPECT_EQ(second.reconnect_attempt, 2u);
	EXPECT_EQ(second.next_attempt_ms, 8000u);
	EXPECT_EQ(second.last_error, "keep-alive timeout");
}

TEST(ParseDevice, LeavesMultipathAnOlderModuleLacksAtZero)
{
	/* example_device() has neither MP_POLICY nor PATHS. */
	const std::vector<RawAttr> attrs = test::device_attrs(test::example_device());
	ASSERT_TRUE(std::ranges::none_of(attrs, [](const RawAttr &a) {
		const auto type = a.type & NLA_TYPE_MASK;
		return type == RDMABLK_ATTR_MP_POLICY || type == RDMABLK_ATTR_PATHS;
	}));
	const Msg msg = test::kernel_reply(RDMABLK_CMD_DEV_GET, attrs);
	const Device parsed = parse_device(*msg);
	EXPECT_EQ(parsed.mp_policy, 0u);
	EXPECT_EQ(parsed.paths, std::vector<PathInfo>{});
	EXPECT_EQ(parsed, test::example_device());
}

TEST(ParseDevice, ReadsAnEmptyPathList)
{
	std::vector<RawAttr> attrs = test::device_attrs(test::example_device());
	attrs.push_back(test::nested_attr(RDMABLK_ATTR_PATHS, {}));
	const Msg msg = test::kernel_reply(RDMABLK_CMD_DEV_GET, attrs);
	EXPECT_EQ(parse_device(*msg).paths, std::vector<PathInfo>{});
}

/* The attributes of example_device() with one PATH nest holding @path. */
std::vector<RawAttr> with_path(std::vector<RawAttr> path)
{
	std::vector<RawAttr> attrs = test::device_attrs(test::example_device());
	attrs.push_back(test::nested_attr(RDMABLK_ATTR_PATHS,
					  {test::nested_attr(RDMABLK_ATTR_PATH, std::move(path))}));
	return attrs;
}

/* The first path of example_multipath_device(), as rdmablk.ko sends it. */
std::vector<RawAttr> example_path_attrs()
{
	return test::path_attrs(test::example_multipath_device().paths.front());
}

TEST(ParseDevice, RejectsAStandbyOfTheWrongSize)
{
	const Msg msg = test::kernel_reply(
		RDMABLK_CMD_DEV_GET,
		with_path(with_payload(example_path_attrs(), RDMABLK_ATTR_PATH_STANDBY,
				       std::vector<std::uint8_t>(4))));
	EXPECT_EQ(malformed(parse_device, *msg),
		  "malformed DEV_GET reply: attribute PATH_STANDBY has 4 bytes, expected 1");
}

TEST(ParseDevice, ReadsAnyNonZeroStandbyAsStandby)
{
	const Msg msg = test::kernel_reply(
		RDMABLK_CMD_DEV_GET,
		with_path(with_payload(example_path_attrs(), RDMABLK_ATTR_PATH_STANDBY,
				       std::vector<std::uint8_t>{2})));
	const Device parsed = parse_device(*msg);
	ASSERT_EQ(parsed.paths.size(), 1u);
	EXPECT_TRUE(parsed.paths[0].standby);
}

class ParsePathMissing : public testing::TestWithParam<MissingAttr> {};

TEST_P(ParsePathMissing, NamesTheMissingAttribute)
{
	const Msg msg = test::kernel_reply(
		RDMABLK_CMD_DEV_GET, with_path(without(example_path_attrs(), GetParam().absent)));
	EXPECT_EQ(malformed(parse_device, *msg),
		  std::string("malformed DEV_GET reply: attribute ") + GetParam().name +
			  " is missing");
}

INSTANTIATE_TEST_SUITE_P(
	EachMandatory, ParsePathMissing,
	testing::Values(MissingAttr{RDMABLK_ATTR_PATH_ID, "PATH_ID"},
			MissingAttr{RDMABLK_ATTR_ADDR, "ADDR"},
			MissingAttr{RDMABLK_ATTR_PORT, "PORT"},
			MissingAttr{RDMABLK_ATTR_PATH_STATE, "PATH_STATE"},
			MissingAttr{RDMABLK_ATTR_PATH_STANDBY, "PATH_STANDBY"},
			MissingAttr{RDMABLK_ATTR_PATH_INFLIGHT, "PATH_INFLIGHT"},
			MissingAttr{RDMABLK_ATTR_PATH_LATENCY_US, "PATH_LATENCY_US"},
			MissingAttr{RDMABLK_ATTR_QUEUE_COMMANDS, "QUEUE_COMMANDS"},
			MissingAttr{RDMABLK_ATTR_QUEUE_COMPLETED, "QUEUE_COMPLETED"},
			MissingAttr{RDMABLK_ATTR_QUEUE_ERRORS, "QUEUE_ERRORS"},
			MissingAttr{RDMABLK_ATTR_QUEUE_REQUEUED, "QUEUE_REQUEUED"},
			MissingAttr{RDMABLK_ATTR_PATH_FAILOVERS, "PATH_FAILOVERS"},
			MissingAttr{RDMABLK_ATTR_RECONNECT_ATTEMPT, "RECONNECT_ATTEMPT"},
			MissingAttr{RDMABLK_ATTR_NEXT_ATTEMPT_MS, "NEXT_ATTEMPT_MS"},
			MissingAttr{RDMABLK_ATTR_RECONNECTS, "RECONNECTS"}),
	[](const auto &p) { return std::string(p.param.name); });

TEST(ParseDevice, WantsADevGetMessage)
{
	const Msg msg = test::device_reply(RDMABLK_CMD_ATTACH, test::example_device());
	EXPECT_EQ(malformed(parse_device, *msg), "malformed DEV_GET reply: command 9, expected 11");
}

TEST(ParseAttach, ReadsTheDevice)
{
	const Msg msg = test::device_reply(RDMABLK_CMD_ATTACH, test::example_device());
	EXPECT_EQ(parse_attach(*msg), test::example_device());
}

TEST(ParsePathAdd, ReadsTheDeviceWithItsPaths)
{
	const Msg msg = test::device_reply(RDMABLK_CMD_PATH_ADD, test::example_multipath_device());
	EXPECT_EQ(parse_path_add(*msg), test::example_multipath_device());
}

TEST(ParsePathAdd, WantsAPathAddMessage)
{
	const Msg msg = test::device_reply(RDMABLK_CMD_ATTACH, test::example_multipath_device());
	EXPECT_EQ(malformed(parse_path_add, *msg),
		  "malformed PATH_ADD reply: command " + std::to_string(RDMABLK_CMD_ATTACH) +
			  ", expected " + std::to_string(RDMABLK_CMD_PATH_ADD));
}

class ParseDeviceMissing : public testing::TestWithParam<MissingAttr> {};

TEST_P(ParseDeviceMissing, NamesTheMissingAttribute)
{
	const Msg msg = test::kernel_reply(
		RDMABLK_CMD_DEV_GET,
		without(test::device_attrs(test::example_device()), GetParam().absent));
	EXPECT_EQ(malformed(parse_device, *msg),
		  std::string("malformed DEV_GET reply: attribute ") + GetParam().name +
			  " is missing");
}

INSTANTIATE_TEST_SUITE_P(
	EachMandatory, ParseDeviceMissing,
	testing::Values(MissingAttr{RDMABLK_ATTR_DEV_INDEX, "DEV_INDEX"},
			MissingAttr{RDMABLK_ATTR_DEV_NAME, "DEV_NAME"},
			MissingAttr{RDMABLK_ATTR_ADDR, "ADDR"},
			MissingAttr{RDMABLK_ATTR_PORT, "PORT"},
			MissingAttr{RDMABLK_ATTR_EXPORT_NAME, "EXPORT_NAME"},
			MissingAttr{RDMABLK_ATTR_UUID, "UUID"},
			MissingAttr{RDMABLK_ATTR_SIZE, "SIZE"},
			MissingAttr{RDMABLK_ATTR_LOGICAL_BLOCK_SIZE, "LOGICAL_BLOCK_SIZE"},
			MissingAttr{RDMABLK_ATTR_PHYSICAL_BLOCK_SIZE, "PHYSICAL_BLOCK_SIZE"},
			MissingAttr{RDMABLK_ATTR_NR_QUEUES, "NR_QUEUES"},
			MissingAttr{RDMABLK_ATTR_QUEUE_DEPTH, "QUEUE_DEPTH"},
			MissingAttr{RDMABLK_ATTR_DEV_STATE, "DEV_STATE"}),
	[](const auto &p) { return std::string(p.param.name); });

class ParseDeviceBadAttr : public testing::TestWithParam<BadAttr> {};

TEST_P(ParseDeviceBadAttr, NamesTheAttribute)
{
	const BadAttr &c = GetParam();
	const Msg msg = test::kernel_reply(
		RDMABLK_CMD_DEV_GET,
		with_payload(test::device_attrs(test::example_device()), c.type, c.payload));
	EXPECT_EQ(malformed(parse_device, *msg),
		  std::string("malformed DEV_GET reply: attribute ") + c.problem);
}

INSTANTIATE_TEST_SUITE_P(
	Table, ParseDeviceBadAttr,
	testing::Values(BadAttr{"short_uuid", RDMABLK_ATTR_UUID, std::vector<std::uint8_t>(8),
				 "UUID has 8 bytes, expected 16"},
			BadAttr{"u16_index", RDMABLK_ATTR_DEV_INDEX, std::vector<std::uint8_t>(2),
				 "DEV_INDEX has 2 bytes, expected 4"},
			BadAttr{"u32_port", RDMABLK_ATTR_PORT, std::vector<std::uint8_t>(4),
				 "PORT has 4 bytes, expected 2"},
			BadAttr{"port_zero", RDMABLK_ATTR_PORT, std::vector<std::uint8_t>(2),
				 "PORT is 0"},
			BadAttr{"u64_state", RDMABLK_ATTR_DEV_STATE, std::vector<std::uint8_t>(8),
				 "DEV_STATE has 8 bytes, expected 4"},
			BadAttr{"unterminated_name", RDMABLK_ATTR_DEV_NAME,
				 std::vector<std::uint8_t>{'r', 'd'},
				 "DEV_NAME is not NUL-terminated"},
			BadAttr{"u16_ctrl_loss_tmo", RDMABLK_ATTR_CTRL_LOSS_TMO,
				 std::vector<std::uint8_t>(2),
				 "CTRL_LOSS_TMO has 2 bytes, expected 4"},
			BadAttr{"u64_next_attempt", RDMABLK_ATTR_NEXT_ATTEMPT_MS,
				 std::vector<std::uint8_t>(8),
				 "NEXT_ATTEMPT_MS has 8 bytes, expected 4"},
			BadAttr{"u64_reconnects", RDMABLK_ATTR_RECONNECTS,
				 std::vector<std::uint8_t>(8),
				 "RECONNECTS has 8 bytes, expected 4"}),
	[](const auto &p) { return std::string(p.param.name); });

TEST(ParseEvent, ListenerAdded)
{
	const Msg msg = test::listener_event(RDMABLK_EVENT_LISTENER_ADDED, {"192.0.2.1", 7471});
	EXPECT_EQ(parse_event(*msg),
		  event_of(RDMABLK_EVENT_LISTENER_ADDED, Endpoint{"192.0.2.1", 7471}));
}

TEST(ParseEvent, ListenerRemoved)
{
	const Msg msg = test::listener_event(RDMABLK_EVENT_LISTENER_REMOVED, {"::1", 1});
	EXPECT_EQ(parse_event(*msg), event_of(RDMABLK_EVENT_LISTENER_REMOVED, Endpoint{"::1", 1}));
}

TEST(ParseEvent, ListenerEventWithoutAddrIsMalformed)
{
	const Msg msg = kernel_msg(RDMABLK_CMD_EVENT);
	put_u32(*msg, RDMABLK_ATTR_EVENT, RDMABLK_EVENT_LISTENER_ADDED);
	put_u16(*msg, RDMABLK_ATTR_PORT, 7471);
	EXPECT_EQ(malformed(parse_event, *msg),
		  "malformed EVENT notification: attribute ADDR is missing");
}

TEST(ParseEvent, WithoutTypeIsMalformed)
{
	const Msg msg = kernel_msg(RDMABLK_CMD_EVENT);
	EXPECT_EQ(malformed(parse_event, *msg),
		  "malformed EVENT notification: attribute EVENT is missing");
}

TEST(ParseEvent, UnknownTypeWithoutObjectIsKept)
{
	const Msg msg = kernel_msg(RDMABLK_CMD_EVENT);
	put_u32(*msg, RDMABLK_ATTR_EVENT, RDMABLK_EVENT_MAX + 1);
	EXPECT_EQ(parse_event(*msg), event_of(RDMABLK_EVENT_MAX + 1));
}

TEST(ParseEvent, OtherObjectsAreNotListeners)
{
	const Msg msg = test::export_event(RDMABLK_EVENT_EXPORT_ADDED, {"disk0", Uuid{}});
	put_string(*msg, RDMABLK_ATTR_ADDR, "192.0.2.1");
	put_u16(*msg, RDMABLK_ATTR_PORT, 7471);
	EXPECT_EQ(parse_event(*msg).listener, std::nullopt);
}

class ParseExportEvent : public testing::TestWithParam<std::uint32_t> {};

TEST_P(ParseExportEvent, NamesTheExport)
{
	const ExportRef exp{"disk0", test::example_uuid()};
	const Msg msg = test::export_event(GetParam(), exp);
	EXPECT_EQ(parse_event(*msg), event_of(GetParam(), std::nullopt, exp));
}

INSTANTIATE_TEST_SUITE_P(AddedAndRemoved, ParseExportEvent,
			 testing::Values(RDMABLK_EVENT_EXPORT_ADDED, RDMABLK_EVENT_EXPORT_REMOVED));

TEST(ParseEvent, ExportEventWithoutUuidIsMalformed)
{
	const Msg msg = kernel_msg(RDMABLK_CMD_EVENT);
	put_u32(*msg, RDMABLK_ATTR_EVENT, RDMABLK_EVENT_EXPORT_REMOVED);
	put_string(*msg, RDMABLK_ATTR_EXPORT_NAME, "disk0");
	EXPECT_EQ(malformed(parse_event, *msg),
		  "malformed EVENT notification: attribute UUID is missing");
}

TEST(ParseEvent, ExportEventWithAShortUuidIsMalformed)
{
	const Msg msg = kernel_msg(RDMABLK_CMD_EVENT);
	put_u32(*msg, RDMABLK_ATTR_EVENT, RDMABLK_EVENT_EXPORT_ADDED);
	put_string(*msg, RDMABLK_ATTR_EXPORT_NAME, "disk0");
	put_attr(*msg, RDMABLK_ATTR_UUID, "0123456789abcde", 15);
	EXPECT_EQ(malformed(parse_event, *msg),
		  "malformed EVENT notification: attribute UUID has 15 bytes, expected 16");
}

class ParseDeviceEvent : public testing::TestWithParam<std::uint32_t> {};

TEST_P(ParseDeviceEvent, DescribesTheDevice)
{
	Device dev = test::example_device();
	dev.state = RDMABLK_DEV_DEAD;
	const Msg msg = test::device_event(GetParam(), dev);
	EXPECT_EQ(parse_event(*msg), event_of(GetParam(), std::nullopt, std::nullopt, dev));
}

INSTANTIATE_TEST_SUITE_P(EachDeviceEvent, ParseDeviceEvent,
			 testing::Values(RDMABLK_EVENT_DEVICE_ATTACHED,
					 RDMABLK_EVENT_DEVICE_DETACHED,
					 RDMABLK_EVENT_DEVICE_STATE,
					 RDMABLK_EVENT_DEVICE_RESIZED));

class ParsePathEvent : public testing::TestWithParam<std::uint32_t> {};

TEST_P(ParsePathEvent, DescribesTheDeviceAndNamesThePath)
{
	const Device dev = test::example_multipath_device();
	const Msg msg = test::path_event(GetParam(), dev, 1);
	Event expected = event_of(GetParam(), std::nullopt, std::nullopt, dev);
	expected.path_id = 1;
	EXPECT_EQ(parse_event(*msg), expected);
}

TEST_P(ParsePathEvent, WithoutThePathIsMalformed)
{
	const Msg msg = test::device_event(GetParam(), test::example_multipath_device());
	EXPECT_EQ(malformed(parse_event, *msg),
		  "malformed EVENT notification: attribute PATH_ID is missing");
}

INSTANTIATE_TEST_SUITE_P(EachPathEvent, ParsePathEvent,
			 testing::Values(RDMABLK_EVENT_PATH_ADDED, RDMABLK_EVENT_PATH_REMOVED,
					 RDMABLK_EVENT_PATH_STATE, RDMABLK_EVENT_PATH_FAILOVER));

TEST(ParseEvent, OnlyPathEventsNameAPath)
{
	const Msg msg = test::path_event(RDMABLK_EVENT_DEVICE_STATE, test::example_device(), 0);
	EXPECT_EQ(parse_event(*msg).path_id, std::nullopt);
}

TEST(ParseEvent, ReadsTheReason)
{
	Device dev = test::example_device();
	dev.state = RDMABLK_DEV_RECONNECTING;
	dev.reconnect_attempt = 1;
	const Msg msg = test::device_event(RDMABLK_EVENT_DEVICE_STATE, dev);
	put_string(*msg, RDMABLK_ATTR_REASON, "keep-alive timeout");
	Event expected = event_of(RDMABLK_EVENT_DEVICE_STATE, std::nullopt, std::nullopt, dev);
	expected.reason = "keep-alive timeout";
	EXPECT_EQ(parse_event(*msg), expected);
}

TEST(ParseEvent, RejectsAnUnterminatedReason)
{
	const Msg msg = test::device_event(RDMABLK_EVENT_DEVICE_STATE, test::example_device());
	put_attr(*msg, RDMABLK_ATTR_REASON, "why", 3);
	EXPECT_EQ(malformed(parse_event, *msg),
		  "malformed EVENT notification: attribute REASON is not NUL-terminated");
}

TEST(ParseEvent, DeviceEventWithoutTheDeviceIsMalformed)
{
	/* A device event carrying only a listener's attributes. */
	const Msg msg = test::listener_event(RDMABLK_EVENT_DEVICE_ATTACHED, {"192.0.2.1", 7471});
	EXPECT_EQ(malformed(parse_event, *msg),
		  "malformed EVENT notification: attribute DEV_INDEX is missing");
}

TEST(ParseNotification, SkipsOtherFamiliesAndCommands)
{
	const Msg other_family = kernel_msg(RDMABLK_CMD_EVENT, test::family_id + 1);
	put_u32(*other_family, RDMABLK_ATTR_EVENT, RDMABLK_EVENT_LISTENER_ADDED);
	EXPECT_EQ(parse_notification(*other_family, test::family_id), std::nullopt);

	const Msg other_cmd = kernel_msg(RDMABLK_CMD_MAX + 1);
	EXPECT_EQ(parse_notification(*other_cmd, test::family_id), std::nullopt);
}

TEST(ParseNotification, ParsesEvents)
{
	const Msg msg = test::listener_event(RDMABLK_EVENT_LISTENER_ADDED, {"192.0.2.1", 7471});
	EXPECT_EQ(parse_notification(*msg, test::family_id),
		  event_of(RDMABLK_EVENT_LISTENER_ADDED, Endpoint{"192.0.2.1", 7471}));
}

TEST(ParseNotification, StillRejectsMalformedEvents)
{
	const Msg msg = kernel_msg(RDMABLK_CMD_EVENT);
	put_u16(*msg, RDMABLK_ATTR_EVENT, RDMABLK_EVENT_LISTENER_ADDED);
	EXPECT_THROW(parse_notification(*msg, test::family_id), MalformedMessage);
}

} // namespace
} // namespace rdmablk::nl
