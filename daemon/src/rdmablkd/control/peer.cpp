// SPDX-License-Identifier: GPL-2.0
#include "control/peer.hpp"

#include <string>

#include <sys/socket.h>

namespace rdmablk::daemon {

std::optional<uid_t> peer_uid(int fd)
{
	ucred cred{};
	socklen_t len = sizeof(cred);
	if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0 || len != sizeof(cred))
		return std::nullopt;
	return cred.uid;
}

std::optional<ctl::Response> refuse_peer(std::optional<uid_t> uid)
{
	if (uid && *uid == 0)
		return std::nullopt;
	const std::string who = uid ? "uid " + std::to_string(*uid) : "an unknown user";
	return ctl::fail(ctl::code::permission_denied,
			 "rdmablkd accepts requests from root only, not from " + who,
			 "run rdmablkctl as root (sudo rdmablkctl ...)");
}

} // namespace rdmablk::daemon
