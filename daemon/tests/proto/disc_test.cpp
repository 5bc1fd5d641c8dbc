// SPDX-License-Identifier: GPL-2.0
/*
 * Discovery on the wire: what the host sends is laid out as
 * uapi/linux/rdmablk_proto.h says; what a target answers is believed only
 * after every check; LogReader puts pages together and starts over when
 * the generation changes.
 */
#include "proto/disc.hpp"

#include <cstring>
#include <initializer_list>

#include <endian.h>
#include <gtest/gtest.h>

namespace rdmablk::proto {
namespace {

std::vector<std::uint8_t> slice(const std::vector<std::uint8_t> &v, std::size_t off,
				std::size_t len)
{
	return {v.begin() + static_cast<long>(off), v.begin() + static_cast<long>(off + len)};
}

std::vector<std::uint8_t> bytes(std::initializer_list<int> values)
{
	std::vector<std::uint8_t> out;
	for (const int v : values)
		out.push_back(static_cast<std::uint8_t>(v));
	return out;
}

rdmablk_disc_entry wire_entry(const char *name, std::uint64_t size = 1 << 30)
{
	rdmablk_disc_entry e = {};
	std::strncpy(e.name, name, sizeof(e.name));
	for (std::size_t i = 0; i < sizeof(e.uuid); i++)
		e.uuid[i] = static_cast<std::uint8_t>(i + 1);
	e.size = htole64(size);
	e.logical_block_size = htole32(512);
	e.physical_block_size = htole32(4096);
	e.flags = htole32(RDMABLK_EXP_READ_ONLY | RDMABLK_EXP_FLUSH);
	return e;
}

/* A response as a target sends it. */
struct Answer {
	std::uint8_t opcode = RDMABLK_OP_DISC_LOG;
	std::uint16_t tag = 2;
	std::uint16_t status = RDMABLK_S_OK;
	std::uint64_t generation = 7;
	std::uint32_t total = 0;
	std::vector<rdmablk_disc_entry> entries;
	/* Count as sent; default: entries.size(). */
	std::optional<std::uint32_t> count;

