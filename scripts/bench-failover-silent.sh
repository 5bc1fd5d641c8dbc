#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2034 # VM_* settings are read by tests/vm/run
# PROVES: (a benchmark, run by scripts/bench-failover --silent, not by make check) how long I/O stops when the first path of a two-path disk goes silent, for rdmablk and NVMe native multipath side by side over the same two links between two guests; every cut resumes on the second path with no I/O error
#
# Two guests joined by two links (VM_LINKS=2), the target serving null_blk
# through rdmablk and nvmet at both of its addresses; the initiator reads
# 4 KiB at queue depth 1 from each stack's two-path disk, and the first
# path's link is made to drop every packet, both ways, with its NIC and
# RDMA device up (tc): a silent loss, which only keep-alive notices (2 s
# for both stacks). The measurement and the table are
# scripts/bench-failover-guest.sh's and scripts/bench-failover's.
VM_MODE=two
VM_LINKS=2
VM_TIMEOUT=1800
VM_CHECK=no

# shellcheck source=bench-failover-guest.sh
. "$(dirname "${BASH_SOURCE[0]}")/bench-failover-guest.sh"

# shape_links MBIT: each of this guest's two NICs sends at most MBIT
# Mbit/s (a read's data flows from here). tbf queues what exceeds the rate
# (up to 2 MB) rather than dropping it. What waits there is at most the
# reads in flight, 64 of about 4.4 KB on the wire: 280 ms at 8 Mbit/s, the
# least scripts/bench-failover takes; far below the queue pairs'
# retransmit timeout (rdma_cm's RoCE packet lifetime 18, so a local ACK
# timeout of 4.096 us x 2^19, 2.1 s) and the 2 s keep-alive.
# check_no_drops records what tbf did (shaping.txt among bench-failover's
# results) and fails if it dropped a packet.
shape_links() {
	local a nic
	modprobe sch_tbf || fail "cannot load sch_tbf"
	for a in "$TARGET_ADDR" "$TARGET_ADDR2"; do
		nic=$(nic_of_addr "$a")
		[ -n "$nic" ] || fail "no NIC has $a"
		tc qdisc add dev "$nic" root tbf rate "${1}mbit" burst 32kb limit 2mb ||
			fail "cannot shape $nic"
		log "$nic ($a) shaped to $1 Mbit/s"
	done
}

check_no_drops() {
	local a nic stats
	for a in "$TARGET_ADDR" "$TARGET_ADDR2"; do
		nic=$(nic_of_addr "$a")
		stats=$(tc -s qdisc show dev "$nic" root)
		printf 'tc %s (%s): %s\n' "$nic" "$a" "$(tr -s ' \n' ' ' <<<"$stats")" >>"$SHARED/shaping.txt"
		[[ $stats =~ dropped\ 0[,\ ] ]] || fail "tbf on $nic dropped packets: $stats"
	done
}

target_main() {
	local shaped=0
	serve_both
	vm_signal serving
	# The initiator asks for it before its throughput runs.
	if [ "${RDMABLK_FAILOVER_LINK_MBIT:-0}" != 0 ] && [ "${RDMABLK_FAILOVER_TPUT:-0}" != 0 ]; then
		vm_wait shape $((VM_TIMEOUT - 60)) >/dev/null
		shape_links "$RDMABLK_FAILOVER_LINK_MBIT"
		shaped=1
		vm_signal shaped
	fi
	vm_wait measured $((VM_TIMEOUT - 60)) >/dev/null
	[ "$shaped" = 0 ] || check_no_drops
	rm "$NVMET"/ports/*/subsystems/*
	nl export-del "$EXPORT"
	unload_rdmablk
}

initiator_main() {
	CUT_KIND=silent
	RXE0_NIC=$(rxe_netdev rxe0)
	vm_wait serving 120 >/dev/null
	attach_rdmablk
	attach_nvme
	cuts
	unload_rdmablk
	vm_signal measured
}
