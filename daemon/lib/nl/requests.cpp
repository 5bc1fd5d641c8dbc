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

Msg build_listen(int family, std::uint8_t cmd, const Endpoint &endpoint)
{
	Msg msg = build_request(family, cmd, NLM_F_ACK);
	put_endpoint(*msg, endpoint);
	return msg;
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
		     bool read_only)
{
	Msg msg = build_request(family, RDMABLK_CMD_EXPORT_ADD, NLM_F_ACK);
	put_string(*msg, RDMABLK_ATTR_EXPORT_NAME, name);
	put_string(*msg, RDMABLK_ATTR_EXPORT_PATH, path);
	put_uuid(*msg, RDMABLK_ATTR_UUID, uuid);
	if (read_only)
		put_flag(*msg, RDMABLK_ATTR_READ_ONLY);
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
	if (args.queue_depth)
		put_u32(*msg, RDMABLK_ATTR_QUEUE_DEPTH, *args.queue_depth);
	return msg;
}

Msg build_detach(int family, std::uint32_t index)
{
	Msg msg = build_request(family, RDMABLK_CMD_DETACH, NLM_F_ACK);
	put_u32(*msg, RDMABLK_ATTR_DEV_INDEX, index);
	return msg;
}

Msg build_dev_get(int family)
{
	return build_request(family, RDMABLK_CMD_DEV_GET, NLM_F_DUMP);
}

} // namespace rdmablk::nl
