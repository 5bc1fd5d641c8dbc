// SPDX-License-Identifier: GPL-2.0
#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>

#include <netlink/errno.h>

#include "nl/error.hpp"

namespace rdmablk::nl {
namespace {

TEST(Error, ReadsContextReasonAndExtack)
{
	const Error e("adding listener 192.0.2.1:7471", EINVAL, "attribute PORT out of range");
	EXPECT_STREQ(e.what(), "adding listener 192.0.2.1:7471: Invalid argument: "
			       "attribute PORT out of range");
	EXPECT_EQ(e.errnum(), EINVAL);
	EXPECT_EQ(e.context(), "adding listener 192.0.2.1:7471");
	EXPECT_EQ(e.extack(), "attribute PORT out of range");
	EXPECT_STREQ(e.libnl_message(), nl_geterror(NLE_INVAL));
}

TEST(Error, LeavesOutAMissingExtack)
{
	const Error e("getting module info", EPERM);
	EXPECT_STREQ(e.what(), "getting module info: Operation not permitted");
	EXPECT_TRUE(e.extack().empty());
}

TEST(Error, MapsLibnlCodesToErrno)
{
	const Error e = Error::from_libnl("joining group", -NLE_PERM);
	EXPECT_EQ(e.errnum(), EPERM);
	EXPECT_STREQ(e.what(), "joining group: Operation not permitted");
	EXPECT_STREQ(e.libnl_message(), nl_geterror(NLE_PERM));
}

TEST(Error, FallsBackToLibnlTextWithoutErrno)
{
	const Error e = Error::from_libnl("listing listeners", -NLE_DUMP_INTR);
	EXPECT_EQ(e.errnum(), 0);
	EXPECT_EQ(std::string(e.what()), std::string("listing listeners: ") + nl_geterror(NLE_DUMP_INTR));
}

TEST(FamilyNotFound, TellsToLoadTheModule)
{
	const FamilyNotFound e;
	EXPECT_STREQ(e.what(),
		     "the rdmablk generic netlink family is not registered (is rdmablk.ko loaded?)");
	EXPECT_EQ(e.errnum(), ENOENT);
}

TEST(MalformedMessage, NamesMessageAndProblem)
{
	const MalformedMessage e("GET_INFO reply", "attribute PORT is 0");
	EXPECT_STREQ(e.what(), "malformed GET_INFO reply: attribute PORT is 0");
	EXPECT_EQ(e.errnum(), EBADMSG);
}

} // namespace
} // namespace rdmablk::nl
