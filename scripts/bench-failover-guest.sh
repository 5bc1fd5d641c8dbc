#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of scripts/bench-failover: in one bench guest, a disk over two
# paths for each stack, rdmablk (PATH_ADD) and NVMe native multipath
# (nvmet with two ports, nvme connect to each), each path on its own
# soft-RoCE link: 192.0.2.1 over rxe0, 198.51.100.1 over rxe2
# (second_link). fio reads 4 KiB at queue depth 1 from the multipath disk
# and logs every completion (epoch ms); the first path is cut by removing
# its RDMA device (rdma link del rxe0: a signalled loss, as a pulled HCA or
# a dead port), and the I/O pause is the longest gap between two
# completions from 100 ms before the cut to the end of the run. Then rxe0
# comes back, both paths are live again (nvme-rdma deletes the controller
# of a removed RDMA device rather than reconnecting it, and nvmet-rdma
# its listener: both are set up again here, as an admin would), and the
# next cut follows; the stacks alternate cut by cut.
#
# Settings (environment, passed through by scripts/bench-failover):
#   RDMABLK_FAILOVER_CUTS   cuts per stack (default 10)
#   RDMABLK_FAILOVER_TPUT   then this many pairs of throughput runs of
#                           the rdmablk disk, one path against two
#                           (default 0: none)
#   RDMABLK_FAILOVER_LINK_MBIT  two guests (bench-failover-silent.sh): the
#                           target shapes its NICs to this many Mbit/s
#                           each for the throughput runs (default 0: not)
#
# Output: $RESULTS/failover/cuts.txt, one line per cut:
#   STACK CUT PAUSE_MS COMPLETIONS_AFTER_CUT
#
# scripts/bench-failover-silent.sh sources this file for its two guests:
# the target's half (serve_both), the initiator's (attach_both, cuts) and
# a cut of its own (CUT_KIND=silent).
# shellcheck source-path=SCRIPTDIR
set -eEuo pipefail

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	# shellcheck source=../tests/vm/lib.sh
	. "${VM_LIB:?run this through scripts/bench-failover (scripts/vm/run-script)}"
fi
# shellcheck source=bench-nvme.sh
. "$(dirname "${BASH_SOURCE[0]}")/bench-nvme.sh"
trap 'printf "ERROR: %s:%s: command failed with status %s: %s\n" "${BASH_SOURCE[0]}" "$LINENO" "$?" "$BASH_COMMAND" >&2' ERR

CUTS=${RDMABLK_FAILOVER_CUTS:-10}
OUT=$RESULTS/failover
ADDR2=$TARGET_ADDR2
PEER2=$INITIATOR_ADDR2
EXPORT=failover
NQN=nqn.2026-11.org.example:rdmablk-failover
# Each run: fio for this long; the cut at CUT_AT seconds into it.
RUN_S=8
CUT_AT=3
# Throughput (RDMABLK_FAILOVER_TPUT pairs of one path against two): fio for
# this long each.
TPUT_PAIRS=${RDMABLK_FAILOVER_TPUT:-0}
TPUT_S=10

RB_DEV=''
NV_DEV=''
RXE0_NIC=''

# serve_both: the target's side: null_blk disks, nullb0 exported by
# rdmablk and nullb1 by nvmet, each at both addresses.
serve_both() {
	modprobe null_blk nr_devices=2 gb=1 queue_mode=2 irqmode=0
	wait_for -t 10 test -b /dev/nullb1
	load_rdmablk
	nl listen-add "$TARGET_ADDR" >/dev/null
	nl listen-add "$ADDR2" >/dev/null
	nl export-add "$EXPORT" /dev/nullb0 >/dev/null
	nvmet_serve
}

