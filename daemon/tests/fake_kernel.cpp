// SPDX-License-Identifier: GPL-2.0
#include "fake_kernel.hpp"

#include <cstring>
#include <stdexcept>

#include <netlink/attr.h>
#include <netlink/genl/genl.h>

#include <linux/netlink.h>
#include <linux/rdmablk.h>

namespace rdmablk::nl::test {

namespace {

void append(nl_msg &msg, const void *data, std::size_t len)
{
	if (nlmsg_append(&msg, const_cast<void *>(data), len, NLMSG_ALIGNTO) < 0)
		throw std::runtime_error("fake kernel: message full");
}

/* An NLMSG_ERROR/NLMSG_DONE message with room for extack TLVs after @payload. */
Msg control_msg(int type, const void *payload, std::size_t len, int flags,
		std::string_view extack)
{
	Msg msg = alloc_msg();
	if (!nlmsg_put(msg.get(), 0, 1, type, 0, flags))
		throw std::runtime_error("fake kernel: no room for a header");
	append(*msg, payload, len);
	if (!extack.empty()) {
		nlmsg_hdr(msg.get())->nlmsg_flags |= NLM_F_ACK_TLVS;
		put_string(*msg, NLMSGERR_ATTR_MSG, extack);
	}
	return msg;
}

std::vector<std::uint8_t> bytes_of(const void *data, std::size_t len)
{
	const auto *p = static_cast<const std::uint8_t *>(data);
	return {p, p + len};
}

} // namespace

Msg kernel_msg(std::uint8_t cmd, int family)
{
	Msg msg = alloc_msg();
	if (!genlmsg_put(msg.get(), 0, 1, family, 0, 0, cmd, RDMABLK_GENL_VERSION))
		throw std::runtime_error("fake kernel: no room for a header");
	return msg;
}

Msg kernel_reply(std::uint8_t cmd, std::initializer_list<RawAttr> attrs)
{
	Msg msg = kernel_msg(cmd);
	for (const RawAttr &attr : attrs)
		put_attr(*msg, attr.type, attr.payload.data(), attr.payload.size());
	return msg;
}

Msg info_reply(std::string_view version, std::uint32_t proto, std::uint64_t features)
{
	return kernel_reply(RDMABLK_CMD_GET_INFO,
			    {string_attr(RDMABLK_ATTR_MODULE_VERSION, version),
			     u32_attr(RDMABLK_ATTR_GENL_VERSION, RDMABLK_GENL_VERSION),
			     u32_attr(RDMABLK_ATTR_PROTO_VERSION, proto),
			     u64_attr(RDMABLK_ATTR_FEATURES, features)});
}

Msg listener_reply(std::string_view addr, std::uint16_t port, std::uint32_t state)
{
	return kernel_reply(RDMABLK_CMD_LISTEN_GET,
			    {string_attr(RDMABLK_ATTR_ADDR, addr), u16_attr(RDMABLK_ATTR_PORT, port),
			     u32_attr(RDMABLK_ATTR_LISTENER_STATE, state)});
}

Msg listener_event(std::uint32_t type, const Endpoint &endpoint)
{
	return kernel_reply(RDMABLK_CMD_EVENT, {u32_attr(RDMABLK_ATTR_EVENT, type),
						string_attr(RDMABLK_ATTR_ADDR, endpoint.addr),
						u16_attr(RDMABLK_ATTR_PORT, endpoint.port)});
}

Msg error_reply(nl_msg &request, int errnum, std::string_view extack, bool capped)
{
	const nlmsghdr *req = nlmsg_hdr(&request);
	std::vector<std::uint8_t> payload(sizeof(nlmsgerr));
	const nlmsgerr err{.error = -errnum, .msg = *req};
	std::memcpy(payload.data(), &err, sizeof(err));
	if (!capped) {
		const auto *body = reinterpret_cast<const std::uint8_t *>(req) + NLMSG_HDRLEN;
		payload.insert(payload.end(), body, body + (req->nlmsg_len - NLMSG_HDRLEN));
	}
	return control_msg(NLMSG_ERROR, payload.data(), payload.size(), capped ? NLM_F_CAPPED : 0,
			   extack);
}

Msg done_reply(int status, std::string_view extack)
{
	return control_msg(NLMSG_DONE, &status, sizeof(status), NLM_F_MULTI, extack);
}

std::vector<RawAttr> attrs_of(nl_msg &msg)
{
	const genlmsghdr *gnlh = genlmsg_hdr(nlmsg_hdr(&msg));
	std::vector<RawAttr> attrs;
	nlattr *nla;
	int rem;
	nla_for_each_attr(nla, genlmsg_attrdata(gnlh, 0), genlmsg_attrlen(gnlh, 0), rem)
		attrs.push_back({static_cast<std::uint16_t>(nla->nla_type),
				 bytes_of(nla_data(nla), static_cast<std::size_t>(nla_len(nla)))});
	return attrs;
}

RawAttr u16_attr(std::uint16_t type, std::uint16_t value)
{
	return {type, bytes_of(&value, sizeof(value))};
}

RawAttr u32_attr(std::uint16_t type, std::uint32_t value)
{
	return {type, bytes_of(&value, sizeof(value))};
}

RawAttr u64_attr(std::uint16_t type, std::uint64_t value)
{
	return {type, bytes_of(&value, sizeof(value))};
}

RawAttr string_attr(std::uint16_t type, std::string_view value)
{
	std::vector<std::uint8_t> payload(value.begin(), value.end());
	payload.push_back(0);
	return {type, std::move(payload)};
}

} // namespace rdmablk::nl::test
