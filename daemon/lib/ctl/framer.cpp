// SPDX-License-Identifier: GPL-2.0
#include "ctl/framer.hpp"

#include "ctl/protocol.hpp"

namespace rdmablk::ctl {

void LineFramer::feed(std::string_view bytes)
{
	buffer_.append(bytes);
}

std::optional<std::string> LineFramer::next_line()
{
	const std::size_t newline = buffer_.find('\n', scanned_);
	const std::size_t length = newline == std::string::npos ? buffer_.size() : newline;
	if (length > max_line) {
		buffer_.clear();
		scanned_ = 0;
		throw ProtocolError("message longer than " + std::to_string(max_line) + " bytes");
	}
	if (newline == std::string::npos) {
		scanned_ = buffer_.size();
		return std::nullopt;
	}

	std::string line = buffer_.substr(0, newline);
	buffer_.erase(0, newline + 1);
	scanned_ = 0;
	return line;
}

} // namespace rdmablk::ctl
