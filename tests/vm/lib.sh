# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Helpers for VM test scripts. Sourced inside the guest (by the bench's guest
# init and by the per-test runner) before the test script itself; tests run
# under `set -eEuo pipefail`. See docs/testing.md.
#
# Environment provided by the bench:
#   RDMABLK_ROLE      one | target | initiator
#   TARGET_ADDR       192.0.2.1
#   INITIATOR_ADDR    192.0.2.2
#   TARGET_RDMA_DEV   rxe device bound to TARGET_ADDR (rxe0)
#   INITIATOR_RDMA_DEV rxe device bound to INITIATOR_ADDR (rxe1 in one-guest
#                     mode, rxe0 in the initiator guest)
#   TARGET_ADDR2      198.51.100.1, the second link's (second_link in one
#   INITIATOR_ADDR2   198.51.100.2  guest; rxe1 of each guest with VM_LINKS=2)
#   SRC               project tree, read-only (/src)
#   RESULTS           this guest's writable results directory (/results)
#   SHARED            directory shared by both guests (/shared)
#   VM_TEST           name of the running test (e.g. 000-bench-sanity)
#   RDMABLK_DEBUG     1 under the debug kernel lane (KASAN, lockdep, kmemleak,
#                     UBSAN; I/O about 15x slower): see dbg_size

: "${SRC:=/src}"
: "${RESULTS:=/results}"
: "${SHARED:=/shared}"
: "${RDMABLK_ROLE:=one}"
: "${TARGET_ADDR:=192.0.2.1}"
: "${INITIATOR_ADDR:=192.0.2.2}"
: "${TARGET_ADDR2:=198.51.100.1}"
: "${INITIATOR_ADDR2:=198.51.100.2}"
# In the debug lane: the kernel's jiffies when the test started (written by
# scripts/vm/guest-init).
KMEMLEAK_SINCE=/run/rdmablk-kmemleak-since

# log MSG...: progress message with a wall-clock time stamp.
log() {
	printf '%(%H:%M:%S)T %s\n' -1 "$*"
}

# fail MSG...: report a failure and end the test (exit status 1).
fail() {
	printf '%(%H:%M:%S)T FAIL: %s\n' -1 "$*" >&2
	exit 1
}

# pause SECONDS: sleep without starting a process. read times out on a pipe
# that never gets data (this shell holds its write end). Fractions allowed.
pause() {
	[ -n "${__PAUSE_FD:-}" ] || exec {__PAUSE_FD}<> <(:)
	read -r -t "$1" -u "$__PAUSE_FD" _ || true
}

# wait_for [-t SECONDS] [-i INTERVAL] [-q] CMD [ARGS...]
# Run CMD until it succeeds. Returns 0 as soon as it does, 1 (after printing a
# message and the last attempt's output unless -q) if it still fails after
# SECONDS (default 30). INTERVAL (default 0.2 s) is the pause between attempts.
# A CMD that is a shell function or builtin costs no process per attempt:
# neither the attempt nor the pause starts one. An attempt that takes long
# (a process start takes up to a second under the debug kernel) is followed
# by a pause of three times its length, so that the waiter never takes more
# than a quarter of the CPU from what it waits for.
wait_for() {
	local timeout=30 interval=0.2 quiet=0 opt OPTIND=1
	while getopts 't:i:q' opt; do
		case $opt in
		t) timeout=$OPTARG ;;
		i) interval=$OPTARG ;;
		q) quiet=1 ;;
		*) fail "wait_for: usage: wait_for [-t SECONDS] [-i INTERVAL] [-q] CMD..." ;;
		esac
	done
	shift $((OPTIND - 1))
	[ $# -gt 0 ] || fail "wait_for: no command given"

	local end=$((SECONDS + timeout)) out=/tmp/.wait_for.$BASHPID start took gap ival
	usecs ival "$interval"
	while :; do
		start=${EPOCHREALTIME/./}
		if "$@" >"$out" 2>&1; then
			return 0
		fi
		took=$((${EPOCHREALTIME/./} - start))
		if [ "$SECONDS" -ge "$end" ]; then
			if [ "$quiet" != 1 ]; then
				printf 'wait_for: timed out after %ss: %s\n' "$timeout" "$*" >&2
				[ ! -s "$out" ] || tail -n 20 "$out" | sed 's/^/  | /' >&2
			fi
			return 1
		fi
		gap=$((took * 3 > ival ? took * 3 : ival))
		printf -v gap '%d.%06d' $((gap / 1000000)) $((gap % 1000000))
		pause "$gap"
	done
}

