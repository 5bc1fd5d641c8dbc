#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# systemd-analyze verify on rdmablkd's units, with ExecStart pointing at a
# built rdmablkd (the installed path, /usr/sbin/rdmablkd, need not exist
# here). Any message from systemd-analyze about the units is a failure.
# The man pages are checked by the man page test, not here (--man=no).
#
#   verify-units.sh SYSTEMD_DIR RDMABLKD
set -eu

units=$1
binary=$(realpath "$2")
if ! command -v systemd-analyze >/dev/null; then
	echo "systemd-analyze not installed; skipping"
	exit 77
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed "s|/usr/sbin/rdmablkd|$binary|" "$units/rdmablkd.service" >"$tmp/rdmablkd.service"
cp "$units/rdmablkd.socket" "$tmp/"

out=$(cd "$tmp" && SYSTEMD_LOG_LEVEL=notice systemd-analyze verify --man=no \
	"$tmp/rdmablkd.socket" "$tmp/rdmablkd.service" 2>&1) || {
	printf '%s\n' "$out"
	exit 1
}
# Complaints about the units themselves, not about other units of this host.
if printf '%s\n' "$out" | grep -E 'rdmablkd\.(service|socket)'; then
	exit 1
fi
grep -qx rdmablk "$units/modules-load.d/rdmablk.conf"
echo "rdmablkd.service, rdmablkd.socket: systemd-analyze verify clean"
