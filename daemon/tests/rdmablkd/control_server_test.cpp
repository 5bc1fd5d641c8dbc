// SPDX-License-Identifier: GPL-2.0
/*
 * The control socket: permission checks, framing, answers that come later,
 * clients that leave early. A real socket and event loop; the handler is
 * the test's.
 */
#include <atomic>
#include <cstring>
#include <filesystem>
#include <thread>

#include <gtest/gtest.h>

#include <sys/socket.h>
#include <sys/un.h>
#include <sys/stat.h>
#include <unistd.h>

#include "control/control_server.hpp"
#include "control/control_socket.hpp"
#include "ctl/client.hpp"
#include "control/peer.hpp"
#include "temp_dir.hpp"

namespace rdmablk::daemon {
namespace {

using namespace std::chrono_literals;

TEST(Peer, OnlyRootMaySendRequests)
{
	EXPECT_FALSE(refuse_peer(0));
	const std::optional<ctl::Response> refusal = refuse_peer(1000);
	ASSERT_TRUE(refusal);
	EXPECT_FALSE(refusal->ok);
	EXPECT_EQ(refusal->error->code, "permission-denied");
	EXPECT_EQ(refusal->error->message, "rdmablkd accepts requests from root only, not from uid 1000");
	EXPECT_EQ(refusal->error->hint, "run rdmablkctl as root (sudo rdmablkctl ...)");
	EXPECT_TRUE(refuse_peer(std::nullopt)) << "unknown credentials are refused";
}

TEST(Peer, ReadsTheUidOfTheOtherEnd)
{
	int fds[2];
	ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
	EXPECT_EQ(peer_uid(fds[0]), ::getuid());
	::close(fds[0]);
	::close(fds[1]);
	EXPECT_FALSE(peer_uid(-1));
}

class ControlServerTest : public ::testing::Test {
protected:
	void SetUp() override
	{
		path_ = (dir_ / "run" / "rdmablkd.sock").string();
		ListenSocket sock = ListenSocket::open(path_);
		server_ = std::make_unique<ControlServer>(
			loop_, sock.take(),
			[this](const ctl::Request &r, ControlServer::Reply reply) {
				received_++;
				if (r.cmd == "later")
					later_ = reply;
				else if (r.cmd == "stop") {
					reply(ctl::ok({}));
					loop_.stop();
				} else
					reply(ctl::ok({{"echo", r.cmd}}));
			},
			log_);
		socket_ = std::make_unique<ListenSocket>(std::move(sock));
	}

	void TearDown() override
	{
		server_.reset();
		socket_.reset();
	}

	/* Run the loop until a "stop" request arrives, @client running meanwhile. */
	void serve(const std::function<void()> &client)
	{
		std::thread t([&] {
			client();
			stop();
		});
		loop_.run({});
		t.join();
	}

	void stop()
	{
		try {
			ctl::Client::connect(path_).call({"stop", {}}, 1s);
		} catch (const std::exception &e) {
			ADD_FAILURE() << "stopping the loop: " << e.what();
		}
	}

	bool root() const { return ::getuid() == 0; }

	test::TempDir dir_{"sock"};
	std::string path_;
	EventLoop loop_;
	Logger log_{[](const LogRecord &) {}};
	std::unique_ptr<ListenSocket> socket_;
	std::unique_ptr<ControlServer> server_;
	std::atomic<int> received_{0};
	ControlServer::Reply later_;
};

TEST_F(ControlServerTest, SocketIsRootsOnlyInAnOpenDirectory)
{
	struct stat st;
	ASSERT_EQ(::stat(path_.c_str(), &st), 0);
	EXPECT_TRUE(S_ISSOCK(st.st_mode));
	EXPECT_EQ(st.st_mode & 0777, 0600u);
	ASSERT_EQ(::stat((dir_ / "run").c_str(), &st), 0);
	EXPECT_EQ(st.st_mode & 0777, 0755u);
}

TEST_F(ControlServerTest, AnotherDaemonOnTheSocketIsRefusedAStaleOneReplaced)
{
	EXPECT_THROW(ListenSocket::open(path_), std::runtime_error);
	socket_.reset();
	server_.reset();
	/* A socket file nobody answers on, as after SIGKILL. */
	const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
	sockaddr_un addr{};
	addr.sun_family = AF_UNIX;
	std::strcpy(addr.sun_path, path_.c_str());
	ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr *>(&addr), sizeof(addr)), 0);
	::close(fd);
	EXPECT_NO_THROW(ListenSocket::open(path_));
	EXPECT_FALSE(std::filesystem::exists(path_)) << "removed by its owner";
}

