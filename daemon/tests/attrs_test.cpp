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

} // namespace
} // namespace rdmablk::nl
