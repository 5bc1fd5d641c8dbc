// SPDX-License-Identifier: GPL-2.0
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>

#include <linux/rdmablk.h>

#include "nl/endpoint.hpp"

namespace rdmablk::nl {
namespace {

struct Good {
	const char *text;
	const char *addr;
	std::optional<std::uint16_t> port;
};

std::ostream &operator<<(std::ostream &os, const Good &c)
{
	return os << '"' << c.text << '"';
}

class ParseAddrPortGood : public testing::TestWithParam<Good> {};

TEST_P(ParseAddrPortGood, Splits)
{
	const Good &c = GetParam();
	EXPECT_EQ(parse_addr_port(c.text), (AddrPort{c.addr, c.port}));
	EXPECT_EQ(parse_endpoint(c.text),
		  (Endpoint{c.addr, c.port.value_or(RDMABLK_DEFAULT_PORT)}));
}

INSTANTIATE_TEST_SUITE_P(
	Table, ParseAddrPortGood,
	testing::Values(Good{"192.0.2.1", "192.0.2.1", std::nullopt},
			Good{"192.0.2.1:4791", "192.0.2.1", 4791},
			Good{"0.0.0.0:1", "0.0.0.0", 1},
			Good{"127.0.0.1:65535", "127.0.0.1", 65535},
			Good{"10.0.0.1:007", "10.0.0.1", 7},
			Good{"::1", "::1", std::nullopt},
			Good{"2001:db8::1", "2001:db8::1", std::nullopt},
			/* Bare IPv6 never has a port: the last group is part of the address. */
			Good{"2001:db8::1:7471", "2001:db8::1:7471", std::nullopt},
			Good{"fe80::1%eth0", "fe80::1%eth0", std::nullopt},
			Good{"fe80::1%2", "fe80::1%2", std::nullopt},
			Good{"[::1]", "::1", std::nullopt},
			Good{"[::1]:7471", "::1", 7471},
			Good{"[2001:db8::1]:1", "2001:db8::1", 1},
			Good{"[fe80::1%eth0]:4420", "fe80::1%eth0", 4420},
			Good{"[::ffff:192.0.2.1]:80", "::ffff:192.0.2.1", 80}));

struct Bad {
	const char *text;
	const char *error;
};

std::ostream &operator<<(std::ostream &os, const Bad &c)
{
	return os << '"' << c.text << '"';
}

class ParseAddrPortBad : public testing::TestWithParam<Bad> {};

TEST_P(ParseAddrPortBad, SaysWhy)
{
	const Bad &c = GetParam();
	try {
		parse_addr_port(c.text);
		ADD_FAILURE() << "accepted";
	} catch (const std::invalid_argument &e) {
		EXPECT_EQ(std::string(e.what()), c.error);
	}
	EXPECT_THROW(parse_endpoint(c.text), std::invalid_argument);
}

INSTANTIATE_TEST_SUITE_P(
	Table, ParseAddrPortBad,
	testing::Values(
		Bad{"", "empty address"},
		Bad{"garbage", "invalid address \"garbage\": not an IPv4 or IPv6 address"},
		Bad{"localhost:7471", "invalid address \"localhost:7471\": not an IPv4 or IPv6 address"},
		Bad{"192.0.2", "invalid address \"192.0.2\": not an IPv4 or IPv6 address"},
		Bad{"192.0.2.256", "invalid address \"192.0.2.256\": not an IPv4 or IPv6 address"},
		Bad{"192.0.2.1:0", "invalid address \"192.0.2.1:0\": port must be 1 to 65535"},
		Bad{"192.0.2.1:70000", "invalid address \"192.0.2.1:70000\": port must be 1 to 65535"},
		Bad{"192.0.2.1:99999999999999999999",
		    "invalid address \"192.0.2.1:99999999999999999999\": port must be 1 to 65535"},
		Bad{"192.0.2.1:", "invalid address \"192.0.2.1:\": missing port"},
		Bad{"192.0.2.1:http", "invalid address \"192.0.2.1:http\": port is not a decimal number"},
		Bad{"192.0.2.1:-1", "invalid address \"192.0.2.1:-1\": port is not a decimal number"},
		Bad{"192.0.2.1: 80", "invalid address \"192.0.2.1: 80\": port is not a decimal number"},
		Bad{"192.0.2.1%eth0", "invalid address \"192.0.2.1%eth0\": a scope is only valid on IPv6 addresses"},
		Bad{":7471", "invalid address \":7471\": not an IPv4 or IPv6 address"},
		Bad{"[::1", "invalid address \"[::1\": missing ']'"},
		Bad{"[]:7471", "invalid address \"[]:7471\": empty brackets"},
		Bad{"[::1]7471", "invalid address \"[::1]7471\": expected ':PORT' after ']'"},
		Bad{"[::1]:", "invalid address \"[::1]:\": missing port"},
		Bad{"[::1]:0", "invalid address \"[::1]:0\": port must be 1 to 65535"},
		Bad{"[::1]:70000", "invalid address \"[::1]:70000\": port must be 1 to 65535"},
		Bad{"[192.0.2.1]:80", "invalid address \"[192.0.2.1]:80\": brackets are for IPv6 addresses only"},
		Bad{"[garbage]", "invalid address \"[garbage]\": not an IPv6 address"},
		Bad{"2001:db8::g", "invalid address \"2001:db8::g\": not an IPv6 address"},
		Bad{"1.2.3.4:80:90", "invalid address \"1.2.3.4:80:90\": not an IPv6 address"},
		Bad{"fe80::1%", "invalid address \"fe80::1%\": empty IPv6 scope after '%'"},
		Bad{"fe80::1%eth 0", "invalid address \"fe80::1%eth 0\": invalid character in IPv6 scope"},
		Bad{"fe80::1%averyveryverylongname",
		    "invalid address \"fe80::1%averyveryverylongname\": IPv6 scope longer than an interface name"}));

TEST(ParsePort, AcceptsTheWholeRange)
{
	EXPECT_EQ(parse_port("1"), 1);
	EXPECT_EQ(parse_port("7471"), 7471);
	EXPECT_EQ(parse_port("65535"), 65535);
}

TEST(ParsePort, RejectsOutOfRange)
{
	EXPECT_THROW(parse_port("0"), std::invalid_argument);
	EXPECT_THROW(parse_port("65536"), std::invalid_argument);
	EXPECT_THROW(parse_port(""), std::invalid_argument);
	EXPECT_THROW(parse_port("0x10"), std::invalid_argument);
	try {
		parse_port("70000");
		ADD_FAILURE() << "accepted";
	} catch (const std::invalid_argument &e) {
		EXPECT_STREQ(e.what(), "invalid port \"70000\": port must be 1 to 65535");
	}
}

TEST(EndpointToString, BracketsIPv6)
{
	EXPECT_EQ(to_string(Endpoint{"192.0.2.1", 7471}), "192.0.2.1:7471");
	EXPECT_EQ(to_string(Endpoint{"fe80::1%eth0", 1}), "[fe80::1%eth0]:1");
}

TEST(EndpointToString, RoundTrips)
{
	for (const Endpoint &e : {Endpoint{"192.0.2.1", 7471}, Endpoint{"2001:db8::1", 4420},
				  Endpoint{"fe80::1%eth0", 65535}})
		EXPECT_EQ(parse_endpoint(to_string(e)), e);
}

} // namespace
} // namespace rdmablk::nl
