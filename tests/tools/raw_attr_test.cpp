// SPDX-License-Identifier: GPL-2.0
#include <gtest/gtest.h>

#include <cstring>
#include <stdexcept>

#include <linux/rdmablk.h>

#include "nl/message.hpp"
#include "nl/requests.hpp"
#include "raw_attr.hpp"

namespace rdmablk::tool {
namespace {

struct Good {
	const char *spec;
	RawAttr attr;
};

class ParseRawAttrGood : public testing::TestWithParam<Good> {};

TEST_P(ParseRawAttrGood, Builds)
{
	EXPECT_EQ(parse_raw_attr(GetParam().spec), GetParam().attr) << GetParam().spec;
}

template <typename T> std::vector<std::uint8_t> bytes(T value)
{
	std::vector<std::uint8_t> b(sizeof(value));
	std::memcpy(b.data(), &value, sizeof(value));
	return b;
}

INSTANTIATE_TEST_SUITE_P(
	Table, ParseRawAttrGood,
	testing::Values(Good{"7:u16:7471", {7, bytes<std::uint16_t>(7471)}},
			Good{"PORT:u16:0x1d2f", {RDMABLK_ATTR_PORT, bytes<std::uint16_t>(0x1d2f)}},
			Good{"port:u32:70000", {RDMABLK_ATTR_PORT, bytes<std::uint32_t>(70000)}},
			Good{"0x4000:u8:255", {0x4000, {255}}},
			Good{"65535:u64:18446744073709551615",
			     {65535, bytes<std::uint64_t>(18446744073709551615ULL)}},
			Good{"ADDR:string:fe80::1%eth0",
			     {RDMABLK_ATTR_ADDR, {'f', 'e', '8', '0', ':', ':', '1', '%', 'e', 't',
						  'h', '0', 0}}},
			Good{"ADDR:string:", {RDMABLK_ATTR_ADDR, {0}}},
			Good{"ADDR:binary-hex:31322e33", {RDMABLK_ATTR_ADDR, {'1', '2', '.', '3'}}},
			Good{"99:binary-hex:", {99, {}}},
			Good{"99:binary-hex:DEADbeef", {99, {0xde, 0xad, 0xbe, 0xef}}},
			Good{"CTRL_LOSS_TMO:s32:-1",
			     {RDMABLK_ATTR_CTRL_LOSS_TMO, bytes<std::int32_t>(-1)}},
			Good{"26:s32:600", {26, bytes<std::int32_t>(600)}},
			Good{"1:s32:-2147483648", {1, bytes<std::int32_t>(-2147483647 - 1)}},
			Good{"1:s32:0x7fffffff", {1, bytes<std::int32_t>(0x7fffffff)}},
			Good{"QUEUES:nested:", {RDMABLK_ATTR_QUEUES | NLA_F_NESTED, {}}},
			Good{"ALLOWED_HOSTS:nested:0800120001020304",
			     {RDMABLK_ATTR_ALLOWED_HOSTS | NLA_F_NESTED,
			      {8, 0, 18, 0, 1, 2, 3, 4}}},
			Good{"0:flag", {0, {}}},
			Good{"READ_ONLY:flag:", {RDMABLK_ATTR_READ_ONLY, {}}}));

class ParseRawAttrBad : public testing::TestWithParam<const char *> {};

TEST_P(ParseRawAttrBad, Throws)
{
	EXPECT_THROW(parse_raw_attr(GetParam()), std::invalid_argument) << GetParam();
}

INSTANTIATE_TEST_SUITE_P(Table, ParseRawAttrBad,
			 testing::Values("", "7", "7:u16", "7:u16:", "7:u16:65536", "7:u16:-1",
					 "7:u8:256", "7:u32:x", "7:u128:1", "7:flag:1",
					 "7:binary-hex:abc", "7:binary-hex:zz", "65536:u8:1",
					 "NOPE:u8:1", ":u8:1", "7::1", "7:s32:2147483648",
					 "7:s32:-2147483649", "7:s32:-", "7:s32:--1", "7:s32:",
					 "7:nested:abc", "7:nested:xy"));

TEST(ParseRawAttr, SaysWhatIsWrong)
{
	try {
		parse_raw_attr("PORT:u16:70000");
		ADD_FAILURE() << "accepted";
	} catch (const std::invalid_argument &e) {
		EXPECT_STREQ(e.what(), "invalid attribute \"PORT:u16:70000\": \"70000\" is not a "
				       "number that fits in 16 bits");
	}
}

TEST(DescribeReply, DecodesKnownAttributes)
{
	const nl::Msg msg = nl::build_request(0x1d, RDMABLK_CMD_GET_INFO, 0);
	nl::put_string(*msg, RDMABLK_ATTR_MODULE_VERSION, "0.1.0");
	nl::put_u32(*msg, RDMABLK_ATTR_PROTO_VERSION, 1);
	nl::put_u64(*msg, RDMABLK_ATTR_FEATURES, 5);
	nl::put_u16(*msg, RDMABLK_ATTR_PORT, 7471);
	nl::put_attr(*msg, RDMABLK_ATTR_READ_ONLY, nullptr, 0);
	EXPECT_EQ(describe_reply(*msg),
		  (std::vector<std::string>{
			  "reply cmd=1 version=1",
			  "attr type=2 name=MODULE_VERSION len=6 value=0.1.0",
			  "attr type=4 name=PROTO_VERSION len=4 value=1",
			  "attr type=5 name=FEATURES len=8 value=5",
			  "attr type=7 name=PORT len=2 value=7471",
			  "attr type=13 name=READ_ONLY len=0 value=true",
		  }));
}

TEST(DescribeReply, ShowsWhatDoesNotDecodeAsHex)
{
	const nl::Msg msg = nl::build_request(0x1d, RDMABLK_CMD_LISTEN_GET, 0);
	nl::put_u32(*msg, RDMABLK_ATTR_PORT, 1);
	nl::put_attr(*msg, RDMABLK_ATTR_ADDR, "ab", 2);
	nl::put_u16(*msg, 999, 0x0102);
	nl::put_attr(*msg, RDMABLK_ATTR_UUID, "\x01\xff", 2);
	EXPECT_EQ(describe_reply(*msg), (std::vector<std::string>{
						"reply cmd=4 version=1",
						"attr type=7 name=PORT len=4 hex=01000000",
						"attr type=6 name=ADDR len=2 hex=6162",
						"attr type=999 name=unknown len=2 hex=0201",
						"attr type=12 name=UUID len=2 hex=01ff",
					}));
}

TEST(DescribeReply, DecodesS32AndShowsWhatIsNested)
{
	const nl::Msg msg = nl::build_request(0x1d, RDMABLK_CMD_DEV_GET, 0);
	nl::put_s32(*msg, RDMABLK_ATTR_CTRL_LOSS_TMO, -1);
	nlattr *queues = nl::start_nest(*msg, RDMABLK_ATTR_QUEUES);
	nlattr *queue = nl::start_nest(*msg, RDMABLK_ATTR_QUEUE);
	nl::put_u32(*msg, RDMABLK_ATTR_QUEUE_ID, 0);
	nl::put_u64(*msg, RDMABLK_ATTR_QUEUE_COMMANDS, 7);
	nl::end_nest(*msg, *queue);
	nl::end_nest(*msg, *queues);
	nl::start_nest(*msg, RDMABLK_ATTR_ALLOWED_HOSTS);
	nl::put_attr(*msg, RDMABLK_ATTR_QUEUE, "\x01\x02\x03\x04", 4);
	EXPECT_EQ(describe_reply(*msg),
		  (std::vector<std::string>{
			  "reply cmd=11 version=1",
			  "attr type=26 name=CTRL_LOSS_TMO len=4 value=-1",
			  "attr type=34 name=QUEUES len=24 nested",
			  "  attr type=35 name=QUEUE len=20 nested",
			  "    attr type=36 name=QUEUE_ID len=4 value=0",
			  "    attr type=38 name=QUEUE_COMMANDS len=8 value=7",
			  "attr type=24 name=ALLOWED_HOSTS len=0 nested",
			  "attr type=35 name=QUEUE len=4 hex=01020304",
		  }));
}

TEST(DescribeReply, DecodesU8s)
{
	const nl::Msg msg = nl::build_request(0x1d, RDMABLK_CMD_DEV_GET, 0);
	nlattr *path = nl::start_nest(*msg, RDMABLK_ATTR_PATH);
	nl::put_u8(*msg, RDMABLK_ATTR_PATH_STANDBY, 1);
	nl::end_nest(*msg, *path);
	nl::put_u16(*msg, RDMABLK_ATTR_PATH_STANDBY, 1);
	EXPECT_EQ(describe_reply(*msg),
		  (std::vector<std::string>{
			  "reply cmd=11 version=1",
			  "attr type=" + std::to_string(RDMABLK_ATTR_PATH) +
				  " name=PATH len=8 nested",
			  "  attr type=" + std::to_string(RDMABLK_ATTR_PATH_STANDBY) +
				  " name=PATH_STANDBY len=1 value=1",
			  "attr type=" + std::to_string(RDMABLK_ATTR_PATH_STANDBY) +
				  " name=PATH_STANDBY len=2 hex=0100",
		  }));
}

TEST(DescribeReply, ReportsATruncatedMessage)
{
	const nl::Msg msg = nl::alloc_msg();
	ASSERT_NE(nlmsg_put(msg.get(), 0, 0, 0x1d, 0, 0), nullptr);
	EXPECT_EQ(describe_reply(*msg), (std::vector<std::string>{"reply truncated len=16"}));
}

} // namespace
} // namespace rdmablk::tool
