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
		desired_.update([&](Config &c) {
			for (AttachmentConfig &a : c.attachments)
				if (a.export_name == before.export_name &&
				    same_endpoint(a.target, before.target))
					apply_settings(a, set.settings);
		});
		const Config config = desired_.get();
		const std::vector<nl::Device> devices = k.dev_get();
		const nl::Device *after = find_index(devices, before.index);
		const json answer = after ? device_json(*after, find_attachment(config, after->target,
										  after->export_name))
					  : json::object();
		return [this, name = before.name, answer, reply] {
			log_.notice("changed the recovery settings of " + name +
				    " at the request of rdmablkctl");
			reply(ctl::ok(answer));
		};
	});
}

} // namespace rdmablk::daemon