# usecs VAR SECONDS: set VAR to SECONDS (up to six decimals) in
# microseconds, without a subshell.
usecs() {
	local -n __us=$1
	local int=${2%%.*} frac=
	[[ $2 == *.* ]] && frac=${2#*.}
	frac=${frac}000000
	__us=$((10#${int:-0} * 1000000 + 10#${frac:0:6}))
}

# rdma_port_active DEV: true if port 1 of RDMA device DEV is ACTIVE.
rdma_port_active() {
	rdma link show "$1/1" 2>/dev/null | grep -q ' state ACTIVE '
}

# rdma_mtu_check DEV: fail unless port 1 of DEV has the RDMA MTU that soft-RoCE
# derives from the Ethernet MTU the bench gave the guest (VM_MTU): the
# largest of 4096, 2048, 1024, 512 and 256 that fits a frame with RoCE's
# headers (4096 from 9000, 1024 from 1500).
rdma_mtu_check() {
	local want=256 m have
	for m in 4096 2048 1024 512; do
		[ "$m" -gt $((${VM_MTU:-1500} - 100)) ] || { want=$m; break; }
	done
	have=$(ibv_devinfo -d "$1" -i 1 | awk '$1 == "active_mtu:" { print $2; exit }')
	[ "$have" = "$want" ] ||
		fail "$1: active MTU '$have', expected $want from the Ethernet MTU ${VM_MTU:-1500}"
	log "$1: RDMA MTU $have over Ethernet MTU ${VM_MTU:-1500}"
}

# vm_ping ADDR: one ICMP echo to ADDR with a 1 s timeout.
vm_ping() {
	if command -v ping >/dev/null; then
		ping -c 1 -W 1 "$1"
	else
		busybox ping -c 1 -W 1 "$1"
	fi
}

__vm_check_name() {
	[[ $1 =~ ^[A-Za-z0-9_.-]+$ ]] || fail "invalid rendezvous name '$1' (use [A-Za-z0-9_.-])"
}

__vm_peer() {
	case $RDMABLK_ROLE in
	target) echo initiator ;;
	initiator) echo target ;;
	*) echo "" ;;
	esac
}

# vm_signal NAME [VALUE]: announce NAME to the other guest (creates a file in
# $SHARED; VALUE, if given, is its content and can be read with vm_wait).
vm_signal() {
	__vm_check_name "$1"
	local f=$SHARED/signal.$1
	printf '%s\n' "${2:-}" >"$f.tmp.$RDMABLK_ROLE"
	mv -f "$f.tmp.$RDMABLK_ROLE" "$f"
}

# vm_power_cycle: this guest loses power: the host kills its QEMU (nothing
# is shut down or flushed) and boots it again, running the same test
# function with VM_BOOT one higher (1 on the first boot). Two-guest tests
# only; nothing after this call runs in this boot. VM_TARGET_DISK_MB=N in a
# test gives the target a disk, /dev/vda, that survives this.
vm_power_cycle() {
	[ -n "$(__vm_peer)" ] || fail "vm_power_cycle: two-guest tests only"
	dmesg >"$RESULTS/dmesg.boot${VM_BOOT:-1}" 2>&1
	log "power cycle (boot ${VM_BOOT:-1})"
	: >"$SHARED/powercycle.$RDMABLK_ROLE"
	sleep infinity
}

# vm_reboot: this guest reboots the way an admin's does (systemctl reboot:
# services stopped, file systems unmounted), and the host boots it again
# once it is down, running the same test function with VM_BOOT one higher.
# Two-guest tests whose guests run systemd (VM_APPEND="vmbench.init=systemd")
# only; VM_ROOT_DISK_MB keeps the root's changes through the reboot.
vm_reboot() {
	[ -n "$(__vm_peer)" ] || fail "vm_reboot: two-guest tests only"
	[ "$(cat /proc/1/comm)" = systemd ] ||
		fail "vm_reboot: the guest's init is not systemd (VM_APPEND=vmbench.init=systemd)"
	dmesg >"$RESULTS/dmesg.boot${VM_BOOT:-1}" 2>&1
	log "reboot (boot ${VM_BOOT:-1})"
	: >"$SHARED/reboot.$RDMABLK_ROLE"
	systemctl reboot --no-block || fail "systemctl reboot failed"
	# systemd stops this test's unit on the way down.
	sleep infinity
}

