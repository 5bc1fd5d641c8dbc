// SPDX-License-Identifier: GPL-2.0
#include "engine/errors.hpp"

#include <cerrno>

#include <linux/rdmablk.h>

namespace rdmablk::daemon {

namespace {

using Op = Attempt::Op;

constexpr const char *unreachable_hint =
	"check that the target is up, listens there (rdmablkctl listen on the target) and is "
	"reachable over RDMA (rping); an attachment in the configuration is retried by itself";

/* A target that cannot be reached, or nothing when @e says otherwise. */
ctl::Response unreachable(const nl::Error &e)
{
	switch (e.errnum()) {
	case ECONNREFUSED:
	case ECONNRESET:
	case EHOSTUNREACH:
	case ENETUNREACH:
	case ETIMEDOUT:
	case EADDRNOTAVAIL:
		return ctl::fail(ctl::code::unreachable, e.what(), unreachable_hint, e.errnum());
	default:
		return {};
	}
}

ctl::Response attach_failure(const nl::Error &e, const Attempt &a)
{
	const std::string what = "attaching export " + a.export_name + " from " +
				 nl::to_string(a.target);
	switch (e.errnum()) {
	case ENOENT:
		return ctl::fail(ctl::code::not_found, e.what(),
				 "run 'rdmablkctl export list' on the target", e.errnum());
	case EACCES:
		return ctl::fail(ctl::code::permission_denied,
				 what + ": this host (id " + nl::to_string(a.hostid) +
					 ") is not allowed by the export's allow list: " +
					 e.extack(),
				 "on the target, add this host's id to the export: rdmablkctl "
				 "export add " +
					 a.export_name + " PATH --allow " +
					 nl::to_string(a.hostid) + " (see 'rdmablkctl hostid')",
				 e.errnum());
	case EEXIST:
		return ctl::fail(ctl::code::exists, e.what(),
				 "'rdmablkctl list' shows the device it is attached as; another "
				 "address joins that device as a path where it offers the export "
				 "under the same name",
				 e.errnum());
	case ENOKEY:
		return ctl::fail(ctl::code::permission_denied,
				 what + ": the target requires authentication of this host (id " +
					 nl::to_string(a.hostid) + "): " + e.extack(),
				 "attach with --key-file FILE holding the key the target holds for "
				 "this host id (on the target: rdmablkctl host add " +
					 nl::to_string(a.hostid) + " --key-file FILE)",
				 e.errnum());
	case EKEYREJECTED:
		return ctl::fail(ctl::code::permission_denied,
				 what + ": the target refused this host's key: " + e.extack(),
				 "the key file here and the one the target holds for host id " +
					 nl::to_string(a.hostid) +
					 " must hold the same key ('rdmablkctl host list' on the "
					 "target counts the refusals)",
				 e.errnum());
	case EBADMSG:
		return ctl::fail(ctl::code::permission_denied,
				 what + ": the target did not prove it holds the target key: " +
					 e.extack(),
				 "check that --target-key-file holds the key the target was given "
				 "for this host (rdmablkctl host add --target-key-file); if it does, "
				 "another machine answers at that address",
				 e.errnum());
	default:
		return unreachable(e);
	}
}

/* Adding, removing or changing a path of a device. */
ctl::Response path_failure(const nl::Error &e)
{
	const std::string paths_hint = "'rdmablkctl status' shows the device's paths";
	switch (e.errnum()) {
	case ENOENT:
		return ctl::fail(ctl::code::not_found, e.what(), paths_hint, e.errnum());
	case EEXIST:
		return ctl::fail(ctl::code::exists, e.what(), paths_hint, e.errnum());
	case EBUSY:
		return ctl::fail(ctl::code::busy, e.what(),
				 "'rdmablkctl detach' removes the device with its last path",
				 e.errnum());
	case E2BIG:
	case ENOSPC:
		return ctl::fail(ctl::code::invalid_argument, e.what(),
				 "a device has at most " + std::to_string(RDMABLK_MAX_PATHS) +
					 " paths; remove one first",
				 e.errnum());
	default:
		return unreachable(e);
	}
}

ctl::Response target_failure(const nl::Error &e, const Attempt &a)
{
	switch (e.errnum()) {
	case ENOENT:
		if (a.op == Op::export_add)
			return ctl::fail(ctl::code::not_found, e.what(),
					 "the path must name an existing block device", e.errnum());
		if (a.op == Op::listen)
			return ctl::fail(ctl::code::not_found, e.what(),
					 "the address must be assigned to an RDMA-capable interface",
					 e.errnum());
		return ctl::fail(ctl::code::not_found, e.what(), {}, e.errnum());
	case EADDRNOTAVAIL:
	case ENODEV:
		return ctl::fail(ctl::code::not_found, e.what(),
				 "the address must be assigned to an RDMA-capable interface "
				 "('rdma link' lists them)",
				 e.errnum());
	case EEXIST:
		return ctl::fail(ctl::code::exists, e.what(),
				 a.op == Op::export_add
					 ? "remove it first with 'rdmablkctl export del " +
						   a.export_name + "' to change it"
					 : std::string(),
				 e.errnum());
	default:
		return {};
	}
}

} // namespace

ctl::Response kernel_failure(const nl::Error &error, const Attempt &attempt)
{
	if (dynamic_cast<const nl::FamilyNotFound *>(&error))
		return ctl::fail(ctl::code::unreachable,
				 "the rdmablk kernel module is not loaded (" +
					 std::string(error.what()) + ")",
				 "load it: modprobe rdmablk");

	ctl::Response specific = attempt.op == Op::attach ? attach_failure(error, attempt)
				 : attempt.op == Op::path ? path_failure(error)
							  : target_failure(error, attempt);
	if (specific.error)
		return specific;

	switch (error.errnum()) {
	case EPERM:
		return ctl::fail(ctl::code::permission_denied, error.what(),
				 "rdmablkd needs CAP_NET_ADMIN", error.errnum());
	case EBUSY:
		return ctl::fail(ctl::code::busy, error.what(),
				 "something else holds it open; try again once it is released",
				 error.errnum());
	case EINVAL:
	case ERANGE:
	case E2BIG:
		return ctl::fail(ctl::code::invalid_argument, error.what(), {}, error.errnum());
	case ENOENT:
		return ctl::fail(ctl::code::not_found, error.what(), {}, error.errnum());
	default:
		return ctl::fail(ctl::code::kernel, error.what(), {},
				 error.errnum() ? std::optional<int>(error.errnum()) : std::nullopt);
	}
}

ctl::Response invalid_argument(std::string message, std::string hint)
{
	return ctl::fail(ctl::code::invalid_argument, std::move(message), std::move(hint));
}

ctl::Response not_found(std::string message, std::string hint)
{
	return ctl::fail(ctl::code::not_found, std::move(message), std::move(hint));
}

} // namespace rdmablk::daemon
