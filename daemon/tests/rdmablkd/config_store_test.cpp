// SPDX-License-Identifier: GPL-2.0
/*
 * ConfigStore: rdmablkd writes its configuration file only over the text
 * it last read or wrote, so a hand edit not yet reloaded is never lost.
 */
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "config/config_store.hpp"
#include "temp_dir.hpp"

namespace rdmablk::daemon {
namespace {

Config one_listener(std::uint16_t port)
{
	Config c;
	c.listeners.push_back({{"192.0.2.1", port}});
	return c;
}

class ConfigStoreTest : public ::testing::Test {
protected:
	ConfigStoreTest() { std::filesystem::create_directories(dir_.path()); }

	std::string text() const
	{
		std::ifstream in(path_);
		std::stringstream s;
		s << in.rdbuf();
		return s.str();
	}
	void edit(const std::string &text) const { std::ofstream(path_) << text; }

	test::TempDir dir_{"config-store"};
	const std::string path_ = (dir_ / "rdmablk.conf").string();
	ConfigStore store_{path_};
};

TEST_F(ConfigStoreTest, SavesOverWhatItReadOrWrote)
{
	EXPECT_EQ(store_.load(), Config{}) << "no file yet";
	store_.save(one_listener(7471));
	store_.check();
	store_.save(one_listener(7472));
	EXPECT_EQ(store_.load(), one_listener(7472));
	store_.save(one_listener(7473));
	EXPECT_EQ(ConfigStore(path_).load(), one_listener(7473));
}

TEST_F(ConfigStoreTest, RefusesToWriteOverAnEditNotReloaded)
{
	store_.save(one_listener(7471));
	const std::string edited = "[[listener]]\naddress = \"192.0.2.9\"\n";
	edit(edited);
	EXPECT_THROW(store_.check(), ConfigChanged);
	try {
		store_.save(one_listener(7472));
		FAIL() << "saved over a hand edit";
	} catch (const ConfigChanged &e) {
		EXPECT_EQ(std::string(e.what()),
			  path_ + " was changed since rdmablkd last read it; apply the edit with "
				  "'rdmablkctl reload' (or 'systemctl reload rdmablkd'), then "
				  "repeat the command");
	}
	EXPECT_EQ(text(), edited) << "the edit is kept";

	/* Once reloaded, the edit is what the store writes over. */
	Config reloaded = store_.load();
	ASSERT_EQ(reloaded.listeners.size(), 1u);
	reloaded.listeners.push_back({{"192.0.2.1", 7471}});
	store_.save(reloaded);
	EXPECT_EQ(ConfigStore(path_).load(), reloaded);
}

TEST_F(ConfigStoreTest, AFileCreatedOrRemovedBehindItIsAChangeToo)
{
	store_.load();
	edit("");
	EXPECT_THROW(store_.save(one_listener(7471)), ConfigChanged) << "created by hand";
	store_.load();
	store_.save(one_listener(7471));
	std::filesystem::remove(path_);
	EXPECT_THROW(store_.save(one_listener(7472)), ConfigChanged) << "removed by hand";
	EXPECT_FALSE(std::filesystem::exists(path_));
}

TEST_F(ConfigStoreTest, ABadFileIsNotTakenAsRead)
{
	store_.save(one_listener(7471));
	edit("[[listener]]\nport = 0\n");
	EXPECT_THROW(store_.load(), ConfigError);
	EXPECT_THROW(store_.save(one_listener(7472)), ConfigChanged)
		<< "a file that did not load was not read";
}

} // namespace
} // namespace rdmablk::daemon
