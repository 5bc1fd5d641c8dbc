// SPDX-License-Identifier: GPL-2.0
/*
 * What rdmablk.ko tells userspace, as plain values.
 */
#pragma once

#include <cstdint>

#include <linux/rdmablk.h>
#include <optional>
#include <string>
#include <vector>

#include "nl/endpoint.hpp"
#include "nl/uuid.hpp"

namespace rdmablk::nl {

/* A host the target holds keys for; never the keys. */
struct Host {
	Uuid hostid;
	std::uint32_t hmac = 0;	       /* enum rdmablk_auth_hmac of its key */
	std::uint32_t target_hmac = 0; /* of the target's key for it; 0: none */
	std::uint64_t auth_ok = 0;     /* exchanges that succeeded */
	std::uint64_t auth_failed = 0; /* exchanges refused */

	bool operator==(const Host &) const = default;
};

/* RDMABLK_CMD_GET_INFO reply. */
struct Info {
	std::string module_version;
	std::uint32_t genl_version = 0;
	std::uint32_t proto_version = 0;
	std::uint64_t features = 0; /* RDMABLK_FEAT_* */

	bool operator==(const Info &) const = default;
};

/* One RDMABLK_CMD_LISTEN_GET dump entry. */
struct Listener {
	std::string addr;
	std::uint16_t port = 0;
	std::uint32_t state = 0; /* enum rdmablk_listener_state */

	bool operator==(const Listener &) const = default;
};

/* One RDMABLK_CMD_EXPORT_GET dump entry: a block device the target serves. */
struct Export {
	std::string name;
	std::string path;
	Uuid uuid;
	std::uint64_t size = 0; /* bytes */
	std::uint32_t logical_block_size = 0;
	std::uint32_t physical_block_size = 0;
	bool read_only = false;
	bool auth_required = false; /* only authenticated hosts open it, or see it listed */
	std::uint32_t nr_connections = 0;
	/* The hosts that may connect; empty: every host. */
	std::vector<Uuid> allowed_hosts;

	bool operator==(const Export &) const = default;
};

/*
 * One I/O queue of a device. The counters below errors are 0 when the
 * module leaves them out; over an interval, latency_us's growth divided by
 * completed's is the mean latency.
 */
struct QueueInfo {
	std::uint32_t id = 0;
	std::uint32_t state = 0;       /* enum rdmablk_queue_state */
	std::uint64_t commands = 0;    /* sent */
	std::uint64_t errors = 0;      /* completed with an error */
	std::uint64_t completed = 0;   /* with or without an error */
	std::uint64_t requeued = 0;    /* put back after a loss, to be sent again */
	std::uint64_t read_bytes = 0;  /* of the reads completed without an error */
	std::uint64_t write_bytes = 0; /* of the writes completed without an error */
	std::uint64_t latency_us = 0;  /* the completed requests' latencies added up */

	bool operator==(const QueueInfo &) const = default;
};

/*
 * One path of a device: a target address it reaches the export by. The
 * counters are its queues' added up; failover_age_ms is 0 until its first
 * failover.
 */
struct PathInfo {
	std::uint32_t id = 0; /* its number in the device */
	Endpoint target;
	std::uint32_t state = 0;	     /* enum rdmablk_dev_state */
	bool standby = false;		     /* used only while no other path is live */
	std::uint32_t inflight = 0;	     /* requests sent on it, not completed */
	std::uint64_t latency_us = 0;	     /* moving average of its latencies */
	std::uint64_t commands = 0;	     /* sent */
	std::uint64_t completed = 0;	     /* with or without an error */
	std::uint64_t errors = 0;	     /* completed with an error */
	std::uint64_t requeued = 0;	     /* put back after a loss, to be sent again */
	std::uint32_t failovers = 0;	     /* times its loss moved its requests */
	std::uint64_t failover_age_ms = 0;   /* since the last of those */
	std::uint32_t reconnect_attempt = 0; /* since its connection was lost */
	std::uint32_t next_attempt_ms = 0;   /* when reconnecting */
	std::uint32_t reconnects = 0;	     /* successful ones */
	/* Why its connection was lost or its last attempt failed. */
	std::optional<std::string> last_error;

	bool operator==(const PathInfo &) const = default;
};

/*
 * One RDMABLK_CMD_DEV_GET dump entry, or the RDMABLK_CMD_ATTACH or
 * RDMABLK_CMD_PATH_ADD reply: /dev/rdmablkN. target and the recovery
 * progress are its first path's.
 */
struct Device {
	std::uint32_t index = 0; /* N */
	std::string name;	 /* "rdmablkN" */
	Endpoint target;
	std::string export_name;
	Uuid uuid; /* the export's */
	std::uint64_t size = 0; /* bytes */
	std::uint32_t logical_block_size = 0;
	std::uint32_t physical_block_size = 0;
	bool read_only = false;
	std::uint32_t nr_queues = 0;	   /* interrupt-driven */
	std::uint32_t nr_poll_queues = 0; /* polled, after those; 0 from an older module */
	std::uint32_t queue_depth = 0;
	std::uint32_t state = 0; /* enum rdmablk_dev_state */
	/* Recovery settings, seconds; 0 when the module leaves them out. */
	std::uint32_t reconnect_delay = 0;
	std::int32_t ctrl_loss_tmo = 0;	   /* RDMABLK_TMO_OFF: never give up */
	std::int32_t fast_io_fail_tmo = 0; /* RDMABLK_TMO_OFF: off */
	std::uint32_t keepalive_tmo = 0;
	/* Recovery progress; 0 when the module leaves them out. */
	std::uint32_t reconnect_attempt = 0; /* since the connection was lost */
	std::uint32_t reconnect_max = 0;     /* attempts before giving up, 0: unlimited */
	std::uint32_t next_attempt_ms = 0;   /* when reconnecting */
	std::uint32_t reconnects = 0;        /* successful ones since attach */
	std::uint32_t auth = RDMABLK_AUTH_MODE_NONE; /* enum rdmablk_auth_mode */
	/* Why the connection was lost or the last attempt failed. */
	std::optional<std::string> last_error;
	std::vector<QueueInfo> queues;
	/* Multipath; 0 and none from a module without it. */
	std::uint32_t mp_policy = 0; /* enum rdmablk_mp_policy */
	std::vector<PathInfo> paths = {};

	bool operator==(const Device &) const = default;
};

/* The export an export event is about. */
struct ExportRef {
	std::string name;
	Uuid uuid;

	bool operator==(const ExportRef &) const = default;
};

/* An RDMABLK_CMD_EVENT notification. */
struct Event {
	std::uint32_t type = 0; /* enum rdmablk_event */
	/* The object concerned: at most one is set, as the type says. */
	std::optional<Endpoint> listener;
	std::optional<ExportRef> export_ref;
	std::optional<Device> device;
	/* The path of the device a path event is about. */
	std::optional<std::uint32_t> path_id;
	/* What caused it, when the module says. */
	std::optional<std::string> reason;

	bool operator==(const Event &) const = default;
};

} // namespace rdmablk::nl
