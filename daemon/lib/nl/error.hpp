// SPDX-License-Identifier: GPL-2.0
/*
 * Errors raised by the rdmablk netlink library.
 */
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace rdmablk::nl {

/*
 * A failed netlink operation.
 *
 * what() reads "<context>: <reason>[: <extack>]", where the reason is
 * strerror(errnum()), or libnl's own text when the failure has no errno
 * equivalent.
 */
class Error : public std::runtime_error {
public:
	/* A failure reported as an errno, by the kernel or by a system call. */
	Error(std::string context, int errnum, std::string extack = {},
	      std::vector<std::uint8_t> cookie = {});

	/* A failure reported by libnl as an NLE_* code (either sign). */
	static Error from_libnl(std::string context, int nlerr);

	const std::string &context() const noexcept { return context_; }

	/* Positive errno; 0 when the failure has no errno equivalent. */
	int errnum() const noexcept { return errnum_; }

	/* libnl's description of the failure, as nl_geterror() gives it. */
	const char *libnl_message() const noexcept;

	/* The kernel's extended ack message; empty when it sent none. */
	const std::string &extack() const noexcept { return extack_; }

	/* The kernel's extended ack cookie (what the refusal refers to); empty when none. */
	const std::vector<std::uint8_t> &cookie() const noexcept { return cookie_; }

protected:
	Error(std::string what, std::string context, int errnum, int nlerr, std::string extack);

private:
	std::string context_;
	int errnum_;
	int nlerr_;
	std::string extack_;
	std::vector<std::uint8_t> cookie_;
};

/* The rdmablk family is not registered with generic netlink. */
class FamilyNotFound : public Error {
public:
	FamilyNotFound();
};

/* A reply or notification that does not follow the rdmablk ABI (EBADMSG). */
class MalformedMessage : public Error {
public:
	/* what() reads "malformed <message>: <problem>". */
	MalformedMessage(std::string_view message, std::string_view problem);
};

} // namespace rdmablk::nl
