// SPDX-License-Identifier: GPL-2.0
/*
 * The daemon's logic, on the event loop thread: control requests, kernel
 * events, reconcile passes and their retries. Everything that talks to the
 * kernel or writes a file is a Job for the Executor (the worker thread);
 * its outcome comes back as a Done, which runs here again. A request that
 * needs the kernel is therefore answered when its job is done.
 *
 * The engine owns the retry book and what the last pass saw; the desired
 * state is shared with the worker (DesiredState), which changes it right
 * after the kernel change it belongs to.
 */
#pragma once

#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>

#include "discovery/autoconnect_policy.hpp"
#include "ctl/protocol.hpp"
#include "config/desired.hpp"
#include "engine/errors.hpp"
#include "engine/keys.hpp"
#include "log.hpp"
#include "engine/reconcile.hpp"
#include "engine/request_args.hpp"
#include "engine/retry.hpp"
#include "engine/worker.hpp"

namespace rdmablk::daemon {

struct EngineOptions {
	nl::Uuid hostid;
	std::string config_path;
	/* Runtime state (JSON); empty: not kept. */
	std::string state_path;
	std::string module_version;
	/*
	 * Read the export list of a target by discovery, authenticating with
	 * @keys when they hold a key, and answer with discovery_json()
	 * (Discoveries::start); unset: "discover" fails.
	 */
	std::function<void(const nl::Endpoint &target, const nl::Uuid &hostid, KeyPair keys,
			   std::function<void(ctl::Response)> reply)>
		discover;
	/* The [[discovery]] entries changed: keep sessions for these. */
	std::function<void(const std::vector<DiscoveryConfig> &)> discoveries_changed;
	/* {"discoveries": [...]}, for "discovery_list"; unset: none. */
	std::function<nlohmann::json()> discovery_status;
	/* Read the configuration file again, on the worker; throws ConfigError. Unset: "reload" fails. */
	std::function<Config()> load_config;
};

class Engine {
public:
	using Reply = std::function<void(ctl::Response)>;
	using Now = std::function<Time()>;

	Engine(Executor &executor, DesiredState &desired, Logger &log, EngineOptions options,
	       Now now = Clock::now);

	/* Serve one control request; @reply is called exactly once, now or when its job is done. */
	void handle(const ctl::Request &request, Reply reply);

	/*
	 * Compare the kernel with the desired state and set up what is missing
	 * and due. Passes never overlap: one asked for while another runs
	 * follows it.
	 */
	void request_pass();

	/* A kernel event: log it, and react when it concerns a configured object. */
	void on_event(const nl::Event &event);

	/*
	 * Read the configuration file again (SIGHUP, "rdmablkctl reload") on
	 * the worker, in turn with the changes queued before it, and apply
	 * what it adds. A file that does not parse changes nothing and is
	 * answered with code bad-config.
	 */
	void reload(Reply reply);

	/* When on_timer() has work to do; nullopt: nothing is waiting. */
	std::optional<Time> next_wakeup() const;
	void on_timer();

	/*
	 * What discovery wants attached besides the configured attachments;
	 * passes attach and keep these like [[attachment]] entries.
	 */
	void set_auto_attachments(const std::vector<AutoAttachment> &wanted);

	/*
	 * Addresses discovery found offering the export of a device attached
	 * through another: passes make them paths of that device, kept in its
	 * attachment (saved, for a configured one).
	 */
	void set_auto_paths(const std::vector<AutoPath> &paths);

	/* The kernel's devices as last seen. */
	std::vector<nl::Device> devices() const;

	/* One line for systemd's STATUS=: what the last pass saw. */
	std::string summary() const;

	/*
	 * Called after every pass, with whether the kernel answered and
	 * whether the connection to it was made anew since the last pass.
	 */
	std::function<void(bool kernel_answered, bool kernel_reconnected)> on_pass_done;

private:
	struct ActionResult {
		std::string key;
		std::string description;
		bool reconnect = false;
		std::optional<std::string> error;
		std::optional<nl::Device> device;
	};
	struct PassOutcome {
		std::optional<std::string> kernel_error;
		std::optional<std::string> save_error;
		Snapshot snapshot;
		Plan plan;
		std::vector<ActionResult> results;
		unsigned generation = 0;
	};
	using Handler = void (Engine::*)(const nlohmann::json &args, Reply reply);

