// SPDX-License-Identifier: GPL-2.0
#include "nl/attrs.hpp"

#include <strings.h>

#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "nl/error.hpp"

namespace rdmablk::nl {

namespace {

using SpecTable = std::array<AttrSpec, RDMABLK_ATTR_MAX + 1>;

constexpr SpecTable specs = [] {
	SpecTable t{};
#define ATTR(name, type, len) t[RDMABLK_ATTR_##name] = {#name, AttrType::type, len}
	ATTR(PAD, binary, 0);
	ATTR(MODULE_VERSION, string, 0);
	ATTR(GENL_VERSION, u32, 0);
	ATTR(PROTO_VERSION, u32, 0);
	ATTR(FEATURES, u64, 0);
	ATTR(ADDR, string, RDMABLK_ADDR_MAX_LEN);
	ATTR(PORT, u16, 0);
	ATTR(LISTENER_STATE, u32, 0);
	ATTR(EVENT, u32, 0);
	ATTR(EXPORT_NAME, string, RDMABLK_EXPORT_NAME_MAX);
	ATTR(EXPORT_PATH, string, RDMABLK_PATH_MAX);
	ATTR(UUID, binary, RDMABLK_UUID_SIZE);
	ATTR(READ_ONLY, flag, 0);
	ATTR(SIZE, u64, 0);
	ATTR(LOGICAL_BLOCK_SIZE, u32, 0);
	ATTR(PHYSICAL_BLOCK_SIZE, u32, 0);
	ATTR(NR_CONNECTIONS, u32, 0);
	ATTR(HOSTID, binary, RDMABLK_UUID_SIZE);
	ATTR(NR_QUEUES, u32, 0);
	ATTR(QUEUE_DEPTH, u32, 0);
	ATTR(DEV_INDEX, u32, 0);
	ATTR(DEV_NAME, string, 0);
	ATTR(DEV_STATE, u32, 0);
	ATTR(ALLOWED_HOSTS, nested, 0);
	ATTR(RECONNECT_DELAY, u32, 0);
	ATTR(CTRL_LOSS_TMO, s32, 0);
	ATTR(FAST_IO_FAIL_TMO, s32, 0);
	ATTR(KEEPALIVE_TMO, u32, 0);
	ATTR(RECONNECT_ATTEMPT, u32, 0);
	ATTR(RECONNECT_MAX, u32, 0);
	ATTR(NEXT_ATTEMPT_MS, u32, 0);
	ATTR(LAST_ERROR, string, 0);
	ATTR(REASON, string, 0);
	ATTR(QUEUES, nested, 0);
	ATTR(QUEUE, nested, 0);
	ATTR(QUEUE_ID, u32, 0);
	ATTR(QUEUE_STATE, u32, 0);
	ATTR(QUEUE_COMMANDS, u64, 0);
	ATTR(QUEUE_ERRORS, u64, 0);
	ATTR(QUEUE_COMPLETED, u64, 0);
	ATTR(QUEUE_REQUEUED, u64, 0);
	ATTR(QUEUE_READ_BYTES, u64, 0);
	ATTR(QUEUE_WRITE_BYTES, u64, 0);
	ATTR(QUEUE_LATENCY_US, u64, 0);
	ATTR(RECONNECTS, u32, 0);
	ATTR(AUTH_KEY, binary, 0);
	ATTR(AUTH_TARGET_KEY, binary, 0);
	ATTR(AUTH_REQUIRED, flag, 0);
	ATTR(AUTH, u32, 0);
	ATTR(AUTH_HMAC, u32, 0);
	ATTR(AUTH_TARGET_HMAC, u32, 0);
	ATTR(AUTH_OK, u64, 0);
	ATTR(AUTH_FAILED, u64, 0);
	ATTR(HOST_REAUTH, flag, 0);
	ATTR(NR_POLL_QUEUES, u32, 0);
	ATTR(MP_POLICY, u32, 0);
	ATTR(PATHS, nested, 0);
	ATTR(PATH, nested, 0);
	ATTR(PATH_ID, u32, 0);
	ATTR(PATH_STATE, u32, 0);
	ATTR(PATH_STANDBY, u8, 0);
	ATTR(PATH_INFLIGHT, u32, 0);
	ATTR(PATH_LATENCY_US, u64, 0);
	ATTR(PATH_FAILOVERS, u32, 0);
	ATTR(PATH_FAILOVER_AGE_MS, u64, 0);
#undef ATTR
	return t;
}();

constexpr bool every_attr_described(const SpecTable &t)
{
	for (std::size_t type = RDMABLK_ATTR_UNSPEC + 1; type < t.size(); type++)
		if (t[type].name.empty())
			return false;
	return true;
}
static_assert(every_attr_described(specs), "describe every enum rdmablk_attr value in specs");

/* The payload size @spec requires; 0 when it may vary. */
constexpr std::uint16_t fixed_size(const AttrSpec &spec)
{
	switch (spec.type) {
	case AttrType::u8:
		return sizeof(std::uint8_t);
	case AttrType::u16:
		return sizeof(std::uint16_t);
	case AttrType::u32:
		return sizeof(std::uint32_t);
	case AttrType::u64:
		return sizeof(std::uint64_t);
	case AttrType::s32:
		return sizeof(std::int32_t);
	case AttrType::binary:
		return spec.len;
	case AttrType::flag:
	case AttrType::string:
	case AttrType::nested:
		break;
	}
	return 0;
}

constexpr nla_policy policy_of(const AttrSpec &spec)
{
	switch (spec.type) {
	case AttrType::u8:
		return {NLA_U8, 0, fixed_size(spec)};
	case AttrType::u16:
		return {NLA_U16, 0, fixed_size(spec)};
	case AttrType::u32:
		return {NLA_U32, 0, fixed_size(spec)};
	case AttrType::u64:
		return {NLA_U64, 0, fixed_size(spec)};
	case AttrType::s32:
		/* libnl 3.7 knows no minimum size for NLA_S32. */
		return {NLA_S32, fixed_size(spec), fixed_size(spec)};
	case AttrType::nested:
		/* What is inside is checked when it is read. */
		return {NLA_NESTED, 0, 0};
	case AttrType::string:
		return {NLA_STRING, 0, spec.len};
	case AttrType::flag:
		return {NLA_FLAG, 0, 0};
	case AttrType::binary:
		break;
	}
	return {NLA_UNSPEC, fixed_size(spec), fixed_size(spec)};
}

/* The policy nla_parse() applies, derived from specs. */
constexpr std::array<nla_policy, RDMABLK_ATTR_MAX + 1> policy = [] {
	std::array<nla_policy, RDMABLK_ATTR_MAX + 1> p{};
	for (std::size_t type = 0; type < p.size(); type++)
		p[type] = policy_of(specs[type]);
	return p;
}();

std::string name_of(unsigned int type)
{
	const AttrSpec *spec = attr_spec(type);
	return spec ? std::string(spec->name) : "type " + std::to_string(type);
}

/* Why @nla, which the policy rejects, is invalid. */
std::string explain_invalid(const nlattr &nla)
{
	const unsigned int type = nla_type(&nla);
	const AttrSpec &spec = specs[type];
	const std::string name = "attribute " + name_of(type);
	const int len = nla_len(&nla);

	if (spec.type != AttrType::string)
		return name + " has " + std::to_string(len) + " bytes, expected " +
		       std::to_string(fixed_size(spec));
	if (len == 0)
		return name + " is empty";
	if (spec.len && len > spec.len)
		return name + " has " + std::to_string(len) + " bytes, at most " +
		       std::to_string(spec.len) + " allowed";
	return name + " is not NUL-terminated";
}

/* A caller reading attribute @type as a UUID when it is not one is a bug here. */
void check_uuid(unsigned int type)
{
	if (specs[type].type != AttrType::binary || specs[type].len != RDMABLK_UUID_SIZE)
		throw std::logic_error("attribute " + name_of(type) + " is not a UUID");
}

/* @nla, a UUID attribute the policy has checked the size of. */
Uuid uuid_of(const nlattr &nla)
{
	Uuid uuid;
	nla_memcpy(uuid.bytes.data(), &nla, static_cast<int>(uuid.bytes.size()));
	return uuid;
}

} // namespace

const AttrSpec *attr_spec(unsigned int type) noexcept
{
	if (type == RDMABLK_ATTR_UNSPEC || type >= specs.size())
		return nullptr;
	return &specs[type];
}

std::optional<std::uint16_t> attr_by_name(std::string_view name) noexcept
{
	for (std::size_t type = RDMABLK_ATTR_UNSPEC + 1; type < specs.size(); type++) {
		const std::string_view candidate = specs[type].name;
		if (candidate.size() == name.size() &&
		    strncasecmp(candidate.data(), name.data(), name.size()) == 0)
			return static_cast<std::uint16_t>(type);
	}
	return std::nullopt;
}

Attrs::Attrs(nl_msg &msg, std::uint8_t expected_cmd, std::string_view what) : what_(what)
{
	nlmsghdr *nlh = nlmsg_hdr(&msg);
	if (!genlmsg_valid_hdr(nlh, 0))
		fail("truncated generic netlink header");

	const genlmsghdr *gnlh = genlmsg_hdr(nlh);
	if (gnlh->cmd != expected_cmd)
		fail("command " + std::to_string(gnlh->cmd) + ", expected " +
		     std::to_string(expected_cmd));

	parse(genlmsg_attrdata(gnlh, 0), genlmsg_attrlen(gnlh, 0));
}

Attrs::Attrs(const nlattr &nest, std::string_view what) : what_(what)
{
	parse(static_cast<nlattr *>(nla_data(&nest)), nla_len(&nest));
}

void Attrs::parse(nlattr *head, int len)
{
	if (nla_parse(tb_.data(), RDMABLK_ATTR_MAX, head, len, policy.data()) == 0) {
		/* libnl lets a flag carry a payload; the kernel never sends one. */
		for (std::size_t type = 0; type < tb_.size(); type++)
			if (tb_[type] && specs[type].type == AttrType::flag && nla_len(tb_[type]))
				fail(explain_invalid(*tb_[type]));
		return;
	}

	/* Name the attribute the policy rejects. */
	nlattr *nla;
	int rem;
	nla_for_each_attr(nla, head, len, rem) {
		if (nla_type(nla) <= RDMABLK_ATTR_MAX &&
		    nla_validate(nla, nla->nla_len, RDMABLK_ATTR_MAX, policy.data()) < 0)
			fail(explain_invalid(*nla));
	}
	fail("attributes fail validation");
}

void Attrs::fail(std::string_view problem) const
{
	throw MalformedMessage(what_, problem);
}

void Attrs::check_type(rdmablk_attr type, AttrType as) const
{
	/* A caller reading an attribute as what it is not is a bug here, not in the kernel. */
	if (specs[type].type != as)
		throw std::logic_error("attribute " + name_of(type) + " read with the wrong type");
}

const nlattr &Attrs::require(rdmablk_attr type, AttrType as) const
{
	check_type(type, as);
	if (!tb_[type])
		fail("attribute " + name_of(type) + " is missing");
	return *tb_[type];
}

std::string Attrs::string(rdmablk_attr type) const
{
	return nla_get_string(&require(type, AttrType::string));
}

std::uint8_t Attrs::u8(rdmablk_attr type) const
{
	return nla_get_u8(&require(type, AttrType::u8));
}

std::uint16_t Attrs::u16(rdmablk_attr type) const
{
	return nla_get_u16(&require(type, AttrType::u16));
}

std::uint32_t Attrs::u32(rdmablk_attr type) const
{
	return nla_get_u32(&require(type, AttrType::u32));
}

std::uint64_t Attrs::u64(rdmablk_attr type) const
{
	return nla_get_u64(&require(type, AttrType::u64));
}

std::int32_t Attrs::s32(rdmablk_attr type) const
{
	return nla_get_s32(&require(type, AttrType::s32));
}

Uuid Attrs::uuid(rdmablk_attr type) const
{
	check_uuid(type);
	return uuid_of(require(type, AttrType::binary));
}

std::optional<std::string> Attrs::optional_string(rdmablk_attr type) const
{
	check_type(type, AttrType::string);
	return tb_[type] ? std::optional(string(type)) : std::nullopt;
}

std::optional<std::uint32_t> Attrs::optional_u32(rdmablk_attr type) const
{
	check_type(type, AttrType::u32);
	return tb_[type] ? std::optional(u32(type)) : std::nullopt;
}

std::optional<std::uint64_t> Attrs::optional_u64(rdmablk_attr type) const
{
	check_type(type, AttrType::u64);
	return tb_[type] ? std::optional(u64(type)) : std::nullopt;
}

std::optional<std::int32_t> Attrs::optional_s32(rdmablk_attr type) const
{
	check_type(type, AttrType::s32);
	return tb_[type] ? std::optional(s32(type)) : std::nullopt;
}

bool Attrs::flag(rdmablk_attr type) const
{
	check_type(type, AttrType::flag);
	return tb_[type] != nullptr;
}

std::vector<const nlattr *> Attrs::elements(rdmablk_attr type, rdmablk_attr element,
					    AttrType as) const
{
	check_type(type, AttrType::nested);
	check_type(element, as);
	std::vector<const nlattr *> found;
	if (!tb_[type])
		return found;

	const nlattr *nla;
	int rem;
	nla_for_each_nested(nla, tb_[type], rem) {
		if (nla_type(nla) != element)
			continue;
		if (nla_validate(nla, nla->nla_len, RDMABLK_ATTR_MAX,
				 policy.data()) < 0)
			fail(explain_invalid(*nla));
		found.push_back(nla);
	}
	if (rem > 0)
		fail("attribute " + name_of(type) + " has " + std::to_string(rem) +
		     " bytes after its last attribute");
	return found;
}

std::vector<Attrs> Attrs::nests(rdmablk_attr type, rdmablk_attr element) const
{
	std::vector<Attrs> nests;
	for (const nlattr *nla : elements(type, element, AttrType::nested))
		nests.push_back(Attrs(*nla, what_));
	return nests;
}

std::vector<Uuid> Attrs::uuids(rdmablk_attr type, rdmablk_attr element) const
{
	check_uuid(element);
	std::vector<Uuid> uuids;
	for (const nlattr *nla : elements(type, element, AttrType::binary))
		uuids.push_back(uuid_of(*nla));
	return uuids;
}

} // namespace rdmablk::nl
