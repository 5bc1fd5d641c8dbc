// SPDX-License-Identifier: GPL-2.0
#include <gtest/gtest.h>

#include <cerrno>
#include <set>

#include "render.hpp"
#include "samples.hpp"

namespace rdmablk::rdmablkctl {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

Invocation invocation(const char *cmd, Output output = Output::text)
{
	return {{cmd, json::object()}, output, "/run/rdmablk/rdmablkd.sock", 120s};
}

TEST(Render, ExitCodes)
{
	EXPECT_EQ(exit_code_for({"not-found", "x", {}, {}}), exit_not_found);
	EXPECT_EQ(exit_code_for({"exists", "x", {}, {}}), exit_exists);
	EXPECT_EQ(exit_code_for({"busy", "x", {}, {}}), exit_busy);
	EXPECT_EQ(exit_code_for({"permission-denied", "x", {}, {}}), exit_denied);
	EXPECT_EQ(exit_code_for({"unreachable", "x", {}, {}}), exit_target_unreachable);
	for (const char *code : {"invalid-argument", "kernel", "internal", "config-changed",
				 "bad-config", "something-new"})
		EXPECT_EQ(exit_code_for({code, "x", {}, {}}), exit_failed) << code;
	/* Each its own, and none taken by rdmablkctl's own statuses. */
	const std::set<int> all = {exit_ok,	   exit_failed, exit_usage, exit_unreachable,
				   exit_not_found, exit_exists, exit_busy,  exit_denied,
				   exit_target_unreachable};
	EXPECT_EQ(all.size(), 9u);
}

TEST(Render, JsonErrorsForRdmablkctlsOwnFailures)
{
	const Outcome missing = as_json(
		cannot_reach("/s", std::error_code(ENOENT, std::generic_category())));
	EXPECT_EQ(missing.exit_code, exit_unreachable);
	EXPECT_EQ(missing.error, "");
	const json j = json::parse(missing.out);
	EXPECT_EQ(j["ok"], false);
	EXPECT_EQ(j["error"]["code"], "daemon-unreachable");
	EXPECT_EQ(j["error"]["message"], "cannot reach rdmablkd at /s: No such file or directory");
	EXPECT_EQ(as_json(bad_answer("x")).exit_code, exit_failed);
	EXPECT_EQ(json::parse(as_json(bad_answer("x")).out)["error"]["code"], "bad-answer");
	/* Success is left alone. */
	const Outcome fine{exit_ok, "[]\n", {}, {}};
	EXPECT_EQ(as_json(fine).out, "[]\n");
}

TEST(Render, ErrorIsOneLineWithHint)
{
	const Outcome outcome =
		render(invocation("attach"),
		       ctl::fail("not-found", "no export named db1 on 192.0.2.1:7471",
				 "run 'rdmablkctl export list' on the target"));
	EXPECT_EQ(outcome.exit_code, exit_not_found);
	EXPECT_EQ(outcome.out, "");
	EXPECT_EQ(outcome.error, "no export named db1 on 192.0.2.1:7471; run 'rdmablkctl export "
				 "list' on the target");
}

TEST(Render, KernelErrorWithoutHint)
{
	const Outcome outcome =
		render(invocation("listen", Output::json),
		       ctl::fail("kernel", "address in use\nby another listener", {}, 98));
	EXPECT_EQ(outcome.exit_code, exit_failed);
	EXPECT_EQ(outcome.out, "");
	EXPECT_EQ(outcome.error, "address in use by another listener");
}

TEST(Render, ErrorWithoutMessageNamesTheCode)
{
	EXPECT_EQ(error_line({"busy", "", "", {}}), "rdmablkd reported an error (busy)");
}

TEST(Render, SuccessPrintsTextOrJson)
{
	const json result = {{"devices", {samples::live_device()}}};
	const Outcome text = render(invocation("list"), ctl::ok(result));
	EXPECT_EQ(text.exit_code, exit_ok);
	EXPECT_EQ(text.error, "");
	EXPECT_EQ(text.out.rfind("DEVICE", 0), 0u);

	const Outcome as_json = render(invocation("list", Output::json), ctl::ok(result));
	EXPECT_EQ(as_json.exit_code, exit_ok);
	EXPECT_EQ(json::parse(as_json.out), result);
}

TEST(Render, EmptyResultsInJsonAreAnEmptyObject)
{
	EXPECT_EQ(render(invocation("detach", Output::json), ctl::ok({})).out, "{}\n");
	EXPECT_EQ(render(invocation("detach"), ctl::ok({})).out, "");
}

TEST(Render, PendingAttachFails)
{
	const Outcome outcome = render(invocation("attach"), ctl::ok(samples::pending_device()));
	EXPECT_EQ(outcome.exit_code, exit_failed);
	EXPECT_EQ(outcome.out, "");
	EXPECT_EQ(
		outcome.error,
		"192.0.2.9:7471 scratch is not attached yet (pending: retrying in 5 s, last error: "
		"connection refused); rdmablkd keeps retrying, see 'rdmablkctl status'");

	const Outcome as_json =
		render(invocation("attach", Output::json), ctl::ok(samples::pending_device()));
	EXPECT_EQ(as_json.exit_code, exit_failed);
	EXPECT_EQ(json::parse(as_json.out)["state"], "pending");
}

TEST(Render, CannotReach)
{
	const Outcome missing = cannot_reach("/run/rdmablk/rdmablkd.sock",
					     std::error_code(ENOENT, std::generic_category()));
	EXPECT_EQ(missing.exit_code, exit_unreachable);
	EXPECT_EQ(missing.error,
		  "cannot reach rdmablkd at /run/rdmablk/rdmablkd.sock: No such file or directory; "
		  "start it with 'systemctl start rdmablkd' (or enable rdmablkd.socket)");

	const Outcome refused =
		cannot_reach("/s", std::error_code(ECONNREFUSED, std::generic_category()));
	EXPECT_EQ(refused.exit_code, exit_unreachable);
	EXPECT_EQ(refused.error, "cannot reach rdmablkd at /s: Connection refused; start it with "
				 "'systemctl start rdmablkd' (or enable rdmablkd.socket)");

	const Outcome denied = cannot_reach("/s", std::error_code(EACCES, std::generic_category()));
	EXPECT_EQ(denied.exit_code, exit_unreachable);
	EXPECT_EQ(denied.error,
		  "cannot reach rdmablkd at /s: Permission denied; run rdmablkctl as root");
}

TEST(Render, NoAnswer)
{
	Invocation slow = invocation("attach");
	slow.timeout = 30s;
	const Outcome timeout =
		no_answer(slow, std::error_code(ETIMEDOUT, std::generic_category()));
	EXPECT_EQ(timeout.exit_code, exit_failed);
	EXPECT_EQ(timeout.error, "rdmablkd did not answer within 30 s; it may still finish, check "
				 "'rdmablkctl status' or raise --timeout");

	const Outcome reset = no_answer(slow, std::error_code(ECONNRESET, std::generic_category()));
	EXPECT_EQ(reset.exit_code, exit_unreachable);
	EXPECT_EQ(reset.error, "lost the connection to rdmablkd at /run/rdmablk/rdmablkd.sock: "
			       "Connection reset by peer; check 'systemctl status rdmablkd'");
}

TEST(Render, BadAnswer)
{
	const Outcome outcome = bad_answer("response: missing \"ok\"");
	EXPECT_EQ(outcome.exit_code, exit_failed);
	EXPECT_EQ(outcome.error, "unexpected answer from rdmablkd: response: missing \"ok\"");
}

} // namespace
} // namespace rdmablk::rdmablkctl
