// SPDX-License-Identifier: GPL-2.0
/*
 * Reading small files whole.
 */
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace rdmablk::nl {

/*
 * The first @max bytes of file @path (all of it when it is shorter), or
 * nullopt when it does not exist. Any other failure is an Error naming @path.
 */
std::optional<std::string> read_file(const std::string &path, std::size_t max);

} // namespace rdmablk::nl
