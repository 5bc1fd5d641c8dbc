// SPDX-License-Identifier: GPL-2.0
#include "nl/uuid.hpp"

#include <cerrno>
#include <stdexcept>

#include "nl/error.hpp"
#include "nl/file.hpp"

namespace rdmablk::nl {

namespace {

constexpr std::string_view hex_digits = "0123456789abcdef";
constexpr std::string_view canonical = "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx";
constexpr const char *random_source = "/dev/urandom";

[[noreturn]] void invalid(std::string_view text, std::string_view problem)
{
	throw std::invalid_argument("invalid UUID \"" + std::string(text) +
				    "\": " + std::string(problem));
}

int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

} // namespace

std::string to_string(const Uuid &uuid)
{
	std::string text;
	text.reserve(canonical.size());
	for (std::size_t i = 0; i < uuid.bytes.size(); i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			text += '-';
		text += hex_digits[uuid.bytes[i] >> 4];
		text += hex_digits[uuid.bytes[i] & 0xf];
	}
	return text;
}

Uuid parse_uuid(std::string_view text)
{
	if (text.size() != canonical.size())
		invalid(text, "expected " + std::string(canonical) + " (36 characters), got " +
				      std::to_string(text.size()) + " characters");

	Uuid uuid;
	std::size_t nibble = 0;
	for (std::size_t pos = 0; pos < text.size(); pos++) {
		const char c = text[pos];
		if (canonical[pos] == '-') {
			if (c != '-')
				invalid(text,
					"expected '-' at position " + std::to_string(pos + 1));
			continue;
		}
		const int value = hex_value(c);
		if (value < 0)
			invalid(text, "not a hex digit at position " + std::to_string(pos + 1));
		std::uint8_t &byte = uuid.bytes[nibble / 2];
		byte = static_cast<std::uint8_t>(byte << 4 | value);
		nibble++;
	}
	return uuid;
}

Uuid with_v4_bits(Uuid uuid)
{
	uuid.bytes[6] = static_cast<std::uint8_t>((uuid.bytes[6] & 0x0f) | 0x40);
	uuid.bytes[8] = static_cast<std::uint8_t>((uuid.bytes[8] & 0x3f) | 0x80);
	return uuid;
}

Uuid generate_uuid()
{
	Uuid uuid;
	const std::optional<std::string> random = read_file(random_source, uuid.bytes.size());
	if (!random)
		throw Error(std::string("reading ") + random_source, ENOENT);
	if (random->size() != uuid.bytes.size())
		throw Error(std::string("reading ") + random_source, EIO);
	for (std::size_t i = 0; i < uuid.bytes.size(); i++)
		uuid.bytes[i] = static_cast<std::uint8_t>((*random)[i]);
	return with_v4_bits(uuid);
}

} // namespace rdmablk::nl
