// SPDX-License-Identifier: GPL-2.0
#include <gtest/gtest.h>

#include <set>
#include <string>

#include <linux/rdmablk.h>

#include "fake_kernel.hpp"
#include "nl/attrs.hpp"
#include "nl/error.hpp"

namespace rdmablk::nl {
namespace {

TEST(AttrSpec, DescribesEveryAttributeOfTheUapi)
{
	std::set<std::string_view> names;
	for (unsigned int type = RDMABLK_ATTR_UNSPEC + 1; type <= RDMABLK_ATTR_MAX; type++) {
		const AttrSpec *spec = attr_spec(type);
		ASSERT_NE(spec, nullptr) << "attribute " << type;
		EXPECT_TRUE(names.insert(spec->name).second) << spec->name << " named twice";
		EXPECT_EQ(attr_by_name(spec->name), type);
	}
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_UNSPEC), nullptr);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_MAX + 1), nullptr);
}

TEST(AttrSpec, MatchesTheTypesTheUapiDocuments)
{
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_MODULE_VERSION)->type, AttrType::string);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_GENL_VERSION)->type, AttrType::u32);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_PROTO_VERSION)->type, AttrType::u32);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_FEATURES)->type, AttrType::u64);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_ADDR)->type, AttrType::string);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_ADDR)->len, RDMABLK_ADDR_MAX_LEN);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_PORT)->type, AttrType::u16);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_LISTENER_STATE)->type, AttrType::u32);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_EVENT)->type, AttrType::u32);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_EXPORT_NAME)->len, RDMABLK_EXPORT_NAME_MAX);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_EXPORT_PATH)->len, RDMABLK_PATH_MAX);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_UUID)->type, AttrType::binary);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_UUID)->len, RDMABLK_UUID_SIZE);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_HOSTID)->len, RDMABLK_UUID_SIZE);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_READ_ONLY)->type, AttrType::flag);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_SIZE)->type, AttrType::u64);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_DEV_NAME)->type, AttrType::string);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_DEV_STATE)->type, AttrType::u32);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_ALLOWED_HOSTS)->type, AttrType::nested);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_RECONNECT_DELAY)->type, AttrType::u32);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_CTRL_LOSS_TMO)->type, AttrType::s32);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_FAST_IO_FAIL_TMO)->type, AttrType::s32);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_KEEPALIVE_TMO)->type, AttrType::u32);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_RECONNECT_ATTEMPT)->type, AttrType::u32);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_RECONNECT_MAX)->type, AttrType::u32);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_NEXT_ATTEMPT_MS)->type, AttrType::u32);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_LAST_ERROR)->type, AttrType::string);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_REASON)->type, AttrType::string);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_QUEUES)->type, AttrType::nested);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_QUEUE)->type, AttrType::nested);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_QUEUE_ID)->type, AttrType::u32);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_QUEUE_STATE)->type, AttrType::u32);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_QUEUE_COMMANDS)->type, AttrType::u64);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_QUEUE_ERRORS)->type, AttrType::u64);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_QUEUE_COMPLETED)->type, AttrType::u64);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_QUEUE_REQUEUED)->type, AttrType::u64);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_QUEUE_READ_BYTES)->type, AttrType::u64);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_QUEUE_WRITE_BYTES)->type, AttrType::u64);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_QUEUE_LATENCY_US)->type, AttrType::u64);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_RECONNECTS)->type, AttrType::u32);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_NR_POLL_QUEUES)->type, AttrType::u32);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_MP_POLICY)->type, AttrType::u32);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_PATHS)->type, AttrType::nested);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_PATH)->type, AttrType::nested);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_PATH_ID)->type, AttrType::u32);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_PATH_STATE)->type, AttrType::u32);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_PATH_STANDBY)->type, AttrType::u8);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_PATH_INFLIGHT)->type, AttrType::u32);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_PATH_LATENCY_US)->type, AttrType::u64);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_PATH_FAILOVERS)->type, AttrType::u32);
	EXPECT_EQ(attr_spec(RDMABLK_ATTR_PATH_FAILOVER_AGE_MS)->type, AttrType::u64);
}

