// SPDX-License-Identifier: GPL-2.0
/*
 * The commands rdmablkctl carries out itself, without rdmablkd (Mode::local).
 */
#pragma once

#include "outcome.hpp"

namespace rdmablk::rdmablkctl {

/*
 * Carry out invocation.request here: key_generate prints a new key,
 * "RDMABLK-1:HH:BASE64:" and a newline, or under -o json {"key": ...}.
 */
Outcome run_local(const Invocation &invocation);

} // namespace rdmablk::rdmablkctl
