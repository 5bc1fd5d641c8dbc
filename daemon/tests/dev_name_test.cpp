// SPDX-License-Identifier: GPL-2.0
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "nl/dev_name.hpp"

namespace rdmablk::nl {
namespace {

TEST(ParseDevIndex, AcceptsTheThreeSpellings)
{
	EXPECT_EQ(parse_dev_index("0"), 0u);
	EXPECT_EQ(parse_dev_index("7"), 7u);
	EXPECT_EQ(parse_dev_index("rdmablk12"), 12u);
	EXPECT_EQ(parse_dev_index("/dev/rdmablk3"), 3u);
	EXPECT_EQ(parse_dev_index("4294967295"), 4294967295u);
}

/* The message parse_dev_index() rejects @text with. */
std::string error_of(const char *text)
{
	try {
		parse_dev_index(text);
	} catch (const std::invalid_argument &e) {
		return e.what();
	}
	ADD_FAILURE() << '"' << text << "\" accepted";
	return {};
}

class ParseDevIndexBad : public testing::TestWithParam<const char *> {};

TEST_P(ParseDevIndexBad, QuotesTheText)
{
	const std::string quoted = "invalid device \"" + std::string(GetParam()) + "\": ";
	EXPECT_EQ(error_of(GetParam()).rfind(quoted, 0), 0u) << error_of(GetParam());
}

INSTANTIATE_TEST_SUITE_P(Table, ParseDevIndexBad,
			 testing::Values("", "rdmablk", "/dev/rdmablk", "sda", "/dev/sda1",
					 "rdmablk-1", "-1", "+1", "1 ", "rdmablk1p1",
					 "dev/rdmablk1", "/dev/rdmablk/1", "0x1", "4294967296"));

TEST(ParseDevIndex, SaysWhatIsWrong)
{
	EXPECT_EQ(error_of("sda"), "invalid device \"sda\": expected N, rdmablkN or /dev/rdmablkN");
	EXPECT_EQ(error_of("rdmablk99999999999"),
		  "invalid device \"rdmablk99999999999\": device number out of range");
}

} // namespace
} // namespace rdmablk::nl
