// SPDX-License-Identifier: GPL-2.0
#include "nl/dev_name.hpp"

#include <algorithm>
#include <charconv>
#include <stdexcept>
#include <string>

namespace rdmablk::nl {

std::uint32_t parse_dev_index(std::string_view text)
{
	std::string_view digits = text;
	for (const std::string_view prefix : {"/dev/rdmablk", "rdmablk"}) {
		if (digits.starts_with(prefix)) {
			digits.remove_prefix(prefix.size());
			break;
		}
	}

	const auto invalid = [text](std::string_view problem) {
		return std::invalid_argument("invalid device \"" + std::string(text) +
					     "\": " + std::string(problem));
	};
	if (digits.empty() ||
	    !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
		throw invalid("expected N, rdmablkN or /dev/rdmablkN");

	std::uint32_t index;
	const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
	if (ec != std::errc() || end != digits.data() + digits.size())
		throw invalid("device number out of range");
	return index;
}

} // namespace rdmablk::nl
