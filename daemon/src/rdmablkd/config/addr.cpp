// SPDX-License-Identifier: GPL-2.0
#include "config/addr.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>

namespace rdmablk::daemon {

std::optional<std::string> canonical_address(std::string_view text)
{
	const std::size_t percent = text.find('%');
	const std::string addr(text.substr(0, percent));
	const std::string_view scope =
		percent == std::string_view::npos ? std::string_view() : text.substr(percent);
	if (percent != std::string_view::npos && scope.size() < 2)
		return std::nullopt;

	char buf[INET6_ADDRSTRLEN];
	in_addr v4;
	if (percent == std::string_view::npos && inet_pton(AF_INET, addr.c_str(), &v4) == 1)
		return std::string(inet_ntop(AF_INET, &v4, buf, sizeof(buf)));
	in6_addr v6;
	if (inet_pton(AF_INET6, addr.c_str(), &v6) == 1)
		return std::string(inet_ntop(AF_INET6, &v6, buf, sizeof(buf))) + std::string(scope);
	return std::nullopt;
}

bool same_endpoint(const nl::Endpoint &a, const nl::Endpoint &b)
{
	if (a.port != b.port)
		return false;
	if (a.addr == b.addr)
		return true;
	const std::optional<std::string> ca = canonical_address(a.addr);
	return ca && ca == canonical_address(b.addr);
}

} // namespace rdmablk::daemon