attach_rdmablk() {
	[ "$RDMABLK_ROLE" = one ] || load_rdmablk
	RB_DEV=$(nl attach "$TARGET_ADDR" "$EXPORT" --queues 1 --hostid "$HOSTID" \
		--reconnect-delay 1 --keepalive-tmo 2 --ctrl-loss-tmo 600)
	[[ $RB_DEV =~ ^/dev/rdmablk[0-9]+$ ]] || fail "attach printed '$RB_DEV'"
	nl path-add "$RB_DEV" "$ADDR2" >/dev/null
	wait_for -t 30 test -b "$RB_DEV" || fail "$RB_DEV did not appear"
	log "rdmablk: $RB_DEV, paths: $(tr '\n' ';' <"/sys/block/${RB_DEV#/dev/}/rdmablk/paths")"
}

nvmet_serve() {
	local s=$NVMET/subsystems/$NQN p n addr
	modprobe -a nvmet nvmet_rdma
	mkdir "$s"
	echo 1 >"$s/attr_allow_any_host"
	mkdir "$s/namespaces/1"
	echo /dev/nullb1 >"$s/namespaces/1/device_path"
	echo 1 >"$s/namespaces/1/enable"
	n=1
	for addr in "$TARGET_ADDR" "$ADDR2"; do
		p=$NVMET/ports/$n
		mkdir "$p"
		echo rdma >"$p/addr_trtype"
		echo ipv4 >"$p/addr_adrfam"
		echo "$addr" >"$p/addr_traddr"
		echo "$NVME_PORT" >"$p/addr_trsvcid"
		ln -s "$s" "$p/subsystems/$NQN"
		n=$((n + 1))
	done
}

attach_nvme() {
	local addr
	[ "$(cat /sys/module/nvme_core/parameters/multipath 2>/dev/null)" = Y ] ||
		modprobe nvme_core multipath=Y
	modprobe nvme_rdma
	[ "$(cat /sys/module/nvme_core/parameters/multipath)" = Y ] ||
		fail "nvme_core native multipath is off"
	for addr in "$TARGET_ADDR" "$ADDR2"; do
		nvme_connect "$addr" || fail "nvme connect to $addr failed"
	done
	wait_for -t 30 nvme_block_dev "$NQN" || fail "no multipath disk for $NQN"
	NV_DEV=$(nvme_block_dev "$NQN")
	wait_for -t 10 test -b "$NV_DEV"
	log "nvme: $NV_DEV over $(nvme_paths_live)"
}

# nvme_paths_live: the live controllers of the subsystem.
nvme_paths_live() {
	local c n=0
	for c in /sys/class/nvme/nvme*; do
		[ "$(cat "$c/subsysnqn" 2>/dev/null)" = "$NQN" ] || continue
		[ "$(cat "$c/state")" = live ] && n=$((n + 1))
	done
	echo "$n"
}

rdmablk_paths_live() {
	grep -c ' live ' "/sys/block/${RB_DEV#/dev/}/rdmablk/paths"
}

# nvme_connect ADDR: a controller of the subsystem at ADDR.
nvme_connect() {
	nvme connect -t rdma -a "$1" -s "$NVME_PORT" -n "$NQN" \
		--hostnqn="$HOSTNQN" --hostid="$HOSTID" --nr-io-queues=1 \
		--reconnect-delay=1 --keep-alive-tmo=2 --ctrl-loss-tmo=600 >/dev/null 2>&1
}

# nvme_has_path ADDR: a controller of the subsystem connects to ADDR.
nvme_has_path() {
	local c
	for c in /sys/class/nvme/nvme*; do
		[ "$(cat "$c/subsysnqn" 2>/dev/null)" = "$NQN" ] || continue
		grep -q "traddr=$1," "$c/address" 2>/dev/null && return 0
	done
	return 1
}

# both_live STACK: both paths of STACK are live. nvme-rdma deletes a
# controller whose RDMA device goes away (it does not reconnect it): its
# path is connected again, as an admin would, once the port is back.
both_live() {
	case $1 in
	rdmablk) [ "$(rdmablk_paths_live)" = 2 ] ;;
	nvme)
		nvme_has_path "$TARGET_ADDR" || nvme_connect "$TARGET_ADDR" || return 1
		[ "$(nvme_paths_live)" = 2 ]
		;;
	esac
}

# cut_first_path, restore_first_path: the first path's loss, and its
# return. CUT_KIND=device (one guest): its RDMA device removed and
# re-added. CUT_KIND=silent (two guests): its link dropping every packet
# both ways, the NIC and its RDMA device up, then passing them again.
cut_first_path() {
	case $CUT_KIND in
	device) rdma link del rxe0 ;;
	silent) link_cut "$RXE0_NIC" >/dev/null ;;
	esac
}

restore_first_path() {
	case $CUT_KIND in
	device)
		rdma link add rxe0 type rxe netdev "$RXE0_NIC" || fail "cannot re-add rxe0"
		wait_for -t 30 rdma_port_active rxe0 || fail "rxe0 did not come back"
		# nvmet-rdma drops the listener of a removed RDMA device for
		# good (the rdmablk target listens again by itself): relink
		# the port to the subsystem, which enables it again.
		rm "$NVMET/ports/1/subsystems/$NQN"
		ln -s "$NVMET/subsystems/$NQN" "$NVMET/ports/1/subsystems/$NQN"
		;;
	silent) link_restore "$RXE0_NIC" >/dev/null ;;
	esac
}

