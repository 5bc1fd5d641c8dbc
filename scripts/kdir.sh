#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Print the kernel build directory rdmablk.ko is built against: the running
# kernel's when its headers are installed, else the newest installed
# /lib/modules/*/build (the Debian kernel the VM tests boot). RDMABLK_KVER
# picks a specific installed version.
set -euo pipefail

if [ -n "${RDMABLK_KVER:-}" ]; then
	echo "/lib/modules/$RDMABLK_KVER/build"
	exit 0
fi
running="/lib/modules/$(uname -r)/build"
if [ -e "$running/Makefile" ]; then
	echo "$running"
	exit 0
fi
# The debug lane's kernel (scripts/vm/debug-kernel) is not a build target:
# its module is built apart, in build/debug-kmod/.
for d in $(ls -d /lib/modules/*/build 2>/dev/null | grep -v -- '-rdmablk-dbg-' | sort -V -r); do
	if [ -e "$d/Makefile" ]; then
		echo "$d"
		exit 0
	fi
done
exit 1
