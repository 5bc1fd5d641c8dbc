// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile initiator scenarios: each connects to the target, breaks one rule
 * of the wire protocol and checks that the target answers with the right
 * error status or drops the connection, and never executes the command.
 */
#pragma once

#include <chrono>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "auth/key.hpp"
#include "verbs.hpp"

namespace rdmablk::hostile {

struct Config {
	Endpoint endpoint;
	/* A writable export to open; commands to it are all refused. */
	std::string export_name;
	/* A read-only export, for write-read-only. */
	std::optional<std::string> ro_export;
	/* How long to wait for any single reaction of the target. */
	std::chrono::milliseconds timeout{10000};
	/* How many connects connect-flood makes, a quarter torn down at each stage. */
	unsigned int flood_connects = 200;
	/* The key the target holds for this host's id, for auth-replay. */
	std::optional<auth::Key> key;
};

struct Verdict {
	enum class Kind { Pass, Fail, Skip };
	Kind kind;
	/* Pass: what was observed; Fail: "expected ..., observed ..."; Skip: why. */
	std::string text;
};

struct Scenario {
	std::string_view name;
	std::string_view summary;
	std::string (*run)(const Config &cfg);
};

/* Every scenario, in the order "all" runs them. */
std::span<const Scenario> scenarios();

/* Scenarios "all" leaves out: they need a set-up of their own. */
std::span<const Scenario> extra_scenarios();

/* Run one scenario, turning its outcome (or any exception) into a verdict. */
Verdict run_scenario(const Scenario &scenario, const Config &cfg);

} // namespace rdmablk::hostile
