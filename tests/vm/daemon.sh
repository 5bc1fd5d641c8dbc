# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Helpers for the VM tests of rdmablkd and rdmablkctl (tests/vm/05x-*),
# sourced by those tests after tests/vm/lib.sh. The guest's /etc, /run and
# /var are its own and writable, so the daemon runs with its default paths.

# RDMABLK_RDMABLKD on the host picks another build, e.g. build/asan
# (RDMABLKCTL, set in lib.sh, likewise).
RDMABLKD=${RDMABLK_RDMABLKD:-$SRC/build/userspace/bin/rdmablkd}
# shellcheck disable=SC2034 # used by the tests
RDMABLK_CONF=/etc/rdmablk/rdmablk.conf
DAEMON_PID=

# daemon_up: rdmablkd runs and answers on its socket.
daemon_up() {
	[ -n "$DAEMON_PID" ] && kill -0 "$DAEMON_PID" 2>/dev/null || return 1
	"$RDMABLKCTL" hostid >/dev/null 2>&1
}

# start_daemon: start rdmablkd (default paths) in the background, its log
# in $RESULTS/rdmablkd.log, and wait until it answers.
start_daemon() {
	[ -x "$RDMABLKD" ] || fail "$RDMABLKD not found; build it first (make userspace)"
	[ -x "$RDMABLKCTL" ] || fail "$RDMABLKCTL not found; build it first (make userspace)"
	echo "--- $RDMABLKD ($(date +%T))" >>"$RESULTS/rdmablkd.log"
	"$RDMABLKD" >>"$RESULTS/rdmablkd.log" 2>&1 &
	DAEMON_PID=$!
	wait_for -t 30 daemon_up ||
		fail "rdmablkd did not come up: $(tail -20 "$RESULTS/rdmablkd.log")"
	log "rdmablkd up (pid $DAEMON_PID)"
}

# stop_daemon [SIGNAL]: stop rdmablkd (SIGTERM unless told) and reap it.
stop_daemon() {
	local sig=${1:-TERM}
	[ -n "$DAEMON_PID" ] || return 0
	kill -"$sig" "$DAEMON_PID" 2>/dev/null || true
	wait "$DAEMON_PID" 2>/dev/null || true
	log "rdmablkd (pid $DAEMON_PID) stopped with SIG$sig"
	DAEMON_PID=
}

# ctl ARGS...: rdmablkctl, failing the test with its message if it fails.
ctl() {
	"$RDMABLKCTL" "$@" || fail "rdmablkctl $* failed (status $?)"
}

# ctl_expect_error STATUS REGEX ARGS...: rdmablkctl ARGS must exit with
# STATUS and say something matching REGEX (extended).
ctl_expect_error() {
	local want=$1 regex=$2 out rc=0
	shift 2
	out=$("$RDMABLKCTL" "$@" 2>&1) || rc=$?
	[ "$rc" -eq "$want" ] || fail "rdmablkctl $* exited $rc, expected $want: $out"
	grep -Eq -- "$regex" <<<"$out" ||
		fail "rdmablkctl $* said '$out', expected '$regex'"
	log "refused as expected: rdmablkctl $*: $out"
}

# json_get PATH: the value at PATH ("devices.0.state") of the JSON on stdin;
# objects and arrays as JSON, null as "null".
json_get() {
	python3 -c '
import json, sys
value = json.load(sys.stdin)
for key in filter(None, sys.argv[1].split(".")):
    value = value[int(key)] if isinstance(value, list) else value[key]
print(json.dumps(value) if value is None or isinstance(value, (dict, list, bool)) else value)
' "$1"
}

# device_state ADDR NAME: the state rdmablkctl list reports for the
# attachment of export NAME from ADDR ("none" when it has none).
device_state() {
	"$RDMABLKCTL" -o json list | python3 -c '
import json, sys
addr, name = sys.argv[1], sys.argv[2]
for d in json.load(sys.stdin)["devices"]:
    if d["address"] == addr and d["export"] == name:
        print(d["state"])
        break
else:
    print("none")
' "$1" "$2"
}

# kernel_devices: lines of `rdmablk-nl dev-list` (one per device). If the
# kernel cannot be asked, it prints nothing (so no count compares equal) and
# fails: a netlink failure is never taken for "no device".
kernel_devices() {
	local out
	out=$("$RDMABLK_NL" dev-list) || fail "kernel_devices: rdmablk-nl dev-list failed"
	grep -c . <<<"$out" || true
}
