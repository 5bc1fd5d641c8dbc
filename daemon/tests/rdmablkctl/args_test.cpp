// SPDX-License-Identifier: GPL-2.0
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <utility>

#include "args.hpp"
#include "temp_dir.hpp"

namespace rdmablk::rdmablkctl {
namespace {

using nlohmann::json;

std::string message_of(const std::function<void()> &f)
{
	try {
		f();
	} catch (const std::invalid_argument &e) {
		return e.what();
	}
	return "(no exception)";
}

TEST(Args, Endpoints)
{
	EXPECT_EQ(endpoint_args("192.0.2.1"), json({{"address", "192.0.2.1"}, {"port", 7471}}));
	EXPECT_EQ(endpoint_args("192.0.2.1:4420"),
		  json({{"address", "192.0.2.1"}, {"port", 4420}}));
	EXPECT_EQ(endpoint_args("[2001:db8::1]:9"),
		  json({{"address", "2001:db8::1"}, {"port", 9}}));
	EXPECT_EQ(endpoint_args("fe80::1%eth0"),
		  json({{"address", "fe80::1%eth0"}, {"port", 7471}}));
	EXPECT_EQ(message_of([] { endpoint_args("x"); }),
		  "invalid address \"x\": not an IPv4 or IPv6 address");
	EXPECT_EQ(message_of([] { endpoint_args("192.0.2.1:0"); }),
		  "invalid address \"192.0.2.1:0\": port must be 1 to 65535");
	EXPECT_THROW(endpoint_args("192.0.2.1:65536"), std::invalid_argument);
	EXPECT_THROW(endpoint_args(""), std::invalid_argument);
}

TEST(Args, ExportNames)
{
	EXPECT_EQ(export_name("db0"), "db0");
	EXPECT_EQ(export_name("a.b_c:d-e"), "a.b_c:d-e");
	EXPECT_EQ(export_name(std::string(63, 'n')), std::string(63, 'n'));
	EXPECT_EQ(message_of([] { export_name(std::string(64, 'n')); }),
		  "invalid export name \"" + std::string(64, 'n') +
			  "\": longer than 63 characters");
	EXPECT_EQ(message_of([] { export_name("db 0"); }),
		  "invalid export name \"db 0\": only letters, digits and . _ : - are allowed");
	EXPECT_EQ(message_of([] { export_name(""); }), "empty export name");
}

TEST(Args, ExportPathsBecomeAbsolute)
{
	EXPECT_EQ(export_path("/dev/nullb0"), "/dev/nullb0");
	EXPECT_EQ(export_path("/dev/../dev/nullb0"), "/dev/nullb0");
	EXPECT_EQ(export_path("disk.img"), (std::filesystem::current_path() / "disk.img").string());
	EXPECT_THROW(export_path(""), std::invalid_argument);
	EXPECT_THROW(export_path("/" + std::string(300, 'p')), std::invalid_argument);
}

TEST(Args, Uuids)
{
	EXPECT_EQ(uuid_arg("6B1A0C2E-0000-4000-8000-00000000000A"),
		  "6b1a0c2e-0000-4000-8000-00000000000a");
	EXPECT_THROW(uuid_arg("6b1a0c2e"), std::invalid_argument);
	EXPECT_THROW(uuid_arg("6b1a0c2e-0000-4000-8000-00000000000g"), std::invalid_argument);
}

TEST(Args, Devices)
{
	EXPECT_EQ(device_path("0"), "/dev/rdmablk0");
	EXPECT_EQ(device_path("rdmablk12"), "/dev/rdmablk12");
	EXPECT_EQ(device_path("/dev/rdmablk3"), "/dev/rdmablk3");
	EXPECT_EQ(message_of([] { device_path("sda"); }),
		  "invalid device \"sda\": expected /dev/rdmablkN, rdmablkN, N, or a link to "
		  "/dev/rdmablkN such as /dev/rdmablk/NAME");
	EXPECT_EQ(message_of([] { device_path("rdmablk0p1"); }),
		  "invalid device \"rdmablk0p1\": expected /dev/rdmablkN, rdmablkN, N, or a link "
		  "to /dev/rdmablkN such as /dev/rdmablk/NAME");
	EXPECT_EQ(message_of([] { device_path("/dev/rdmablk99999999999"); }),
		  "invalid device \"/dev/rdmablk99999999999\": device number out of range");
}

/*
 * A /dev of regular files and the links udev makes (relative, as udev makes
 * them): what a path leads to is checked by name, so no device node is needed.
 */
class DevicePaths : public testing::Test {
protected:
	void SetUp() override
	{
		namespace fs = std::filesystem;
		for (const char *d : {"dev/rdmablk", "dev/disk/by-id", "elsewhere"})
			fs::create_directories(root_ / d);
		for (const char *f : {"dev/rdmablk0", "dev/rdmablk0p1", "dev/rdmablk12", "dev/sda",
				      "elsewhere/rdmablk3"})
			std::ofstream(root_ / f).put('\n');
		const std::pair<const char *, const char *> links[] = {
			{"dev/rdmablk/db0", "../rdmablk0"},
			{"dev/rdmablk/db0-part1", "../rdmablk0p1"},
			{"dev/rdmablk/db.1:x", "../rdmablk12"},
			{"dev/disk/by-id/rdmablk-db0-6b1a0c2e-0000-4000-8000-00000000000a",
			 "../../rdmablk0"},
			{"dev/by-chain", "rdmablk/db0"},
			{"dev/rdmablk/gone", "../rdmablk9"},
			{"dev/rdmablk/sda", "../sda"},
			{"dev/rdmablk/elsewhere", "../../elsewhere/rdmablk3"},
			{"dev/rdmablk/loop", "loop"},
		};
		for (const auto &[link, target] : links)
			fs::create_symlink(target, root_ / link);
	}

