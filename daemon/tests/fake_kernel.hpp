// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's side of the rdmablk netlink conversation, faked: the
 * messages rdmablk.ko would send, built by hand, and a Transport that
 * answers requests with them.
 */
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "nl/endpoint.hpp"
#include "nl/message.hpp"
#include "nl/transport.hpp"
#include "nl/types.hpp"
#include "nl/uuid.hpp"

namespace rdmablk::nl::test {

/* The id the fake kernel registered the family under. */
inline constexpr int family_id = 0x1d;

/* One attribute of a message as raw bytes. */
struct RawAttr {
	std::uint16_t type;
	std::vector<std::uint8_t> payload;

	bool operator==(const RawAttr &) const = default;
};

/* Every attribute of generic netlink message @msg, in order. */
std::vector<RawAttr> attrs_of(nl_msg &msg);

RawAttr u8_attr(std::uint16_t type, std::uint8_t value);
RawAttr u16_attr(std::uint16_t type, std::uint16_t value);
RawAttr u32_attr(std::uint16_t type, std::uint32_t value);
RawAttr u64_attr(std::uint16_t type, std::uint64_t value);
RawAttr string_attr(std::uint16_t type, std::string_view value);
RawAttr uuid_attr(std::uint16_t type, const Uuid &uuid);
RawAttr s32_attr(std::uint16_t type, std::int32_t value);
RawAttr flag_attr(std::uint16_t type);
/* Nested attribute @type (NLA_F_NESTED set, as the kernel sends it) holding @inner. */
RawAttr nested_attr(std::uint16_t type, const std::vector<RawAttr> &inner);

/* A message from rdmablk.ko: generic netlink header only, attributes to be added. */
Msg kernel_msg(std::uint8_t cmd, int family = family_id);

/* A message from rdmablk.ko carrying @attrs. */
Msg kernel_reply(std::uint8_t cmd, const std::vector<RawAttr> &attrs);

/* 00112233-4455-4677-8899-aabbccddeeff */
Uuid example_uuid();
/* Another host's id: 0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0 */
Uuid example_hostid();
/* A read-write export of 1 GiB with 512-byte blocks, open to every host. */
Export example_export();
/* A live device attached to example_export() at 192.0.2.1, default recovery settings, 4 queues. */
Device example_device();
/*
 * example_device() with multipath: the round-robin policy and two paths,
 * 192.0.2.1 live and active, 198.51.100.7:4420 reconnecting and standby.
 */
Device example_multipath_device();

/* The attributes rdmablk.ko describes @exp with in an EXPORT_GET dump, in its order. */
std::vector<RawAttr> export_attrs(const Export &exp);
/* What rdmablk.ko puts in the PATH nest of @path, in its order. */
std::vector<RawAttr> path_attrs(const PathInfo &path);
/*
 * The attributes rdmablk.ko describes @dev with: DEV_GET, ATTACH, PATH_ADD
 * and device events. MP_POLICY and PATHS only when @dev has a policy and
 * paths, as from a module with multipath.
 */
std::vector<RawAttr> device_attrs(const Device &dev);

/* A complete GET_INFO reply. */
Msg info_reply(std::string_view version, std::uint32_t proto, std::uint64_t features);

/* A complete LISTEN_GET dump entry. */
Msg listener_reply(std::string_view addr, std::uint16_t port, std::uint32_t state);

/* A listener event. */
Msg listener_event(std::uint32_t type, const Endpoint &endpoint);

/* A complete EXPORT_GET dump entry. */
Msg export_reply(const Export &exp);

/* A complete device message of command @cmd: DEV_GET, ATTACH or PATH_ADD. */
Msg device_reply(std::uint8_t cmd, const Device &dev);

/* An export event. */
Msg export_event(std::uint32_t type, const ExportRef &exp);

/* A device event. */
Msg device_event(std::uint32_t type, const Device &dev);

/* A path event: the device event about path @path_id of @dev. */
Msg path_event(std::uint32_t type, const Device &dev, std::uint32_t path_id);

/*
 * The NLMSG_ERROR the kernel answers @request with: its @errnum (negated),
 * @extack and, when not empty, @cookie.
 */
Msg error_reply(nl_msg &request, int errnum, std::string_view extack, bool capped,
		std::span<const std::uint8_t> cookie = {});

/* The NLMSG_DONE ending a dump with @status and @extack. */
Msg done_reply(int status, std::string_view extack);

/* A Transport answering each request with what @handler returns or throws. */
class FakeKernel : public Transport {
public:
	using Handler = std::function<std::vector<Msg>(nl_msg &request, std::string_view what)>;

	explicit FakeKernel(Handler handler) : handler_(std::move(handler)) {}

	std::vector<Msg> transact(nl_msg &request, std::string_view what) override
	{
		return handler_(request, what);
	}

private:
	Handler handler_;
};

} // namespace rdmablk::nl::test
