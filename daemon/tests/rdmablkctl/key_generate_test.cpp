// SPDX-License-Identifier: GPL-2.0
/*
 * rdmablkctl key generate as main() runs it, parse_args() then run(), with
 * no rdmablkd anywhere.
 */
#include <gtest/gtest.h>

#include "auth/key.hpp"
#include "cli.hpp"
#include "render.hpp"
#include "run.hpp"

namespace rdmablk::rdmablkctl {
namespace {

using nlohmann::json;

/* No rdmablkd listens there: key generate must not need one. */
constexpr const char *no_daemon = "/nonexistent/rdmablkd.sock";

Outcome key_generate(const std::vector<std::string> &args)
{
	auto parsed = parse_args(args, no_daemon);
	if (const auto *outcome = std::get_if<Outcome>(&parsed)) {
		ADD_FAILURE() << "exit " << outcome->exit_code << ": " << outcome->error;
		return *outcome;
	}
	return run(std::get<Invocation>(parsed));
}

/* The key of text output: one line. */
auth::Key key_of(const Outcome &outcome)
{
	EXPECT_EQ(outcome.exit_code, exit_ok);
	EXPECT_EQ(outcome.error, "");
	EXPECT_TRUE(outcome.out.ends_with('\n'));
	EXPECT_EQ(outcome.out.find('\n'), outcome.out.size() - 1);
	return auth::parse_key(std::string_view(outcome.out).substr(0, outcome.out.size() - 1));
}

TEST(KeyGenerate, PrintsAKeyForTheHmacAsked)
{
	const struct {
		const char *hmac;
		auth::Hash hash;
	} cases[] = {
		{"sha256", auth::Hash::sha256},
		{"sha384", auth::Hash::sha384},
		{"sha512", auth::Hash::sha512},
	};
	for (const auto &c : cases) {
		const Outcome outcome = key_generate({"key", "generate", "--hmac", c.hmac});
		const auth::Key key = key_of(outcome);
		EXPECT_EQ(key.hash(), c.hash) << c.hmac;
		EXPECT_EQ(key.secret().size(), auth::secret_size(c.hash));
		EXPECT_TRUE(outcome.out.starts_with("RDMABLK-1:0")) << outcome.out;
	}
}

TEST(KeyGenerate, Sha256ByDefault)
{
	const Outcome first = key_generate({"key", "generate"});
	EXPECT_EQ(key_of(first).hash(), auth::Hash::sha256);
	EXPECT_NE(key_generate({"key", "generate"}).out, first.out);
}

TEST(KeyGenerate, Json)
{
	const Outcome outcome = key_generate({"key", "generate", "--hmac", "sha512", "-o", "json"});
	EXPECT_EQ(outcome.exit_code, exit_ok);
	const json result = json::parse(outcome.out);
	ASSERT_TRUE(result.is_object()) << outcome.out;
	EXPECT_EQ(result.size(), 1u) << outcome.out;
	EXPECT_EQ(auth::parse_key(result.at("key").get<std::string>()).hash(), auth::Hash::sha512);
}

TEST(KeyGenerate, BadHmacIsAUsageError)
{
	auto parsed = parse_args({"-o", "json", "key", "generate", "--hmac", "sha1"}, no_daemon);
	const auto *outcome = std::get_if<Outcome>(&parsed);
	ASSERT_TRUE(outcome);
	EXPECT_EQ(outcome->exit_code, exit_usage);
	EXPECT_EQ(outcome->error, "invalid --hmac \"sha1\": expected sha256, sha384 or sha512");
	const Outcome printed = as_json(*outcome);
	EXPECT_EQ(json::parse(printed.out)["error"]["code"], "usage");
	EXPECT_EQ(printed.error, "");
}

} // namespace
} // namespace rdmablk::rdmablkctl
