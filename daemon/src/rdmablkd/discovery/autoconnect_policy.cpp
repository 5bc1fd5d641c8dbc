// SPDX-License-Identifier: GPL-2.0
#include "discovery/autoconnect_policy.hpp"

#include <algorithm>

#include <linux/rdmablk.h>

#include "config/addr.hpp"
#include "engine/reconcile.hpp"

namespace rdmablk::daemon {

namespace {

nl::Uuid uuid_of(const proto::DiscEntry &entry)
{
	nl::Uuid uuid;
	std::copy(entry.uuid.begin(), entry.uuid.end(), uuid.bytes.begin());
	return uuid;
}


} // namespace

bool matches(const DiscoveryConfig &disc, const proto::DiscEntry &entry)
{
	if (disc.attach_all)
		return true;
	const std::string uuid = nl::to_string(uuid_of(entry));
	return std::any_of(disc.attach.begin(), disc.attach.end(), [&](const std::string &item) {
		return item == entry.name || item == uuid;
	});
}

AutoDecision decide_autoconnect(const DiscoveryConfig &disc, const proto::DiscLog &log,
				const std::vector<AttachmentConfig> &configured,
				const std::vector<AutoAttachment> &others,
				const std::vector<nl::Device> &devices,
				const std::vector<SeenExport> &previous)
{
	AutoDecision out;
	for (const proto::DiscEntry &entry : log.entries) {
		if (!matches(disc, entry))
			continue;
		const SeenExport seen{entry.name, uuid_of(entry)};
		out.matched.push_back(seen);

		std::string elsewhere;
		bool path = false;
		for (const AttachmentConfig &a : configured)
			if (same_attachment(a, disc.target, entry.name))
				elsewhere = "a configured attachment";
		for (const AutoAttachment &o : others)
			if (elsewhere.empty() &&
			    (o.uuid == seen.uuid ||
			     same_attachment(o.attachment, disc.target, entry.name))) {
				elsewhere = "discovery of " + nl::to_string(o.attachment.target) +
					    " (export " + o.attachment.export_name + ")";
				path = o.uuid == seen.uuid && o.attachment.export_name == entry.name &&
				       !same_endpoint(o.attachment.target, disc.target);
			}
		for (const nl::Device &d : devices)
			if (elsewhere.empty() && d.uuid == seen.uuid &&
			    !(d.export_name == entry.name && same_endpoint(d.target, disc.target))) {
				elsewhere = d.name + " (" + nl::to_string(d.target) + " " +
					    d.export_name + ")";
				path = d.export_name == entry.name;
			}
		if (path)
			out.paths.push_back({seen.uuid, entry.name, disc.target});
		if (!elsewhere.empty()) {
			out.elsewhere.emplace_back(seen, elsewhere);
			continue;
		}
		AttachmentConfig a = disc.settings;
		a.target = disc.target;
		a.export_name = entry.name;
		out.wanted.push_back({a, seen.uuid});
	}
	for (const SeenExport &before : previous)
		if (std::find(out.matched.begin(), out.matched.end(), before) == out.matched.end())
			out.gone.push_back(before);
	return out;
}

bool adopt_auto_paths(std::vector<AttachmentConfig> &attachments, const std::vector<AutoPath> &paths,
		      const std::vector<nl::Device> &devices)
{
	bool added = false;
	for (const AutoPath &p : paths)
		for (const nl::Device &d : devices) {
			if (d.uuid != p.uuid || d.export_name != p.export_name)
				continue;
			for (AttachmentConfig &a : attachments)
				if (is_device_of(d, a) && !has_path(a, p.path) &&
				    a.paths.size() + 1 < RDMABLK_MAX_PATHS) {
					add_path(a, p.path, std::nullopt);
					added = true;
					break;
				}
		}
	return added;
}

std::chrono::seconds DiscoveryBackoff::failed()
{
	return Backoff{initial_, max_}.delay(++failures_);
}

} // namespace rdmablk::daemon
