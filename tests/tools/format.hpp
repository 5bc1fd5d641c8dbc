// SPDX-License-Identifier: GPL-2.0
/*
 * The lines rdmablk-nl prints. Test scripts parse them: change none.
 */
#pragma once

#include <string>

#include "nl/types.hpp"

namespace rdmablk::tool {

/* "ADDR PORT STATE" */
std::string format_listener(const nl::Listener &listener);

/* "NAME PATH UUID SIZE LBS PBS ro|rw CONNS" */
std::string format_export(const nl::Export &exp);

/* "rdmablkN ADDR PORT NAME UUID SIZE LBS PBS ro|rw QUEUES QDEPTH STATE" */
std::string format_device(const nl::Device &dev);

/*
 * "event=TYPE", then what the event is about: " addr=A port=P" for a
 * listener, " name=NAME uuid=UUID" for an export, " dev=rdmablkN addr=A
 * port=P name=NAME state=STATE" for a device.
 */
std::string format_event(const nl::Event &event);

} // namespace rdmablk::tool
