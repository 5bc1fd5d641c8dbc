// SPDX-License-Identifier: GPL-2.0
/*
 * Parsers for what rdmablk.ko sends, pure functions over received messages.
 *
 * Each throws MalformedMessage, naming the message and what is wrong with
 * it, when a mandatory attribute is missing or an attribute is malformed.
 */
#pragma once

#include <optional>

#include "nl/message.hpp"
#include "nl/types.hpp"

namespace rdmablk::nl {

/* An RDMABLK_CMD_GET_INFO reply. */
Info parse_info(nl_msg &msg);

/* One message of an RDMABLK_CMD_LISTEN_GET dump. */
Listener parse_listener(nl_msg &msg);

/* One message of an RDMABLK_CMD_EXPORT_GET dump. */
Export parse_export(nl_msg &msg);

/* One message of an RDMABLK_CMD_DEV_GET dump. */
Device parse_device(nl_msg &msg);

/* A HOST_GET dump reply. */
Host parse_host(nl_msg &msg);

/* The RDMABLK_CMD_ATTACH reply: the new device. */
Device parse_attach(nl_msg &msg);

/* The RDMABLK_CMD_PATH_ADD reply: the device, with its new path. */
Device parse_path_add(nl_msg &msg);

/* An RDMABLK_CMD_EVENT notification. */
Event parse_event(nl_msg &msg);

/*
 * A message received on the "events" group: the event it carries, or
 * nullopt for a message that is not an rdmablk event (another family's, or
 * a command newer than this build), which a listener skips.
 */
std::optional<Event> parse_notification(nl_msg &msg, int family);

} // namespace rdmablk::nl
