#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of scripts/bench: runs inside one bench guest (scripts/vm/run-script)
# and measures rdmablk and nvme-rdma side by side over the same soft-RoCE link.
#
# Both stacks export a null_blk device of the same kind (nullb0 for rdmablk,
# nullb1 for nvmet) on 192.0.2.1 (rxe0, veth0) and are attached from the same
# guest. For every repetition and profile, fio runs once against each stack,
# the order alternating between repetitions. Per run it stores the fio JSON,
# the rxe counters of both ports, the guest's CPU time, context switches and
# interrupts (/proc/stat) and softirqs (/proc/softirqs) before and after;
# scripts/bench-report.py turns them into the tables on the host.
#
# Settings (environment, passed through by scripts/bench):
#   RDMABLK_BENCH_RUNTIME    seconds per fio run (default 20)
#   RDMABLK_BENCH_REPEAT     repetitions of the whole matrix (default 3)
#   RDMABLK_BENCH_PROFILES   comma-separated profile names (default: all)
#   RDMABLK_BENCH_MODULE_PARAMS  rdmablk module parameters (default: none)
#   RDMABLK_BENCH_COMPARE    module parameters (NAME=VALUE words) of a second
#                            rdmablk setting measured in every repetition
#                            beside the first (runs named rdmablk-b); the
#                            disk is attached again to switch (default: none)
#   RDMABLK_BENCH_PERF       1: profile the whole guest during each fio run
#                            (default 0)
#
# Output: $RESULTS/bench/ (build/vm-logs/bench/bench/ on the host).
# shellcheck source-path=SCRIPTDIR
set -eEuo pipefail

# shellcheck source=../tests/vm/lib.sh
. "${VM_LIB:?run this through scripts/bench (scripts/vm/run-script)}"
# shellcheck source=bench-nvme.sh
. "$(dirname "${BASH_SOURCE[0]}")/bench-nvme.sh"
trap 'printf "ERROR: %s:%s: command failed with status %s: %s\n" "${BASH_SOURCE[0]}" "$LINENO" "$?" "$BASH_COMMAND" >&2' ERR

RUNTIME=${RDMABLK_BENCH_RUNTIME:-20}
REPEAT=${RDMABLK_BENCH_REPEAT:-3}
WANT=${RDMABLK_BENCH_PROFILES:-all}
PERF=${RDMABLK_BENCH_PERF:-0}
COMPARE=${RDMABLK_BENCH_COMPARE:-}
OUT=$RESULTS/bench

# name rw bs iodepth [engine [numjobs]]
# engine: libaio (the default); uring, io_uring with interrupts; polled,
# io_uring with IOPOLL (hipri) on the poll queue each stack has (rdmablk
# --poll-queues 1, nvme connect --nr-poll-queues 1); batch16, io_uring
# submitting 16 at once when 16 completed (blk-mq hands them over together:
# rdmablk's batch_submit).
# numjobs: fio jobs on the device, each keeping iodepth in flight (default 1;
# the engine field must come first, libaio included); several jobs are
# reported as one (--group_reporting).
# randrw reads 70% and writes 30% (--rwmixread=70).
PROFILES=(
	"randread-4k-qd1 randread 4k 1"
	"randwrite-4k-qd1 randwrite 4k 1"
	"randread-4k-qd8 randread 4k 8"
	"randread-4k-qd32 randread 4k 32"
	"randread-4k-qd32-2j randread 4k 32 libaio 2"
	"randwrite-4k-qd32 randwrite 4k 32"
	"randrw-4k-qd32-2j randrw 4k 32 libaio 2"
	"randread-8k-qd16 randread 8k 16"
	"randread-16k-qd16 randread 16k 16"
	"read-128k-qd16 read 128k 16"
	"write-128k-qd16 write 128k 16"
	"randread-4k-qd1-uring randread 4k 1 uring"
	"randread-4k-qd1-polled randread 4k 1 polled"
	"randread-4k-qd32-batch16 randread 4k 32 batch16"
)

EXPORT=bench
NQN=nqn.2026-11.org.example:rdmablk-bench
# Same queue shape for both stacks: one I/O queue per vCPU, 128 deep, and
# one poll queue besides.
QUEUES=$(nproc)
POLL_QUEUES=1
QDEPTH=128

RB_DEV=''
NV_DEV=''
# With COMPARE: the setting the disk is attached with now (rdmablk or
# rdmablk-b), and each compared parameter's value as loaded.
SETTING=rdmablk
declare -A BASE_VALUES=()

# rxe_counters: one line per port, "DEV/PORT name value name value ...".
rxe_counters() {
	local d
	for d in "$TARGET_RDMA_DEV" "$INITIATOR_RDMA_DEV"; do
		rdma statistic show link "$d/1" | tr -s ' \n' ' '
		echo
	done
}

