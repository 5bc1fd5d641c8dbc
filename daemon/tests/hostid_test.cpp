// SPDX-License-Identifier: GPL-2.0
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "nl/error.hpp"
#include "nl/hostid.hpp"

namespace rdmablk::nl {
namespace {

using testing::HasSubstr;

class ReadHostid : public testing::Test {
protected:
	void SetUp() override
	{
		std::string tmpl =
			(std::filesystem::temp_directory_path() / "hostid.XXXXXX").string();
		ASSERT_NE(mkdtemp(tmpl.data()), nullptr) << std::strerror(errno);
		dir_ = tmpl;
		hostid_ = (dir_ / "hostid").string();
		machine_id_ = (dir_ / "machine-id").string();
	}

	void TearDown() override
	{
		if (!dir_.empty())
			std::filesystem::remove_all(dir_);
	}

	static void write(const std::string &path, std::string_view content)
	{
		std::ofstream(path) << content;
	}

	/* The message of the std::runtime_error read_hostid() must raise. */
	std::string failure()
	{
		try {
			read_hostid(hostid_, machine_id_);
		} catch (const std::runtime_error &e) {
			return e.what();
		}
		ADD_FAILURE() << "host ID read";
		return {};
	}

	std::filesystem::path dir_;
	std::string hostid_;
	std::string machine_id_;
};

TEST_F(ReadHostid, PrefersTheHostidFile)
{
	write(hostid_, "0F1E2D3C-4B5A-4968-8776-A5B4C3D2E1F0\n");
	write(machine_id_, "3d1219c7c4c5404aaa1f6d2a48adfda4\n");
	EXPECT_EQ(to_string(read_hostid(hostid_, machine_id_)),
		  "0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0");
}

TEST_F(ReadHostid, TakesTheHostidFileAsWritten)
{
	/* No version bits are forced on a UUID the administrator chose. */
	write(hostid_, "  00000000-0000-0000-0000-000000000001  \n\n");
	EXPECT_EQ(to_string(read_hostid(hostid_, machine_id_)),
		  "00000000-0000-0000-0000-000000000001");
}

TEST_F(ReadHostid, RejectsAMalformedHostidFile)
{
	write(hostid_, "not-a-uuid\n");
	write(machine_id_, "3d1219c7c4c5404aaa1f6d2a48adfda4\n");
	EXPECT_EQ(failure(), hostid_ + ": invalid UUID \"not-a-uuid\": expected "
				       "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx (36 characters), "
				       "got 10 characters");
}

TEST_F(ReadHostid, RejectsAnEmptyHostidFile)
{
	write(hostid_, "\n");
	EXPECT_THAT(failure(), HasSubstr(hostid_ + ": invalid UUID \"\""));
}

TEST_F(ReadHostid, DerivesAStableV4UuidFromTheMachineId)
{
	write(machine_id_, "3d1219c7c4c5404aaa1f6d2a48adfda4\n");
	const Uuid first = read_hostid(hostid_, machine_id_);
	EXPECT_EQ(to_string(first), "3d1219c7-c4c5-404a-aa1f-6d2a48adfda4");
	EXPECT_EQ(read_hostid(hostid_, machine_id_), first);

	/* Only the version and variant bits change. */
	write(machine_id_, "ffffffffffffffffffffffffffffffff");
	EXPECT_EQ(to_string(read_hostid(hostid_, machine_id_)),
		  "ffffffff-ffff-4fff-bfff-ffffffffffff");
}

TEST_F(ReadHostid, RejectsAMalformedMachineId)
{
	const std::string expected = machine_id_ + ": not a machine ID: expected 32 hex digits";
	for (const char *content :
	     {"", "3d1219c7c4c5404aaa1f6d2a48adfda", "3d1219c7c4c5404aaa1f6d2a48adfda4a",
	      "3d1219c7-c4c5-404a-aa1f-6d2a48adfda4", "3d1219c7c4c5404aaa1f6d2a48adfdag"}) {
		write(machine_id_, content);
		EXPECT_EQ(failure(), expected) << '"' << content << '"';
	}
}

TEST_F(ReadHostid, FailsWithoutEitherFile)
{
	try {
		read_hostid(hostid_, machine_id_);
		ADD_FAILURE() << "host ID read";
	} catch (const Error &e) {
		EXPECT_EQ(e.errnum(), ENOENT);
		EXPECT_EQ(std::string(e.what()), "no host ID: neither " + hostid_ + " nor " +
							 machine_id_ +
							 " exists: No such file or directory");
	}
}

TEST_F(ReadHostid, ReportsAnUnreadableFile)
{
	/* A directory opens but cannot be read. */
	std::filesystem::create_directory(hostid_);
	try {
		read_hostid(hostid_, machine_id_);
		ADD_FAILURE() << "host ID read";
	} catch (const Error &e) {
		EXPECT_EQ(e.errnum(), EISDIR);
		EXPECT_EQ(e.context(), "reading " + hostid_);
	}
}

} // namespace
} // namespace rdmablk::nl
