// SPDX-License-Identifier: GPL-2.0
#include "fake_kernel.hpp"

#include <cstring>
#include <stdexcept>

#include <netlink/attr.h>
#include <netlink/genl/genl.h>

#include <linux/netlink.h>
#include <linux/rdmablk.h>

namespace rdmablk::nl::test {

namespace {

void append(nl_msg &msg, const void *data, std::size_t len)
{
	if (nlmsg_append(&msg, const_cast<void *>(data), len, NLMSG_ALIGNTO) < 0)
		throw std::runtime_error("fake kernel: message full");
}

/* An NLMSG_ERROR/NLMSG_DONE message with room for extack TLVs after @payload. */
Msg control_msg(int type, const void *payload, std::size_t len, int flags,
		std::string_view extack, std::span<const std::uint8_t> cookie = {})
{
	Msg msg = alloc_msg();
	if (!nlmsg_put(msg.get(), 0, 1, type, 0, flags))
		throw std::runtime_error("fake kernel: no room for a header");
	append(*msg, payload, len);
	if (!extack.empty()) {
		nlmsg_hdr(msg.get())->nlmsg_flags |= NLM_F_ACK_TLVS;
		put_string(*msg, NLMSGERR_ATTR_MSG, extack);
	}
	if (!cookie.empty()) {
		nlmsg_hdr(msg.get())->nlmsg_flags |= NLM_F_ACK_TLVS;
		if (nla_put(msg.get(), NLMSGERR_ATTR_COOKIE, static_cast<int>(cookie.size()),
			    cookie.data()) < 0)
			throw std::runtime_error("fake kernel: message full");
	}
	return msg;
}

std::vector<std::uint8_t> bytes_of(const void *data, std::size_t len)
{
	const auto *p = static_cast<const std::uint8_t *>(data);
	return {p, p + len};
}

} // namespace

Msg kernel_msg(std::uint8_t cmd, int family)
{
	Msg msg = alloc_msg();
	if (!genlmsg_put(msg.get(), 0, 1, family, 0, 0, cmd, RDMABLK_GENL_VERSION))
		throw std::runtime_error("fake kernel: no room for a header");
	return msg;
}

Msg kernel_reply(std::uint8_t cmd, const std::vector<RawAttr> &attrs)
{
	Msg msg = kernel_msg(cmd);
	for (const RawAttr &attr : attrs)
		put_attr(*msg, attr.type, attr.payload.data(), attr.payload.size());
	return msg;
}

Msg info_reply(std::string_view version, std::uint32_t proto, std::uint64_t features)
{
	return kernel_reply(RDMABLK_CMD_GET_INFO,
			    {string_attr(RDMABLK_ATTR_MODULE_VERSION, version),
			     u32_attr(RDMABLK_ATTR_GENL_VERSION, RDMABLK_GENL_VERSION),
			     u32_attr(RDMABLK_ATTR_PROTO_VERSION, proto),
			     u64_attr(RDMABLK_ATTR_FEATURES, features)});
}

Msg listener_reply(std::string_view addr, std::uint16_t port, std::uint32_t state)
{
	return kernel_reply(RDMABLK_CMD_LISTEN_GET,
			    {string_attr(RDMABLK_ATTR_ADDR, addr), u16_attr(RDMABLK_ATTR_PORT, port),
			     u32_attr(RDMABLK_ATTR_LISTENER_STATE, state)});
}

Msg listener_event(std::uint32_t type, const Endpoint &endpoint)
{
	return kernel_reply(RDMABLK_CMD_EVENT, {u32_attr(RDMABLK_ATTR_EVENT, type),
						string_attr(RDMABLK_ATTR_ADDR, endpoint.addr),
						u16_attr(RDMABLK_ATTR_PORT, endpoint.port)});
}

Uuid example_uuid()
{
	return {{0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x46, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd,
		 0xee, 0xff}};
}

Uuid example_hostid()
{
	return {{0x0f, 0x1e, 0x2d, 0x3c, 0x4b, 0x5a, 0x49, 0x68, 0x87, 0x76, 0xa5, 0xb4, 0xc3, 0xd2,
		 0xe1, 0xf0}};
}

Export example_export()
{
	return {
		.name = "disk0",
		.path = "/dev/nullb0",
		.uuid = example_uuid(),
		.size = 1ULL << 30,
		.logical_block_size = 512,
		.physical_block_size = 4096,
		.read_only = false,
		.nr_connections = 4,
		.allowed_hosts = {},
	};
}

Device example_device()
{
	return {
		.index = 3,
		.name = "rdmablk3",
		.target = {"192.0.2.1", RDMABLK_DEFAULT_PORT},
		.export_name = "disk0",
		.uuid = example_uuid(),
		.size = 1ULL << 30,
		.logical_block_size = 512,
		.physical_block_size = 4096,
		.read_only = false,
		.nr_queues = 4,
		.nr_poll_queues = 1,
		.queue_depth = 128,
		.state = RDMABLK_DEV_LIVE,
		.reconnect_delay = RDMABLK_DEFAULT_RECONNECT_DELAY,
		.ctrl_loss_tmo = RDMABLK_DEFAULT_CTRL_LOSS_TMO,
		.fast_io_fail_tmo = RDMABLK_TMO_OFF,
		.keepalive_tmo = RDMABLK_DEFAULT_KEEPALIVE_TMO,
		.reconnect_attempt = 0,
		.reconnect_max = RDMABLK_DEFAULT_CTRL_LOSS_TMO / RDMABLK_DEFAULT_RECONNECT_DELAY,
		.next_attempt_ms = 0,
		.reconnects = 2,
		.last_error = std::nullopt,
		.queues = {{0, RDMABLK_QUEUE_LIVE, 1000, 0, 998, 4, 1ULL << 20, 3ULL << 20, 49900},
			   {1, RDMABLK_QUEUE_LIVE, 2000, 1, 2000, 0, 0, 8ULL << 20, 120000},
			   {2, RDMABLK_QUEUE_LIVE, 0, 0, 0, 0, 0, 0, 0},
			   {3, RDMABLK_QUEUE_LIVE, 1ULL << 40, 0, 1ULL << 40, 7, 1ULL << 50, 0,
			    1ULL << 60}},
	};
}

Device example_multipath_device()
{
	Device dev = example_device();
	dev.mp_policy = RDMABLK_MP_ROUND_ROBIN;
	dev.paths = {
		{
			.id = 0,
			.target = dev.target,
			.state = RDMABLK_DEV_LIVE,
			.standby = false,
			.inflight = 12,
			.latency_us = 85,
			.commands = 3000,
			.completed = 2988,
			.errors = 1,
			.requeued = 4,
			.failovers = 0,
			.failover_age_ms = 0,
			.reconnect_attempt = 0,
			.next_attempt_ms = 0,
			.reconnects = 2,
			.last_error = std::nullopt,
		},
		{
			.id = 1,
			.target = {"198.51.100.7", 4420},
			.state = RDMABLK_DEV_RECONNECTING,
			.standby = true,
			.inflight = 0,
			.latency_us = 1ULL << 40,
			.commands = 1ULL << 40,
			.completed = (1ULL << 40) - 9,
			.errors = 0,
			.requeued = 9,
			.failovers = 3,
			.failover_age_ms = 1500,
			.reconnect_attempt = 2,
			.next_attempt_ms = 8000,
			.reconnects = 0,
			.last_error = "keep-alive timeout",
		},
	};
	return dev;
}

std::vector<RawAttr> export_attrs(const Export &exp)
{
	std::vector<RawAttr> attrs{string_attr(RDMABLK_ATTR_EXPORT_NAME, exp.name),
				   string_attr(RDMABLK_ATTR_EXPORT_PATH, exp.path),
				   uuid_attr(RDMABLK_ATTR_UUID, exp.uuid)};
	if (exp.read_only)
		attrs.push_back(flag_attr(RDMABLK_ATTR_READ_ONLY));
	attrs.insert(attrs.end(),
		     {u64_attr(RDMABLK_ATTR_SIZE, exp.size),
		      u32_attr(RDMABLK_ATTR_LOGICAL_BLOCK_SIZE, exp.logical_block_size),
		      u32_attr(RDMABLK_ATTR_PHYSICAL_BLOCK_SIZE, exp.physical_block_size),
		      u32_attr(RDMABLK_ATTR_NR_CONNECTIONS, exp.nr_connections)});
	if (!exp.allowed_hosts.empty()) {
		std::vector<RawAttr> hosts;
		for (const Uuid &host : exp.allowed_hosts)
			hosts.push_back(uuid_attr(RDMABLK_ATTR_HOSTID, host));
		attrs.push_back(nested_attr(RDMABLK_ATTR_ALLOWED_HOSTS, hosts));
	}
	return attrs;
}

std::vector<RawAttr> path_attrs(const PathInfo &path)
{
	std::vector<RawAttr> attrs{
		u32_attr(RDMABLK_ATTR_PATH_ID, path.id),
		string_attr(RDMABLK_ATTR_ADDR, path.target.addr),
		u16_attr(RDMABLK_ATTR_PORT, path.target.port),
		u32_attr(RDMABLK_ATTR_PATH_STATE, path.state),
		u8_attr(RDMABLK_ATTR_PATH_STANDBY, path.standby ? 1 : 0),
		u32_attr(RDMABLK_ATTR_PATH_INFLIGHT, path.inflight),
		u64_attr(RDMABLK_ATTR_PATH_LATENCY_US, path.latency_us),
		u64_attr(RDMABLK_ATTR_QUEUE_COMMANDS, path.commands),
		u64_attr(RDMABLK_ATTR_QUEUE_COMPLETED, path.completed),
		u64_attr(RDMABLK_ATTR_QUEUE_ERRORS, path.errors),
		u64_attr(RDMABLK_ATTR_QUEUE_REQUEUED, path.requeued),
		u32_attr(RDMABLK_ATTR_PATH_FAILOVERS, path.failovers),
	};
	if (path.failovers)
		attrs.push_back(u64_attr(RDMABLK_ATTR_PATH_FAILOVER_AGE_MS, path.failover_age_ms));
	attrs.insert(attrs.end(), {u32_attr(RDMABLK_ATTR_RECONNECT_ATTEMPT, path.reconnect_attempt),
				   u32_attr(RDMABLK_ATTR_NEXT_ATTEMPT_MS, path.next_attempt_ms),
				   u32_attr(RDMABLK_ATTR_RECONNECTS, path.reconnects)});
	if (path.last_error)
		attrs.push_back(string_attr(RDMABLK_ATTR_LAST_ERROR, *path.last_error));
	return attrs;
}

std::vector<RawAttr> device_attrs(const Device &dev)
{
	std::vector<RawAttr> attrs{
		u32_attr(RDMABLK_ATTR_DEV_INDEX, dev.index),
		string_attr(RDMABLK_ATTR_DEV_NAME, dev.name),
		string_attr(RDMABLK_ATTR_ADDR, dev.target.addr),
		u16_attr(RDMABLK_ATTR_PORT, dev.target.port),
		string_attr(RDMABLK_ATTR_EXPORT_NAME, dev.export_name),
		uuid_attr(RDMABLK_ATTR_UUID, dev.uuid),
		u64_attr(RDMABLK_ATTR_SIZE, dev.size),
		u32_attr(RDMABLK_ATTR_LOGICAL_BLOCK_SIZE, dev.logical_block_size),
		u32_attr(RDMABLK_ATTR_PHYSICAL_BLOCK_SIZE, dev.physical_block_size),
	};
	if (dev.read_only)
		attrs.push_back(flag_attr(RDMABLK_ATTR_READ_ONLY));
	attrs.insert(attrs.end(), {u32_attr(RDMABLK_ATTR_NR_QUEUES, dev.nr_queues),
				   u32_attr(RDMABLK_ATTR_NR_POLL_QUEUES, dev.nr_poll_queues),
				   u32_attr(RDMABLK_ATTR_QUEUE_DEPTH, dev.queue_depth),
				   u32_attr(RDMABLK_ATTR_DEV_STATE, dev.state),
				   u32_attr(RDMABLK_ATTR_RECONNECT_DELAY, dev.reconnect_delay),
				   s32_attr(RDMABLK_ATTR_CTRL_LOSS_TMO, dev.ctrl_loss_tmo),
				   s32_attr(RDMABLK_ATTR_FAST_IO_FAIL_TMO, dev.fast_io_fail_tmo),
				   u32_attr(RDMABLK_ATTR_KEEPALIVE_TMO, dev.keepalive_tmo),
				   u32_attr(RDMABLK_ATTR_RECONNECT_ATTEMPT, dev.reconnect_attempt),
				   u32_attr(RDMABLK_ATTR_RECONNECT_MAX, dev.reconnect_max),
				   u32_attr(RDMABLK_ATTR_NEXT_ATTEMPT_MS, dev.next_attempt_ms),
				   u32_attr(RDMABLK_ATTR_RECONNECTS, dev.reconnects)});
	if (dev.last_error)
		attrs.push_back(string_attr(RDMABLK_ATTR_LAST_ERROR, *dev.last_error));
	if (dev.mp_policy)
		attrs.push_back(u32_attr(RDMABLK_ATTR_MP_POLICY, dev.mp_policy));
	std::vector<RawAttr> queues;
	for (const QueueInfo &q : dev.queues)
		queues.push_back(nested_attr(RDMABLK_ATTR_QUEUE,
					     {u32_attr(RDMABLK_ATTR_QUEUE_ID, q.id),
					      u32_attr(RDMABLK_ATTR_QUEUE_STATE, q.state),
					      u64_attr(RDMABLK_ATTR_QUEUE_COMMANDS, q.commands),
					      u64_attr(RDMABLK_ATTR_QUEUE_ERRORS, q.errors),
					      u64_attr(RDMABLK_ATTR_QUEUE_COMPLETED, q.completed),
					      u64_attr(RDMABLK_ATTR_QUEUE_REQUEUED, q.requeued),
					      u64_attr(RDMABLK_ATTR_QUEUE_READ_BYTES, q.read_bytes),
					      u64_attr(RDMABLK_ATTR_QUEUE_WRITE_BYTES, q.write_bytes),
					      u64_attr(RDMABLK_ATTR_QUEUE_LATENCY_US, q.latency_us)}));
	attrs.push_back(nested_attr(RDMABLK_ATTR_QUEUES, queues));
	if (!dev.paths.empty()) {
		std::vector<RawAttr> paths;
		for (const PathInfo &p : dev.paths)
			paths.push_back(nested_attr(RDMABLK_ATTR_PATH, path_attrs(p)));
		attrs.push_back(nested_attr(RDMABLK_ATTR_PATHS, paths));
	}
	return attrs;
}

Msg export_reply(const Export &exp)
{
	return kernel_reply(RDMABLK_CMD_EXPORT_GET, export_attrs(exp));
}

Msg device_reply(std::uint8_t cmd, const Device &dev)
{
	return kernel_reply(cmd, device_attrs(dev));
}

Msg export_event(std::uint32_t type, const ExportRef &exp)
{
	return kernel_reply(RDMABLK_CMD_EVENT, {u32_attr(RDMABLK_ATTR_EVENT, type),
						string_attr(RDMABLK_ATTR_EXPORT_NAME, exp.name),
						uuid_attr(RDMABLK_ATTR_UUID, exp.uuid)});
}

Msg device_event(std::uint32_t type, const Device &dev)
{
	std::vector<RawAttr> attrs{u32_attr(RDMABLK_ATTR_EVENT, type)};
	const std::vector<RawAttr> rest = device_attrs(dev);
	attrs.insert(attrs.end(), rest.begin(), rest.end());
	return kernel_reply(RDMABLK_CMD_EVENT, attrs);
}

Msg path_event(std::uint32_t type, const Device &dev, std::uint32_t path_id)
{
	Msg msg = device_event(type, dev);
	put_u32(*msg, RDMABLK_ATTR_PATH_ID, path_id);
	return msg;
}

Msg error_reply(nl_msg &request, int errnum, std::string_view extack, bool capped,
		std::span<const std::uint8_t> cookie)
{
	const nlmsghdr *req = nlmsg_hdr(&request);
	std::vector<std::uint8_t> payload(sizeof(nlmsgerr));
	const nlmsgerr err{.error = -errnum, .msg = *req};
	std::memcpy(payload.data(), &err, sizeof(err));
	if (!capped) {
		const auto *body = reinterpret_cast<const std::uint8_t *>(req) + NLMSG_HDRLEN;
		payload.insert(payload.end(), body, body + (req->nlmsg_len - NLMSG_HDRLEN));
	}
	return control_msg(NLMSG_ERROR, payload.data(), payload.size(), capped ? NLM_F_CAPPED : 0,
			   extack, cookie);
}

Msg done_reply(int status, std::string_view extack)
{
	return control_msg(NLMSG_DONE, &status, sizeof(status), NLM_F_MULTI, extack);
}

std::vector<RawAttr> attrs_of(nl_msg &msg)
{
	const genlmsghdr *gnlh = genlmsg_hdr(nlmsg_hdr(&msg));
	std::vector<RawAttr> attrs;
	nlattr *nla;
	int rem;
	nla_for_each_attr(nla, genlmsg_attrdata(gnlh, 0), genlmsg_attrlen(gnlh, 0), rem)
		attrs.push_back({static_cast<std::uint16_t>(nla->nla_type),
				 bytes_of(nla_data(nla), static_cast<std::size_t>(nla_len(nla)))});
	return attrs;
}

RawAttr u8_attr(std::uint16_t type, std::uint8_t value)
{
	return {type, bytes_of(&value, sizeof(value))};
}

RawAttr u16_attr(std::uint16_t type, std::uint16_t value)
{
	return {type, bytes_of(&value, sizeof(value))};
}

RawAttr u32_attr(std::uint16_t type, std::uint32_t value)
{
	return {type, bytes_of(&value, sizeof(value))};
}

RawAttr u64_attr(std::uint16_t type, std::uint64_t value)
{
	return {type, bytes_of(&value, sizeof(value))};
}

RawAttr string_attr(std::uint16_t type, std::string_view value)
{
	std::vector<std::uint8_t> payload(value.begin(), value.end());
	payload.push_back(0);
	return {type, std::move(payload)};
}

RawAttr uuid_attr(std::uint16_t type, const Uuid &uuid)
{
	return {type, bytes_of(uuid.bytes.data(), uuid.bytes.size())};
}

RawAttr s32_attr(std::uint16_t type, std::int32_t value)
{
	return {type, bytes_of(&value, sizeof(value))};
}

RawAttr flag_attr(std::uint16_t type)
{
	return {type, {}};
}

RawAttr nested_attr(std::uint16_t type, const std::vector<RawAttr> &inner)
{
	std::vector<std::uint8_t> payload;
	for (const RawAttr &attr : inner) {
		const nlattr header{static_cast<std::uint16_t>(NLA_HDRLEN + attr.payload.size()),
				    attr.type};
		const std::vector<std::uint8_t> head = bytes_of(&header, sizeof(header));
		payload.insert(payload.end(), head.begin(), head.end());
		payload.insert(payload.end(), attr.payload.begin(), attr.payload.end());
		payload.resize(NLA_ALIGN(payload.size()));
	}
	return {static_cast<std::uint16_t>(type | NLA_F_NESTED), std::move(payload)};
}

} // namespace rdmablk::nl::test
