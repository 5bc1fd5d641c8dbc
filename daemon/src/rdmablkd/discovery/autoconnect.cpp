// SPDX-License-Identifier: GPL-2.0
#include "discovery/autoconnect.hpp"

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "nl/names.hpp"

namespace rdmablk::daemon {

namespace {

using nlohmann::json;

json seen_json(const SeenExport &e)
{
	return {{"name", e.name}, {"uuid", nl::to_string(e.uuid)}};
}

LogRecord record(int priority, std::string message, const std::string &address,
		 const SeenExport &e)
{
	return {priority,
		std::move(message),
		{{"RDMABLK_DISCOVERY", address},
		 {"RDMABLK_EXPORT", e.name},
		 {"RDMABLK_EXPORT_UUID", nl::to_string(e.uuid)}}};
}

} // namespace

AutoConnect::AutoConnect(EventLoop &loop, Logger &log, const nl::Uuid &hostid, Hooks hooks,
			 DiscoveryTimeouts timeouts)
	: loop_(loop), log_(log), hostid_(hostid), hooks_(std::move(hooks)), timeouts_(timeouts)
{
	timer_ = ctl::UniqueFd(::timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC));
	if (!timer_)
		throw std::runtime_error(std::string("creating a timerfd: ") + std::strerror(errno));
	timer_token_ = loop_.add(timer_.get(), EPOLLIN, [this](std::uint32_t) {
		std::uint64_t expirations;
		[[maybe_unused]] const ssize_t n =
			::read(timer_.get(), &expirations, sizeof(expirations));
		on_timer();
	});
}

AutoConnect::~AutoConnect()
{
	loop_.remove(timer_token_);
}

void AutoConnect::configure(const std::vector<DiscoveryConfig> &discoveries)
{
	std::map<std::string, const DiscoveryConfig *> want;
	for (const DiscoveryConfig &d : discoveries)
		want[nl::to_string(d.target)] = &d;
	for (auto it = addresses_.begin(); it != addresses_.end();) {
		const auto w = want.find(it->first);
		if (w == want.end() || !(*w->second == it->second.config)) {
			log_.info("discovery " + it->first + ": " +
				  (w == want.end() ? "removed from" : "changed in") +
				  " the configuration; its devices stay attached");
			it = addresses_.erase(it);
		} else {
			++it;
		}
	}
	for (const auto &[key, config] : want)
		if (!addresses_.count(key)) {
			addresses_[key].config = *config;
			start(key);
		}
	publish();
	arm();
}

void AutoConnect::start(const std::string &key)
{
	Address &a = addresses_.at(key);
	a.next_retry.reset();
	a.connected = false;
	DiscoverySession::Handlers handlers;
	handlers.connected = [this, key] {
		Address &self = addresses_.at(key);
		self.connected = true;
		self.backoff.connected();
		log_.info("discovery " + key + ": connected");
		self.session->read_log();
	};
	handlers.log = [this, key](const proto::DiscLog &log) { on_log(key, log); };
	handlers.changed = [this, key](std::uint64_t) { addresses_.at(key).session->read_log(); };
	handlers.failed = [this, key](const std::string &error) { on_failed(key, error); };
	try {
		/* Read now, each session: a key file may have been rotated since. */
		KeyPair keys = read_keys(a.config.settings.key_file, a.config.settings.target_key_file);
		a.session = std::make_unique<DiscoverySession>(
			loop_, a.config.target, hostid_, std::move(handlers), timeouts_, std::move(keys));
	} catch (const DiscoveryError &e) {
		on_failed(key, e.what());
	} catch (const KeyFileError &e) {
		on_failed(key, e.what());
	}
}

void AutoConnect::on_log(const std::string &key, const proto::DiscLog &log)
{
	Address &a = addresses_.at(key);
	a.generation = log.generation;
	a.last_error.clear();
	std::vector<AutoAttachment> others;
	for (const auto &[k, other] : addresses_)
		if (k != key)
			others.insert(others.end(), other.wanted.begin(), other.wanted.end());
	AutoDecision d = decide_autoconnect(a.config, log, hooks_.configured(), others,
					    hooks_.devices(), a.matched);
	for (const SeenExport &e : d.gone) {
		log_.write(record(LOG_WARNING,
				  "discovery " + key + ": export " + e.name +
					  " is no longer offered; its device stays attached",
				  key, e));
		if (std::find(a.gone.begin(), a.gone.end(), e) == a.gone.end())
			a.gone.push_back(e);
	}
	for (const SeenExport &e : d.matched) {
		std::erase(a.gone, e);
		const bool known = std::find(a.matched.begin(), a.matched.end(), e) != a.matched.end();
		if (!known)
			log_.write(record(LOG_INFO, "discovery " + key + ": export " + e.name + " offered",
					  key, e));
	}
	for (const auto &[e, path] : d.elsewhere)
		if (std::find(a.matched.begin(), a.matched.end(), e) == a.matched.end())
			log_.write(record(LOG_INFO,
					  "discovery " + key + ": export " + e.name +
						  " is attached through " + path + " already" +
						  (std::ranges::any_of(d.paths,
								       [&](const AutoPath &p) {
									       return p.uuid == e.uuid;
								       })
							   ? "; adding this address as a path of it"
							   : ""),
					  key, e));
	a.matched = std::move(d.matched);
	a.wanted = std::move(d.wanted);
	a.elsewhere = std::move(d.elsewhere);
	a.paths = std::move(d.paths);
	publish();
	a.session->wait_change(log.generation);
}