	/* Commands: engine_target.cpp and engine_initiator.cpp. */
	void cmd_listen(const nlohmann::json &args, Reply reply);
	void cmd_unlisten(const nlohmann::json &args, Reply reply);
	void cmd_export_add(const nlohmann::json &args, Reply reply);
	void cmd_export_del(const nlohmann::json &args, Reply reply);
	void cmd_export_list(const nlohmann::json &args, Reply reply);
	/* The target's host keys: engine_hosts.cpp. */
	void cmd_host_add(const nlohmann::json &args, Reply reply);
	void cmd_host_del(const nlohmann::json &args, Reply reply);
	void cmd_host_list(const nlohmann::json &args, Reply reply);
	void cmd_discover(const nlohmann::json &args, Reply reply);
	void cmd_attach(const nlohmann::json &args, Reply reply);
	void cmd_detach(const nlohmann::json &args, Reply reply);
	void cmd_list(const nlohmann::json &args, Reply reply);
	void cmd_status(const nlohmann::json &args, Reply reply);
	void cmd_hostid(const nlohmann::json &args, Reply reply);
	void cmd_reload(const nlohmann::json &args, Reply reply);
	/* Runtime operations on a device: engine_device.cpp. */
	void cmd_reconnect(const nlohmann::json &args, Reply reply);
	void cmd_dev_set(const nlohmann::json &args, Reply reply);
	void cmd_path_add(const nlohmann::json &args, Reply reply);
	void cmd_path_del(const nlohmann::json &args, Reply reply);
	void cmd_path_set(const nlohmann::json &args, Reply reply);
	/*
	 * On the worker: @change the kernel's device @p names, then its
	 * configured attachment as the function it returns says; answer the
	 * device, logging @what and the path.
	 */
	using PathChange = std::function<std::function<void(AttachmentConfig &)>(
		Kernel &, const nl::Device &)>;
	void change_path(const PathArgs &p, Reply reply, std::string what, PathChange change);
	/* On the worker: apply @change to the configured attachment of @dev, if any. */
	void update_attachment(const nl::Device &dev,
			       const std::function<void(AttachmentConfig &)> &change);
	/* On the worker: the device /dev/rdmablk@index as the kernel has it now, as JSON. */
	nlohmann::json device_answer(Kernel &k, std::uint32_t index) const;
	void cmd_discovery_add(const nlohmann::json &args, Reply reply);
	void cmd_discovery_del(const nlohmann::json &args, Reply reply);
	void cmd_discovery_list(const nlohmann::json &args, Reply reply);
	/* The desired state with the automatic attachments added; any thread. */
	Config wanted() const;
	/*
	 * Attaching @want failed with @error, which is being handled: a
	 * configured attachment stays pending and is answered as such; else
	 * @error is rethrown, to be the answer.
	 */
	Done still_pending(const nl::Error &error, const AttachmentConfig &want, Reply reply);

	/*
	 * Run @body on the worker. A change (any @attempt but a query) is
	 * refused before @body when the configuration file was edited and not
	 * reloaded (ConfigChanged). Its nl::Error becomes the answer
	 * kernel_failure() gives for @attempt, a SaveError an internal error.
	 */
	void run(Attempt attempt, Reply reply, std::function<Done(Kernel &)> body);

	/*
	 * Remove an object: @erase from the configuration, then @del from the
	 * kernel (one it no longer has is fine while configured); answers {}.
	 * The configuration goes first so that a removal the kernel made never
	 * comes back at the next start; when the kernel refuses, the
	 * configuration is put back.
	 */
	void remove(Attempt attempt, Reply reply, std::string key, std::function<void(Kernel &)> del,
		    std::function<void(Config &)> erase);
	/* On the worker: @erase saved, or the answer that nothing was changed. */
	std::optional<Done> forget_first(const std::function<void(Config &)> &erase,
					 const Reply &reply);
	/* On the worker: the configuration as it was before a removal the kernel refused. */
	void put_back(const Config &before);

	/* Passes: engine_pass.cpp. */
	Done run_pass(Kernel &kernel, const RetryBook &book, Time now);
	ActionResult execute(Kernel &kernel, const Action &action);
	void give_attached_their_paths(Kernel &kernel, const RetryBook &book, Time now,
				       PassOutcome &outcome);
	void finish_pass(const PassOutcome &outcome);
	void apply_results(const PassOutcome &outcome, Time now);
	/* The outcome of actions into the retry book, and the log. */
	void record_results(const std::vector<ActionResult> &results, Time now);
	void report(const Note &note);
	void save_state();
	/* reload(): the configured keys handed to the kernel again from their files; the problems. */
	static std::vector<std::string> reset_keys(Kernel &kernel, const Config &config);
	Backoff backoff() const;
	/*
	 * Attach @attachment, with the keys of its key files read now and
	 * wiped after the request; throws KeyFileError or nl::Error.
	 */
	nl::Device attach(Kernel &kernel, const AttachmentConfig &attachment) const;
	/* @out, the JSON of @dev, with the pending paths of its attachment @a (nullptr: none). */
	nlohmann::json with_pending_paths(nlohmann::json out, const nl::Device &dev,
					  const AttachmentConfig *a) const;
	/* The devices a request saw: the latest view for summary(). */
	void remember(const std::vector<nl::Device> &devices);
	/* Keep the view of devices, exports and listeners current between passes. */
	void track(const nl::Event &event);

	Executor &executor_;
	DesiredState &desired_;
	Logger &log_;
	EngineOptions options_;
	Now now_;

	RetryBook book_;
	std::set<std::string> reported_;
	std::optional<std::string> kernel_problem_;
	std::string saved_state_;
	std::optional<Snapshot> seen_;
	bool pass_running_ = false;
	bool pass_again_ = false;
	Time last_pass_{};
	unsigned generation_ = 0;
	std::map<std::string, Handler> handlers_;
	mutable std::mutex auto_lock_; /* auto_ */
	std::vector<AttachmentConfig> auto_;
	std::vector<AutoPath> auto_paths_;
	/* On the worker: the auto paths made paths of their devices' attachments. */
	void adopt_paths(const std::vector<nl::Device> &devices);
	/* Autoconnected devices detached with rdmablkctl: not attached again until restart. */
	std::set<std::string> detached_auto_;
};

} // namespace rdmablk::daemon
