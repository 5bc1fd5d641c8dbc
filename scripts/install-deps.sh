#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install everything rdmablk needs to build and test, from Debian's archive.
# Idempotent: when every package is present it returns in well under a second.
set -euo pipefail

PKGS=(
	# kernel the VM tests boot, and headers to build the module against it
	linux-image-amd64 linux-headers-amd64 linux-source-6.1
	# kernel build tooling (module, KUnit under UML, sparse)
	build-essential bc bison flex libelf-dev libssl-dev dwarves python3 sparse
	kmod cpio xz-utils
	# make dkms-install, exercised by make check's static layer
	dkms
	# VM bench
	qemu-system-x86 busybox-static iproute2 e2fsprogs util-linux
	# udev and partitioning for the stable-name test
	udev fdisk
	# RDMA userspace
	rdma-core ibverbs-utils rdmacm-utils libibverbs-dev librdmacm-dev
	# userspace build (authentication keys: libssl-dev, above, and zlib1g-dev)
	cmake g++ pkg-config libnl-3-dev libnl-genl-3-dev libsystemd-dev
	libgtest-dev libgmock-dev libcli11-dev nlohmann-json3-dev libtomlplusplus-dev
	zlib1g-dev
	# Debian's build flags, for the packager's build that make check tries;
	# ccache keeps make check's userspace builds from one clone to the next
	dpkg-dev ccache
	# units and man pages are checked (systemd-analyze verify, groff, man -l);
	# python3 reads JSON in VM tests and the benchmark report
	systemd groff-base man-db
	# workloads and the reference stack for benchmarks; GNU awk for
	# blktests' check (tests/blktests)
	fio nvme-cli gawk
)

# One dpkg-query for all: each run reads the whole package database.
declare -A installed=()
while read -r p status; do
	[ "$status" = "install ok installed" ] && installed[$p]=1
done < <(dpkg-query -W -f='${Package} ${Status}\n' "${PKGS[@]}" 2>/dev/null || true)
missing=()
for p in "${PKGS[@]}"; do
	[ -n "${installed[$p]:-}" ] || missing+=("$p")
done

if [ "${#missing[@]}" -eq 0 ]; then
	exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing packages: ${missing[*]}" >&2
	echo "install-deps: run 'sudo $0' (or as root) to install them" >&2
	exit 1
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
