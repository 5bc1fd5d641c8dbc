// SPDX-License-Identifier: GPL-2.0
#include "kernel/kernel.hpp"

namespace rdmablk::daemon {

Snapshot Kernel::snapshot()
{
	Snapshot snap;
	snap.listeners = listen_get();
	snap.hosts = host_get();
	snap.exports = export_get();
	snap.devices = dev_get();
	return snap;
}

std::optional<nl::Device> Kernel::device_of(const AttachmentConfig &attachment)
{
	const std::vector<nl::Device> devices = dev_get();
	if (const nl::Device *dev = find_device(devices, attachment))
		return *dev;
	return std::nullopt;
}

} // namespace rdmablk::daemon
