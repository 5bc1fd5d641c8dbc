// SPDX-License-Identifier: GPL-2.0
#include "monitor.hpp"

#include <system_error>

#include "render.hpp"

namespace rdmablk::rdmablkctl {

namespace {

std::string string_member(const nlohmann::json &event, const char *key)
{
	const auto it = event.find(key);
	return it != event.end() && it->is_string() ? it->get<std::string>() : std::string();
}

Outcome daemon_left()
{
	ctl::ErrorInfo info{"daemon-unreachable",
			    "rdmablkd closed the connection (it stopped or restarted)",
			    "check 'systemctl status rdmablkd', then run 'rdmablkctl monitor' again",
			    {}};
	return Outcome{exit_unreachable, {}, error_line(info), info};
}

} // namespace

std::string monitor_line(const nlohmann::json &event, Output output)
{
	if (output == Output::json)
		return event.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
	std::string message = string_member(event, "message");
	if (message.empty())
		message = "event " + string_member(event, "type");
	const std::string time = string_member(event, "time");
	return time.empty() ? message : time + " " + message;
}

Outcome monitor(const Invocation &invocation, ctl::Client &client, std::ostream &out)
{
	try {
		const ctl::Response response = client.call(invocation.request, invocation.timeout);
		if (!response.ok)
			return render(invocation, response);
		for (std::uint64_t seen = 0; !invocation.count || seen < invocation.count; seen++) {
			const std::optional<std::string> line = client.next_line();
			if (!line)
				return daemon_left();
			out << monitor_line(ctl::parse_event_line(*line), invocation.output) << '\n'
			    << std::flush;
		}
	} catch (const std::system_error &e) {
		return no_answer(invocation, e.code());
	} catch (const ctl::ProtocolError &e) {
		return bad_answer(e.what());
	}
	return Outcome{};
}

} // namespace rdmablk::rdmablkctl
