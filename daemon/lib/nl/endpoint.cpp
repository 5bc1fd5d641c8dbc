// SPDX-License-Identifier: GPL-2.0
#include "nl/endpoint.hpp"

#include <algorithm>
#include <arpa/inet.h>
#include <charconv>
#include <net/if.h>
#include <stdexcept>

namespace rdmablk::nl {

namespace {

[[noreturn]] void invalid(std::string_view text, std::string_view problem)
{
	throw std::invalid_argument("invalid address \"" + std::string(text) +
				    "\": " + std::string(problem));
}

/* Why @text is not a port number, or nullptr when it is one (stored in @port). */
const char *port_problem(std::string_view text, std::uint16_t &port)
{
	if (text.empty())
		return "missing port";
	if (!std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
		return "port is not a decimal number";

	unsigned long value;
	const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
	if (ec != std::errc() || end != text.data() + text.size() || value == 0 || value > 65535)
		return "port must be 1 to 65535";
	port = static_cast<std::uint16_t>(value);
	return nullptr;
}

std::uint16_t port_of(std::string_view text, std::string_view port_text)
{
	std::uint16_t port = 0;
	if (const char *problem = port_problem(port_text, port))
		invalid(text, problem);
	return port;
}

bool is_ipv4(std::string_view addr)
{
	in_addr a;
	return inet_pton(AF_INET, std::string(addr).c_str(), &a) == 1;
}

bool is_ipv6(std::string_view addr)
{
	in6_addr a;
	return inet_pton(AF_INET6, std::string(addr).c_str(), &a) == 1;
}

/* Check "IPV6[%SCOPE]", SCOPE being an interface name or index. */
void check_ipv6(std::string_view text, std::string_view addr)
{
	const std::size_t percent = addr.find('%');
	if (!is_ipv6(addr.substr(0, percent)))
		invalid(text, is_ipv4(addr.substr(0, percent)) ?
				      "brackets are for IPv6 addresses only" :
				      "not an IPv6 address");
	if (percent == std::string_view::npos)
		return;

	const std::string_view scope = addr.substr(percent + 1);
	if (scope.empty())
		invalid(text, "empty IPv6 scope after '%'");
	if (scope.size() >= IF_NAMESIZE)
		invalid(text, "IPv6 scope longer than an interface name");
	if (std::any_of(scope.begin(), scope.end(),
			[](char c) { return c <= ' ' || c == '%' || c == '/' || c > '~'; }))
		invalid(text, "invalid character in IPv6 scope");
}

} // namespace

std::string to_string(const Endpoint &endpoint)
{
	const std::string port = std::to_string(endpoint.port);
	if (endpoint.addr.find(':') != std::string::npos)
		return "[" + endpoint.addr + "]:" + port;
	return endpoint.addr + ":" + port;
}

AddrPort parse_addr_port(std::string_view text)
{
	if (text.empty())
		throw std::invalid_argument("empty address");

	AddrPort result;
	if (text.front() == '[') {
		const std::size_t close = text.find(']');
		if (close == std::string_view::npos)
			invalid(text, "missing ']'");
		const std::string_view addr = text.substr(1, close - 1);
		const std::string_view rest = text.substr(close + 1);
		if (addr.empty())
			invalid(text, "empty brackets");
		check_ipv6(text, addr);
		if (!rest.empty()) {
			if (rest.front() != ':')
				invalid(text, "expected ':PORT' after ']'");
			result.port = port_of(text, rest.substr(1));
		}
		result.addr = addr;
	} else if (std::count(text.begin(), text.end(), ':') > 1) {
		check_ipv6(text, text);
		result.addr = text;
	} else {
		const std::size_t colon = text.find(':');
		const std::string_view addr = text.substr(0, colon);
		if (!is_ipv4(addr))
			invalid(text, addr.find('%') != std::string_view::npos ?
					      "a scope is only valid on IPv6 addresses" :
					      "not an IPv4 or IPv6 address");
		if (colon != std::string_view::npos)
			result.port = port_of(text, text.substr(colon + 1));
		result.addr = addr;
	}

	if (result.addr.size() >= RDMABLK_ADDR_MAX_LEN)
		invalid(text, "longer than " + std::to_string(RDMABLK_ADDR_MAX_LEN - 1) +
				      " characters");
	return result;
}

Endpoint parse_endpoint(std::string_view text)
{
	AddrPort parsed = parse_addr_port(text);
	return {std::move(parsed.addr), parsed.port.value_or(RDMABLK_DEFAULT_PORT)};
}

std::uint16_t parse_port(std::string_view text)
{
	std::uint16_t port = 0;
	if (const char *problem = port_problem(text, port))
		throw std::invalid_argument("invalid port \"" + std::string(text) +
					    "\": " + problem);
	return port;
}

} // namespace rdmablk::nl
