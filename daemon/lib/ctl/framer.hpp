// SPDX-License-Identifier: GPL-2.0
/*
 * Cutting a byte stream into the protocol's '\n'-terminated lines.
 */
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace rdmablk::ctl {

/* Longest line either side may send, without its '\n'. */
inline constexpr std::size_t max_line = 1024 * 1024;

class LineFramer {
public:
	/* Append bytes as they arrived. */
	void feed(std::string_view bytes);

	/*
	 * The next complete line without its '\n', or nullopt until one has
	 * arrived. Throws ProtocolError when a line grows past max_line; the
	 * connection is then unusable and the framer empty.
	 */
	std::optional<std::string> next_line();

	/* Bytes of an incomplete line held back (at EOF: a truncated message). */
	std::size_t buffered() const noexcept { return buffer_.size(); }

private:
	std::string buffer_;
	std::size_t scanned_ = 0; /* bytes of buffer_ known to hold no '\n' */
};

} // namespace rdmablk::ctl
