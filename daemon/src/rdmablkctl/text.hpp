// SPDX-License-Identifier: GPL-2.0
/*
 * Pieces of the text output: sizes, timeouts, reading the daemon's JSON
 * objects leniently, aligned tables.
 */
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace rdmablk::rdmablkctl {

/* 268435456 as "256.0M"; below 1 KiB in bytes: "512B". Powers of 1024. */
std::string human_size(std::uint64_t bytes);

/* A timeout in seconds: "10 s", or "off" for -1. */
std::string seconds_text(long long seconds);

/* Milliseconds to wait as whole seconds, rounded up. */
long long ms_to_s(long long ms);

/* Member @key of @object as text: strings as they are, numbers printed; else nullopt. */
std::optional<std::string> text_field(const nlohmann::json &object, const char *key);
/* Member @key of @object when it is an integer. */
std::optional<long long> int_field(const nlohmann::json &object, const char *key);
/* Member @key of @object when it is a boolean, else false. */
bool bool_field(const nlohmann::json &object, const char *key);

/* "192.0.2.1:7471" / "[2001:db8::1]:7471" from an object's address and port. */
std::string target_text(const nlohmann::json &object);

/*
 * Rows under a header, columns two spaces apart: left-aligned, but those
 * from column @numbers_from on, right-aligned.
 */
std::string table(const std::vector<std::string> &header,
		  const std::vector<std::vector<std::string>> &rows,
		  std::size_t numbers_from = SIZE_MAX);

} // namespace rdmablk::rdmablkctl
