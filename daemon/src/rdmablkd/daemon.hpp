// SPDX-License-Identifier: GPL-2.0
/*
 * rdmablkd put together: the event loop and what it watches (signals, the
 * retry timer, kernel events, the control socket, the worker's finished
 * jobs), around the Engine.
 */
#pragma once

#include <memory>

#include "discovery/autoconnect.hpp"
#include "config/config_store.hpp"
#include "control/control_server.hpp"
#include "control/control_socket.hpp"
#include "ctl/fd.hpp"
#include "discovery/discover.hpp"
#include "engine/engine.hpp"
#include "event_loop.hpp"
#include "log.hpp"
#include "nl/monitor.hpp"
#include "options.hpp"
#include "engine/worker.hpp"

namespace rdmablk::daemon {

class Daemon {
public:
	/* Everything up to serving: throws std::runtime_error with a message for the administrator. */
	Daemon(const Options &options, Logger &log);
	~Daemon();

	/* Serve until SIGTERM or SIGINT; the kernel keeps every device and export. */
	void run();

private:
	void on_signal();
	void on_events();
	/* Subscribe to kernel events (again, after rdmablk.ko was reloaded). */
	void subscribe();
	/* Is the event subscription still in place? */
	bool subscribed() const;
	void reload();
	void arm_timer();
	void notify(const std::string &state);

	const Options options_;
	Logger &log_;
	EventLoop loop_;
	ctl::UniqueFd state_lock_;
	ctl::UniqueFd signals_;
	ctl::UniqueFd timer_;
	ConfigStore config_file_;
	/* READY=1 was sent: after the first pass, so that boot waits for it. */
	bool ready_ = false;
	std::unique_ptr<DesiredState> desired_;
	std::unique_ptr<Worker> worker_;
	std::unique_ptr<Discoveries> discoveries_;
	std::unique_ptr<Engine> engine_;
	std::unique_ptr<AutoConnect> autoconnect_;
	std::unique_ptr<nl::EventMonitor> monitor_;
	std::uint64_t monitor_token_ = 0;
	std::unique_ptr<ListenSocket> socket_;
	std::unique_ptr<ControlServer> server_;
};

} // namespace rdmablk::daemon
