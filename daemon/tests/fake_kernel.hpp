// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's side of the rdmablk netlink conversation, faked: the
 * messages rdmablk.ko would send, built by hand, and a Transport that
 * answers requests with them.
 */
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "nl/endpoint.hpp"
#include "nl/message.hpp"
#include "nl/transport.hpp"

namespace rdmablk::nl::test {

/* The id the fake kernel registered the family under. */
inline constexpr int family_id = 0x1d;

/* One attribute of a message as raw bytes. */
struct RawAttr {
	std::uint16_t type;
	std::vector<std::uint8_t> payload;

	bool operator==(const RawAttr &) const = default;
};

/* Every attribute of generic netlink message @msg, in order. */
std::vector<RawAttr> attrs_of(nl_msg &msg);

RawAttr u16_attr(std::uint16_t type, std::uint16_t value);
RawAttr u32_attr(std::uint16_t type, std::uint32_t value);
RawAttr u64_attr(std::uint16_t type, std::uint64_t value);
RawAttr string_attr(std::uint16_t type, std::string_view value);

/* A message from rdmablk.ko: generic netlink header only, attributes to be added. */
Msg kernel_msg(std::uint8_t cmd, int family = family_id);

/* A message from rdmablk.ko carrying @attrs. */
Msg kernel_reply(std::uint8_t cmd, std::initializer_list<RawAttr> attrs);

/* A complete GET_INFO reply. */
Msg info_reply(std::string_view version, std::uint32_t proto, std::uint64_t features);

/* A complete LISTEN_GET dump entry. */
Msg listener_reply(std::string_view addr, std::uint16_t port, std::uint32_t state);

/* A listener event. */
Msg listener_event(std::uint32_t type, const Endpoint &endpoint);

/* The NLMSG_ERROR the kernel answers @request with: its @errnum (negated) and @extack. */
Msg error_reply(nl_msg &request, int errnum, std::string_view extack, bool capped);

/* The NLMSG_DONE ending a dump with @status and @extack. */
Msg done_reply(int status, std::string_view extack);

/* A Transport answering each request with what @handler returns or throws. */
class FakeKernel : public Transport {
public:
	using Handler = std::function<std::vector<Msg>(nl_msg &request, std::string_view what)>;

	explicit FakeKernel(Handler handler) : handler_(std::move(handler)) {}

	std::vector<Msg> transact(nl_msg &request, std::string_view what) override
	{
		return handler_(request, what);
	}

private:
	Handler handler_;
};

} // namespace rdmablk::nl::test
