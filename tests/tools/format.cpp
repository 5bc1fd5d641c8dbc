// SPDX-License-Identifier: GPL-2.0
#include "format.hpp"

#include <sstream>

#include "nl/names.hpp"

namespace rdmablk::tool {

namespace {

const char *access_name(bool read_only)
{
	return read_only ? "ro" : "rw";
}

} // namespace

std::string format_listener(const nl::Listener &listener)
{
	std::ostringstream line;
	line << listener.addr << ' ' << listener.port << ' '
	     << nl::listener_state_name(listener.state);
	return line.str();
}

std::string format_export(const nl::Export &exp)
{
	std::ostringstream line;
	line << exp.name << ' ' << exp.path << ' ' << nl::to_string(exp.uuid) << ' ' << exp.size
	     << ' ' << exp.logical_block_size << ' ' << exp.physical_block_size << ' '
	     << access_name(exp.read_only) << ' ' << exp.nr_connections;
	return line.str();
}

std::string format_device(const nl::Device &dev)
{
	std::ostringstream line;
	line << dev.name << ' ' << dev.target.addr << ' ' << dev.target.port << ' '
	     << dev.export_name << ' ' << nl::to_string(dev.uuid) << ' ' << dev.size << ' '
	     << dev.logical_block_size << ' ' << dev.physical_block_size << ' '
	     << access_name(dev.read_only) << ' ' << dev.nr_queues << ' ' << dev.queue_depth << ' '
	     << nl::dev_state_name(dev.state);
	return line.str();
}

std::string format_event(const nl::Event &event)
{
	std::ostringstream line;
	line << "event=" << nl::event_name(event.type);
	if (const auto &l = event.listener)
		line << " addr=" << l->addr << " port=" << l->port;
	if (const auto &e = event.export_ref)
		line << " name=" << e->name << " uuid=" << nl::to_string(e->uuid);
	if (const auto &d = event.device)
		line << " dev=" << d->name << " addr=" << d->target.addr
		     << " port=" << d->target.port << " name=" << d->export_name
		     << " state=" << nl::dev_state_name(d->state);
	return line.str();
}

} // namespace rdmablk::tool
