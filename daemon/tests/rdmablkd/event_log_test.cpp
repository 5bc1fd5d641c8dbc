// SPDX-License-Identifier: GPL-2.0
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <linux/rdmablk.h>

#include "kernel/event_log.hpp"

namespace rdmablk::daemon {
namespace {

nl::Device reconnecting_device()
{
	nl::Device d;
	d.index = 0;
	d.name = "rdmablk0";
	d.target = {"192.0.2.1", 7471};
	d.export_name = "db0";
	d.state = RDMABLK_DEV_RECONNECTING;
	d.reconnect_attempt = 3;
	d.reconnect_max = 60;
	d.last_error = "keep-alive timeout";
	return d;
}

TEST(EventLog, DeviceStateIsOneLineAndFields)
{
	nl::Event e;
	e.type = RDMABLK_EVENT_DEVICE_STATE;
	e.device = reconnecting_device();
	e.reason = "keep-alive timeout";
	const LogRecord r = event_record(e);
	EXPECT_EQ(r.message, "event device-state dev=rdmablk0 target=192.0.2.1:7471 export=db0 "
			     "state=reconnecting attempt=3/60 last_error=\"keep-alive timeout\" "
			     "reason=\"keep-alive timeout\"");
	EXPECT_EQ(r.priority, LOG_WARNING);
	EXPECT_EQ(r.fields, (std::vector<LogField>{
				    {"RDMABLK_EVENT", "device-state"},
				    {"RDMABLK_DEVICE", "rdmablk0"},
				    {"RDMABLK_TARGET", "192.0.2.1:7471"},
				    {"RDMABLK_EXPORT", "db0"},
				    {"RDMABLK_STATE", "reconnecting"},
				    {"RDMABLK_ATTEMPT", "3/60"},
				    {"RDMABLK_LAST_ERROR", "keep-alive timeout"},
				    {"RDMABLK_REASON", "keep-alive timeout"},
			    }));
}

TEST(EventLog, MonitorsGetTheLineAndEachWordAsAMember)
{
	nl::Event e;
	e.type = RDMABLK_EVENT_DEVICE_STATE;
	e.device = reconnecting_device();
	e.reason = "keep-alive timeout";
	EXPECT_EQ(event_json(e), (nlohmann::json{
					 {"type", "device-state"},
					 {"message", event_record(e).message},
					 {"dev", "rdmablk0"},
					 {"target", "192.0.2.1:7471"},
					 {"export", "db0"},
					 {"state", "reconnecting"},
					 {"attempt", "3/60"},
					 {"last_error", "keep-alive timeout"},
					 {"reason", "keep-alive timeout"},
				 }));
}

TEST(EventLog, PrioritiesFollowTheState)
{
	nl::Event e;
	e.type = RDMABLK_EVENT_DEVICE_STATE;
	e.device = reconnecting_device();
	e.device->state = RDMABLK_DEV_DEAD;
	EXPECT_EQ(event_record(e).priority, LOG_ERR);
	e.device->state = RDMABLK_DEV_LIVE;
	EXPECT_EQ(event_record(e).priority, LOG_NOTICE);
	e.type = RDMABLK_EVENT_DEVICE_ATTACHED;
	EXPECT_EQ(event_record(e).priority, LOG_INFO);
}

TEST(EventLog, UnlimitedAttemptsHaveNoMaximum)
{
	nl::Event e;
	e.type = RDMABLK_EVENT_DEVICE_STATE;
	e.device = reconnecting_device();
	e.device->reconnect_max = 0;
	e.device->last_error.reset();
	EXPECT_EQ(event_record(e).message, "event device-state dev=rdmablk0 target=192.0.2.1:7471 "
					   "export=db0 state=reconnecting attempt=3");
}

TEST(EventLog, ListenerAndExportEvents)
{
	nl::Event l;
	l.type = RDMABLK_EVENT_LISTENER_ADDED;
	l.listener = nl::Endpoint{"fe80::1%eth0", 7471};
	EXPECT_EQ(event_record(l).message, "event listener-added listener=[fe80::1%eth0]:7471");

	nl::Event x;
	x.type = RDMABLK_EVENT_EXPORT_REMOVED;
	x.export_ref = nl::ExportRef{"db0", nl::parse_uuid("00112233-4455-4677-8899-aabbccddeeff")};
	const LogRecord r = event_record(x);
	EXPECT_EQ(r.message, "event export-removed export=db0 uuid=00112233-4455-4677-8899-aabbccddeeff");
	EXPECT_EQ(r.fields.at(1), (LogField{"RDMABLK_EXPORT", "db0"}));
}

TEST(EventLog, ValuesAreQuotedWhenNeeded)
{
	EXPECT_EQ(quote_value("plain"), "plain");
	EXPECT_EQ(quote_value(""), "\"\"");
	EXPECT_EQ(quote_value("a \"b\"\\"), "\"a \\\"b\\\"\\\\\"");
	EXPECT_EQ(quote_value("x=y"), "\"x=y\"");
}

TEST(Log, StderrLinesSayWarningsAndErrors)
{
	EXPECT_EQ(stderr_line({LOG_INFO, "hello", {}}), "hello");
	EXPECT_EQ(stderr_line({LOG_WARNING, "careful", {}}), "warning: careful");
	EXPECT_EQ(stderr_line({LOG_ERR, "broken", {}}), "error: broken");
}

TEST(Log, JournalOnlyWhenStderrIsTheJournalStream)
{
	::setenv("JOURNAL_STREAM", "1:1", 1);
	EXPECT_FALSE(use_journal(false));
	EXPECT_TRUE(use_journal(true));
	struct stat st;
	ASSERT_EQ(::fstat(STDERR_FILENO, &st), 0);
	const std::string stream = std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino);
	::setenv("JOURNAL_STREAM", stream.c_str(), 1);
	EXPECT_TRUE(use_journal(false));
	::unsetenv("JOURNAL_STREAM");
	EXPECT_FALSE(use_journal(false));
}

} // namespace
} // namespace rdmablk::daemon
