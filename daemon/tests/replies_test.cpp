// SPDX-License-Identifier: GPL-2.0
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <linux/rdmablk.h>

#include "fake_kernel.hpp"
#include "nl/error.hpp"
#include "nl/replies.hpp"

namespace rdmablk::nl {
namespace {

using test::kernel_msg;
using testing::HasSubstr;

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

TEST(ParseEvent, ListenerAdded)
{
	const Msg msg = test::listener_event(RDMABLK_EVENT_LISTENER_ADDED, {"192.0.2.1", 7471});
	EXPECT_EQ(parse_event(*msg),
		  (Event{RDMABLK_EVENT_LISTENER_ADDED, Endpoint{"192.0.2.1", 7471}}));
}

TEST(ParseEvent, ListenerRemoved)
{
	const Msg msg = test::listener_event(RDMABLK_EVENT_LISTENER_REMOVED, {"::1", 1});
	EXPECT_EQ(parse_event(*msg), (Event{RDMABLK_EVENT_LISTENER_REMOVED, Endpoint{"::1", 1}}));
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
	EXPECT_EQ(parse_event(*msg), (Event{RDMABLK_EVENT_MAX + 1, std::nullopt}));
}

TEST(ParseEvent, OtherObjectsAreNotListeners)
{
	const Msg msg = test::listener_event(RDMABLK_EVENT_DEVICE_ATTACHED, {"192.0.2.1", 7471});
	EXPECT_EQ(parse_event(*msg), (Event{RDMABLK_EVENT_DEVICE_ATTACHED, std::nullopt}));
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
		  (Event{RDMABLK_EVENT_LISTENER_ADDED, Endpoint{"192.0.2.1", 7471}}));
}

TEST(ParseNotification, StillRejectsMalformedEvents)
{
	const Msg msg = kernel_msg(RDMABLK_CMD_EVENT);
	put_u16(*msg, RDMABLK_ATTR_EVENT, RDMABLK_EVENT_LISTENER_ADDED);
	EXPECT_THROW(parse_notification(*msg, test::family_id), MalformedMessage);
}

} // namespace
} // namespace rdmablk::nl
