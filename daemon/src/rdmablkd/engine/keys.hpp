// SPDX-License-Identifier: GPL-2.0
/*
 * Authentication keys as rdmablkd hands them to the kernel: read from the
 * files the configuration names (auth::read_key_file: one RDMABLK-1: line,
 * no access for group or others) when the request is made, held only for
 * it, and wiped when it is done (auth::Key). Nothing here logs or returns a
 * secret; errors name the file and what to do.
 */
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>

#include "auth/key.hpp"

namespace rdmablk::daemon {

/* A key file that cannot be used; the message names it and what to do. */
class KeyFileError : public std::runtime_error {
public:
	using runtime_error::runtime_error;
};

/* A host's key and, optionally, the target's key for it. */
struct KeyPair {
	std::optional<auth::Key> key;
	std::optional<auth::Key> target_key;

	/* Their secrets, empty for a key not given; valid while the pair lives. */
	std::span<const std::uint8_t> key_secret() const;
	std::span<const std::uint8_t> target_secret() const;
};

/*
 * The keys in @key_file and @target_key_file (each optional). Throws
 * KeyFileError when a file cannot be read, is open to group or others, or
 * does not hold a key.
 */
KeyPair read_keys(const std::optional<std::string> &key_file,
		  const std::optional<std::string> &target_key_file);

} // namespace rdmablk::daemon
