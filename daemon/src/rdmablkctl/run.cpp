// SPDX-License-Identifier: GPL-2.0
#include "run.hpp"

#include <iostream>
#include <optional>
#include <system_error>

#include "ctl/client.hpp"
#include "local.hpp"
#include "monitor.hpp"
#include "render.hpp"
#include "stat_loop.hpp"

namespace rdmablk::rdmablkctl {

Outcome run(const Invocation &invocation)
{
	if (invocation.mode == Mode::local)
		return run_local(invocation);

	std::optional<ctl::Client> client;
	try {
		client.emplace(ctl::Client::connect(invocation.socket));
	} catch (const std::system_error &e) {
		return cannot_reach(invocation.socket, e.code());
	}

	if (invocation.mode == Mode::monitor)
		return monitor(invocation, *client, std::cout);
	if (invocation.mode == Mode::stat)
		return stat_loop(invocation, *client, std::cout);
	try {
		return render(invocation, client->call(invocation.request, invocation.timeout));
	} catch (const std::system_error &e) {
		return no_answer(invocation, e.code());
	} catch (const ctl::ProtocolError &e) {
		return bad_answer(e.what());
	}
}

} // namespace rdmablk::rdmablkctl
