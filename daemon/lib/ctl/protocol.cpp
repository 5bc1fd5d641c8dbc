// SPDX-License-Identifier: GPL-2.0
#include "ctl/protocol.hpp"

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <utility>

namespace rdmablk::ctl {

using nlohmann::json;

namespace {

/* Member @key of object @json of message @what, checked to be a string. */
std::string string_field(const json &object, const char *key, std::string_view what)
{
	const auto it = object.find(key);
	if (it == object.end())
		throw ProtocolError(std::string(what) + ": missing \"" + key + "\"");
	if (!it->is_string())
		throw ProtocolError(std::string(what) + ": \"" + key + "\" is not a string");
	return it->get<std::string>();
}

void require_object(const json &value, std::string_view what)
{
	if (!value.is_object())
		throw ProtocolError(std::string(what) + " is not a JSON object");
}

/* Member @key of @object when present and not null, checked to be an object; else {}. */
json object_field(const json &object, const char *key, std::string_view what)
{
	const auto it = object.find(key);
	if (it == object.end() || it->is_null())
		return json::object();
	if (!it->is_object())
		throw ProtocolError(std::string(what) + ": \"" + key + "\" is not an object");
	return *it;
}

ErrorInfo error_from_json(const json &object)
{
	constexpr std::string_view what = "response error";
	require_object(object, what);

	ErrorInfo error{
		string_field(object, "code", what), string_field(object, "message", what), {}, {}};
	if (object.contains("hint"))
		error.hint = string_field(object, "hint", what);
	if (const auto it = object.find("errno"); it != object.end()) {
		if (!it->is_number_integer())
			throw ProtocolError("response error: \"errno\" is not an integer");
		error.errnum = it->get<int>();
	}
	return error;
}

json parse_line(std::string_view line, std::string_view what)
{
	json parsed = json::parse(line, nullptr, false);
	if (parsed.is_discarded())
		throw ProtocolError(std::string(what) + " is not valid JSON");
	return parsed;
}

} // namespace

std::string default_socket_path()
{
	const char *env = std::getenv("RDMABLK_SOCKET");
	return env && *env ? env : socket_path;
}

json to_json(const Request &request)
{
	return {{"cmd", request.cmd},
		{"args", request.args.is_null() ? json::object() : request.args}};
}

Request request_from_json(const json &json_request)
{
	constexpr std::string_view what = "request";
	require_object(json_request, what);

	Request request{string_field(json_request, "cmd", what),
			object_field(json_request, "args", what)};
	if (request.cmd.empty())
		throw ProtocolError("request: \"cmd\" is empty");
	return request;
}

json to_json(const Response &response)
{
	if (response.ok)
		return {{"ok", true},
			{"result", response.result.is_null() ? json::object() : response.result}};

	const ErrorInfo error =
		response.error.value_or(ErrorInfo{code::internal, "unknown error", {}, {}});
	json object = {{"code", error.code}, {"message", error.message}};
	if (!error.hint.empty())
		object["hint"] = error.hint;
	if (error.errnum)
		object["errno"] = *error.errnum;
	return {{"ok", false}, {"error", std::move(object)}};
}

Response response_from_json(const json &json_response)
{
	constexpr std::string_view what = "response";
	require_object(json_response, what);

	const auto ok_field = json_response.find("ok");
	if (ok_field == json_response.end())
		throw ProtocolError("response: missing \"ok\"");
	if (!ok_field->is_boolean())
		throw ProtocolError("response: \"ok\" is not a boolean");

	Response response;
	response.ok = ok_field->get<bool>();
	if (response.ok) {
		response.result = object_field(json_response, "result", what);
		return response;
	}
	const auto error = json_response.find("error");
	if (error == json_response.end())
		throw ProtocolError("response: \"ok\" is false but \"error\" is missing");
	response.error = error_from_json(*error);
	return response;
}

Response ok(json result)
{
	if (result.is_null())
		result = json::object();
	return {true, std::move(result), std::nullopt};
}

Response fail(std::string code, std::string message, std::string hint, std::optional<int> errnum)
{
	return {false, json::object(),
		ErrorInfo{std::move(code), std::move(message), std::move(hint), errnum}};
}

std::string to_line(const json &json_value)
{
	return json_value.dump(-1, ' ', false, json::error_handler_t::replace) + '\n';
}

Request parse_request_line(std::string_view line)
{
	return request_from_json(parse_line(line, "request"));
}

Response parse_response_line(std::string_view line)
{
	return response_from_json(parse_line(line, "response"));
}

std::string utc_timestamp(std::chrono::system_clock::time_point t)
{
	const auto ms = std::chrono::floor<std::chrono::milliseconds>(t);
	const std::time_t secs = std::chrono::system_clock::to_time_t(ms);
	std::tm tm{};
	::gmtime_r(&secs, &tm);
	char buf[32];
	std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
	char out[48];
	std::snprintf(out, sizeof(out), "%s.%03dZ", buf,
		      static_cast<int>((ms.time_since_epoch() % std::chrono::seconds(1)).count()));
	return out;
}

std::string event_line(const json &event)
{
	return to_line(json{{"event", event}});
}

json parse_event_line(std::string_view line)
{
	json j = parse_line(line, "event");
	if (!j.is_object() || !j.contains("event") || !j["event"].is_object() ||
	    !j["event"].contains("type") || !j["event"]["type"].is_string())
		throw ProtocolError("an event line needs an object \"event\" with a string \"type\"");
	return std::move(j["event"]);
}

} // namespace rdmablk::ctl
