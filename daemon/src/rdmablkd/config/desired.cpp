// SPDX-License-Identifier: GPL-2.0
#include "config/desired.hpp"

namespace rdmablk::daemon {

DesiredState::DesiredState(Config initial, Saver saver, Checker checker)
	: saver_(std::move(saver)), checker_(std::move(checker)), config_(std::move(initial))
{
}

Config DesiredState::get() const
{
	std::lock_guard guard(lock_);
	return config_;
}

void DesiredState::update(const std::function<void(Config &)> &change)
{
	std::lock_guard serial(update_lock_);
	Config next = get();
	change(next);
	if (next == get())
		return;
	try {
		saver_(next);
	} catch (const SaveError &) {
		throw;
	} catch (const std::exception &e) {
		throw SaveError(e.what());
	}
	std::lock_guard guard(lock_);
	config_ = std::move(next);
}

void DesiredState::check() const
{
	if (checker_)
		checker_();
}

void DesiredState::replace(Config config)
{
	std::lock_guard serial(update_lock_);
	std::lock_guard guard(lock_);
	config_ = std::move(config);
}

} // namespace rdmablk::daemon
