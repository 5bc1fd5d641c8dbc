// SPDX-License-Identifier: GPL-2.0
#include "memory_kernel.hpp"

#include <algorithm>
#include <cerrno>

#include <linux/rdmablk.h>

#include "config/addr.hpp"
#include "nl/error.hpp"

namespace rdmablk::daemon::test {

void MemoryKernel::request(const std::string &what)
{
	requests.push_back(what);
	if (unloaded)
		throw nl::FamilyNotFound();
	if (const auto it = failures.find(what); it != failures.end())
		throw nl::Error(what, it->second.first, it->second.second);
}

std::vector<std::string> MemoryKernel::changes() const
{
	std::vector<std::string> out;
	for (const std::string &r : requests)
		if (r != "listen_get" && r != "export_get" && r != "dev_get" && r != "host_get")
			out.push_back(r);
	return out;
}

nl::Info MemoryKernel::get_info()
{
	request("get_info");
	return {"0.1.0", RDMABLK_GENL_VERSION, 1, 7};
}

void MemoryKernel::listen_add(const nl::Endpoint &endpoint)
{
	request("listen_add " + nl::to_string(endpoint));
	for (const nl::Listener &l : listeners)
		if (same_endpoint({l.addr, l.port}, endpoint))
			throw nl::Error("adding listener", EEXIST, "already listening there");
	listeners.push_back({endpoint.addr, endpoint.port, RDMABLK_LISTENER_LISTENING});
}

void MemoryKernel::listen_del(const nl::Endpoint &endpoint)
{
	request("listen_del " + nl::to_string(endpoint));
	const auto gone = std::erase_if(listeners, [&](const nl::Listener &l) {
		return same_endpoint({l.addr, l.port}, endpoint);
	});
	if (!gone)
		throw nl::Error("removing listener " + nl::to_string(endpoint), ENOENT,
				"no listener there");
}

std::vector<nl::Listener> MemoryKernel::listen_get()
{
	request("listen_get");
	return listeners;
}

void MemoryKernel::export_add(std::string_view name, std::string_view path, const nl::Uuid &uuid,
			      bool read_only, const std::vector<nl::Uuid> &allowed_hosts,
			      bool auth_required)
{
	request("export_add " + std::string(name));
	for (const nl::Export &e : exports)
		if (e.name == name)
			throw nl::Error("adding export", EEXIST, "an export of this name exists");
	nl::Export exp;
	exp.name = name;
	exp.path = path;
	exp.uuid = uuid;
	exp.read_only = read_only;
	exp.allowed_hosts = allowed_hosts;
	exp.auth_required = auth_required;
	exp.size = 1ULL << 30;
	exp.logical_block_size = 512;
	exp.physical_block_size = 4096;
	exports.push_back(exp);
}

void MemoryKernel::export_del(std::string_view name)
{
	request("export_del " + std::string(name));
	if (!std::erase_if(exports, [&](const nl::Export &e) { return e.name == name; }))
		throw nl::Error("removing export " + std::string(name), ENOENT, "no such export");
}

std::vector<nl::Export> MemoryKernel::export_get()
{
	request("export_get");
	return exports;
}

nl::Device &MemoryKernel::add_device(const std::string &addr, const std::string &export_name,
				     std::uint32_t state)
{
	nl::Device dev;
	dev.index = next_index++;
	dev.name = "rdmablk" + std::to_string(dev.index);
	dev.target = {addr, RDMABLK_DEFAULT_PORT};
	dev.export_name = export_name;
	dev.size = 1ULL << 30;
	dev.logical_block_size = 512;
	dev.physical_block_size = 4096;
	dev.nr_queues = 2;
	dev.queue_depth = 128;
	dev.state = state;
	dev.reconnect_delay = RDMABLK_DEFAULT_RECONNECT_DELAY;
	dev.ctrl_loss_tmo = RDMABLK_DEFAULT_CTRL_LOSS_TMO;
	dev.fast_io_fail_tmo = RDMABLK_TMO_OFF;
	dev.keepalive_tmo = RDMABLK_DEFAULT_KEEPALIVE_TMO;
	dev.queues = {{0, RDMABLK_QUEUE_LIVE, 10, 0, 10, 0, 40960, 0, 1200},
		      {1, RDMABLK_QUEUE_LIVE, 20, 1, 19, 2, 4096, 61440, 3000}};
	if (multipath) {
		dev.mp_policy = RDMABLK_MP_QUEUE_DEPTH;
		nl::PathInfo path;
		path.target = dev.target;
		path.state = state;
		dev.paths.push_back(path);
	}
	devices.push_back(dev);
	return devices.back();
}

namespace {

/* What rdmablk.ko puts in the cookie of an ATTACH refused for @dev: its UUID, once known. */
std::vector<std::uint8_t> exists_cookie(const nl::Device &dev)
{
	if (dev.uuid == nl::Uuid{})
		return {};
	return {dev.uuid.bytes.begin(), dev.uuid.bytes.end()};
}

} // namespace

nl::Device MemoryKernel::attach(const nl::AttachArgs &args)
{
	request("attach " + nl::to_string(args.target) + "/" + args.export_name);
	for (const nl::Device &d : devices)
		if (d.export_name == args.export_name && same_endpoint(d.target, args.target))
			throw nl::Error("attaching", EEXIST,
					"this export of this target is attached already",
					exists_cookie(d));
	const auto offered = export_uuids.find(nl::to_string(args.target) + "/" + args.export_name);
	if (offered != export_uuids.end())
		for (const nl::Device &d : devices)
			if (d.uuid == offered->second)
				throw nl::Error("attaching", EEXIST,
						"this export (its UUID) is attached already through "
						"another address: add this address as a path of that "
						"device",
						exists_cookie(d));
	nl::Device &dev = add_device(args.target.addr, args.export_name, RDMABLK_DEV_LIVE);
	if (offered != export_uuids.end())
		dev.uuid = offered->second;
	attach_keys[args.export_name] = {{args.key.begin(), args.key.end()},
					 {args.target_key.begin(), args.target_key.end()}};
	dev.auth = args.key.empty()	      ? RDMABLK_AUTH_MODE_NONE
		   : args.target_key.empty() ? RDMABLK_AUTH_MODE_HOST
					     : RDMABLK_AUTH_MODE_MUTUAL;
	dev.target.port = args.target.port;
	for (nl::PathInfo &p : dev.paths)
		p.target.port = args.target.port;
	if (args.mp_policy && multipath)
		dev.mp_policy = *args.mp_policy;
	if (args.nr_queues)
		dev.nr_queues = *args.nr_queues;
	return dev;
}

void MemoryKernel::detach(std::uint32_t index)
{
	request("detach " + std::to_string(index));
	if (!std::erase_if(devices, [&](const nl::Device &d) { return d.index == index; }))
		throw nl::Error("detaching", ENOENT, "no attached device with this index");
}

void MemoryKernel::dev_set(std::uint32_t index, const nl::DevSetArgs &args)
{
	request("dev_set " + std::to_string(index));
	for (nl::Device &d : devices)
		if (d.index == index) {
			d.reconnect_delay = args.reconnect_delay.value_or(d.reconnect_delay);
			d.ctrl_loss_tmo = args.ctrl_loss_tmo.value_or(d.ctrl_loss_tmo);
			d.fast_io_fail_tmo = args.fast_io_fail_tmo.value_or(d.fast_io_fail_tmo);
			d.keepalive_tmo = args.keepalive_tmo.value_or(d.keepalive_tmo);
			d.mp_policy = args.mp_policy.value_or(d.mp_policy);
			if (!args.key.empty())
				attach_keys[d.export_name] = {
					{args.key.begin(), args.key.end()},
					{args.target_key.begin(), args.target_key.end()}};
			return;
		}
	throw nl::Error("changing a device", ENOENT, "no attached device with this index");
}

void MemoryKernel::reconnect(std::uint32_t index)
{
	request("reconnect " + std::to_string(index));
	for (nl::Device &d : devices)
		if (d.index == index) {
			d.state = RDMABLK_DEV_RECONNECTING;
			return;
		}
	throw nl::Error("reconnecting", ENOENT, "no attached device with this index");
}

void MemoryKernel::host_set(const nl::Uuid &id, std::span<const std::uint8_t> key,
			    std::span<const std::uint8_t> target_key, bool reauth)
{
	request("host_set " + nl::to_string(id) + (reauth ? " reauth" : ""));
	nl::Host host;
	host.hostid = id;
	host.hmac = key.size() == 32 ? RDMABLK_AUTH_HMAC_SHA256
		    : key.size() == 48 ? RDMABLK_AUTH_HMAC_SHA384
				       : RDMABLK_AUTH_HMAC_SHA512;
	host.target_hmac = target_key.empty() ? 0 : RDMABLK_AUTH_HMAC_SHA256;
	std::erase_if(hosts, [&](const nl::Host &h) { return h.hostid == id; });
	hosts.push_back(host);
	host_keys[nl::to_string(id)] = {{key.begin(), key.end()},
					{target_key.begin(), target_key.end()}};
}

void MemoryKernel::host_del(const nl::Uuid &id)
{
	request("host_del " + nl::to_string(id));
	if (!std::erase_if(hosts, [&](const nl::Host &h) { return h.hostid == id; }))
		throw nl::Error("removing host", ENOENT, "no keys for this host");
	host_keys.erase(nl::to_string(id));
}

std::vector<nl::Host> MemoryKernel::host_get()
{
	request("host_get");
	return hosts;
}

std::vector<nl::Device> MemoryKernel::dev_get()
{
	request("dev_get");
	return devices;
}

nl::Device &MemoryKernel::device(std::uint32_t index, const char *what)
{
	for (nl::Device &d : devices)
		if (d.index == index)
			return d;
	throw nl::Error(what, ENOENT, "no attached device with this index");
}

nl::Device MemoryKernel::path_add(const nl::PathArgs &args)
{
	request("path_add " + std::to_string(args.index) + " " + nl::to_string(args.target) +
		(args.standby.value_or(false) ? " standby" : ""));
	nl::Device &dev = device(args.index, "adding a path");
	std::uint32_t id = 0;
	for (const nl::PathInfo &p : dev.paths) {
		if (same_endpoint(p.target, args.target))
			throw nl::Error("adding a path", EEXIST, "the device has this path already");
		id = std::max(id, p.id + 1);
	}
	if (dev.paths.size() >= RDMABLK_MAX_PATHS)
		throw nl::Error("adding a path", E2BIG, "the device has the most paths it may");
	nl::PathInfo path;
	path.id = id;
	path.target = args.target;
	path.state = RDMABLK_DEV_LIVE;
	path.standby = args.standby.value_or(false);
	dev.paths.push_back(path);
	return dev;
}

void MemoryKernel::path_del(const nl::PathArgs &args)
{
	request("path_del " + std::to_string(args.index) + " " + nl::to_string(args.target));
	nl::Device &dev = device(args.index, "removing a path");
	const auto it = std::find_if(dev.paths.begin(), dev.paths.end(), [&](const nl::PathInfo &p) {
		return same_endpoint(p.target, args.target);
	});
	if (it == dev.paths.end())
		throw nl::Error("removing a path", ENOENT, "the device has no such path");
	if (dev.paths.size() == 1)
		throw nl::Error("removing a path", EBUSY,
				"the last path of a device is not removed: detach the device");
	dev.paths.erase(it);
	dev.target = dev.paths.front().target;
}

void MemoryKernel::path_set(const nl::PathArgs &args)
{
	request("path_set " + std::to_string(args.index) + " " + nl::to_string(args.target) +
		(args.standby.value_or(false) ? " standby" : " active"));
	nl::Device &dev = device(args.index, "changing a path");
	for (nl::PathInfo &p : dev.paths)
		if (same_endpoint(p.target, args.target)) {
			p.standby = args.standby.value_or(false);
			return;
		}
	throw nl::Error("changing a path", ENOENT, "the device has no such path");
}

void QueueExecutor::run()
{
	while (!jobs_.empty()) {
		Job job = std::move(jobs_.front());
		jobs_.erase(jobs_.begin());
		if (Done done = job(kernel_))
			done();
	}
}

} // namespace rdmablk::daemon::test
