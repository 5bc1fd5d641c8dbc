// SPDX-License-Identifier: GPL-2.0
/*
 * Netlink extended acknowledgements (NETLINK_EXT_ACK): the kernel's
 * explanation of an error, carried after an NLMSG_ERROR or NLMSG_DONE.
 */
#pragma once

#include <string>

#include <linux/netlink.h>

namespace rdmablk::nl {

/*
 * The NLMSGERR_ATTR_MSG text of NLMSG_ERROR or NLMSG_DONE message @nlh
 * (nlh.nlmsg_len bytes), or "" when it carries none.
 */
std::string extack_message(const nlmsghdr &nlh);

/* The status NLMSG_DONE message @nlh ends its dump with: 0 or a negative errno. */
int done_status(const nlmsghdr &nlh);

} // namespace rdmablk::nl
