// SPDX-License-Identifier: GPL-2.0
#include <gtest/gtest.h>

#include "ctl/framer.hpp"
#include "ctl/protocol.hpp"

namespace rdmablk::ctl {
namespace {

TEST(LineFramer, NothingUntilNewline)
{
	LineFramer framer;
	EXPECT_FALSE(framer.next_line());
	framer.feed("{\"ok\":");
	EXPECT_FALSE(framer.next_line());
	EXPECT_EQ(framer.buffered(), 6u);
	framer.feed("true}\n");
	EXPECT_EQ(framer.next_line(), "{\"ok\":true}");
	EXPECT_FALSE(framer.next_line());
	EXPECT_EQ(framer.buffered(), 0u);
}

TEST(LineFramer, SeveralLinesInOneChunk)
{
	LineFramer framer;
	framer.feed("a\nbb\n\nccc");
	EXPECT_EQ(framer.next_line(), "a");
	EXPECT_EQ(framer.next_line(), "bb");
	EXPECT_EQ(framer.next_line(), "");
	EXPECT_FALSE(framer.next_line());
	framer.feed("\n");
	EXPECT_EQ(framer.next_line(), "ccc");
}

TEST(LineFramer, ByteByByte)
{
	LineFramer framer;
	const std::string text = "hello\nworld\n";
	std::vector<std::string> lines;
	for (char c : text) {
		framer.feed(std::string_view(&c, 1));
		while (auto line = framer.next_line())
			lines.push_back(*line);
	}
	EXPECT_EQ(lines, (std::vector<std::string>{"hello", "world"}));
}

TEST(LineFramer, LineOfExactlyTheLimitIsAccepted)
{
	LineFramer framer;
	framer.feed(std::string(max_line, 'x'));
	EXPECT_FALSE(framer.next_line());
	framer.feed("\n");
	const auto line = framer.next_line();
	ASSERT_TRUE(line);
	EXPECT_EQ(line->size(), max_line);
}

TEST(LineFramer, OverlongPartialLineThrows)
{
	LineFramer framer;
	framer.feed(std::string(max_line, 'x'));
	EXPECT_FALSE(framer.next_line());
	framer.feed("y");
	EXPECT_THROW(framer.next_line(), ProtocolError);
	EXPECT_EQ(framer.buffered(), 0u);
}

TEST(LineFramer, OverlongCompleteLineThrows)
{
	LineFramer framer;
	framer.feed(std::string(max_line + 1, 'x') + "\nok\n");
	EXPECT_THROW(framer.next_line(), ProtocolError);
}

} // namespace
} // namespace rdmablk::ctl
