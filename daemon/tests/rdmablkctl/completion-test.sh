#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The bash completion script against a built rdmablkctl: what a user gets
# after pressing TAB at a few places of a command line.
#
#   completion-test.sh COMPLETION_SCRIPT RDMABLKCTL
set -u

# shellcheck source=/dev/null
. "$1"
ctl=$2
status=0

# expect "WORDS BEFORE CURSOR" CURRENT_WORD EXPECTED...: the completions.
expect() {
	local line=$1 cur=$2 got want
	shift 2
	read -ra COMP_WORDS <<<"$ctl $line"
	COMP_WORDS+=("$cur")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_rdmablkctl
	got=$(printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ')
	want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
	if [ "$got" = "$want" ]; then
		echo "ok   rdmablkctl $line '$cur': $got"
	else
		echo "FAIL rdmablkctl $line '$cur': got '$got', expected '$want'"
		status=1
	fi
}

expect "" ex export
expect "" dis discover discovery
expect "" --v --version
expect "export" "" add del list --help --output --socket --timeout
expect "export add db0 /dev/ram0" --r --read-only
expect "dev-set /dev/rdmablk0" --f --fast-io-fail-tmo
expect "list -o" j json
expect "attach 192.0.2.1 db0" --q --queues --queue-depth
expect "" st stat status
expect "stat" --i --interval
expect "stat --interval 2" --q --queues
expect "" k key
expect "key" "" generate --help --output
expect "key generate" --h --help --hmac
expect "key generate --hmac" sha3 sha384
expect "path" "" add del set --help --output --socket --timeout
expect "path set rdmablk0 192.0.2.2" --s --socket --standby
expect "attach 192.0.2.1 db0" --p --path --poll-queues --policy
expect "dev-set rdmablk0 --policy" r round-robin
exit "$status"
