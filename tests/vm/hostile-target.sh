# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The hostile target tests (tests/vm/042-*, 043-*), sourced after
# tests/vm/lib.sh: each runs a group of the scenarios of
# build/userspace/bin/rdmablk-hostile-target against the kernel initiator
# with hostile_target_main. See docs/testing.md, "A hostile target".
#
# Some scenarios alone: HOSTILE_TARGET_SCENARIOS=silence,tag-ffff in the
# guest's environment, or on the guest's kernel command line:
#   RDMABLK_VM_APPEND=hostile_target_scenarios=silence tests/vm/run 043

HT=$SRC/build/userspace/bin/rdmablk-hostile-target

# Must match tests/hostile/target.hpp: honest bytes below TRAP, misbehaviour
# from TRAP on.
TRAP=$((2 << 20))

# Attach options: small timeouts so that every bad case ends fast.
ATTACH_OPTS=(--queues 1 --queue-depth 16 --keepalive-tmo 2 --reconnect-delay 1
	--fast-io-fail-tmo 3 --ctrl-loss-tmo 20)
# Seconds before an unanswered command counts as a lost connection (the
# module's io_timeout): it bounds the partition read of the attach too.
IO_TIMEOUT=2
# A connection that broke the protocol must be dropped faster than a
# command times out.
DROP_MS=2000
# Bounds, in seconds, past which a step counts as hung. A read the target
# never answers fails after 6 sendings, each an io_timeout and a reconnect:
# about 20 s, and more under the debug kernel, where a reconnect takes 2 to
# 3 s instead of a fraction of one.
ATTACH_BOUND=25
READ_BOUND=$(dbg_size 25 45)
DETACH_BOUND=20
# Start no scenario after this many seconds: boot, one scenario at its
# bounds (about 110 s) and rmmod must still fit VM_TIMEOUT (four times
# longer in the debug lane, where a scenario takes about 30 s, not 3).
BUDGET=$(dbg_size 380 2000)

STUCK=()

# The keys of the scenarios whose KEYS column says "keys": the host
# attaches with its key and the target's (mutual authentication), which an
# impostor target does not hold.
HT_KEYS=/tmp/hostile-target-keys

# exited PID: process PID is gone (a builtin: polled without starting a
# process, which costs a third of a second in a debug guest).
exited() {
	! kill -0 "$1" 2>/dev/null
}

# bounded SECONDS OUT CMD...: run CMD, output to OUT, for at most SECONDS.
# Sets RC (124 when it is still running: it is left behind, named in STUCK)
# and TOOK (seconds).
bounded() {
	local t=$1 out=$2 pid start
	shift 2
	start=$SECONDS
	"$@" >"$out" 2>&1 &
	pid=$!
	if wait_for -q -t "$t" -i 0.2 exited "$pid"; then
		RC=0
		wait "$pid" || RC=$?
	else
		RC=124
		STUCK+=("$pid:$*")
	fi
	TOOK=$((SECONDS - start))
}

# objects: the RDMA core's per-device object counts (pd, cq, qp, cm_id, mr),
# one `rdma resource show` (cheaper than rdma_objects, same counts).
objects() {
	rdma resource show 2>/dev/null | tr '\n' ';'
}

# objects_back BASELINE: the counts equal BASELINE.
objects_back() {
	[ "$(objects)" = "$1" ]
}

# has_line FILE PREFIX: a line of FILE starts with PREFIX (read by the
# shell, without starting a process). What the hostile target writes:
# "listening on " once it listens, "DROPPED " when a connection it
# misbehaved on was dropped.
has_line() {
	local line
	while IFS= read -r line; do
		[[ $line != "$2"* ]] || return 0
	done <"$1"
	return 1
}

# selected NAME GROUP [BY_NAME]: NAME is in GROUP (comma-separated) and,
# when some scenarios were asked for, one of them; or NAME is in BY_NAME
# (scenarios run only when asked for) and was asked for.
selected() {
	local list=${HOSTILE_TARGET_SCENARIOS:-}
	[ -n "$list" ] || list=$(sed -n 's/.*hostile_target_scenarios=\([^ ]*\).*/\1/p' /proc/cmdline)
	if [[ ",$2," != *",$1,"* ]]; then
		[ -n "$list" ] && [[ ",${3:-}," == *",$1,"* ]] && [[ ",$list," == *",$1,"* ]]
		return
	fi
	[ -z "$list" ] && return 0
	[[ ",$list," == *",$1,"* ]]
}

# hostile_keys: the host's key and the target's in $HT_KEYS, made once.
hostile_keys() {
	local k
	for k in host target; do
		[ -s "$HT_KEYS/$k" ] && continue
		mkdir -p "$HT_KEYS"
		key_file "$HT_KEYS/$k"
	done
}

