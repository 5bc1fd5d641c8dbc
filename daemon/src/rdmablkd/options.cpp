// SPDX-License-Identifier: GPL-2.0
#include "options.hpp"

#include <cstdlib>

#include <getopt.h>

#include "config/config.hpp"
#include "ctl/protocol.hpp"

namespace rdmablk::daemon {

namespace {

enum : int {
	opt_state_dir = 256,
	opt_hostid_file,
	opt_systemd,
	opt_journal,
	opt_no_modprobe,
	opt_check_config,
};

} // namespace

std::string usage_text()
{
	return R"(Usage: rdmablkd [OPTIONS]

The rdmablk daemon: sets up and keeps up the listeners, exports and
attachments of /etc/rdmablk/rdmablk.conf, and serves rdmablkctl.

Options:
  -c, --config PATH     configuration file (default: $RDMABLK_CONFIG or
                        /etc/rdmablk/rdmablk.conf)
  -s, --socket PATH     control socket (default: $RDMABLK_SOCKET or
                        /run/rdmablk/rdmablkd.sock)
      --state-dir DIR   runtime state (default: /var/lib/rdmablk)
      --hostid-file PATH  this host's id, created when missing
                        (default: /etc/rdmablk/hostid)
      --systemd         tell systemd when ready (also when $NOTIFY_SOCKET is set)
      --journal         log to the journal (also when stderr is the journal)
      --no-modprobe     do not run "modprobe rdmablk" when the module is missing
      --check-config    check the configuration file, print what is wrong, exit
  -V, --version         print the version and exit
  -h, --help            print this help and exit

See rdmablkd(8) and rdmablk.conf(5).
)";
}

Options parse_options(int argc, char **argv)
{
	static const option long_options[] = {
		{"config", required_argument, nullptr, 'c'},
		{"socket", required_argument, nullptr, 's'},
		{"state-dir", required_argument, nullptr, opt_state_dir},
		{"hostid-file", required_argument, nullptr, opt_hostid_file},
		{"systemd", no_argument, nullptr, opt_systemd},
		{"journal", no_argument, nullptr, opt_journal},
		{"no-modprobe", no_argument, nullptr, opt_no_modprobe},
		{"check-config", no_argument, nullptr, opt_check_config},
		{"version", no_argument, nullptr, 'V'},
		{"help", no_argument, nullptr, 'h'},
		{nullptr, 0, nullptr, 0},
	};

	Options opts;
	std::optional<std::string> config;
	std::optional<std::string> socket;
	optind = 0; /* full reinitialisation, so that tests may parse several times */
	opterr = 0;
	for (;;) {
		const int c = getopt_long(argc, argv, ":c:s:Vh", long_options, nullptr);
		if (c == -1)
			break;
		switch (c) {
		case 'c':
			config = optarg;
			break;
		case 's':
			socket = optarg;
			break;
		case opt_state_dir:
			opts.state_dir = optarg;
			break;
		case opt_hostid_file:
			opts.hostid_file = optarg;
			break;
		case opt_systemd:
			opts.notify = true;
			break;
		case opt_journal:
			opts.journal = true;
			break;
		case opt_no_modprobe:
			opts.modprobe = false;
			break;
		case opt_check_config:
			opts.check_config = true;
			break;
		case 'V':
			opts.version = true;
			break;
		case 'h':
			opts.help = true;
			break;
		case ':':
			throw UsageError(std::string("option ") + argv[optind - 1] +
					 " needs an argument");
		default:
			throw UsageError(std::string("unknown option ") + argv[optind - 1]);
		}
	}
	if (optind < argc)
		throw UsageError(std::string("unexpected argument ") + argv[optind]);

	opts.config = config_path(config);
	opts.socket = socket ? *socket : ctl::default_socket_path();
	if (const char *notify = std::getenv("NOTIFY_SOCKET"); notify && *notify)
		opts.notify = true;
	for (const std::string *path : {&opts.config, &opts.socket, &opts.state_dir,
					&opts.hostid_file})
		if (path->empty())
			throw UsageError("a path option is empty");
	return opts;
}

} // namespace rdmablk::daemon
