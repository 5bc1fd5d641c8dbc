// SPDX-License-Identifier: GPL-2.0
#include <gtest/gtest.h>

#include <linux/rdmablk.h>

#include "fake_kernel.hpp"
#include "format.hpp"

namespace rdmablk::tool {
namespace {

nl::Event event_of(std::uint32_t type)
{
	nl::Event event;
	event.type = type;
	return event;
}

TEST(Format, Listener)
{
	EXPECT_EQ(format_listener({"192.0.2.1", 7471, RDMABLK_LISTENER_LISTENING}),
		  "192.0.2.1 7471 listening");
}

TEST(Format, Export)
{
	nl::Export exp = nl::test::example_export();
	EXPECT_EQ(format_export(exp), "disk0 /dev/nullb0 00112233-4455-4677-8899-aabbccddeeff "
				      "1073741824 512 4096 rw 4 - open");
	exp.read_only = true;
	exp.nr_connections = 0;
	exp.allowed_hosts = {nl::test::example_hostid()};
	EXPECT_EQ(format_export(exp), "disk0 /dev/nullb0 00112233-4455-4677-8899-aabbccddeeff "
				      "1073741824 512 4096 ro 0 "
				      "0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0 open");
	exp.allowed_hosts.push_back(nl::test::example_uuid());
	EXPECT_EQ(format_export(exp), "disk0 /dev/nullb0 00112233-4455-4677-8899-aabbccddeeff "
				      "1073741824 512 4096 ro 0 "
				      "0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0,"
				      "00112233-4455-4677-8899-aabbccddeeff open");
	exp.auth_required = true;
	EXPECT_TRUE(format_export(exp).ends_with(" auth")) << format_export(exp);
}

TEST(Format, Device)
{
	nl::Device dev = nl::test::example_device();
	EXPECT_EQ(format_device(dev), "rdmablk3 192.0.2.1 7471 disk0 "
				      "00112233-4455-4677-8899-aabbccddeeff 1073741824 512 4096 rw "
				      "4 128 live");
	dev.target = {"fe80::1%eth0", 4420};
	dev.read_only = true;
	dev.state = RDMABLK_DEV_DEAD;
	EXPECT_EQ(format_device(dev), "rdmablk3 fe80::1%eth0 4420 disk0 "
				      "00112233-4455-4677-8899-aabbccddeeff 1073741824 512 4096 ro "
				      "4 128 dead");
	dev.state = RDMABLK_DEV_RECONNECTING;
	dev.last_error = "keep-alive timeout";
	EXPECT_EQ(format_device(dev), "rdmablk3 fe80::1%eth0 4420 disk0 "
				      "00112233-4455-4677-8899-aabbccddeeff 1073741824 512 4096 ro "
				      "4 128 reconnecting");
}

TEST(Format, DeviceLineIgnoresPaths)
{
	/* Scripts count dev-list lines as devices and match "STATE$": one line a device. */
	EXPECT_EQ(format_device(nl::test::example_multipath_device()),
		  format_device(nl::test::example_device()));
}

TEST(Format, DeviceDetails)
{
	nl::Device dev = nl::test::example_device();
	dev.queues.resize(2);
	dev.queues[1].state = RDMABLK_QUEUE_DOWN;
	EXPECT_EQ(format_device_details(dev), "dev=rdmablk3\n"
					      "addr=192.0.2.1\n"
					      "port=7471\n"
					      "name=disk0\n"
					      "uuid=00112233-4455-4677-8899-aabbccddeeff\n"
					      "size=1073741824\n"
					      "state=live\n"
					      "queues=4\n"
					      "poll_queues=1\n"
					      "queue_depth=128\n"
					      "auth=none\n"
					      "policy=\n"
					      "reconnect_delay=10\n"
					      "ctrl_loss_tmo=600\n"
					      "fast_io_fail_tmo=-1\n"
					      "keepalive_tmo=5\n"
					      "reconnect_attempt=0\n"
					      "reconnect_max=60\n"
					      "next_attempt_ms=0\n"
					      "last_error=\n"
					      "queue=0 state=live commands=1000 errors=0\n"
					      "queue=1 state=down commands=2000 errors=1");

	dev.state = RDMABLK_DEV_DEAD;
	dev.last_error = "connection refused";
	dev.queues.clear();
	const std::string details = format_device_details(dev);
	EXPECT_NE(details.find("\nstate=dead\n"), std::string::npos);
	EXPECT_TRUE(details.ends_with("\nlast_error=connection refused")) << details;
}

TEST(Format, DeviceDetailsWithPaths)
{
	nl::Device dev = nl::test::example_multipath_device();
	dev.queues.clear();
	const std::string details = format_device_details(dev);
	EXPECT_NE(details.find("\nauth=none\npolicy=round-robin\n"), std::string::npos) << details;
	EXPECT_TRUE(details.ends_with(
		"\nlast_error=\n"
		"path=0 addr=192.0.2.1 port=7471 state=live mode=active inflight=12 "
		"commands=3000 completed=2988 errors=1 requeued=4 failovers=0 reconnects=2\n"
		"path=1 addr=198.51.100.7 port=4420 state=reconnecting mode=standby inflight=0 "
		"commands=1099511627776 completed=1099511627767 errors=0 requeued=9 failovers=3 "
		"reconnects=0 last_error=\"keep-alive timeout\""))
		<< details;

	dev.mp_policy = RDMABLK_MP_QUEUE_DEPTH;
	dev.paths.resize(1);
	dev.paths[0].target = {"fe80::1%eth0", 4420};
	dev.paths[0].state = RDMABLK_DEV_DEAD;
	dev.paths[0].standby = true;
	dev.paths[0].last_error = "refused";
	const std::string one = format_device_details(dev);
	EXPECT_NE(one.find("\npolicy=queue-depth\n"), std::string::npos) << one;
	EXPECT_TRUE(one.ends_with("\npath=0 addr=fe80::1%eth0 port=4420 state=dead mode=standby "
				  "inflight=12 commands=3000 completed=2988 errors=1 requeued=4 "
				  "failovers=0 reconnects=2 last_error=refused"))
		<< one;
}

TEST(Format, DeviceDetailsListQueuesBeforePaths)
{
	nl::Device dev = nl::test::example_multipath_device();
	dev.queues.resize(1);
	const std::string details = format_device_details(dev);
	EXPECT_NE(details.find("\nqueue=0 state=live commands=1000 errors=0\npath=0 "),
		  std::string::npos)
		<< details;
}

TEST(Format, Quoted)
{
	EXPECT_EQ(quoted("timeout"), "timeout");
	EXPECT_EQ(quoted("keep-alive timeout"), "\"keep-alive timeout\"");
	EXPECT_EQ(quoted(""), "\"\"");
	EXPECT_EQ(quoted("say \"no\"\\"), "\"say \\\"no\\\"\\\\\"");
}

TEST(Format, ListenerEvent)
{
	nl::Event event = event_of(RDMABLK_EVENT_LISTENER_ADDED);
	event.listener = nl::Endpoint{"192.0.2.1", 7471};
	EXPECT_EQ(format_event(event), "event=listener-added addr=192.0.2.1 port=7471");
}

TEST(Format, ExportEvent)
{
	nl::Event event = event_of(RDMABLK_EVENT_EXPORT_ADDED);
	event.export_ref = nl::ExportRef{"disk0", nl::test::example_uuid()};
	EXPECT_EQ(format_event(event),
		  "event=export-added name=disk0 uuid=00112233-4455-4677-8899-aabbccddeeff");
	event.type = RDMABLK_EVENT_EXPORT_REMOVED;
	EXPECT_EQ(format_event(event),
		  "event=export-removed name=disk0 uuid=00112233-4455-4677-8899-aabbccddeeff");
}

TEST(Format, DeviceEvent)
{
	nl::Event event = event_of(RDMABLK_EVENT_DEVICE_ATTACHED);
	event.device = nl::test::example_device();
	EXPECT_EQ(format_event(event), "event=device-attached dev=rdmablk3 addr=192.0.2.1 "
				       "port=7471 name=disk0 state=live");
	event.type = RDMABLK_EVENT_DEVICE_STATE;
	event.device->target = {"fe80::1%eth0", 4420};
	event.device->state = RDMABLK_DEV_DELETING;
	EXPECT_EQ(format_event(event), "event=device-state dev=rdmablk3 addr=fe80::1%eth0 "
				       "port=4420 name=disk0 state=deleting attempt=0 max=60");
}

TEST(Format, DeviceEventReasonAndAttempts)
{
	nl::Event event = event_of(RDMABLK_EVENT_DEVICE_STATE);
	event.device = nl::test::example_device();
	event.device->state = RDMABLK_DEV_RECONNECTING;
	event.device->reconnect_attempt = 3;
	event.device->reconnect_max = 0;
	event.reason = "keep-alive timeout";
	EXPECT_EQ(format_event(event), "event=device-state dev=rdmablk3 addr=192.0.2.1 port=7471 "
				       "name=disk0 state=reconnecting attempt=3 max=0 "
				       "reason=\"keep-alive timeout\"");

	event.type = RDMABLK_EVENT_DEVICE_RESIZED;
	event.reason = "resized";
	EXPECT_EQ(format_event(event), "event=device-resized dev=rdmablk3 addr=192.0.2.1 "
				       "port=7471 name=disk0 state=reconnecting reason=resized");
	event.reason.reset();
	EXPECT_EQ(format_event(event), "event=device-resized dev=rdmablk3 addr=192.0.2.1 "
				       "port=7471 name=disk0 state=reconnecting");
}

TEST(Format, PathEvent)
{
	nl::Event event = event_of(RDMABLK_EVENT_PATH_FAILOVER);
	event.device = nl::test::example_multipath_device();
	event.path_id = 1;
	event.reason = "keep-alive timeout";
	EXPECT_EQ(format_event(event), "event=path-failover dev=rdmablk3 addr=192.0.2.1 "
				       "port=7471 name=disk0 state=live path=1 "
				       "reason=\"keep-alive timeout\"");
	event.type = RDMABLK_EVENT_PATH_ADDED;
	event.path_id = 0;
	event.reason.reset();
	EXPECT_EQ(format_event(event), "event=path-added dev=rdmablk3 addr=192.0.2.1 "
				       "port=7471 name=disk0 state=live path=0");
}

TEST(Format, EventWithoutObject)
{
	EXPECT_EQ(format_event(event_of(RDMABLK_EVENT_MAX + 1)),
		  "event=unknown-" + std::to_string(RDMABLK_EVENT_MAX + 1));
}

} // namespace
} // namespace rdmablk::tool
