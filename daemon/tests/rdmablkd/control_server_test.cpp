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
#include <vector>

#include <gtest/gtest.h>

#include <poll.h>
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
				else if (r.cmd == "emit") {
					server_->publish(r.args);
					reply(ctl::ok({}));
				} else if (r.cmd == "flood") {
					/* Each far beyond a socket buffer's share of max_line. */
					for (int i = 0; i < flood_events; i++)
						server_->publish({{"type", "flood"},
								  {"n", i},
								  {"pad", std::string(100000, 'x')}});
					reply(ctl::ok({}));
				} else if (r.cmd == "stop") {
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
	static constexpr int flood_events = 40;
};

/* A connection on the socket at @path, sent @text. */
ctl::UniqueFd raw_client(const std::string &path, const std::string &text)
{
	ctl::UniqueFd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
	sockaddr_un addr{};
	addr.sun_family = AF_UNIX;
	path.copy(addr.sun_path, sizeof(addr.sun_path) - 1);
	EXPECT_EQ(::connect(fd.get(), reinterpret_cast<sockaddr *>(&addr), sizeof(addr)), 0);
	EXPECT_EQ(::write(fd.get(), text.data(), text.size()), static_cast<ssize_t>(text.size()));
	return fd;
}

/* What @fd receives until it has been silent for @quiet (or closed): whole lines. */
std::vector<std::string> lines_until_quiet(int fd, std::chrono::milliseconds quiet)
{
	std::string got;
	char buf[65536];
	for (;;) {
		pollfd pfd{fd, POLLIN, 0};
		if (::poll(&pfd, 1, static_cast<int>(quiet.count())) <= 0)
			break;
		const ssize_t n = ::read(fd, buf, sizeof(buf));
		if (n <= 0)
			break;
		got.append(buf, static_cast<std::size_t>(n));
	}
	std::vector<std::string> lines;
	for (std::size_t at = 0, nl; (nl = got.find('\n', at)) != std::string::npos; at = nl + 1)
		lines.push_back(got.substr(at, nl - at));
	return lines;
}

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

TEST_F(ControlServerTest, AMonitorGetsEveryEventInOrderAndNoFurtherRequest)
{
	if (!root())
		GTEST_SKIP() << "needs root";
	std::optional<ctl::Response> subscribed;
	std::vector<nlohmann::json> events;
	std::optional<ctl::Response> further;
	bool closed = false;
	serve([&] {
		ctl::Client watcher = ctl::Client::connect(path_);
		subscribed = watcher.call({ctl::monitor_cmd, {}}, 1s);
		ctl::Client other = ctl::Client::connect(path_);
		for (int i = 0; i < 3; i++)
			other.call({"emit", {{"type", "t"}, {"n", i}}}, 1s);
		for (int i = 0; i < 3; i++)
			events.push_back(ctl::parse_event_line(*watcher.next_line()));
		further = watcher.call({"list", {}}, 1s);
		closed = !watcher.next_line();
	});
	ASSERT_TRUE(subscribed);
	EXPECT_TRUE(subscribed->ok);
	EXPECT_EQ(subscribed->result["monitoring"], true);
	ASSERT_EQ(events.size(), 3u);
	for (int i = 0; i < 3; i++) {
		EXPECT_EQ(events[i]["type"], "t");
		EXPECT_EQ(events[i]["n"], i);
	}
	ASSERT_TRUE(further);
	ASSERT_FALSE(further->ok);
	EXPECT_EQ(further->error->code, "invalid-argument");
	EXPECT_TRUE(closed) << "the monitor connection stayed open after a further request";
	/* The three emits and the stop: neither the monitor request nor the further one. */
	EXPECT_EQ(received_, 4) << "the handler saw the monitor request or the further one";
}

TEST_F(ControlServerTest, AMonitorThatDoesNotReadIsToldHowManyEventsItLost)
{
	if (!root())
		GTEST_SKIP() << "needs root";
	std::vector<std::string> first, second;
	serve([&] {
		const ctl::UniqueFd watcher =
			raw_client(path_, ctl::to_line(ctl::to_json(ctl::Request{ctl::monitor_cmd, {}})));
		ctl::Client other = ctl::Client::connect(path_);
		/* The answer to the monitor request first: subscribed before the flood. */
		pollfd pfd{watcher.get(), POLLIN, 0};
		ASSERT_EQ(::poll(&pfd, 1, 1000), 1);
		other.call({"flood", {}}, 5s);
		first = lines_until_quiet(watcher.get(), 300ms);
		other.call({"emit", {{"type", "after"}}}, 1s);
		second = lines_until_quiet(watcher.get(), 300ms);
	});
	ASSERT_FALSE(first.empty());
	EXPECT_TRUE(ctl::parse_response_line(first.front()).ok);
	std::vector<int> got;
	for (std::size_t i = 1; i < first.size(); i++)
		got.push_back(ctl::parse_event_line(first[i])["n"].get<int>());
	ASSERT_FALSE(got.empty());
	for (std::size_t i = 0; i < got.size(); i++)
		EXPECT_EQ(got[i], static_cast<int>(i)) << "events out of order or one missing";
	ASSERT_LT(got.size(), static_cast<std::size_t>(flood_events))
		<< "the backlog never filled up: the test proves nothing";
	ASSERT_EQ(second.size(), 2u);
	const nlohmann::json dropped = ctl::parse_event_line(second[0]);
	EXPECT_EQ(dropped["type"], "dropped");
	EXPECT_EQ(dropped["count"].get<std::size_t>() + got.size(),
		  static_cast<std::size_t>(flood_events));
	EXPECT_EQ(ctl::parse_event_line(second[1])["type"], "after");
}

} // namespace
} // namespace rdmablk::daemon
