// SPDX-License-Identifier: GPL-2.0
/*
 * rdmablkctl: the command-line interface of rdmablkd.
 */
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "render.hpp"
#include "run.hpp"

int main(int argc, char **argv)
{
	using namespace rdmablk::rdmablkctl;

	Outcome outcome;
	try {
		const std::vector<std::string> args(argv + 1, argv + argc);
		if (!args.empty() && args.front() == "__complete") {
			for (const std::string &word :
			     completions({args.begin() + 1, args.end()}))
				std::cout << word << '\n';
			return exit_ok;
		}
		auto parsed = parse_args(args, rdmablk::ctl::default_socket_path());
		bool json, lines = false;
		if (auto *invocation = std::get_if<Invocation>(&parsed)) {
			outcome = run(*invocation);
			json = invocation->output == Output::json;
			lines = invocation->mode == Mode::monitor ||
				invocation->mode == Mode::stat;
		} else {
			outcome = std::get<Outcome>(std::move(parsed));
			json = asks_for_json(args);
		}
		if (json)
			outcome = as_json(std::move(outcome), lines);
	} catch (const std::exception &e) {
		outcome = {exit_failed, {}, std::string("internal error: ") + e.what(), {}};
	}

	std::cout << outcome.out << std::flush;
	if (!outcome.error.empty())
		std::cerr << "rdmablkctl: " << outcome.error << '\n';
	return outcome.exit_code;
}
