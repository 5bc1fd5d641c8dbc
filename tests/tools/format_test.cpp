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
				      "1073741824 512 4096 rw 4");
	exp.read_only = true;
	exp.nr_connections = 0;
	EXPECT_EQ(format_export(exp), "disk0 /dev/nullb0 00112233-4455-4677-8899-aabbccddeeff "
				      "1073741824 512 4096 ro 0");
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
				       "port=4420 name=disk0 state=deleting");
}

TEST(Format, EventWithoutObject)
{
	EXPECT_EQ(format_event(event_of(RDMABLK_EVENT_MAX + 1)),
		  "event=unknown-" + std::to_string(RDMABLK_EVENT_MAX + 1));
}

} // namespace
} // namespace rdmablk::tool
