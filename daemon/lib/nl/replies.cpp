// SPDX-License-Identifier: GPL-2.0
#include "nl/replies.hpp"

#include <linux/rdmablk.h>

#include "nl/attrs.hpp"

namespace rdmablk::nl {

namespace {

/* RDMABLK_ATTR_PORT, which the ABI keeps in 1..65535. */
std::uint16_t checked_port(const Attrs &attrs)
{
	const std::uint16_t port = attrs.u16(RDMABLK_ATTR_PORT);
	if (port == 0)
		attrs.fail("attribute PORT is 0");
	return port;
}

Endpoint endpoint_of(const Attrs &attrs)
{
	return {attrs.string(RDMABLK_ATTR_ADDR), checked_port(attrs)};
}

/* The counters after ERRORS came later: an older module's queues lack them. */
QueueInfo queue_of(const Attrs &attrs)
{
	const auto counter = [&](rdmablk_attr type) {
		return attrs.optional_u64(type).value_or(0);
	};
	return {
		.id = attrs.u32(RDMABLK_ATTR_QUEUE_ID),
		.state = attrs.u32(RDMABLK_ATTR_QUEUE_STATE),
		.commands = attrs.u64(RDMABLK_ATTR_QUEUE_COMMANDS),
		.errors = attrs.u64(RDMABLK_ATTR_QUEUE_ERRORS),
		.completed = counter(RDMABLK_ATTR_QUEUE_COMPLETED),
		.requeued = counter(RDMABLK_ATTR_QUEUE_REQUEUED),
		.read_bytes = counter(RDMABLK_ATTR_QUEUE_READ_BYTES),
		.write_bytes = counter(RDMABLK_ATTR_QUEUE_WRITE_BYTES),
		.latency_us = counter(RDMABLK_ATTR_QUEUE_LATENCY_US),
	};
}

/* One PATH nest; only a module with multipath sends them, each whole. */
PathInfo path_of(const Attrs &attrs)
{
	const auto failover_age_ms = attrs.optional_u64(RDMABLK_ATTR_PATH_FAILOVER_AGE_MS);
	return {
		.id = attrs.u32(RDMABLK_ATTR_PATH_ID),
		.target = endpoint_of(attrs),
		.state = attrs.u32(RDMABLK_ATTR_PATH_STATE),
		.standby = attrs.u8(RDMABLK_ATTR_PATH_STANDBY) != 0,
		.inflight = attrs.u32(RDMABLK_ATTR_PATH_INFLIGHT),
		.latency_us = attrs.u64(RDMABLK_ATTR_PATH_LATENCY_US),
		.commands = attrs.u64(RDMABLK_ATTR_QUEUE_COMMANDS),
		.completed = attrs.u64(RDMABLK_ATTR_QUEUE_COMPLETED),
		.errors = attrs.u64(RDMABLK_ATTR_QUEUE_ERRORS),
		.requeued = attrs.u64(RDMABLK_ATTR_QUEUE_REQUEUED),
		.failovers = attrs.u32(RDMABLK_ATTR_PATH_FAILOVERS),
		.failover_age_ms = failover_age_ms.value_or(0),
		.reconnect_attempt = attrs.u32(RDMABLK_ATTR_RECONNECT_ATTEMPT),
		.next_attempt_ms = attrs.u32(RDMABLK_ATTR_NEXT_ATTEMPT_MS),
		.reconnects = attrs.u32(RDMABLK_ATTR_RECONNECTS),
		.last_error = attrs.optional_string(RDMABLK_ATTR_LAST_ERROR),
	};
}

/*
 * The device attributes DEV_GET, ATTACH, PATH_ADD and device events share.
 * Those recovery, the I/O counters and multipath added are read when
 * present, so that an older module's messages still parse.
 */
Device device_of(const Attrs &attrs)
{
	std::vector<QueueInfo> queues;
	for (const Attrs &queue : attrs.nests(RDMABLK_ATTR_QUEUES, RDMABLK_ATTR_QUEUE))
		queues.push_back(queue_of(queue));
	std::vector<PathInfo> paths;
	for (const Attrs &path : attrs.nests(RDMABLK_ATTR_PATHS, RDMABLK_ATTR_PATH))
		paths.push_back(path_of(path));

	return {
		.index = attrs.u32(RDMABLK_ATTR_DEV_INDEX),
		.name = attrs.string(RDMABLK_ATTR_DEV_NAME),
		.target = endpoint_of(attrs),
		.export_name = attrs.string(RDMABLK_ATTR_EXPORT_NAME),
		.uuid = attrs.uuid(RDMABLK_ATTR_UUID),
		.size = attrs.u64(RDMABLK_ATTR_SIZE),
		.logical_block_size = attrs.u32(RDMABLK_ATTR_LOGICAL_BLOCK_SIZE),
		.physical_block_size = attrs.u32(RDMABLK_ATTR_PHYSICAL_BLOCK_SIZE),
		.read_only = attrs.flag(RDMABLK_ATTR_READ_ONLY),
		.nr_queues = attrs.u32(RDMABLK_ATTR_NR_QUEUES),
		.nr_poll_queues = attrs.optional_u32(RDMABLK_ATTR_NR_POLL_QUEUES).value_or(0),
		.queue_depth = attrs.u32(RDMABLK_ATTR_QUEUE_DEPTH),
		.state = attrs.u32(RDMABLK_ATTR_DEV_STATE),
		.reconnect_delay = attrs.optional_u32(RDMABLK_ATTR_RECONNECT_DELAY).value_or(0),
		.ctrl_loss_tmo = attrs.optional_s32(RDMABLK_ATTR_CTRL_LOSS_TMO).value_or(0),
		.fast_io_fail_tmo = attrs.optional_s32(RDMABLK_ATTR_FAST_IO_FAIL_TMO).value_or(0),
		.keepalive_tmo = attrs.optional_u32(RDMABLK_ATTR_KEEPALIVE_TMO).value_or(0),
		.reconnect_attempt = attrs.optional_u32(RDMABLK_ATTR_RECONNECT_ATTEMPT).value_or(0),
		.reconnect_max = attrs.optional_u32(RDMABLK_ATTR_RECONNECT_MAX).value_or(0),
		.next_attempt_ms = attrs.optional_u32(RDMABLK_ATTR_NEXT_ATTEMPT_MS).value_or(0),
		.reconnects = attrs.optional_u32(RDMABLK_ATTR_RECONNECTS).value_or(0),
		.auth = attrs.optional_u32(RDMABLK_ATTR_AUTH).value_or(RDMABLK_AUTH_MODE_NONE),
		.last_error = attrs.optional_string(RDMABLK_ATTR_LAST_ERROR),
		.queues = std::move(queues),
		.mp_policy = attrs.optional_u32(RDMABLK_ATTR_MP_POLICY).value_or(0),
		.paths = std::move(paths),
	};
}

bool is_listener_event(std::uint32_t type)
{
	return type == RDMABLK_EVENT_LISTENER_ADDED || type == RDMABLK_EVENT_LISTENER_REMOVED;
}

bool is_export_event(std::uint32_t type)
{
	return type == RDMABLK_EVENT_EXPORT_ADDED || type == RDMABLK_EVENT_EXPORT_REMOVED;
}

/* A path event describes the device too, and names the path. */
bool is_path_event(std::uint32_t type)
{
	return type == RDMABLK_EVENT_PATH_ADDED || type == RDMABLK_EVENT_PATH_REMOVED ||
	       type == RDMABLK_EVENT_PATH_STATE || type == RDMABLK_EVENT_PATH_FAILOVER;
}

bool is_device_event(std::uint32_t type)
{
	return type == RDMABLK_EVENT_DEVICE_ATTACHED || type == RDMABLK_EVENT_DEVICE_DETACHED ||
	       type == RDMABLK_EVENT_DEVICE_STATE || type == RDMABLK_EVENT_DEVICE_RESIZED ||
	       is_path_event(type);
}

} // namespace

Info parse_info(nl_msg &msg)
{
	const Attrs attrs(msg, RDMABLK_CMD_GET_INFO, "GET_INFO reply");
	return {
		.module_version = attrs.string(RDMABLK_ATTR_MODULE_VERSION),
		.genl_version = attrs.u32(RDMABLK_ATTR_GENL_VERSION),
		.proto_version = attrs.u32(RDMABLK_ATTR_PROTO_VERSION),
		.features = attrs.u64(RDMABLK_ATTR_FEATURES),
	};
}

Listener parse_listener(nl_msg &msg)
{
	const Attrs attrs(msg, RDMABLK_CMD_LISTEN_GET, "LISTEN_GET reply");
	return {
		.addr = attrs.string(RDMABLK_ATTR_ADDR),
		.port = checked_port(attrs),
		.state = attrs.u32(RDMABLK_ATTR_LISTENER_STATE),
	};
}

Export parse_export(nl_msg &msg)
{
	const Attrs attrs(msg, RDMABLK_CMD_EXPORT_GET, "EXPORT_GET reply");
	return {
		.name = attrs.string(RDMABLK_ATTR_EXPORT_NAME),
		.path = attrs.string(RDMABLK_ATTR_EXPORT_PATH),
		.uuid = attrs.uuid(RDMABLK_ATTR_UUID),
		.size = attrs.u64(RDMABLK_ATTR_SIZE),
		.logical_block_size = attrs.u32(RDMABLK_ATTR_LOGICAL_BLOCK_SIZE),
		.physical_block_size = attrs.u32(RDMABLK_ATTR_PHYSICAL_BLOCK_SIZE),
		.read_only = attrs.flag(RDMABLK_ATTR_READ_ONLY),
		.auth_required = attrs.flag(RDMABLK_ATTR_AUTH_REQUIRED),
		.nr_connections = attrs.u32(RDMABLK_ATTR_NR_CONNECTIONS),
		.allowed_hosts = attrs.uuids(RDMABLK_ATTR_ALLOWED_HOSTS, RDMABLK_ATTR_HOSTID),
	};
}

Host parse_host(nl_msg &msg)
{
	const Attrs attrs(msg, RDMABLK_CMD_HOST_GET, "HOST_GET reply");
	return {
		.hostid = attrs.uuid(RDMABLK_ATTR_HOSTID),
		.hmac = attrs.u32(RDMABLK_ATTR_AUTH_HMAC),
		.target_hmac = attrs.optional_u32(RDMABLK_ATTR_AUTH_TARGET_HMAC).value_or(0),
		.auth_ok = attrs.u64(RDMABLK_ATTR_AUTH_OK),
		.auth_failed = attrs.u64(RDMABLK_ATTR_AUTH_FAILED),
	};
}

Device parse_device(nl_msg &msg)
{
	return device_of(Attrs(msg, RDMABLK_CMD_DEV_GET, "DEV_GET reply"));
}

Device parse_attach(nl_msg &msg)
{
	return device_of(Attrs(msg, RDMABLK_CMD_ATTACH, "ATTACH reply"));
}

Device parse_path_add(nl_msg &msg)
{
	return device_of(Attrs(msg, RDMABLK_CMD_PATH_ADD, "PATH_ADD reply"));
}

Event parse_event(nl_msg &msg)
{
	const Attrs attrs(msg, RDMABLK_CMD_EVENT, "EVENT notification");
	Event event;
	event.type = attrs.u32(RDMABLK_ATTR_EVENT);

	/* Events of a known type must describe their object. */
	if (is_listener_event(event.type))
		event.listener = endpoint_of(attrs);
	else if (is_export_event(event.type))
		event.export_ref = ExportRef{attrs.string(RDMABLK_ATTR_EXPORT_NAME),
					     attrs.uuid(RDMABLK_ATTR_UUID)};
	else if (is_device_event(event.type))
		event.device = device_of(attrs);
	if (is_path_event(event.type))
		event.path_id = attrs.u32(RDMABLK_ATTR_PATH_ID);
	event.reason = attrs.optional_string(RDMABLK_ATTR_REASON);
	return event;
}

std::optional<Event> parse_notification(nl_msg &msg, int family)
{
	if (nlmsg_hdr(&msg)->nlmsg_type != family || genl_cmd(msg) != RDMABLK_CMD_EVENT)
		return std::nullopt;
	return parse_event(msg);
}

} // namespace rdmablk::nl
