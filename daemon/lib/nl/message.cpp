// SPDX-License-Identifier: GPL-2.0
#include "nl/message.hpp"

#include <cerrno>
#include <cstring>
#include <string>

#include <netlink/attr.h>
#include <netlink/genl/genl.h>

#include "nl/error.hpp"

namespace rdmablk::nl {

Msg alloc_msg()
{
	Msg msg{nlmsg_alloc()};
	if (!msg)
		throw Error("allocating a netlink message", ENOMEM);
	return msg;
}

Msg copy_msg(const nlmsghdr &nlh)
{
	/* nlmsg_convert() only reads the header it is given. */
	Msg msg{nlmsg_convert(const_cast<nlmsghdr *>(&nlh))};
	if (!msg)
		throw Error("copying a netlink message", ENOMEM);
	return msg;
}

void put_attr(nl_msg &msg, int type, const void *data, std::size_t len)
{
	const int rc = nla_put(&msg, type, static_cast<int>(len), data);
	if (rc < 0)
		throw Error::from_libnl("adding attribute " + std::to_string(type), rc);
}

void put_u8(nl_msg &msg, int type, std::uint8_t value)
{
	put_attr(msg, type, &value, sizeof(value));
}

void put_u16(nl_msg &msg, int type, std::uint16_t value)
{
	put_attr(msg, type, &value, sizeof(value));
}

void put_u32(nl_msg &msg, int type, std::uint32_t value)
{
	put_attr(msg, type, &value, sizeof(value));
}

void put_u64(nl_msg &msg, int type, std::uint64_t value)
{
	put_attr(msg, type, &value, sizeof(value));
}

void put_s32(nl_msg &msg, int type, std::int32_t value)
{
	put_attr(msg, type, &value, sizeof(value));
}

nlattr *start_nest(nl_msg &msg, int type)
{
	nlattr *nest = nla_nest_start(&msg, type | NLA_F_NESTED);
	if (!nest)
		throw Error("adding nested attribute " + std::to_string(type), EMSGSIZE);
	return nest;
}

void end_nest(nl_msg &msg, nlattr &nest)
{
	nla_nest_end(&msg, &nest);
}

void put_string(nl_msg &msg, int type, std::string_view value)
{
	const std::string terminated(value);
	put_attr(msg, type, terminated.c_str(), terminated.size() + 1);
}

void put_flag(nl_msg &msg, int type)
{
	put_attr(msg, type, nullptr, 0);
}

void wipe_msg(nl_msg &msg) noexcept
{
	nlmsghdr *nlh = nlmsg_hdr(&msg);
	explicit_bzero(nlh, nlh->nlmsg_len);
}

std::optional<std::uint8_t> genl_cmd(nl_msg &msg)
{
	nlmsghdr *nlh = nlmsg_hdr(&msg);
	if (!genlmsg_valid_hdr(nlh, 0))
		return std::nullopt;
	return genlmsg_hdr(nlh)->cmd;
}

} // namespace rdmablk::nl
