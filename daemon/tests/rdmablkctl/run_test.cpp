// SPDX-License-Identifier: GPL-2.0
/*
 * run() against a fake rdmablkd listening on a socket in a temporary
 * directory: one connection, one answer per request.
 */
#include <gtest/gtest.h>

#include <cerrno>
#include <functional>
#include <system_error>
#include <thread>

#include <sys/socket.h>
#include <sys/un.h>

#include "ctl/fd.hpp"
#include "ctl/framer.hpp"
#include "render.hpp"
#include "run.hpp"
#include "temp_dir.hpp"

namespace rdmablk::rdmablkctl {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

ctl::UniqueFd bound_socket(const std::string &path)
{
	ctl::UniqueFd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
	sockaddr_un addr{};
	addr.sun_family = AF_UNIX;
	path.copy(addr.sun_path, sizeof(addr.sun_path) - 1);
	if (!fd || ::bind(fd.get(), reinterpret_cast<sockaddr *>(&addr), sizeof(addr)) < 0)
		throw std::system_error(errno, std::generic_category(), "bind");
	return fd;
}

/* Accepts one connection and answers its first request with answer(request). */
class FakeDaemon {
public:
	using Answer = std::function<std::string(const ctl::Request &)>;

	FakeDaemon(const std::string &path, Answer answer) : listener_(bound_socket(path))
	{
		if (::listen(listener_.get(), 1) < 0)
			throw std::system_error(errno, std::generic_category(), "listen");
		thread_ = std::thread([this, answer = std::move(answer)] { serve(answer); });
	}
	~FakeDaemon()
	{
		::shutdown(listener_.get(), SHUT_RDWR);
		thread_.join();
	}

	ctl::Request request() const { return request_; }

private:
	void serve(const Answer &answer)
	{
		ctl::UniqueFd conn(::accept(listener_.get(), nullptr, nullptr));
		if (!conn)
			return;
		ctl::LineFramer framer;
		char buf[4096];
		for (;;) {
			if (auto line = framer.next_line()) {
				request_ = ctl::parse_request_line(*line);
				const std::string reply = answer(request_);
				if (reply == "hang") {
					/* Hold the connection until the client gives up. */
					while (::recv(conn.get(), buf, sizeof(buf), 0) > 0) {
					}
					return;
				}
				(void)!::send(conn.get(), reply.data(), reply.size(), MSG_NOSIGNAL);
				return;
			}
			const ssize_t n = ::recv(conn.get(), buf, sizeof(buf), 0);
			if (n <= 0)
				return;
			framer.feed(std::string_view(buf, static_cast<std::size_t>(n)));
		}
	}

	ctl::UniqueFd listener_;
	ctl::Request request_;
	std::thread thread_;
};

class RunTest : public testing::Test {
protected:
	Invocation invocation(ctl::Request request, Output output = Output::text)
	{
		return {std::move(request), output, socket_, 5s};
	}

