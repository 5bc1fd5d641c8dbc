// SPDX-License-Identifier: GPL-2.0
#include <gtest/gtest.h>

#include <cstdlib>

#include "ctl/protocol.hpp"

namespace rdmablk::ctl {
namespace {

using nlohmann::json;

TEST(Protocol, RequestRoundTrip)
{
	const Request request{"attach", {{"address", "192.0.2.1"}, {"port", 7471}}};
	const Request back = request_from_json(to_json(request));
	EXPECT_EQ(back.cmd, "attach");
	EXPECT_EQ(back.args, request.args);
	EXPECT_EQ(to_json(request),
		  json::parse(R"({"cmd":"attach","args":{"address":"192.0.2.1","port":7471}})"));
}

TEST(Protocol, RequestArgsDefaultToEmptyObject)
{
	const Request request = parse_request_line(R"({"cmd":"list"})");
	EXPECT_EQ(request.cmd, "list");
	EXPECT_EQ(request.args, json::object());
}

TEST(Protocol, MalformedRequestsAreProtocolErrors)
{
	for (const char *line : {"", "{", "not json", "[]", "42", R"({"args":{}})", R"({"cmd":1})",
				 R"({"cmd":""})", R"({"cmd":"list","args":[]})"})
		EXPECT_THROW(parse_request_line(line), ProtocolError) << line;
}

TEST(Protocol, ProtocolErrorsNameTheField)
{
	try {
		parse_request_line(R"({"args":{}})");
		FAIL();
	} catch (const ProtocolError &e) {
		EXPECT_STREQ(e.what(), "request: missing \"cmd\"");
	}
	try {
		parse_response_line("{oops");
		FAIL();
	} catch (const ProtocolError &e) {
		EXPECT_STREQ(e.what(), "response is not valid JSON");
	}
}

TEST(Protocol, OkResponseRoundTrip)
{
	const Response response = ok({{"hostid", "6b1a0c2e-0000-4000-8000-000000000001"}});
	const json wire = to_json(response);
	EXPECT_EQ(
		wire,
		json::parse(
			R"({"ok":true,"result":{"hostid":"6b1a0c2e-0000-4000-8000-000000000001"}})"));
	const Response back = response_from_json(wire);
	EXPECT_TRUE(back.ok);
	EXPECT_EQ(back.result, response.result);
	EXPECT_FALSE(back.error);
}

TEST(Protocol, OkResponseWithoutResultHasEmptyObject)
{
	const Response back = parse_response_line(R"({"ok":true})");
	EXPECT_TRUE(back.ok);
	EXPECT_EQ(back.result, json::object());
}

TEST(Protocol, ErrorResponseRoundTrip)
{
	const Response response =
		fail(code::not_found, "no export named db1", "run 'rdmablkctl export list'", 2);
	const json wire = to_json(response);
	EXPECT_EQ(wire["error"], json::parse(R"({"code":"not-found","message":"no export named db1",
		"hint":"run 'rdmablkctl export list'","errno":2})"));
	const Response back = response_from_json(wire);
	EXPECT_FALSE(back.ok);
	ASSERT_TRUE(back.error);
	EXPECT_EQ(back.error->code, "not-found");
	EXPECT_EQ(back.error->message, "no export named db1");
	EXPECT_EQ(back.error->hint, "run 'rdmablkctl export list'");
	EXPECT_EQ(back.error->errnum, 2);
}

TEST(Protocol, ErrorWithoutHintOrErrnoOmitsThem)
{
	const json wire = to_json(fail(code::busy, "device is busy"));
	EXPECT_EQ(
		wire,
		json::parse(R"({"ok":false,"error":{"code":"busy","message":"device is busy"}})"));
	const Response back = response_from_json(wire);
	EXPECT_EQ(back.error->hint, "");
	EXPECT_FALSE(back.error->errnum);
}

TEST(Protocol, FailedResponseWithoutErrorInfoIsInternal)
{
	const json wire = to_json(Response{});
	EXPECT_EQ(wire["error"]["code"], "internal");
}

TEST(Protocol, MalformedResponsesAreProtocolErrors)
{
	for (const char *line :
	     {"", "[1]", R"({})", R"({"ok":"yes"})", R"({"ok":false})",
	      R"({"ok":false,"error":"bad"})", R"({"ok":false,"error":{"message":"x"}})",
	      R"({"ok":false,"error":{"code":"x"}})",
	      R"({"ok":false,"error":{"code":"x","message":"y","hint":3}})",
	      R"({"ok":false,"error":{"code":"x","message":"y","errno":"2"}})",
	      R"({"ok":true,"result":[]})"})
		EXPECT_THROW(parse_response_line(line), ProtocolError) << line;
}

TEST(Protocol, LinesAreCompactAndTerminated)
{
	const std::string line = to_line(to_json(Request{"hostid", {}}));
	EXPECT_EQ(line, "{\"args\":{},\"cmd\":\"hostid\"}\n");
}

TEST(Protocol, InvalidUtf8IsReplacedNotThrown)
{
	const std::string line = to_line(to_json(fail(code::kernel, std::string("bad \xff byte"))));
	EXPECT_EQ(line.back(), '\n');
	EXPECT_NO_THROW(parse_response_line(std::string_view(line).substr(0, line.size() - 1)));
}

TEST(Protocol, EventLineRoundTrip)
{
	const nlohmann::json event = {{"type", "device-state"}, {"dev", "rdmablk0"}};
	const std::string line = event_line(event);
	ASSERT_EQ(line.back(), '\n');
	EXPECT_EQ(nlohmann::json::parse(line), (nlohmann::json{{"event", event}}));
	EXPECT_EQ(parse_event_line(std::string_view(line).substr(0, line.size() - 1)), event);
}

TEST(Protocol, LinesThatAreNotEventsAreProtocolErrors)
{
	for (const char *line : {"not json", "[]", R"({"ok": true})", R"({"event": 1})",
				 R"({"event": {}})", R"({"event": {"type": 7}})"})
		EXPECT_THROW(parse_event_line(line), ProtocolError) << line;
}

TEST(Protocol, TimestampsAreUtcWithMilliseconds)
{
	using namespace std::chrono;
	const system_clock::time_point t = system_clock::time_point(seconds(1764049201)) +
					   milliseconds(7);
	EXPECT_EQ(utc_timestamp(t), "2025-11-25T05:40:01.007Z");
}

TEST(Protocol, DefaultSocketPathHonoursEnvironment)
{
	::unsetenv("RDMABLK_SOCKET");
	EXPECT_EQ(default_socket_path(), "/run/rdmablk/rdmablkd.sock");
	::setenv("RDMABLK_SOCKET", "", 1);
	EXPECT_EQ(default_socket_path(), "/run/rdmablk/rdmablkd.sock");
	::setenv("RDMABLK_SOCKET", "/tmp/test.sock", 1);
	EXPECT_EQ(default_socket_path(), "/tmp/test.sock");
	::unsetenv("RDMABLK_SOCKET");
}

} // namespace
} // namespace rdmablk::ctl
