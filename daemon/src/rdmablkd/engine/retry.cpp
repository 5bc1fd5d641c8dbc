// SPDX-License-Identifier: GPL-2.0
#include "engine/retry.hpp"

#include <algorithm>

#include "config/addr.hpp"

namespace rdmablk::daemon {

namespace {

std::string endpoint_text(const nl::Endpoint &endpoint)
{
	nl::Endpoint canonical = endpoint;
	if (std::optional<std::string> addr = canonical_address(endpoint.addr))
		canonical.addr = *addr;
	return nl::to_string(canonical);
}

} // namespace

std::chrono::seconds Backoff::delay(unsigned failures) const
{
	std::chrono::seconds wait = initial;
	for (unsigned i = 1; i < failures && wait < max; i++)
		wait *= 2;
	return std::min(wait, max);
}

std::string listener_key(const nl::Endpoint &endpoint)
{
	return "listener " + endpoint_text(endpoint);
}

std::string export_key(std::string_view name)
{
	return "export " + std::string(name);
}

std::string host_key(const nl::Uuid &id)
{
	return "host " + nl::to_string(id);
}

std::string attachment_key(const nl::Endpoint &target, std::string_view export_name)
{
	return "attachment " + endpoint_text(target) + " " + std::string(export_name);
}

std::string path_key(const nl::Endpoint &target, std::string_view export_name,
		     const nl::Endpoint &path)
{
	return attachment_key(target, export_name) + " path " + endpoint_text(path);
}

std::string policy_key(const nl::Endpoint &target, std::string_view export_name)
{
	return attachment_key(target, export_name) + " policy";
}

const RetryEntry *RetryBook::find(const std::string &key) const
{
	const auto it = entries_.find(key);
	return it == entries_.end() ? nullptr : &it->second;
}

bool RetryBook::due(const std::string &key, Time now) const
{
	const RetryEntry *entry = find(key);
	return !entry || (entry->waiting && entry->next_due <= now);
}

void RetryBook::failed(const std::string &key, std::string error, Time now,
		       const Backoff &backoff)
{
	RetryEntry &entry = entries_[key];
	entry.attempts++;
	entry.last_error = std::move(error);
	entry.waiting = true;
	entry.next_due = now + backoff.delay(entry.attempts);
}

void RetryBook::tried(const std::string &key)
{
	RetryEntry &entry = entries_[key];
	entry.attempts++;
	entry.waiting = false;
}

void RetryBook::schedule(const std::string &key, Time now, const Backoff &backoff)
{
	RetryEntry &entry = entries_[key];
	entry.waiting = true;
	entry.next_due = now + backoff.delay(std::max(entry.attempts, 1u));
}

void RetryBook::hold(const std::string &key)
{
	if (auto it = entries_.find(key); it != entries_.end())
		it->second.waiting = false;
}

void RetryBook::clear(const std::string &key)
{
	entries_.erase(key);
}

void RetryBook::retain(const std::set<std::string> &keys)
{
	std::erase_if(entries_, [&](const auto &item) { return !keys.count(item.first); });
}

std::optional<Time> RetryBook::next_due() const
{
	std::optional<Time> next;
	for (const auto &[key, entry] : entries_)
		if (entry.waiting && (!next || entry.next_due < *next))
			next = entry.next_due;
	return next;
}

} // namespace rdmablk::daemon
