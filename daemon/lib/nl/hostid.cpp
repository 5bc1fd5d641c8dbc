// SPDX-License-Identifier: GPL-2.0
#include "nl/hostid.hpp"

#include <cerrno>
#include <optional>
#include <stdexcept>
#include <string_view>

#include "nl/error.hpp"
#include "nl/file.hpp"

namespace rdmablk::nl {

namespace {

/* Longer than either file may usefully be; anything longer fails to parse. */
constexpr std::size_t read_max = 4096;

std::optional<std::string> read_trimmed(const std::string &path)
{
	std::optional<std::string> content = read_file(path, read_max);
	if (!content)
		return std::nullopt;
	constexpr std::string_view space = " \t\r\n";
	const std::size_t first = content->find_first_not_of(space);
	if (first == std::string::npos)
		return std::string();
	return content->substr(first, content->find_last_not_of(space) + 1 - first);
}

[[noreturn]] void invalid(const std::string &path, std::string_view problem)
{
	throw std::runtime_error(path + ": " + std::string(problem));
}

Uuid from_machine_id(const std::string &path, const std::string &id)
{
	constexpr std::size_t digits = 2 * RDMABLK_UUID_SIZE;
	if (id.size() == digits) {
		/* The UUID parser checks the digits once they stand in canonical form. */
		std::string text = id;
		for (std::size_t pos : {20, 16, 12, 8})
			text.insert(pos, 1, '-');
		try {
			return with_v4_bits(parse_uuid(text));
		} catch (const std::invalid_argument &) {
		}
	}
	invalid(path, "not a machine ID: expected " + std::to_string(digits) + " hex digits");
}

} // namespace

Uuid read_hostid(const std::string &hostid_file, const std::string &machine_id_file)
{
	if (const std::optional<std::string> text = read_trimmed(hostid_file)) {
		try {
			return parse_uuid(*text);
		} catch (const std::invalid_argument &e) {
			invalid(hostid_file, e.what());
		}
	}
	if (const std::optional<std::string> id = read_trimmed(machine_id_file))
		return from_machine_id(machine_id_file, *id);
	throw Error("no host ID: neither " + hostid_file + " nor " + machine_id_file + " exists",
		    ENOENT);
}

} // namespace rdmablk::nl
