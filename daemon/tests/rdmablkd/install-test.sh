#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# "cmake --install" (what "make install" runs) into a staging directory,
# with prefixes other than the configured one: the programs and the units
# land under that prefix, on systemd's search path, and the unit starts and
# reloads the programs installed there, without CAP_SYS_MODULE, in its sandbox.
#
#   install-test.sh BUILD_DIR
set -eu

build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

bad() {
	echo "FAIL prefix $prefix: $*"
	status=1
}

for prefix in /usr /opt/rdmablk; do
	dest=$tmp/${prefix#/}
	DESTDIR=$dest cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1 || {
		cat "$tmp/install.log"
		bad "cmake --install failed"
		continue
	}
	root=$dest$prefix
	for p in sbin/rdmablkd sbin/rdmablkctl; do
		[ -x "$root/$p" ] || bad "$prefix/$p not installed"
	done
	unit=$root/lib/systemd/system/rdmablkd.service
	if [ ! -f "$unit" ] || [ ! -f "$root/lib/systemd/system/rdmablkd.socket" ]; then
		bad "units not in $prefix/lib/systemd/system: $(cd "$dest" && find . -name 'rdmablkd.*')"
		continue
	fi
	grep -qx "ExecStart=$prefix/sbin/rdmablkd --systemd --no-modprobe" "$unit" ||
		bad "ExecStart: $(grep ^ExecStart= "$unit")"
	grep -qx "ExecReload=$prefix/sbin/rdmablkctl reload" "$unit" ||
		bad "ExecReload: $(grep ^ExecReload= "$unit")"
	! grep -n '^CapabilityBoundingSet=.*CAP_SYS_MODULE' "$unit" || bad "the unit keeps CAP_SYS_MODULE"
	# The sandbox 061-systemd-boot runs the daemon in.
	for line in SystemCallFilter=@system-service ProtectProc=invisible ProtectSystem=strict; do
		grep -qx "$line" "$unit" || bad "the unit lacks $line"
	done
	[ -f "$root/lib/udev/rules.d/60-rdmablk.rules" ] || bad "udev rules not installed"
	[ -f "$root/share/bash-completion/completions/rdmablkctl" ] || bad "bash completion not installed"
	[ "$status" = 0 ] && echo "ok   prefix $prefix: programs, units (ExecStart, ExecReload), udev rules, completion"
done
exit "$status"
