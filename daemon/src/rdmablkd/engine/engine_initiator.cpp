// SPDX-License-Identifier: GPL-2.0
/*
 * Engine: the initiator's commands (discover, attach, detach, list, status)
 * and hostid.
 */
#include <algorithm>
#include <cerrno>
#include <optional>

#include "config/addr.hpp"
#include "engine/engine.hpp"
#include "engine/request_args.hpp"
#include "engine/views.hpp"

namespace rdmablk::daemon {

namespace {

using nlohmann::json;
using Op = Attempt::Op;

/*
 * Kernel devices with their attachment (nullptr: not configured), then
 * configured attachments without one (pending), via @each.
 */
template <typename Each, typename Pending>
void for_each_device(const Config &config, const std::vector<nl::Device> &devices, Each each,
		     Pending pending)
{
	for (const nl::Device &d : devices)
		each(d, find_attachment_of(config, d));
	for (const AttachmentConfig &a : config.attachments)
		if (!find_device(devices, a))
			pending(a);
}

/*
 * The device an ATTACH of @want refused with EEXIST (@e) stands for: the one
 * attached to that export of that target, or the one the target's export is
 * already attached as through another address (the UUID the kernel names in
 * the refusal's cookie), when that device's export has the same name, so
 * that @want's addresses can be its paths.
 */
std::optional<nl::Device> attached_already(Kernel &k, const nl::Error &e,
					   const AttachmentConfig &want)
{
	if (std::optional<nl::Device> dev = k.device_of(want))
		return dev;
	nl::Uuid uuid;
	if (e.cookie().size() != uuid.bytes.size())
		return std::nullopt;
	std::copy(e.cookie().begin(), e.cookie().end(), uuid.bytes.begin());
	for (const nl::Device &d : k.dev_get())
		if (d.uuid == uuid && d.export_name == want.export_name)
			return d;
	return std::nullopt;
}

} // namespace

json Engine::with_pending_paths(json out, const nl::Device &dev, const AttachmentConfig *a) const
{
	if (a)
		add_pending_paths(out, *a, dev, book_, now_());
	return out;
}

void Engine::cmd_attach(const json &args, Reply reply)
{
	const AttachmentConfig want = attach_args(args);
	const Attempt attempt{Op::attach, want.target, want.export_name, options_.hostid};
	run(attempt, reply, [this, want, reply, now = now_()](Kernel &k) -> Done {
		const std::string key = attachment_key(want.target, want.export_name);
		std::optional<nl::Device> dev = k.device_of(want);
		const bool existed = dev.has_value();
		bool joined = false;
		if (!dev) {
			try {
				dev = attach(k, want);
			} catch (const nl::Error &e) {
				/*
				 * Attached by someone else meanwhile, or the export is
				 * attached through another address: that is the device,
				 * and the addresses asked for become its paths.
				 */
				if (e.errnum() == EEXIST)
					dev = attached_already(k, e, want);
				if (!dev)
					return still_pending(e, want, reply);
				joined = !is_device_of(*dev, want);
			}
		}
		/* Attached again with more paths or another policy: the configuration gains them. */
		desired_.update([&](Config &c) {
			auto join = [&](AttachmentConfig &a) {
				for (const nl::Endpoint &path : all_paths(want))
					add_path(a, path,
						 is_standby(want, path) ? std::optional(true)
									: std::nullopt);
				a.policy = want.policy ? want.policy : a.policy;
			};
			for (AttachmentConfig &a : c.attachments)
				if (is_device_of(*dev, a)) {
					join(a);
					return;
				}
			if (is_device_of(*dev, want)) {
				c.attachments.push_back(want);
				return;
			}
			/* Attached by someone else: its paths as they are, then @want's. */
			AttachmentConfig a = want;
			a.target = dev->target;
			a.paths.clear();
			a.standby.clear();
			for (const nl::PathInfo &p : dev->paths)
				add_path(a, p.target, p.standby);
			join(a);
			c.attachments.push_back(std::move(a));
		});
		/* Its paths and policy now; what fails is retried by the passes. */
		const AttachmentConfig configured = *find_attachment_of(desired_.get(), *dev);
		Plan paths;
		plan_paths(configured, *dev, RetryBook{}, now, paths);
		std::vector<ActionResult> results;
		for (const Action &action : paths.actions)
			results.push_back(execute(k, action));
		if (!results.empty())
			dev = k.device_of(configured).value_or(*dev);
		return [this, key, dev = *dev, existed, joined, want, configured, results, reply] {
			book_.clear(key);
			record_results(results, now_());
			if (joined)
				log_.notice(dev.name + " (" + dev.export_name +
					    ") is that export attached through another address: " +
					    nl::to_string(want.target) +
					    " joins it as a path, at the request of rdmablkctl");
			else if (!existed)
				log_.notice("attached " + dev.name + " (" + nl::to_string(dev.target) +
					    " " + dev.export_name + ") at the request of rdmablkctl");
			save_state();
			reply(ctl::ok(with_pending_paths(device_json(dev, true), dev, &configured)));
		};
	});
}

Done Engine::still_pending(const nl::Error &error, const AttachmentConfig &want, Reply reply)
{
	const Config config = desired_.get();
	const AttachmentConfig *configured = find_attachment(config, want.target, want.export_name);
	if (!configured || dynamic_cast<const nl::FamilyNotFound *>(&error))
		throw; /* the error being handled is the answer */
	return [this, a = *configured, error = std::string(error.what()), reply] {
		const std::string key = attachment_key(a.target, a.export_name);
		book_.failed(key, error, now_(), backoff());
		reply(ctl::ok(pending_json(a, book_.find(key), now_())));
	};
}

void Engine::cmd_detach(const json &args, Reply reply)
{
	const DetachTarget target = detach_args(args);
	Attempt attempt{Op::detach, {}, {}, {}};
	if (target.attachment) {
		attempt.target = target.attachment->target;
		attempt.export_name = target.attachment->export_name;
	}
	run(attempt, reply, [this, target, reply](Kernel &k) -> Done {
		const std::vector<nl::Device> devices = k.dev_get();
		const Config config = desired_.get();
		const nl::Device *dev = nullptr;
		AttachmentConfig which;
		if (target.index) {
			dev = find_index(devices, *target.index);
			if (!dev)
				return [reply, index = *target.index] {
					reply(not_found("no device rdmablk" + std::to_string(index),
							"'rdmablkctl list' shows the attached devices"));
				};
			which.target = dev->target;
			which.export_name = dev->export_name;
		} else {
			which = *target.attachment;
			dev = find_device(devices, which);
			if (!dev && !find_attachment(config, which.target, which.export_name))
				return [reply, which] {
					reply(not_found("no attachment of export " + which.export_name +
								" from " + nl::to_string(which.target),
							"'rdmablkctl list' shows the attached devices"));
				};
		}
		/* The configuration first, as Engine::remove() does. */
		const auto erase = [&](Config &c) {
			std::erase_if(c.attachments, [&](const AttachmentConfig &a) {
				return same_attachment(a, which.target, which.export_name);
			});
		};
		const bool configured =
			find_attachment(config, which.target, which.export_name) != nullptr;
		if (configured) {
			if (std::optional<Done> refused = forget_first(erase, reply))
				return *refused;
		}
		if (dev) {
			try {
				k.detach(dev->index);
			} catch (const nl::Error &e) {
				if (e.errnum() != ENOENT || dynamic_cast<const nl::FamilyNotFound *>(&e)) {
					if (configured)
						put_back(config);
					throw;
				}
			}
		}
		const std::string name = dev ? dev->name : std::string();
		return [this, which, name, reply] {
			const std::string key = attachment_key(which.target, which.export_name);
			book_.clear(key);
			{
				const std::lock_guard guard(auto_lock_);
				const auto before = auto_.size();
				std::erase_if(auto_, [&](const AttachmentConfig &a) {
					return attachment_key(a.target, a.export_name) == key;
				});
				if (auto_.size() != before)
					detached_auto_.insert(key);
			}
			if (!name.empty())
				log_.notice("detached " + name + " (" + nl::to_string(which.target) +
					    " " + which.export_name + ") at the request of rdmablkctl");
			save_state();
			reply(ctl::ok(json::object()));
		};
	});
}

void Engine::cmd_list(const json &args, Reply reply)
{
	only_args(args, {});
	run({Op::query, {}, {}, {}}, reply, [this, reply](Kernel &k) -> Done {
		const std::vector<nl::Device> devices = k.dev_get();
		const Config config = wanted();
		return [this, devices, config, reply] {
			remember(devices);
			json list = json::array();
			for_each_device(
				config, devices,
				[&](const nl::Device &d, const AttachmentConfig *a) {
					list.push_back(
						with_pending_paths(device_json(d, a != nullptr), d, a));
				},
				[&](const AttachmentConfig &a) {
					list.push_back(pending_json(
						a, book_.find(attachment_key(a.target, a.export_name)),
						now_()));
				});
			reply(ctl::ok({{"devices", list}}));
		};
	});
}

void Engine::cmd_status(const json &args, Reply reply)
{
	const std::optional<std::uint32_t> only = status_args(args);
	run({Op::query, {}, {}, {}}, reply, [this, only, reply](Kernel &k) -> Done {
		const std::vector<nl::Device> devices = k.dev_get();
		const Config config = wanted();
		std::map<std::uint32_t, std::optional<IoStats>> io;
		for (const nl::Device &d : devices)
			io[d.index] = read_io_stats(d.name);
		return [this, only, devices, config, io, reply] {
			remember(devices);
			if (only && !find_index(devices, *only)) {
				reply(not_found("no device rdmablk" + std::to_string(*only),
						"'rdmablkctl list' shows the attached devices"));
				return;
			}
			json list = json::array();
			for_each_device(
				config, devices,
				[&](const nl::Device &d, const AttachmentConfig *a) {
					if (only && d.index != *only)
						return;
					list.push_back(with_pending_paths(
						status_json(d, a != nullptr, io.at(d.index)), d, a));
				},
				[&](const AttachmentConfig &a) {
					if (!only)
						list.push_back(pending_json(
							a,
							book_.find(attachment_key(a.target,
										  a.export_name)),
							now_()));
				});
			reply(ctl::ok({{"devices", list},
				       {"daemon",
					{{"hostid", nl::to_string(options_.hostid)},
					 {"config", options_.config_path},
					 {"module_version", options_.module_version},
					 {"summary", summary()}}}}));
		};
	});
}

void Engine::cmd_hostid(const json &args, Reply reply)
{
	only_args(args, {});
	reply(ctl::ok({{"hostid", nl::to_string(options_.hostid)}}));
}

void Engine::cmd_discover(const json &args, Reply reply)
{
	const DiscoverArgs d = discover_args(args);
	if (!options_.discover) {
		reply(ctl::fail(ctl::code::internal, "discovery is not available in this rdmablkd"));
		return;
	}
	KeyPair keys;
	try {
		keys = read_keys(d.key_file, d.target_key_file);
	} catch (const KeyFileError &e) {
		reply(invalid_argument(e.what()));
		return;
	}
	options_.discover(d.target, options_.hostid, std::move(keys), std::move(reply));
}

} // namespace rdmablk::daemon

