// SPDX-License-Identifier: GPL-2.0
/*
 * Turning the kernel's refusals into control-socket errors: a code the CLI
 * maps to its exit status, the kernel's message (with its extack text),
 * and a hint saying what to do about it.
 */
#pragma once

#include <string>

#include "ctl/protocol.hpp"
#include "nl/endpoint.hpp"
#include "nl/error.hpp"
#include "nl/uuid.hpp"

namespace rdmablk::daemon {

/* What was being done when the kernel refused. */
struct Attempt {
	enum class Op {
		listen,
		unlisten,
		export_add,
		export_del,
		host_add,
		host_del,
		attach,
		detach,
		dev_set,
		path,
		query
	} op;
	nl::Endpoint target;	 /* listen, unlisten, attach, path */
	std::string export_name; /* export_*, attach */
	nl::Uuid hostid;	 /* attach */
};

ctl::Response kernel_failure(const nl::Error &error, const Attempt &attempt);

/* Shorthands for the daemon's own refusals. */
ctl::Response invalid_argument(std::string message, std::string hint = {});
ctl::Response not_found(std::string message, std::string hint = {});

} // namespace rdmablk::daemon
