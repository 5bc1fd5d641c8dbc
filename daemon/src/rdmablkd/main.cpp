// SPDX-License-Identifier: GPL-2.0
/*
 * rdmablkd: keeps the kernel's rdmablk listeners, exports and attachments
 * as /etc/rdmablk/rdmablk.conf describes them, and serves rdmablkctl.
 *
 * Threading model
 * ---------------
 * Two threads, and nothing is shared between them but two queues and the
 * desired state:
 *
 *  - The event loop (this thread, EventLoop: epoll) owns everything else.
 *    It watches a signalfd (SIGTERM and SIGINT stop the daemon, SIGHUP
 *    re-reads the configuration), a timerfd (the next retry or periodic
 *    check), the netlink socket subscribed to rdmablk's "events" group,
 *    the control socket and every client connection, and the worker's
 *    eventfd. Nothing it does blocks for long: it never sends a netlink
 *    request and never writes a file.
 *
 *  - The worker (Worker) performs every netlink request (an attach may
 *    take seconds against a slow target) and every file write, one job at
 *    a time in submission order. A job's result comes back as a closure
 *    queued for the loop, which the eventfd wakes. A client whose request
 *    needs the worker keeps its connection open and gets its answer when
 *    the job is done; other clients are served meanwhile.
 *
 *  - The desired state (DesiredState, mutex-protected) is changed only by
 *    worker jobs, right after the kernel change it belongs to and after the
 *    configuration file was saved, so a reconcile pass (also a job) always
 *    sees a configuration at least as new as the kernel.
 *
 * The kernel keeps every device, export and listener whatever happens to
 * this process: rdmablkd never detaches or removes anything on exit, and
 * after a restart (even after SIGKILL) it adopts what the kernel has.
 */
#include <cstdio>
#include <exception>

#include "config/config.hpp"
#include "daemon.hpp"
#include "log.hpp"
#include "options.hpp"

namespace {

using namespace rdmablk::daemon;

int check_config(const Options &opts)
{
	try {
		const Config config = load_config(opts.config);
		std::printf("%s: ok: %zu listeners, %zu exports, %zu attachments\n",
			    opts.config.c_str(), config.listeners.size(), config.exports.size(),
			    config.attachments.size());
		return 0;
	} catch (const ConfigError &e) {
		std::fprintf(stderr, "rdmablkd: %s\n", e.what());
		return 1;
	}
}

} // namespace

int main(int argc, char **argv)
{
	Options opts;
	try {
		opts = parse_options(argc, argv);
	} catch (const UsageError &e) {
		std::fprintf(stderr, "rdmablkd: %s\n%s", e.what(), usage_text().c_str());
		return 2;
	}
	if (opts.help) {
		std::fputs(usage_text().c_str(), stdout);
		return 0;
	}
	if (opts.version) {
		std::printf("rdmablkd %s\n", RDMABLKD_VERSION);
		return 0;
	}
	if (opts.check_config)
		return check_config(opts);

	Logger log(use_journal(opts.journal) ? Logger::Sink::journal : Logger::Sink::stderr_lines);
	try {
		Daemon daemon(opts, log);
		daemon.run();
	} catch (const std::exception &e) {
		log.error(e.what());
		return 1;
	}
	return 0;
}
