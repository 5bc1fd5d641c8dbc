#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo: boot a VM with soft-RoCE and walk through rdmablk's main job:
# export a RAM disk, attach it over RDMA, put a filesystem on it, use it,
# detach. Everything runs in the guest; this terminal shows what happens.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
exec "$repo/scripts/vm/run-script" --timeout 600 "$repo/scripts/demo-guest.sh" demo
