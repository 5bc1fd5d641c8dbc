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

#include "config.hpp"

namespace rdmablk::daemon {

/* The configuration file could not be written; what() says why. */
class SaveError : public std::runtime_error {
public:
	using runtime_error::runtime_error;
};

class DesiredState {
public:
	/* Writes @config somewhere lasting; throws when it cannot. */
	using Saver = std::function<void(const Config &)>;

	DesiredState(Config initial, Saver saver);

	Config get() const;

	/* Apply @change to a copy, save it, then make it current. Throws SaveError. */
	void update(const std::function<void(Config &)> &change);

	/* Make @config current without saving (it was just read from the file). */
	void replace(Config config);

private:
	Saver saver_;
	std::mutex update_lock_; /* one update at a time, held while saving */
	mutable std::mutex lock_; /* config_ */
	Config config_;
};

} // namespace rdmablk::daemon
