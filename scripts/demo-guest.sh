#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The demo, run inside a guest by scripts/demo.sh. Target and initiator are
# the same kernel here, talking over soft-RoCE (rxe0 at 192.0.2.1, rxe1 at
# 192.0.2.2); the admin's tools are rdmablkd and rdmablkctl.
set -euo pipefail
# shellcheck source=../tests/vm/lib.sh
. "$VM_LIB"
# shellcheck source=../tests/vm/daemon.sh
. "$SRC/tests/vm/daemon.sh"

step() {
	printf '\n\033[1m==> %s\033[0m\n' "$*"
}

run() {
	printf '# %s\n' "$*"
	"$@"
}

step "Soft-RoCE devices in this guest"
run rdma link show

step "modprobe rdmablk, start rdmablkd"
load_rdmablk
start_daemon
run "$RDMABLKCTL" hostid

step "Target: a 256 MiB RAM disk, a listener and an export"
ram_disk 256
run "$RDMABLKCTL" listen "$TARGET_ADDR"
run "$RDMABLKCTL" export add demo /dev/ram0
run "$RDMABLKCTL" export list

step "Initiator: attach the export over RDMA"
printf '# %s\n' "$RDMABLKCTL attach $TARGET_ADDR demo"
dev=$("$RDMABLKCTL" attach "$TARGET_ADDR" demo)
echo "$dev"
wait_for test -b "$dev"
run "$RDMABLKCTL" list
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

step "Status: queues, counters, timeouts"
run "$RDMABLKCTL" status "$dev"
run rdma statistic show link "$TARGET_RDMA_DEV/1"

step "What rdmablkd remembers (/etc/rdmablk/rdmablk.conf)"
run cat /etc/rdmablk/rdmablk.conf

step "Detach and clean up"
run "$RDMABLKCTL" detach "$dev"
run "$RDMABLKCTL" export del demo
run "$RDMABLKCTL" unlisten "$TARGET_ADDR"

step "Kernel events rdmablkd logged meanwhile"
grep -E '^event ' "$RESULTS/rdmablkd.log" || true
stop_daemon
unload_rdmablk
