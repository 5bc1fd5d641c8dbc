// SPDX-License-Identifier: GPL-2.0
#include "nl/requests.hpp"

#include <cerrno>

#include <netlink/genl/genl.h>

#include <linux/rdmablk.h>

#include "nl/error.hpp"

namespace rdmablk::nl {

namespace {

void put_endpoint(nl_msg &msg, const Endpoint &endpoint)
{
	put_string(msg, RDMABLK_ATTR_ADDR, endpoint.addr);
	put_u16(msg, RDMABLK_ATTR_PORT, endpoint.port);
}

void put_uuid(nl_msg &msg, int type, const Uuid &uuid)
{
	put_attr(msg, type, uuid.bytes.data(), uuid.bytes.size());
}

/* The recovery settings and path policy of @args, AttachArgs or DevSetArgs, that are given. */
template <typename Args> void put_settings(nl_msg &msg, const Args &args)
{
	if (args.reconnect_delay)
		put_u32(msg, RDMABLK_ATTR_RECONNECT_DELAY, *args.reconnect_delay);
	if (args.ctrl_loss_tmo)
		put_s32(msg, RDMABLK_ATTR_CTRL_LOSS_TMO, *args.ctrl_loss_tmo);
	if (args.fast_io_fail_tmo)
		put_s32(msg, RDMABLK_ATTR_FAST_IO_FAIL_TMO, *args.fast_io_fail_tmo);
	if (args.keepalive_tmo)
		put_u32(msg, RDMABLK_ATTR_KEEPALIVE_TMO, *args.keepalive_tmo);
	if (args.mp_policy)
		put_u32(msg, RDMABLK_ATTR_MP_POLICY, *args.mp_policy);
}

/* A request of command @cmd about /dev/rdmablk@index. */
Msg build_dev_request(int family, std::uint8_t cmd, std::uint32_t index)
{
	Msg msg = build_request(family, cmd, NLM_F_ACK);
	put_u32(*msg, RDMABLK_ATTR_DEV_INDEX, index);
	return msg;
}

/* A PATH_* request of command @cmd: the device, the path's target and standby when given. */
Msg build_path(int family, std::uint8_t cmd, const PathArgs &args)
{
	Msg msg = build_dev_request(family, cmd, args.index);
	put_endpoint(*msg, args.target);
	if (args.standby)
		put_u8(*msg, RDMABLK_ATTR_PATH_STANDBY, *args.standby ? 1 : 0);
	return msg;
}

Msg build_listen(int family, std::uint8_t cmd, const Endpoint &endpoint)
{
	Msg msg = build_request(family, cmd, NLM_F_ACK);
	put_endpoint(*msg, endpoint);
	return msg;
}

/* AUTH_KEY and AUTH_TARGET_KEY, each when not empty. */
void put_keys(nl_msg &msg, std::span<const std::uint8_t> key,
	      std::span<const std::uint8_t> target_key)
{
	if (!key.empty())
		put_attr(msg, RDMABLK_ATTR_AUTH_KEY, key.data(), key.size());
	if (!target_key.empty())
		put_attr(msg, RDMABLK_ATTR_AUTH_TARGET_KEY, target_key.data(), target_key.size());
}

} // namespace

Msg build_request(int family, std::uint8_t cmd, int flags)
{
	Msg msg = alloc_msg();
	if (!genlmsg_put(msg.get(), NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, NLM_F_REQUEST | flags,
			 cmd, RDMABLK_GENL_VERSION))
		throw Error("building a generic netlink header", EMSGSIZE);
	return msg;
}

Msg build_get_info(int family)
{
	return build_request(family, RDMABLK_CMD_GET_INFO, NLM_F_ACK);
}

Msg build_listen_add(int family, const Endpoint &endpoint)
{
	return build_listen(family, RDMABLK_CMD_LISTEN_ADD, endpoint);
}

Msg build_listen_del(int family, const Endpoint &endpoint)
{
	return build_listen(family, RDMABLK_CMD_LISTEN_DEL, endpoint);
}

Msg build_listen_get(int family)
{
	return build_request(family, RDMABLK_CMD_LISTEN_GET, NLM_F_DUMP);
}

Msg build_export_add(int family, std::string_view name, std::string_view path, const Uuid &uuid,
		     bool read_only, const std::vector<Uuid> &allowed_hosts, bool auth_required)
{
	Msg msg = build_request(family, RDMABLK_CMD_EXPORT_ADD, NLM_F_ACK);
	put_string(*msg, RDMABLK_ATTR_EXPORT_NAME, name);
	put_string(*msg, RDMABLK_ATTR_EXPORT_PATH, path);
	put_uuid(*msg, RDMABLK_ATTR_UUID, uuid);
	if (read_only)
		put_flag(*msg, RDMABLK_ATTR_READ_ONLY);
	if (auth_required)
		put_flag(*msg, RDMABLK_ATTR_AUTH_REQUIRED);
	if (!allowed_hosts.empty()) {
		nlattr *nest = start_nest(*msg, RDMABLK_ATTR_ALLOWED_HOSTS);
		for (const Uuid &host : allowed_hosts)
			put_uuid(*msg, RDMABLK_ATTR_HOSTID, host);
		end_nest(*msg, *nest);
	}
	return msg;
}

Msg build_export_del(int family, std::string_view name)
{
	Msg msg = build_request(family, RDMABLK_CMD_EXPORT_DEL, NLM_F_ACK);
	put_string(*msg, RDMABLK_ATTR_EXPORT_NAME, name);
	return msg;
}

Msg build_export_get(int family)
{
	return build_request(family, RDMABLK_CMD_EXPORT_GET, NLM_F_DUMP);
}

Msg build_attach(int family, const AttachArgs &args)
{
	Msg msg = build_request(family, RDMABLK_CMD_ATTACH, NLM_F_ACK);
	put_endpoint(*msg, args.target);
	put_string(*msg, RDMABLK_ATTR_EXPORT_NAME, args.export_name);
	put_uuid(*msg, RDMABLK_ATTR_HOSTID, args.hostid);
	if (args.nr_queues)
		put_u32(*msg, RDMABLK_ATTR_NR_QUEUES, *args.nr_queues);
	if (args.nr_poll_queues)
		put_u32(*msg, RDMABLK_ATTR_NR_POLL_QUEUES, *args.nr_poll_queues);
	if (args.queue_depth)
		put_u32(*msg, RDMABLK_ATTR_QUEUE_DEPTH, *args.queue_depth);
	put_settings(*msg, args);
	put_keys(*msg, args.key, args.target_key);
	return msg;
}

Msg build_detach(int family, std::uint32_t index)
{
	return build_dev_request(family, RDMABLK_CMD_DETACH, index);
}

Msg build_dev_set(int family, std::uint32_t index, const DevSetArgs &args)
{
	Msg msg = build_dev_request(family, RDMABLK_CMD_DEV_SET, index);
	put_settings(*msg, args);
	put_keys(*msg, args.key, args.target_key);
	return msg;
}

Msg build_reconnect(int family, std::uint32_t index)
{
	return build_dev_request(family, RDMABLK_CMD_RECONNECT, index);
}

Msg build_dev_get(int family)
{
	return build_request(family, RDMABLK_CMD_DEV_GET, NLM_F_DUMP);
}

Msg build_path_add(int family, const PathArgs &args)
{
	return build_path(family, RDMABLK_CMD_PATH_ADD, args);
}

Msg build_path_del(int family, const PathArgs &args)
{
	return build_path(family, RDMABLK_CMD_PATH_DEL, args);
}

Msg build_path_set(int family, const PathArgs &args)
{
	return build_path(family, RDMABLK_CMD_PATH_SET, args);
}

Msg build_host_set(int family, const Uuid &hostid, std::span<const std::uint8_t> key,
		   std::span<const std::uint8_t> target_key, bool reauth)
{
	Msg msg = build_request(family, RDMABLK_CMD_HOST_SET, NLM_F_ACK);
	put_uuid(*msg, RDMABLK_ATTR_HOSTID, hostid);
	put_keys(*msg, key, target_key);
	if (reauth)
		put_flag(*msg, RDMABLK_ATTR_HOST_REAUTH);
	return msg;
}

Msg build_host_del(int family, const Uuid &hostid)
{
	Msg msg = build_request(family, RDMABLK_CMD_HOST_DEL, NLM_F_ACK);
	put_uuid(*msg, RDMABLK_ATTR_HOSTID, hostid);
	return msg;
}

Msg build_host_get(int family)
{
	return build_request(family, RDMABLK_CMD_HOST_GET, NLM_F_DUMP);
}

} // namespace rdmablk::nl