TEST(AttrSpec, LooksUpNamesCaseInsensitively)
{
	EXPECT_EQ(attr_by_name("port"), RDMABLK_ATTR_PORT);
	EXPECT_EQ(attr_by_name("Listener_State"), RDMABLK_ATTR_LISTENER_STATE);
	EXPECT_EQ(attr_by_name("POR"), std::nullopt);
	EXPECT_EQ(attr_by_name(""), std::nullopt);
}

TEST(Attrs, ReadsUuidsAndFlags)
{
	const Msg msg = test::kernel_reply(
		RDMABLK_CMD_EXPORT_GET, {test::uuid_attr(RDMABLK_ATTR_UUID, test::example_uuid()),
					 test::flag_attr(RDMABLK_ATTR_READ_ONLY)});
	const Attrs attrs(*msg, RDMABLK_CMD_EXPORT_GET, "EXPORT_GET reply");
	EXPECT_EQ(attrs.uuid(RDMABLK_ATTR_UUID), test::example_uuid());
	EXPECT_TRUE(attrs.flag(RDMABLK_ATTR_READ_ONLY));
}

TEST(Attrs, AnAbsentFlagIsFalseAnAbsentUuidMalformed)
{
	const Msg msg = test::kernel_msg(RDMABLK_CMD_EXPORT_GET);
	const Attrs attrs(*msg, RDMABLK_CMD_EXPORT_GET, "EXPORT_GET reply");
	EXPECT_FALSE(attrs.flag(RDMABLK_ATTR_READ_ONLY));
	EXPECT_THROW(attrs.uuid(RDMABLK_ATTR_HOSTID), MalformedMessage);
}

TEST(Attrs, ReadingAsTheWrongTypeIsABug)
{
	const Msg msg = test::kernel_reply(RDMABLK_CMD_EXPORT_GET,
					   {test::u32_attr(RDMABLK_ATTR_NR_CONNECTIONS, 1)});
	const Attrs attrs(*msg, RDMABLK_CMD_EXPORT_GET, "EXPORT_GET reply");
	EXPECT_THROW(attrs.flag(RDMABLK_ATTR_NR_CONNECTIONS), std::logic_error);
	EXPECT_THROW(attrs.uuid(RDMABLK_ATTR_PAD), std::logic_error);
	EXPECT_THROW(attrs.u32(RDMABLK_ATTR_UUID), std::logic_error);
}

TEST(Attrs, ReadsNegativeS32s)
{
	const Msg msg = test::kernel_reply(RDMABLK_CMD_DEV_GET,
					   {test::s32_attr(RDMABLK_ATTR_CTRL_LOSS_TMO, -1),
					    test::s32_attr(RDMABLK_ATTR_FAST_IO_FAIL_TMO, 30)});
	const Attrs attrs(*msg, RDMABLK_CMD_DEV_GET, "DEV_GET reply");
	EXPECT_EQ(attrs.s32(RDMABLK_ATTR_CTRL_LOSS_TMO), -1);
	EXPECT_EQ(attrs.optional_s32(RDMABLK_ATTR_FAST_IO_FAIL_TMO), 30);
}

TEST(Attrs, ReadsU8s)
{
	const Msg msg = test::kernel_reply(RDMABLK_CMD_DEV_GET,
					   {test::u8_attr(RDMABLK_ATTR_PATH_STANDBY, 1)});
	const Attrs attrs(*msg, RDMABLK_CMD_DEV_GET, "DEV_GET reply");
	EXPECT_EQ(attrs.u8(RDMABLK_ATTR_PATH_STANDBY), 1u);
	EXPECT_THROW(attrs.u8(RDMABLK_ATTR_PORT), std::logic_error);

	const Msg absent = test::kernel_msg(RDMABLK_CMD_DEV_GET);
	EXPECT_THROW(Attrs(*absent, RDMABLK_CMD_DEV_GET, "DEV_GET reply")
			     .u8(RDMABLK_ATTR_PATH_STANDBY),
		     MalformedMessage);
}

