// SPDX-License-Identifier: GPL-2.0
/*
 * Naming an attached device: /dev/rdmablkN.
 */
#pragma once

#include <cstdint>
#include <string_view>

namespace rdmablk::nl {

/*
 * N of "N", "rdmablkN" or "/dev/rdmablkN", N being decimal. Throws
 * std::invalid_argument with a message that quotes @text and says what is wrong.
 */
std::uint32_t parse_dev_index(std::string_view text);

} // namespace rdmablk::nl
