#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Unpack Debian's linux-source-6.1 once into the shared cache
# (scripts/cache-dir.sh) and print the tree's path. Used for KUnit, for
# checkpatch and for the debug kernel. Unpacked again when the package's
# version changes.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cache=$("$repo/scripts/cache-dir.sh")
tree="$cache/linux-source-6.1"
tarball=/usr/src/linux-source-6.1.tar.xz

[ -e "$tarball" ] || { echo "linux-source: $tarball missing; run scripts/install-deps.sh" >&2; exit 1; }
version=$(dpkg-query -W -f='${Version}' linux-source-6.1)
exec 9>"$cache/linux-source.lock"
flock 9
if [ "$(cat "$tree/.rdmablk-unpacked" 2>/dev/null)" != "$version" ]; then
	echo "linux-source: unpacking $tarball ($version)" >&2
	rm -rf "$tree"
	tar -C "$cache" -xf "$tarball"
	echo "$version" >"$tree/.rdmablk-unpacked"
fi
echo "$tree"
