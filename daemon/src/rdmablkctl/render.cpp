// SPDX-License-Identifier: GPL-2.0
#include "render.hpp"

#include <algorithm>
#include <cerrno>
#include <map>

#include "format.hpp"
#include "text.hpp"

namespace rdmablk::rdmablkctl {

namespace {

std::string one_line(std::string text)
{
	std::replace(text.begin(), text.end(), '\n', ' ');
	return text;
}

/* attach answered with a desired attachment that is not in the kernel yet. */
bool pending_attach(const Invocation &invocation, const nlohmann::json &result)
{
	return invocation.request.cmd == "attach" && result.is_object() &&
	       !text_field(result, "device");
}

/* Ends with @info: one line on stderr, or under -o json the error object on stdout. */
Outcome failure(int exit_code, ctl::ErrorInfo info)
{
	Outcome outcome{exit_code, {}, error_line(info), std::move(info)};
	return outcome;
}

} // namespace

int exit_code_for(const ctl::ErrorInfo &error)
{
	static const std::map<std::string, int, std::less<>> codes = {
		{ctl::code::not_found, exit_not_found},
		{ctl::code::exists, exit_exists},
		{ctl::code::busy, exit_busy},
		{ctl::code::permission_denied, exit_denied},
		{ctl::code::unreachable, exit_target_unreachable},
	};
	const auto it = codes.find(error.code);
	return it == codes.end() ? exit_failed : it->second;
}

std::string error_line(const ctl::ErrorInfo &error)
{
	std::string line = error.message.empty() ?
				   "rdmablkd reported an error (" + error.code + ")" :
				   error.message;
	if (!error.hint.empty())
		line += "; " + error.hint;
	return one_line(std::move(line));
}

Outcome render(const Invocation &invocation, const ctl::Response &response)
{
	if (!response.ok) {
		const ctl::ErrorInfo error =
			response.error.value_or(ctl::ErrorInfo{ctl::code::internal, {}, {}, {}});
		return failure(exit_code_for(error), error);
	}

	const nlohmann::json &result = response.result;
	Outcome outcome;
	try {
		outcome.out = invocation.output == Output::json ?
				      format_json(result) :
				      format_text(invocation.request.cmd, result);
	} catch (const nlohmann::json::exception &e) {
		return bad_answer(e.what());
	}
	if (pending_attach(invocation, result)) {
		if (invocation.output == Output::text)
			outcome.out.clear();
		outcome.exit_code = exit_failed;
		outcome.error = one_line(target_text(result) + " " +
					 text_field(result, "export").value_or("-") +
					 " is not attached yet (" + state_text(result) +
					 "); rdmablkd keeps retrying, see 'rdmablkctl status'");
	}
	return outcome;
}

Outcome cannot_reach(const std::string &socket, std::error_code error)
{
	const std::string hint =
		error.value() == EACCES || error.value() == EPERM ?
			"run rdmablkctl as root" :
			"start it with 'systemctl start rdmablkd' (or enable rdmablkd.socket)";
	return failure(exit_unreachable,
		       {"daemon-unreachable",
			"cannot reach rdmablkd at " + socket + ": " + error.message(), hint, {}});
}

Outcome no_answer(const Invocation &invocation, std::error_code error)
{
	if (error.value() == ETIMEDOUT) {
		const auto seconds =
			std::chrono::ceil<std::chrono::seconds>(invocation.timeout).count();
		return failure(exit_failed,
			       {"timeout",
				"rdmablkd did not answer within " + std::to_string(seconds) + " s",
				"it may still finish, check 'rdmablkctl status' or raise --timeout",
				{}});
	}
	return failure(exit_unreachable,
		       {"daemon-unreachable",
			"lost the connection to rdmablkd at " + invocation.socket + ": " +
				error.message(),
			"check 'systemctl status rdmablkd'",
			{}});
}

Outcome bad_answer(const std::string &what)
{
	return failure(exit_failed, {"bad-answer", "unexpected answer from rdmablkd: " + what, {}, {}});
}

Outcome as_json(Outcome outcome, bool one_line)
{
	if (outcome.exit_code == exit_ok || !outcome.info)
		return outcome;
	ctl::Response response;
	response.ok = false;
	response.error = outcome.info;
	outcome.out = one_line ? ctl::to_line(ctl::to_json(response)) :
				 format_json(ctl::to_json(response));
	outcome.error.clear();
	return outcome;
}

} // namespace rdmablk::rdmablkctl
