// SPDX-License-Identifier: GPL-2.0
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <ostream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <type_traits>
#include <vector>

#include <sys/stat.h>

#include "../rdmablkctl/temp_dir.hpp"
#include "auth/key.hpp"

namespace rdmablk::auth {
namespace {

/*
 * The secrets 0x00, 0x01, ... of each length and their keys, computed apart
 * from this code:
 *
 *   python3 -c 'import base64, zlib, struct; s = bytes(range(32));
 *       print(base64.b64encode(s + struct.pack("<I", zlib.crc32(s))).decode())'
 *
 * 36, 52 and 68 bytes: no padding, "==" and "=".
 */
constexpr const char *key32 = "RDMABLK-1:01:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh+KfiaR:";
constexpr const char *key48 = "RDMABLK-1:02:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJy"
			      "gpKissLS4vcSEgBQ==:";
constexpr const char *key64 = "RDMABLK-1:03:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJy"
			      "gpKissLS4vMDEyMzQ1Njc4OTo7PD0+P4zODhA=:";

std::vector<std::uint8_t> counting(std::size_t n)
{
	std::vector<std::uint8_t> bytes(n);
	std::iota(bytes.begin(), bytes.end(), std::uint8_t{0});
	return bytes;
}

std::vector<std::uint8_t> bytes_of(const Key &key)
{
	return {key.secret().begin(), key.secret().end()};
}

bool all_zero(std::span<const std::uint8_t> bytes)
{
	return std::all_of(bytes.begin(), bytes.end(), [](std::uint8_t b) { return b == 0; });
}

/* The message of the Error @call throws; a failure, naming @what, when it throws none. */
template <typename Error, typename Call>
std::string error_of(const Call &call, const std::string &what)
{
	try {
		call();
	} catch (const Error &e) {
		return e.what();
	}
	ADD_FAILURE() << what << " did not fail";
	return {};
}

std::string parse_error(const std::string &text)
{
	return error_of<std::invalid_argument>([&] { parse_key(text); }, "parsing " + text);
}

TEST(Hash, NamesAndSizes)
{
	EXPECT_EQ(secret_size(Hash::sha256), 32u);
	EXPECT_EQ(secret_size(Hash::sha384), 48u);
	EXPECT_EQ(secret_size(Hash::sha512), 64u);
	for (Hash hash : {Hash::sha256, Hash::sha384, Hash::sha512})
		EXPECT_EQ(hash_from_name(hash_name(hash)), hash);
	EXPECT_EQ(hash_name(Hash::sha384), "sha384");
	EXPECT_EQ(hash_from_name("SHA256"), std::nullopt);
	EXPECT_EQ(hash_from_name("sha1"), std::nullopt);
	EXPECT_EQ(hash_from_name(""), std::nullopt);
}

struct Vector {
	Hash hash;
	const char *text;
};

class KeyVector : public testing::TestWithParam<Vector> {};

TEST_P(KeyVector, Prints)
{
	const Vector &v = GetParam();
	EXPECT_EQ(Key(v.hash, counting(secret_size(v.hash))).to_string(), v.text);
}

TEST_P(KeyVector, Parses)
{
	const Vector &v = GetParam();
	const Key key = parse_key(v.text);
	EXPECT_EQ(key.hash(), v.hash);
	EXPECT_EQ(bytes_of(key), counting(secret_size(v.hash)));
}

TEST_P(KeyVector, GeneratedKeysRoundTrip)
{
	const Hash hash = GetParam().hash;
	const Key key = generate_key(hash);
	EXPECT_EQ(key.hash(), hash);
	EXPECT_EQ(key.secret().size(), secret_size(hash));

	const std::string text = key.to_string();
	EXPECT_EQ(text.substr(0, 13), std::string(GetParam().text).substr(0, 13));
	EXPECT_EQ(text.size(), std::string(GetParam().text).size());
	const Key back = parse_key(text);
	EXPECT_EQ(back.hash(), hash);
	EXPECT_EQ(bytes_of(back), bytes_of(key));

	/* 2^-256 and less that two are the same. */
	EXPECT_NE(bytes_of(generate_key(hash)), bytes_of(key));
}

INSTANTIATE_TEST_SUITE_P(Table, KeyVector,
			 testing::Values(Vector{Hash::sha256, key32}, Vector{Hash::sha384, key48},
					 Vector{Hash::sha512, key64}));

struct Bad {
	const char *what;
	std::string text;
	std::string error;
};

std::ostream &operator<<(std::ostream &os, const Bad &c)
{
	return os << c.what;
}

class ParseKeyBad : public testing::TestWithParam<Bad> {};

TEST_P(ParseKeyBad, Refused)
{
	const std::string error = parse_error(GetParam().text);
	EXPECT_EQ(error, GetParam().error);
	/* No part of the secret in the message. */
	EXPECT_EQ(error.find("AAEC"), std::string::npos);
	EXPECT_EQ(error.find("KfiaR"), std::string::npos);
}

const std::string k32 = key32;
/* key32's base64. */
const std::string b64 = k32.substr(13, k32.size() - 14);

constexpr const char *not_base64 =
	"the key's secret is not valid base64: the key is damaged, copy it again";
constexpr const char *bad_id =
	"the key's HMAC id, after \"RDMABLK-1:\", must be 01 (HMAC-SHA-256), "
	"02 (HMAC-SHA-384) or 03 (HMAC-SHA-512)";

INSTANTIATE_TEST_SUITE_P(
	Table, ParseKeyBad,
	testing::Values(
		Bad{"empty", "", "the key is empty"},
		Bad{"trailing newline", k32 + "\n",
		    "the key contains whitespace: a key is one word, copy it without spaces or "
		    "line breaks"},
		Bad{"leading space", " " + k32,
		    "the key contains whitespace: a key is one word, copy it without spaces or "
		    "line breaks"},
		Bad{"wrapped", "RDMABLK-1:01:" + b64.substr(0, 20) + "\n" + b64.substr(20) + ":",
		    "the key contains whitespace: a key is one word, copy it without spaces or "
		    "line breaks"},
		Bad{"no prefix", b64 + ":",
		    "not an rdmablk key: it does not start with \"RDMABLK-1:\""},
		Bad{"NVMe key", "DHHC-1:01:" + b64 + ":",
		    "not an rdmablk key: it does not start with \"RDMABLK-1:\""},
		Bad{"other version", "RDMABLK-2:01:" + b64 + ":",
		    "not an rdmablk key: it does not start with \"RDMABLK-1:\""},
		Bad{"lowercase prefix", "rdmablk-1:01:" + b64 + ":",
		    "the key must start with \"RDMABLK-1:\" in capital letters"},
		Bad{"prefix alone", "RDMABLK-1:", bad_id},
		Bad{"HH 04", "RDMABLK-1:04:" + b64 + ":", std::string(bad_id) + ", not 04"},
		Bad{"HH 00", "RDMABLK-1:00:" + b64 + ":", std::string(bad_id) + ", not 00"},
		Bad{"HH one digit", "RDMABLK-1:1:" + b64 + ":", bad_id},
		Bad{"HH three digits", "RDMABLK-1:001:" + b64 + ":", bad_id},
		Bad{"HH missing", "RDMABLK-1:" + b64 + ":", bad_id},
		Bad{"no final colon", k32.substr(0, k32.size() - 1),
		    "the key does not end with \":\": it was cut short, copy all of it"},
		Bad{"cut short", k32.substr(0, 30),
		    "the key does not end with \":\": it was cut short, copy all of it"},
		Bad{"HH and nothing else", "RDMABLK-1:01:",
		    "the key does not end with \":\": it was cut short, copy all of it"},
		Bad{"text after the colon", k32 + "x",
		    "the key has characters after its final \":\": copy the key alone"},
		Bad{"two final colons", k32 + ":",
		    "the key has characters after its final \":\": copy the key alone"},
		Bad{"empty base64", "RDMABLK-1:01::", not_base64},
		Bad{"not a base64 character",
		    "RDMABLK-1:01:" + b64.substr(0, 4) + "*" + b64.substr(5) + ":", not_base64},
		Bad{"base64url", "RDMABLK-1:01:" + b64.substr(0, 30) + "-" + b64.substr(31) + ":",
		    not_base64},
		Bad{"a character missing", "RDMABLK-1:01:" + b64.substr(1) + ":", not_base64},
		Bad{"padding inside",
		    "RDMABLK-1:01:" + b64.substr(0, 4) + "=" + b64.substr(5) + ":", not_base64},
		Bad{"three padding characters",
		    "RDMABLK-1:01:" + b64.substr(0, 41) + "===:", not_base64},
		Bad{"length of another HH", "RDMABLK-1:02:" + b64 + ":",
		    "the key's length does not match its HMAC id 02 (HMAC-SHA-384): it holds 36 "
		    "bytes, expected 52 (a 48-byte secret and its CRC-32)"},
		Bad{"too short", "RDMABLK-1:01:" + b64.substr(0, 44) + ":",
		    "the key's length does not match its HMAC id 01 (HMAC-SHA-256): it holds 33 "
		    "bytes, expected 36 (a 32-byte secret and its CRC-32)"},
		Bad{"too long", "RDMABLK-1:01:" + b64 + "AAAA:",
		    "the key's length does not match its HMAC id 01 (HMAC-SHA-256): it holds 39 "
		    "bytes, expected 36 (a 32-byte secret and its CRC-32)"},
		Bad{"secret changed", "RDMABLK-1:01:B" + b64.substr(1) + ":",
		    "the key is damaged (CRC mismatch): copy it again"},
		Bad{"CRC changed", k32.substr(0, k32.size() - 2) + "S:",
		    "the key is damaged (CRC mismatch): copy it again"}));

template <typename T>
concept Printable = requires(std::ostream &os, const T &value)
{
	os << value;
};

/* A key never becomes text but through to_string(), nor is it copied. */
static_assert(!Printable<Key>);
static_assert(!std::is_convertible_v<Key, std::string>);
static_assert(!std::is_convertible_v<Key, std::string_view>);
static_assert(!std::is_copy_constructible_v<Key> && !std::is_copy_assignable_v<Key>);
static_assert(std::is_nothrow_move_constructible_v<Key> && std::is_nothrow_move_assignable_v<Key>);

TEST(Key, RefusesASecretOfTheWrongLength)
{
	EXPECT_THROW(Key(Hash::sha256, counting(31)), std::invalid_argument);
	EXPECT_THROW(Key(Hash::sha512, counting(32)), std::invalid_argument);
	EXPECT_THROW(Key(static_cast<Hash>(4), counting(32)), std::invalid_argument);
}

TEST(Key, MoveWipesTheSecretMovedFrom)
{
	Key from(Hash::sha512, counting(64));
	const std::span<const std::uint8_t> storage = from.secret();
	Key to(std::move(from));
	EXPECT_TRUE(all_zero(storage));
	EXPECT_TRUE(from.secret().empty());
	EXPECT_EQ(bytes_of(to), counting(64));
	EXPECT_EQ(to.hash(), Hash::sha512);
	EXPECT_THROW(from.to_string(), std::logic_error);
}

TEST(Key, MoveAssignmentWipesBothSecrets)
{
	Key to(Hash::sha512, counting(64));
	const std::span<const std::uint8_t> to_storage = to.secret();
	Key from = parse_key(key32);
	const std::span<const std::uint8_t> from_storage = from.secret();

	to = std::move(from);
	EXPECT_TRUE(all_zero(from_storage));
	EXPECT_TRUE(from.secret().empty());
	EXPECT_EQ(to.hash(), Hash::sha256);
	EXPECT_EQ(bytes_of(to), counting(32));
	/* The old secret's bytes past the new one's. */
	EXPECT_TRUE(all_zero(to_storage.subspan(32)));
}

/* The destructor wipes the secret as clear() does. */
TEST(Key, ClearWipesTheSecret)
{
	Key key = parse_key(key48);
	const std::span<const std::uint8_t> storage = key.secret();
	ASSERT_FALSE(all_zero(storage));
	key.clear();
	EXPECT_TRUE(all_zero(storage));
	EXPECT_TRUE(key.secret().empty());
}

class KeyFile : public testing::Test {
protected:
	std::string write(const std::string &content, mode_t mode)
	{
		const std::string path = dir_.path() + "/key";
		std::ofstream(path, std::ios::trunc) << content;
		EXPECT_EQ(::chmod(path.c_str(), mode), 0);
		return path;
	}

