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
batch_in=$(mktemp)
trap 'rm -f "$out" "$err" "$batch_in"' EXIT
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

# expect_batch INPUT STATUS STDERR-PATTERN: rdmablk-nl batch with INPUT on
# its standard input, checked as expect checks a command (redirected from a
# file: expect at the end of a pipe would count in a subshell).
expect_batch() {
	printf '%b' "$1" >"$batch_in"
	shift
	expect "$@" -- batch <"$batch_in"
}

expect 0 '' -- --help
for sub in batch info listen-add listen-del listen-list export-add export-del export-list attach detach \
	reconnect dev-list dev-show dev-set path-add path-del path-set monitor raw; do
	grep -q "^  $sub " "$out" || { failed=$((failed + 1)); echo "FAIL: --help does not list $sub"; }
done
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
expect 2 '^rdmablk-nl: .*invalid attribute "CTRL_LOSS_TMO:s32:2147483648"' -- \
	raw --cmd 12 --attr CTRL_LOSS_TMO:s32:2147483648
expect 2 '^rdmablk-nl: .*invalid attribute "QUEUES:nested:0"' -- raw --cmd 11 --attr QUEUES:nested:0
expect 2 '^rdmablk-nl: ' -- monitor --count 0
expect 2 '^rdmablk-nl: ' -- monitor --timeout -1

expect 2 '^rdmablk-nl: NAME is required$' -- export-add
expect 2 '^rdmablk-nl: PATH is required$' -- export-add disk0
expect 2 '^rdmablk-nl: ' -- export-add disk0 /dev/nullb0 extra
expect 2 '^rdmablk-nl: --uuid: invalid UUID "0f1e2d3c4b5a49688776a5b4c3d2e1f0": expected ' -- \
	export-add disk0 /dev/nullb0 --uuid 0f1e2d3c4b5a49688776a5b4c3d2e1f0
expect 2 '^rdmablk-nl: --uuid: invalid UUID .*not a hex digit at position 8$' -- \
	export-add disk0 /dev/nullb0 --uuid 0f1e2d3g-4b5a-4968-8776-a5b4c3d2e1f0
expect 2 '^rdmablk-nl: ' -- export-add disk0 /dev/nullb0 --read-only=maybe
expect 2 '^rdmablk-nl: --allow: invalid UUID "host1": expected ' -- \
	export-add disk0 /dev/nullb0 --allow host1
expect 2 '^rdmablk-nl: --allow: ' -- export-add disk0 /dev/nullb0 --allow
expect 2 '^rdmablk-nl: NAME is required$' -- export-del
expect 2 '^rdmablk-nl: ' -- export-list disk0
expect 2 '^rdmablk-nl: ADDR is required$' -- attach
expect 2 '^rdmablk-nl: NAME is required$' -- attach 192.0.2.1
expect 2 '^rdmablk-nl: ADDR: invalid address "garbage": not an IPv4 or IPv6 address$' -- attach garbage disk0
expect 2 '^rdmablk-nl: .*port must be 1 to 65535' -- attach 192.0.2.1:0 disk0
expect 2 '^rdmablk-nl: "192.0.2.1:80" already gives a port; drop --port$' -- attach 192.0.2.1:80 disk0 --port 81
expect 2 '^rdmablk-nl: --queues: ' -- attach 192.0.2.1 disk0 --queues 0
expect 2 '^rdmablk-nl: --queues: ' -- attach 192.0.2.1 disk0 --queues 65
expect 2 '^rdmablk-nl: --queue-depth: ' -- attach 192.0.2.1 disk0 --queue-depth 0
expect 2 '^rdmablk-nl: --queue-depth: ' -- attach 192.0.2.1 disk0 --queue-depth 1025
expect 2 '^rdmablk-nl: --hostid: invalid UUID "host1": expected ' -- attach 192.0.2.1 disk0 --hostid host1
for opt in --reconnect-delay --keepalive-tmo; do
	expect 2 "^rdmablk-nl: $opt: " -- attach 192.0.2.1 disk0 "$opt" 0
	expect 2 "^rdmablk-nl: $opt: " -- attach 192.0.2.1 disk0 "$opt" 604801
	expect 2 "^rdmablk-nl: $opt: " -- dev-set 0 "$opt" -1
