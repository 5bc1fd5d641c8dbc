// SPDX-License-Identifier: GPL-2.0
#include "nl/replies.hpp"

#include <linux/rdmablk.h>

#include "nl/attrs.hpp"

namespace rdmablk::nl {

namespace {

/* RDMABLK_ATTR_PORT, which the ABI keeps in 1..65535. */
std::uint16_t listener_port(const Attrs &attrs)
{
	const std::uint16_t port = attrs.u16(RDMABLK_ATTR_PORT);
	if (port == 0)
		attrs.fail("attribute PORT is 0");
	return port;
}

bool is_listener_event(std::uint32_t type)
{
	return type == RDMABLK_EVENT_LISTENER_ADDED || type == RDMABLK_EVENT_LISTENER_REMOVED;
}

} // namespace

Info parse_info(nl_msg &msg)
{
	const Attrs attrs(msg, RDMABLK_CMD_GET_INFO, "GET_INFO reply");
	return {
		.module_version = attrs.string(RDMABLK_ATTR_MODULE_VERSION),
		.genl_version = attrs.u32(RDMABLK_ATTR_GENL_VERSION),
		.proto_version = attrs.u32(RDMABLK_ATTR_PROTO_VERSION),
		.features = attrs.u64(RDMABLK_ATTR_FEATURES),
	};
}

Listener parse_listener(nl_msg &msg)
{
	const Attrs attrs(msg, RDMABLK_CMD_LISTEN_GET, "LISTEN_GET reply");
	return {
		.addr = attrs.string(RDMABLK_ATTR_ADDR),
		.port = listener_port(attrs),
		.state = attrs.u32(RDMABLK_ATTR_LISTENER_STATE),
	};
}

Event parse_event(nl_msg &msg)
{
	const Attrs attrs(msg, RDMABLK_CMD_EVENT, "EVENT notification");
	Event event{.type = attrs.u32(RDMABLK_ATTR_EVENT), .listener = std::nullopt};

	/* Listener events must name the listener. */
	if (is_listener_event(event.type))
		event.listener = Endpoint{attrs.string(RDMABLK_ATTR_ADDR), listener_port(attrs)};
	return event;
}

std::optional<Event> parse_notification(nl_msg &msg, int family)
{
	if (nlmsg_hdr(&msg)->nlmsg_type != family || genl_cmd(msg) != RDMABLK_CMD_EVENT)
		return std::nullopt;
	return parse_event(msg);
}

} // namespace rdmablk::nl