# vm_wait NAME [SECONDS]: wait (default 120 s) until NAME has been signalled,
# then print the value given to vm_signal. Fails early if the other guest's
# test already ended without signalling NAME. Under the debug kernel the
# bound is four times longer, as the guests' own time limits are: the other
# guest's kmemleak scans alone can take minutes, and the wait still ends as
# soon as that guest ends.
vm_wait() {
	__vm_check_name "$1"
	local f=$SHARED/signal.$1 timeout=${2:-120} peer end
	[ "${RDMABLK_DEBUG:-0}" != 1 ] || timeout=$((timeout * 4))
	peer=$(__vm_peer)
	end=$((SECONDS + timeout))
	while [ ! -e "$f" ]; do
		if [ -n "$peer" ] && [ -e "$SHARED/exit.$peer" ] && [ ! -e "$f" ]; then
			fail "vm_wait $1: the $peer guest ended (status $(cat "$SHARED/exit.$peer")) without signalling it"
		fi
		[ "$SECONDS" -lt "$end" ] || fail "vm_wait $1: not signalled within ${timeout}s"
		pause 0.2
	done
	cat "$f"
}

# load_rdmablk [PARAM=VALUE...]: load the RDMA core modules rdmablk needs and
# insert the module built in the project tree ($RDMABLK_KO, by default
# $SRC/kmod/rdmablk.ko) with the given parameters.
load_rdmablk() {
	local ko=${RDMABLK_KO:-$SRC/kmod/rdmablk.ko} deps vermagic kver
	[ -f "$ko" ] || fail "load_rdmablk: $ko not found; build the module first (make)"
	[ ! -e /sys/module/rdmablk ] || fail "load_rdmablk: rdmablk is already loaded"

	kver=$(uname -r)
	vermagic=$(modinfo -F vermagic "$ko") || fail "load_rdmablk: cannot read $ko"
	[ "${vermagic%% *}" = "$kver" ] ||
		fail "load_rdmablk: $ko was built for ${vermagic%% *}, the guest runs $kver"

	deps=$(modinfo -F depends "$ko")
	# shellcheck disable=SC2086 # the dependency list is comma separated names
	modprobe -a ib_core ib_cm iw_cm rdma_cm ${deps//,/ } ||
		fail "load_rdmablk: cannot load dependencies (ib_core ib_cm iw_cm rdma_cm $deps)"
	insmod "$ko" "$@" || fail "load_rdmablk: insmod $ko $* failed (see dmesg)"
	log "rdmablk loaded${*:+ with $*}"
}

# unload_rdmablk: remove the rdmablk module if it is loaded; UNLOAD_TOOK is
# how long rmmod took, in seconds. In the debug lane kmemleak does not scan
# here but once at the test's end (kmemleak_end in scripts/vm/guest-init,
# which unloads rdmablk first if the test left it loaded): what leaked
# while the module was loaded, or at its exit, is still unreferenced then,
# whether the test loaded it again or not. So the two guests of a two-guest
# test scan at the same time, after both are done, instead of one after
# the other, and a test that reloads the module pays for one scan.
unload_rdmablk() {
	local start
	[ -e /sys/module/rdmablk ] || return 0
	start=$SECONDS
	rmmod rdmablk || fail "unload_rdmablk: rmmod rdmablk failed (still in use?)"
	UNLOAD_TOOK=$((SECONDS - start))
	log "rdmablk unloaded in ${UNLOAD_TOOK} s"
}

# uptime_cs: the guest's uptime in hundredths of a second.
uptime_cs() {
	local up _
	read -r up _ </proc/uptime
	echo "$((10#${up/./}))"
}

# kmemleak_check TAG: in the debug lane, have kmemleak scan now; suspects
# go to $RESULTS/kmemleak.TAG and a line to the kernel log (which fails the
# test), then they are cleared. Does nothing outside the debug lane; returns
# 1 if kmemleak cannot scan.
# Two scans: kmemleak reports an object only once its contents did not
# change between two scans (the first scan after an allocation only records
# its checksum), and only if it was older than 5 s when the scan started:
# the second scan starts no earlier than 5 s after the first.
# Suspects allocated before the test started are the kernel's own, from
# boot and the bench's setup: they go to $RESULTS/kmemleak.boot and do not
# fail the test. That costs no scan at boot (under TCG a scan takes tens of
# seconds). In a shared guest (RDMABLK_KMEMLEAK_DEFER=1) nothing scans here:
# the guest scans once after its last test and blames each suspect on the
# test that ran when it was allocated (kmemleak_batch_end in
# scripts/vm/guest-init).
kmemleak_check() {
	local f=/sys/kernel/debug/kmemleak n start=$SECONDS first rest since
	[ "${RDMABLK_DEBUG:-0}" = 1 ] && [ -w "$f" ] || return 0
	[ "${RDMABLK_KMEMLEAK_DEFER:-0}" != 1 ] || return 0
	first=$(uptime_cs)
	kmemleak_scan "$f" || return 1
	rest=$((first + 510 - $(uptime_cs)))
	[ "$rest" -le 0 ] || sleep "$((rest / 100)).$(printf %02d $((rest % 100)))"
	kmemleak_scan "$f" || return 1
	# Suspects older than the test (kmemleak_since) are the kernel's own.
	since=0
	[ ! -r "$KMEMLEAK_SINCE" ] || since=$(<"$KMEMLEAK_SINCE")
	n=$(kmemleak_blame "test $since" "$RESULTS/kmemleak.boot" "$RESULTS/kmemleak.$1" <"$f")
	log "kmemleak scans ($1) took $((SECONDS - start)) s"
	n=${n#test }
	if [ -n "$n" ]; then
		echo "rdmablk-bench: kmemleak: $n suspected memory leak(s) at $1, see kmemleak.$1" >/dev/kmsg
		log "kmemleak ($1): $n suspected memory leak(s): $(grep -m1 -A12 '^unreferenced' "$RESULTS/kmemleak.$1" | tr '\n' ' ')"
	fi
	echo clear >"$f"
}

# kmemleak_scan FILE: one kmemleak scan; says so and returns 1 if it fails.
kmemleak_scan() {
	echo scan >"$1" && return 0
	echo "kmemleak_check: $1: scan failed" >&2
	return 1
}

# kmemleak_blame WINDOWS BOOT OUT: sort kmemleak's report (on stdin) by
# when each suspect was allocated (the jiffies its report names). WINDOWS
# holds one line per test, "NAME JIFFIES" (when it started), oldest first;
# a suspect goes to OUT (its "%s" replaced by NAME) of the last test that
# started before it was allocated, or to BOOT if it is older than them all.
# Prints "NAME N" for each test that N suspects went to.
kmemleak_blame() {
	awk -v windows="$1" -v boot="$2" -v out="$3" '
		BEGIN {
			n = split(windows, lines, "\n")
			for (i = 1; i <= n; i++) {
				if (split(lines[i], w, " ") < 2)
					continue
				nw++
				wname[nw] = w[1]
				wstart[nw] = w[2] + 0
			}
		}
		function flush(   k, o, f) {
			if (entry == "")
				return
			o = ""
			for (k = 1; k <= nw; k++)
				if (jif >= wstart[k])
					o = wname[k]
			if (o == "") {
				printf "%s", entry >>boot
			} else {
				f = out
				sub(/%s/, o, f)
				printf "%s", entry >>f
				count[o]++
			}
			entry = ""
			jif = 0
		}
		/^unreferenced object/ { flush() }
		{ entry = entry $0 "\n" }
		/^  comm .*, jiffies [0-9]+/ {
			match($0, /jiffies [0-9]+/)
			jif = substr($0, RSTART + 8, RLENGTH - 8) + 0
		}
		END {
			flush()
			for (o in count)
				print o, count[o]
		}'
}

# jiffies_now: the kernel's jiffies counter.
jiffies_now() {
	awk '$1 == "jiffies:" { print $2; exit }' /proc/timer_list
}

# dbg_size NORMAL DEBUG: NORMAL, or DEBUG under the debug kernel lane, where
# I/O is about 15x slower: tests shrink sizes and counts, not what they
# cover. E.g. fio_verify "$dev" 4k 16 "$(dbg_size 64m 8m)".
dbg_size() {
	if [ "${RDMABLK_DEBUG:-0}" = 1 ]; then echo "$2"; else echo "$1"; fi
}

# --- rdmablk helpers ---------------------------------------------------------

# The netlink test tool, built by `make userspace`.
RDMABLK_NL=${RDMABLK_NL:-$SRC/build/userspace/bin/rdmablk-nl}
RDMABLKCTL=${RDMABLKCTL:-$SRC/build/userspace/bin/rdmablkctl}

# nl ARGS...: run rdmablk-nl, failing the test with its message if it fails.
nl() {
	[ -x "$RDMABLK_NL" ] || fail "nl: $RDMABLK_NL not found; build it first (make userspace)"
	"$RDMABLK_NL" "$@" || fail "rdmablk-nl $* failed"
}

# nl_batch: the rdmablk-nl command lines of standard input, one a line, in
# one process (a process start costs a third of a second under TCG); fails
# at the first that fails.
nl_batch() {
	[ -x "$RDMABLK_NL" ] || fail "nl: $RDMABLK_NL not found; build it first (make userspace)"
	"$RDMABLK_NL" batch || fail "rdmablk-nl batch failed"
}

# nl_expect_error REGEX ARGS...: rdmablk-nl ARGS must fail, and its error
# line must match REGEX (extended, case-sensitive).
nl_expect_error() {
	local regex=$1 out rc=0
	shift
	out=$("$RDMABLK_NL" "$@" 2>&1) || rc=$?
	[ "$rc" -ne 0 ] || fail "rdmablk-nl $* succeeded, expected an error matching '$regex'"
	grep -Eq -- "$regex" <<<"$out" ||
		fail "rdmablk-nl $* failed with '$out', expected '$regex'"
	log "refused as expected: rdmablk-nl $*: $out"
}

# cm_ids_of_port PORT: rdma_cm ids bound to PORT (listening or connected).
# Prints nothing and fails when the rdma tool cannot list them, so that no
# count compares equal: "0" always means the list was read and had none.
cm_ids_of_port() {
	local out
	out=$(rdma resource show cm_id) || fail "cm_ids_of_port: rdma resource show cm_id failed"
	grep -Ec -- ":$1( |\$)" <<<"$out" || true
}

# slab_unreclaimable_kb: kernel memory that a leak would grow.
slab_unreclaimable_kb() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	awk '/^SUnreclaim:/ { print $2 }' /proc/meminfo
}

# ram_disk MIB: create /dev/ram0 of MIB MiB (brd), memory-backed.
ram_disk() {
	modprobe brd rd_nr=1 rd_size=$(($1 * 1024)) max_part=0 ||
		fail "ram_disk: cannot load brd"
	wait_for test -b /dev/ram0
}

# export_dev NAME PATH [export-add options]: serve PATH on TARGET_ADDR.
export_dev() {
	local name=$1 path=$2
	shift 2
	nl listen-list | grep -q "^$TARGET_ADDR 7471 " || nl listen-add "$TARGET_ADDR"
	nl export-add "$name" "$path" "$@" >/dev/null
}

# attach_dev NAME [attach options]: attach export NAME of TARGET_ADDR and
# print the device path once the block device exists. Called as
# dev=$(attach_dev ...), where set -e does not reach: every failure goes
# through fail, whose exit status the assignment passes on to the test.
attach_dev() {
	local name=$1 dev
	shift
	dev=$(nl attach "$TARGET_ADDR" "$name" "$@") || fail "attach $name failed"
	attached_dev "$name" "$dev"
}

# attached_dev NAME OUTPUT: what an attach of NAME printed must be a device
# path, and the device must appear; prints it.
attached_dev() {
	[[ $2 =~ ^/dev/rdmablk[0-9]+$ ]] || fail "attach $1 printed '$2', not a device path"
	wait_for test -b "$2" || fail "attach $1: $2 did not appear within 30 s"
	echo "$2"
}

# attach_refused REGEX NAME [attach options]: attaching export NAME of
# TARGET_ADDR fails saying REGEX and leaves no device.
attach_refused() {
	local regex=$1 out
	shift
	out=$("$RDMABLK_NL" attach "$TARGET_ADDR" "$@" 2>&1) && fail "attach $* succeeded: $out"
	grep -Eq -- "$regex" <<<"$out" || fail "attach $* said '$out', expected '$regex'"
	[ -z "$(nl dev-list)" ] || fail "a refused attach left a device: $(nl dev-list)"
	log "refused as expected: attach $*: $out"
}

# key_file PATH [key generate options]: a new key from rdmablkctl key
# generate in PATH, mode 0600 from its creation on.
key_file() {
	local path=$1
	shift
	(umask 077 && "$RDMABLKCTL" key generate "$@" >"$path") ||
		fail "rdmablkctl key generate failed"
}

# dev_index /dev/rdmablkN: N
dev_index() {
	local n=${1##*rdmablk}
	echo "$n"
}

# The settings every fio_verify and fio_verify_each job runs with.
FIO_VERIFY=(--direct=1 --ioengine=libaio --rw=randwrite --verify=crc32c --do_verify=1
	--verify_fatal=1 --randrepeat=0)

# queue_sum FILE: the values of a per-queue sysfs file (one per queue,
# space-separated), added up.
queue_sum() {
	awk '{ for (i = 1; i <= NF; i++) s += $i } END { print s + 0 }' "$1"
}

# fio_verify DEV BS IODEPTH IO_SIZE [fio options]: random writes of BS at
# IODEPTH spread over the whole device, then read back and checked
# (crc32c); any mismatch or I/O error fails the test. A job that also reads
# (--rw=randrw) needs --verify_backlog=N, which checks each block against
# the seed in its own header: without it fio 3.33 checks a read-write job's
# blocks against seeds it re-derives in the order of its write log, and
# now and then expects, from some block on, the seeds of other blocks
# ("bad header rand_seed") while every block holds the header fio wrote
# for it (075 met it in 3 of 58 runs; fio issues 746 and 1548).
fio_verify() {
	local dev=$1 bs=$2 qd=$3 io=$4
	shift 4
	log "fio verify: bs=$bs iodepth=$qd io_size=$io $*"
	fio --name="v-$bs-$qd" --filename="$dev" "${FIO_VERIFY[@]}" \
		--bs="$bs" --iodepth="$qd" --io_size="$io" \
		--output="$RESULTS/fio-$bs-$qd.txt" "$@" ||
		fail "fio verify bs=$bs iodepth=$qd failed: $(tail -20 "$RESULTS/fio-$bs-$qd.txt")"
	grep -q 'err= 0' "$RESULTS/fio-$bs-$qd.txt" ||
		fail "fio reported errors: $(cat "$RESULTS/fio-$bs-$qd.txt")"
}

# fio_start NAME DEV [fio options]: verified random writes on DEV in the
# background until fio_end NAME: every 8 blocks written are read back and
# checked (crc32c) while it runs, so verified I/O goes on across whatever
# the test does meanwhile, however fast or slow the guest. FIO_PID is its
# pid.
fio_start() {
	local name=$1 dev=$2
	shift 2
	fio --name="$name" --filename="$dev" "${FIO_VERIFY[@]}" --verify_backlog=8 \
		--time_based --runtime=3600 --output="$RESULTS/fio-$name.txt" "$@" &
	FIO_PID=$!
}

# fio_end NAME: stop fio_start's job (SIGINT: it ends its I/O, reports and
# exits 128) and fail on an I/O error or a block that did not read back as
# written.
fio_end() {
	local out=$RESULTS/fio-$1.txt rc=0
	kill -0 "$FIO_PID" 2>/dev/null || fail "fio $1 ended early: $(tail -30 "$out")"
	kill -INT "$FIO_PID"
	wait "$FIO_PID" || rc=$?
	[ "$rc" = 0 ] || [ "$rc" = 128 ] || fail "fio $1 failed (status $rc): $(tail -30 "$out")"
	grep -q 'err= 0' "$out" || fail "fio $1 reported errors: $(cat "$out")"
	# Verify reads are counted among the issued reads.
	[ "$(sed -n 's/.*issued rwts: total=\([0-9]*\),.*/\1/p' "$out")" -gt 0 ] ||
		fail "fio $1 verified nothing: $(cat "$out")"
}

# fio_verify_each DEV "BS IODEPTH IO_SIZE [fio options]"...: fio_verify for
# each, one after the other, in one fio process (a process start of fio,
# which loads some sixty libraries, costs seconds under TCG and ten under
# the debug kernel). Every job must end with no error.
fio_verify_each() {
	local dev=$1 spec bs qd io out=$RESULTS/fio-each.txt i=0
	local -a args=(--filename="$dev" "${FIO_VERIFY[@]}") opts
	shift
	for spec in "$@"; do
		read -r bs qd io opts <<<"$spec"
		read -ra opts <<<"${opts:-}"
		log "fio verify: bs=$bs iodepth=$qd io_size=$io ${opts[*]}"
		i=$((i + 1))
		args+=(--name="v$i-$bs-$qd" --stonewall --bs="$bs" --iodepth="$qd" --io_size="$io" "${opts[@]}")
	done
	fio --output="$out" "${args[@]}" ||
		fail "fio verify failed: $(grep -E 'err=|verify|error' "$out" | head -20)"
	[ "$(grep -c 'err= 0' "$out")" -eq "$i" ] ||
		fail "fio reported errors: $(grep -E '^v[0-9]+-|err=' "$out")"
}

# second_link ADDR PEER: in one guest, a second link beside the first
# (scripts/vm/guest-init's net_one): a veth pair, ADDR on veth2 with rxe2
# and PEER on veth3 with rxe3. Connections to ADDR go over rxe2 alone, so
# removing rxe0 leaves them up (multipath tests and benchmarks).
second_link() {
	ip link add veth2 mtu 1500 type veth peer name veth3 mtu 1500 ||
		fail "second_link: cannot create veth2"
	ip addr add "$1/24" dev veth2 || fail "second_link: cannot address veth2"
	ip addr add "$2/24" dev veth3 || fail "second_link: cannot address veth3"
	ip link set veth2 up || fail "second_link: veth2 stays down"
	ip link set veth3 up || fail "second_link: veth3 stays down"
	rdma link add rxe2 type rxe netdev veth2 || fail "second_link: cannot add rxe2"
	rdma link add rxe3 type rxe netdev veth3 || fail "second_link: cannot add rxe3"
	wait_for -t 30 rdma_port_active rxe2 || fail "second_link: rxe2 did not come up"
}

# path_field DEV ID N: field N of path ID's line in sysfs "paths"
# (1 id, 2 target, 3 state, 4 standby|active, 5 in flight, 6 commands,
# 7 failovers). Read by the shell, without starting a process.
path_field() {
	local id addr state mode inflight commands failovers
	while read -r id addr state mode inflight commands failovers; do
		[ "$id" = "$2" ] || continue
		case $3 in
		2) echo "$addr" ;; 3) echo "$state" ;; 4) echo "$mode" ;;
		5) echo "$inflight" ;; 6) echo "$commands" ;; 7) echo "$failovers" ;;
		esac
		return 0
	done <"/sys/block/${1#/dev/}/rdmablk/paths"
	return 1
}

