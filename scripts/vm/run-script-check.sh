# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Run by scripts/check.sh through scripts/vm/run-script: the guest comes up
# with the bench environment and soft-RoCE, and this script's status comes
# back to the host.
set -eu
[ -d "$SRC/kmod" ]
[ -w "$RESULTS" ]
rdma link show rxe0/1 | grep -q ACTIVE
echo "run-script-check: guest ok"
