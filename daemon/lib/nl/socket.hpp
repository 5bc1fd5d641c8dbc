// SPDX-License-Identifier: GPL-2.0
/*
 * A generic netlink socket with extended acknowledgements turned on.
 */
#pragma once

#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include <netlink/socket.h>

#include "nl/message.hpp"
#include "nl/transport.hpp"

namespace rdmablk::nl {

struct SockFree {
	void operator()(nl_sock *sock) const noexcept { nl_socket_free(sock); }
};

class GenlSocket final : public Transport {
public:
	/* Connect to NETLINK_GENERIC; throws Error. */
	GenlSocket();

	/* The id of family @name; nullopt when no such family is registered. */
	std::optional<int> resolve_family(const char *name);

	/* The id of multicast group @group of family @family; nullopt when there is none. */
	std::optional<int> resolve_group(const char *family, const char *group);

	std::vector<Msg> transact(nl_msg &request, std::string_view what) override;

	/*
	 * Join multicast group @group and make the socket non-blocking, to
	 * poll() on fd() and receive() from; a subscribed socket sends no more
	 * requests.
	 */
	void subscribe(int group, std::string_view what);

	/* The messages that have arrived, maybe none; never blocks once subscribed. */
	std::vector<Msg> receive(std::string_view what);

	int fd() const noexcept;

private:
	std::unique_ptr<nl_sock, SockFree> sock_;
};

} // namespace rdmablk::nl
