#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The rdmablk-nl command line contract that test scripts rely on: exit
# statuses and one-line diagnostics. Needs no rdmablk.ko.
#
# usage: cli_test.sh PATH/TO/rdmablk-nl

set -u

nl=$1
out=$(mktemp)
err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
passed=0
failed=0

# expect STATUS STDERR-PATTERN -- ARGS...: run rdmablk-nl ARGS and check its
# exit status and that stderr is one line matching the grep pattern (or
# empty when the pattern is empty).
expect() {
	status=$1 pattern=$2
	shift 3
	"$nl" "$@" >"$out" 2>"$err"
	got=$?
	lines=$(wc -l <"$err")
	if [ "$got" -ne "$status" ]; then
		why="exit status $got, expected $status"
	elif [ -z "$pattern" ] && [ -s "$err" ]; then
		why="unexpected stderr"
	elif [ -n "$pattern" ] && { [ "$lines" -ne 1 ] || ! grep -q -- "$pattern" "$err"; }; then
		why="stderr does not match '$pattern'"
	else
		passed=$((passed + 1))
		return
	fi
	failed=$((failed + 1))
	echo "FAIL: rdmablk-nl $*: $why"
	sed 's/^/  stderr: /' "$err"
}

expect 0 '' -- --help
grep -q 'listen-add' "$out" || { failed=$((failed + 1)); echo "FAIL: --help lists no subcommands"; }
expect 2 '^rdmablk-nl: ' --
expect 2 '^rdmablk-nl: ' -- no-such-command
expect 2 '^rdmablk-nl: ADDR: invalid address "garbage": not an IPv4 or IPv6 address$' -- listen-add garbage
expect 2 '^rdmablk-nl: .*port must be 1 to 65535' -- listen-add 192.0.2.1:0
expect 2 '^rdmablk-nl: .*port must be 1 to 65535' -- listen-del '[::1]:70000'
expect 2 '^rdmablk-nl: ' -- listen-add 192.0.2.1 --port 70000
expect 2 '^rdmablk-nl: ' -- listen-add 192.0.2.1 --port 0
expect 2 '^rdmablk-nl: "192.0.2.1:80" already gives a port; drop --port$' -- listen-add 192.0.2.1:80 --port 81
expect 2 '^rdmablk-nl: ' -- listen-add
expect 2 '^rdmablk-nl: ' -- raw
expect 2 '^rdmablk-nl: ' -- raw --cmd 256
expect 2 '^rdmablk-nl: .*invalid attribute "7:u16:65536"' -- raw --cmd 1 --attr 7:u16:65536
expect 2 '^rdmablk-nl: ' -- monitor --count 0
expect 2 '^rdmablk-nl: ' -- monitor --timeout -1

# Without the module every request names the missing family.
if [ ! -d /sys/module/rdmablk ]; then
	missing='^rdmablk-nl: the rdmablk generic netlink family is not registered (is rdmablk.ko loaded?)$'
	expect 1 "$missing" -- info
	expect 1 "$missing" -- listen-add 192.0.2.1
	expect 1 "$missing" -- listen-del '[fe80::1%lo]:4791'
	expect 1 "$missing" -- listen-list
	expect 1 "$missing" -- monitor --count 1 --timeout 1
	expect 1 "$missing" -- raw --cmd 1 --attr PORT:u16:1 --dump
	if [ -s "$out" ]; then
		failed=$((failed + 1))
		echo "FAIL: output before the failure"
	fi
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
