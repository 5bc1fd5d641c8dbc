// SPDX-License-Identifier: GPL-2.0
#include <cerrno>

#include "kernel/kernel.hpp"
#include "nl/error.hpp"

namespace rdmablk::daemon {

namespace {

/* What generic netlink answers for a family id nobody has any more. */
bool maybe_family_gone(const nl::Error &e)
{
	return e.errnum() == ENOENT || e.errnum() == EOPNOTSUPP;
}

} // namespace

NlKernel::NlKernel() : client_(std::make_unique<nl::Client>(nl::Client::connect())) {}

bool NlKernel::refreshed()
{
	auto fresh = std::make_unique<nl::Client>(nl::Client::connect());
	if (fresh->family() == client_->family())
		return false;
	client_ = std::move(fresh);
	generation_++;
	return true;
}

template <typename Op> auto NlKernel::call(Op op)
{
	try {
		return op(*client_);
	} catch (const nl::FamilyNotFound &) {
		throw;
	} catch (const nl::Error &e) {
		if (!maybe_family_gone(e) || !refreshed())
			throw;
	}
	return op(*client_);
}

nl::Info NlKernel::get_info()
{
	return call([](nl::Client &c) { return c.get_info(); });
}

void NlKernel::listen_add(const nl::Endpoint &endpoint)
{
	call([&](nl::Client &c) { c.listen_add(endpoint); });
}

void NlKernel::listen_del(const nl::Endpoint &endpoint)
{
	call([&](nl::Client &c) { c.listen_del(endpoint); });
}

std::vector<nl::Listener> NlKernel::listen_get()
{
	return call([](nl::Client &c) { return c.listen_get(); });
}

void NlKernel::export_add(std::string_view name, std::string_view path, const nl::Uuid &uuid,
			  bool read_only, const std::vector<nl::Uuid> &allowed_hosts,
			  bool auth_required)
{
	call([&](nl::Client &c) {
		c.export_add(name, path, uuid, read_only, allowed_hosts, auth_required);
	});
}

void NlKernel::host_set(const nl::Uuid &id, std::span<const std::uint8_t> key,
			std::span<const std::uint8_t> target_key, bool reauth)
{
	call([&](nl::Client &c) { c.host_set(id, key, target_key, reauth); });
}

void NlKernel::host_del(const nl::Uuid &id)
{
	call([&](nl::Client &c) { c.host_del(id); });
}

std::vector<nl::Host> NlKernel::host_get()
{
	return call([](nl::Client &c) { return c.host_get(); });
}

void NlKernel::export_del(std::string_view name)
{
	call([&](nl::Client &c) { c.export_del(name); });
}

std::vector<nl::Export> NlKernel::export_get()
{
	return call([](nl::Client &c) { return c.export_get(); });
}

nl::Device NlKernel::attach(const nl::AttachArgs &args)
{
	return call([&](nl::Client &c) { return c.attach(args); });
}

void NlKernel::detach(std::uint32_t index)
{
	call([&](nl::Client &c) { c.detach(index); });
}

void NlKernel::reconnect(std::uint32_t index)
{
	call([&](nl::Client &c) { c.reconnect(index); });
}

void NlKernel::dev_set(std::uint32_t index, const nl::DevSetArgs &args)
{
	call([&](nl::Client &c) { c.dev_set(index, args); });
}

std::vector<nl::Device> NlKernel::dev_get()
{
	return call([](nl::Client &c) { return c.dev_get(); });
}

nl::Device NlKernel::path_add(const nl::PathArgs &args)
{
	return call([&](nl::Client &c) { return c.path_add(args); });
}

void NlKernel::path_del(const nl::PathArgs &args)
{
	call([&](nl::Client &c) { c.path_del(args); });
}

void NlKernel::path_set(const nl::PathArgs &args)
{
	call([&](nl::Client &c) { c.path_set(args); });
}

} // namespace rdmablk::daemon