	std::vector<std::uint8_t> encode() const
	{
		rdmablk_rsp rsp = {};
		rsp.opcode = opcode;
		rsp.tag = htole16(tag);
		rsp.status = htole16(status);
		rdmablk_disc_log log = {};
		log.generation = htole64(generation);
		log.total = htole32(total);
		log.count = htole32(count.value_or(static_cast<std::uint32_t>(entries.size())));
		std::vector<std::uint8_t> out = bytes_of(rsp);
		const auto l = bytes_of(log);
		out.insert(out.end(), l.begin(), l.end());
		for (const auto &e : entries) {
			const auto b = bytes_of(e);
			out.insert(out.end(), b.begin(), b.end());
		}
		return out;
	}
};

DiscPage page(std::uint64_t generation, std::uint32_t total,
	      std::initializer_list<const char *> names)
{
	DiscPage p{.generation = generation, .total = total, .entries = {}};
	for (const char *n : names)
		p.entries.push_back(DiscEntry{.name = n});
	return p;
}

TEST(DiscLayout, WireStructsHaveTheirUapiSizes)
{
	EXPECT_EQ(sizeof(rdmablk_cmd), 64U);
	EXPECT_EQ(sizeof(rdmablk_disc_req), 32U);
	EXPECT_EQ(sizeof(rdmablk_rsp), 16U);
	EXPECT_EQ(sizeof(rdmablk_disc_log), 32U);
	EXPECT_EQ(sizeof(rdmablk_disc_entry), 128U);
	EXPECT_LE(RDMABLK_DISC_RSP_SIZE, 4096U);
}

TEST(DiscCmd, CommandThenInlineRequestLittleEndian)
{
	Id host;
	for (std::size_t i = 0; i < host.size(); i++)
		host[i] = static_cast<std::uint8_t>(0xa0 + i);
	const auto msg = encode_disc_cmd(RDMABLK_OP_DISC_WAIT, 0x0203, host,
					 0x0102030405060708ULL, 0x0a0b0c0d);
	ASSERT_EQ(msg.size(), 96U);
	EXPECT_EQ(msg[0], RDMABLK_OP_DISC_WAIT);
	EXPECT_EQ(msg[1], RDMABLK_CMD_INLINE);
	EXPECT_EQ(slice(msg, 2, 2), bytes({0x03, 0x02}));
	/* length, offset, addr, rkey and reserved: zero */
	EXPECT_EQ(slice(msg, 4, 60), std::vector<std::uint8_t>(60, 0));
	EXPECT_EQ(slice(msg, 64, 16), std::vector<std::uint8_t>(host.begin(), host.end()));
	EXPECT_EQ(slice(msg, 80, 8), bytes({8, 7, 6, 5, 4, 3, 2, 1}));
	EXPECT_EQ(slice(msg, 88, 4), bytes({0x0d, 0x0c, 0x0b, 0x0a}));
	EXPECT_EQ(slice(msg, 92, 4), bytes({0, 0, 0, 0}));
}

TEST(DiscCmd, KeepaliveIsABareCommand)
{
	const auto msg = encode_keepalive(3);
	ASSERT_EQ(msg.size(), 64U);
	EXPECT_EQ(msg[0], RDMABLK_OP_KEEPALIVE);
	EXPECT_EQ(msg[1], 0);
	EXPECT_EQ(slice(msg, 2, 2), bytes({3, 0}));
	EXPECT_EQ(slice(msg, 4, 60), std::vector<std::uint8_t>(60, 0));
}

TEST(DiscCmd, InlineCommandCarriesItsPayload)
{
	const std::vector<std::uint8_t> payload(128, 0x5a);
	const auto msg = encode_inline_cmd(RDMABLK_OP_AUTH_CHALLENGE, 2, payload);
	ASSERT_EQ(msg.size(), 64U + 128U);
	EXPECT_EQ(msg[0], RDMABLK_OP_AUTH_CHALLENGE);
	EXPECT_EQ(msg[1], RDMABLK_CMD_INLINE);
	EXPECT_EQ(slice(msg, 2, 2), bytes({2, 0}));
	EXPECT_EQ(slice(msg, 4, 4), bytes({128, 0, 0, 0})); /* length */
	EXPECT_EQ(slice(msg, 8, 56), std::vector<std::uint8_t>(56, 0));
	EXPECT_EQ(slice(msg, 64, 128), payload);
}

TEST(DiscConnect, AsksForAuthenticationOnlyWithAKey)
{
	EXPECT_EQ(slice(discovery_conn_req(5000, true).encode(), 12, 4),
		  bytes({RDMABLK_CONN_DISCOVERY | RDMABLK_CONN_AUTH, 0, 0, 0}));
	EXPECT_EQ(slice(discovery_conn_req(5000).encode(), 12, 4),
		  bytes({RDMABLK_CONN_DISCOVERY, 0, 0, 0}));
}

TEST(DiscConnect, RequestsDiscoveryWithKeepalive)
{
	const auto pdata = discovery_conn_req(5000).encode();
	ASSERT_EQ(pdata.size(), 32U);
	EXPECT_EQ(slice(pdata, 0, 4), bytes({'R', 'B', 'L', 'K'}));
	EXPECT_EQ(slice(pdata, 6, 2), bytes({0, 0}));		     /* queue_id */
	EXPECT_EQ(slice(pdata, 8, 2), bytes({RDMABLK_DISC_QUEUE_DEPTH, 0}));
	EXPECT_EQ(slice(pdata, 12, 4), bytes({RDMABLK_CONN_DISCOVERY, 0, 0, 0}));
	EXPECT_EQ(slice(pdata, 16, 4), bytes({0x88, 0x13, 0, 0})); /* 5000 */
}

std::vector<std::uint8_t> rep_bytes(std::uint32_t flags, std::uint16_t depth,
				    std::uint16_t version = RDMABLK_PROTO_VERSION)
{
	rdmablk_conn_rep rep = {};
	rep.magic = htole32(RDMABLK_PROTO_MAGIC);
	rep.version = htole16(version);
	rep.queue_depth = htole16(depth);
	rep.flags = htole32(flags);
	return bytes_of(rep);
}

TEST(DiscConnect, AcceptMustAgreeToDiscovery)
{
	EXPECT_EQ(check_discovery_rep(rep_bytes(RDMABLK_CONN_DISCOVERY, 4)).queue_depth, 4);
	EXPECT_EQ(check_discovery_rep(rep_bytes(RDMABLK_CONN_DISCOVERY, 1)).queue_depth, 1);
	try {
		check_discovery_rep(rep_bytes(0, 4));
		FAIL();
	} catch (const ProtocolError &e) {
		EXPECT_STREQ(e.what(), "the target does not offer discovery");
	}
	EXPECT_THROW(check_discovery_rep(rep_bytes(RDMABLK_CONN_DISCOVERY, 0)), ProtocolError);
	EXPECT_THROW(check_discovery_rep(rep_bytes(RDMABLK_CONN_DISCOVERY, 5)), ProtocolError);
	EXPECT_THROW(check_discovery_rep(rep_bytes(RDMABLK_CONN_DISCOVERY, 4, 2)), ProtocolError);
	EXPECT_THROW(check_discovery_rep({}), ProtocolError);
	auto wrong_magic = rep_bytes(RDMABLK_CONN_DISCOVERY, 4);
	wrong_magic[0] ^= 1;
	EXPECT_THROW(check_discovery_rep(wrong_magic), ProtocolError);
}

TEST(DiscResponse, DecodesEntries)
{
	Answer a;
	a.total = 3;
	a.entries = {wire_entry("db0", 1ULL << 40), wire_entry("a.b_c:d-9")};
	const DiscPage p = decode_disc_response(a.encode(), RDMABLK_OP_DISC_LOG);
	EXPECT_EQ(p.generation, 7U);
	EXPECT_EQ(p.total, 3U);
	ASSERT_EQ(p.entries.size(), 2U);
	EXPECT_EQ(p.entries[0].name, "db0");
	EXPECT_EQ(p.entries[0].size, 1ULL << 40);
	EXPECT_EQ(p.entries[0].uuid[0], 1);
	EXPECT_EQ(p.entries[0].uuid[15], 16);
	EXPECT_EQ(p.entries[0].logical_block_size, 512U);
	EXPECT_EQ(p.entries[0].physical_block_size, 4096U);
	EXPECT_EQ(p.entries[0].flags, RDMABLK_EXP_READ_ONLY | RDMABLK_EXP_FLUSH);
	EXPECT_EQ(p.entries[1].name, "a.b_c:d-9");
}

TEST(DiscResponse, NameMayFillTheFieldButForItsNul)
{
	Answer a;
	a.total = 1;
	const std::string longest(RDMABLK_EXPORT_NAME_MAX - 1, 'x');
	a.entries = {wire_entry(longest.c_str())};
	EXPECT_EQ(decode_disc_response(a.encode(), RDMABLK_OP_DISC_LOG).entries[0].name, longest);
}

TEST(DiscResponse, WaitAnswerHasNoEntries)
{
	Answer a;
	a.opcode = RDMABLK_OP_DISC_WAIT;
	a.generation = 8;
	a.total = 2;
	const DiscPage p = decode_disc_response(a.encode(), RDMABLK_OP_DISC_WAIT);
	EXPECT_EQ(p.generation, 8U);
	EXPECT_TRUE(p.entries.empty());

	a.entries = {wire_entry("db0")};
	EXPECT_THROW(decode_disc_response(a.encode(), RDMABLK_OP_DISC_WAIT), ProtocolError);
}

void expect_refused(const std::vector<std::uint8_t> &buf, const std::string &why)
{
	try {
		decode_disc_response(buf, RDMABLK_OP_DISC_LOG);
		ADD_FAILURE() << "accepted; expected: " << why;
	} catch (const ProtocolError &e) {
		EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
	}
}

TEST(DiscResponse, RefusesMalformedAnswers)
{
	Answer ok;
	ok.total = 2;
	ok.entries = {wire_entry("db0"), wire_entry("db1")};
	const auto good = ok.encode();

	expect_refused(slice(good, 0, 10), "too short for a response");
	expect_refused(slice(good, 0, 40), "too short for a discovery log");
	expect_refused(slice(good, 0, good.size() - 1), "needed");

	Answer a = ok;
	a.status = RDMABLK_S_INVALID;
	expect_refused(a.encode(), "status INVALID");

	a = ok;
	a.opcode = RDMABLK_OP_OPEN;
	expect_refused(a.encode(), "is for OPEN");

	a = ok;
	a.count = 5;
	expect_refused(a.encode(), "claims 5 entries");

	a = ok;
	a.count = 0xffffffff;
	expect_refused(a.encode(), "more than 30");

	a = ok;
	a.total = 1;
	expect_refused(a.encode(), "of a list of 1");

	a = ok;
	std::memset(a.entries[1].name, 'x', sizeof(a.entries[1].name));
	expect_refused(a.encode(), "entry 1: the name is not NUL-terminated");

	a = ok;
	a.entries[0].name[0] = '\0';
	expect_refused(a.encode(), "the name is empty");

	a = ok;
	std::strcpy(a.entries[0].name, "bad/name");
	expect_refused(a.encode(), "characters an export name cannot have");

	a = ok;
	std::strcpy(a.entries[0].name, "bad\n");
	expect_refused(a.encode(), "characters an export name cannot have");

	a = ok;
	a.entries[0].logical_block_size = htole32(1000);
	expect_refused(a.encode(), "impossible block sizes");

	a = ok;
	a.entries[0].logical_block_size = htole32(8192);
	expect_refused(a.encode(), "impossible block sizes 8192/4096");
}

TEST(DiscResponse, LongerBufferThanNeededIsFine)
{
	Answer a;
	a.total = 1;
	a.entries = {wire_entry("db0")};
	auto buf = a.encode();
	buf.resize(RDMABLK_DISC_RSP_SIZE);
	EXPECT_EQ(decode_disc_response(buf, RDMABLK_OP_DISC_LOG).entries.size(), 1U);
}

TEST(LogReader, EmptyList)
{
	LogReader r;
	EXPECT_EQ(r.next_start(), 0U);
	EXPECT_TRUE(r.add(page(3, 0, {})));
	EXPECT_EQ(r.log().generation, 3U);
	EXPECT_TRUE(r.log().entries.empty());
}

TEST(LogReader, PagesInOrder)
{
	LogReader r;
	EXPECT_FALSE(r.add(page(5, 3, {"a", "b"})));
	EXPECT_EQ(r.next_start(), 2U);
	EXPECT_TRUE(r.add(page(5, 3, {"c"})));
	ASSERT_EQ(r.log().entries.size(), 3U);
	EXPECT_EQ(r.log().entries[2].name, "c");
	EXPECT_EQ(r.restarts(), 0U);
}

TEST(LogReader, RestartsWhenTheGenerationChanges)
{
	LogReader r;
	EXPECT_FALSE(r.add(page(5, 3, {"a", "b"})));
	/* The list changed: the page at index 2 of generation 6 is dropped. */
	EXPECT_FALSE(r.add(page(6, 2, {"b"})));
	EXPECT_EQ(r.next_start(), 0U);
	EXPECT_EQ(r.restarts(), 1U);
	EXPECT_FALSE(r.add(page(6, 2, {"a"})));
	EXPECT_TRUE(r.add(page(6, 2, {"b"})));
	EXPECT_EQ(r.log().generation, 6U);
	ASSERT_EQ(r.log().entries.size(), 2U);
	EXPECT_EQ(r.log().entries[0].name, "a");
}

TEST(LogReader, GivesUpWhenTheListKeepsChanging)
{
	LogReader r(2);
	std::uint64_t gen = 1;
	EXPECT_FALSE(r.add(page(gen, 2, {"a"})));
	EXPECT_FALSE(r.add(page(++gen, 2, {"b"})));
	EXPECT_FALSE(r.add(page(gen, 2, {"a"})));
	EXPECT_FALSE(r.add(page(++gen, 2, {"b"})));
	EXPECT_FALSE(r.add(page(gen, 2, {"a"})));
	EXPECT_THROW(r.add(page(++gen, 2, {"b"})), ProtocolError);
}

TEST(LogReader, RefusesPagesThatDoNotFit)
{
	{
		LogReader r;
		EXPECT_THROW(r.add(page(1, 2, {})), ProtocolError); /* no progress */
	}
	{
		LogReader r;
		EXPECT_FALSE(r.add(page(1, 3, {"a"})));
		EXPECT_THROW(r.add(page(1, 4, {"b"})), ProtocolError); /* total moved */
	}
	{
		LogReader r;
		EXPECT_FALSE(r.add(page(1, 2, {"a"})));
		EXPECT_THROW(r.add(page(1, 2, {"b", "c"})), ProtocolError); /* too many */
	}
	{
		LogReader r;
		EXPECT_FALSE(r.add(page(1, 3, {"a"})));
		EXPECT_THROW(r.add(page(1, 3, {"a"})), ProtocolError); /* named twice */
	}
	{
		LogReader r;
		EXPECT_THROW(r.add(page(1, LogReader::max_total + 1, {"a"})), ProtocolError);
	}
}

} // namespace
} // namespace rdmablk::proto