	std::string path(const char *relative) const { return (root_ / relative).string(); }
	std::string resolve(const char *relative) const
	{
		return device_path(path(relative), dev_);
	}
	std::string refusal(const char *relative) const
	{
		return message_of([&] { resolve(relative); });
	}

	TempDir tmp_;
	/* Resolved, as the messages show it. */
	const std::filesystem::path root_ = std::filesystem::canonical(tmp_.path());
	const std::filesystem::path dev_ = root_ / "dev";
};

TEST_F(DevicePaths, StableNamesLeadToTheDisk)
{
	EXPECT_EQ(resolve("dev/rdmablk/db0"), "/dev/rdmablk0");
	EXPECT_EQ(resolve("dev/rdmablk/db.1:x"), "/dev/rdmablk12");
	EXPECT_EQ(resolve("dev/disk/by-id/rdmablk-db0-6b1a0c2e-0000-4000-8000-00000000000a"),
		  "/dev/rdmablk0");
	EXPECT_EQ(resolve("dev/by-chain"), "/dev/rdmablk0");
	EXPECT_EQ(resolve("dev/rdmablk0"), "/dev/rdmablk0");
	EXPECT_EQ(resolve("dev/rdmablk/../rdmablk12"), "/dev/rdmablk12");
}

TEST_F(DevicePaths, KernelNamesAreTakenAsWritten)
{
	/* Not under dev_, and no such file: the name says which disk. */
	EXPECT_EQ(device_path("/dev/rdmablk7", dev_), "/dev/rdmablk7");
	EXPECT_EQ(device_path("rdmablk7", dev_), "/dev/rdmablk7");
	EXPECT_EQ(device_path("7", dev_), "/dev/rdmablk7");
}

TEST_F(DevicePaths, PartitionsAreRefused)
{
	EXPECT_EQ(refusal("dev/rdmablk/db0-part1"),
		  "invalid device \"" + path("dev/rdmablk/db0-part1") + "\": leads to " +
			  path("dev/rdmablk0p1") +
			  ", a partition of rdmablk0; give the disk itself, /dev/rdmablk0");
	EXPECT_EQ(refusal("dev/rdmablk0p1"),
		  "invalid device \"" + path("dev/rdmablk0p1") +
			  "\": a partition of rdmablk0; give the disk itself, /dev/rdmablk0");
}

TEST_F(DevicePaths, WhatIsNotAnRdmablkDiskIsRefused)
{
	const std::string expected =
		"; expected /dev/rdmablkN or a link to it such as /dev/rdmablk/NAME";
	EXPECT_EQ(refusal("dev/rdmablk/sda"), "invalid device \"" + path("dev/rdmablk/sda") +
						     "\": leads to " + path("dev/sda") +
						     ", not an rdmablk disk" + expected);
	EXPECT_EQ(refusal("dev/sda"),
		  "invalid device \"" + path("dev/sda") + "\": not an rdmablk disk" + expected);
	/* Named like a disk, but not among them. */
	EXPECT_EQ(refusal("dev/rdmablk/elsewhere"),
		  "invalid device \"" + path("dev/rdmablk/elsewhere") + "\": leads to " +
			  path("elsewhere/rdmablk3") + ", not an rdmablk disk" + expected);
	EXPECT_EQ(refusal("dev/rdmablk"),
		  "invalid device \"" + path("dev/rdmablk") + "\": not an rdmablk disk" + expected);
}

TEST_F(DevicePaths, MissingPathsAreRefused)
{
	const std::string expected =
		"no such file; expected /dev/rdmablkN or a link to it such as /dev/rdmablk/NAME";
	EXPECT_EQ(refusal("dev/rdmablk/db1"),
		  "invalid device \"" + path("dev/rdmablk/db1") + "\": " + expected);
	/* A link left behind by a detached disk. */
	EXPECT_EQ(refusal("dev/rdmablk/gone"),
		  "invalid device \"" + path("dev/rdmablk/gone") + "\": " + expected);
	EXPECT_EQ(refusal("dev/sda/x"),
		  "invalid device \"" + path("dev/sda/x") + "\": " + expected);
	EXPECT_EQ(refusal("dev/rdmablk/loop"),
		  "invalid device \"" + path("dev/rdmablk/loop") +
			  "\": cannot follow it: Too many levels of symbolic links");
}

TEST(Args, Integers)
{
	EXPECT_EQ(integer_arg("--queues", "4", 1, 64), 4);
	EXPECT_EQ(integer_arg("--queues", "64", 1, 64), 64);
	EXPECT_EQ(integer_arg("--ctrl-loss-tmo", "-1", 0, 604800, true), -1);
	EXPECT_EQ(integer_arg("--ctrl-loss-tmo", "0", 0, 604800, true), 0);
	EXPECT_EQ(message_of([] { integer_arg("--queues", "0", 1, 64); }),
		  "invalid --queues \"0\": expected an integer from 1 to 64");
	EXPECT_EQ(message_of([] { integer_arg("--queues", "-1", 1, 64); }),
		  "invalid --queues \"-1\": expected an integer from 1 to 64");
	EXPECT_EQ(message_of([] { integer_arg("--ctrl-loss-tmo", "-2", 0, 9, true); }),
		  "invalid --ctrl-loss-tmo \"-2\": expected -1 (off) or an integer from 0 to 9");
	for (const char *bad : {"", "x", "4x", " 4", "4.0", "+4", "99999999999999999999"})
		EXPECT_THROW(integer_arg("--queues", bad, 1, 64), std::invalid_argument) << bad;
}

} // namespace
} // namespace rdmablk::rdmablkctl