	TempDir dir_;
	std::string socket_ = dir_.path() + "/rdmablkd.sock";
};

std::string line_of(const ctl::Response &response)
{
	return ctl::to_line(ctl::to_json(response));
}

TEST_F(RunTest, Success)
{
	FakeDaemon daemon(socket_, [](const ctl::Request &) {
		return line_of(ctl::ok({{"address", "192.0.2.1"},
					{"port", 7471},
					{"export", "db0"},
					{"device", "/dev/rdmablk0"},
					{"state", "live"}}));
	});
	const Outcome outcome = run(invocation(
		{"attach", {{"address", "192.0.2.1"}, {"port", 7471}, {"export", "db0"}}}));
	EXPECT_EQ(outcome.exit_code, exit_ok);
	EXPECT_EQ(outcome.out, "/dev/rdmablk0\n");
	EXPECT_EQ(outcome.error, "");
	EXPECT_EQ(daemon.request().cmd, "attach");
	EXPECT_EQ(daemon.request().args["export"], "db0");
}

TEST_F(RunTest, NotFound)
{
	FakeDaemon daemon(socket_, [](const ctl::Request &) {
		return line_of(ctl::fail("not-found", "no device /dev/rdmablk9"));
	});
	const Outcome outcome = run(invocation({"detach", {{"device", "/dev/rdmablk9"}}}));
	EXPECT_EQ(outcome.exit_code, exit_not_found);
	EXPECT_EQ(outcome.error, "no device /dev/rdmablk9");
}

TEST_F(RunTest, Refused)
{
	FakeDaemon daemon(socket_, [](const ctl::Request &) {
		return line_of(
			ctl::fail("busy", "/dev/rdmablk0 is in use", "unmount it first", 16));
	});
	const Outcome outcome =
		run(invocation({"detach", {{"device", "/dev/rdmablk0"}}}, Output::json));
	EXPECT_EQ(outcome.exit_code, exit_busy);
	EXPECT_EQ(outcome.out, "");
	EXPECT_EQ(outcome.error, "/dev/rdmablk0 is in use; unmount it first");

	/* Under -o json, main() prints it as the control socket's error object. */
	const Outcome as_object = as_json(outcome);
	EXPECT_EQ(as_object.exit_code, exit_busy);
	EXPECT_EQ(as_object.error, "");
	EXPECT_EQ(nlohmann::json::parse(as_object.out),
		  (nlohmann::json{{"ok", false},
				  {"error",
				   {{"code", "busy"},
				    {"message", "/dev/rdmablk0 is in use"},
				    {"hint", "unmount it first"},
				    {"errno", 16}}}}));
}

TEST_F(RunTest, NoDaemon)
{
	const Outcome outcome = run(invocation({"list", {}}));
	EXPECT_EQ(outcome.exit_code, exit_unreachable);
	EXPECT_EQ(outcome.error,
		  "cannot reach rdmablkd at " + socket_ +
			  ": No such file or directory; start it with 'systemctl start "
			  "rdmablkd' (or enable rdmablkd.socket)");
}

TEST_F(RunTest, StaleSocket)
{
	const ctl::UniqueFd stale = bound_socket(socket_);
	const Outcome outcome = run(invocation({"list", {}}));
	EXPECT_EQ(outcome.exit_code, exit_unreachable);
	EXPECT_NE(outcome.error.find(": Connection refused; start it with"), std::string::npos)
		<< outcome.error;
}

TEST_F(RunTest, ClosedWithoutAnswer)
{
	FakeDaemon daemon(socket_, [](const ctl::Request &) { return std::string(); });
	const Outcome outcome = run(invocation({"list", {}}));
	EXPECT_EQ(outcome.exit_code, exit_unreachable);
	EXPECT_NE(outcome.error.find("lost the connection to rdmablkd"), std::string::npos);
}

TEST_F(RunTest, GarbageAnswer)
{
	FakeDaemon daemon(socket_,
			  [](const ctl::Request &) { return std::string("{\"ok\":1}\n"); });
	const Outcome outcome = run(invocation({"list", {}}));
	EXPECT_EQ(outcome.exit_code, exit_failed);
	EXPECT_EQ(outcome.error,
		  "unexpected answer from rdmablkd: response: \"ok\" is not a boolean");
}

TEST_F(RunTest, Timeout)
{
	FakeDaemon daemon(socket_, [](const ctl::Request &) { return std::string("hang"); });
	Invocation slow = invocation({"attach", {}});
	slow.timeout = 100ms;
	const Outcome outcome = run(slow);
	EXPECT_EQ(outcome.exit_code, exit_failed);
	EXPECT_EQ(outcome.error, "rdmablkd did not answer within 1 s; it may still finish, check "
				 "'rdmablkctl status' or raise --timeout");
}

} // namespace
} // namespace rdmablk::rdmablkctl