# scenario NAME EXPECT DROP KEYS: run one scenario, print what was seen, and
# "RESULT NAME PASS|FAIL: ..."; returns 1 on FAIL.
scenario() {
	local name=$1 expect=$2 drop=$3 keys=$4 objs tpid dev idx out verdict=PASS notes=() \
		dmesg_from summary bs=4096 off=$TRAP misbehaved kept slowest attach_keys=()
	out=$RESULTS/$name
	mkdir -p "$out"
	objs=$(objects)
	dmesg_from=$(dmesg | wc -l)
	log "=== $name (expect $expect${drop:+, drop})"

	"$HT" --listen "$TARGET_ADDR" "$name" >"$out/target.txt" 2>&1 &
	tpid=$!
	local t1=$SECONDS
	# Ready, not judged: under the debug kernel a process can take tens of seconds to start.
	wait_for -t "$(dbg_size 20 60)" -i 0.1 has_line "$out/target.txt" "listening on " || { notes+=("hostile target did not listen: $(cat "$out/target.txt")"); verdict=FAIL; }

	notes+=("listening after $((SECONDS - t1))s")
	if [ -n "$keys" ]; then
		hostile_keys
		attach_keys=(--key-file "$HT_KEYS/host" --target-key-file "$HT_KEYS/target")
	fi
	bounded "$ATTACH_BOUND" "$out/attach.txt" "$RDMABLK_NL" attach "$TARGET_ADDR" hostile \
		"${ATTACH_OPTS[@]}" "${attach_keys[@]}"
	dev=
	if [ "$RC" = 124 ]; then
		verdict=FAIL
		notes+=("attach hung for more than ${ATTACH_BOUND}s")
	elif [ "$RC" != 0 ]; then
		notes+=("attach refused after ${TOOK}s: $(tr '\n' ' ' <"$out/attach.txt")")
		# An impostor must be refused for what it is, not by chance.
		if [ -n "$keys" ] && ! grep -Eq 'authenticat|target key' "$out/attach.txt"; then
			verdict=FAIL
			notes+=("expected a refusal that names the authentication")
		fi
		[ "$expect" != data ] || verdict=FAIL
	else
		dev=$(cat "$out/attach.txt")
		notes+=("attached $dev in ${TOOK}s")
		# The partition read is I/O like any other: the attach must not
		# wait for it. A read the target never answers fails only after
		# its retries (each io_timeout plus a reconnect): if that failure
		# came before the attach returned, the attach waited for it. (Not
		# "a command timed out": under the debug kernel an attach alone
		# can take longer than io_timeout.)
		if grep -q 'I/O error, dev' <<<"$(dmesg | tail -n +"$((dmesg_from + 1))")"; then
			verdict=FAIL
			notes+=("the attach waited for I/O: the partition read failed before it returned")
		fi
		if [ "$expect" = refused ]; then
			verdict=FAIL
			notes+=("expected the attach to be refused")
		fi
	fi

	if [ -n "$dev" ] && wait_for -t 10 test -b "$dev"; then
		idx=$(dev_index "$dev")
		[ "$(cat "/sys/block/rdmablk$idx/queue/io_timeout")" = $((IO_TIMEOUT * 1000)) ] || {
			verdict=FAIL
			notes+=("io_timeout is $(cat "/sys/block/rdmablk$idx/queue/io_timeout") ms, not the module's ${IO_TIMEOUT} s")
		}
		if [ "$name" = rep-io-huge ]; then
			bs=$((1 << 20))
			notes+=("max_hw_sectors_kb $(cat "/sys/block/rdmablk$idx/queue/max_hw_sectors_kb")")
		fi
		if [ "$expect" = detach ]; then
			# The partition read of the attach is unanswered: detach now.
			notes+=("in flight at detach: $(tr -s ' ' <"/sys/block/rdmablk$idx/inflight")")
		else
			bounded "$READ_BOUND" "$out/dd.txt" dd if="$dev" of="$out/read" bs=$bs count=1 \
				skip=$((off / bs)) iflag=direct status=none
			if [ "$RC" = 124 ]; then
				verdict=FAIL
				notes+=("read at $off hung for more than ${READ_BOUND}s (state $("$RDMABLK_NL" dev-show "$dev" 2>/dev/null | sed -n 's/^state=//p'))")
			elif [ "$RC" != 0 ]; then
				notes+=("read failed after ${TOOK}s: $(tr '\n' ' ' <"$out/dd.txt")")
				if [ "$expect" = data ]; then
					verdict=FAIL
				elif ! grep -q 'Input/output error' "$out/dd.txt"; then
					verdict=FAIL
					notes+=("expected EIO")
				fi
			elif "$HT" --pattern "$off" "$bs" | cmp -s - "$out/read"; then
				notes+=("read returned the right bytes after ${TOOK}s")
				if [ "$expect" = error ]; then
					verdict=FAIL
					notes+=("expected EIO")
				fi
			else
				verdict=FAIL
				notes+=("read SUCCEEDED WITH WRONG DATA after ${TOOK}s: $(od -A d -t x1 "$out/read" | head -2 | tr '\n' ' ')")
			fi
		fi

		bounded "$DETACH_BOUND" "$out/detach.txt" "$RDMABLK_NL" detach "$idx"
		if [ "$RC" = 124 ]; then
			verdict=FAIL
			notes+=("detach hung for more than ${DETACH_BOUND}s")
		elif [ "$RC" != 0 ]; then
			verdict=FAIL
			notes+=("detach failed: $(tr '\n' ' ' <"$out/detach.txt")")
		else
			notes+=("detached in ${TOOK}s")
		fi
	elif [ -n "$dev" ]; then
		verdict=FAIL
		notes+=("$dev never appeared")
	fi

	local t0=$SECONDS
	# The initiator's disconnect reaches the hostile target a moment after
	# the attach or the read returned here: let it see the drop before it
	# is ended, or it counts the connection as kept. How fast the drop
	# came is judged below (slowest_drop_ms), not by this wait.
	if [ -n "$drop" ]; then
		wait_for -q -t 10 -i 0.1 has_line "$out/target.txt" "DROPPED " || true
	fi
	kill -TERM "$tpid" 2>/dev/null || true
	if wait_for -q -t 10 exited "$tpid"; then
		wait "$tpid" || notes+=("hostile target exited with $?")
	else
		verdict=FAIL
		notes+=("hostile target did not exit")
		kill -KILL "$tpid" 2>/dev/null || true
	fi
	notes+=("target ended in $((SECONDS - t0))s")
	summary=$(grep '^SUMMARY ' "$out/target.txt" || true)
	notes+=("target: ${summary#SUMMARY }")
	if [ -n "$drop" ]; then
		misbehaved=$(sed -n 's/.* misbehaved=\([0-9]*\).*/\1/p' <<<"$summary")
		kept=$(sed -n 's/.* kept=\([0-9]*\).*/\1/p' <<<"$summary")
		slowest=$(sed -n 's/.* slowest_drop_ms=\([0-9]*\).*/\1/p' <<<"$summary")
		if [ "${misbehaved:-0}" = 0 ]; then
			verdict=FAIL
			notes+=("the target never got to misbehave")
		elif [ "${kept:-1}" != 0 ] || [ "${slowest:-999999}" -gt "$DROP_MS" ]; then
			verdict=FAIL
			notes+=("protocol violation not acted on: a connection was kept, or dropped after ${slowest} ms > ${DROP_MS} ms: $(grep -E '^(DROPPED|KEPT) ' "$out/target.txt" | sort | uniq -c | sort -rn | head -3 | tr '\n' ' ')")
		fi
	fi

	t0=$SECONDS
	if wait_for -q -t 30 -i 0.5 objects_back "$objs"; then
		notes+=("RDMA objects back to $objs in $((SECONDS - t0))s")
	else
		verdict=FAIL
		notes+=("RDMA objects not back: before '$objs', after '$(objects)'")
	fi
	dmesg | tail -n +"$((dmesg_from + 1))" | grep rdmablk | tail -8 >"$out/dmesg.txt" || true
	sed 's/^/    kernel: /' "$out/dmesg.txt"
	printf 'RESULT %s %s: %s\n' "$name" "$verdict" "$(printf '%s; ' "${notes[@]}")"
	[ "$verdict" = PASS ]
}