TEST(Attrs, RejectsAWrongSizeS32)
{
	const Msg msg = test::kernel_reply(RDMABLK_CMD_DEV_GET,
					   {test::u64_attr(RDMABLK_ATTR_CTRL_LOSS_TMO, 1)});
	try {
		Attrs(*msg, RDMABLK_CMD_DEV_GET, "DEV_GET reply");
		ADD_FAILURE() << "accepted";
	} catch (const MalformedMessage &e) {
		EXPECT_STREQ(e.what(), "malformed DEV_GET reply: attribute CTRL_LOSS_TMO has 8 "
				       "bytes, expected 4");
	}
}

TEST(Attrs, OptionalAccessorsGiveNulloptForAbsentAttributes)
{
	const Msg msg = test::kernel_reply(RDMABLK_CMD_DEV_GET,
					   {test::string_attr(RDMABLK_ATTR_LAST_ERROR, "gone"),
					    test::u32_attr(RDMABLK_ATTR_RECONNECT_MAX, 0),
					    test::u64_attr(RDMABLK_ATTR_QUEUE_COMPLETED, 1ULL << 40)});
	const Attrs attrs(*msg, RDMABLK_CMD_DEV_GET, "DEV_GET reply");
	EXPECT_EQ(attrs.optional_string(RDMABLK_ATTR_LAST_ERROR), "gone");
	EXPECT_EQ(attrs.optional_string(RDMABLK_ATTR_REASON), std::nullopt);
	EXPECT_EQ(attrs.optional_u32(RDMABLK_ATTR_RECONNECT_MAX), 0u);
	EXPECT_EQ(attrs.optional_u32(RDMABLK_ATTR_RECONNECT_ATTEMPT), std::nullopt);
	EXPECT_EQ(attrs.optional_s32(RDMABLK_ATTR_CTRL_LOSS_TMO), std::nullopt);
	EXPECT_EQ(attrs.optional_u64(RDMABLK_ATTR_QUEUE_COMPLETED), 1ULL << 40);
	EXPECT_EQ(attrs.optional_u64(RDMABLK_ATTR_QUEUE_LATENCY_US), std::nullopt);
	EXPECT_THROW(attrs.optional_u32(RDMABLK_ATTR_CTRL_LOSS_TMO), std::logic_error);
	EXPECT_THROW(attrs.optional_u64(RDMABLK_ATTR_RECONNECTS), std::logic_error);
}

TEST(Attrs, ReadsUuidArrays)
{
	const Msg msg = test::kernel_reply(
		RDMABLK_CMD_EXPORT_GET,
		{test::nested_attr(RDMABLK_ATTR_ALLOWED_HOSTS,
				   {test::uuid_attr(RDMABLK_ATTR_HOSTID, test::example_hostid()),
				    test::u32_attr(RDMABLK_ATTR_MAX + 1, 7),
				    test::uuid_attr(RDMABLK_ATTR_HOSTID, test::example_uuid())})});
	const Attrs attrs(*msg, RDMABLK_CMD_EXPORT_GET, "EXPORT_GET reply");
	EXPECT_EQ(attrs.uuids(RDMABLK_ATTR_ALLOWED_HOSTS, RDMABLK_ATTR_HOSTID),
		  (std::vector<Uuid>{test::example_hostid(), test::example_uuid()}));
}

TEST(Attrs, AnAbsentOrEmptyArrayHasNoElements)
{
	const Msg msg = test::kernel_reply(RDMABLK_CMD_DEV_GET,
					   {test::nested_attr(RDMABLK_ATTR_QUEUES, {})});
	const Attrs attrs(*msg, RDMABLK_CMD_DEV_GET, "DEV_GET reply");
	EXPECT_TRUE(attrs.nests(RDMABLK_ATTR_QUEUES, RDMABLK_ATTR_QUEUE).empty());
	EXPECT_TRUE(attrs.uuids(RDMABLK_ATTR_ALLOWED_HOSTS, RDMABLK_ATTR_HOSTID).empty());
}