namespace rdmablk::daemon {

void Engine::cmd_discovery_add(const json &args, Reply reply)
{
	const DiscoveryConfig want = discovery_args(args);
	run({Op::query, {}, {}, {}}, reply, [this, want, reply](Kernel &) -> Done {
		bool replaced = false;
		desired_.update([&](Config &c) {
			for (DiscoveryConfig &d : c.discoveries)
				if (same_endpoint(d.target, want.target)) {
					d = want;
					replaced = true;
				}
			if (!replaced)
				c.discoveries.push_back(want);
		});
		const Config config = desired_.get();
		return [this, config, want, replaced, reply] {
			log_.notice(std::string(replaced ? "changed" : "added") + " discovery " +
				    nl::to_string(want.target) + " at the request of rdmablkctl");
			if (options_.discoveries_changed)
				options_.discoveries_changed(config.discoveries);
			reply(ctl::ok(json::object()));
		};
	});
}

void Engine::cmd_discovery_del(const json &args, Reply reply)
{
	only_args(args, {"address", "port"});
	const nl::Endpoint target = endpoint_args(args);
	run({Op::query, {}, {}, {}}, reply, [this, target, reply](Kernel &) -> Done {
		if (!find_discovery(desired_.get(), target))
			return [reply, target] {
				reply(not_found("no discovery of " + nl::to_string(target),
						"'rdmablkctl discovery list' shows them"));
			};
		desired_.update([&](Config &c) {
			std::erase_if(c.discoveries, [&](const DiscoveryConfig &d) {
				return same_endpoint(d.target, target);
			});
		});
		const Config config = desired_.get();
		return [this, config, target, reply] {
			log_.notice("removed discovery " + nl::to_string(target) +
				    " at the request of rdmablkctl; its devices stay attached");
			if (options_.discoveries_changed)
				options_.discoveries_changed(config.discoveries);
			reply(ctl::ok(json::object()));
		};
	});
}

void Engine::cmd_discovery_list(const json &args, Reply reply)
{
	only_args(args, {});
	reply(ctl::ok(options_.discovery_status ? options_.discovery_status()
						: json{{"discoveries", json::array()}}));
}

} // namespace rdmablk::daemon
