// SPDX-License-Identifier: GPL-2.0
/*
 * Client against a fake daemon: a thread on the other end of a socketpair,
 * and a real listening socket for connect().
 */
#include <gtest/gtest.h>

#include <cerrno>
#include <filesystem>
#include <functional>
#include <system_error>
#include <thread>

#include <sys/socket.h>
#include <sys/un.h>

#include "ctl/client.hpp"

namespace rdmablk::ctl {
namespace {

using namespace std::chrono_literals;

/* Reads requests from its end and answers each with handler(request) lines. */
class FakeServer {
public:
	using Handler = std::function<std::string(const Request &)>;

	explicit FakeServer(Handler handler)
	{
		int fds[2];
		if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) < 0)
			throw std::system_error(errno, std::generic_category(), "socketpair");
		client_end_.reset(fds[0]);
		server_end_.reset(fds[1]);
		thread_ = std::thread([this, handler = std::move(handler)] { serve(handler); });
	}
	~FakeServer()
	{
		::shutdown(server_end_.get(), SHUT_RDWR);
		thread_.join();
	}

	UniqueFd take_client_end() { return std::move(client_end_); }
	std::vector<Request> requests() const { return requests_; }

private:
	void serve(const Handler &handler)
	{
		LineFramer framer;
		char buf[4096];
		for (;;) {
			const ssize_t n = ::recv(server_end_.get(), buf, sizeof(buf), 0);
			if (n <= 0)
				return;
			framer.feed(std::string_view(buf, static_cast<std::size_t>(n)));
			while (auto line = framer.next_line()) {
				requests_.push_back(parse_request_line(*line));
				const std::string answer = handler(requests_.back());
				if (answer.empty()) {
					::shutdown(server_end_.get(), SHUT_WR);
					continue;
				}
				if (::send(server_end_.get(), answer.data(), answer.size(),
					   MSG_NOSIGNAL) < 0)
					return;
			}
		}
	}

	UniqueFd client_end_;
	UniqueFd server_end_;
	std::vector<Request> requests_;
	std::thread thread_;
};

/* The errno of the std::system_error @f throws; 0 when it throws none. */
int errno_of(const std::function<void()> &f)
{
	try {
		f();
	} catch (const std::system_error &e) {
		return e.code().value();
	}
	return 0;
}

TEST(Client, CallsAndReceivesResponse)
{
	FakeServer server([](const Request &request) {
		return to_line(to_json(ok({{"echo", request.cmd}})));
	});
	Client client(server.take_client_end());
	const Response response = client.call({"hostid", {}}, 5s);
	EXPECT_TRUE(response.ok);
	EXPECT_EQ(response.result["echo"], "hostid");
}

TEST(Client, SeveralCallsOnOneConnection)
{
	FakeServer server([](const Request &request) {
		return to_line(to_json(ok({{"n", request.args["n"]}})));
	});
	Client client(server.take_client_end());
	for (int i = 0; i < 5; i++)
		EXPECT_EQ(client.call({"x", {{"n", i}}}, 5s).result["n"], i);
}

TEST(Client, ResponseSplitAcrossWrites)
{
	FakeServer server([](const Request &) {
		return to_line(to_json(fail(code::not_found, "no such export", "list them")));
	});
	Client client(server.take_client_end());
	const Response response = client.call({"export_del", {{"name", "db1"}}}, 5s);
	ASSERT_FALSE(response.ok);
	EXPECT_EQ(response.error->code, "not-found");
	EXPECT_EQ(response.error->hint, "list them");
}

TEST(Client, ClosedWithoutAnswerIsConnectionReset)
{
	FakeServer server([](const Request &) { return std::string(); });
	Client client(server.take_client_end());
	EXPECT_EQ(errno_of([&] { client.call({"list", {}}, 5s); }), ECONNRESET);
}

TEST(Client, GarbageAnswerIsProtocolError)
{
	FakeServer server([](const Request &) { return std::string("hello\n"); });
	Client client(server.take_client_end());
	EXPECT_THROW(client.call({"list", {}}, 5s), ProtocolError);
}

TEST(Client, SilentServerTimesOut)
{
	/* The handler answers nothing: a line that is never terminated. */
	FakeServer server([](const Request &) { return std::string("{"); });
	Client client(server.take_client_end());
	EXPECT_EQ(errno_of([&] { client.call({"attach", {}}, 50ms); }), ETIMEDOUT);
}

TEST(Client, ConnectToMissingSocketIsEnoent)
{
	EXPECT_EQ(errno_of([] { Client::connect("/nonexistent/rdmablk-test.sock"); }), ENOENT);
}

TEST(Client, ConnectsToListeningSocket)
{
	const std::string path = std::filesystem::temp_directory_path() /
				 ("rdmablk-ctl-test-" + std::to_string(::getpid()) + ".sock");
	::unlink(path.c_str());
	UniqueFd listener(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
	ASSERT_TRUE(listener);
	sockaddr_un addr{};
	addr.sun_family = AF_UNIX;
	path.copy(addr.sun_path, sizeof(addr.sun_path) - 1);
	ASSERT_EQ(::bind(listener.get(), reinterpret_cast<sockaddr *>(&addr), sizeof(addr)), 0);
	ASSERT_EQ(::listen(listener.get(), 1), 0);

	std::thread server([&] {
		UniqueFd conn(::accept(listener.get(), nullptr, nullptr));
		char buf[256];
		if (::recv(conn.get(), buf, sizeof(buf), 0) > 0) {
			const std::string answer = to_line(to_json(ok({})));
			(void)!::send(conn.get(), answer.data(), answer.size(), MSG_NOSIGNAL);
		}
	});
	{
		Client client = Client::connect(path);
		EXPECT_GE(client.fd(), 0);
		EXPECT_TRUE(client.call({"unlisten", {}}, 5s).ok);
	}
	server.join();
	::unlink(path.c_str());

	/* The socket is gone with its file. */
	EXPECT_EQ(errno_of([&] { Client::connect(path); }), ENOENT);
}

TEST(Client, OverlongPathIsRejected)
{
	EXPECT_EQ(errno_of([] { Client::connect(std::string(200, 'x')); }), ENAMETOOLONG);
}

} // namespace
} // namespace rdmablk::ctl
