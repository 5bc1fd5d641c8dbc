// SPDX-License-Identifier: GPL-2.0
#include "daemon.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <signal.h>
#include <linux/netlink.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/file.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <systemd/sd-daemon.h>

#include "config/atomic_file.hpp"
#include "ctl/protocol.hpp"
#include "host_identity.hpp"
#include "kernel/event_log.hpp"
#include "kernel/kernel_probe.hpp"
#include "nl/error.hpp"

namespace rdmablk::daemon {

namespace {

[[noreturn]] void fail(const std::string &what, int err = errno)
{
	throw std::runtime_error(what + ": " + std::strerror(err));
}

/* Held while this process runs, so that two daemons never manage one kernel. */
ctl::UniqueFd lock_state_dir(const std::string &dir)
{
	make_dirs(dir, 0755);
	const std::string path = dir + "/rdmablkd.lock";
	ctl::UniqueFd fd(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644));
	if (!fd)
		fail("opening " + path);
	if (::flock(fd.get(), LOCK_EX | LOCK_NB) < 0) {
		if (errno == EWOULDBLOCK)
			throw std::runtime_error("another rdmablkd is running (" + path +
						 " is locked)");
		fail("locking " + path);
	}
	return fd;
}

ctl::UniqueFd block_signals()
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	/* Before any thread starts, so that every thread inherits the mask. */
	if (pthread_sigmask(SIG_BLOCK, &set, nullptr) != 0)
		fail("blocking signals");
	::signal(SIGPIPE, SIG_IGN);
	ctl::UniqueFd fd(::signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC));
	if (!fd)
		fail("creating a signalfd");
	return fd;
}

Config load_or_fail(ConfigStore &file)
{
	try {
		return file.load();
	} catch (const ConfigError &e) {
		throw std::runtime_error(std::string("bad configuration: ") + e.what());
	}
}

} // namespace

Daemon::Daemon(const Options &options, Logger &log)
	: options_(options), log_(log), config_file_(options_.config)
{
	Config config = load_or_fail(config_file_);
	const HostIdentity host = ensure_hostid(options_.hostid_file);
	if (host.created)
		log_.notice("created host id " + nl::to_string(host.id) + " in " +
			    options_.hostid_file);
	state_lock_ = lock_state_dir(options_.state_dir);
	ProbedKernel probed = probe_kernel(options_.modprobe, log_);
	log_.info("rdmablk.ko " + probed.info.module_version + " answers; host id " +
		  nl::to_string(host.id) + "; configuration " + options_.config);

	signals_ = block_signals();
	socket_ = std::make_unique<ListenSocket>(ListenSocket::open(options_.socket));
	timer_ = ctl::UniqueFd(::timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC));
	if (!timer_)
		fail("creating a timerfd");

	desired_ = std::make_unique<DesiredState>(
		std::move(config), [this](const Config &c) { config_file_.save(c); },
		[this] { config_file_.check(); });
	worker_ = std::make_unique<Worker>(std::move(probed.kernel));
	discoveries_ = std::make_unique<Discoveries>(loop_, log_);
	EngineOptions engine_options{host.id, options_.config, options_.state_dir + "/state.json",
				     probed.info.module_version, {}, {}, {}, {}};
	engine_options.discover = [this](const nl::Endpoint &target, const nl::Uuid &hostid,
					 KeyPair keys, std::function<void(ctl::Response)> reply) {
		discoveries_->start(target, hostid, std::move(keys), std::move(reply));
	};
	engine_options.discoveries_changed = [this](const std::vector<DiscoveryConfig> &d) {
		autoconnect_->configure(d);
	};
	engine_options.discovery_status = [this] { return autoconnect_->status(); };
	engine_options.load_config = [this] { return config_file_.load(); };
	engine_ = std::make_unique<Engine>(*worker_, *desired_, log_, std::move(engine_options));
	AutoConnect::Hooks hooks;
	hooks.devices = [this] { return engine_->devices(); };
	hooks.configured = [this] { return desired_->get().attachments; };
	hooks.wanted = [this](const std::vector<AutoAttachment> &w) {
		engine_->set_auto_attachments(w);
	};
	hooks.paths = [this](const std::vector<AutoPath> &p) { engine_->set_auto_paths(p); };
	autoconnect_ = std::make_unique<AutoConnect>(loop_, log_, host.id, std::move(hooks));
	engine_->on_pass_done = [this](bool answered, bool reconnected) {
		if (answered && (reconnected || !subscribed())) {
			log_.notice("rdmablk.ko was loaded again; subscribing to its events anew");
			subscribe();
		}
		/*
		 * Ready once the configuration was applied a first time, so that
		 * what is ordered after rdmablkd (remote-fs-pre.target, hence
		 * _netdev mounts) finds the configured devices attached.
		 */
		notify(std::string(std::exchange(ready_, true) ? "" : "READY=1\n") +
		       "STATUS=" + engine_->summary());
	};

	loop_.add(signals_.get(), EPOLLIN, [this](std::uint32_t) { on_signal(); });
	loop_.add(timer_.get(), EPOLLIN, [this](std::uint32_t) {
		std::uint64_t expirations;
		[[maybe_unused]] const ssize_t n = ::read(timer_.get(), &expirations,
							  sizeof(expirations));
		engine_->on_timer();
	});
	loop_.add(worker_->fd(), EPOLLIN, [this](std::uint32_t) { worker_->run_done(); });
	subscribe();
	server_ = std::make_unique<ControlServer>(
		loop_, socket_->take(),
		[this](const ctl::Request &request, ControlServer::Reply reply) {
			engine_->handle(request, std::move(reply));
		},
		log_);
	log_.info(std::string("serving rdmablkctl on ") + options_.socket +
		  (socket_->activated() ? " (socket activation)" : ""));

	/* Subscribed first: nothing that happens from here on goes unseen. */
	engine_->request_pass();
	autoconnect_->configure(desired_->get().discoveries);
	notify("STATUS=applying " + options_.config);
}