setup_nullblk() {
	# Two identical memory-less devices completing in the submitting
	# context: the backend costs the same for both stacks and is far faster
	# than the link (about 26k IOPS locally under TCG).
	modprobe null_blk nr_devices=2 gb=1 queue_mode=2 irqmode=0
	wait_for -t 10 test -b /dev/nullb0
	wait_for -t 10 test -b /dev/nullb1
}

setup_rdmablk() {
	# shellcheck disable=SC2086 # the parameters are words
	load_rdmablk ${RDMABLK_BENCH_MODULE_PARAMS:-}
	nl listen-add "$TARGET_ADDR" >/dev/null
	nl export-add "$EXPORT" /dev/nullb0 >/dev/null
	attach_rdmablk
}

attach_rdmablk() {
	RB_DEV=$(nl attach "$TARGET_ADDR" "$EXPORT" --queues "$QUEUES" \
		--poll-queues "$POLL_QUEUES" --queue-depth "$QDEPTH" --hostid "$HOSTID")
	[[ $RB_DEV =~ ^/dev/rdmablk[0-9]+$ ]] || fail "attach printed '$RB_DEV', not /dev/rdmablkN"
	wait_for -t 30 test -b "$RB_DEV" || fail "$RB_DEV did not appear"
	log "rdmablk: $RB_DEV ($("$RDMABLK_NL" dev-list | paste -sd' '))"
}

# compare_params: check that every COMPARE parameter can be written at run
# time, and remember its value as loaded.
compare_params() {
	local w name f
	for w in $COMPARE; do
		name=${w%%=*}
		f=/sys/module/rdmablk/parameters/$name
		[ -e "$f" ] || fail "--compare: rdmablk has no module parameter '$name'"
		# A parameter without write permission is set at load only.
		[ $((0$(stat -c %a "$f") & 0200)) != 0 ] ||
			fail "--compare: '$name' is set only when the module loads; measure it with --module-params in two benches"
		BASE_VALUES[$name]=$(<"$f")
	done
}

