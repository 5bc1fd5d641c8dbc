// SPDX-License-Identifier: GPL-2.0
/*
 * Owning handles for libnl messages and helpers to fill them.
 */
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

#include <netlink/msg.h>

namespace rdmablk::nl {

struct MsgFree {
	void operator()(nl_msg *msg) const noexcept { nlmsg_free(msg); }
};

/* An nl_msg owned by the holder. */
using Msg = std::unique_ptr<nl_msg, MsgFree>;

/* A new, empty message; throws Error(ENOMEM) when out of memory. */
Msg alloc_msg();

/* A copy of the netlink message @nlh, which is nlh.nlmsg_len bytes long. */
Msg copy_msg(const nlmsghdr &nlh);

/* Append attribute @type with @len bytes of @data; throws Error when it does not fit. */
void put_attr(nl_msg &msg, int type, const void *data, std::size_t len);
void put_u8(nl_msg &msg, int type, std::uint8_t value);
void put_u16(nl_msg &msg, int type, std::uint16_t value);
void put_u32(nl_msg &msg, int type, std::uint32_t value);
void put_u64(nl_msg &msg, int type, std::uint64_t value);
void put_s32(nl_msg &msg, int type, std::int32_t value);
/* A NUL-terminated string attribute. */
void put_string(nl_msg &msg, int type, std::string_view value);
/* An attribute without payload, meaning "yes" by being there. */
void put_flag(nl_msg &msg, int type);

/* Zero what @msg holds: a request that carried a secret, once sent. */
void wipe_msg(nl_msg &msg) noexcept;

/*
 * Open nested attribute @type (NLA_F_NESTED set, as the kernel's strict
 * validation wants); the attributes put until end_nest() go inside it.
 */
nlattr *start_nest(nl_msg &msg, int type);
void end_nest(nl_msg &msg, nlattr &nest);

/* The generic netlink command of @msg, or nullopt when it has no complete genl header. */
std::optional<std::uint8_t> genl_cmd(nl_msg &msg);

} // namespace rdmablk::nl
