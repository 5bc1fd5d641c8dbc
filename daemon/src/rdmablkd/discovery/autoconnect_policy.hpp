// SPDX-License-Identifier: GPL-2.0
/*
 * Autoconnect decisions, as pure functions: given what one discovery
 * session read, the [[discovery]] entry it belongs to, the devices the
 * kernel has and what other sources already want, which exports this
 * discovery address attaches (and keeps attached) and which went away.
 *
 * Rules:
 *  - An export matches when the entry attaches "all", or lists its name or
 *    its UUID.
 *  - An export is attached once: it is skipped when a configured
 *    [[attachment]] names the same target (or path) and export, when
 *    another source (another discovery address) wants an export of the
 *    same UUID or the same target and name, or when the kernel has a
 *    device of the same UUID from another target and export.
 *  - Multipath: an export of the same name and UUID as one another
 *    discovery address wants, or as a device the kernel has through
 *    another address, is a path: this address is added to that device
 *    (adopt_auto_paths()) instead of a second disk being attached.
 *  - A device of the same target and export is adopted, not attached
 *    again (reconcile.hpp does that for every wanted attachment).
 *  - An export that was matched before and is not in the list now is
 *    gone: reported, never detached.
 */
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "nl/types.hpp"
#include "proto/disc.hpp"

namespace rdmablk::daemon {

/* An export one discovery address wants attached. */
struct AutoAttachment {
	AttachmentConfig attachment;
	nl::Uuid uuid;

	bool operator==(const AutoAttachment &) const = default;
};

/* An export seen in a discovery list, by name and UUID. */
struct SeenExport {
	std::string name;
	nl::Uuid uuid;

	bool operator==(const SeenExport &) const = default;
	auto operator<=>(const SeenExport &) const = default;
};

/* An address that offers the export of a device attached through another: one more path. */
struct AutoPath {
	nl::Uuid uuid;
	std::string export_name;
	nl::Endpoint path;

	bool operator==(const AutoPath &) const = default;
};

struct AutoDecision {
	/* Every matching export in the list, attached through this address or not. */
	std::vector<SeenExport> matched;
	/* What this address wants attached (adopted when the kernel has it). */
	std::vector<AutoAttachment> wanted;
	/* Matched exports attached through another path, with that path in words. */
	std::vector<std::pair<SeenExport, std::string>> elsewhere;
	/* Matched before (@previous) and no longer in the list. */
	std::vector<SeenExport> gone;
	/* Matched exports attached through another address: this one is a path of theirs. */
	std::vector<AutoPath> paths;
};

/* Does @entry match @disc's attach policy? */
bool matches(const DiscoveryConfig &disc, const proto::DiscEntry &entry);

/*
 * Decide for discovery @disc, which just read @log. @configured: the
 * [[attachment]] entries; @others: what the other discovery addresses want;
 * @devices: the kernel's devices; @previous: what this address matched
 * the last time (empty on the first read).
 */
AutoDecision decide_autoconnect(const DiscoveryConfig &disc, const proto::DiscLog &log,
				const std::vector<AttachmentConfig> &configured,
				const std::vector<AutoAttachment> &others,
				const std::vector<nl::Device> &devices,
				const std::vector<SeenExport> &previous);

/*
 * Make each of @paths a path of the attachment in @attachments whose
 * device among @devices has its export's UUID and name; true when any was
 * added.
 */
bool adopt_auto_paths(std::vector<AttachmentConfig> &attachments, const std::vector<AutoPath> &paths,
		      const std::vector<nl::Device> &devices);

/*
 * Reconnecting a discovery session: waits of initial, doubling up to max,
 * after each failure in a row; a successful connect starts over.
 */
class DiscoveryBackoff {
public:
	DiscoveryBackoff(std::chrono::seconds initial = std::chrono::seconds(1),
			 std::chrono::seconds max = std::chrono::seconds(60))
		: initial_(initial), max_(max)
	{
	}

	/* A connect attempt failed: how long to wait before the next. */
	std::chrono::seconds failed();
	/* The session connected: the next failure waits initial again. */
	void connected() { failures_ = 0; }
	unsigned failures() const { return failures_; }

private:
	std::chrono::seconds initial_;
	std::chrono::seconds max_;
	unsigned failures_ = 0;
};

} // namespace rdmablk::daemon
