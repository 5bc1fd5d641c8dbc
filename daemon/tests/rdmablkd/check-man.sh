#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The man pages render without a warning: check-man.sh PAGE...
set -eu

if ! command -v groff >/dev/null; then
	echo "groff not installed; skipping"
	exit 77
fi
status=0
for page in "$@"; do
	out=$(groff -man -ww -z "$page" 2>&1)
	if [ -n "$out" ]; then
		printf '%s:\n%s\n' "$page" "$out"
		status=1
	fi
	if command -v man >/dev/null && [ -z "$(MANWIDTH=80 man -l "$page" 2>/dev/null | head -1)" ]; then
		echo "$page: man -l renders nothing"
		status=1
	fi
done
[ "$status" -ne 0 ] || echo "man pages render cleanly: $*"
exit "$status"
