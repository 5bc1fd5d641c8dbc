// SPDX-License-Identifier: GPL-2.0
/*
 * Files rdmablkd writes: atomically, with the right modes; the host id.
 */
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include "config/atomic_file.hpp"
#include "host_identity.hpp"
#include "temp_dir.hpp"

namespace rdmablk::daemon {
namespace {

class Files : public ::testing::Test {
protected:
	static std::string read(const std::filesystem::path &p)
	{
		std::ifstream in(p);
		return {std::istreambuf_iterator<char>(in), {}};
	}
	static unsigned mode(const std::filesystem::path &p)
	{
		struct stat st;
		return ::stat(p.c_str(), &st) == 0 ? st.st_mode & 07777 : 0;
	}

	test::TempDir dir_{"files"};
};

TEST_F(Files, WriteAtomicReplacesWholeFiles)
{
	make_dirs((dir_ / "a" / "b").string(), 0755);
	EXPECT_EQ(mode(dir_ / "a"), 0755u);
	const auto file = dir_ / "a" / "b" / "f";
	write_atomic(file.string(), "one\n", 0600);
	write_atomic(file.string(), "two\n", 0644);
	EXPECT_EQ(read(file), "two\n");
	EXPECT_EQ(mode(file), 0644u);
	EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir_ / "a" / "b"),
				std::filesystem::directory_iterator()),
		  1);
}

TEST_F(Files, WriteAtomicIntoAMissingDirectoryFails)
{
	EXPECT_THROW(write_atomic((dir_ / "none" / "f").string(), "x", 0644), std::system_error);
}

TEST_F(Files, ParentDir)
{
	EXPECT_EQ(parent_dir("/etc/rdmablk/hostid"), "/etc/rdmablk");
	EXPECT_EQ(parent_dir("/hostid"), "/");
	EXPECT_EQ(parent_dir("hostid"), ".");
}

TEST_F(Files, HostIdIsCreatedOnceAndKept)
{
	const std::string path = (dir_ / "etc" / "hostid").string();
	const HostIdentity first = ensure_hostid(path);
	EXPECT_TRUE(first.created);
	EXPECT_EQ(mode(path), 0644u);
	EXPECT_EQ(read(path), nl::to_string(first.id) + "\n");
	EXPECT_EQ(first.id.bytes[6] >> 4, 4) << "a version 4 UUID";
	const HostIdentity second = ensure_hostid(path);
	EXPECT_FALSE(second.created);
	EXPECT_EQ(second.id, first.id);
}

TEST_F(Files, HostIdFileWithGarbageIsAnError)
{
	std::filesystem::create_directories(dir_.path());
	std::ofstream(dir_ / "hostid") << "not a uuid\n";
	EXPECT_THROW(ensure_hostid((dir_ / "hostid").string()), std::runtime_error);
}

} // namespace
} // namespace rdmablk::daemon
