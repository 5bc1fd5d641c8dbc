// SPDX-License-Identifier: GPL-2.0
#include <gtest/gtest.h>

#include "discovery/autoconnect_policy.hpp"

namespace rdmablk::daemon {
namespace {

using std::chrono::seconds;

proto::DiscEntry entry(const std::string &name, std::uint8_t id)
{
	proto::DiscEntry e;
	e.name = name;
	e.uuid.fill(id);
	return e;
}

nl::Uuid uuid(std::uint8_t id)
{
	nl::Uuid u;
	u.bytes.fill(id);
	return u;
}

DiscoveryConfig all_of(const std::string &addr)
{
	DiscoveryConfig d;
	d.target = {addr, 7471};
	return d;
}

proto::DiscLog list(std::vector<proto::DiscEntry> entries, std::uint64_t generation = 1)
{
	return {generation, std::move(entries)};
}

nl::Device device(const std::string &addr, const std::string &name, std::uint8_t id)
{
	nl::Device d;
	d.index = 0;
	d.name = "rdmablk0";
	d.target = {addr, 7471};
	d.export_name = name;
	d.uuid = uuid(id);
	return d;
}

std::vector<std::string> names(const std::vector<AutoAttachment> &wanted)
{
	std::vector<std::string> out;
	for (const AutoAttachment &w : wanted)
		out.push_back(w.attachment.export_name);
	return out;
}

TEST(Autoconnect, AllAttachesEveryExportWithTheEntrysSettings)
{
	DiscoveryConfig d = all_of("192.0.2.1");
	d.settings.queues = 2;
	d.settings.ctrl_loss_tmo = -1;
	const AutoDecision out =
		decide_autoconnect(d, list({entry("e1", 1), entry("e2", 2)}), {}, {}, {}, {});
	EXPECT_EQ(names(out.wanted), (std::vector<std::string>{"e1", "e2"}));
	EXPECT_EQ(out.wanted[0].attachment.target, (nl::Endpoint{"192.0.2.1", 7471}));
	EXPECT_EQ(out.wanted[0].attachment.queues, 2u);
	EXPECT_EQ(out.wanted[0].attachment.ctrl_loss_tmo, -1);
	EXPECT_EQ(out.wanted[1].uuid, uuid(2));
	EXPECT_TRUE(out.gone.empty());
	EXPECT_TRUE(out.elsewhere.empty());
}

TEST(Autoconnect, AListMatchesByNameOrUuid)
{
	DiscoveryConfig d = all_of("192.0.2.1");
	d.attach_all = false;
	d.attach = {"e1", nl::to_string(uuid(3))};
	const AutoDecision out = decide_autoconnect(
		d, list({entry("e1", 1), entry("e2", 2), entry("e3", 3)}), {}, {}, {}, {});
	EXPECT_EQ(names(out.wanted), (std::vector<std::string>{"e1", "e3"}));
	EXPECT_EQ(out.matched.size(), 2u);
}

TEST(Autoconnect, AnAttachedDeviceOfTheSameTargetAndExportIsStillWanted)
{
	/* Wanted, so that reconcile adopts it (and reconnects it); never attached twice. */
	const AutoDecision out =
		decide_autoconnect(all_of("192.0.2.1"), list({entry("e1", 1)}), {}, {},
				   {device("192.0.2.1", "e1", 1)}, {});
	EXPECT_EQ(names(out.wanted), (std::vector<std::string>{"e1"}));
}

TEST(Autoconnect, TheSameUuidThroughAnotherAddressIsNotAttachedTwice)
{
	/* Two addresses of one target: the first to read wants e1, the second not. */
	const DiscoveryConfig a = all_of("192.0.2.1");
	const DiscoveryConfig b = all_of("198.51.100.1");
	const AutoDecision first = decide_autoconnect(a, list({entry("e1", 1)}), {}, {}, {}, {});
	ASSERT_EQ(first.wanted.size(), 1u);
	const AutoDecision second =
		decide_autoconnect(b, list({entry("e1", 1)}), {}, first.wanted, {}, {});
	EXPECT_TRUE(second.wanted.empty());
	ASSERT_EQ(second.elsewhere.size(), 1u);
	EXPECT_EQ(second.elsewhere[0].second, "discovery of 192.0.2.1:7471 (export e1)");
	EXPECT_EQ(second.matched.size(), 1u);

	/* After a restart only the kernel's device tells: matched by UUID. */
	const AutoDecision restarted = decide_autoconnect(b, list({entry("e1", 1)}), {}, {},
							  {device("192.0.2.1", "e1", 1)}, {});
	EXPECT_TRUE(restarted.wanted.empty());
	ASSERT_EQ(restarted.elsewhere.size(), 1u);
	EXPECT_EQ(restarted.elsewhere[0].second, "rdmablk0 (192.0.2.1:7471 e1)");
}

TEST(Autoconnect, AnotherAddressOfAnAttachedExportIsAPath)
{
	const DiscoveryConfig a = all_of("192.0.2.1");
	const DiscoveryConfig b = all_of("198.51.100.1");
	const AutoPath path{uuid(1), "e1", {"198.51.100.1", 7471}};
	const AutoDecision first = decide_autoconnect(a, list({entry("e1", 1)}), {}, {}, {}, {});
	EXPECT_TRUE(first.paths.empty());
	const AutoDecision second =
		decide_autoconnect(b, list({entry("e1", 1)}), {}, first.wanted, {}, {});
	EXPECT_EQ(second.paths, std::vector<AutoPath>{path});
	const AutoDecision restarted = decide_autoconnect(b, list({entry("e1", 1)}), {}, {},
							  {device("192.0.2.1", "e1", 1)}, {});
	EXPECT_EQ(restarted.paths, std::vector<AutoPath>{path});
	EXPECT_TRUE(restarted.wanted.empty()) << "not a second disk";

	/* The same UUID under another name is another export's: no path. */
	const AutoDecision renamed = decide_autoconnect(b, list({entry("e2", 1)}), {}, {},
							{device("192.0.2.1", "e1", 1)}, {});
	EXPECT_TRUE(renamed.paths.empty());
	EXPECT_EQ(renamed.elsewhere.size(), 1u);
}

TEST(Autoconnect, AutoPathsJoinTheAttachmentOfTheirDevice)
{
	AttachmentConfig configured;
	configured.target = {"192.0.2.1", 7471};
	configured.export_name = "e1";
	std::vector<AttachmentConfig> attachments{configured};
	const std::vector<nl::Device> devices{device("192.0.2.1", "e1", 1)};
	const std::vector<AutoPath> paths{{uuid(1), "e1", {"198.51.100.1", 7471}},
					  {uuid(2), "e2", {"198.51.100.1", 7471}}};
	EXPECT_TRUE(adopt_auto_paths(attachments, paths, devices));
	EXPECT_EQ(attachments[0].paths, (std::vector<nl::Endpoint>{{"198.51.100.1", 7471}}));
	EXPECT_FALSE(adopt_auto_paths(attachments, paths, devices)) << "once";
	std::vector<AttachmentConfig> none;
	EXPECT_FALSE(adopt_auto_paths(none, paths, devices));
}

TEST(Autoconnect, AConfiguredAttachmentTakesPrecedence)
{
	AttachmentConfig configured;
	configured.target = {"192.0.2.1", 7471};
	configured.export_name = "e1";
	const AutoDecision out = decide_autoconnect(
		all_of("192.0.2.1"), list({entry("e1", 1), entry("e2", 2)}), {configured}, {}, {}, {});
	EXPECT_EQ(names(out.wanted), (std::vector<std::string>{"e2"}));
	ASSERT_EQ(out.elsewhere.size(), 1u);
	EXPECT_EQ(out.elsewhere[0].second, "a configured attachment");
}

TEST(Autoconnect, ExportsThatLeaveTheListAreGone)
{
	const std::vector<SeenExport> before{{"e1", uuid(1)}, {"e2", uuid(2)}};
	const AutoDecision out = decide_autoconnect(all_of("192.0.2.1"), list({entry("e1", 1)}, 2),
						    {}, {}, {device("192.0.2.1", "e2", 2)}, before);
	EXPECT_EQ(out.gone, (std::vector<SeenExport>{{"e2", uuid(2)}}));
	EXPECT_EQ(names(out.wanted), (std::vector<std::string>{"e1"}));
}

TEST(Autoconnect, DecidingTwiceOnTheSameListGivesTheSameAnswer)
{
	const DiscoveryConfig d = all_of("192.0.2.1");
	const proto::DiscLog l = list({entry("e1", 1), entry("e2", 2)});
	const AutoDecision first = decide_autoconnect(d, l, {}, {}, {}, {});
	const AutoDecision again = decide_autoconnect(d, l, {}, {}, {device("192.0.2.1", "e1", 1)},
						      first.matched);
	EXPECT_EQ(first.wanted, again.wanted);
	EXPECT_TRUE(again.gone.empty());
}

TEST(DiscoveryBackoff, DoublesToTheMaximumAndStartsOverAfterAConnect)
{
	DiscoveryBackoff b(seconds(1), seconds(60));
	std::vector<long> waits;
	for (int i = 0; i < 8; i++)
		waits.push_back(b.failed().count());
	EXPECT_EQ(waits, (std::vector<long>{1, 2, 4, 8, 16, 32, 60, 60}));
	b.connected();
	EXPECT_EQ(b.failed(), seconds(1));
	EXPECT_EQ(b.failed(), seconds(2));
}

} // namespace
} // namespace rdmablk::daemon
