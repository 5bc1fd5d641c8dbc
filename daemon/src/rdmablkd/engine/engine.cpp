// SPDX-License-Identifier: GPL-2.0
/*
 * Engine: dispatching control requests and running their jobs.
 */
#include "engine/engine.hpp"

#include <cerrno>

#include "engine/keys.hpp"
#include "engine/request_args.hpp"

namespace rdmablk::daemon {

Engine::Engine(Executor &executor, DesiredState &desired, Logger &log, EngineOptions options,
	       Now now)
	: executor_(executor), desired_(desired), log_(log), options_(std::move(options)),
	  now_(std::move(now))
{
	handlers_ = {
		{"listen", &Engine::cmd_listen},
		{"unlisten", &Engine::cmd_unlisten},
		{"export_add", &Engine::cmd_export_add},
		{"export_del", &Engine::cmd_export_del},
		{"export_list", &Engine::cmd_export_list},
		{"host_add", &Engine::cmd_host_add},
		{"host_del", &Engine::cmd_host_del},
		{"host_list", &Engine::cmd_host_list},
		{"discover", &Engine::cmd_discover},
		{"attach", &Engine::cmd_attach},
		{"detach", &Engine::cmd_detach},
		{"list", &Engine::cmd_list},
		{"status", &Engine::cmd_status},
		{"hostid", &Engine::cmd_hostid},
		{"reload", &Engine::cmd_reload},
		{"reconnect", &Engine::cmd_reconnect},
		{"dev_set", &Engine::cmd_dev_set},
		{"path_add", &Engine::cmd_path_add},
		{"path_del", &Engine::cmd_path_del},
		{"path_set", &Engine::cmd_path_set},
		{"discovery_add", &Engine::cmd_discovery_add},
		{"discovery_del", &Engine::cmd_discovery_del},
		{"discovery_list", &Engine::cmd_discovery_list},
	};
}

void Engine::handle(const ctl::Request &request, Reply reply)
{
	const auto it = handlers_.find(request.cmd);
	if (it == handlers_.end()) {
		std::string known;
		for (const auto &[name, handler] : handlers_)
			known += (known.empty() ? "" : ", ") + name;
		reply(invalid_argument("unknown command '" + request.cmd + "'",
				       "the commands are " + known));
		return;
	}
	try {
		(this->*it->second)(request.args, reply);
	} catch (const ArgError &e) {
		reply(invalid_argument(request.cmd + ": " + e.what()));
	} catch (const std::exception &e) {
		reply(ctl::fail(ctl::code::internal, request.cmd + ": " + e.what()));
	}
}

void Engine::run(Attempt attempt, Reply reply, std::function<Done(Kernel &)> body)
{
	executor_.submit([this, attempt = std::move(attempt), reply = std::move(reply),
			  body = std::move(body)](Kernel &kernel) -> Done {
		ctl::Response failure;
		try {
			/* Refused before the kernel is touched, not after. */
			if (attempt.op != Attempt::Op::query)
				desired_.check();
			return body(kernel);
		} catch (const ConfigChanged &e) {
			failure = ctl::fail(ctl::code::config_changed, e.what());
		} catch (const nl::Error &e) {
			failure = kernel_failure(e, attempt);
		} catch (const KeyFileError &e) {
			failure = invalid_argument(e.what());
		} catch (const SaveError &e) {
			failure = ctl::fail(ctl::code::internal,
					    "the kernel was changed but the configuration could "
					    "not be saved: " +
						    std::string(e.what()),
					    "fix the problem and repeat the command, so that the "
					    "change survives a restart");
		} catch (const std::exception &e) {
			failure = ctl::fail(ctl::code::internal, e.what());
		}
		return [reply, failure] { reply(failure); };
	});
}

void Engine::remove(Attempt attempt, Reply reply, std::string key,
		    std::function<void(Kernel &)> del, std::function<void(Config &)> erase)
{
	run(std::move(attempt), reply, [this, key, del, erase, reply](Kernel &k) -> Done {
		const Config before = desired_.get();
		Config after = before;
		erase(after);
		const bool configured = after != before;
		if (configured) {
			if (std::optional<Done> refused = forget_first(erase, reply))
				return *refused;
		}
		try {
			del(k);
		} catch (const nl::Error &e) {
			/* Gone from the kernel already, still configured: forgetting it is enough. */
			if (!configured || e.errnum() != ENOENT ||
			    dynamic_cast<const nl::FamilyNotFound *>(&e)) {
				if (configured)
					put_back(before);
				throw;
			}
		}
		return [this, key, reply] {
			book_.clear(key);
			reply(ctl::ok(nlohmann::json::object()));
		};
	});
}

std::optional<Done> Engine::forget_first(const std::function<void(Config &)> &erase,
					 const Reply &reply)
{
	try {
		desired_.update(erase);
	} catch (const ConfigChanged &) {
		throw;
	} catch (const SaveError &e) {
		return [reply, what = std::string(e.what())] {
			reply(ctl::fail(ctl::code::internal,
					"the configuration could not be saved: " + what +
						"; nothing was changed",
					"fix the problem and repeat the command"));
		};
	}
	return std::nullopt;
}

void Engine::put_back(const Config &before)
{
	try {
		desired_.update([&](Config &c) { c = before; });
	} catch (const SaveError &e) {
		log_.error(std::string("the kernel refused a removal, and the configuration "
				       "could not be put back: ") +
			   e.what());
	}
}

nl::Device Engine::attach(Kernel &kernel, const AttachmentConfig &a) const
{
	const KeyPair keys = read_keys(a.key_file, a.target_key_file);
	nl::AttachArgs args;
	args.target = a.target;
	args.export_name = a.export_name;
	args.hostid = options_.hostid;
	args.nr_queues = a.queues;
	args.nr_poll_queues = a.poll_queues;
	args.queue_depth = a.queue_depth;
	args.reconnect_delay = a.reconnect_delay;
	args.ctrl_loss_tmo = a.ctrl_loss_tmo;
	args.fast_io_fail_tmo = a.fast_io_fail_tmo;
	args.keepalive_tmo = a.keepalive_tmo;
	args.mp_policy = a.policy;
	args.key = keys.key_secret();
	args.target_key = keys.target_secret();
	return kernel.attach(args);
}

Backoff Engine::backoff() const
{
	const DaemonSettings settings = desired_.get().daemon;
	return Backoff{std::chrono::seconds(settings.retry_initial),
		       std::chrono::seconds(settings.retry_max)};
}

} // namespace rdmablk::daemon