# path_is DEV ID STATE: path ID of DEV is in STATE (live, reconnecting, dead).
path_is() {
	[ "$(path_field "$1" "$2" 3)" = "$3" ]
}

# paths_count DEV: how many paths DEV has.
paths_count() {
	wc -l <"/sys/block/${1#/dev/}/rdmablk/paths"
}

# commands_above DEV ID N: path ID sent more than N commands. Read by the
# shell, without starting a process.
commands_above() {
	[ "$(path_field "$1" "$2" 6)" -gt "$3" ]
}

# more_writes DEV N [SECONDS]: DEV completes N more writes than now, within
# SECONDS (60 by default; four times that under the debug kernel lane).
more_writes() {
	local n t=${3:-60}
	n=$(writes_done "$1")
	t=$(dbg_size "$t" $((t * 4)))
	wait_for -t "$t" -i 0.5 writes_above "$1" $((n + $2)) ||
		fail "$1 completed only $(($(writes_done "$1") - n)) of $2 more writes in ${t}s"
}

# lost_lines DEV: the kernel's lines about DEV's lost connection.
lost_lines() {
	dmesg | grep "${1#/dev/}: connection to .* lost"
}

# nic_of_addr ADDR: the interface that has the IPv4 address ADDR.
nic_of_addr() {
	ip -o -4 addr show | awk -v a="$1" '$4 ~ "^" a "/" { print $2; exit }'
}

