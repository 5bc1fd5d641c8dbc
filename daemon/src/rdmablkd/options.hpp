// SPDX-License-Identifier: GPL-2.0
/*
 * rdmablkd's command line (rdmablkd(8)).
 */
#pragma once

#include <stdexcept>
#include <string>

namespace rdmablk::daemon {

struct Options {
	std::string config;	  /* --config, $RDMABLK_CONFIG, /etc/rdmablk/rdmablk.conf */
	std::string socket;	  /* --socket, $RDMABLK_SOCKET, /run/rdmablk/rdmablkd.sock */
	std::string state_dir = "/var/lib/rdmablk";
	std::string hostid_file = "/etc/rdmablk/hostid";
	bool notify = false;	  /* --systemd, or $NOTIFY_SOCKET set */
	bool journal = false;	  /* --journal */
	bool modprobe = true;	  /* try "modprobe rdmablk" when the module is missing */
	bool check_config = false; /* parse the configuration, report, exit */
	bool help = false;
	bool version = false;
};

/* A command line rdmablkd cannot make sense of; what() says what is wrong. */
class UsageError : public std::runtime_error {
public:
	using runtime_error::runtime_error;
};

Options parse_options(int argc, char **argv);

std::string usage_text();

} // namespace rdmablk::daemon