	std::string read_error(const std::string &path)
	{
		return error_of<std::runtime_error>([&] { read_key_file(path); },
						    "reading " + path);
	}

	rdmablkctl::TempDir dir_;
};

TEST_F(KeyFile, ReadsAKeyWithOrWithoutItsNewline)
{
	for (const std::string &content : {k32 + "\n", k32}) {
		const Key key = read_key_file(write(content, 0600));
		EXPECT_EQ(key.hash(), Hash::sha256);
		EXPECT_EQ(bytes_of(key), counting(32));
	}
	EXPECT_EQ(bytes_of(read_key_file(write(key64, 0400))), counting(64));
}

TEST_F(KeyFile, RefusesAFileOthersCanAccess)
{
	for (mode_t mode : {0644, 0640, 0604, 0660, 0601}) {
		const std::string path = write(k32 + "\n", mode);
		char octal[8];
		std::snprintf(octal, sizeof(octal), "%04o", static_cast<unsigned>(mode));
		EXPECT_EQ(read_error(path),
			  path + ": a key file must be accessible to its owner only, not mode " +
				  octal + ": run 'chmod 600 " + path + "'");
	}
}

TEST_F(KeyFile, SaysWhichFileHoldsABadKey)
{
	const std::string path = write(k32 + "\n\n", 0600);
	EXPECT_EQ(read_error(path), path + ": the key contains whitespace: a key is one word, "
					   "copy it without spaces or line breaks");
	write(k32.substr(0, 20) + "\n", 0600);
	EXPECT_EQ(read_error(path),
		  path + ": the key does not end with \":\": it was cut short, copy all of it");
	write("", 0600);
	EXPECT_EQ(read_error(path), path + ": the key is empty");
	write(std::string(4096, 'A'), 0600);
	EXPECT_EQ(read_error(path), path + ": too long to hold a key");
}

TEST_F(KeyFile, MissingFileOrDirectory)
{
	const std::string missing = dir_.path() + "/none";
	try {
		read_key_file(missing);
		ADD_FAILURE() << "read " << missing;
	} catch (const std::system_error &e) {
		EXPECT_EQ(e.code().value(), ENOENT);
		EXPECT_NE(std::string(e.what()).find("opening " + missing), std::string::npos)
			<< e.what();
	}
	EXPECT_EQ(read_error(dir_.path()), dir_.path() + ": not a regular file");
}

} // namespace
} // namespace rdmablk::auth