# rxe_netdev DEV: the network interface under soft-RoCE device DEV.
rxe_netdev() {
	rdma link show "$1/1" | sed -n 's/.* netdev \([^ ]*\).*/\1/p'
}

# dev_field DEV KEY: one value of `rdmablk-nl dev-show DEV`.
dev_field() {
	nl dev-show "$1" | sed -n "s/^$2=//p"
}

# dev_state DEV: live | reconnecting | dead | deleting
dev_state() {
	dev_field "$1" state
}

# state_is DEV STATE: DEV's state, as its disk's sysfs names it
# (/sys/block/rdmablkN/rdmablk/state, the names of dev-show), is STATE. Read
# by the shell, without starting a process (see writes_above).
state_is() {
	local st
	read -r st <"/sys/block/${1#/dev/}/rdmablk/state" 2>/dev/null && [ "$st" = "$2" ]
}

# wait_state DEV STATE [SECONDS]: until DEV reaches STATE.
wait_state() {
	local dev=$1 want=$2 t=${3:-60}
	wait_for -t "$t" -i 0.2 state_is "$dev" "$want" ||
		fail "$dev did not become $want within ${t}s: $(nl dev-show "$dev" | tr '\n' ' ')"
}

# count_above FILE N: the first number in FILE is above N (read by the
# shell, without starting a process, so that a tight wait_for loop costs
# the guest little).
count_above() {
	local n
	read -r n _ <"$1" || return 1
	[ "$n" -gt "$2" ]
}

