// SPDX-License-Identifier: GPL-2.0
/*
 * The lines rdmablk-nl prints. Test scripts parse them: change none.
 */
#pragma once

#include <string>
#include <string_view>

#include "nl/types.hpp"

namespace rdmablk::tool {

/* "ADDR PORT STATE" */
std::string format_listener(const nl::Listener &listener);

/* "NAME PATH UUID SIZE LBS PBS ro|rw CONNS HOSTS", HOSTS comma-separated or "-" for any */
std::string format_export(const nl::Export &exp);

/* "rdmablkN ADDR PORT NAME UUID SIZE LBS PBS ro|rw QUEUES QDEPTH STATE" */
std::string format_device(const nl::Device &dev);

/*
 * Every detail of @dev, "key=value" lines without the last newline: dev,
 * addr, port, name, uuid, size, state, queues, queue_depth, auth, policy
 * (empty from a module without multipath), the recovery settings and
 * progress, last_error (empty when none), then one
 * "queue=ID state=STATE commands=N errors=N" per queue, then one
 * "path=ID addr=A port=P state=STATE mode=active|standby inflight=N
 * commands=N completed=N errors=N requeued=N failovers=N reconnects=N"
 * per path, with " last_error=ERROR" (quoted()) after when it has one.
 */
std::string format_device_details(const nl::Device &dev);

/* @value as is, or in double quotes (with \ and " escaped) when it is empty or has blanks. */
std::string quoted(std::string_view value);

/*
 * "event=TYPE", then what the event is about: " addr=A port=P" for a
 * listener, " name=NAME uuid=UUID" for an export, " dev=rdmablkN addr=A
 * port=P name=NAME state=STATE" for a device, with " attempt=N max=M"
 * after for a device-state event and " path=ID" for a path event; last
 * " reason=REASON" (quoted()) when the event has one.
 */
std::string format_event(const nl::Event &event);

} // namespace rdmablk::tool
