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
# (up to 2 MB, more than two paths' 64 reads in flight) rather than
# dropping it, and the queueing (at most a few hundred ms) stays far below
# the queue pairs' retransmit timeout (about 2 s over RoCE).
shape_links() {
	local a nic
	for a in "$TARGET_ADDR" "$TARGET_ADDR2"; do
		nic=$(ip -o -4 addr show | awk -v a="$a" '$4 ~ "^" a "/" { print $2; exit }')
		[ -n "$nic" ] || fail "no NIC has $a"
		modprobe sch_tbf || fail "cannot load sch_tbf"
		tc qdisc add dev "$nic" root tbf rate "${1}mbit" burst 32kb limit 2mb ||
			fail "cannot shape $nic"
		log "$nic ($a) shaped to $1 Mbit/s"
	done
}

target_main() {
	serve_both
	vm_signal serving
	if [ "${RDMABLK_FAILOVER_LINK_MBIT:-0}" != 0 ]; then
		vm_wait shape $((VM_TIMEOUT - 60)) >/dev/null
		shape_links "$RDMABLK_FAILOVER_LINK_MBIT"
		vm_signal shaped
	fi
	vm_wait measured $((VM_TIMEOUT - 60)) >/dev/null
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
