// SPDX-License-Identifier: GPL-2.0
#include <gtest/gtest.h>

#include "engine/retry.hpp"

namespace rdmablk::daemon {
namespace {

using std::chrono::seconds;

TEST(Backoff, DoublesFromInitialUpToMax)
{
	const Backoff b{seconds(1), seconds(60)};
	const long expected[] = {1, 2, 4, 8, 16, 32, 60, 60, 60};
	for (unsigned i = 0; i < std::size(expected); i++)
		EXPECT_EQ(b.delay(i + 1), seconds(expected[i])) << "failure " << i + 1;
	EXPECT_EQ(b.delay(1000000), seconds(60));
	EXPECT_EQ(b.delay(0), seconds(1));
}

TEST(Backoff, MaxBelowTheNextDoublingCaps)
{
	const Backoff b{seconds(5), seconds(12)};
	EXPECT_EQ(b.delay(1), seconds(5));
	EXPECT_EQ(b.delay(2), seconds(10));
	EXPECT_EQ(b.delay(3), seconds(12));
	const Backoff flat{seconds(7), seconds(7)};
	EXPECT_EQ(flat.delay(9), seconds(7));
}

TEST(RetryBook, UnknownKeysAreDue)
{
	RetryBook book;
	EXPECT_TRUE(book.due("x", Time{}));
	EXPECT_FALSE(book.next_due());
}

TEST(RetryBook, FailuresWaitLongerEachTime)
{
	RetryBook book;
	const Backoff b{seconds(1), seconds(4)};
	const Time t0{seconds(100)};
	book.failed("x", "refused", t0, b);
	EXPECT_FALSE(book.due("x", t0));
	EXPECT_TRUE(book.due("x", t0 + seconds(1)));
	EXPECT_EQ(book.next_due(), t0 + seconds(1));
	book.failed("x", "refused again", t0, b);
	book.failed("x", "and again", t0, b);
	EXPECT_EQ(book.find("x")->attempts, 3u);
	EXPECT_EQ(book.find("x")->last_error, "and again");
	EXPECT_EQ(book.next_due(), t0 + seconds(4));
	book.clear("x");
	EXPECT_TRUE(book.due("x", t0));
}

TEST(RetryBook, TriedEntriesWaitForTheOutcome)
{
	RetryBook book;
	const Backoff b{seconds(2), seconds(60)};
	book.tried("dev");
	EXPECT_FALSE(book.due("dev", Time{seconds(1000)}));
	EXPECT_FALSE(book.next_due());
	book.schedule("dev", Time{seconds(10)}, b);
	EXPECT_EQ(book.next_due(), Time{seconds(12)});
	book.tried("dev");
	book.schedule("dev", Time{seconds(20)}, b);
	EXPECT_EQ(book.next_due(), Time{seconds(24)});
	book.hold("dev");
	EXPECT_FALSE(book.next_due());
	EXPECT_EQ(book.find("dev")->attempts, 2u);
}

TEST(RetryBook, RetainForgetsWhatIsNotConfigured)
{
	RetryBook book;
	const Backoff b;
	book.failed("a", "", Time{}, b);
	book.failed("b", "", Time{}, b);
	book.retain({"b", "c"});
	EXPECT_FALSE(book.find("a"));
	EXPECT_TRUE(book.find("b"));
}

TEST(RetryKeys, AddressesAreCanonical)
{
	EXPECT_EQ(listener_key({"2001:0db8::0:1", 7471}), listener_key({"2001:db8::1", 7471}));
	EXPECT_EQ(attachment_key({"192.0.2.1", 7471}, "db0"), "attachment 192.0.2.1:7471 db0");
	EXPECT_NE(attachment_key({"192.0.2.1", 7471}, "db0"),
		  attachment_key({"192.0.2.1", 7472}, "db0"));
	EXPECT_EQ(export_key("db0"), "export db0");
}

} // namespace
} // namespace rdmablk::daemon
