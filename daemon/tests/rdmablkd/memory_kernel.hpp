// SPDX-License-Identifier: GPL-2.0
/*
 * A kernel for rdmablkd's tests: listeners, exports and devices kept in
 * memory, answering like rdmablk.ko (EEXIST, ENOENT), with failures to
 * order and a log of every request.
 */
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "kernel/kernel.hpp"
#include "engine/worker.hpp"

namespace rdmablk::daemon::test {

class MemoryKernel : public Kernel {
public:
	std::vector<nl::Listener> listeners;
	std::vector<nl::Export> exports;
	std::vector<nl::Device> devices;
	std::vector<nl::Host> hosts;
	/* The secrets the last host_set and attach were given, by host id / export name. */
	std::map<std::string, std::pair<std::vector<std::uint8_t>, std::vector<std::uint8_t>>>
		host_keys, attach_keys;
	/* Requests as "op arg": "listen_add 192.0.2.1:7471", "attach 192.0.2.1:7471/db0". */
	std::vector<std::string> requests;
	/* Requests that fail, by "op arg", with this errno and extack, until erased. */
	std::map<std::string, std::pair<int, std::string>> failures;
	/*
	 * The UUID the target at "addr:port/export" offers that export under:
	 * attaching one whose UUID a device has already fails with EEXIST and
	 * that UUID as the cookie, as rdmablk.ko does. Unset: all zeros, never
	 * compared.
	 */
	std::map<std::string, nl::Uuid> export_uuids;
	/* Devices attached get a policy and a path each, as from a module with multipath. */
	bool multipath = true;
	/* Every request fails with nl::FamilyNotFound while set. */
	bool unloaded = false;
	unsigned generation_count = 0;
	std::uint32_t next_index = 0;

	nl::Info get_info() override;
	void listen_add(const nl::Endpoint &endpoint) override;
	void listen_del(const nl::Endpoint &endpoint) override;
	std::vector<nl::Listener> listen_get() override;
	void export_add(std::string_view name, std::string_view path, const nl::Uuid &uuid,
			bool read_only, const std::vector<nl::Uuid> &allowed_hosts,
			bool auth_required) override;
	void export_del(std::string_view name) override;
	std::vector<nl::Export> export_get() override;
	nl::Device attach(const nl::AttachArgs &args) override;
	void detach(std::uint32_t index) override;
	void reconnect(std::uint32_t index) override;
	void dev_set(std::uint32_t index, const nl::DevSetArgs &args) override;
	std::vector<nl::Device> dev_get() override;
	/* Paths as rdmablk.ko keeps them: "path_add 0 198.51.100.7:7471". */
	nl::Device path_add(const nl::PathArgs &args) override;
	void path_del(const nl::PathArgs &args) override;
	void path_set(const nl::PathArgs &args) override;
	void host_set(const nl::Uuid &id, std::span<const std::uint8_t> key,
		      std::span<const std::uint8_t> target_key, bool reauth) override;
	void host_del(const nl::Uuid &id) override;
	std::vector<nl::Host> host_get() override;
	unsigned generation() const override { return generation_count; }

	/* Requests other than the dumps (listen_get, export_get, dev_get, host_get). */
	std::vector<std::string> changes() const;

	/* Put @dev in the kernel as if attached by someone, as /dev/rdmablk@index. */
	nl::Device &add_device(const std::string &addr, const std::string &export_name,
			       std::uint32_t state);

private:
	void request(const std::string &what);
	nl::Device &device(std::uint32_t index, const char *what);
};

/* Runs jobs on the caller's thread when asked: run() drains jobs and their Done. */
class QueueExecutor : public Executor {
public:
	explicit QueueExecutor(Kernel &kernel) : kernel_(kernel) {}

	void submit(Job job) override { jobs_.push_back(std::move(job)); }

	/* Run every job (and what their Done submit) until none is left. */
	void run();

	std::size_t queued() const { return jobs_.size(); }

private:
	Kernel &kernel_;
	std::vector<Job> jobs_;
};

} // namespace rdmablk::daemon::test