TEST_F(ControlServerTest, AnswersRequestsInOrderOnOneConnection)
{
	std::vector<ctl::Response> got;
	serve([&] {
		ctl::Client client = ctl::Client::connect(path_);
		got.push_back(client.call({"one", {}}, 1s));
		got.push_back(client.call({"two", {}}, 1s));
	});
	ASSERT_EQ(got.size(), 2u);
	if (!root()) {
		EXPECT_EQ(got[0].error->code, "permission-denied");
		return;
	}
	EXPECT_EQ(got[0].result["echo"], "one");
	EXPECT_EQ(got[1].result["echo"], "two");
}

TEST_F(ControlServerTest, NonRequestsGetAnErrorAndTheConnectionGoesOn)
{
	if (!root())
		GTEST_SKIP() << "needs root: others are refused before parsing";
	std::string answers;
	serve([&] {
		const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
		sockaddr_un addr{};
		addr.sun_family = AF_UNIX;
		std::strcpy(addr.sun_path, path_.c_str());
		ASSERT_EQ(::connect(fd, reinterpret_cast<sockaddr *>(&addr), sizeof(addr)), 0);
		const std::string lines = "not json\n{\"cmd\": \"x\"}\n";
		ASSERT_EQ(::write(fd, lines.data(), lines.size()), static_cast<ssize_t>(lines.size()));
		::shutdown(fd, SHUT_WR);
		char buf[4096];
		ssize_t n;
		while ((n = ::read(fd, buf, sizeof(buf))) > 0)
			answers.append(buf, static_cast<std::size_t>(n));
		::close(fd);
	});
	const auto nl = answers.find('\n');
	ASSERT_NE(nl, std::string::npos) << answers;
	const ctl::Response first = ctl::parse_response_line(answers.substr(0, nl));
	EXPECT_EQ(first.error->code, "invalid-argument");
	const ctl::Response second =
		ctl::parse_response_line(answers.substr(nl + 1, answers.size() - nl - 2));
	EXPECT_EQ(second.result["echo"], "x");
}

TEST_F(ControlServerTest, ASlowAnswerDoesNotHoldUpOtherClients)
{
	if (!root())
		GTEST_SKIP() << "needs root";
	std::optional<ctl::Response> slow;
	std::optional<ctl::Response> quick;
	std::thread waiting([&] { slow = ctl::Client::connect(path_).call({"later", {}}, 5s); });
	serve([&] {
		while (received_ == 0)
			std::this_thread::sleep_for(1ms);
		quick = ctl::Client::connect(path_).call({"quick", {}}, 1s);
	});
	ASSERT_TRUE(quick);
	EXPECT_EQ(quick->result["echo"], "quick");
	EXPECT_FALSE(slow);
	ASSERT_TRUE(later_);
	later_(ctl::ok({{"echo", "later"}}));
	/* Deliver the answer, then stop. */
	std::thread stopper([&] {
		waiting.join();
		stop();
	});
	loop_.run({});
	stopper.join();
	ASSERT_TRUE(slow);
	EXPECT_EQ(slow->result["echo"], "later");
}

TEST_F(ControlServerTest, AnswerToAClientThatLeftIsDropped)
{
	if (!root())
		GTEST_SKIP() << "needs root";
	serve([&] {
		ctl::Client client = ctl::Client::connect(path_);
		EXPECT_THROW(client.call({"later", {}}, 50ms), std::system_error);
	});
	ASSERT_TRUE(later_);
	later_(ctl::ok({})); /* no connection to write to: nothing happens */
	EXPECT_LE(server_->clients(), 1u);
}

} // namespace
} // namespace rdmablk::daemon
