// SPDX-License-Identifier: GPL-2.0
#include "text.hpp"

#include <algorithm>
#include <cstdio>

#include <linux/rdmablk.h>

#include "nl/endpoint.hpp"

namespace rdmablk::rdmablkctl {

using nlohmann::json;

std::string human_size(std::uint64_t bytes)
{
	constexpr const char units[] = "KMGTPE";
	if (bytes < 1024)
		return std::to_string(bytes) + "B";

	double value = static_cast<double>(bytes) / 1024;
	std::size_t unit = 0;
	/* Switch units before rounding would print "1024.0". */
	while (value >= 1023.95 && unit + 1 < sizeof(units) - 1) {
		value /= 1024;
		unit++;
	}
	char text[32];
	std::snprintf(text, sizeof(text), "%.1f%c", value, units[unit]);
	return text;
}

std::string seconds_text(long long seconds)
{
	if (seconds == RDMABLK_TMO_OFF)
		return "off";
	return std::to_string(seconds) + " s";
}

long long ms_to_s(long long ms)
{
	return ms <= 0 ? 0 : (ms + 999) / 1000;
}

std::optional<std::string> text_field(const json &object, const char *key)
{
	if (!object.is_object())
		return std::nullopt;
	const auto it = object.find(key);
	if (it == object.end())
		return std::nullopt;
	if (it->is_string())
		return it->get<std::string>();
	if (it->is_number())
		return it->dump();
	return std::nullopt;
}

std::optional<long long> int_field(const json &object, const char *key)
{
	if (!object.is_object())
		return std::nullopt;
	const auto it = object.find(key);
	if (it == object.end() || !it->is_number_integer())
		return std::nullopt;
	return it->get<long long>();
}

bool bool_field(const json &object, const char *key)
{
	if (!object.is_object())
		return false;
	const auto it = object.find(key);
	return it != object.end() && it->is_boolean() && it->get<bool>();
}

std::string target_text(const json &object)
{
	const auto addr = text_field(object, "address");
	if (!addr)
		return "-";
	const auto port = int_field(object, "port");
	if (!port || *port < 0 || *port > 65535)
		return *addr;
	return nl::to_string(nl::Endpoint{*addr, static_cast<std::uint16_t>(*port)});
}

std::string table(const std::vector<std::string> &header,
		  const std::vector<std::vector<std::string>> &rows, std::size_t numbers_from)
{
	std::vector<std::size_t> width(header.size());
	for (std::size_t i = 0; i < header.size(); i++)
		width[i] = header[i].size();
	for (const auto &row : rows)
		for (std::size_t i = 0; i < row.size() && i < width.size(); i++)
			width[i] = std::max(width[i], row[i].size());

	std::string out;
	const auto line = [&](const std::vector<std::string> &cells) {
		std::string text;
		for (std::size_t i = 0; i < cells.size() && i < width.size(); i++) {
			const std::string pad(width[i] - cells[i].size(), ' ');
			if (i > 0)
				text += "  ";
			if (i >= numbers_from)
				text += pad + cells[i];
			else
				text += cells[i] + (i + 1 < cells.size() ? pad : "");
		}
		out += text + '\n';
	};
	line(header);
	for (const auto &row : rows)
		line(row);
	return out;
}

} // namespace rdmablk::rdmablkctl
