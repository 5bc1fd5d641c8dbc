// SPDX-License-Identifier: GPL-2.0
#include "args.hpp"

#include <algorithm>
#include <charconv>
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

std::string uuid_arg(std::string_view text)
{
	return nl::to_string(nl::parse_uuid(text));
}

std::string device_path(std::string_view text)
{
	return "/dev/rdmablk" + std::to_string(nl::parse_dev_index(text));
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

} // namespace rdmablk::rdmablkctl
