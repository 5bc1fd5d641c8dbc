// SPDX-License-Identifier: GPL-2.0
#include "kernel/event_log.hpp"

#include <linux/rdmablk.h>

#include "nl/names.hpp"

namespace rdmablk::daemon {

namespace {

/* Builds the message, the journal fields and the monitor's members together. */
class RecordBuilder {
public:
	RecordBuilder(LogRecord &record, nlohmann::json &members)
		: record_(record), members_(members)
	{
	}

	void add(std::string_view word, std::string field, std::string value)
	{
		record_.message += " " + std::string(word) + "=" + quote_value(value);
		members_[std::string(word)] = value;
		record_.fields.push_back({std::move(field), std::move(value)});
	}

private:
	LogRecord &record_;
	nlohmann::json &members_;
};

int priority_of(const nl::Event &event)
{
	if (event.type == RDMABLK_EVENT_PATH_FAILOVER)
		return LOG_WARNING;
	if (event.type != RDMABLK_EVENT_DEVICE_STATE || !event.device)
		return LOG_INFO;
	switch (event.device->state) {
	case RDMABLK_DEV_DEAD:
		return LOG_ERR;
	case RDMABLK_DEV_RECONNECTING:
		return LOG_WARNING;
	default:
		return LOG_NOTICE;
	}
}

void add_device(RecordBuilder &b, const nl::Event &event, const nl::Device &dev)
{
	b.add("dev", "RDMABLK_DEVICE", dev.name);
	b.add("target", "RDMABLK_TARGET", nl::to_string(dev.target));
	b.add("export", "RDMABLK_EXPORT", dev.export_name);
	b.add("state", "RDMABLK_STATE", nl::dev_state_name(dev.state));
	if (event.type == RDMABLK_EVENT_DEVICE_STATE && dev.reconnect_attempt) {
		std::string attempt = std::to_string(dev.reconnect_attempt);
		if (dev.reconnect_max)
			attempt += "/" + std::to_string(dev.reconnect_max);
		b.add("attempt", "RDMABLK_ATTEMPT", attempt);
	}
	if (event.type == RDMABLK_EVENT_DEVICE_RESIZED)
		b.add("size", "RDMABLK_SIZE", std::to_string(dev.size));
	if (dev.last_error && !dev.last_error->empty())
		b.add("last_error", "RDMABLK_LAST_ERROR", *dev.last_error);
}

/* The path a path event is about: its id, and its target and state when the device has it. */
void add_path(RecordBuilder &b, std::uint32_t id, const std::optional<nl::Device> &dev)
{
	b.add("path", "RDMABLK_PATH", std::to_string(id));
	if (!dev)
		return;
	for (const nl::PathInfo &p : dev->paths)
		if (p.id == id) {
			b.add("path_target", "RDMABLK_PATH_TARGET", nl::to_string(p.target));
			b.add("path_state", "RDMABLK_PATH_STATE",
			      nl::dev_state_name(p.state) + (p.standby ? "/standby" : ""));
			return;
		}
}

} // namespace

std::string quote_value(std::string_view value)
{
	const bool plain = !value.empty() &&
			   value.find_first_of(" \t\n\"\\=") == std::string_view::npos;
	if (plain)
		return std::string(value);
	std::string out = "\"";
	for (char c : value) {
		if (c == '"' || c == '\\')
			out += '\\';
		out += c == '\n' ? ' ' : c;
	}
	return out + "\"";
}

namespace {

/* The log record of @event; its words and values also go to @members. */
LogRecord describe(const nl::Event &event, nlohmann::json &members)
{
	LogRecord record;
	record.priority = priority_of(event);
	const std::string name = nl::event_name(event.type);
	record.message = "event " + name;
	record.fields.push_back({"RDMABLK_EVENT", name});
	RecordBuilder b(record, members);
	if (event.listener)
		b.add("listener", "RDMABLK_LISTENER", nl::to_string(*event.listener));
	if (event.export_ref) {
		b.add("export", "RDMABLK_EXPORT", event.export_ref->name);
		b.add("uuid", "RDMABLK_UUID", nl::to_string(event.export_ref->uuid));
	}
	if (event.device)
		add_device(b, event, *event.device);
	if (event.path_id)
		add_path(b, *event.path_id, event.device);
	if (event.reason)
		b.add("reason", "RDMABLK_REASON", *event.reason);
	return record;
}

} // namespace

LogRecord event_record(const nl::Event &event)
{
	nlohmann::json unused = nlohmann::json::object();
	return describe(event, unused);
}

nlohmann::json event_json(const nl::Event &event)
{
	nlohmann::json members = nlohmann::json::object();
	const LogRecord record = describe(event, members);
	members["type"] = nl::event_name(event.type);
	members["message"] = record.message;
	return members;
}

} // namespace rdmablk::daemon
