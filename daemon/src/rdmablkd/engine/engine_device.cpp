// SPDX-License-Identifier: GPL-2.0
/*
 * Engine: what an attached device lets an admin do while it runs:
 * reconnect now, and change its recovery settings (dev_set).
 */
#include "config/addr.hpp"
#include "engine/engine.hpp"
#include "engine/request_args.hpp"
#include "engine/views.hpp"

namespace rdmablk::daemon {

namespace {

using nlohmann::json;
using Op = Attempt::Op;

/* The attached device @target names, or nullptr. */
const nl::Device *named_device(const std::vector<nl::Device> &devices, const DetachTarget &target)
{
	return target.index ? find_index(devices, *target.index)
			    : find_device(devices, *target.attachment);
}

ctl::Response no_such_device(const DetachTarget &target)
{
	const std::string what =
		target.index ? "no device rdmablk" + std::to_string(*target.index)
			     : "no device attached from export " + target.attachment->export_name +
				       " of " + nl::to_string(target.attachment->target);
	return not_found(what, "'rdmablkctl list' shows the attached devices");
}

nl::DevSetArgs kernel_settings(const AttachmentConfig &s)
{
	nl::DevSetArgs args;
	args.reconnect_delay = s.reconnect_delay;
	args.ctrl_loss_tmo = s.ctrl_loss_tmo;
	args.fast_io_fail_tmo = s.fast_io_fail_tmo;
	args.keepalive_tmo = s.keepalive_tmo;
	args.mp_policy = s.policy;
	return args;
}

/* The settings given in @s, over those of @a. */
void apply_settings(AttachmentConfig &a, const AttachmentConfig &s)
{
	if (s.reconnect_delay)
		a.reconnect_delay = s.reconnect_delay;
	if (s.ctrl_loss_tmo)
		a.ctrl_loss_tmo = s.ctrl_loss_tmo;
	if (s.fast_io_fail_tmo)
		a.fast_io_fail_tmo = s.fast_io_fail_tmo;
	if (s.keepalive_tmo)
		a.keepalive_tmo = s.keepalive_tmo;
	if (s.policy)
		a.policy = s.policy;
}

ctl::Response no_device(std::uint32_t index)
{
	return no_such_device({index, {}});
}

} // namespace

void Engine::cmd_reconnect(const json &args, Reply reply)
{
	const DetachTarget target = detach_args(args);
	run({Op::query, {}, {}, {}}, reply, [this, target, reply](Kernel &k) -> Done {
		const std::vector<nl::Device> devices = k.dev_get();
		const nl::Device *dev = named_device(devices, target);
		if (!dev)
			return [reply, target] { reply(no_such_device(target)); };
		k.reconnect(dev->index);
		return [this, name = dev->name, reply] {
			log_.notice("reconnecting " + name + " at the request of rdmablkctl");
			reply(ctl::ok({{"device", "/dev/" + name}}));
		};
	});
}

void Engine::cmd_dev_set(const json &args, Reply reply)
{
	const DevSetArgs set = dev_set_args(args);
	run({Op::dev_set, {}, {}, {}}, reply, [this, set, reply](Kernel &k) -> Done {
		const std::vector<nl::Device> now = k.dev_get();
		const nl::Device *dev = named_device(now, set.device);
		if (!dev)
			return [reply, target = set.device] { reply(no_such_device(target)); };
		const nl::Device before = *dev;
		k.dev_set(before.index, kernel_settings(set.settings));
		/* A configured attachment keeps the new settings across restarts. */
		update_attachment(before, [&](AttachmentConfig &a) { apply_settings(a, set.settings); });
		const json answer = device_answer(k, before.index);
		return [this, name = before.name, answer, reply] {
			log_.notice("changed the settings of " + name + " at the request of rdmablkctl");
			reply(ctl::ok(answer));
		};
	});
}

void Engine::update_attachment(const nl::Device &dev,
			       const std::function<void(AttachmentConfig &)> &change)
{
	desired_.update([&](Config &c) {
		for (AttachmentConfig &a : c.attachments)
			if (is_device_of(dev, a)) {
				change(a);
				return;
			}
	});
}

json Engine::device_answer(Kernel &k, std::uint32_t index) const
{
	const Config config = wanted();
	const std::vector<nl::Device> devices = k.dev_get();
	const nl::Device *dev = find_index(devices, index);
	return dev ? device_json(*dev, find_attachment_of(config, *dev) != nullptr)
		   : json::object();
}

void Engine::cmd_path_add(const json &args, Reply reply)
{
	const PathArgs p = path_args(args, PathStandby::optional);
	change_path(p, reply, "added path ", [p](Kernel &k, const nl::Device &dev) {
		k.path_add({dev.index, p.path, p.standby});
		return [p](AttachmentConfig &a) { add_path(a, p.path, p.standby.value_or(false)); };
	});
}

void Engine::cmd_path_del(const json &args, Reply reply)
{
	const PathArgs p = path_args(args, PathStandby::none);
	change_path(p, reply, "removed path ", [p](Kernel &k, const nl::Device &dev) {
		k.path_del({dev.index, p.path, {}});
		/* The device's first path now; its target in the configuration when it was the only one. */
		nl::Endpoint first = dev.target;
		for (const nl::PathInfo &path : dev.paths)
			if (!same_endpoint(path.target, p.path)) {
				first = path.target;
				break;
			}
		return [p, first](AttachmentConfig &a) {
			if (!remove_path(a, p.path))
				a.target = first;
		};
	});
}

void Engine::cmd_path_set(const json &args, Reply reply)
{
	const PathArgs p = path_args(args, PathStandby::required);
	change_path(p, reply, *p.standby ? "made standby path " : "made active path ",
		    [p](Kernel &k, const nl::Device &dev) {
			    k.path_set({dev.index, p.path, p.standby});
			    /* Only a configured path keeps its mark: the others are not kept at all. */
			    return [p](AttachmentConfig &a) {
				    if (has_path(a, p.path))
					    add_path(a, p.path, p.standby);
			    };
		    });
}

void Engine::change_path(const PathArgs &p, Reply reply, std::string what, PathChange change)
{
	run({Op::path, p.path, {}, {}}, reply, [this, p, reply, what, change](Kernel &k) -> Done {
		const std::vector<nl::Device> devices = k.dev_get();
		const nl::Device *dev = find_index(devices, p.index);
		if (!dev)
			return [reply, index = p.index] { reply(no_device(index)); };
		const nl::Device before = *dev;
		/* The kernel first: what it refuses is not configured. */
		update_attachment(before, change(k, before));
		const json answer = device_answer(k, before.index);
		return [this, what, name = before.name, path = p.path, answer, reply] {
			log_.notice(what + nl::to_string(path) + " of " + name +
				    " at the request of rdmablkctl");
			request_pass();
			reply(ctl::ok(answer));
		};
	});
}

} // namespace rdmablk::daemon