void AutoConnect::on_failed(const std::string &key, const std::string &error)
{
	Address &a = addresses_.at(key);
	const std::chrono::seconds wait = a.backoff.failed();
	if (error != a.last_error || a.connected)
		log_.warning("discovery " + key + ": " + error + "; trying again in " +
			     std::to_string(wait.count()) + " s");
	a.last_error = error;
	a.connected = false;
	a.next_retry = Clock::now() + wait;
	/* Safe: nothing of the session runs after its failed handler. */
	a.session.reset();
	arm();
}

void AutoConnect::publish()
{
	std::vector<AutoAttachment> all;
	std::vector<AutoPath> paths;
	for (const auto &[key, a] : addresses_) {
		all.insert(all.end(), a.wanted.begin(), a.wanted.end());
		paths.insert(paths.end(), a.paths.begin(), a.paths.end());
	}
	hooks_.wanted(all);
	if (hooks_.paths)
		hooks_.paths(paths);
}

void AutoConnect::arm()
{
	std::optional<Clock::time_point> next;
	for (const auto &[key, a] : addresses_)
		if (a.next_retry && (!next || *a.next_retry < *next))
			next = a.next_retry;
	itimerspec spec{};
	if (next) {
		const auto since = next->time_since_epoch();
		const auto secs = std::chrono::duration_cast<std::chrono::seconds>(since);
		spec.it_value.tv_sec = secs.count();
		spec.it_value.tv_nsec =
			std::chrono::duration_cast<std::chrono::nanoseconds>(since - secs).count();
		if (spec.it_value.tv_sec <= 0 && spec.it_value.tv_nsec <= 0)
			spec.it_value.tv_nsec = 1;
	}
	::timerfd_settime(timer_.get(), TFD_TIMER_ABSTIME, &spec, nullptr);
}

void AutoConnect::on_timer()
{
	const Clock::time_point now = Clock::now();
	std::vector<std::string> due;
	for (const auto &[key, a] : addresses_)
		if (a.next_retry && *a.next_retry <= now)
			due.push_back(key);
	for (const std::string &key : due)
		start(key);
	arm();
}

json AutoConnect::status() const
{
	const Clock::time_point now = Clock::now();
	json list = json::array();
	for (const auto &[key, a] : addresses_) {
		json attach = json::array();
		for (const std::string &item : a.config.attach)
			attach.push_back(item);
		json matched = json::array();
		for (const SeenExport &e : a.matched) {
			json m = seen_json(e);
			m["attached_here"] = std::any_of(
				a.wanted.begin(), a.wanted.end(),
				[&](const AutoAttachment &w) { return w.uuid == e.uuid; });
			m["path_here"] = std::any_of(a.paths.begin(), a.paths.end(),
						     [&](const AutoPath &p) { return p.uuid == e.uuid; });
			matched.push_back(m);
		}
		json gone = json::array();
		for (const SeenExport &e : a.gone)
			gone.push_back(seen_json(e));
		json entry{{"address", a.config.target.addr},
			   {"port", a.config.target.port},
			   {"attach", a.config.attach_all ? json("all") : attach},
			   {"state", a.connected ? "connected" : "retrying"},
			   {"auth", a.connected && a.session ?
					    json(nl::auth_mode_name(a.session->auth_mode())) :
					    json(nullptr)},
			   {"generation", a.generation ? json(*a.generation) : json(nullptr)},
			   {"last_error", a.last_error.empty() ? json(nullptr) : json(a.last_error)},
			   {"next_retry_s", nullptr},
			   {"matched", matched},
			   {"gone", gone}};
		if (a.next_retry)
			entry["next_retry_s"] = std::max<long>(
				0, std::chrono::duration_cast<std::chrono::seconds>(*a.next_retry - now)
					   .count());
		else if (!a.connected)
			entry["state"] = "connecting";
		list.push_back(entry);
	}
	return {{"discoveries", list}};
}

} // namespace rdmablk::daemon
