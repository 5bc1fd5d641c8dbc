// SPDX-License-Identifier: GPL-2.0
/*
 * Reconciliation: what to do so that the kernel holds what the
 * configuration asks for, decided by a pure function of the configuration,
 * what the kernel holds now and the retry book.
 *
 * Rules:
 *  - Order: listeners, then host keys, then exports (a host's key is there
 *    before an export that requires it), then attachments (a target's own
 *    initiator may attach its exports), each in configuration order.
 *  - Host keys: a configured host the kernel holds no key for gets its
 *    keys, read from their files when the action runs. A host the kernel
 *    has is not set again here (its keys cannot be read back to compare):
 *    rdmablkctl host add sets them anew, as does a reload of a changed
 *    [[host]].
 *  - Adoption: an object the kernel already has is left alone and never
 *    created twice: a listener on the same address and port, an export of
 *    the same name, a device of the same target and export.
 *  - An export of the configured name but other settings, and kernel
 *    objects the configuration does not name, are reported and left alone.
 *  - Nothing is ever removed or detached here.
 *  - Missing objects are created when their retry entry is due; a device
 *    that gave up (dead) is told to reconnect when due.
 *  - Paths: a device of a configured attachment is given each configured
 *    path (its target and paths) it lacks, when due; a path the kernel has
 *    and the configuration does not name is left alone. A configured path
 *    is marked standby or active, and the device given the configured
 *    policy, when the kernel's differ. A module without multipath (no
 *    paths reported) is asked nothing of the kind.
 */
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "config/config.hpp"
#include "nl/types.hpp"
#include "engine/retry.hpp"

namespace rdmablk::daemon {

/* What the kernel holds, from the four dumps. */
struct Snapshot {
	std::vector<nl::Listener> listeners;
	std::vector<nl::Host> hosts;
	std::vector<nl::Export> exports;
	std::vector<nl::Device> devices;
};

struct AddListener {
	ListenerConfig listener;
};

/* Give the kernel @host's keys, read from its files now. */
struct SetHost {
	HostConfig host;
};

/* exp.uuid unset: generate one (and keep it in the configuration). */
struct AddExport {
	ExportConfig exp;
};

struct Attach {
	AttachmentConfig attachment;
};

struct Reconnect {
	AttachmentConfig attachment;
	std::uint32_t index;
};

/* Give /dev/rdmablk@index, the device of @attachment, path @path. */
struct AddPath {
	AttachmentConfig attachment;
	std::uint32_t index;
	nl::Endpoint path;
	bool standby;
};

/* Mark path @path of /dev/rdmablk@index standby or active. */
struct SetPath {
	AttachmentConfig attachment;
	std::uint32_t index;
	nl::Endpoint path;
	bool standby;
};

/* Give /dev/rdmablk@index the path policy @policy. */
struct SetPolicy {
	AttachmentConfig attachment;
	std::uint32_t index;
	std::uint32_t policy;
};

using Action =
	std::variant<AddListener, SetHost, AddExport, Attach, Reconnect, AddPath, SetPath, SetPolicy>;

/* The retry key of the object @action sets up. */
std::string key_of(const Action &action);

/* A sentence for the log: "adding listener 192.0.2.1:7471". */
std::string describe(const Action &action);

/* What a pass learnt about an object that needs no action now. */
enum class Mark {
	settled, /* set up and well: forget its retries */
	held,	 /* the kernel is working on it (reconnecting): stop waiting */
	again,	 /* gave up again after a reconnect: wait, then retry */
};

struct BookMark {
	std::string key;
	Mark mark;

	bool operator==(const BookMark &) const = default;
};

/* Something to report once (the same text is not logged again). */
struct Note {
	int priority; /* syslog level */
	std::string text;

	bool operator==(const Note &) const = default;
};

/* A configured export without a uuid that the kernel has: keep the kernel's uuid. */
struct AdoptedUuid {
	std::string name;
	nl::Uuid uuid;

	bool operator==(const AdoptedUuid &) const = default;
};

struct Plan {
	std::vector<Action> actions;
	std::vector<BookMark> marks;
	std::vector<Note> notes;
	std::vector<AdoptedUuid> uuids;
};

Plan plan(const Config &config, const Snapshot &kernel, const RetryBook &book, Time now);

/*
 * The paths, standby marks and policy device @dev lacks of @attachment's,
 * into @out (the part of plan() for one attached device).
 */
void plan_paths(const AttachmentConfig &attachment, const nl::Device &dev, const RetryBook &book,
		Time now, Plan &out);

/* @attachment's target and paths, in that order. */
std::vector<nl::Endpoint> all_paths(const AttachmentConfig &attachment);

/* The retry keys of @attachment: its own, its paths' and its policy's. */
std::vector<std::string> attachment_keys(const AttachmentConfig &attachment);

/* @dev reaches the export of @attachment through one of the attachment's paths. */
bool is_device_of(const nl::Device &dev, const AttachmentConfig &attachment);

/* The configured attachment of kernel device @dev, or nullptr. */
const AttachmentConfig *find_attachment_of(const Config &config, const nl::Device &dev);

/* The kernel's path of @dev to @endpoint, or nullptr. */
const nl::PathInfo *find_path(const nl::Device &dev, const nl::Endpoint &endpoint);

/* The kernel's device for @attachment, or nullptr. */
const nl::Device *find_device(const std::vector<nl::Device> &devices,
			      const AttachmentConfig &attachment);

/* The kernel's device with index @index (/dev/rdmablk@index), or nullptr. */
const nl::Device *find_index(const std::vector<nl::Device> &devices, std::uint32_t index);

/* @exp as the kernel would report it (sizes zero, uuid zero when unset). */
nl::Export as_kernel_export(const ExportConfig &exp);

/* What differs between configured export @want and the kernel's @have; empty when nothing. */
std::string export_difference(const ExportConfig &want, const nl::Export &have);

} // namespace rdmablk::daemon
