// SPDX-License-Identifier: GPL-2.0
#include "nl/monitor.hpp"

#include <cerrno>

#include <linux/rdmablk.h>

#include "nl/error.hpp"
#include "nl/replies.hpp"

namespace rdmablk::nl {

namespace {

constexpr const char *subscribing = "subscribing to rdmablk events";

int resolve(GenlSocket &sock)
{
	const std::optional<int> family = sock.resolve_family(RDMABLK_GENL_NAME);
	if (!family)
		throw FamilyNotFound();
	return *family;
}

} // namespace

EventMonitor::EventMonitor() : family_(resolve(sock_))
{
	const std::optional<int> group =
		sock_.resolve_group(RDMABLK_GENL_NAME, RDMABLK_GENL_MCGRP_EVENTS);
	if (!group)
		throw Error(std::string(subscribing) + ": no multicast group \"" +
				    RDMABLK_GENL_MCGRP_EVENTS + "\"",
			    ENOENT);
	sock_.subscribe(*group, subscribing);
}

std::vector<Event> EventMonitor::read()
{
	std::vector<Event> events;
	for (const Msg &msg : sock_.receive("receiving rdmablk events"))
		if (std::optional<Event> event = parse_notification(*msg, family_))
			events.push_back(std::move(*event));
	return events;
}

} // namespace rdmablk::nl