TEST(Attrs, ReadsNestedArrays)
{
	const Msg msg = test::kernel_reply(
		RDMABLK_CMD_DEV_GET,
		{test::nested_attr(RDMABLK_ATTR_QUEUES,
				   {test::nested_attr(RDMABLK_ATTR_QUEUE,
						      {test::u32_attr(RDMABLK_ATTR_QUEUE_ID, 0)}),
				    test::nested_attr(RDMABLK_ATTR_QUEUE,
						      {test::u32_attr(RDMABLK_ATTR_QUEUE_ID, 1),
						       test::u64_attr(RDMABLK_ATTR_QUEUE_ERRORS, 9)})})});
	const Attrs attrs(*msg, RDMABLK_CMD_DEV_GET, "DEV_GET reply");
	const std::vector<Attrs> queues = attrs.nests(RDMABLK_ATTR_QUEUES, RDMABLK_ATTR_QUEUE);
	ASSERT_EQ(queues.size(), 2u);
	EXPECT_EQ(queues[0].u32(RDMABLK_ATTR_QUEUE_ID), 0u);
	EXPECT_THROW(queues[0].u64(RDMABLK_ATTR_QUEUE_ERRORS), MalformedMessage);
	EXPECT_EQ(queues[1].u32(RDMABLK_ATTR_QUEUE_ID), 1u);
	EXPECT_EQ(queues[1].u64(RDMABLK_ATTR_QUEUE_ERRORS), 9u);
}

/* The MalformedMessage text reading @msg's @type array of @element raises. */
std::string malformed_array(nl_msg &msg, rdmablk_attr type, rdmablk_attr element)
{
	const Attrs attrs(msg, RDMABLK_CMD_DEV_GET, "DEV_GET reply");
	try {
		if (attr_spec(element)->type == AttrType::nested)
			attrs.nests(type, element);
		else
			attrs.uuids(type, element);
	} catch (const MalformedMessage &e) {
		return e.what();
	}
	ADD_FAILURE() << "accepted";
	return {};
}

TEST(Attrs, ChecksArrayElements)
{
	const Msg short_uuid = test::kernel_reply(
		RDMABLK_CMD_DEV_GET,
		{test::nested_attr(RDMABLK_ATTR_ALLOWED_HOSTS,
				   {test::RawAttr{RDMABLK_ATTR_HOSTID, std::vector<std::uint8_t>(15)}})});
	EXPECT_EQ(malformed_array(*short_uuid, RDMABLK_ATTR_ALLOWED_HOSTS, RDMABLK_ATTR_HOSTID),
		  "malformed DEV_GET reply: attribute HOSTID has 15 bytes, expected 16");

	const Msg bad_inner = test::kernel_reply(
		RDMABLK_CMD_DEV_GET,
		{test::nested_attr(RDMABLK_ATTR_QUEUES,
				   {test::nested_attr(RDMABLK_ATTR_QUEUE,
						      {test::u16_attr(RDMABLK_ATTR_QUEUE_ID, 1)})})});
	EXPECT_EQ(malformed_array(*bad_inner, RDMABLK_ATTR_QUEUES, RDMABLK_ATTR_QUEUE),
		  "malformed DEV_GET reply: attribute QUEUE_ID has 2 bytes, expected 4");

	const Msg leftover = test::kernel_reply(
		RDMABLK_CMD_DEV_GET,
		{test::RawAttr{RDMABLK_ATTR_QUEUES, std::vector<std::uint8_t>{1, 2, 3, 4}}});
	EXPECT_EQ(malformed_array(*leftover, RDMABLK_ATTR_QUEUES, RDMABLK_ATTR_QUEUE),
		  "malformed DEV_GET reply: attribute QUEUES has 4 bytes after its last "
		  "attribute");
}

TEST(Attrs, ReadingArraysOfTheWrongTypeIsABug)
{
	const Msg msg = test::kernel_msg(RDMABLK_CMD_DEV_GET);
	const Attrs attrs(*msg, RDMABLK_CMD_DEV_GET, "DEV_GET reply");
	EXPECT_THROW(attrs.nests(RDMABLK_ATTR_UUID, RDMABLK_ATTR_QUEUE), std::logic_error);
	EXPECT_THROW(attrs.nests(RDMABLK_ATTR_QUEUES, RDMABLK_ATTR_QUEUE_ID), std::logic_error);
	EXPECT_THROW(attrs.uuids(RDMABLK_ATTR_ALLOWED_HOSTS, RDMABLK_ATTR_QUEUE), std::logic_error);
	EXPECT_THROW(attrs.s32(RDMABLK_ATTR_RECONNECT_DELAY), std::logic_error);
}

} // namespace
} // namespace rdmablk::nl