done
for opt in --ctrl-loss-tmo --fast-io-fail-tmo; do
	expect 2 "^rdmablk-nl: $opt: " -- attach 192.0.2.1 disk0 "$opt" -2
	expect 2 "^rdmablk-nl: $opt: " -- dev-set rdmablk0 "$opt" 604801
	expect 2 "^rdmablk-nl: $opt: " -- dev-set rdmablk0 "$opt" never
done
policy='^rdmablk-nl: --policy: invalid policy "fastest": expected queue-depth, round-robin or min-latency$'
expect 2 "$policy" -- attach 192.0.2.1 disk0 --policy fastest
expect 2 "$policy" -- dev-set 0 --policy fastest
expect 2 '^rdmablk-nl: --policy: invalid policy "Round-Robin": ' -- attach 192.0.2.1 disk0 --policy Round-Robin
expect 2 '^rdmablk-nl: --policy: ' -- attach 192.0.2.1 disk0 --policy
expect 2 '^rdmablk-nl: --policy: ' -- dev-set 0 --policy
expect 2 '^rdmablk-nl: DEV is required$' -- detach
expect 2 '^rdmablk-nl: DEV: invalid device "sda": expected N, rdmablkN or /dev/rdmablkN$' -- detach sda
expect 2 '^rdmablk-nl: DEV: invalid device "/dev/rdmablk": ' -- detach /dev/rdmablk
expect 2 '^rdmablk-nl: DEV: invalid device "rdmablk99999999999": device number out of range$' -- \
	detach rdmablk99999999999
expect 2 '^rdmablk-nl: ' -- dev-list 0
for sub in dev-show dev-set reconnect; do
	expect 2 '^rdmablk-nl: DEV is required$' -- "$sub"
	expect 2 '^rdmablk-nl: DEV: invalid device "sda": ' -- "$sub" sda
	expect 2 '^rdmablk-nl: ' -- "$sub" 0 1
done
for sub in path-add path-del path-set; do
	# path-del takes no --standby; the others do, and path-set needs it (or --active).
	standby=--standby
	[ "$sub" = path-del ] && standby=
	expect 2 '^rdmablk-nl: DEV is required$' -- "$sub"
	expect 2 '^rdmablk-nl: ADDR is required$' -- "$sub" 0
	expect 2 '^rdmablk-nl: DEV: invalid device "sda": ' -- "$sub" sda 192.0.2.1 $standby
	expect 2 '^rdmablk-nl: ADDR: invalid address "garbage": not an IPv4 or IPv6 address$' -- \
		"$sub" 0 garbage $standby
	expect 2 '^rdmablk-nl: .*port must be 1 to 65535' -- "$sub" 0 192.0.2.1:0 $standby
	expect 2 '^rdmablk-nl: "192.0.2.1:80" already gives a port; drop --port$' -- \
		"$sub" 0 192.0.2.1:80 --port 81 $standby
	expect 2 '^rdmablk-nl: ' -- "$sub" 0 192.0.2.1 extra $standby
done
# A batch stops at its first bad line and names it; blank lines and
# comments count as lines and do nothing.
expect_batch '' 0 ''
expect_batch '\n# a comment\n   \n' 0 ''
expect_batch '# the listener\nlisten-add garbage\ninfo\n' 2 \
	'^rdmablk-nl: line 2: ADDR: invalid address "garbage": not an IPv4 or IPv6 address$'
