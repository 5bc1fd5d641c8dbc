// SPDX-License-Identifier: GPL-2.0
/*
 * Files that are either wholly old or wholly new, also after a crash.
 */
#pragma once

#include <string>
#include <string_view>

#include <sys/types.h>

namespace rdmablk::daemon {

/*
 * Replace @path with @content: write a temporary file in the same
 * directory, fsync it, rename it over @path, fsync the directory. The file
 * gets mode @mode. Throws std::system_error naming the path and the step
 * that failed; @path is then unchanged.
 */
void write_atomic(const std::string &path, std::string_view content, mode_t mode);

/* Create directory @path and its missing parents with mode @mode; throws std::system_error. */
void make_dirs(const std::string &path, mode_t mode);

/* The directory part of @path ("." when it has none). */
std::string parent_dir(const std::string &path);

} // namespace rdmablk::daemon
