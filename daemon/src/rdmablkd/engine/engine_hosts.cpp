// SPDX-License-Identifier: GPL-2.0
/*
 * Engine: the target's host keys (host_add, host_del, host_list). A host's
 * keys stay in the files its [[host]] entry names; they are read on the
 * worker when they are handed to the kernel, and never answered or logged.
 */
#include <algorithm>

#include "engine/engine.hpp"
#include "engine/keys.hpp"
#include "engine/request_args.hpp"
#include "engine/views.hpp"

namespace rdmablk::daemon {

namespace {

using nlohmann::json;
using Op = Attempt::Op;

const nl::Host *find_kernel_host(const std::vector<nl::Host> &hosts, const nl::Uuid &id)
{
	for (const nl::Host &h : hosts)
		if (h.hostid == id)
			return &h;
	return nullptr;
}

} // namespace

/*
 * Set (or replace: key rotation) the keys of a host. The kernel takes the
 * new keys for the connections made from now on; connections that
 * authenticated before keep going, unless "reauth": then the kernel closes
 * them and the host's initiators authenticate again as they reconnect.
 */
void Engine::cmd_host_add(const json &args, Reply reply)
{
	const bool reauth = host_reauth_arg(args);
	const HostConfig host = host_args(args);
	run({Op::host_add, {}, {}, host.id}, reply, [this, host, reauth, reply](Kernel &k) -> Done {
		{
			const KeyPair keys = read_keys(host.key_file, host.target_key_file);
			k.host_set(host.id, keys.key_secret(), keys.target_secret(), reauth);
		}
		desired_.update([&](Config &c) {
			std::erase_if(c.hosts, [&](const HostConfig &h) { return h.id == host.id; });
			c.hosts.push_back(host);
		});
		const std::vector<nl::Host> hosts = k.host_get();
		const nl::Host *have = find_kernel_host(hosts, host.id);
		json answer = have ? host_json(*have, &host) : pending_host_json(host, nullptr, now_());
		return [this, host, answer, reauth, reply] {
			book_.clear(host_key(host.id));
			log_.notice("keys of host " + nl::to_string(host.id) + " set from " +
				    host.key_file +
				    (reauth ? "; its sessions closed to authenticate again" : "") +
				    " at the request of rdmablkctl");
			reply(ctl::ok(answer));
		};
	});
}

void Engine::cmd_host_del(const json &args, Reply reply)
{
	const nl::Uuid id = host_id_args(args);
	remove({Op::host_del, {}, {}, id}, reply, host_key(id),
	       [id](Kernel &k) { k.host_del(id); },
	       [id](Config &c) {
		       std::erase_if(c.hosts, [&](const HostConfig &h) { return h.id == id; });
	       });
}

void Engine::cmd_host_list(const json &args, Reply reply)
{
	only_args(args, {});
	run({Op::query, {}, {}, {}}, reply, [this, reply](Kernel &k) -> Done {
		const std::vector<nl::Host> hosts = k.host_get();
		const Config config = desired_.get();
		return [this, hosts, config, reply] {
			json list = json::array();
			for (const nl::Host &h : hosts)
				list.push_back(host_json(h, find_host(config, h.hostid)));
			for (const HostConfig &h : config.hosts)
				if (!find_kernel_host(hosts, h.id))
					list.push_back(pending_host_json(
						h, book_.find(host_key(h.id)), now_()));
			reply(ctl::ok({{"hosts", list}}));
		};
	});
}

} // namespace rdmablk::daemon
