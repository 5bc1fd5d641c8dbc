// SPDX-License-Identifier: GPL-2.0
#include "kernel/kernel_probe.hpp"

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <signal.h>
#include <spawn.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include <linux/rdmablk.h>

#include "nl/error.hpp"

extern char **environ;

namespace rdmablk::daemon {

namespace {

constexpr const char *modprobe_path = "/sbin/modprobe";

/* "modprobe rdmablk" and how it went, in words. */
std::string run_modprobe()
{
	posix_spawnattr_t attr;
	posix_spawnattr_init(&attr);
	sigset_t none;
	sigemptyset(&none);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK);
	char arg0[] = "modprobe";
	char arg1[] = "rdmablk";
	char *argv[] = {arg0, arg1, nullptr};
	pid_t pid;
	const int err = posix_spawn(&pid, modprobe_path, nullptr, &attr, argv, environ);
	posix_spawnattr_destroy(&attr);
	if (err)
		return std::string("cannot run ") + modprobe_path + ": " + std::strerror(err);
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return std::string("waiting for modprobe: ") + std::strerror(errno);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return {};
	if (WIFEXITED(status))
		return "modprobe rdmablk failed with exit status " +
		       std::to_string(WEXITSTATUS(status));
	return "modprobe rdmablk was killed by signal " + std::to_string(WTERMSIG(status));
}

std::string kernel_release()
{
	utsname u;
	return uname(&u) == 0 ? u.release : "this kernel";
}

} // namespace

ProbedKernel probe_kernel(bool modprobe, Logger &log)
{
	ProbedKernel probed;
	try {
		probed.kernel = std::make_unique<NlKernel>();
	} catch (const nl::FamilyNotFound &) {
		if (!modprobe)
			throw std::runtime_error("the rdmablk kernel module is not loaded (no generic "
						 "netlink family \"rdmablk\"); load it: modprobe "
						 "rdmablk");
		log.notice("the rdmablk kernel module is not loaded; running modprobe rdmablk");
		const std::string problem = run_modprobe();
		try {
			probed.kernel = std::make_unique<NlKernel>();
		} catch (const nl::FamilyNotFound &) {
			throw std::runtime_error(
				"the rdmablk kernel module is not loaded and " +
				(problem.empty() ? std::string("modprobe rdmablk did not register it")
						 : problem) +
				"; is rdmablk.ko installed for " + kernel_release() +
				" (make install, or dkms status)?");
		}
	}
	try {
		probed.info = probed.kernel->get_info();
	} catch (const nl::Error &e) {
		throw std::runtime_error(std::string("rdmablk.ko does not answer: ") + e.what());
	}
	if (probed.info.genl_version != RDMABLK_GENL_VERSION)
		throw std::runtime_error("rdmablk.ko " + probed.info.module_version +
					 " speaks netlink version " +
					 std::to_string(probed.info.genl_version) +
					 ", this rdmablkd version " +
					 std::to_string(RDMABLK_GENL_VERSION) +
					 "; install matching versions");
	return probed;
}

} // namespace rdmablk::daemon
