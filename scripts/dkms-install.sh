#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Register rdmablk with DKMS so the module is rebuilt for every new kernel.
# Usage: scripts/dkms-install.sh VERSION   (make dkms-install passes it)
set -euo pipefail

version=${1:?usage: $0 VERSION}
repo=$(cd "$(dirname "$0")/.." && pwd)
dest=/usr/src/rdmablk-$version

command -v dkms >/dev/null ||
	{ echo "dkms-install: dkms is not installed (apt-get install dkms)" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] ||
	{ echo "dkms-install: run as root" >&2; exit 1; }

if dkms status -m rdmablk -v "$version" | grep -q rdmablk; then
	dkms remove -m rdmablk -v "$version" --all
fi
rm -rf "$dest"
mkdir -p "$dest/kmod" "$dest/scripts"
cp -a "$repo"/kmod/*.c "$repo"/kmod/*.h "$repo"/kmod/Kbuild "$repo"/kmod/Makefile \
	"$repo"/kmod/host "$repo"/kmod/target "$dest/kmod/"
# Tests are never part of the shipped module.
find "$dest/kmod" -name '*_test.c' -delete
cp -a "$repo/uapi" "$dest/"
cp -a "$repo/scripts/kdir.sh" "$dest/scripts/"
sed "s/@VERSION@/$version/" "$repo/dkms.conf" >"$dest/dkms.conf"

dkms add -m rdmablk -v "$version"
dkms build -m rdmablk -v "$version"
dkms install -m rdmablk -v "$version"
