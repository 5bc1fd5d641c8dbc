// SPDX-License-Identifier: GPL-2.0
#include "host_identity.hpp"

#include <cerrno>
#include <stdexcept>

#include <sys/stat.h>

#include "config/atomic_file.hpp"
#include "nl/hostid.hpp"

namespace rdmablk::daemon {

HostIdentity ensure_hostid(const std::string &path)
{
	HostIdentity identity;
	struct stat st;
	if (::stat(path.c_str(), &st) < 0) {
		if (errno != ENOENT)
			throw std::runtime_error(path + ": cannot be read");
		identity.id = nl::generate_uuid();
		make_dirs(parent_dir(path), 0755);
		write_atomic(path, nl::to_string(identity.id) + "\n", 0644);
		identity.created = true;
		return identity;
	}
	/* No fallback to the machine id: the file exists. */
	identity.id = nl::read_hostid(path, path);
	return identity;
}

} // namespace rdmablk::daemon
