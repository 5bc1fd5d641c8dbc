#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Register rdmablk with DKMS so the module is rebuilt for every new kernel.
#
# Usage: scripts/dkms-install.sh VERSION          (make dkms-install passes it)
#        scripts/dkms-install.sh --stage DIR KVER VERSION
#
# --stage runs the same add, build and install for kernel KVER (its headers
# installed) with DKMS's trees under DIR instead of /usr/src, /var/lib/dkms
# and /lib/modules, and without depmod: make check uses it to prove that DKMS
# builds and installs the module, leaving the system's trees alone.
set -euo pipefail

usage() { echo "usage: $0 [--stage DIR KVER] VERSION" >&2; exit 2; }

stage="" kver=""
if [ "${1:-}" = --stage ]; then
	[ $# -eq 4 ] || usage
	stage=$2 kver=$3
	shift 3
fi
[ $# -eq 1 ] || usage
version=$1
repo=$(cd "$(dirname "$0")/.." && pwd)

command -v dkms >/dev/null ||
	{ echo "dkms-install: dkms is not installed (apt-get install dkms)" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] ||
	{ echo "dkms-install: run as root" >&2; exit 1; }

opts=()
if [ -n "$stage" ]; then
	[ -e "/lib/modules/$kver/build/Makefile" ] ||
		{ echo "dkms-install: no headers for $kver in /lib/modules/$kver/build" >&2; exit 1; }
	rm -rf "$stage"
	mkdir -p "$stage/usr/src" "$stage/var/lib/dkms" "$stage/lib/modules/$kver"
	stage=$(cd "$stage" && pwd)
	opts=(--sourcetree "$stage/usr/src" --dkmstree "$stage/var/lib/dkms"
	      --installtree "$stage/lib/modules" --no-depmod
	      -k "$kver" --kernelsourcedir "/lib/modules/$kver/build")
fi
dest=$stage/usr/src/rdmablk-$version

if dkms status "${opts[@]}" -m rdmablk -v "$version" | grep -q rdmablk; then
	dkms remove "${opts[@]}" -m rdmablk -v "$version" --all
fi
rm -rf "$dest"
mkdir -p "$dest/kmod" "$dest/scripts"
cp -a "$repo"/kmod/*.c "$repo"/kmod/*.h "$repo"/kmod/Kbuild "$repo"/kmod/Makefile \
	"$repo"/kmod/host "$repo"/kmod/target "$dest/kmod/"
# Tests are never part of the shipped module; nor are a local build's outputs.
find "$dest/kmod" \( -name '*_test.c' -o -name '*.o' -o -name '*.ko' -o -name '.*.cmd' \
	-o -name '*.mod' -o -name '*.mod.c' -o -name 'modules.order' -o -name 'Module.symvers' \) -delete
cp -a "$repo/uapi" "$dest/"
cp -a "$repo/scripts/kdir.sh" "$dest/scripts/"
sed "s/@VERSION@/$version/" "$repo/dkms.conf" >"$dest/dkms.conf"

dkms add "${opts[@]}" -m rdmablk -v "$version"
dkms build "${opts[@]}" -m rdmablk -v "$version"
dkms install "${opts[@]}" -m rdmablk -v "$version"
