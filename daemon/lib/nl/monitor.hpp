// SPDX-License-Identifier: GPL-2.0
/*
 * A subscription to rdmablk's "events" multicast group.
 */
#pragma once

#include <vector>

#include "nl/socket.hpp"
#include "nl/types.hpp"

namespace rdmablk::nl {

class EventMonitor {
public:
	/* Subscribe; FamilyNotFound without rdmablk.ko. Events sent from now on are seen. */
	EventMonitor();

	/* Readable (poll(2) POLLIN) when events are waiting. */
	int fd() const noexcept { return sock_.fd(); }

	/* The events waiting, maybe none; never blocks. */
	std::vector<Event> read();

private:
	GenlSocket sock_;
	int family_;
};

} // namespace rdmablk::nl
