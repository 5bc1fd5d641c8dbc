// SPDX-License-Identifier: GPL-2.0
/*
 * Start-up: make sure rdmablk.ko answers before anything else happens.
 */
#pragma once

#include <memory>
#include <string>

#include "kernel/kernel.hpp"
#include "log.hpp"

namespace rdmablk::daemon {

struct ProbedKernel {
	std::unique_ptr<NlKernel> kernel;
	nl::Info info;
};

/*
 * Connect to rdmablk.ko and check it answers GET_INFO with a netlink
 * version this build speaks. When the family is missing and @modprobe is
 * set, run "/sbin/modprobe rdmablk" once and try again. Throws
 * std::runtime_error with a message for the administrator.
 */
ProbedKernel probe_kernel(bool modprobe, Logger &log);

} // namespace rdmablk::daemon
