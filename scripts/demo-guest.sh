#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The demo, run inside a guest by scripts/demo.sh. Target and initiator are
# the same kernel here, talking over soft-RoCE (rxe0 at 192.0.2.1, rxe1 at
# 192.0.2.2).
set -euo pipefail
# shellcheck source=../tests/vm/lib.sh
. "$VM_LIB"

step() {
	printf '\n\033[1m==> %s\033[0m\n' "$*"
}

run() {
	printf '# %s\n' "$*"
	"$@"
}

NLT=$RDMABLK_NL

step "Soft-RoCE devices in this guest"
run rdma link show

step "Load the module; its generic netlink family answers"
load_rdmablk
run "$NLT" info
"$NLT" monitor --timeout 300 >/tmp/demo-events 2>&1 &
wait_for grep -q 'monitor: ready' /tmp/demo-events

step "Target: a 256 MiB RAM disk, a listener and an export"
ram_disk 256
run "$NLT" listen-add "$TARGET_ADDR"
run "$NLT" export-add demo /dev/ram0
run "$NLT" export-list

step "Initiator: attach the export over RDMA"
dev=$(run "$NLT" attach "$TARGET_ADDR" demo | tail -1)
echo "$dev"
wait_for test -b "$dev"
run "$NLT" dev-list
run lsblk "$dev"

step "Make a filesystem, write a file, read it back"
run mkfs.ext4 -q "$dev"
mkdir -p /mnt/demo
run mount "$dev" /mnt/demo
run dd if=/dev/urandom of=/mnt/demo/data bs=1M count=32 status=none
sum=$(sha256sum </mnt/demo/data)
run umount /mnt/demo
run mount "$dev" /mnt/demo
[ "$(sha256sum </mnt/demo/data)" = "$sum" ] && echo "read back intact: ${sum%% *}"
run df -h /mnt/demo
run umount /mnt/demo

step "Traffic went over RDMA"
run rdma statistic show link "$TARGET_RDMA_DEV/1"

step "Detach and clean up"
run "$NLT" detach "${dev##*rdmablk}"
run "$NLT" export-del demo
run "$NLT" listen-del "$TARGET_ADDR"

step "Events the module sent meanwhile"
grep '^event=' /tmp/demo-events || true
unload_rdmablk
