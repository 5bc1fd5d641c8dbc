// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel boundary: what sends a request and brings back the replies.
 * GenlSocket talks to the kernel; tests substitute a fake that answers with
 * messages they build themselves.
 */
#pragma once

#include <string_view>
#include <vector>

#include "nl/message.hpp"

namespace rdmablk::nl {

class Transport {
public:
	virtual ~Transport() = default;

	/*
	 * Send @request and return the messages the kernel answers with, up to
	 * its acknowledgement (or, for a dump, its NLMSG_DONE). A refusal is an
	 * Error carrying the kernel's errno and extack message, its context
	 * being @what ("adding listener 192.0.2.1:7471").
	 */
	virtual std::vector<Msg> transact(nl_msg &request, std::string_view what) = 0;
};

} // namespace rdmablk::nl