# reconnect DEV: force a reconnect of attached DEV and wait until it is
# live again.
reconnect() {
	local sys=/sys/block/${1#/dev/}/rdmablk r
	read -r r <"$sys/reconnects"
	nl reconnect "$(dev_index "$1")"
	wait_for -t 60 -i 0.2 count_above "$sys/reconnects" "$r" ||
		fail "the reconnect did not happen within 60 s: $(nl dev-show "$1" | tr '\n' ' ')"
	wait_state "$1" live 60
}

# start_udevd: run udevd with the shipped rules, which make the stable names
# /dev/rdmablk/<export> and /dev/disk/by-id/rdmablk-<export>-<uuid> (the
# guest runs no udev otherwise).
start_udevd() {
	mkdir -p /etc/udev/rules.d
	cp "$SRC/daemon/udev/60-rdmablk.rules" /etc/udev/rules.d/
	/lib/systemd/systemd-udevd --daemon || fail "cannot start udevd"
	udevadm control --ping || fail "udevd does not answer"
}

# stop_udevd: end the udevd start_udevd started.
stop_udevd() {
	udevadm control --exit || true
}

# check_stable_names NAME UUID DEV: once udev settled, the stable names of
# export NAME lead to DEV.
check_stable_names() {
	local name=$1 uuid=$2 dev=$3 link
	udevadm settle -t 30 || fail "udev events did not settle"
	for link in "/dev/rdmablk/$name" "/dev/disk/by-id/rdmablk-$name-$uuid"; do
		[ "$(readlink -f "$link")" = "$dev" ] ||
			fail "$link leads to '$(readlink -f "$link")', not $dev"
	done
	log "$name: links lead to $dev"
}

# no_stable_names NAME UUID: once udev settled, the stable names of export
# NAME are gone.
no_stable_names() {
	udevadm settle -t 30 || fail "udev events did not settle"
	[ ! -e "/dev/rdmablk/$1" ] || fail "/dev/rdmablk/$1 left behind"
	[ ! -e "/dev/disk/by-id/rdmablk-$1-$2" ] || fail "by-id link of $1 left behind"
}

# rdma_objects: counts of QPs, MRs, PDs, CQs and cm ids, for leak checks.
rdma_objects() {
	local kind
	for kind in qp mr pd cq cm_id; do
		printf '%s=%s ' "$kind" "$(rdma resource show "$kind" 2>/dev/null | grep -c . || true)"
	done
	echo
}

# expect_rdma_objects BASELINE: the RDMA objects (rdma_objects) come back to
# BASELINE within 30 s: nothing leaked.
expect_rdma_objects() {
	export -f rdma_objects
	wait_for -t 30 bash -c "[ \"\$(rdma_objects)\" = '$1' ]" ||
		fail "RDMA objects leaked: before '$1', after '$(rdma_objects)'"
	log "no RDMA objects leaked ($1)"
}

# writes_done DEV: write requests DEV has completed.
writes_done() {
	awk '{ print $5 }' "/sys/block/${1#/dev/}/stat"
}

# writes_above DEV N: DEV completed more than N writes (read by the shell,
# without starting a process: under the debug kernel, with fio keeping the
# guest's one vCPU busy, starting one can take seconds).
writes_above() {
	local _ _r _rm _rs _rt w
	read -r _r _rm _rs _rt w _ <"/sys/block/${1#/dev/}/stat" || return 1
	[ "$w" -gt "$2" ]
}

# wait_writes DEV N [SECONDS]: until DEV completed more than N writes (a
# tenth of N, and four times SECONDS, under the debug kernel lane, where I/O
# is about 15x slower).
wait_writes() {
	local dev=$1 n=$2 t=${3:-60}
	n=$(dbg_size "$n" $((n / 10)))
	t=$(dbg_size "$t" $((t * 4)))
	wait_for -t "$t" -i 0.5 writes_above "$dev" "$n" ||
		fail "$dev completed only $(writes_done "$dev") writes in ${t}s, expected more than $n"
}

# link_cut NIC: drop every packet NIC sends or receives: a dead link on the
# wire, while the interface stays up (a virtio NIC taken down and up again
# may stop receiving from QEMU's socket link, which is not what is tested).
link_cut() {
	modprobe -a sch_prio sch_ingress cls_matchall act_gact || fail "link_cut: tc modules missing"
	tc qdisc add dev "$1" root handle 1: prio &&
		tc filter add dev "$1" parent 1: matchall action drop &&
		tc qdisc add dev "$1" handle ffff: ingress &&
		tc filter add dev "$1" parent ffff: matchall action drop ||
		fail "link_cut: cannot cut $1"
	log "link $1 cut"
}

# link_restore NIC: undo link_cut.
link_restore() {
	tc qdisc del dev "$1" root || fail "link_restore: $1 root qdisc"
	tc qdisc del dev "$1" ingress || fail "link_restore: $1 ingress qdisc"
	log "link $1 restored"
}
