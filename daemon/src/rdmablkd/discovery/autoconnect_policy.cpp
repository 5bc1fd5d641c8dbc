// SPDX-License-Identifier: GPL-2.0
#include "discovery/autoconnect_policy.hpp"

#include <algorithm>

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

bool same(const AttachmentConfig &a, const nl::Endpoint &target, std::string_view name)
{
	return a.export_name == name && same_endpoint(a.target, target);
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
		for (const AttachmentConfig &a : configured)
			if (same(a, disc.target, entry.name))
				elsewhere = "a configured attachment";
		for (const AutoAttachment &o : others)
			if (elsewhere.empty() &&
			    (o.uuid == seen.uuid || same(o.attachment, disc.target, entry.name)))
				elsewhere = "discovery of " + nl::to_string(o.attachment.target) +
					    " (export " + o.attachment.export_name + ")";
		for (const nl::Device &d : devices)
			if (elsewhere.empty() && d.uuid == seen.uuid &&
			    !(d.export_name == entry.name && same_endpoint(d.target, disc.target)))
				elsewhere = d.name + " (" + nl::to_string(d.target) + " " +
					    d.export_name + ")";
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

std::chrono::seconds DiscoveryBackoff::failed()
{
	return Backoff{initial_, max_}.delay(++failures_);
}

} // namespace rdmablk::daemon
