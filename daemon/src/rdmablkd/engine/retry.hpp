// SPDX-License-Identifier: GPL-2.0
/*
 * Retrying what cannot be set up now, with exponential backoff: a listener
 * whose address is not up yet, an export whose disk is missing, an
 * attachment whose target is unreachable, a device that gave up.
 *
 * Every configured object that needs another try has an entry, known by
 * its key (listener_key() and friends). An entry that is "waiting" is due
 * for an attempt at next_due; one that is not waiting was just tried and
 * awaits the outcome (a device told to reconnect).
 */
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "nl/endpoint.hpp"
#include "nl/uuid.hpp"

namespace rdmablk::daemon {

using Clock = std::chrono::steady_clock;
using Time = Clock::time_point;

/* Waits of initial, 2 x initial, 4 x initial ... capped at max. */
struct Backoff {
	std::chrono::seconds initial{1};
	std::chrono::seconds max{60};

	/* The wait after the @failures-th failure in a row (1: the first). */
	std::chrono::seconds delay(unsigned failures) const;
};

std::string listener_key(const nl::Endpoint &endpoint);
std::string export_key(std::string_view name);
std::string host_key(const nl::Uuid &id);
std::string attachment_key(const nl::Endpoint &target, std::string_view export_name);
/* Path @path of the attachment of @export_name through @target, and its policy. */
std::string path_key(const nl::Endpoint &target, std::string_view export_name,
		     const nl::Endpoint &path);
std::string policy_key(const nl::Endpoint &target, std::string_view export_name);

struct RetryEntry {
	unsigned attempts = 0; /* failed attempts (or reconnects asked for) in a row */
	bool waiting = false;  /* another attempt is due at next_due */
	Time next_due{};
	std::string last_error;
};

class RetryBook {
public:
	const RetryEntry *find(const std::string &key) const;

	/* May @key be tried now: never tried, or waiting and due. */
	bool due(const std::string &key, Time now) const;

	/* An attempt failed with @error: wait backoff.delay(attempts) from @now. */
	void failed(const std::string &key, std::string error, Time now, const Backoff &backoff);

	/* An attempt was made whose outcome shows later (RECONNECT of a device). */
	void tried(const std::string &key);

	/* The last attempt did not help (the device gave up again): wait as after a failure. */
	void schedule(const std::string &key, Time now, const Backoff &backoff);

	/* Not waiting any more (the device is reconnecting by itself); attempts are kept. */
	void hold(const std::string &key);

	/* Set up and well: forget @key. */
	void clear(const std::string &key);

	/* Forget the entries whose key is not in @keys. */
	void retain(const std::set<std::string> &keys);

	/* The earliest time an entry is due, if any waits. */
	std::optional<Time> next_due() const;

	const std::map<std::string, RetryEntry> &entries() const { return entries_; }

private:
	std::map<std::string, RetryEntry> entries_;
};

} // namespace rdmablk::daemon