# use_setting SETTING: the disk attached with SETTING's parameters (rdmablk:
# as loaded; rdmablk-b: COMPARE's): detached, the parameters written, and
# attached again (connections, queues and the target's side of them made
# anew, with the parameters read then).
use_setting() {
	local w name value
	[ "$1" != "$SETTING" ] || return 0
	nl detach "$RB_DEV"
	for w in $COMPARE; do
		name=${w%%=*}
		value=${w#*=}
		[ "$1" = rdmablk-b ] || value=${BASE_VALUES[$name]}
		echo "$value" >"/sys/module/rdmablk/parameters/$name" ||
			fail "--compare: cannot set $name to '$value'"
	done
	attach_rdmablk
	set_scheduler "$RB_DEV"
	SETTING=$1
}

teardown_rdmablk() {
	[ -n "$RB_DEV" ] || return 0
	nl detach "$RB_DEV"
	nl export-del "$EXPORT"
	nl listen-del "$TARGET_ADDR"
	unload_rdmablk
}

setup_nvme() {
	local s=$NVMET/subsystems/$NQN p=$NVMET/ports/1
	modprobe -a nvmet nvmet_rdma nvme_rdma
	mkdir "$s"
	echo 1 >"$s/attr_allow_any_host"
	mkdir "$s/namespaces/1"
	echo /dev/nullb1 >"$s/namespaces/1/device_path"
	echo 1 >"$s/namespaces/1/enable"
	mkdir "$p"
	echo rdma >"$p/addr_trtype"
	echo ipv4 >"$p/addr_adrfam"
	echo "$TARGET_ADDR" >"$p/addr_traddr"
	echo "$NVME_PORT" >"$p/addr_trsvcid"
	ln -s "$s" "$p/subsystems/$NQN"
	nvme connect -t rdma -a "$TARGET_ADDR" -s "$NVME_PORT" -n "$NQN" \
		--hostnqn="$HOSTNQN" --hostid="$HOSTID" \
		--nr-io-queues="$QUEUES" --nr-poll-queues="$POLL_QUEUES" \
		--queue-size="$QDEPTH" >/dev/null
	wait_for -t 30 nvme_block_dev "$NQN" || fail "no block device for $NQN after nvme connect"
	NV_DEV=$(nvme_block_dev "$NQN")
	wait_for -t 10 test -b "$NV_DEV"
	log "nvme-rdma: $NV_DEV"
}

teardown_nvme() {
	local s=$NVMET/subsystems/$NQN p=$NVMET/ports/1
	[ -n "$NV_DEV" ] || return 0
	nvme disconnect -n "$NQN" >/dev/null
	rm -f "$p/subsystems/$NQN"
	rmdir "$p"
	echo 0 >"$s/namespaces/1/enable"
	rmdir "$s/namespaces/1"
	rmdir "$s"
}

# describe_dev STACK DEV: the block queue settings fio meets.
describe_dev() {
	local name=${2#/dev/} q f v mq
	q=/sys/block/$name/queue
	printf '%s %s' "$1" "$2"
	for f in scheduler nr_requests max_sectors_kb max_hw_sectors_kb logical_block_size; do
		v=$(<"$q/$f")
		# The active scheduler is the bracketed one, if there is a choice.
		[[ $v =~ \[([^]]*)\] ]] && v=${BASH_REMATCH[1]}
		printf ' %s=%s' "$f" "$v"
	done
	# Under native NVMe multipath the visible disk is bio-based; its
	# hardware queues are those of the hidden per-path disk nvmeXcYnZ.
	mq=/sys/block/$name/mq
	if [ ! -d "$mq" ] && [[ $name =~ ^nvme([0-9]+)n([0-9]+)$ ]]; then
		for f in /sys/block/nvme*c*n"${BASH_REMATCH[2]}"; do
			if [ -d "$f/mq" ]; then
				mq=$f/mq
				printf ' path=%s' "${f##*/}"
				break
			fi
		done
	fi
	printf ' hw_queues=%s size_bytes=%s\n' "$(find "$mq" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)" \
		"$(blockdev --getsize64 "$2")"
}

# set_scheduler DEV: no I/O scheduler, as blk-mq picks for multi-queue disks.
set_scheduler() {
	local f=/sys/block/${1#/dev/}/queue/scheduler
	grep -Eq '(^|\[)none(\]|$)' "$f" || echo none >"$f"
	grep -Eq '^none$|\[none\]' "$f" || fail "cannot set scheduler none on $1: $(cat "$f")"
}

# run_fio TAG DEV RW BS QD ENGINE NUMJOBS: one measurement, JSON, counters,
# CPU time and what the kernel logged meanwhile (TAG.kmsg, when anything)
# into $OUT.
run_fio() {
	local tag=$1 dev=$2 rw=$3 bs=$4 qd=$5 jobs=$7 engine=(--ioengine=libaio) extra=() prof=() klines
	case $6 in
	libaio) ;;
	uring) engine=(--ioengine=io_uring) ;;
	polled) engine=(--ioengine=io_uring --hipri=1) ;;
	batch16) engine=(--ioengine=io_uring --iodepth_batch_submit=16 --iodepth_batch_complete_min=16) ;;
	*) fail "unknown engine '$6' for $tag" ;;
	esac
	[[ $jobs =~ ^[1-9][0-9]*$ ]] || fail "bad numjobs '$jobs' for $tag"
	# One entry in the JSON however many jobs: bench-report.py expects one.
	[ "$jobs" -eq 1 ] || extra+=(--group_reporting)
	[ "$rw" != randrw ] || extra+=(--rwmixread=70)
	rxe_counters >"$OUT/$tag.rxe-before"
	# What the kernel logs during the run (a lost connection, a reconnect):
	# scripts/bench calls such a run's figures into question.
	klines=$(dmesg | wc -l)
	# The whole guest's CPU time (initiator, target and fio alike), context
	# switches and interrupts, and softirqs by kind.
	cat /proc/stat >"$OUT/$tag.cpu-before"
	cat /proc/softirqs >"$OUT/$tag.softirqs-before"
	# Every CPU, kernel and user, sampled by the clock (TCG has no PMU),
	# with call chains: what a function costs with its callees, per vCPU.
	[ "$PERF" = 0 ] || prof=(perf record -q -a -g -e cpu-clock -F 499 -o "$OUT/$tag.perf.data" --)
	"${prof[@]}" fio --name="$tag" --filename="$dev" --rw="$rw" --bs="$bs" --iodepth="$qd" \
		--direct=1 "${engine[@]}" --numjobs="$jobs" "${extra[@]}" --time_based --runtime="$RUNTIME" \
		--output-format=json --output="$OUT/$tag.json"
	cat /proc/stat >"$OUT/$tag.cpu-after"
	cat /proc/softirqs >"$OUT/$tag.softirqs-after"
	rxe_counters >"$OUT/$tag.rxe-after"
	dmesg | tail -n +$((klines + 1)) >"$OUT/$tag.kmsg"
	[ -s "$OUT/$tag.kmsg" ] || rm -f "$OUT/$tag.kmsg"
	if [ "$PERF" != 0 ]; then
		# Here, where the module's and the kernel's symbols are.
		perf report -q -i "$OUT/$tag.perf.data" --stdio --no-children -g none \
			--sort comm,dso,sym --percent-limit 0.3 >"$OUT/$tag.perf.txt" 2>/dev/null
		perf report -q -i "$OUT/$tag.perf.data" --stdio --children -g none \
			--sort cpu,sym --percent-limit 0.5 >"$OUT/$tag.perf-cpu.txt" 2>/dev/null
		rm -f "$OUT/$tag.perf.data"
	fi
}

