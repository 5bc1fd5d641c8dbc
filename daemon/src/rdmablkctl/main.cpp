// SPDX-License-Identifier: GPL-2.0
/*
 * rdmablkctl: the command-line interface of rdmablkd.
 */
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "run.hpp"

int main(int argc, char **argv)
{
	using namespace rdmablk::rdmablkctl;

	Outcome outcome;
	try {
		const std::vector<std::string> args(argv + 1, argv + argc);
		auto parsed = parse_args(args, rdmablk::ctl::default_socket_path());
		if (auto *invocation = std::get_if<Invocation>(&parsed))
			outcome = run(*invocation);
		else
			outcome = std::get<Outcome>(std::move(parsed));
	} catch (const std::exception &e) {
		outcome = {exit_failed, {}, std::string("internal error: ") + e.what()};
	}

	std::cout << outcome.out << std::flush;
	if (!outcome.error.empty())
		std::cerr << "rdmablkctl: " << outcome.error << '\n';
	return outcome.exit_code;
}
