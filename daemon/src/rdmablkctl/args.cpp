// SPDX-License-Identifier: GPL-2.0
#include "args.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <stdexcept>

#include <linux/rdmablk.h>

#include "nl/dev_name.hpp"
#include "nl/endpoint.hpp"
#include "nl/uuid.hpp"

namespace rdmablk::rdmablkctl {

namespace {

std::invalid_argument invalid(std::string_view what, std::string_view text,
			      std::string_view problem)
{
	return std::invalid_argument("invalid " + std::string(what) + " \"" + std::string(text) +
				     "\": " + std::string(problem));
}

bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '.' || c == '_' || c == ':' || c == '-';
}

bool decimal(std::string_view text)
{
	return !text.empty() &&
	       std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

/* "N", "rdmablkN" or "/dev/rdmablkN": the kernel's name of a disk, or its number. */
bool kernel_name(std::string_view text)
{
	for (const std::string_view prefix : {"/dev/rdmablk", "rdmablk", ""})
		if (text.starts_with(prefix) && decimal(text.substr(prefix.size())))
			return true;
	return false;
}

constexpr std::string_view disk_prefix = "rdmablk";

/* The disk of partition @name ("rdmablkNpM"), or "" when it names none. */
std::string_view partition_of(std::string_view name)
{
	const std::size_t p = name.rfind('p');
	if (p == std::string_view::npos || !name.starts_with(disk_prefix) ||
	    !decimal(name.substr(disk_prefix.size(), p - disk_prefix.size())) ||
	    !decimal(name.substr(p + 1)))
		return {};
	return name.substr(0, p);
}

/* The disk the path @text leads to, links followed, in @dev. */
std::string resolve_device(std::string_view text, const std::filesystem::path &dev)
{
	namespace fs = std::filesystem;
	const std::string expected =
		"expected /dev/rdmablkN or a link to it such as /dev/rdmablk/NAME";
	std::error_code ec;
	const fs::path resolved = fs::canonical(fs::path(text), ec);
	if (ec == std::errc::no_such_file_or_directory || ec == std::errc::not_a_directory)
		throw invalid("device", text, "no such file; " + expected);
	if (ec)
		throw invalid("device", text, "cannot follow it: " + ec.message());

	const fs::path dir = fs::canonical(dev, ec);
	const std::string name = resolved.filename();
	const std::string leads =
		resolved == fs::path(text) ? std::string() : "leads to " + resolved.string() + ", ";
	if (!ec && resolved.parent_path() == dir) {
		if (name.starts_with(disk_prefix) && decimal(name.substr(disk_prefix.size())))
			return "/dev/" + name;
		if (const std::string_view disk = partition_of(name); !disk.empty())
			throw invalid("device", text,
				      leads + "a partition of " + std::string(disk) +
					      "; give the disk itself, /dev/" + std::string(disk));
	}
	throw invalid("device", text, leads + "not an rdmablk disk; " + expected);
}

} // namespace

nlohmann::json endpoint_args(std::string_view text)
{
	const nl::Endpoint endpoint = nl::parse_endpoint(text);
	return {{"address", endpoint.addr}, {"port", endpoint.port}};
}

std::string export_name(std::string_view text)
{
	constexpr std::size_t max = RDMABLK_EXPORT_NAME_MAX - 1;
	if (text.empty())
		throw std::invalid_argument("empty export name");
	if (text.size() > max)
		throw invalid("export name", text,
			      "longer than " + std::to_string(max) + " characters");
	if (!std::all_of(text.begin(), text.end(), name_char))
		throw invalid("export name", text, "only letters, digits and . _ : - are allowed");
	return std::string(text);
}

std::string export_path(std::string_view text)
{
	if (text.empty())
		throw std::invalid_argument("empty export path");
	std::string path =
		std::filesystem::absolute(std::filesystem::path(text)).lexically_normal();
	if (path.size() >= RDMABLK_PATH_MAX)
		throw invalid("export path", text,
			      "longer than " + std::to_string(RDMABLK_PATH_MAX - 1) +
				      " characters");
	return path;
}

std::string key_file_arg(std::string_view option, std::string_view text)
{
	if (text.empty())
		throw invalid(option, text, "an empty path");
	return std::filesystem::absolute(std::filesystem::path(text)).lexically_normal();
}

std::string uuid_arg(std::string_view text)
{
	return nl::to_string(nl::parse_uuid(text));
}

std::string device_path(std::string_view text, const std::filesystem::path &dev)
{
	std::string name;
	if (kernel_name(text))
		name = text;
	else if (text.find('/') != std::string_view::npos)
		name = resolve_device(text, dev);
	else
		throw invalid("device", text,
			      "expected /dev/rdmablkN, rdmablkN, N, or a link to /dev/rdmablkN "
			      "such as /dev/rdmablk/NAME");
	/* parse_dev_index() checks the number's range. */
	return "/dev/rdmablk" + std::to_string(nl::parse_dev_index(name));
}

long long integer_arg(std::string_view option, std::string_view text, long long min, long long max,
		      bool off_allowed)
{
	const std::string expected = (off_allowed ? "expected -1 (off) or an integer from " :
						    "expected an integer from ") +
				     std::to_string(min) + " to " + std::to_string(max);

	long long value = 0;
	const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
	if (text.empty() || ec != std::errc() || end != text.data() + text.size())
		throw invalid(option, text, expected);
	if ((value < min || value > max) && !(off_allowed && value == RDMABLK_TMO_OFF))
		throw invalid(option, text, expected);
	return value;
}

std::chrono::milliseconds interval_arg(std::string_view option, std::string_view text)
{
	constexpr double min = 0.1, max = 24 * 3600;
	double seconds = 0;
	const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), seconds,
					       std::chars_format::fixed);
	/* Written the other way round, NaN would pass. */
	if (text.empty() || ec != std::errc() || end != text.data() + text.size() ||
	    !(seconds >= min && seconds <= max))
		throw invalid(option, text, "expected a number of seconds from 0.1 to 86400");
	return std::chrono::milliseconds(std::llround(seconds * 1000));
}

} // namespace rdmablk::rdmablkctl
