# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck disable=SC2034 # the variables are for the scripts sourcing this
#
# The NVMe-oF side shared by the bench guest scripts that measure nvme-rdma
# next to rdmablk, scripts/bench-guest.sh and scripts/bench-failover-guest.sh,
# which source it (inside the guest, from /src/scripts): the host identity,
# the nvmet port, and the lookup of a subsystem's block device.

NVME_PORT=4420
NVMET=/sys/kernel/config/nvmet
# Fixed host identities (rdmablk's attach --hostid too), so nothing depends
# on the host's machine-id.
HOSTID=5d1e0b5a-0c1b-4b7e-9d2a-6f0e8a7c3b21
HOSTNQN=nqn.2014-08.org.nvmexpress:uuid:$HOSTID

# nvme_block_dev NQN: print the block device of subsystem NQN, /dev/nvmeXnY
# (under native multipath, the head disk over all its paths); fails while
# there is none.
nvme_block_dev() {
	local nqn=$1 b
	for b in /sys/block/nvme*n*; do
		[ -e "$b" ] || continue
		b=${b##*/}
		# nvmeXcYnZ are the hidden per-path disks under native multipath.
		[[ $b =~ ^nvme[0-9]+n[0-9]+$ ]] || continue
		[ "$(cat "/sys/block/$b/device/subsysnqn" 2>/dev/null ||
			cat "/sys/block/$b/device/subsystem/subsysnqn" 2>/dev/null)" = "$nqn" ] || continue
		echo "/dev/$b"
		return 0
	done
	return 1
}