Daemon::~Daemon()
{
	/* The worker's jobs use the engine and the desired state: stop it first. */
	worker_.reset();
	autoconnect_.reset();
}

void Daemon::run()
{
	loop_.run([this] { arm_timer(); });
	notify("STOPPING=1\nSTATUS=stopped; the kernel keeps every device, export and listener");
	log_.notice("stopping; the kernel keeps every device, export and listener");
}

void Daemon::subscribe()
{
	if (monitor_token_)
		loop_.remove(std::exchange(monitor_token_, 0));
	monitor_.reset();
	try {
		monitor_ = std::make_unique<nl::EventMonitor>();
	} catch (const nl::Error &e) {
		log_.warning(std::string("cannot subscribe to kernel events: ") + e.what() +
			     "; relying on periodic checks");
		return;
	}
	monitor_token_ = loop_.add(monitor_->fd(), EPOLLIN, [this](std::uint32_t) { on_events(); });
}

bool Daemon::subscribed() const
{
	if (!monitor_)
		return false;
	/* Unloading the module drops every subscription to its groups, even if it comes back. */
	std::uint32_t groups[8] = {};
	socklen_t len = sizeof(groups);
	if (::getsockopt(monitor_->fd(), SOL_NETLINK, NETLINK_LIST_MEMBERSHIPS, groups, &len) < 0)
		return true; /* cannot tell: keep it */
	for (std::size_t i = 0; i < std::min<std::size_t>(len / sizeof(groups[0]), 8); i++)
		if (groups[i])
			return true;
	return false;
}

void Daemon::on_events()
{
	try {
		for (const nl::Event &event : monitor_->read()) {
			nlohmann::json j = event_json(event);
			j["time"] = ctl::utc_timestamp(std::chrono::system_clock::now());
			server_->publish(j);
			engine_->on_event(event);
		}
	} catch (const nl::Error &e) {
		/* Events lost (ENOBUFS) or unreadable: compare with the kernel instead. */
		log_.warning(std::string("reading kernel events: ") + e.what() +
			     "; comparing with the kernel");
		server_->publish({{"type", "events-lost"},
				  {"time", ctl::utc_timestamp(std::chrono::system_clock::now())},
				  {"message", std::string("rdmablkd missed kernel events (") +
						      e.what() + "); 'rdmablkctl status' shows the state"}});
		engine_->request_pass();
	}
}

void Daemon::on_signal()
{
	signalfd_siginfo info;
	while (::read(signals_.get(), &info, sizeof(info)) == sizeof(info)) {
		if (info.ssi_signo == SIGHUP) {
			reload();
			continue;
		}
		log_.notice(std::string("received ") + strsignal(static_cast<int>(info.ssi_signo)));
		loop_.stop();
	}
}

void Daemon::reload()
{
	log_.notice("reloading " + options_.config + " (SIGHUP)");
	engine_->reload([this](const ctl::Response &response) {
		if (response.ok)
			notify("STATUS=reloaded " + options_.config);
	});
}

void Daemon::arm_timer()
{
	itimerspec spec{};
	if (const std::optional<Time> next = engine_->next_wakeup()) {
		const auto since_epoch = next->time_since_epoch();
		const auto secs = std::chrono::duration_cast<std::chrono::seconds>(since_epoch);
		spec.it_value.tv_sec = secs.count();
		spec.it_value.tv_nsec =
			std::chrono::duration_cast<std::chrono::nanoseconds>(since_epoch - secs)
				.count();
		/* Zero would disarm: a time already past fires at once instead. */
		if (spec.it_value.tv_sec <= 0 && spec.it_value.tv_nsec <= 0)
			spec.it_value.tv_nsec = 1;
	}
	::timerfd_settime(timer_.get(), TFD_TIMER_ABSTIME, &spec, nullptr);
}

void Daemon::notify(const std::string &state)
{
	if (options_.notify)
		sd_notify(0, state.c_str());
}

} // namespace rdmablk::daemon
