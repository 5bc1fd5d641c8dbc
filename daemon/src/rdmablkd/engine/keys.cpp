// SPDX-License-Identifier: GPL-2.0
#include "engine/keys.hpp"

#include <system_error>

namespace rdmablk::daemon {

namespace {

auth::Key read_one(const std::string &path)
{
	/* read_key_file's messages name the file and never quote the key. */
	try {
		return auth::read_key_file(path);
	} catch (const std::system_error &e) {
		throw KeyFileError(std::string(e.what()) +
				   " (make one with: umask 077; rdmablkctl key generate > " + path +
				   ")");
	} catch (const std::exception &e) {
		throw KeyFileError(e.what());
	}
}

} // namespace

std::span<const std::uint8_t> KeyPair::key_secret() const
{
	return key ? key->secret() : std::span<const std::uint8_t>{};
}

std::span<const std::uint8_t> KeyPair::target_secret() const
{
	return target_key ? target_key->secret() : std::span<const std::uint8_t>{};
}

KeyPair read_keys(const std::optional<std::string> &key_file,
		  const std::optional<std::string> &target_key_file)
{
	KeyPair pair;
	if (key_file)
		pair.key = read_one(*key_file);
	if (target_key_file)
		pair.target_key = read_one(*target_key_file);
	return pair;
}

} // namespace rdmablk::daemon
