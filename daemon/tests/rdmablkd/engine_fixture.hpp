// SPDX-License-Identifier: GPL-2.0
/*
 * An Engine on a MemoryKernel, with a clock the test moves, the saved
 * configurations and the log kept for inspection.
 */
#pragma once

#include <gtest/gtest.h>

#include "engine/engine.hpp"
#include "memory_kernel.hpp"

namespace rdmablk::daemon::test {

inline const nl::Uuid test_hostid = nl::parse_uuid("0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0");

// The attach request most engine tests start from: export db0 at 192.0.2.1.
inline const nlohmann::json attach_db0 = {{"address", "192.0.2.1"}, {"export", "db0"}};

class EngineTest : public ::testing::Test {
protected:
	EngineTest()
		: log_([this](const LogRecord &r) { logged.push_back(r); }),
		  desired_(
			  Config{},
			  [this](const Config &c) {
				  check_file();
				  if (save_fails)
					  throw std::runtime_error("disk full");
				  saved.push_back(c);
				  file = c;
			  },
			  [this] { check_file(); }),
		  engine(exec, desired_, log_, options(), [this] { return clock; })
	{
	}

	/* Send @cmd with @args and run the jobs it needs; its response. */
	ctl::Response call(const std::string &cmd, nlohmann::json args = nlohmann::json::object())
	{
		std::optional<ctl::Response> got;
		engine.handle({cmd, std::move(args)}, [&](ctl::Response r) {
			EXPECT_FALSE(got) << "answered twice";
			got = std::move(r);
		});
		exec.run();
		EXPECT_TRUE(got) << cmd << " was not answered";
		return got.value_or(ctl::Response{});
	}

	/* The array @key of the result of @cmd, which must succeed. */
	nlohmann::json listed(const std::string &cmd, const std::string &key)
	{
		const ctl::Response r = call(cmd);
		EXPECT_TRUE(r.ok) << cmd;
		return r.result.value(key, nlohmann::json::array());
	}

	/* Start from @config, as if read from the file. */
	void configure(Config config) { desired_.replace(std::move(config)); }
	Config config() const { return desired_.get(); }

	void pass()
	{
		engine.request_pass();
		exec.run();
	}

	/*
	 * The kernel failing no more: nothing is tried again before the
	 * first retry is due (1 s), then @change is.
	 */
	void retried_once_due(const std::string &change)
	{
		kernel.failures.clear();
		kernel.requests.clear();
		pass();
		EXPECT_TRUE(kernel.changes().empty()) << "not before its retry is due";
		clock += std::chrono::seconds(1);
		pass();
		EXPECT_EQ(kernel.changes(), std::vector<std::string>{change});
	}

	/* Move the clock to the next wakeup and let the engine act. */
	void wake()
	{
		const std::optional<Time> next = engine.next_wakeup();
		ASSERT_TRUE(next) << "nothing scheduled";
		clock = std::max(clock, *next);
		engine.on_timer();
		exec.run();
	}

	/* Every logged message containing @text. */
	std::vector<std::string> logs_with(const std::string &text) const
	{
		std::vector<std::string> out;
		for (const LogRecord &r : logged)
			if (r.message.find(text) != std::string::npos)
				out.push_back(r.message);
		return out;
	}

	/* "discover" asks the network here: the targets asked for, and what each gets. */
	EngineOptions options()
	{
		EngineOptions o{test_hostid, "/etc/rdmablk/rdmablk.conf", "", "0.1.0", {}, {}, {}, {}};
		o.discover = [this](const nl::Endpoint &target, const nl::Uuid &hostid, KeyPair keys,
				    std::function<void(ctl::Response)> reply) {
			discovered.push_back(target);
			discovered_keys.push_back({keys.key.has_value(), keys.target_key.has_value()});
			EXPECT_EQ(hostid, test_hostid);
			reply(discover_answer);
		};
		o.discoveries_changed = [this](const std::vector<DiscoveryConfig> &d) {
			told_discoveries.push_back(d);
		};
		o.discovery_status = [] { return nlohmann::json{{"discoveries", nlohmann::json::array()}}; };
		o.load_config = [this] {
			if (file_error)
				throw ConfigError(*file_error);
			file_edited = false;
			return file.value_or(Config{});
		};
		return o;
	}

	/* What the discovery sessions were told to be, each time. */
	std::vector<std::vector<DiscoveryConfig>> told_discoveries;

	std::vector<nl::Endpoint> discovered;
	/* Per discover: whether it had a host key, and a target key. */
	std::vector<std::pair<bool, bool>> discovered_keys;
	ctl::Response discover_answer = ctl::ok(nlohmann::json::object());

	MemoryKernel kernel;
	QueueExecutor exec{kernel};
	std::vector<LogRecord> logged;
	std::vector<Config> saved;
	bool save_fails = false;
	/* The configuration file: what was saved last, or what the test put there. */
	std::optional<Config> file;
	/* Set: the file was edited by hand since it was read (ConfigStore refuses to save). */
	bool file_edited = false;
	/* Set: reading the file fails with this ConfigError. */
	std::optional<std::string> file_error;
	Time clock{std::chrono::seconds(1000)};

private:
	void check_file() const
	{
		if (file_edited)
			throw ConfigChanged("rdmablk.conf was changed since rdmablkd last read it");
	}

	Logger log_;
	DesiredState desired_;

protected:
	Engine engine;
};

} // namespace rdmablk::daemon::test
