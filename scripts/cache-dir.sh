#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Print (creating it) the directory that keeps what is slow to make and
# changes only with its inputs, shared by every checkout of this user:
# Debian's linux-source-6.1 unpacked, and the debug kernel built from it
# (scripts/vm/debug-kernel/build). A fresh clone finds them there instead of
# spending half an hour of CPU on them again.
#
# RDMABLK_CACHE_DIR overrides it; the default is $XDG_CACHE_HOME/rdmablk,
# else ~/.cache/rdmablk. Each entry is keyed by its inputs (the package's
# version, the config's hash), and its users take a lock while they fill it.
set -euo pipefail

dir=${RDMABLK_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/rdmablk}
mkdir -p "$dir"
cd "$dir" && pwd