# hostile_target_main GROUP [BY_NAME]: run the scenarios named in GROUP
# (comma-separated), and those of BY_NAME that were asked for by name, in
# the order rdmablk-hostile-target --list gives.
hostile_target_main() {
	local group=$1 by_name=${2:-} name expect drop keys _ failed=() ran=0 left=() p

	[ -x "$HT" ] || fail "$HT not found; build it first (make userspace)"
	load_rdmablk io_timeout="$IO_TIMEOUT"
	while read -r name expect drop keys _; do
		selected "$name" "$group" "$by_name" || continue
		if [ "$SECONDS" -ge "$BUDGET" ]; then
			left+=("$name")
			continue
		fi
		[ "$drop" = drop ] || drop=
		[ "$keys" = keys ] || keys=
		ran=$((ran + 1))
		scenario "$name" "$expect" "$drop" "$keys" || failed+=("$name")
	done < <("$HT" --list)
	[ "$ran" -gt 0 ] || fail "no scenario selected (HOSTILE_TARGET_SCENARIOS='${HOSTILE_TARGET_SCENARIOS:-}')"

	bounded 30 "$RESULTS/rmmod.txt" rmmod rdmablk
	if [ "$RC" = 0 ]; then
		log "rmmod rdmablk: done in ${TOOK}s"
	elif [ "$RC" = 124 ]; then
		failed+=("rmmod")
		log "rmmod rdmablk: hung for more than 30s"
	else
		failed+=("rmmod")
		log "rmmod rdmablk: $(cat "$RESULTS/rmmod.txt")"
	fi
	for p in "${STUCK[@]}"; do
		! kill -0 "${p%%:*}" 2>/dev/null || log "left behind, still running: $p"
	done
	[ "${#left[@]}" = 0 ] || failed+=("not run within ${BUDGET}s: ${left[*]}")
	[ "${#failed[@]}" = 0 ] || fail "$ran scenario(s) run; failed: ${failed[*]}"
	log "$ran scenario(s) passed"
}
