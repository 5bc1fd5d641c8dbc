// SPDX-License-Identifier: GPL-2.0
/*
 * The desired state, shared by the two threads: the event loop reads it
 * (to answer list, to judge events), the worker changes it right after
 * the kernel change it goes with, so that a reconcile pass, which reads it
 * on the worker too, never sees a configuration older than the kernel.
 *
 * A change is saved to the configuration file before it is visible; if
 * saving fails, nothing changes.
 */
#pragma once

#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>

#include "config/config.hpp"

namespace rdmablk::daemon {

/* The configuration file could not be written; what() says why. */
class SaveError : public std::runtime_error {
public:
	using runtime_error::runtime_error;
};

/*
 * The file was edited since the daemon last read or wrote it: writing
 * would lose the edit. what() says so and what to do.
 */
class ConfigChanged : public SaveError {
public:
	using SaveError::SaveError;
};

class DesiredState {
public:
	/* Writes @config somewhere lasting; throws when it cannot. */
	using Saver = std::function<void(const Config &)>;
	/* Throws ConfigChanged when saving now would lose an edit. */
	using Checker = std::function<void()>;

	DesiredState(Config initial, Saver saver, Checker checker = {});

	Config get() const;

	/*
	 * Apply @change to a copy, save it, then make it current. Throws
	 * SaveError (ConfigChanged when the file was edited meanwhile).
	 */
	void update(const std::function<void(Config &)> &change);

	/* Whether an update could be saved now: throws ConfigChanged if not. */
	void check() const;

	/* Make @config current without saving (it was just read from the file). */
	void replace(Config config);

private:
	Saver saver_;
	Checker checker_;
	std::mutex update_lock_; /* one update at a time, held while saving */
	mutable std::mutex lock_; /* config_ */
	Config config_;
};

} // namespace rdmablk::daemon
