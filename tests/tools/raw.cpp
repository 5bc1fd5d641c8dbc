// SPDX-License-Identifier: GPL-2.0
/*
 * rdmablk-nl raw: send any request, well-formed or not, and print what
 * comes back. For testing how the module treats unknown commands, unknown
 * attributes and malformed values.
 *
 * rdmablk-nl raw --batch: the same for many requests, one a line of stdin,
 * in one process (a process start costs a second in a debug guest).
 *
 * rdmablk-nl raw --dump --between-parts CMD: a dump read one part (one
 * datagram) at a time, with CMD run by the shell after the first: for
 * testing what a dump shows of a list changed while it runs. On a socket
 * that has read nothing before (the family is resolved on another), as a
 * client that knows the family's id: the kernel makes the first part
 * before it learns the reader's buffer size.
 */
#include <cstdlib>
#include <exception>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <netlink/genl/genl.h>
#include <netlink/socket.h>

#include "commands.hpp"
#include "nl/client.hpp"
#include "nl/error.hpp"
#include "nl/extack.hpp"
#include "nl/requests.hpp"
#include "nl/socket.hpp"
#include "options.hpp"
#include "raw_attr.hpp"

namespace rdmablk::tool {

namespace {

struct RawArgs {
	unsigned int cmd = 0;
	std::vector<std::string> attrs;
	bool dump = false;
	bool batch = false;
	std::string between_parts;
};

/* The request @args describes, for family @family. */
nl::Msg build_raw(int family, const RawArgs &args)
{
	std::vector<RawAttr> attrs;
	for (const std::string &spec : args.attrs)
		attrs.push_back(parse_raw_attr(spec));

	nl::Msg msg = nl::build_request(family, static_cast<std::uint8_t>(args.cmd),
					args.dump ? NLM_F_DUMP : NLM_F_ACK);
	for (const RawAttr &attr : attrs)
		nl::put_attr(*msg, attr.type, attr.payload.data(), attr.payload.size());
	return msg;
}

struct BufFree {
	void operator()(unsigned char *buf) const noexcept { std::free(buf); }
};

/*
 * The dump of @args read a datagram at a time, each part's replies
 * described as they come; @args.between_parts run after the first part.
 * The kernel makes the next part as the last is read (netlink_recvmsg()),
 * so the command runs between the second and third calls of the dump's
 * callback: a list must be long enough for three parts. Prints "parts N"
 * last; throws nl::Error when the dump fails.
 */
std::vector<std::string> dump_paced(const RawArgs &args)
{
	const int family = nl::Client::connect().family();
	std::unique_ptr<nl_sock, nl::SockFree> sock(nl_socket_alloc());
	if (!sock)
		throw nl::Error("allocating a netlink socket", ENOMEM);
	if (const int rc = genl_connect(sock.get()); rc < 0)
		throw nl::Error::from_libnl("connecting to generic netlink", rc);
	const nl::Msg msg = build_raw(family, args);
	if (const int rc = nl_send_auto(sock.get(), msg.get()); rc < 0)
		throw nl::Error::from_libnl("sending the dump request", rc);

	std::vector<std::string> lines;
	unsigned int parts = 0;
	for (bool done = false; !done;) {
		sockaddr_nl peer{};
		unsigned char *raw = nullptr;
		int len = nl_recv(sock.get(), &peer, &raw, nullptr);
		const std::unique_ptr<unsigned char, BufFree> buf(raw);
		if (len <= 0)
			throw nl::Error::from_libnl("reading the dump", len ? len : -NLE_MSG_TRUNC);
		parts++;
		for (auto *nlh = reinterpret_cast<nlmsghdr *>(buf.get()); nlmsg_ok(nlh, len);
		     nlh = nlmsg_next(nlh, &len)) {
			if (nlh->nlmsg_type == NLMSG_DONE) {
				if (const int status = nl::done_status(*nlh); status < 0)
					throw nl::Error("the dump", -status);
				done = true;
				break;
			}
			if (nlh->nlmsg_type == NLMSG_ERROR)
				throw nl::Error("the dump", EPROTO, "refused");
			for (std::string &line : describe_reply(*nl::copy_msg(*nlh)))
				lines.push_back(std::move(line));
		}
		if (parts == 1 && !done) {
			if (std::system(args.between_parts.c_str()) != 0)
				throw UsageError("--between-parts command failed: " + args.between_parts);
		}
	}
	lines.push_back("parts " + std::to_string(parts));
	return lines;
}

/* Send one request; its replies' lines, or what the client throws. */
std::vector<std::string> send_raw(const RawArgs &args)
{
	if (!args.between_parts.empty())
		return dump_paced(args);

	nl::Client client = nl::Client::connect();
	const nl::Msg msg = build_raw(client.family(), args);

	std::vector<std::string> lines;
	for (const nl::Msg &reply : client.request(*msg, "command " + std::to_string(args.cmd)))
		for (std::string &line : describe_reply(*reply))
			lines.push_back(std::move(line));
	return lines;
}

/* "CMD [--dump] [TYPE:KIND[:VALUE]]...", as on the command line. */
RawArgs parse_batch_line(const std::string &line)
{
	std::istringstream words(line);
	std::string word;
	RawArgs args;

	if (!(words >> word))
		throw UsageError("empty request line");
	try {
		std::size_t end = 0;
		args.cmd = static_cast<unsigned int>(std::stoul(word, &end, 0));
		if (end != word.size() || args.cmd > 255)
			throw std::out_of_range(word);
	} catch (const std::logic_error &) {
		throw UsageError("not a command number 0-255: " + word);
	}
	while (words >> word) {
		if (word == "--dump")
			args.dump = true;
		else
			args.attrs.push_back(word);
	}
	return args;
}

/*
 * One line of output per line of stdin, in order: "0 LINE | LINE..." with
 * the replies when the kernel accepted the request, "1 rdmablk-nl: ERROR"
 * when it refused it (what the single request prints on stderr), "2 ..."
 * for a line that does not parse. Exit status 0 once stdin is read.
 */
int run_batch()
{
	std::string line;

	while (std::getline(std::cin, line)) {
		int status = 0;
		std::string out;

		try {
			for (const std::string &reply : send_raw(parse_batch_line(line)))
				out += (out.empty() ? "" : " | ") + reply;
		} catch (const UsageError &e) {
			status = 2;
			out = std::string("rdmablk-nl: ") + e.what();
		} catch (const std::invalid_argument &e) {
			status = 2;
			out = std::string("rdmablk-nl: ") + e.what();
		} catch (const std::exception &e) {
			status = 1;
			out = std::string("rdmablk-nl: ") + e.what();
		}
		std::cout << status << ' ' << out << '\n' << std::flush;
	}
	return 0;
}

int run_raw(const RawArgs &args)
{
	if (args.batch) {
		if (in_batch)
			throw UsageError("raw --batch reads standard input, which is the batch's");
		if (args.dump || !args.attrs.empty() || !args.between_parts.empty())
			throw UsageError("--batch reads its requests from stdin; no --attr, --dump "
					 "or --between-parts");
		return run_batch();
	}
	for (const std::string &line : send_raw(args))
		std::cout << line << '\n';
	return 0;
}

} // namespace

void add_raw(CLI::App &app, Action &selected)
{
	auto args = std::make_shared<RawArgs>();
	CLI::App *sub = app.add_subcommand("raw", "Send an arbitrary request and print the replies");
	CLI::Option *cmd = sub->add_option("--cmd", args->cmd, "Generic netlink command number")
				   ->type_name("N")
				   ->check(CLI::Range(0, 255));
	sub->add_option("--attr", args->attrs,
			"Attribute TYPE:KIND[:VALUE]; TYPE a number or name (PORT), KIND one of "
			"u8 u16 u32 u64 s32 string binary-hex nested (hex payload) flag; "
			"repeatable")
		->type_name("TYPE:KIND[:VALUE]")
		->check(parsed_by(parse_raw_attr));
	CLI::Option *dump =
		sub->add_flag("--dump", args->dump, "Send a dump request (NLM_F_DUMP)");
	sub->add_option("--between-parts", args->between_parts,
			"Read the dump a part at a time and run this shell command after the "
			"first; prints \"parts N\" last")
		->type_name("COMMAND")
		->needs(dump);
	CLI::Option *batch = sub->add_flag(
		"--batch", args->batch,
		"Read requests from stdin, one a line (\"CMD [--dump] [TYPE:KIND[:VALUE]]...\"); "
		"print one line for each: \"STATUS OUTPUT\", STATUS 0 accepted, 1 refused, "
		"2 a line that does not parse");
	batch->excludes(cmd);
	sub->callback([&selected, args, cmd] {
		if (!args->batch && !cmd->count())
			throw CLI::RequiredError("--cmd (or --batch)");
		selected = [args] { return run_raw(*args); };
	});
}

} // namespace rdmablk::tool
