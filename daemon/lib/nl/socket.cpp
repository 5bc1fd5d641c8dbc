// SPDX-License-Identifier: GPL-2.0
#include "nl/socket.hpp"

#include <cerrno>
#include <new>
#include <string>
#include <sys/socket.h>

#include <linux/netlink.h>
#include <netlink/errno.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/handlers.h>

#include "nl/error.hpp"
#include "nl/extack.hpp"

namespace rdmablk::nl {

namespace {

struct CbPut {
	void operator()(nl_cb *cb) const noexcept { nl_cb_put(cb); }
};

/*
 * One receive pass: the messages collected and how the kernel ended the
 * exchange. libnl calls back from C, so nothing here may throw; failures
 * are recorded and raised once nl_recvmsgs() has returned.
 */
class Receiver {
public:
	explicit Receiver(bool check_seq) : cb_(nl_cb_alloc(NL_CB_DEFAULT))
	{
		if (!cb_)
			throw Error("allocating netlink callbacks", ENOMEM);
		nl_cb_set(cb_.get(), NL_CB_VALID, NL_CB_CUSTOM, on_valid, this);
		nl_cb_set(cb_.get(), NL_CB_FINISH, NL_CB_CUSTOM, on_finish, this);
		nl_cb_set(cb_.get(), NL_CB_ACK, NL_CB_CUSTOM, on_ack, this);
		nl_cb_err(cb_.get(), NL_CB_CUSTOM, on_error, this);
		if (!check_seq)
			nl_cb_set(cb_.get(), NL_CB_SEQ_CHECK, NL_CB_CUSTOM, on_any_seq, nullptr);
	}

	/*
	 * Read once from @sock, raising what the kernel or libnl reported;
	 * a non-blocking socket with nothing to read is not an error.
	 */
	void receive(nl_sock &sock, std::string_view what)
	{
		const int rc = nl_recvmsgs(&sock, cb_.get());
		if (errnum_)
			throw Error(std::string(what), errnum_, std::move(extack_),
				    std::move(cookie_));
		if (rc < 0 && rc != -NLE_AGAIN)
			throw Error::from_libnl(std::string(what), rc);
	}

	bool done() const noexcept { return done_; }
	std::vector<Msg> take() noexcept { return std::move(messages_); }

private:
	static Receiver &self(void *arg) { return *static_cast<Receiver *>(arg); }

	/* End the exchange with errno @errnum and the extack of @nlh. */
	int fail(int errnum, const nlmsghdr &nlh) noexcept
	{
		errnum_ = errnum;
		try {
			extack_ = extack_message(nlh);
			cookie_ = extack_cookie(nlh);
		} catch (const std::bad_alloc &) {
			extack_.clear();
			cookie_.clear();
		}
		done_ = true;
		return NL_STOP;
	}

	static int on_valid(nl_msg *msg, void *arg) noexcept
	{
		Receiver &r = self(arg);
		try {
			r.messages_.push_back(copy_msg(*nlmsg_hdr(msg)));
		} catch (...) {
			r.errnum_ = ENOMEM;
			r.done_ = true;
			return NL_STOP;
		}
		return NL_OK;
	}

	static int on_finish(nl_msg *msg, void *arg) noexcept
	{
		Receiver &r = self(arg);
		const nlmsghdr &nlh = *nlmsg_hdr(msg);
		/* A dump that fails after it started reports it in NLMSG_DONE. */
		if (const int status = done_status(nlh); status < 0)
			return r.fail(-status, nlh);
		r.done_ = true;
		return NL_STOP;
	}

	static int on_ack(nl_msg *, void *arg) noexcept
	{
		self(arg).done_ = true;
		return NL_STOP;
	}

	static int on_error(sockaddr_nl *, nlmsgerr *err, void *arg) noexcept
	{
		/* libnl hands over the payload; the header precedes it. */
		const auto *nlh = reinterpret_cast<const nlmsghdr *>(
			reinterpret_cast<const unsigned char *>(err) - NLMSG_HDRLEN);
		return self(arg).fail(-err->error, *nlh);
	}

	static int on_any_seq(nl_msg *, void *) noexcept { return NL_OK; }

	std::unique_ptr<nl_cb, CbPut> cb_;
	std::vector<Msg> messages_;
	int errnum_ = 0;
	std::string extack_;
	std::vector<std::uint8_t> cookie_;
	bool done_ = false;
};

} // namespace

GenlSocket::GenlSocket() : sock_(nl_socket_alloc())
{
	if (!sock_)
		throw Error("allocating a netlink socket", ENOMEM);

	if (const int rc = genl_connect(sock_.get()); rc < 0)
		throw Error::from_libnl("connecting to generic netlink", rc);
	/*
	 * The kernel sizes a dump's buffers by what this socket reads at once:
	 * room for the largest message (a device of 64 queues, about 7 KiB).
	 */
	if (const int rc = nl_socket_set_msg_buf_size(sock_.get(), 32768); rc < 0)
		throw Error::from_libnl("sizing the netlink receive buffer", rc);

	/* Have the kernel explain its refusals; older kernels just don't. */
	const int one = 1;
	if (setsockopt(fd(), SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one)) < 0 &&
	    errno != ENOPROTOOPT)
		throw Error("enabling netlink extended acks", errno);
}

std::optional<int> GenlSocket::resolve_family(const char *name)
{
	const int id = genl_ctrl_resolve(sock_.get(), name);
	if (id == -NLE_OBJ_NOTFOUND)
		return std::nullopt;
	if (id < 0)
		throw Error::from_libnl(std::string("resolving generic netlink family ") + name, id);
	return id;
}

std::optional<int> GenlSocket::resolve_group(const char *family, const char *group)
{
	const int id = genl_ctrl_resolve_grp(sock_.get(), family, group);
	if (id == -NLE_OBJ_NOTFOUND)
		return std::nullopt;
	if (id < 0)
		throw Error::from_libnl(std::string("resolving multicast group ") + family + "/" +
						group,
					id);
	return id;
}

std::vector<Msg> GenlSocket::transact(nl_msg &request, std::string_view what)
{
	if (const int rc = nl_send_auto(sock_.get(), &request); rc < 0)
		throw Error::from_libnl(std::string(what), rc);

	Receiver receiver(true);
	while (!receiver.done())
		receiver.receive(*sock_, what);
	return receiver.take();
}

void GenlSocket::subscribe(int group, std::string_view what)
{
	if (int rc = nl_socket_add_membership(sock_.get(), group); rc < 0)
		throw Error::from_libnl(std::string(what), rc);
	if (int rc = nl_socket_set_nonblocking(sock_.get()); rc < 0)
		throw Error::from_libnl(std::string(what), rc);
}

std::vector<Msg> GenlSocket::receive(std::string_view what)
{
	Receiver receiver(false);
	receiver.receive(*sock_, what);
	return receiver.take();
}

int GenlSocket::fd() const noexcept
{
	return nl_socket_get_fd(sock_.get());
}

} // namespace rdmablk::nl
