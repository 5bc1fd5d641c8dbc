// SPDX-License-Identifier: GPL-2.0
#include "nl/error.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <utility>

#include <netlink/errno.h>

namespace rdmablk::nl {

namespace {

/* The errno an NLE_* code stands for; 0 for libnl's own conditions. */
int nlerr_to_errno(int nlerr) noexcept
{
	switch (nlerr) {
	case NLE_INTR:
		return EINTR;
	case NLE_BAD_SOCK:
		return EBADF;
	case NLE_AGAIN:
		return EAGAIN;
	case NLE_NOMEM:
		return ENOMEM;
	case NLE_EXIST:
		return EEXIST;
	case NLE_INVAL:
		return EINVAL;
	case NLE_RANGE:
		return ERANGE;
	case NLE_MSGSIZE:
		return EMSGSIZE;
	case NLE_OPNOTSUPP:
		return EOPNOTSUPP;
	case NLE_AF_NOSUPPORT:
		return EAFNOSUPPORT;
	case NLE_OBJ_NOTFOUND:
		return ENOENT;
	case NLE_NOADDR:
		return EADDRNOTAVAIL;
	case NLE_BUSY:
		return EBUSY;
	case NLE_PROTO_MISMATCH:
		return EPROTONOSUPPORT;
	case NLE_NOACCESS:
		return EACCES;
	case NLE_PERM:
		return EPERM;
	case NLE_NODEV:
		return ENODEV;
	default:
		return 0;
	}
}

std::string describe(const std::string &context, int errnum, int nlerr, const std::string &extack)
{
	std::string what = context + ": " + (errnum ? std::strerror(errnum) : nl_geterror(nlerr));
	if (!extack.empty())
		what += ": " + extack;
	return what;
}

} // namespace

Error::Error(std::string what, std::string context, int errnum, int nlerr, std::string extack)
	: std::runtime_error(std::move(what)), context_(std::move(context)), errnum_(errnum),
	  nlerr_(nlerr), extack_(std::move(extack))
{
}

Error::Error(std::string context, int errnum, std::string extack, std::vector<std::uint8_t> cookie)
	: Error(describe(context, errnum, 0, extack), context, errnum, nl_syserr2nlerr(errnum),
		extack)
{
	cookie_ = std::move(cookie);
}

Error Error::from_libnl(std::string context, int nlerr)
{
	nlerr = std::abs(nlerr);
	const int errnum = nlerr_to_errno(nlerr);
	return Error(describe(context, errnum, nlerr, {}), context, errnum, nlerr, {});
}

const char *Error::libnl_message() const noexcept
{
	return nl_geterror(nlerr_);
}

FamilyNotFound::FamilyNotFound()
	: Error("the rdmablk generic netlink family is not registered (is rdmablk.ko loaded?)",
		"resolving the rdmablk generic netlink family", ENOENT, NLE_OBJ_NOTFOUND, {})
{
}

MalformedMessage::MalformedMessage(std::string_view message, std::string_view problem)
	: Error("malformed " + std::string(message) + ": " + std::string(problem),
		std::string(message), EBADMSG, NLE_PARSE_ERR, {})
{
}

} // namespace rdmablk::nl
