// SPDX-License-Identifier: GPL-2.0
/*
 * Reconcile passes, retries and kernel events, against a MemoryKernel.
 */
#include <cerrno>

#include <linux/rdmablk.h>

#include "engine_fixture.hpp"

namespace rdmablk::daemon::test {
namespace {

using std::chrono::seconds;

Config target_and_initiator()
{
	Config c;
	c.daemon.check_interval = 0;
	c.listeners.push_back({{"192.0.2.1", 7471}});
	c.exports.push_back({"db0", "/dev/ram0", std::nullopt, false, {}, false});
	c.attachments.push_back({{"192.0.2.1", 7471}, "db0", 2, {}, {}, {}, {}, {}, {}, {}, {}});
	return c;
}

nl::Event device_event(std::uint32_t type, const nl::Device &dev)
{
	nl::Event e;
	e.type = type;
	e.device = dev;
	return e;
}

TEST_F(EngineTest, FirstPassSetsUpInOrderAndKeepsTheGeneratedUuid)
{
	configure(target_and_initiator());
	pass();
	EXPECT_EQ(kernel.changes(),
		  (std::vector<std::string>{"listen_add 192.0.2.1:7471", "export_add db0",
					    "attach 192.0.2.1:7471/db0"}));
	ASSERT_TRUE(config().exports[0].uuid);
	EXPECT_EQ(*config().exports[0].uuid, kernel.exports[0].uuid);
	ASSERT_FALSE(saved.empty());
	EXPECT_EQ(saved.back().exports[0].uuid, kernel.exports[0].uuid) << "written to the file";
	EXPECT_EQ(kernel.devices.at(0).nr_queues, 2u);
	EXPECT_EQ(logs_with("attaching 192.0.2.1:7471 db0: attached as /dev/rdmablk0").size(), 1u);
	EXPECT_EQ(engine.summary(), "1 devices (1 live), 1 exports, 1 listeners");
}

TEST_F(EngineTest, RestartAdoptsEverythingAndCreatesNothing)
{
	configure(target_and_initiator());
	pass();
	ASSERT_FALSE(saved.empty());
	kernel.requests.clear();

	/*
	 * A new daemon on the same kernel (after SIGKILL, say): nothing of the
	 * first engine survives but the kernel's state and the configuration
	 * file as the first one saved it.
	 */
	QueueExecutor exec2{kernel};
	std::vector<Config> saved2;
	std::vector<LogRecord> logged2;
	Logger log2([&](const LogRecord &r) { logged2.push_back(r); });
	DesiredState desired2(saved.back(), [&](const Config &c) { saved2.push_back(c); });
	Engine restarted(exec2, desired2, log2, options(), [this] { return clock; });
	restarted.request_pass();
	exec2.run();

	EXPECT_EQ(kernel.changes(), std::vector<std::string>{}) << "the restart created or removed";
	EXPECT_EQ(kernel.devices.size(), 1u);
	EXPECT_EQ(kernel.exports.size(), 1u);
	EXPECT_EQ(kernel.listeners.size(), 1u);
	EXPECT_EQ(restarted.summary(), "1 devices (1 live), 1 exports, 1 listeners")
		<< "the new daemon does not see what it adopted";
	ASSERT_EQ(restarted.devices().size(), 1u);
	EXPECT_EQ(restarted.devices()[0].name, kernel.devices[0].name);
	EXPECT_TRUE(saved2.empty()) << "the adopted state was written back: nothing changed";
}

TEST_F(EngineTest, ExportWithoutUuidAdoptsTheKernelsOnStart)
{
	kernel.export_add("db0", "/dev/ram0", test_hostid, false, {}, false);
	configure(target_and_initiator());
	pass();
	EXPECT_EQ(config().exports[0].uuid, test_hostid);
}

TEST_F(EngineTest, UnconfiguredKernelObjectsAreReportedOnce)
{
	kernel.add_device("192.0.2.7", "manual", RDMABLK_DEV_LIVE);
	pass();
	pass();
	EXPECT_EQ(logs_with("is not in the configuration").size(), 1u);
	EXPECT_EQ(kernel.devices.size(), 1u) << "left alone";
}

TEST_F(EngineTest, UnreachableTargetIsRetriedWithBackoffUntilItAnswers)
{
	Config c;
	c.daemon.retry_initial = 1;
	c.daemon.retry_max = 4;
	c.daemon.check_interval = 0;
	c.attachments.push_back({{"192.0.2.1", 7471}, "db0", {}, {}, {}, {}, {}, {}, {}, {}, {}});
	configure(c);
	kernel.failures["attach 192.0.2.1:7471/db0"] = {ECONNREFUSED, "connection refused"};

	const Time start = clock;
	pass();
	std::vector<long> waits;
	for (int i = 0; i < 5; i++) {
		const Time before = clock;
		wake();
		waits.push_back(std::chrono::duration_cast<seconds>(clock - before).count());
	}
	EXPECT_EQ(waits, (std::vector<long>{1, 2, 4, 4, 4}));
	EXPECT_EQ(kernel.changes().size(), 6u);

	const ctl::Response listed = call("list");
	EXPECT_EQ(listed.result["devices"][0]["state"], "pending");
	EXPECT_EQ(listed.result["devices"][0]["retry_in_ms"], 4000);
	EXPECT_NE(listed.result["devices"][0]["last_error"].get<std::string>().find(
			  "connection refused"),
		  std::string::npos);

	/* The target comes up. */
	kernel.failures.clear();
	wake();
	EXPECT_EQ(kernel.devices.size(), 1u);
	EXPECT_FALSE(engine.next_wakeup()) << "nothing left to retry";
	EXPECT_EQ(call("list").result["devices"][0]["state"], "live");
	EXPECT_GT(clock, start);
}

TEST_F(EngineTest, DeadDeviceIsToldToReconnectOnTheBackoffSchedule)
{
	Config c = target_and_initiator();
	c.daemon.retry_initial = 2;
	configure(c);
	pass();
	nl::Device &dev = kernel.devices.at(0);

	/* ctrl_loss_tmo expired: the kernel says the device gave up. */
	dev.state = RDMABLK_DEV_DEAD;
	kernel.requests.clear();
	engine.on_event(device_event(RDMABLK_EVENT_DEVICE_STATE, dev));
	exec.run();
	EXPECT_EQ(kernel.changes(), std::vector<std::string>{"reconnect 0"});
	ASSERT_EQ(logs_with("event device-state dev=rdmablk0").size(), 1u);

	/* It gives up again: the next reconnect waits retry_initial. */
	dev.state = RDMABLK_DEV_DEAD;
	kernel.requests.clear();
	engine.on_event(device_event(RDMABLK_EVENT_DEVICE_STATE, dev));
	exec.run();
	EXPECT_TRUE(kernel.changes().empty());
	EXPECT_EQ(engine.next_wakeup(), clock + seconds(2));
	wake();
	EXPECT_EQ(kernel.changes(), std::vector<std::string>{"reconnect 0"});

	/* Back: the backoff starts over. */
	dev.state = RDMABLK_DEV_LIVE;
	engine.on_event(device_event(RDMABLK_EVENT_DEVICE_STATE, dev));
	dev.state = RDMABLK_DEV_DEAD;
	kernel.requests.clear();
	engine.on_event(device_event(RDMABLK_EVENT_DEVICE_STATE, dev));
	exec.run();
	EXPECT_EQ(kernel.changes(), std::vector<std::string>{"reconnect 0"});
}

TEST_F(EngineTest, ADeviceDetachedBehindTheDaemonsBackIsAttachedAgain)
{
	configure(target_and_initiator());
	pass();
	const nl::Device dev = kernel.devices.at(0);
	kernel.devices.clear();
	kernel.requests.clear();
	engine.on_event(device_event(RDMABLK_EVENT_DEVICE_DETACHED, dev));
	exec.run();
	EXPECT_EQ(kernel.changes(), std::vector<std::string>{"attach 192.0.2.1:7471/db0"});
}

TEST_F(EngineTest, EventsOfUnconfiguredObjectsOnlyGetLogged)
{
	nl::Device &dev = kernel.add_device("192.0.2.7", "manual", RDMABLK_DEV_DEAD);
	dev.reconnect_attempt = 60;
	dev.reconnect_max = 60;
	nl::Event e = device_event(RDMABLK_EVENT_DEVICE_STATE, dev);
	e.reason = "ctrl_loss_tmo expired";
	engine.on_event(e);
	exec.run();
	EXPECT_TRUE(kernel.requests.empty());
	ASSERT_EQ(logged.size(), 1u);
	EXPECT_EQ(logged[0].message, "event device-state dev=rdmablk0 target=192.0.2.7:7471 "
				     "export=manual state=dead attempt=60/60 reason=\"ctrl_loss_tmo "
				     "expired\"");
	EXPECT_EQ(logged[0].priority, LOG_ERR);
}

TEST_F(EngineTest, PassesDoNotOverlap)
{
	configure(target_and_initiator());
	int passes = 0;
	engine.on_pass_done = [&](bool, bool) { passes++; };
	engine.request_pass();
	engine.request_pass();
	engine.request_pass();
	EXPECT_EQ(exec.queued(), 1u);
	exec.run();
	/* One more ran after the first, as asked while it was under way. */
	EXPECT_EQ(passes, 2);
	EXPECT_EQ(kernel.devices.size(), 1u);
}

TEST_F(EngineTest, ReloadAddsButNeverRemoves)
{
	configure(target_and_initiator());
	pass();
	const nl::Uuid uuid = *config().exports[0].uuid;

	Config edited;
	edited.daemon.check_interval = 0;
	edited.exports.push_back({"db0", "/dev/ram0", std::nullopt, false, {}, false});
	edited.attachments.push_back({{"192.0.2.1", 7471}, "db1", {}, {}, {}, {}, {}, {}, {}, {}, {}});
	kernel.requests.clear();
	file = edited;
	const ctl::Response r = call("reload");
	ASSERT_TRUE(r.ok) << r.error->message;
	EXPECT_EQ(r.result, (nlohmann::json{{"config", "/etc/rdmablk/rdmablk.conf"}}));
	EXPECT_EQ(kernel.changes(), std::vector<std::string>{"attach 192.0.2.1:7471/db1"});
	EXPECT_EQ(kernel.listeners.size(), 1u) << "removed from the file, kept in the kernel";
	EXPECT_EQ(kernel.devices.size(), 2u);
	EXPECT_EQ(config().exports[0].uuid, uuid) << "an export keeps its uuid";
}

TEST_F(EngineTest, LostKernelIsRetriedAndItsReturnReported)
{
	configure(target_and_initiator());
	std::vector<bool> answered;
	std::vector<bool> reconnected;
	engine.on_pass_done = [&](bool a, bool r) {
		answered.push_back(a);
		reconnected.push_back(r);
	};
	kernel.unloaded = true;
	pass();
	wake();
	EXPECT_EQ(logs_with("cannot reach rdmablk.ko").size(), 1u) << "said once";
	EXPECT_EQ(engine.summary().rfind("rdmablk.ko does not answer", 0), 0u);

	kernel.unloaded = false;
	kernel.generation_count++;
	wake();
	EXPECT_EQ(answered, (std::vector<bool>{false, false, true}));
	EXPECT_EQ(reconnected, (std::vector<bool>{false, false, true}));
	EXPECT_EQ(logs_with("rdmablk.ko answers again").size(), 1u);
	EXPECT_EQ(kernel.devices.size(), 1u);
}

TEST_F(EngineTest, PeriodicCheckFindsWhatEventsMissed)
{
	Config c = target_and_initiator();
	c.daemon.check_interval = 30;
	configure(c);
	pass();
	EXPECT_EQ(engine.next_wakeup(), clock + seconds(30));
	kernel.devices.clear(); /* no event */
	wake();
	EXPECT_EQ(kernel.devices.size(), 1u);
}

/*
 * The status summary follows the kernel's events between passes: a
 * listener and an export added (or removed) through rdmablkctl are counted
 * at once, not from the last pass's view.
 */
TEST_F(EngineTest, SummaryFollowsListenerAndExportEvents)
{
	pass();
	EXPECT_EQ(engine.summary(), "0 devices, 0 exports, 0 listeners");

	nl::Event listener;
	listener.type = RDMABLK_EVENT_LISTENER_ADDED;
	listener.listener = nl::Endpoint{"192.0.2.1", 7471};
	nl::Event exp;
	exp.type = RDMABLK_EVENT_EXPORT_ADDED;
	exp.export_ref = nl::ExportRef{"db0", {}};
	engine.on_event(listener);
	engine.on_event(exp);
	engine.on_event(exp); /* told twice: counted once */
	EXPECT_EQ(engine.summary(), "0 devices, 1 exports, 1 listeners");

	exp.type = RDMABLK_EVENT_EXPORT_REMOVED;
	engine.on_event(exp);
	listener.type = RDMABLK_EVENT_LISTENER_REMOVED;
	engine.on_event(listener);
	EXPECT_EQ(engine.summary(), "0 devices, 0 exports, 0 listeners");
}

} // namespace
} // namespace rdmablk::daemon::test
