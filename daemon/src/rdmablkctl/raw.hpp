// SPDX-License-Identifier: GPL-2.0
/*
 * The command line's options and arguments as given, before they are checked.
 */
#pragma once

#include <string>
#include <vector>

namespace rdmablk::rdmablkctl {

/* Every option as given on the command line, checked once parsing is done. */
struct Raw {
	std::string output = "text";
	std::string socket;
	std::string timeout;

	std::string endpoint;
	std::string name;
	std::string path;
	std::string uuid;
	bool read_only = false;
	std::vector<std::string> allow;
	bool auth_required = false;
	/* attach, discovery add, host add: key files */
	std::string key_file;
	std::string target_key_file;
	/* host add, host del */
	std::string hostid;
	/* host add: close the host's sessions too */
	bool reauth = false;
	std::string device;
	/* discovery add --attach: "all", export names, export UUIDs. */
	std::vector<std::string> attach;
	/* attach --path, --standby: more addresses of the target, and which are standby. */
	std::vector<std::string> paths;
	std::vector<std::string> standby;
	/* attach, discovery add, dev-set --policy */
	std::string policy;
	/* path add --standby; path set --standby or --active */
	bool standby_flag = false;
	bool active_flag = false;

	std::string queues;
	std::string poll_queues;
	std::string queue_depth;
	std::string reconnect_delay;
	std::string ctrl_loss_tmo;
	std::string fast_io_fail_tmo;
	std::string keepalive_tmo;

	/* monitor --count, stat --count */
	std::string count;
	/* stat --interval, --queues */
	std::string interval;
	bool per_queue = false;

	/* key generate --hmac */
	std::string hmac;
};

} // namespace rdmablk::rdmablkctl
