// SPDX-License-Identifier: GPL-2.0
/*
 * Engine: reconcile passes, their retries, and kernel events.
 *
 * A pass is one job: read the kernel's state, plan (reconcile.hpp) against
 * the desired state as it is at that moment, carry the actions out. Its
 * Done updates the retry book from the outcome and logs what happened.
 */
#include <algorithm>
#include <cerrno>
#include <optional>
#include <set>
#include <variant>

#include <linux/rdmablk.h>

#include "config/atomic_file.hpp"
#include "engine/engine.hpp"
#include "engine/keys.hpp"
#include "kernel/event_log.hpp"
#include "nl/names.hpp"
#include "engine/request_args.hpp"

namespace rdmablk::daemon {

namespace {

using nlohmann::json;

/* The retry entry of the kernel itself: set while it does not answer. */
constexpr const char *kernel_key = "kernel";

template <class... Ts> struct Overloaded : Ts... {
	using Ts::operator()...;
};

std::string seconds_text(std::chrono::seconds s)
{
	return std::to_string(s.count()) + " s";
}

/* The device a path or policy action is for; none for other actions. */
std::optional<std::uint32_t> path_action_device(const Action &action)
{
	if (const auto *a = std::get_if<AddPath>(&action))
		return a->index;
	if (const auto *a = std::get_if<SetPath>(&action))
		return a->index;
	if (const auto *a = std::get_if<SetPolicy>(&action))
		return a->index;
	return std::nullopt;
}

} // namespace

void Engine::request_pass()
{
	if (pass_running_) {
		pass_again_ = true;
		return;
	}
	pass_running_ = true;
	executor_.submit([this, book = book_, now = now_()](Kernel &kernel) {
		return run_pass(kernel, book, now);
	});
}

Done Engine::run_pass(Kernel &kernel, const RetryBook &book, Time now)
{
	auto outcome = std::make_shared<PassOutcome>();
	try {
		outcome->snapshot = kernel.snapshot();
		try {
			adopt_paths(outcome->snapshot.devices);
		} catch (const SaveError &e) {
			outcome->save_error = e.what();
		}
		outcome->plan = plan(wanted(), outcome->snapshot, book, now);
		try {
			desired_.update([&](Config &c) {
				for (const AdoptedUuid &adopted : outcome->plan.uuids)
					for (ExportConfig &e : c.exports)
						if (e.name == adopted.name && !e.uuid)
							e.uuid = adopted.uuid;
			});
		} catch (const SaveError &e) {
			outcome->save_error = e.what();
		}
		for (const Action &action : outcome->plan.actions)
			outcome->results.push_back(execute(kernel, action));
		/* What the actions made of it, for summary() and status. */
		if (!outcome->results.empty())
			outcome->snapshot = kernel.snapshot();
		give_attached_their_paths(kernel, book, now, *outcome);
	} catch (const std::exception &e) {
		outcome->kernel_error = e.what();
	}
	outcome->generation = kernel.generation();
	return [this, outcome] { finish_pass(*outcome); };
}

/*
 * A disk this pass attached has its first path only. Its other paths and
 * its policy are planned and set now, in the same pass, rather than by the
 * next (at boot, the periodic check's: a minute on one path, and rdmablkd
 * ready before the disk had its paths). Only those actions: anything else
 * the second plan holds failed a moment ago and waits for its retry.
 */
void Engine::give_attached_their_paths(Kernel &kernel, const RetryBook &book, Time now,
				       PassOutcome &outcome)
{
	const auto attached_now = [](const ActionResult &r) { return r.device && !r.error; };
	if (std::ranges::none_of(outcome.results, attached_now))
		return;
	/* Most passes attach nothing: only these copy the desired state. */
	const Config config = wanted();
	std::set<std::uint32_t> attached;
	std::set<std::string> keys;
	for (const ActionResult &r : outcome.results) {
		if (!attached_now(r))
			continue;
		attached.insert(r.device->index);
		if (const AttachmentConfig *a = find_attachment_of(config, *r.device))
			for (std::string &key : attachment_keys(*a))
				keys.insert(std::move(key));
	}
	/* An action that fails is retried as any other (record_results). */
	const Plan more = plan(config, outcome.snapshot, book, now);
	bool changed = false;
	for (const Action &action : more.actions) {
		const std::optional<std::uint32_t> dev = path_action_device(action);
		if (!dev || !attached.contains(*dev))
			continue;
		outcome.results.push_back(execute(kernel, action));
		changed = true;
	}
	/* Its paths already there (settled) clear their old retries. */
	for (const BookMark &m : more.marks)
		if (keys.contains(m.key))
			outcome.plan.marks.push_back(m);
	if (changed)
		outcome.snapshot = kernel.snapshot();
}

Engine::ActionResult Engine::execute(Kernel &k, const Action &action)
{
	ActionResult result{key_of(action), describe(action), false, {}, {}};
	try {
		std::visit(
			Overloaded{
				[&](const AddListener &a) { k.listen_add(a.listener.endpoint); },
				[&](const SetHost &a) {
					const KeyPair keys =
						read_keys(a.host.key_file, a.host.target_key_file);
					k.host_set(a.host.id, keys.key_secret(),
						   keys.target_secret(), false);
				},
				[&](const AddExport &a) {
					const nl::Uuid uuid = a.exp.uuid.value_or(nl::generate_uuid());
					k.export_add(a.exp.name, a.exp.path, uuid, a.exp.read_only,
						     a.exp.allow, a.exp.auth_required);
					desired_.update([&](Config &c) {
						for (ExportConfig &e : c.exports)
							if (e.name == a.exp.name && !e.uuid)
								e.uuid = uuid;
					});
				},
				[&](const Attach &a) {
					try {
						result.device = attach(k, a.attachment);
					} catch (const nl::Error &e) {
						/* Attached by someone else meanwhile: adopt it. */
						if (e.errnum() == EEXIST)
							result.device = k.device_of(a.attachment);
						if (!result.device)
							throw;
					}
				},
				[&](const Reconnect &a) {
					result.reconnect = true;
					k.reconnect(a.index);
				},
				[&](const AddPath &a) {
					try {
						k.path_add({a.index, a.path, a.standby});
					} catch (const nl::Error &e) {
						/* Added by someone else meanwhile: the next pass sees it. */
						if (e.errnum() != EEXIST ||
						    dynamic_cast<const nl::FamilyNotFound *>(&e))
							throw;
					}
				},
				[&](const SetPath &a) { k.path_set({a.index, a.path, a.standby}); },
				[&](const SetPolicy &a) {
					nl::DevSetArgs set;
					set.mp_policy = a.policy;
					k.dev_set(a.index, set);
				},
			},
			action);
	} catch (const nl::FamilyNotFound &) {
		throw;
	} catch (const std::exception &e) {
		result.error = e.what();
	}
	return result;
}

void Engine::finish_pass(const PassOutcome &outcome)
{
	const Time now = now_();
	pass_running_ = false;
	last_pass_ = now;
	bool reconnected = false;

	if (outcome.kernel_error) {
		book_.failed(kernel_key, *outcome.kernel_error, now, backoff());
		if (kernel_problem_ != outcome.kernel_error)
			log_.error("cannot reach rdmablk.ko: " + *outcome.kernel_error +
				   "; trying again in " +
				   seconds_text(backoff().delay(book_.find(kernel_key)->attempts)));
		kernel_problem_ = outcome.kernel_error;
	} else {
		if (kernel_problem_)
			log_.notice("rdmablk.ko answers again");
		kernel_problem_.reset();
		book_.clear(kernel_key);
		reconnected = outcome.generation != generation_;
		generation_ = outcome.generation;
		seen_ = outcome.snapshot;
		apply_results(outcome, now);
		for (const Note &note : outcome.plan.notes)
			report(note);
		if (outcome.save_error)
			report({LOG_WARNING,
				"cannot write the export uuids taken from the kernel to the "
				"configuration: " +
					*outcome.save_error});
	}

	save_state();
	if (on_pass_done)
		on_pass_done(!outcome.kernel_error, reconnected);
	if (pass_again_) {
		pass_again_ = false;
		request_pass();
	}
}

void Engine::apply_results(const PassOutcome &outcome, Time now)
{
	const Backoff wait = backoff();
	record_results(outcome.results, now);
	for (const BookMark &m : outcome.plan.marks) {
		switch (m.mark) {
		case Mark::settled:
			book_.clear(m.key);
			break;
		case Mark::held:
			book_.hold(m.key);
			break;
		case Mark::again:
			book_.schedule(m.key, now, wait);
			log_.warning(m.key + " gave up again; asking it to reconnect in " +
				     seconds_text(wait.delay(book_.find(m.key)->attempts)));
			break;
		}
	}

	std::set<std::string> keys{kernel_key};
	const Config config = wanted();
	for (const ListenerConfig &l : config.listeners)
		keys.insert(listener_key(l.endpoint));
	for (const HostConfig &h : config.hosts)
		keys.insert(host_key(h.id));
	for (const ExportConfig &e : config.exports)
		keys.insert(export_key(e.name));
	for (const AttachmentConfig &a : config.attachments)
		for (std::string &key : attachment_keys(a))
			keys.insert(std::move(key));
	book_.retain(keys);
}

void Engine::record_results(const std::vector<ActionResult> &results, Time now)
{
	const Backoff wait = backoff();
	for (const ActionResult &r : results) {
		if (r.error) {
			book_.failed(r.key, *r.error, now, wait);
			const RetryEntry &entry = *book_.find(r.key);
			log_.warning(r.description + " failed: " + *r.error + "; attempt " +
				     std::to_string(entry.attempts) + ", next in " +
				     seconds_text(wait.delay(entry.attempts)));
			continue;
		}
		if (r.reconnect)
			book_.tried(r.key);
		else
			book_.clear(r.key);
		if (r.device) {
			log_.notice(r.description + ": attached as /dev/" + r.device->name);
		} else {
			log_.notice(r.description + ": done");
		}
	}
}

void Engine::report(const Note &note)
{
	if (reported_.insert(note.text).second)
		log_.log(note.priority, note.text);
}

void Engine::on_event(const nl::Event &event)
{
	log_.write(event_record(event));
	track(event);
	const Config config = wanted();
	switch (event.type) {
	case RDMABLK_EVENT_PATH_REMOVED:
		/* A configured path removed behind rdmablkd's back comes back. */
		if (event.device && find_attachment_of(config, *event.device))
			request_pass();
		return;
	case RDMABLK_EVENT_DEVICE_STATE:
	case RDMABLK_EVENT_DEVICE_DETACHED: {
		const nl::Device *dev = event.device ? &*event.device : nullptr;
		const AttachmentConfig *a = dev ? find_attachment_of(config, *dev) : nullptr;
		if (!a)
			return;
		if (event.type == RDMABLK_EVENT_DEVICE_STATE && dev->state == RDMABLK_DEV_LIVE)
			book_.clear(attachment_key(a->target, a->export_name));
		else if (event.type == RDMABLK_EVENT_DEVICE_DETACHED ||
			 dev->state == RDMABLK_DEV_DEAD)
			request_pass();
		return;
	}
	case RDMABLK_EVENT_EXPORT_REMOVED:
		if (event.export_ref && find_export(config, event.export_ref->name))
			request_pass();
		return;
	case RDMABLK_EVENT_LISTENER_REMOVED:
		if (event.listener && find_listener(config, *event.listener))
			request_pass();
		return;
	default:
		return;
	}
}

void Engine::track(const nl::Event &event)
{
	if (!seen_)
		return;
	if (event.device) {
		std::vector<nl::Device> &devices = seen_->devices;
		std::erase_if(devices,
			      [&](const nl::Device &d) { return d.index == event.device->index; });
		if (event.type != RDMABLK_EVENT_DEVICE_DETACHED)
			devices.push_back(*event.device);
	} else if (event.export_ref) {
		/*
		 * The event names the export only; the next pass reads the
		 * rest. Until then the summary counts it.
		 */
		std::vector<nl::Export> &exports = seen_->exports;
		const auto same = [&](const nl::Export &e) { return e.name == event.export_ref->name; };
		if (event.type == RDMABLK_EVENT_EXPORT_REMOVED)
			std::erase_if(exports, same);
		else if (event.type == RDMABLK_EVENT_EXPORT_ADDED &&
			 std::ranges::none_of(exports, same)) {
			nl::Export e;
			e.name = event.export_ref->name;
			e.uuid = event.export_ref->uuid;
			exports.push_back(std::move(e));
		}
	} else if (event.listener) {
		std::vector<nl::Listener> &listeners = seen_->listeners;
		const auto same = [&](const nl::Listener &l) {
			return l.addr == event.listener->addr && l.port == event.listener->port;
		};
		if (event.type == RDMABLK_EVENT_LISTENER_REMOVED)
			std::erase_if(listeners, same);
		else if (event.type == RDMABLK_EVENT_LISTENER_ADDED &&
			 std::ranges::none_of(listeners, same))
			listeners.push_back({.addr = event.listener->addr,
					     .port = event.listener->port,
					     .state = RDMABLK_LISTENER_LISTENING});
	}
}

Config Engine::wanted() const
{
	Config config = desired_.get();
	const std::lock_guard guard(auto_lock_);
	for (const AttachmentConfig &a : auto_)
		if (!find_attachment(config, a.target, a.export_name))
			config.attachments.push_back(a);
	return config;
}

void Engine::set_auto_paths(const std::vector<AutoPath> &paths)
{
	{
		const std::lock_guard guard(auto_lock_);
		if (paths == auto_paths_)
			return;
		auto_paths_ = paths;
	}
	request_pass();
}

void Engine::adopt_paths(const std::vector<nl::Device> &devices)
{
	std::vector<AutoPath> paths;
	{
		const std::lock_guard guard(auto_lock_);
		adopt_auto_paths(auto_, auto_paths_, devices);
		paths = auto_paths_;
	}
	if (!paths.empty())
		desired_.update(
			[&](Config &c) { adopt_auto_paths(c.attachments, paths, devices); });
}

void Engine::set_auto_attachments(const std::vector<AutoAttachment> &wanted)
{
	std::vector<AttachmentConfig> next;
	for (const AutoAttachment &w : wanted)
		if (!detached_auto_.count(attachment_key(w.attachment.target, w.attachment.export_name)))
			next.push_back(w.attachment);
	{
		const std::lock_guard guard(auto_lock_);
		if (next == auto_)
			return;
		auto_ = std::move(next);
	}
	request_pass();
}

std::vector<nl::Device> Engine::devices() const
{
	return seen_ ? seen_->devices : std::vector<nl::Device>{};
}

void Engine::remember(const std::vector<nl::Device> &devices)
{
	if (seen_)
		seen_->devices = devices;
}

/*
 * Hand the kernel every configured key again, from the files as they are
 * now: a reload is how an edited key file (a rotation) reaches it. On a
 * target, each [[host]]'s keys; on an initiator, those of each attached
 * [[attachment]] that has a key_file (DEV_SET: its next connections
 * authenticate with them, its live ones keep going). The problems, one a
 * host or device; none when the module is not loaded (the next pass sets
 * the hosts' keys, attaches read theirs).
 */
std::vector<std::string> Engine::reset_keys(Kernel &kernel, const Config &config)
{
	std::vector<std::string> problems;
	try {
		for (const HostConfig &h : config.hosts) {
			try {
				const KeyPair keys = read_keys(h.key_file, h.target_key_file);
				kernel.host_set(h.id, keys.key_secret(), keys.target_secret(),
						false);
			} catch (const nl::FamilyNotFound &) {
				throw;
			} catch (const std::exception &e) {
				problems.push_back("host " + nl::to_string(h.id) + ": " + e.what());
			}
		}
		const std::vector<nl::Device> devices = kernel.dev_get();
		for (const AttachmentConfig &a : config.attachments) {
			const nl::Device *dev = find_device(devices, a);
			if (!a.key_file || !dev)
				continue;
			try {
				const KeyPair keys = read_keys(a.key_file, a.target_key_file);
				nl::DevSetArgs set;
				set.key = keys.key_secret();
				set.target_key = keys.target_secret();
				kernel.dev_set(dev->index, set);
			} catch (const nl::FamilyNotFound &) {
				throw;
			} catch (const std::exception &e) {
				problems.push_back(dev->name + ": " + e.what());
			}
		}
	} catch (const nl::FamilyNotFound &) {
	}
	return problems;
}

void Engine::reload(Reply reply)
{
	if (!options_.load_config) {
		reply(ctl::fail(ctl::code::internal, "reloading is not available in this rdmablkd"));
		return;
	}
	executor_.submit([this, reply](Kernel &kernel) -> Done {
		Config config;
		try {
			config = options_.load_config();
		} catch (const ConfigError &e) {
			return [this, reply, what = std::string(e.what())] {
				log_.error("not reloading: " + what + "; the configuration in use stays");
				reply(ctl::fail(ctl::code::bad_config, what,
						"fix the file and reload again; the configuration "
						"in use stays"));
			};
		}
		/* Keep the uuids of exports the new file names without one. */
		const Config old = desired_.get();
		desired_.replace(config);
		std::optional<std::string> problem;
		try {
			desired_.update([&](Config &c) {
				for (ExportConfig &e : c.exports)
					if (const ExportConfig *before = find_export(old, e.name);
					    before && !e.uuid)
						e.uuid = before->uuid;
			});
		} catch (const SaveError &e) {
			problem = e.what();
		}
		const std::vector<std::string> key_problems = reset_keys(kernel, config);
		return [this, problem, key_problems, reply,
			discoveries = desired_.get().discoveries] {
			if (problem)
				log_.warning("cannot write the export uuids back: " + *problem);
			for (const std::string &p : key_problems)
				log_.warning("keeping the key in use: " + p);
			log_.notice("reloaded " + options_.config_path);
			if (options_.discoveries_changed)
				options_.discoveries_changed(discoveries);
			reported_.clear();
			request_pass();
			reply(ctl::ok({{"config", options_.config_path}}));
		};
	});
}

void Engine::cmd_reload(const nlohmann::json &args, Reply reply)
{
	only_args(args, {});
	reload(std::move(reply));
}

std::optional<Time> Engine::next_wakeup() const
{
	if (pass_running_)
		return std::nullopt;
	std::optional<Time> next = book_.next_due();
	/* While the kernel does not answer, nothing else is tried before it is. */
	if (const RetryEntry *kernel = book_.find(kernel_key); kernel && next)
		next = std::max(*next, kernel->next_due);
	if (const std::uint32_t interval = desired_.get().daemon.check_interval) {
		const Time check = last_pass_ + std::chrono::seconds(interval);
		if (!next || check < *next)
			next = check;
	}
	return next;
}

void Engine::on_timer()
{
	const std::optional<Time> next = next_wakeup();
	if (next && *next <= now_())
		request_pass();
}

std::string Engine::summary() const
{
	if (kernel_problem_)
		return "rdmablk.ko does not answer: " + *kernel_problem_;
	if (!seen_)
		return "starting";
	const Config config = wanted();
	std::map<std::string, unsigned> states;
	for (const nl::Device &d : seen_->devices)
		states[nl::dev_state_name(d.state)]++;
	for (const AttachmentConfig &a : config.attachments)
		if (!find_device(seen_->devices, a))
			states["pending"]++;
	std::string devices;
	for (const auto &[state, n] : states)
		devices += (devices.empty() ? "" : ", ") + std::to_string(n) + " " + state;
	return std::to_string(seen_->devices.size()) + " devices" +
	       (devices.empty() ? "" : " (" + devices + ")") + ", " +
	       std::to_string(seen_->exports.size()) + " exports, " +
	       std::to_string(seen_->listeners.size()) + " listeners";
}

void Engine::save_state()
{
	if (options_.state_path.empty())
		return;
	const Config config = wanted();
	json attachments = json::array();
	for (const AttachmentConfig &a : config.attachments) {
		const nl::Device *dev = seen_ ? find_device(seen_->devices, a) : nullptr;
		const RetryEntry *retry = book_.find(attachment_key(a.target, a.export_name));
		attachments.push_back(
			{{"address", a.target.addr},
			 {"port", a.target.port},
			 {"export", a.export_name},
			 {"device", dev ? json("/dev/" + dev->name) : json(nullptr)},
			 {"state", dev ? nl::dev_state_name(dev->state) : "pending"},
			 {"attempts", retry ? retry->attempts : 0},
			 {"last_error", retry && !retry->last_error.empty() ? json(retry->last_error)
									  : json(nullptr)}});
	}
	json problems = json::array();
	for (const auto &[key, entry] : book_.entries())
		if (!entry.last_error.empty())
			problems.push_back({{"object", key},
					    {"attempts", entry.attempts},
					    {"last_error", entry.last_error}});
	const std::string text = json{{"version", 1},
				      {"hostid", nl::to_string(options_.hostid)},
				      {"attachments", attachments},
				      {"problems", problems}}
					 .dump(2) +
				 "\n";
	if (text == saved_state_)
		return;
	saved_state_ = text;
	executor_.submit([this, path = options_.state_path, text](Kernel &) -> Done {
		try {
			write_atomic(path, text, 0644);
			return {};
		} catch (const std::exception &e) {
			return [this, problem = std::string(e.what())] {
				report({LOG_WARNING, "cannot save the runtime state: " + problem});
			};
		}
	});
}

} // namespace rdmablk::daemon
