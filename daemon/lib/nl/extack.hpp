// SPDX-License-Identifier: GPL-2.0
/*
 * Netlink extended acknowledgements (NETLINK_EXT_ACK): the kernel's
 * explanation of an error, carried after an NLMSG_ERROR or NLMSG_DONE.
 */
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <linux/netlink.h>

namespace rdmablk::nl {

/*
 * The NLMSGERR_ATTR_MSG text of NLMSG_ERROR or NLMSG_DONE message @nlh
 * (nlh.nlmsg_len bytes), or "" when it carries none.
 */
std::string extack_message(const nlmsghdr &nlh);

/*
 * The NLMSGERR_ATTR_COOKIE bytes of NLMSG_ERROR or NLMSG_DONE message @nlh,
 * or none. rdmablk.ko puts there what a refusal refers to (an ATTACH refused
 * with EEXIST: the UUID of the device attached already).
 */
std::vector<std::uint8_t> extack_cookie(const nlmsghdr &nlh);

/* The status NLMSG_DONE message @nlh ends its dump with: 0 or a negative errno. */
int done_status(const nlmsghdr &nlh);

} // namespace rdmablk::nl
