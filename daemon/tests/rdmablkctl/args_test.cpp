// SPDX-License-Identifier: GPL-2.0
#include <gtest/gtest.h>

#include <filesystem>
#include <stdexcept>

#include "args.hpp"

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
		  "invalid device \"sda\": expected N, rdmablkN or /dev/rdmablkN");
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
