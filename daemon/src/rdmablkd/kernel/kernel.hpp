// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel as rdmablkd's worker thread sees it. NlKernel talks to
 * rdmablk.ko; tests substitute a fake that keeps its objects in memory.
 *
 * Every operation throws nl::Error (errno and the kernel's extack message)
 * when the kernel refuses, and nl::FamilyNotFound when rdmablk.ko is not
 * loaded.
 */
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "nl/client.hpp"
#include "nl/types.hpp"
#include "engine/reconcile.hpp"

namespace rdmablk::daemon {

class Kernel {
public:
	virtual ~Kernel() = default;

	virtual nl::Info get_info() = 0;
	virtual void listen_add(const nl::Endpoint &endpoint) = 0;
	virtual void listen_del(const nl::Endpoint &endpoint) = 0;
	virtual std::vector<nl::Listener> listen_get() = 0;
	virtual void export_add(std::string_view name, std::string_view path, const nl::Uuid &uuid,
				bool read_only, const std::vector<nl::Uuid> &allowed_hosts,
				bool auth_required) = 0;
	virtual void export_del(std::string_view name) = 0;
	virtual std::vector<nl::Export> export_get() = 0;
	virtual nl::Device attach(const nl::AttachArgs &args) = 0;
	virtual void detach(std::uint32_t index) = 0;
	virtual void reconnect(std::uint32_t index) = 0;
	virtual void dev_set(std::uint32_t index, const nl::DevSetArgs &args) = 0;
	virtual std::vector<nl::Device> dev_get() = 0;
	/* Paths of a device: the device with its new path; remove one; standby or active. */
	virtual nl::Device path_add(const nl::PathArgs &args) = 0;
	virtual void path_del(const nl::PathArgs &args) = 0;
	virtual void path_set(const nl::PathArgs &args) = 0;
	/*
	 * The target's keys for host @id; @target_key empty: none. @reauth:
	 * the host's live connections are closed and authenticate again.
	 */
	virtual void host_set(const nl::Uuid &id, std::span<const std::uint8_t> key,
			      std::span<const std::uint8_t> target_key, bool reauth) = 0;
	/* Forget @id's keys; the kernel closes its live connections. */
	virtual void host_del(const nl::Uuid &id) = 0;
	virtual std::vector<nl::Host> host_get() = 0;

	/*
	 * Counts the times the connection to the family was made anew because
	 * rdmablk.ko was reloaded: event subscriptions made before are stale.
	 */
	virtual unsigned generation() const = 0;

	/* The four dumps. */
	Snapshot snapshot();

	/* The device of @attachment's target and export now, if attached. */
	std::optional<nl::Device> device_of(const AttachmentConfig &attachment);
};

/*
 * rdmablk.ko over generic netlink. When a request fails in a way that may
 * mean the module was unloaded (and maybe loaded again), the family is
 * looked up anew: gone, the request fails with nl::FamilyNotFound; back
 * under another id, the request is sent again once.
 */
class NlKernel final : public Kernel {
public:
	/* Throws nl::FamilyNotFound without rdmablk.ko. */
	NlKernel();

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
	nl::Device path_add(const nl::PathArgs &args) override;
	void path_del(const nl::PathArgs &args) override;
	void path_set(const nl::PathArgs &args) override;
	void host_set(const nl::Uuid &id, std::span<const std::uint8_t> key,
		      std::span<const std::uint8_t> target_key, bool reauth) override;
	void host_del(const nl::Uuid &id) override;
	std::vector<nl::Host> host_get() override;
	unsigned generation() const override { return generation_; }

private:
	template <typename Op> auto call(Op op);

	/* Look the family up again; true when it is registered under a new id. */
	bool refreshed();

	std::unique_ptr<nl::Client> client_;
	unsigned generation_ = 0;
};

} // namespace rdmablk::daemon
