# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Run by scripts/check.sh through scripts/vm/run-script: the guest comes up
# with the bench environment and soft-RoCE on the Ethernet MTU the host
# asked for (RDMABLK_VM_MTU, which check.sh sets to 9000: RDMA MTU 4096),
# and this script's status comes back to the host.
set -eu
[ -d "$SRC/kmod" ]
[ -w "$RESULTS" ]
rdma link show rxe0/1 | grep -q ACTIVE
mtu=$(cat /sys/class/net/veth0/mtu)
[ "$mtu" = "${RDMABLK_VM_MTU:-1500}" ] ||
	{ echo "run-script-check: veth0 MTU $mtu, asked for ${RDMABLK_VM_MTU:-1500}"; exit 1; }
rmtu=$(ibv_devinfo -d rxe0 -i 1 | awk '$1 == "active_mtu:" { print $2; exit }')
if [ "$mtu" -ge 4196 ] && [ "$rmtu" != 4096 ]; then
	echo "run-script-check: rxe0 active MTU $rmtu over Ethernet MTU $mtu, expected 4096"
	exit 1
fi
echo "run-script-check: guest ok, Ethernet MTU $mtu, RDMA MTU $rmtu"
