// SPDX-License-Identifier: GPL-2.0
#include "nl/extack.hpp"

#include <cstddef>
#include <cstring>

#include <netlink/attr.h>

namespace rdmablk::nl {

namespace {

const unsigned char *bytes(const nlmsghdr &nlh)
{
	return reinterpret_cast<const unsigned char *>(&nlh);
}

/* Where the extack TLVs of @nlh start, or 0 when it has none. */
std::size_t tlv_offset(const nlmsghdr &nlh)
{
	if (!(nlh.nlmsg_flags & NLM_F_ACK_TLVS))
		return 0;

	switch (nlh.nlmsg_type) {
	case NLMSG_DONE:
		return NLMSG_LENGTH(sizeof(int));
	case NLMSG_ERROR: {
		if (nlh.nlmsg_len < NLMSG_LENGTH(sizeof(nlmsgerr)))
			return 0;
		nlmsgerr err;
		std::memcpy(&err, bytes(nlh) + NLMSG_HDRLEN, sizeof(err));
		/* The request is echoed after the error, whole unless capped to its header. */
		std::size_t echoed = 0;
		if (!(nlh.nlmsg_flags & NLM_F_CAPPED)) {
			if (err.msg.nlmsg_len < NLMSG_HDRLEN)
				return 0;
			echoed = err.msg.nlmsg_len - NLMSG_HDRLEN;
		}
		return NLMSG_LENGTH(sizeof(nlmsgerr) + echoed);
	}
	default:
		return 0;
	}
}

/* The extack TLV @type of @nlh, or nullptr. */
const nlattr *extack_attr(const nlmsghdr &nlh, int type)
{
	const std::size_t offset = NLMSG_ALIGN(tlv_offset(nlh));
	if (offset == 0 || offset >= nlh.nlmsg_len)
		return nullptr;

	const auto *tlvs = reinterpret_cast<const nlattr *>(bytes(nlh) + offset);
	return nla_find(tlvs, static_cast<int>(nlh.nlmsg_len - offset), type);
}

} // namespace

std::string extack_message(const nlmsghdr &nlh)
{
	const nlattr *msg = extack_attr(nlh, NLMSGERR_ATTR_MSG);
	if (!msg)
		return {};

	const auto *text = static_cast<const char *>(nla_data(msg));
	return std::string(text, strnlen(text, static_cast<std::size_t>(nla_len(msg))));
}

std::vector<std::uint8_t> extack_cookie(const nlmsghdr &nlh)
{
	const nlattr *cookie = extack_attr(nlh, NLMSGERR_ATTR_COOKIE);
	if (!cookie)
		return {};
	const auto *data = static_cast<const std::uint8_t *>(nla_data(cookie));
	return {data, data + nla_len(cookie)};
}

int done_status(const nlmsghdr &nlh)
{
	if (nlh.nlmsg_type != NLMSG_DONE || nlh.nlmsg_len < NLMSG_LENGTH(sizeof(int)))
		return 0;
	int status;
	std::memcpy(&status, bytes(nlh) + NLMSG_HDRLEN, sizeof(status));
	return status;
}

} // namespace rdmablk::nl
