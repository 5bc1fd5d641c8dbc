// SPDX-License-Identifier: GPL-2.0
#include "engine/reconcile.hpp"

#include <algorithm>

#include <syslog.h>

#include <linux/rdmablk.h>

#include "config/addr.hpp"
#include "nl/names.hpp"

namespace rdmablk::daemon {

namespace {

template <class... Ts> struct Overloaded : Ts... {
	using Ts::operator()...;
};

std::string target_text(const AttachmentConfig &a)
{
	return nl::to_string(a.target) + " " + a.export_name;
}

std::string device_text(const nl::Device &dev)
{
	return dev.name + " (" + nl::to_string(dev.target) + " " + dev.export_name + ")";
}

bool same_hosts(std::vector<nl::Uuid> a, std::vector<nl::Uuid> b)
{
	const auto less = [](const nl::Uuid &x, const nl::Uuid &y) { return x.bytes < y.bytes; };
	std::sort(a.begin(), a.end(), less);
	std::sort(b.begin(), b.end(), less);
	return a == b;
}

/* Listeners: adopt or add; report the kernel's others. */
void plan_listeners(const Config &config, const Snapshot &kernel, const RetryBook &book,
		    Time now, Plan &out)
{
	for (const ListenerConfig &want : config.listeners) {
		const std::string key = listener_key(want.endpoint);
		const bool present = std::any_of(
			kernel.listeners.begin(), kernel.listeners.end(), [&](const auto &have) {
				return same_endpoint(want.endpoint, {have.addr, have.port});
			});
		if (present)
			out.marks.push_back({key, Mark::settled});
		else if (book.due(key, now))
			out.actions.push_back(AddListener{want});
	}
	for (const nl::Listener &have : kernel.listeners)
		if (!find_listener(config, {have.addr, have.port}))
			out.notes.push_back({LOG_NOTICE, "listener " +
								 nl::to_string(nl::Endpoint{
									 have.addr, have.port}) +
								 " is not in the configuration; "
								 "left alone"});
}

/* Host keys: set those the kernel lacks; report the kernel's others. */
void plan_hosts(const Config &config, const Snapshot &kernel, const RetryBook &book, Time now,
		Plan &out)
{
	for (const HostConfig &want : config.hosts) {
		const std::string key = host_key(want.id);
		const bool present =
			std::any_of(kernel.hosts.begin(), kernel.hosts.end(),
				    [&](const nl::Host &have) { return have.hostid == want.id; });
		if (present)
			out.marks.push_back({key, Mark::settled});
		else if (book.due(key, now))
			out.actions.push_back(SetHost{want});
	}
	for (const nl::Host &have : kernel.hosts)
		if (!find_host(config, have.hostid))
			out.notes.push_back({LOG_NOTICE, "the key of host " +
								 nl::to_string(have.hostid) +
								 " is not in the configuration; left "
								 "alone"});
}

void plan_exports(const Config &config, const Snapshot &kernel, const RetryBook &book, Time now,
		  Plan &out)
{
	for (const ExportConfig &want : config.exports) {
		const std::string key = export_key(want.name);
		const auto have = std::find_if(kernel.exports.begin(), kernel.exports.end(),
					       [&](const auto &e) { return e.name == want.name; });
		if (have == kernel.exports.end()) {
			if (book.due(key, now))
				out.actions.push_back(AddExport{want});
			continue;
		}
		out.marks.push_back({key, Mark::settled});
		if (!want.uuid)
			out.uuids.push_back({want.name, have->uuid});
		if (const std::string diff = export_difference(want, *have); !diff.empty())
			out.notes.push_back(
				{LOG_WARNING,
				 "export " + want.name + " in the kernel differs from the configuration (" +
					 diff +
					 "); left alone: remove and add it with rdmablkctl to change it"});
	}
	for (const nl::Export &have : kernel.exports)
		if (!find_export(config, have.name))
			out.notes.push_back({LOG_NOTICE, "export " + have.name + " (" + have.path +
								 ") is not in the configuration; left alone"});
}

void plan_attachments(const Config &config, const Snapshot &kernel, const RetryBook &book,
		      Time now, Plan &out)
{
	for (const AttachmentConfig &want : config.attachments) {
		const std::string key = attachment_key(want.target, want.export_name);
		const nl::Device *dev = find_device(kernel.devices, want);
		if (!dev) {
			if (book.due(key, now))
				out.actions.push_back(Attach{want});
			continue;
		}
		if (dev->state != RDMABLK_DEV_DELETING)
			plan_paths(want, *dev, book, now, out);
		switch (dev->state) {
		case RDMABLK_DEV_LIVE:
			out.marks.push_back({key, Mark::settled});
			break;
		case RDMABLK_DEV_DEAD: {
			const RetryEntry *entry = book.find(key);
			if (entry && !entry->waiting)
				out.marks.push_back({key, Mark::again});
			else if (book.due(key, now))
				out.actions.push_back(Reconnect{want, dev->index});
			break;
		}
		default: /* reconnecting by itself, or being detached */
			out.marks.push_back({key, Mark::held});
			break;
		}
	}
	for (const nl::Device &have : kernel.devices) {
		if (!find_attachment_of(config, have))
			out.notes.push_back({LOG_NOTICE, device_text(have) +
								 " is not in the configuration; left "
								 "alone"});
	}
}

} // namespace

std::string key_of(const Action &action)
{
	return std::visit(
		Overloaded{
			[](const AddListener &a) { return listener_key(a.listener.endpoint); },
			[](const SetHost &a) { return host_key(a.host.id); },
			[](const AddExport &a) { return export_key(a.exp.name); },
			[](const Attach &a) {
				return attachment_key(a.attachment.target, a.attachment.export_name);
			},
			[](const Reconnect &a) {
				return attachment_key(a.attachment.target, a.attachment.export_name);
			},
			[](const AddPath &a) {
				return path_key(a.attachment.target, a.attachment.export_name, a.path);
			},
			[](const SetPath &a) {
				return path_key(a.attachment.target, a.attachment.export_name, a.path);
			},
			[](const SetPolicy &a) {
				return policy_key(a.attachment.target, a.attachment.export_name);
			},
		},
		action);
}

std::string describe(const Action &action)
{
	return std::visit(
		Overloaded{
			[](const AddListener &a) {
				return "adding listener " + nl::to_string(a.listener.endpoint);
			},
			[](const SetHost &a) {
				return "setting the key of host " + nl::to_string(a.host.id) + " (" +
				       a.host.key_file + ")";
			},
			[](const AddExport &a) {
				return "adding export " + a.exp.name + " (" + a.exp.path + ")";
			},
			[](const Attach &a) { return "attaching " + target_text(a.attachment); },
			[](const Reconnect &a) {
				return "asking rdmablk" + std::to_string(a.index) + " (" +
				       target_text(a.attachment) +
				       "), which gave up, to reconnect";
			},
			[](const AddPath &a) {
				return "adding path " + nl::to_string(a.path) +
				       (a.standby ? " (standby)" : "") + " to rdmablk" +
				       std::to_string(a.index) + " (" + target_text(a.attachment) + ")";
			},
			[](const SetPath &a) {
				return "marking path " + nl::to_string(a.path) + " of rdmablk" +
				       std::to_string(a.index) + (a.standby ? " standby" : " active");
			},
			[](const SetPolicy &a) {
				return "setting the path policy of rdmablk" + std::to_string(a.index) +
				       " to " + nl::mp_policy_name(a.policy);
			},
		},
		action);
}

std::vector<nl::Endpoint> all_paths(const AttachmentConfig &attachment)
{
	std::vector<nl::Endpoint> out{attachment.target};
	out.insert(out.end(), attachment.paths.begin(), attachment.paths.end());
	return out;
}

std::vector<std::string> attachment_keys(const AttachmentConfig &a)
{
	std::vector<std::string> keys{attachment_key(a.target, a.export_name),
				      policy_key(a.target, a.export_name)};
	for (const nl::Endpoint &p : all_paths(a))
		keys.push_back(path_key(a.target, a.export_name, p));
	return keys;
}

const nl::PathInfo *find_path(const nl::Device &dev, const nl::Endpoint &endpoint)
{
	for (const nl::PathInfo &p : dev.paths)
		if (same_endpoint(p.target, endpoint))
			return &p;
	return nullptr;
}

void plan_paths(const AttachmentConfig &want, const nl::Device &dev, const RetryBook &book,
		Time now, Plan &out)
{
	/* A module without multipath reports no paths and takes no path request. */
	if (dev.paths.empty())
		return;
	for (const nl::Endpoint &path : all_paths(want)) {
		const std::string key = path_key(want.target, want.export_name, path);
		const bool standby = is_standby(want, path);
		const nl::PathInfo *have = find_path(dev, path);
		if (!have) {
			if (book.due(key, now))
				out.actions.push_back(AddPath{want, dev.index, path, standby});
		} else if (have->standby != standby) {
			if (book.due(key, now))
				out.actions.push_back(SetPath{want, dev.index, path, standby});
		} else {
			out.marks.push_back({key, Mark::settled});
		}
	}
	const std::string key = policy_key(want.target, want.export_name);
	if (want.policy && dev.mp_policy && dev.mp_policy != *want.policy) {
		if (book.due(key, now))
			out.actions.push_back(SetPolicy{want, dev.index, *want.policy});
	} else {
		out.marks.push_back({key, Mark::settled});
	}
}

bool is_device_of(const nl::Device &dev, const AttachmentConfig &attachment)
{
	if (dev.export_name != attachment.export_name)
		return false;
	if (has_path(attachment, dev.target))
		return true;
	return std::any_of(dev.paths.begin(), dev.paths.end(), [&](const nl::PathInfo &p) {
		return has_path(attachment, p.target);
	});
}

const nl::Device *find_device(const std::vector<nl::Device> &devices,
			      const AttachmentConfig &attachment)
{
	for (const nl::Device &dev : devices)
		if (is_device_of(dev, attachment))
			return &dev;
	return nullptr;
}

const AttachmentConfig *find_attachment_of(const Config &config, const nl::Device &dev)
{
	for (const AttachmentConfig &a : config.attachments)
		if (is_device_of(dev, a))
			return &a;
	return nullptr;
}

const nl::Device *find_index(const std::vector<nl::Device> &devices, std::uint32_t index)
{
	for (const nl::Device &d : devices)
		if (d.index == index)
			return &d;
	return nullptr;
}

nl::Export as_kernel_export(const ExportConfig &exp)
{
	nl::Export out;
	out.name = exp.name;
	out.path = exp.path;
	out.uuid = exp.uuid.value_or(nl::Uuid{});
	out.read_only = exp.read_only;
	out.allowed_hosts = exp.allow;
	out.auth_required = exp.auth_required;
	return out;
}

std::string export_difference(const ExportConfig &want, const nl::Export &have)
{
	std::vector<std::string> diffs;
	if (want.path != have.path)
		diffs.push_back("path " + have.path + ", configured " + want.path);
	if (want.uuid && *want.uuid != have.uuid)
		diffs.push_back("uuid " + nl::to_string(have.uuid) + ", configured " +
				nl::to_string(*want.uuid));
	if (want.read_only != have.read_only)
		diffs.push_back(have.read_only ? "read-only, configured read-write"
					       : "read-write, configured read-only");
	if (!same_hosts(want.allow, have.allowed_hosts))
		diffs.push_back("another allow list");
	if (want.auth_required != have.auth_required)
		diffs.push_back(have.auth_required ? "authentication required, configured not"
						   : "no authentication required, configured "
						     "required");
	std::string text;
	for (const std::string &d : diffs)
		text += (text.empty() ? "" : "; ") + d;
	return text;
}

Plan plan(const Config &config, const Snapshot &kernel, const RetryBook &book, Time now)
{
	Plan out;
	plan_listeners(config, kernel, book, now, out);
	plan_hosts(config, kernel, book, now, out);
	plan_exports(config, kernel, book, now, out);
	plan_attachments(config, kernel, book, now, out);
	return out;
}

} // namespace rdmablk::daemon
