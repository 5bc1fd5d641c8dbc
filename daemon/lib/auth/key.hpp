// SPDX-License-Identifier: GPL-2.0
/*
 * Authentication keys: a secret shared by two hosts and the HMAC it is used
 * with, written as one line an administrator can copy between them:
 *
 *   RDMABLK-1:HH:BASE64:
 *
 * HH names the HMAC and fixes the secret's length: 01 HMAC-SHA-256 (32
 * bytes), 02 HMAC-SHA-384 (48), 03 HMAC-SHA-512 (64). BASE64 is standard
 * base64, with padding, of the secret followed by its CRC-32 (zlib's, the
 * IEEE polynomial), 4 bytes little endian, which catches a key damaged in
 * copying. Like NVMe's DHHC-1 keys, without their key transformation.
 *
 * Messages never quote a key or any part of its secret.
 */
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <linux/rdmablk_proto.h>

namespace rdmablk::auth {

/* The HMAC a key is used with; the value is the key's HH and the wire's "hmac". */
enum class Hash : std::uint8_t {
	sha256 = RDMABLK_AUTH_HMAC_SHA256,
	sha384 = RDMABLK_AUTH_HMAC_SHA384,
	sha512 = RDMABLK_AUTH_HMAC_SHA512,
};

/* The secret's length in bytes: 32, 48, 64. */
std::size_t secret_size(Hash hash);

/* "sha256", "sha384", "sha512": as --hmac takes them. */
std::string_view hash_name(Hash hash);

/* The Hash hash_name() calls @name; nullopt for any other name. */
std::optional<Hash> hash_from_name(std::string_view name);

/* The longest secret: HMAC-SHA-512's. */
inline constexpr std::size_t max_secret_size = 64;

/*
 * A secret and its HMAC. Move-only; the secret is wiped when the key is
 * destroyed, cleared, moved from or assigned over. It cannot be printed by
 * accident: to_string() is the only way to text.
 */
class Key {
public:
	/* @secret must be secret_size(@hash) bytes; throws std::invalid_argument. */
	Key(Hash hash, std::span<const std::uint8_t> secret);

	Key(Key &&other) noexcept;
	Key &operator=(Key &&other) noexcept;
	Key(const Key &) = delete;
	Key &operator=(const Key &) = delete;
	~Key();

	Hash hash() const noexcept { return hash_; }

	/* The secret; empty once the key was cleared or moved from. */
	std::span<const std::uint8_t> secret() const noexcept { return {secret_.data(), size_}; }

	/* Wipe the secret, leaving the key empty. */
	void clear() noexcept;

	/*
	 * "RDMABLK-1:HH:BASE64:", which holds the secret: only for printing a
	 * key where it was asked for. Throws std::logic_error on an empty key.
	 */
	std::string to_string() const;

private:
	Hash hash_;
	std::size_t size_;
	std::array<std::uint8_t, max_secret_size> secret_{};
};

/*
 * The key @text writes, exactly: no surrounding whitespace, nothing after
 * the final ':'. Throws std::invalid_argument saying what is wrong and what
 * to do about it, without quoting @text.
 */
Key parse_key(std::string_view text);

/* A new key for @hash, its secret from getrandom(2); throws std::system_error. */
Key generate_key(Hash hash);

/*
 * The key in file @path: parse_key() of its content, without one trailing
 * '\n'. The file must not be accessible to its group or others (mode &
 * 077). Throws std::runtime_error whose message starts with @path
 * (std::system_error, whose message names @path, when it cannot be opened
 * or read).
 */
Key read_key_file(const std::string &path);

} // namespace rdmablk::auth
