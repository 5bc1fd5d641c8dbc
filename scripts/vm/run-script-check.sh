# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Run by scripts/check.sh through scripts/vm/run-script: the guest comes up
# with the bench environment and soft-RoCE on the Ethernet MTU the host
# asked for (RDMABLK_VM_MTU, which check.sh sets to 9000: RDMA MTU 4096),
# and this script's status comes back to the host.
set -eu
# shellcheck source=../../tests/vm/lib.sh
. "$VM_LIB"
[ -d "$SRC/kmod" ]
[ -w "$RESULTS" ]
rdma link show rxe0/1 | grep -q ACTIVE
mtu=$(cat /sys/class/net/veth0/mtu)
[ "$mtu" = "${RDMABLK_VM_MTU:-1500}" ] || fail "veth0 MTU $mtu, asked for ${RDMABLK_VM_MTU:-1500}"
VM_MTU=$mtu rdma_mtu_check rxe0
echo "run-script-check: guest ok"
