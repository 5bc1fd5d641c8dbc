// SPDX-License-Identifier: GPL-2.0
/*
 * The rdmablkd control protocol (docs/control-socket.md): one JSON object
 * per line over a UNIX stream socket, a request from the client and a
 * response from the daemon.
 */
#pragma once

#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace rdmablk::ctl {

/* Where rdmablkd listens unless RDMABLK_SOCKET says otherwise. */
inline constexpr const char *socket_path = "/run/rdmablk/rdmablkd.sock";

/* $RDMABLK_SOCKET when set and not empty, else socket_path. */
std::string default_socket_path();

/* Values of error.code. */
namespace code {
inline constexpr const char *invalid_argument = "invalid-argument";
inline constexpr const char *not_found = "not-found";
inline constexpr const char *exists = "exists";
inline constexpr const char *permission_denied = "permission-denied";
inline constexpr const char *unreachable = "unreachable";
inline constexpr const char *busy = "busy";
inline constexpr const char *kernel = "kernel";
/* The configuration file was edited and not reloaded: nothing was changed. */
inline constexpr const char *config_changed = "config-changed";
/* reload: the configuration file does not parse; the one in use stays. */
inline constexpr const char *bad_config = "bad-config";
inline constexpr const char *internal = "internal";
} // namespace code

/*
 * The request that turns a connection into a monitor: the daemon answers
 * it like any other, then sends one event line ({"event": {...}}) for each
 * kernel event as it happens, until the client hangs up. The connection
 * takes no further request.
 */
inline constexpr const char *monitor_cmd = "monitor";

struct Request {
	std::string cmd;
	nlohmann::json args = nlohmann::json::object();
};

struct ErrorInfo {
	std::string code;
	std::string message;
	std::string hint;          /* empty: none */
	std::optional<int> errnum; /* "errno": present when the kernel refused */
};

struct Response {
	bool ok = false;
	nlohmann::json result = nlohmann::json::object();
	std::optional<ErrorInfo> error; /* set when !ok */
};

/* A message that does not follow the protocol. */
class ProtocolError : public std::runtime_error {
public:
	using runtime_error::runtime_error;
};

nlohmann::json to_json(const Request &request);
/* Throws ProtocolError naming the field that is missing or of the wrong type. */
Request request_from_json(const nlohmann::json &json);

nlohmann::json to_json(const Response &response);
/* Throws ProtocolError naming the field that is missing or of the wrong type. */
Response response_from_json(const nlohmann::json &json);

/* A success carrying @result ({} when null). */
Response ok(nlohmann::json result);
Response fail(std::string code, std::string message, std::string hint = {},
	      std::optional<int> errnum = {});

/* @json as one protocol line: compact, '\n'-terminated, invalid UTF-8 replaced. */
std::string to_line(const nlohmann::json &json);

/* One received line (without its '\n') parsed; throws ProtocolError. */
Request parse_request_line(std::string_view line);
Response parse_response_line(std::string_view line);

/*
 * @t as UTC, ISO 8601 with milliseconds, "2026-11-25T05:40:01.123Z": the
 * "time" of events and of rdmablkctl stat's reports.
 */
std::string utc_timestamp(std::chrono::system_clock::time_point t);

/* @event (an object with at least "type") as a monitor's event line. */
std::string event_line(const nlohmann::json &event);
/* The event of a monitor's event line; throws ProtocolError. */
nlohmann::json parse_event_line(std::string_view line);

} // namespace rdmablk::ctl
