// SPDX-License-Identifier: GPL-2.0
#include "nl/requests.hpp"

#include <cerrno>

#include <netlink/genl/genl.h>

#include <linux/rdmablk.h>

#include "nl/error.hpp"

namespace rdmablk::nl {

namespace {

Msg build_listen(int family, std::uint8_t cmd, const Endpoint &endpoint)
{
	Msg msg = build_request(family, cmd, NLM_F_ACK);
	put_string(*msg, RDMABLK_ATTR_ADDR, endpoint.addr);
	put_u16(*msg, RDMABLK_ATTR_PORT, endpoint.port);
	return msg;
}

} // namespace

Msg build_request(int family, std::uint8_t cmd, int flags)
{
	Msg msg = alloc_msg();
	if (!genlmsg_put(msg.get(), NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, NLM_F_REQUEST | flags,
			 cmd, RDMABLK_GENL_VERSION))
		throw Error("building a generic netlink header", EMSGSIZE);
	return msg;
}

Msg build_get_info(int family)
{
	return build_request(family, RDMABLK_CMD_GET_INFO, NLM_F_ACK);
}

Msg build_listen_add(int family, const Endpoint &endpoint)
{
	return build_listen(family, RDMABLK_CMD_LISTEN_ADD, endpoint);
}

Msg build_listen_del(int family, const Endpoint &endpoint)
{
	return build_listen(family, RDMABLK_CMD_LISTEN_DEL, endpoint);
}

Msg build_listen_get(int family)
{
	return build_request(family, RDMABLK_CMD_LISTEN_GET, NLM_F_DUMP);
}

} // namespace rdmablk::nl
