// SPDX-License-Identifier: GPL-2.0
/*
 * Engine: the target's commands (listen, unlisten, export_add, export_del,
 * export_list).
 */
#include <algorithm>
#include <cerrno>

#include <linux/rdmablk.h>

#include "config/addr.hpp"
#include "engine/engine.hpp"
#include "engine/request_args.hpp"
#include "engine/views.hpp"

namespace rdmablk::daemon {

namespace {

using nlohmann::json;
using Op = Attempt::Op;

std::optional<nl::Listener> find_kernel_listener(const std::vector<nl::Listener> &listeners,
						 const nl::Endpoint &endpoint)
{
	for (const nl::Listener &l : listeners)
		if (same_endpoint({l.addr, l.port}, endpoint))
			return l;
	return std::nullopt;
}

std::optional<nl::Export> find_kernel_export(const std::vector<nl::Export> &exports,
					     std::string_view name)
{
	for (const nl::Export &e : exports)
		if (e.name == name)
			return e;
	return std::nullopt;
}

} // namespace

void Engine::cmd_listen(const json &args, Reply reply)
{
	only_args(args, {"address", "port"});
	const nl::Endpoint endpoint = endpoint_args(args);
	run({Op::listen, endpoint, {}, {}}, reply, [this, endpoint, reply](Kernel &k) -> Done {
		if (!find_kernel_listener(k.listen_get(), endpoint))
			k.listen_add(endpoint);
		desired_.update([&](Config &c) {
			if (!find_listener(c, endpoint))
				c.listeners.push_back({endpoint});
		});
		const nl::Listener listener = find_kernel_listener(k.listen_get(), endpoint)
						      .value_or(nl::Listener{endpoint.addr, endpoint.port,
									     RDMABLK_LISTENER_LISTENING});
		return [this, endpoint, listener, reply] {
			book_.clear(listener_key(endpoint));
			reply(ctl::ok(listener_json(listener)));
		};
	});
}

void Engine::cmd_unlisten(const json &args, Reply reply)
{
	only_args(args, {"address", "port"});
	const nl::Endpoint endpoint = endpoint_args(args);
	remove({Op::unlisten, endpoint, {}, {}}, reply, listener_key(endpoint),
	       [endpoint](Kernel &k) { k.listen_del(endpoint); },
	       [endpoint](Config &c) {
		       std::erase_if(c.listeners, [&](const ListenerConfig &l) {
			       return same_endpoint(l.endpoint, endpoint);
		       });
	       });
}

void Engine::cmd_export_add(const json &args, Reply reply)
{
	ExportConfig exp = export_args(args);
	const Config config = desired_.get();
	if (const ExportConfig *have = find_export(config, exp.name)) {
		/* The uuid counts only when both give one. */
		ExportConfig want = exp;
		if (!have->uuid)
			want.uuid.reset();
		if (const std::string diff = export_difference(want, as_kernel_export(*have));
		    !diff.empty()) {
			reply(ctl::fail(ctl::code::exists,
					"export " + exp.name + " is configured with other settings (" +
						diff + ")",
					"remove it first with 'rdmablkctl export del " + exp.name +
						"' to change it"));
			return;
		}
		if (!exp.uuid)
			exp.uuid = have->uuid;
	}
	if (!exp.uuid)
		exp.uuid = nl::generate_uuid();

	run({Op::export_add, {}, exp.name, {}}, reply, [this, exp, reply](Kernel &k) -> Done {
		if (const auto have = find_kernel_export(k.export_get(), exp.name)) {
			if (const std::string diff = export_difference(exp, *have); !diff.empty())
				return [reply, exp, diff] {
					reply(ctl::fail(ctl::code::exists,
							"the kernel has an export " + exp.name +
								" with other settings (" + diff + ")",
							"remove it first with 'rdmablkctl export del " +
								exp.name + "' to change it"));
				};
		} else {
			k.export_add(exp.name, exp.path, *exp.uuid, exp.read_only, exp.allow,
				     exp.auth_required);
		}
		desired_.update([&](Config &c) {
			std::erase_if(c.exports,
				      [&](const ExportConfig &e) { return e.name == exp.name; });
			c.exports.push_back(exp);
		});
		const std::optional<nl::Export> added = find_kernel_export(k.export_get(), exp.name);
		return [this, exp, added, reply] {
			book_.clear(export_key(exp.name));
			if (added)
				reply(ctl::ok(export_json(*added, true)));
			else
				reply(ctl::ok(pending_export_json(exp, nullptr, now_())));
		};
	});
}

void Engine::cmd_export_del(const json &args, Reply reply)
{
	const std::string name = export_name_args(args);
	remove({Op::export_del, {}, name, {}}, reply, export_key(name),
	       [name](Kernel &k) { k.export_del(name); },
	       [name](Config &c) {
		       std::erase_if(c.exports, [&](const ExportConfig &e) { return e.name == name; });
	       });
}

void Engine::cmd_export_list(const json &args, Reply reply)
{
	only_args(args, {});
	run({Op::query, {}, {}, {}}, reply, [this, reply](Kernel &k) -> Done {
		const std::vector<nl::Export> exports = k.export_get();
		const Config config = desired_.get();
		return [this, exports, config, reply] {
			json list = json::array();
			for (const nl::Export &e : exports)
				list.push_back(export_json(e, find_export(config, e.name) != nullptr));
			for (const ExportConfig &e : config.exports)
				if (!find_kernel_export(exports, e.name))
					list.push_back(pending_export_json(
						e, book_.find(export_key(e.name)), now_()));
			reply(ctl::ok({{"exports", list}}));
		};
	});
}

} // namespace rdmablk::daemon