cleanup() {
	trap - ERR
	teardown_nvme || true
	teardown_rdmablk || true
}

main() {
	local r p i name rw bs qd engine jobs stacks s dev selected=()
	[[ $RUNTIME =~ ^[1-9][0-9]*$ ]] || fail "bad RDMABLK_BENCH_RUNTIME '$RUNTIME'"
	[[ $REPEAT =~ ^[1-9][0-9]*$ ]] || fail "bad RDMABLK_BENCH_REPEAT '$REPEAT'"
	for p in "${PROFILES[@]}"; do
		read -r name _ <<<"$p"
		if [[ $WANT == all || ,$WANT, == *",$name,"* ]]; then
			selected+=("$p")
		fi
	done
	[ "${#selected[@]}" -gt 0 ] || fail "no profile matches '$WANT'"
	mkdir -p "$OUT"

	trap cleanup EXIT
	setup_nullblk
	setup_rdmablk
	setup_nvme
	set_scheduler "$RB_DEV"
	set_scheduler "$NV_DEV"
	[ -z "$COMPARE" ] || compare_params

	{
		echo "date $(date -u +%Y-%m-%dT%H:%M:%SZ)"
		echo "kernel $(uname -r)"
		echo "cpus $(nproc)"
		echo "mem_kb $(awk '/^MemTotal:/ {print $2}' /proc/meminfo)"
		echo "fio $(fio --version)"
		echo "runtime $RUNTIME"
		echo "repeat $REPEAT"
		echo "queues $QUEUES"
		echo "poll_queues $POLL_QUEUES"
		echo "rdmablk_module_params ${RDMABLK_BENCH_MODULE_PARAMS:-}"
		[ -z "$COMPARE" ] || echo "rdmablk_compare_params $COMPARE"
		echo "queue_depth $QDEPTH"
		rdma link show | sed 's/^/rdma_link /'
		for s in "$TARGET_RDMA_DEV" "$INITIATOR_RDMA_DEV"; do
			echo "active_mtu $s $(ibv_devinfo -d "$s" | awk '/active_mtu/ {print $2}')"
		done
		echo "nullblk $(for f in /sys/module/null_blk/parameters/{queue_mode,irqmode,gb,bs,hw_queue_depth,submit_queues}; do printf '%s=%s ' "${f##*/}" "$(cat "$f")"; done)"
		describe_dev rdmablk "$RB_DEV" | sed 's/^/device /'
		describe_dev nvme-rdma "$NV_DEV" | sed 's/^/device /'
		echo "rdmablk_module ${RDMABLK_KO:-$SRC/kmod/rdmablk.ko} srcversion=$(cat /sys/module/rdmablk/srcversion 2>/dev/null || echo unknown)"
		echo "rdmablk_dev_list $("$RDMABLK_NL" dev-list | paste -sd' ')"
	} >"$OUT/env.txt"

	# Background traffic with no I/O (keep-alives and the like), to judge
	# what the per-I/O packet counts include.
	rxe_counters >"$OUT/idle.rxe-before"
	sleep 10
	rxe_counters >"$OUT/idle.rxe-after"
	echo 10 >"$OUT/idle.seconds"

	for ((r = 1; r <= REPEAT; r++)); do
		# Alternate which stack goes first, so a drift over time does not
		# always favour the same one.
		if ((r % 2)); then stacks=(rdmablk nvme); else stacks=(nvme rdmablk); fi
		i=0
		for p in "${selected[@]}"; do
			read -r name rw bs qd engine jobs <<<"$p"
			# Both settings with nvme-rdma between them, which one
			# first alternating from one repetition to the next for
			# each profile, and from one profile to the next, so that
			# the setting the disk has goes first (one switch a
			# profile, one more a repetition when the profiles are
			# even in number).
			if [ -n "$COMPARE" ]; then
				if (((r + i) % 2)); then
					stacks=(rdmablk nvme rdmablk-b)
				else
					stacks=(rdmablk-b nvme rdmablk)
				fi
				i=$((i + 1))
			fi
			for s in "${stacks[@]}"; do
				dev=$NV_DEV
				if [ "$s" != nvme ]; then
					[ -z "$COMPARE" ] || use_setting "$s"
					dev=$RB_DEV
				fi
				log "run $r/$REPEAT $name $s ($dev)"
				run_fio "r$r.$name.$s" "$dev" "$rw" "$bs" "$qd" "${engine:-libaio}" "${jobs:-1}"
			done
		done
	done

	# Tells the host every measurement is in; what follows is teardown.
	date -u +%Y-%m-%dT%H:%M:%SZ >"$OUT/measured"
	trap - EXIT
	teardown_nvme
	NV_DEV=''
	teardown_rdmablk
	RB_DEV=''
	log "bench done"
}

main "$@"
