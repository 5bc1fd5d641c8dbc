// SPDX-License-Identifier: GPL-2.0
/*
 * Results as rdmablkd sends them (docs/control-socket.md), for the
 * formatting tests.
 */
#pragma once

#include <nlohmann/json.hpp>

namespace rdmablk::rdmablkctl::samples {

inline nlohmann::json live_device()
{
	return nlohmann::json::parse(R"({
		"device": "/dev/rdmablk0", "index": 0, "address": "192.0.2.1", "port": 7471,
		"export": "db0", "uuid": "6b1a0c2e-0000-4000-8000-000000000001",
		"size": 268435456, "logical_block_size": 512, "physical_block_size": 4096,
		"read_only": false, "queues": 2, "queue_depth": 128, "state": "live",
		"reconnect_delay": 10, "ctrl_loss_tmo": 600, "fast_io_fail_tmo": -1,
		"keepalive_tmo": 5, "reconnect_attempt": 0, "reconnect_max": 60,
		"next_attempt_ms": 0, "last_error": ""})");
}

inline nlohmann::json reconnecting_device()
{
	nlohmann::json device = live_device();
	device.update({{"device", "/dev/rdmablk1"},
		       {"index", 1},
		       {"address", "2001:db8::7"},
		       {"export", "logs"},
		       {"size", 1073741824},
		       {"read_only", true},
		       {"state", "reconnecting"},
		       {"reconnect_attempt", 3},
		       {"next_attempt_ms", 9500},
		       {"last_error", "keep-alive timeout"}});
	return device;
}

inline nlohmann::json pending_device()
{
	return nlohmann::json::parse(R"({
		"device": null, "index": null, "address": "192.0.2.9", "port": 7471,
		"export": "scratch", "uuid": null, "size": null, "logical_block_size": null,
		"physical_block_size": null, "read_only": null, "queues": 4, "queue_depth": null,
		"state": "pending", "reconnect_delay": null, "ctrl_loss_tmo": -1,
		"fast_io_fail_tmo": null, "keepalive_tmo": null, "reconnect_attempt": 2,
		"reconnect_max": 0, "next_attempt_ms": 4200, "retry_in_ms": 4200,
		"last_error": "connection refused", "managed": true})");
}

/* A queue as status reports it. */
struct Queue {
	long long id;
	long long commands = 0;
	long long completed = 0;
	long long errors = 0;
	long long requeued = 0;
	long long read_bytes = 0;
	long long write_bytes = 0;
	long long latency_us = 0;
	const char *state = "live";
};

inline nlohmann::json queue_status(const Queue &q)
{
	return {{"id", q.id},
		{"state", q.state},
		{"commands", q.commands},
		{"errors", q.errors},
		{"completed", q.completed},
		{"requeued", q.requeued},
		{"read_bytes", q.read_bytes},
		{"write_bytes", q.write_bytes},
		{"latency_us", q.latency_us}};
}

/*
 * @device as status reports it: queue N sent @base + N commands, all
 * completed, half of them reads of 4 KiB, the other half writes of 4 KiB,
 * in 100 us each.
 */
inline nlohmann::json with_status(nlohmann::json device, long long base)
{
	device["io"] = {{"reads", 1234},
			{"writes", 567},
			{"read_bytes", 5033164},
			{"write_bytes", 2306867}};
	device["reconnects"] = 1;
	device["queues_detail"] = nlohmann::json::array();
	for (int id = 0; id < device["queues"].get<int>(); id++) {
		const long long commands = base + id;
		device["queues_detail"].push_back(
			queue_status({.id = id,
				      .commands = commands,
				      .completed = commands,
				      .read_bytes = commands / 2 * 4096,
				      .write_bytes = (commands - commands / 2) * 4096,
				      .latency_us = commands * 100}));
	}
	return device;
}

inline nlohmann::json db0_export()
{
	return nlohmann::json::parse(R"({
		"name": "db0", "path": "/dev/vg0/db0", "uuid": "6b1a0c2e-0000-4000-8000-000000000001",
		"read_only": false, "allow": [], "size": 268435456, "logical_block_size": 512,
		"physical_block_size": 4096, "connections": 2})");
}

} // namespace rdmablk::rdmablkctl::samples
