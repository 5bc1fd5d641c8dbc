// SPDX-License-Identifier: GPL-2.0
#include <gtest/gtest.h>

#include "text.hpp"

namespace rdmablk::rdmablkctl {
namespace {

using nlohmann::json;

TEST(Text, HumanSizes)
{
	EXPECT_EQ(human_size(0), "0B");
	EXPECT_EQ(human_size(512), "512B");
	EXPECT_EQ(human_size(1024), "1.0K");
	EXPECT_EQ(human_size(1536), "1.5K");
	EXPECT_EQ(human_size(256ull << 20), "256.0M");
	EXPECT_EQ(human_size(5033164), "4.8M");
	EXPECT_EQ(human_size((1ull << 30) - 1), "1.0G");
	EXPECT_EQ(human_size(3ull << 40), "3.0T");
	EXPECT_EQ(human_size(~0ull), "16.0E");
}

TEST(Text, Seconds)
{
	EXPECT_EQ(seconds_text(10), "10 s");
	EXPECT_EQ(seconds_text(0), "0 s");
	EXPECT_EQ(seconds_text(-1), "off");
	EXPECT_EQ(ms_to_s(0), 0);
	EXPECT_EQ(ms_to_s(1), 1);
	EXPECT_EQ(ms_to_s(10000), 10);
	EXPECT_EQ(ms_to_s(10001), 11);
	EXPECT_EQ(ms_to_s(-5), 0);
}

TEST(Text, FieldsAreReadLeniently)
{
	const json object = {{"s", "x"}, {"n", 5}, {"b", true}, {"z", nullptr}};
	EXPECT_EQ(text_field(object, "s"), "x");
	EXPECT_EQ(text_field(object, "n"), "5");
	EXPECT_FALSE(text_field(object, "z"));
	EXPECT_FALSE(text_field(object, "missing"));
	EXPECT_FALSE(text_field(json::array(), "s"));
	EXPECT_EQ(int_field(object, "n"), 5);
	EXPECT_FALSE(int_field(object, "s"));
	EXPECT_TRUE(bool_field(object, "b"));
	EXPECT_FALSE(bool_field(object, "n"));
	EXPECT_FALSE(bool_field(nullptr, "b"));
}

TEST(Text, Targets)
{
	EXPECT_EQ(target_text({{"address", "192.0.2.1"}, {"port", 7471}}), "192.0.2.1:7471");
	EXPECT_EQ(target_text({{"address", "2001:db8::1"}, {"port", 7471}}), "[2001:db8::1]:7471");
	EXPECT_EQ(target_text({{"address", "192.0.2.1"}}), "192.0.2.1");
	EXPECT_EQ(target_text(json::object()), "-");
}

TEST(Text, TablesAlignColumns)
{
	EXPECT_EQ(table({"A", "BB", "C"}, {{"xxx", "y", "z"}, {"1", "22", "333"}}),
		  "A    BB  C\n"
		  "xxx  y   z\n"
		  "1    22  333\n");
	EXPECT_EQ(table({"A", "B"}, {}), "A  B\n");
}

TEST(Text, TableAlignsNumbersRight)
{
	EXPECT_EQ(table({"NAME", "r/s", "n"}, {{"a", "1.00", "7"}, {"bbbbbb", "1000.00", "12"}}, 1),
		  "NAME        r/s   n\n"
		  "a          1.00   7\n"
		  "bbbbbb  1000.00  12\n");
}

} // namespace
} // namespace rdmablk::rdmablkctl
