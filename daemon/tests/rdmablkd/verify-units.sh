#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# systemd-analyze verify on rdmablkd's units, with ExecStart and ExecReload
# pointing at the built programs (the installed paths, /usr/sbin/..., need
# not exist here). Any message from systemd-analyze about the units is a
# failure. The man pages are checked by the man page test, not here
# (--man=no).
#
#   verify-units.sh SYSTEMD_DIR RDMABLKD RDMABLKCTL
set -eu

units=$1
binary=$(realpath "$2")
ctl=$(realpath "$3")
if ! command -v systemd-analyze >/dev/null; then
	echo "systemd-analyze not installed; skipping"
	exit 77
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed -e "s|/usr/sbin/rdmablkd |$binary |" -e "s|/usr/sbin/rdmablkctl |$ctl |" \
	"$units/rdmablkd.service" >"$tmp/rdmablkd.service"
! grep -n /usr/sbin/ "$tmp/rdmablkd.service" || { echo "an unexpected /usr/sbin path"; exit 1; }
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
echo "rdmablkd.service, rdmablkd.socket: systemd-analyze verify clean"
