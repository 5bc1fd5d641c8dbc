// SPDX-License-Identifier: GPL-2.0
/*
 * What one rdmablkctl run asks for and how it ends.
 */
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "ctl/protocol.hpp"

namespace rdmablk::rdmablkctl {

/* Exit status, as the man page and --help document them. */
enum ExitCode : int {
	exit_ok = 0,
	exit_failed = 1,	     /* the daemon or the kernel said no, for another reason */
	exit_usage = 2,		     /* bad arguments */
	exit_unreachable = 3,	     /* cannot reach rdmablkd */
	exit_not_found = 4,	     /* error.code "not-found" */
	exit_exists = 5,	     /* "exists": there is one, with other settings */
	exit_busy = 6,		     /* "busy": in use, try again later */
	exit_denied = 7,	     /* "permission-denied": e.g. a target's allow list */
	exit_target_unreachable = 8, /* "unreachable": the target or rdmablk.ko */
};

enum class Output { text, json };

/* What a command does with its request. */
enum class Mode {
	once,    /* prints the answer */
	monitor, /* prints the answer, then each event that follows it */
	stat,    /* sends it again every interval and prints the rates between answers */
	local,   /* carried out by rdmablkctl itself, without rdmablkd: key generate */
};

inline constexpr std::chrono::seconds default_timeout{120};
inline constexpr std::chrono::seconds default_interval{1};

/* A parsed command line: the request to send and how to show its answer. */
struct Invocation {
	ctl::Request request;
	Output output = Output::text;
	std::string socket;
	std::chrono::milliseconds timeout = default_timeout;
	Mode mode = Mode::once;
	/* monitor, stat: end after @count events or reports (0: never). */
	std::uint64_t count = 0;
	/* stat: the time between two answers, and whether each queue is shown. */
	std::chrono::milliseconds interval = default_interval;
	bool per_queue = false;
};

/* How the run ends: what goes to stdout, the one line for stderr, the status. */
struct Outcome {
	int exit_code = exit_ok;
	std::string out;
	std::string error; /* without the "rdmablkctl: " prefix or '\n'; empty: none */
	/*
	 * The error as the control socket gives it, for -o json; codes of
	 * rdmablkctl's own: "usage", "daemon-unreachable", "timeout",
	 * "bad-answer", "not-attached".
	 */
	std::optional<ctl::ErrorInfo> info;
};

} // namespace rdmablk::rdmablkctl
