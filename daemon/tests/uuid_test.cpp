// SPDX-License-Identifier: GPL-2.0
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "nl/uuid.hpp"

namespace rdmablk::nl {
namespace {

constexpr Uuid example{{0x0f, 0x1e, 0x2d, 0x3c, 0x4b, 0x5a, 0x49, 0x68, 0x87, 0x76, 0xa5, 0xb4,
			0xc3, 0xd2, 0xe1, 0xf0}};

int version_of(const Uuid &uuid)
{
	return uuid.bytes[6] >> 4;
}

/* The two top bits of byte 8: 0b10 for RFC 4122. */
int variant_of(const Uuid &uuid)
{
	return uuid.bytes[8] >> 6;
}

TEST(Uuid, PrintsLowercaseCanonicalForm)
{
	EXPECT_EQ(to_string(example), "0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0");
	EXPECT_EQ(to_string(Uuid{}), "00000000-0000-0000-0000-000000000000");
}

struct Good {
	const char *text;
	Uuid uuid;
};

std::ostream &operator<<(std::ostream &os, const Good &c)
{
	return os << '"' << c.text << '"';
}

class ParseUuidGood : public testing::TestWithParam<Good> {};

TEST_P(ParseUuidGood, Parses)
{
	EXPECT_EQ(parse_uuid(GetParam().text), GetParam().uuid);
}

INSTANTIATE_TEST_SUITE_P(
	Table, ParseUuidGood,
	testing::Values(Good{"0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0", example},
			Good{"0F1E2D3C-4B5A-4968-8776-A5B4C3D2E1F0", example},
			Good{"0f1E2d3C-4b5A-4968-8776-a5B4c3D2e1F0", example},
			Good{"00000000-0000-0000-0000-000000000000", Uuid{}},
			Good{"ffffffff-ffff-ffff-ffff-ffffffffffff",
			     Uuid{{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
				   0xff, 0xff, 0xff, 0xff, 0xff}}}));

struct Bad {
	const char *text;
	std::string error;
};

std::ostream &operator<<(std::ostream &os, const Bad &c)
{
	return os << '"' << c.text << '"';
}

class ParseUuidBad : public testing::TestWithParam<Bad> {};

TEST_P(ParseUuidBad, SaysWhatIsWrong)
{
	try {
		parse_uuid(GetParam().text);
		ADD_FAILURE() << "accepted";
	} catch (const std::invalid_argument &e) {
		EXPECT_EQ(e.what(), "invalid UUID \"" + std::string(GetParam().text) +
					    "\": " + GetParam().error);
	}
}

std::string wrong_length(std::size_t got)
{
	return "expected xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx (36 characters), got " +
	       std::to_string(got) + " characters";
}

INSTANTIATE_TEST_SUITE_P(
	Table, ParseUuidBad,
	testing::Values(Bad{"", wrong_length(0)},
			/* The 32 digits alone are not the canonical form. */
			Bad{"0f1e2d3c4b5a49688776a5b4c3d2e1f0", wrong_length(32)},
			Bad{"0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f", wrong_length(35)},
			Bad{"0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f00", wrong_length(37)},
			Bad{"{0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0}", wrong_length(38)},
			Bad{"0f1e2d3c4-b5a-4968-8776-a5b4c3d2e1f0", "expected '-' at position 9"},
			Bad{"0f1e2d3c-4b5a-4968-8776a-5b4c3d2e1f0", "expected '-' at position 24"},
			Bad{"0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1-0",
			    "not a hex digit at position 35"},
			Bad{"0f1e2d3g-4b5a-4968-8776-a5b4c3d2e1f0",
			    "not a hex digit at position 8"},
			Bad{"0x1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0",
			    "not a hex digit at position 2"},
			Bad{"0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f ",
			    "not a hex digit at position 36"}));

TEST(Uuid, RoundTripsThroughText)
{
	EXPECT_EQ(parse_uuid(to_string(example)), example);
}

TEST(Uuid, V4BitsKeepTheRest)
{
	const Uuid ones{{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
			 0xff, 0xff, 0xff, 0xff}};
	EXPECT_EQ(to_string(with_v4_bits(ones)), "ffffffff-ffff-4fff-bfff-ffffffffffff");
	EXPECT_EQ(to_string(with_v4_bits(Uuid{})), "00000000-0000-4000-8000-000000000000");
}

TEST(GenerateUuid, IsVersion4WithTheRfc4122Variant)
{
	for (int i = 0; i < 32; i++) {
		const Uuid uuid = generate_uuid();
		EXPECT_EQ(version_of(uuid), 4) << to_string(uuid);
		EXPECT_EQ(variant_of(uuid), 0b10) << to_string(uuid);
	}
}

TEST(GenerateUuid, TwoCallsDiffer)
{
	EXPECT_NE(generate_uuid(), generate_uuid());
}

} // namespace
} // namespace rdmablk::nl
