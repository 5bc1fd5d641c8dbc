// SPDX-License-Identifier: GPL-2.0
#include <algorithm>

#include <gtest/gtest.h>

#include <syslog.h>

#include <linux/rdmablk.h>

#include "engine/reconcile.hpp"

namespace rdmablk::daemon {
namespace {

using std::chrono::seconds;

const Time now{seconds(1000)};
const nl::Uuid uuid1 = nl::parse_uuid("00112233-4455-4677-8899-aabbccddeeff");
const nl::Uuid host1 = nl::parse_uuid("0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0");

Config desired()
{
	Config c;
	c.listeners.push_back({{"192.0.2.1", 7471}});
	c.exports.push_back({"db0", "/dev/ram0", uuid1, false, {}, false});
	c.attachments.push_back({{"192.0.2.9", 7471}, "remote", 2, {}, {}, {}, {}, {}, {}, {}, {}});
	return c;
}

nl::Device device(std::uint32_t index, const std::string &addr, const std::string &name,
		  std::uint32_t state)
{
	nl::Device d;
	d.index = index;
	d.name = "rdmablk" + std::to_string(index);
	d.target = {addr, 7471};
	d.export_name = name;
	d.state = state;
	return d;
}

nl::Export kernel_export(const std::string &name, const std::string &path, const nl::Uuid &uuid)
{
	nl::Export e;
	e.name = name;
	e.path = path;
	e.uuid = uuid;
	return e;
}

/* The actions of @p as describe() puts them, in order. */
std::vector<std::string> described(const Plan &p)
{
	std::vector<std::string> out;
	for (const Action &a : p.actions)
		out.push_back(describe(a));
	return out;
}

TEST(Reconcile, EmptyKernelGetsEverythingListenersFirst)
{
	Config c = desired();
	c.attachments.push_back({{"192.0.2.8", 7471}, "second", {}, {}, {}, {}, {}, {}, {}, {}, {}});
	const Plan p = plan(c, {}, {}, now);
	EXPECT_EQ(described(p), (std::vector<std::string>{
					"adding listener 192.0.2.1:7471",
					"adding export db0 (/dev/ram0)",
					"attaching 192.0.2.9:7471 remote",
					"attaching 192.0.2.8:7471 second",
				}));
	EXPECT_TRUE(p.marks.empty());
	EXPECT_TRUE(p.notes.empty());
	ASSERT_TRUE(std::holds_alternative<Attach>(p.actions[2]));
	EXPECT_EQ(std::get<Attach>(p.actions[2]).attachment.queues, 2u);
}

TEST(Reconcile, HostKeysComeBeforeExportsAndAreSetOnlyWhenMissing)
{
	Config c = desired();
	c.hosts.push_back({host1, "/etc/rdmablk/keys/h1.key", std::nullopt});
	Plan p = plan(c, {}, {}, now);
	EXPECT_EQ(described(p), (std::vector<std::string>{
					"adding listener 192.0.2.1:7471",
					"setting the key of host " + nl::to_string(host1) +
						" (/etc/rdmablk/keys/h1.key)",
					"adding export db0 (/dev/ram0)",
					"attaching 192.0.2.9:7471 remote",
				}));

	Snapshot k;
	nl::Host have;
	have.hostid = host1;
	k.hosts.push_back(have);
	nl::Host stranger;
	stranger.hostid = uuid1;
	k.hosts.push_back(stranger);
	p = plan(c, k, {}, now);
	for (const Action &a : p.actions)
		EXPECT_FALSE(std::holds_alternative<SetHost>(a)) << describe(a);
	EXPECT_NE(std::find(p.marks.begin(), p.marks.end(),
			    BookMark{"host " + nl::to_string(host1), Mark::settled}),
		  p.marks.end());
	ASSERT_FALSE(p.notes.empty());
	EXPECT_EQ(p.notes[0].text, "the key of host " + nl::to_string(uuid1) +
					   " is not in the configuration; left alone");
}

TEST(Reconcile, AdoptsWhatTheKernelHasAndDuplicatesNothing)
{
	Snapshot k;
	/* The same address in another spelling is the same listener. */
	k.listeners.push_back({"192.0.2.1", 7471, RDMABLK_LISTENER_LISTENING});
	k.exports.push_back(kernel_export("db0", "/dev/ram0", uuid1));
	k.devices.push_back(device(0, "192.0.2.9", "remote", RDMABLK_DEV_LIVE));
	const Plan p = plan(desired(), k, {}, now);
	EXPECT_TRUE(p.actions.empty());
	EXPECT_TRUE(p.notes.empty());
	EXPECT_EQ(p.marks, (std::vector<BookMark>{{"listener 192.0.2.1:7471", Mark::settled},
						  {"export db0", Mark::settled},
						  {"attachment 192.0.2.9:7471 remote", Mark::settled}}));
}

TEST(Reconcile, Ipv6SpellingsMatch)
{
	Config c;
	c.listeners.push_back({{"2001:db8:0::1", 7471}});
	Snapshot k;
	k.listeners.push_back({"2001:db8::1", 7471, RDMABLK_LISTENER_LISTENING});
	EXPECT_TRUE(plan(c, k, {}, now).actions.empty());
}

TEST(Reconcile, ReportsUnconfiguredObjectsAndLeavesThemAlone)
{
	Snapshot k;
	k.listeners.push_back({"192.0.2.1", 7471, RDMABLK_LISTENER_LISTENING});
	k.listeners.push_back({"198.51.100.1", 7471, RDMABLK_LISTENER_LISTENING});
	k.exports.push_back(kernel_export("db0", "/dev/ram0", uuid1));
	k.exports.push_back(kernel_export("other", "/dev/ram1", host1));
	k.devices.push_back(device(0, "192.0.2.9", "remote", RDMABLK_DEV_LIVE));
	k.devices.push_back(device(5, "192.0.2.7", "manual", RDMABLK_DEV_DEAD));
	const Plan p = plan(desired(), k, {}, now);
	EXPECT_TRUE(p.actions.empty()) << "a dead device not in the configuration is not touched";
	EXPECT_EQ(p.notes,
		  (std::vector<Note>{
			  {LOG_NOTICE, "listener 198.51.100.1:7471 is not in the configuration; left alone"},
			  {LOG_NOTICE, "export other (/dev/ram1) is not in the configuration; left alone"},
			  {LOG_NOTICE, "rdmablk5 (192.0.2.7:7471 manual) is not in the configuration; "
				       "left alone"},
		  }));
}

TEST(Reconcile, AnExportWithOtherSettingsIsReportedNotReplaced)
{
	Config c = desired();
	c.exports[0].read_only = true;
	c.exports[0].allow = {host1};
	Snapshot k;
	k.exports.push_back(kernel_export("db0", "/dev/ram1", uuid1));
	const Plan p = plan(c, k, {}, now);
	for (const Action &a : p.actions)
		EXPECT_FALSE(std::holds_alternative<AddExport>(a));
	ASSERT_EQ(p.notes.size(), 1u);
	EXPECT_EQ(p.notes[0].priority, LOG_WARNING);
	EXPECT_EQ(p.notes[0].text,
		  "export db0 in the kernel differs from the configuration (path /dev/ram1, "
		  "configured /dev/ram0; read-write, configured read-only; another allow list); "
		  "left alone: remove and add it with rdmablkctl to change it");
}

TEST(Reconcile, ExportWithoutUuidAdoptsTheKernels)
{
	Config c = desired();
	c.exports[0].uuid.reset();
	Snapshot k;
	k.exports.push_back(kernel_export("db0", "/dev/ram0", host1));
	const Plan p = plan(c, k, {}, now);
	EXPECT_EQ(p.uuids, (std::vector<AdoptedUuid>{{"db0", host1}}));
	EXPECT_TRUE(p.notes.empty());
}

TEST(Reconcile, PendingAttachmentsWaitForTheirRetry)
{
	RetryBook book;
	const Backoff b{seconds(4), seconds(60)};
	book.failed("attachment 192.0.2.9:7471 remote", "unreachable", now, b);
	book.failed("listener 192.0.2.1:7471", "no such address", now, b);

	Plan p = plan(desired(), {}, book, now + seconds(3));
	EXPECT_EQ(described(p), std::vector<std::string>{"adding export db0 (/dev/ram0)"});

	p = plan(desired(), {}, book, now + seconds(4));
	EXPECT_EQ(described(p), (std::vector<std::string>{"adding listener 192.0.2.1:7471",
							  "adding export db0 (/dev/ram0)",
							  "attaching 192.0.2.9:7471 remote"}));
}

TEST(Reconcile, DeadDevicesAreToldToReconnectOnTheBackoffSchedule)
{
	const std::string key = "attachment 192.0.2.9:7471 remote";
	Snapshot k;
	k.listeners.push_back({"192.0.2.1", 7471, RDMABLK_LISTENER_LISTENING});
	k.exports.push_back(kernel_export("db0", "/dev/ram0", uuid1));
	k.devices.push_back(device(3, "192.0.2.9", "remote", RDMABLK_DEV_DEAD));

	/* First seen dead: reconnect now. */
	RetryBook book;
	Plan p = plan(desired(), k, book, now);
	ASSERT_EQ(p.actions.size(), 1u);
	ASSERT_TRUE(std::holds_alternative<Reconnect>(p.actions[0]));
	EXPECT_EQ(std::get<Reconnect>(p.actions[0]).index, 3u);
	EXPECT_EQ(key_of(p.actions[0]), key);

	/* Told; dead again later: wait first. */
	book.tried(key);
	p = plan(desired(), k, book, now);
	EXPECT_TRUE(p.actions.empty());
	EXPECT_EQ(p.marks.back(), (BookMark{key, Mark::again}));

	/* The wait is over: reconnect again. */
	book.schedule(key, now, Backoff{seconds(1), seconds(60)});
	EXPECT_TRUE(plan(desired(), k, book, now).actions.empty());
	p = plan(desired(), k, book, now + seconds(1));
	ASSERT_EQ(p.actions.size(), 1u);
	EXPECT_TRUE(std::holds_alternative<Reconnect>(p.actions[0]));
}

/* The plan for desired()'s attachment alone, the kernel holding @dev only. */
Plan plan_with_device(const nl::Device &dev)
{
	Snapshot k;
	k.devices.push_back(dev);
	Config c;
	c.attachments = desired().attachments;
	return plan(c, k, {}, now);
}

TEST(Reconcile, ReconnectingDevicesAreLeftToTheKernel)
{
	const Plan p = plan_with_device(device(3, "192.0.2.9", "remote", RDMABLK_DEV_RECONNECTING));
	EXPECT_TRUE(p.actions.empty());
	EXPECT_EQ(p.marks,
		  (std::vector<BookMark>{{"attachment 192.0.2.9:7471 remote", Mark::held}}));
}

TEST(Reconcile, SamePortDifferentExportIsAnotherAttachment)
{
	const Plan p = plan_with_device(device(0, "192.0.2.9", "other", RDMABLK_DEV_LIVE));
	EXPECT_EQ(described(p), std::vector<std::string>{"attaching 192.0.2.9:7471 remote"});
}

/* desired()'s device with paths to @addrs, the first its target, the last @standby. */
nl::Device multipath_device(std::vector<std::string> addrs, bool standby = false)
{
	nl::Device d = device(3, addrs.front(), "remote", RDMABLK_DEV_LIVE);
	d.mp_policy = RDMABLK_MP_QUEUE_DEPTH;
	for (std::uint32_t i = 0; i < addrs.size(); i++) {
		nl::PathInfo p;
		p.id = i;
		p.target = {addrs[i], 7471};
		p.state = RDMABLK_DEV_LIVE;
		p.standby = standby && i + 1 == addrs.size();
		d.paths.push_back(p);
	}
	return d;
}

/* desired()'s attachment with paths @paths, the last standby when @standby. */
Config with_paths(std::vector<nl::Endpoint> paths, bool standby = false)
{
	Config c;
	c.attachments = desired().attachments;
	c.attachments[0].paths = paths;
	if (standby)
		c.attachments[0].standby = {paths.back()};
	return c;
}

TEST(Reconcile, ConfiguredPathsTheDeviceLacksAreAdded)
{
	Snapshot k;
	k.devices.push_back(multipath_device({"192.0.2.9"}));
	const Config c = with_paths({{"198.51.100.7", 4420}, {"203.0.113.5", 7471}}, true);
	const Plan p = plan(c, k, {}, now);
	EXPECT_EQ(described(p),
		  (std::vector<std::string>{
			  "adding path 198.51.100.7:4420 to rdmablk3 (192.0.2.9:7471 remote)",
			  "adding path 203.0.113.5:7471 (standby) to rdmablk3 (192.0.2.9:7471 "
			  "remote)"}));
	EXPECT_EQ(key_of(p.actions[0]),
		  "attachment 192.0.2.9:7471 remote path 198.51.100.7:4420");
	const AddPath &add = std::get<AddPath>(p.actions[1]);
	EXPECT_EQ(add.index, 3u);
	EXPECT_TRUE(add.standby);
	/* The device's own path is settled. */
	EXPECT_NE(std::find(p.marks.begin(), p.marks.end(),
			    BookMark{"attachment 192.0.2.9:7471 remote path 192.0.2.9:7471",
				     Mark::settled}),
		  p.marks.end());
}

TEST(Reconcile, APathThatFailedWaitsForItsRetry)
{
	Snapshot k;
	k.devices.push_back(multipath_device({"192.0.2.9"}));
	RetryBook book;
	book.failed("attachment 192.0.2.9:7471 remote path 198.51.100.7:7471", "unreachable", now,
		    Backoff{seconds(4), seconds(60)});
	const Config c = with_paths({{"198.51.100.7", 7471}});
	EXPECT_TRUE(plan(c, k, book, now + seconds(3)).actions.empty());
	EXPECT_EQ(plan(c, k, book, now + seconds(4)).actions.size(), 1u);
}

TEST(Reconcile, PathsTheConfigurationLacksAreLeftAlone)
{
	Snapshot k;
	k.devices.push_back(multipath_device({"192.0.2.9", "198.51.100.7", "203.0.113.5"}));
	const Config c = with_paths({{"198.51.100.7", 7471}});
	const Plan p = plan(c, k, {}, now);
	EXPECT_TRUE(p.actions.empty());
	EXPECT_TRUE(std::none_of(p.notes.begin(), p.notes.end(), [](const Note &n) {
		return n.text.find("not in the configuration") != std::string::npos;
	}));
}

TEST(Reconcile, ADeviceWhoseFirstPathWentIsStillTheAttachments)
{
	/* 192.0.2.9 was removed: the device's target is its other path now. */
	Snapshot k;
	k.devices.push_back(multipath_device({"198.51.100.7"}));
	const Config c = with_paths({{"198.51.100.7", 7471}});
	ASSERT_EQ(find_device(k.devices, c.attachments[0]), &k.devices[0]);
	EXPECT_EQ(find_attachment_of(c, k.devices[0]), &c.attachments[0]);
	/* Not attached again: the configured path is given back to it. */
	EXPECT_EQ(described(plan(c, k, {}, now)),
		  std::vector<std::string>{
			  "adding path 192.0.2.9:7471 to rdmablk3 (192.0.2.9:7471 remote)"});
}

TEST(Reconcile, StandbyMarksAndPolicyAreSetWhenTheyDiffer)
{
	Snapshot k;
	k.devices.push_back(multipath_device({"192.0.2.9", "198.51.100.7"}, true));
	Config c = with_paths({{"198.51.100.7", 7471}});
	c.attachments[0].standby = {{"192.0.2.9", 7471}};
	c.attachments[0].policy = RDMABLK_MP_ROUND_ROBIN;
	const Plan p = plan(c, k, {}, now);
	EXPECT_EQ(described(p),
		  (std::vector<std::string>{
			  "marking path 192.0.2.9:7471 of rdmablk3 standby",
			  "marking path 198.51.100.7:7471 of rdmablk3 active",
			  "setting the path policy of rdmablk3 to round-robin"}));
	EXPECT_EQ(key_of(p.actions[2]), "attachment 192.0.2.9:7471 remote policy");

	/* As configured: nothing to do. */
	c.attachments[0].standby = {{"198.51.100.7", 7471}};
	c.attachments[0].policy = RDMABLK_MP_QUEUE_DEPTH;
	EXPECT_TRUE(plan(c, k, {}, now).actions.empty());
}

TEST(Reconcile, AModuleWithoutMultipathIsAskedNoPaths)
{
	Snapshot k;
	k.devices.push_back(device(3, "192.0.2.9", "remote", RDMABLK_DEV_LIVE));
	Config c = with_paths({{"198.51.100.7", 7471}});
	c.attachments[0].policy = RDMABLK_MP_ROUND_ROBIN;
	EXPECT_TRUE(plan(c, k, {}, now).actions.empty());
}

TEST(ExportDifference, NamesEachDifference)
{
	ExportConfig want{"db0", "/dev/ram0", uuid1, false, {host1}};
	nl::Export have = kernel_export("db0", "/dev/ram0", uuid1);
	have.allowed_hosts = {host1};
	EXPECT_EQ(export_difference(want, have), "");
	have.uuid = host1;
	EXPECT_EQ(export_difference(want, have),
		  "uuid 0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0, configured "
		  "00112233-4455-4677-8899-aabbccddeeff");
	want.uuid.reset();
	EXPECT_EQ(export_difference(want, have), "") << "no configured uuid: any uuid will do";
}

} // namespace
} // namespace rdmablk::daemon