expect_batch 'batch\n' 2 '^rdmablk-nl: line 1: '
expect_batch 'raw --batch\n1\n' 2 "^rdmablk-nl: line 1: raw --batch reads standard input, which is the batch's\$"
expect 2 '^rdmablk-nl: ' -- batch extra
expect 2 '^rdmablk-nl: ' -- path-add 0 192.0.2.1 --active
expect 2 '^rdmablk-nl: ' -- path-del 0 192.0.2.1 --active
expect 2 '^rdmablk-nl: ' -- path-del 0 192.0.2.1 --standby
expect 2 '^rdmablk-nl: ' -- path-set 0 192.0.2.1 --standby --active
expect 2 '^rdmablk-nl: give --standby or --active$' -- path-set 0 192.0.2.1

# Without the module every request names the missing family.
if [ ! -d /sys/module/rdmablk ]; then
	missing='^rdmablk-nl: the rdmablk generic netlink family is not registered (is rdmablk.ko loaded?)$'
	expect 1 "$missing" -- info
	expect_batch 'export-list\ninfo\n' 1 \
		'^rdmablk-nl: line 1: the rdmablk generic netlink family is not registered (is rdmablk.ko loaded?)$'
	expect 1 "$missing" -- listen-add 192.0.2.1
	expect 1 "$missing" -- listen-del '[fe80::1%lo]:4791'
	expect 1 "$missing" -- listen-list
	expect 1 "$missing" -- monitor --count 1 --timeout 1
	expect 1 "$missing" -- raw --cmd 1 --attr PORT:u16:1 --dump
	uuid=0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0
	expect 1 "$missing" -- export-add disk0 /dev/nullb0 --uuid "$uuid" --read-only
	expect 1 "$missing" -- export-add disk0 /dev/nullb0
	expect 1 "$missing" -- export-add disk0 /dev/nullb0 --allow "$uuid" \
		--allow 00112233-4455-4677-8899-aabbccddeeff
	expect 1 "$missing" -- export-add --allow "$uuid" disk0 /dev/nullb0
	expect 1 "$missing" -- export-del disk0
	expect 1 "$missing" -- export-list
	expect 1 "$missing" -- attach '[::1]:4420' disk0 --queues 2 --queue-depth 64 --hostid "$uuid"
	expect 1 "$missing" -- detach /dev/rdmablk0
	expect 1 "$missing" -- detach rdmablk1
	expect 1 "$missing" -- detach 2
	expect 1 "$missing" -- attach 192.0.2.1 disk0 --reconnect-delay 1 --ctrl-loss-tmo -1 \
		--fast-io-fail-tmo -1 --keepalive-tmo 3
	expect 1 "$missing" -- attach 192.0.2.1 disk0 --ctrl-loss-tmo 0 --fast-io-fail-tmo 604800
	expect 1 "$missing" -- dev-list
	expect 1 "$missing" -- dev-show rdmablk0
	expect 1 "$missing" -- dev-set /dev/rdmablk0 --ctrl-loss-tmo -1 --keepalive-tmo 1
	expect 1 "$missing" -- dev-set 3
	expect 1 "$missing" -- reconnect 0
	expect 1 "$missing" -- attach 192.0.2.1 disk0 --policy round-robin
	expect 1 "$missing" -- dev-set 0 --policy min-latency
	expect 1 "$missing" -- dev-set rdmablk1 --policy queue-depth --keepalive-tmo 2
	expect 1 "$missing" -- path-add 0 192.0.2.2
	expect 1 "$missing" -- path-add /dev/rdmablk0 '[fe80::1%lo]:4420' --standby
	expect 1 "$missing" -- path-del rdmablk0 192.0.2.2 --port 4420
	expect 1 "$missing" -- path-set 0 192.0.2.2:4420 --standby
	expect 1 "$missing" -- path-set 0 192.0.2.2 --active
	expect 1 "$missing" -- raw --cmd 12 --attr DEV_INDEX:u32:0 --attr CTRL_LOSS_TMO:s32:-1
	expect 1 "$missing" -- raw --cmd 6 --attr ALLOWED_HOSTS:nested:14001200000102030405060708090a0b0c0d0e0f
	if [ -s "$out" ]; then
		failed=$((failed + 1))
		echo "FAIL: output before the failure"
	fi
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
