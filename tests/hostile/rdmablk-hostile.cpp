// SPDX-License-Identifier: GPL-2.0
/*
 * rdmablk-hostile: an initiator that breaks the rdmablk wire protocol on
 * purpose and checks that the target answers with an error status or drops
 * the connection.
 *
 *   rdmablk-hostile --target ADDR [--port 7471] --export NAME
 *                   [--ro-export NAME] [--source ADDR] [--timeout S]
 *                   [--flood-connects N] SCENARIO...|all
 *
 * Prints one line per scenario: "PASS name: observed ...", "FAIL name:
 * expected ..., observed ..." or "SKIP name: why", then a summary. Exit
 * status: 0 when no scenario failed, 1 otherwise, 2 on a usage error.
 */
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <linux/rdmablk.h>

#include "scenarios.hpp"

namespace {

using namespace rdmablk::hostile;

constexpr const char *prog = "rdmablk-hostile";

std::vector<std::string> scenario_names()
{
	std::vector<std::string> names;
	for (const Scenario &s : scenarios())
		names.emplace_back(s.name);
	for (const Scenario &s : extra_scenarios())
		names.emplace_back(s.name);
	return names;
}

std::string scenario_list()
{
	std::string text = "Scenarios (\"all\" runs every one, in this order):\n";
	for (const Scenario &s : scenarios()) {
		std::string name(s.name);
		name.resize(std::max<std::size_t>(name.size() + 2, 24), ' ');
		text += "  " + name + std::string(s.summary) + "\n";
	}
	text += "Run only by name:\n";
	for (const Scenario &s : extra_scenarios()) {
		std::string name(s.name);
		name.resize(std::max<std::size_t>(name.size() + 2, 24), ' ');
		text += "  " + name + std::string(s.summary) + "\n";
	}
	return text;
}

} // namespace

int main(int argc, char **argv)
{
	std::string target;
	std::uint16_t port = RDMABLK_DEFAULT_PORT;
	std::optional<std::string> source;
	std::string export_name;
	std::optional<std::string> ro_export;
	double timeout_s = 10;
	unsigned int flood_connects = Config{}.flood_connects;
	std::optional<std::string> key_file;
	std::vector<std::string> selected;

	std::vector<std::string> choices = scenario_names();
	choices.emplace_back("all");

	CLI::App app("Break the rdmablk wire protocol on purpose and check the target's reaction.",
		     prog);
	app.footer(scenario_list());
	app.add_option("--target", target, "Target address (IPv4 or IPv6 literal)")
		->type_name("ADDR")
		->required();
	app.add_option("--port", port, "Target port")->capture_default_str();
	app.add_option("--source", source, "Local address to bind to (default: chosen by routing)")->type_name("ADDR");
	app.add_option("--export", export_name, "A writable export of the target")
		->type_name("NAME")
		->required();
	app.add_option("--ro-export", ro_export, "A read-only export, for write-read-only")
		->type_name("NAME");
	app.add_option("--timeout", timeout_s, "Seconds to wait for any one reaction")
		->check(CLI::Range(0.1, 600.0))
		->capture_default_str();
	app.add_option("--flood-connects", flood_connects,
		       "Connects connect-flood makes (a debug kernel takes half a second each)")
		->check(CLI::Range(16u, 10000u))
		->capture_default_str();
	app.add_option("--key-file", key_file,
		       "The key the target holds for this host's id (auth-replay)")
		->type_name("FILE");
	app.add_option("scenarios", selected, "Scenarios to run, or \"all\"")
		->type_name("SCENARIO")
		->required()
		->check(CLI::IsMember(choices));

	try {
		app.parse(argc, argv);
	} catch (const CLI::ParseError &e) {
		return app.exit(e) == 0 ? 0 : 2;
	}

	Config cfg;
	try {
		cfg.endpoint = make_endpoint(target, port, source);
	} catch (const SetupError &e) {
		std::cerr << prog << ": " << e.what() << '\n';
		return 2;
	}
	cfg.export_name = export_name;
	cfg.ro_export = ro_export;
	cfg.timeout = std::chrono::milliseconds(static_cast<long>(timeout_s * 1000));
	cfg.flood_connects = flood_connects;
	if (key_file) {
		try {
			cfg.key = rdmablk::auth::read_key_file(*key_file);
		} catch (const std::exception &e) {
			std::cerr << prog << ": " << e.what() << '\n';
			return 2;
		}
	}

	std::vector<const Scenario *> run;
	for (const std::string &name : selected) {
		for (const Scenario &s : scenarios())
			if (name == "all" || name == s.name)
				run.push_back(&s);
		for (const Scenario &s : extra_scenarios())
			if (name == s.name)
				run.push_back(&s);
	}

	unsigned int passed = 0, failed = 0, skipped = 0;
	for (const Scenario *s : run) {
		const Verdict v = run_scenario(*s, cfg);
		switch (v.kind) {
		case Verdict::Kind::Pass:
			std::cout << "PASS " << s->name << ": observed " << v.text << std::endl;
			passed++;
			break;
		case Verdict::Kind::Fail:
			std::cout << "FAIL " << s->name << ": " << v.text << std::endl;
			failed++;
			break;
		case Verdict::Kind::Skip:
			std::cout << "SKIP " << s->name << ": " << v.text << std::endl;
			skipped++;
			break;
		}
	}
	std::cout << passed << " passed, " << failed << " failed, " << skipped << " skipped"
		  << std::endl;
	return failed ? 1 : 0;
}
