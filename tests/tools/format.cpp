// SPDX-License-Identifier: GPL-2.0
#include "format.hpp"

#include <sstream>

#include <linux/rdmablk.h>

#include "nl/names.hpp"

namespace rdmablk::tool {

namespace {

const char *access_name(bool read_only)
{
	return read_only ? "ro" : "rw";
}

const char *path_mode_name(bool standby)
{
	return standby ? "standby" : "active";
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
	     << access_name(exp.read_only) << ' ' << exp.nr_connections << ' ';
	if (exp.allowed_hosts.empty())
		line << '-';
	for (std::size_t i = 0; i < exp.allowed_hosts.size(); i++)
		line << (i ? "," : "") << nl::to_string(exp.allowed_hosts[i]);
	line << ' ' << (exp.auth_required ? "auth" : "open");
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

std::string format_device_details(const nl::Device &dev)
{
	std::ostringstream out;
	out << "dev=" << dev.name << "\naddr=" << dev.target.addr << "\nport=" << dev.target.port
	    << "\nname=" << dev.export_name << "\nuuid=" << nl::to_string(dev.uuid)
	    << "\nsize=" << dev.size << "\nstate=" << nl::dev_state_name(dev.state)
	    << "\nqueues=" << dev.nr_queues << "\npoll_queues=" << dev.nr_poll_queues
	    << "\nqueue_depth=" << dev.queue_depth
	    << "\nauth=" << nl::auth_mode_name(dev.auth)
	    << "\npolicy=" << (dev.mp_policy ? nl::mp_policy_name(dev.mp_policy) : "")
	    << "\nreconnect_delay=" << dev.reconnect_delay
	    << "\nctrl_loss_tmo=" << dev.ctrl_loss_tmo
	    << "\nfast_io_fail_tmo=" << dev.fast_io_fail_tmo
	    << "\nkeepalive_tmo=" << dev.keepalive_tmo
	    << "\nreconnect_attempt=" << dev.reconnect_attempt
	    << "\nreconnect_max=" << dev.reconnect_max
	    << "\nnext_attempt_ms=" << dev.next_attempt_ms
	    << "\nlast_error=" << dev.last_error.value_or("");
	for (const nl::QueueInfo &q : dev.queues)
		out << "\nqueue=" << q.id << " state=" << nl::queue_state_name(q.state)
		    << " commands=" << q.commands << " errors=" << q.errors;
	for (const nl::PathInfo &p : dev.paths) {
		out << "\npath=" << p.id << " addr=" << p.target.addr << " port=" << p.target.port
		    << " state=" << nl::dev_state_name(p.state)
		    << " mode=" << path_mode_name(p.standby) << " inflight=" << p.inflight
		    << " commands=" << p.commands << " completed=" << p.completed
		    << " errors=" << p.errors << " requeued=" << p.requeued
		    << " failovers=" << p.failovers << " reconnects=" << p.reconnects;
		if (p.last_error)
			out << " last_error=" << quoted(*p.last_error);
	}
	return out.str();
}

std::string quoted(std::string_view value)
{
	if (!value.empty() && value.find_first_of(" \t\n\"\\") == std::string_view::npos)
		return std::string(value);
	std::string out = "\"";
	for (const char c : value) {
		if (c == '"' || c == '\\')
			out += '\\';
		out += c;
	}
	return out + '"';
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
	if (event.device && event.type == RDMABLK_EVENT_DEVICE_STATE)
		line << " attempt=" << event.device->reconnect_attempt
		     << " max=" << event.device->reconnect_max;
	if (event.path_id)
		line << " path=" << *event.path_id;
	if (event.reason)
		line << " reason=" << quoted(*event.reason);
	return line.str();
}

} // namespace rdmablk::tool
