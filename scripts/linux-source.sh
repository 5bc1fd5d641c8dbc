#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Unpack Debian's linux-source-6.1 once into .cache/ and print the tree's
# path. Used for KUnit and for checkpatch.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cache="$repo/.cache"
tree="$cache/linux-source-6.1"
tarball=/usr/src/linux-source-6.1.tar.xz

if [ ! -e "$tree/.rdmablk-unpacked" ]; then
	[ -e "$tarball" ] || { echo "linux-source: $tarball missing; run scripts/install-deps.sh" >&2; exit 1; }
	echo "linux-source: unpacking $tarball" >&2
	mkdir -p "$cache"
	rm -rf "$tree"
	tar -C "$cache" -xf "$tarball"
	touch "$tree/.rdmablk-unpacked"
fi
echo "$tree"