# one_cut STACK DEV N: fio on DEV, the first path cut CUT_AT s in, the
# pause measured, the path back, both paths live again.
one_cut() {
	local stack=$1 dev=$2 n=$3 log=$OUT/$1-$3 fio_pid cut
	wait_for -t 120 both_live "$stack" || fail "$stack: the paths are not both live before cut $n"
	fio --name="$stack-$n" --filename="$dev" --rw=randread --bs=4k --iodepth=1 \
		--direct=1 --ioengine=libaio --time_based --runtime="$RUN_S" --size=256M \
		--write_lat_log="$log" --log_unix_epoch=1 --log_avg_msec=0 \
		--output="$log.fio.txt" &
	fio_pid=$!
	pause "$CUT_AT"
	cut=$(date +%s%3N)
	cut_first_path
	wait "$fio_pid" || fail "$stack: fio failed across cut $n: $(tail -5 "$log.fio.txt")"
	restore_first_path
	# fio names the completion latency log NAME_clat.1.log (one job).
	awk -v cut="$cut" -v stack="$stack" -v n="$n" -F', *' '
		$1 >= cut - 100 { if (prev) { gap = $1 - prev; if (gap > max) max = gap }
				  if ($1 >= cut) after++ }
		{ prev = $1 }
		END { printf "%s %d %d %d\n", stack, n, max, after }' \
		"${log}_clat.1.log" >>"$OUT/cuts.txt"
	log "$(tail -n 1 "$OUT/cuts.txt")"
}

cleanup() {
	trap - ERR
	[ -z "$RXE0_NIC" ] || rdma link show rxe0/1 >/dev/null 2>&1 ||
		rdma link add rxe0 type rxe netdev "$RXE0_NIC" || true
}

# throughput PAIRS: 4 KiB random reads at queue depth 32 with 2 jobs from
# the rdmablk disk over its first path alone (the second on standby) and
# over both, PAIRS times each, alternating which goes first, into
# $OUT/throughput.txt: "PATHS PAIR IOPS" a line.
throughput() {
	local i p paths idx
	idx=${RB_DEV#/dev/rdmablk}
	if [ "${RDMABLK_FAILOVER_LINK_MBIT:-0}" != 0 ]; then
		vm_signal shape
		vm_wait shaped 120 >/dev/null
		echo "links ${RDMABLK_FAILOVER_LINK_MBIT} Mbit/s each (target's egress, tc tbf)" >>"$OUT/env.txt"
	fi
	for i in $(seq 1 "$1"); do
		for p in 1 2; do
			paths=$p
			[ $((i % 2)) = 1 ] || paths=$((3 - p))
			if [ "$paths" = 1 ]; then
				nl path-set "$idx" "$ADDR2" --standby
			else
				nl path-set "$idx" "$ADDR2" --active
			fi
			fio --name="tput-$paths-$i" --filename="$RB_DEV" --rw=randread --bs=4k \
				--iodepth=32 --numjobs=2 --group_reporting --direct=1 \
				--ioengine=libaio --time_based --runtime="$TPUT_S" --ramp_time=2 \
				--size=256M --output-format=json --output="$OUT/tput-$paths-$i.json"
			python3 -c 'import json, sys
print(sys.argv[2], sys.argv[3], round(json.load(open(sys.argv[1]))["jobs"][0]["read"]["iops"]))' \
				"$OUT/tput-$paths-$i.json" "$paths" "$i" >>"$OUT/throughput.txt"
			log "$(tail -n 1 "$OUT/throughput.txt")"
		done
	done
	nl path-set "$idx" "$ADDR2" --active
}

# cuts: CUTS cuts of each stack's first path, the stacks alternating, into
# $OUT.
cuts() {
	local i s
	[[ $CUTS =~ ^[1-9][0-9]*$ ]] || fail "bad RDMABLK_FAILOVER_CUTS '$CUTS'"
	mkdir -p "$OUT"
	: >"$OUT/cuts.txt"
	{
		echo "kernel $(uname -r)"
		echo "cuts $CUTS ($CUT_KIND)"
		echo "fio $(fio --version)"
		echo "rdmablk $RB_DEV policy $(cat "/sys/block/${RB_DEV#/dev/}/rdmablk/mp_policy")"
		echo "nvme $NV_DEV iopolicy $(cat /sys/class/nvme-subsystem/nvme-subsys*/iopolicy 2>/dev/null | head -n 1)"
	} >"$OUT/env.txt"
	for i in $(seq 1 "$CUTS"); do
		for s in rdmablk nvme; do
			# Alternate which stack goes first.
			[ $((i % 2)) = 1 ] || s=$([ "$s" = rdmablk ] && echo nvme || echo rdmablk)
			case $s in
			rdmablk) one_cut rdmablk "$RB_DEV" "$i" ;;
			nvme) one_cut nvme "$NV_DEV" "$i" ;;
			esac
		done
	done
	[ "$TPUT_PAIRS" = 0 ] || throughput "$TPUT_PAIRS"
	date -u +%Y-%m-%dT%H:%M:%SZ >"$OUT/measured"
	nvme disconnect -n "$NQN" >/dev/null || true
	nl detach "$RB_DEV"
}

main() {
	CUT_KIND=device
	trap cleanup EXIT
	RXE0_NIC=$(rxe_netdev rxe0)
	second_link "$ADDR2" "$PEER2"
	serve_both
	attach_rdmablk
	attach_nvme
	cuts
	nl export-del "$EXPORT"
	unload_rdmablk
}

[ "${BASH_SOURCE[0]}" != "$0" ] || main "$@"
