# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Helpers for the VM tests whose guests boot with systemd as PID 1
# (VM_APPEND="vmbench.init=systemd"; tests/vm/06x-*), sourced after
# tests/vm/lib.sh. There rdmablk is installed the way the README says, and
# the programs run are the installed ones.

# writable_tree: the project's tree, writable, at the path the host built it
# in ($VM_HOST_REPO), so that make finds its outputs up to date (kbuild and
# CMake record absolute paths). The writes go to a tmpfs.
writable_tree() {
	local rw=/run/rdmablk-test/rw
	mountpoint -q "$VM_HOST_REPO" && return 0
	mkdir -p "$rw" "$VM_HOST_REPO"
	# The root is an overlay itself: an upper layer cannot be on it.
	mount -t tmpfs tmpfs "$rw" && mkdir "$rw/up" "$rw/work" &&
		mount -t overlay overlay -o "lowerdir=$SRC,upperdir=$rw/up,workdir=$rw/work" \
			"$VM_HOST_REPO" ||
		fail "cannot make a writable copy of $SRC at $VM_HOST_REPO"
}

# install_like_readme make-install|dkms-install: the README's install
# section: make install (or make dkms-install install-userspace), depmod -a, systemctl
# daemon-reload, systemctl enable --now rdmablkd. The README's "make" comes
# first there; make install builds the same (the module, rdmablkd and
# rdmablkctl), so it is run once here, as part of make install: under TCG
# each run costs minutes, even when it only checks that all is built.
install_like_readme() {
	local how
	case $1 in
	make-install) how=install ;;
	dkms-install) how="dkms-install install-userspace" ;;
	*) fail "install_like_readme: make-install or dkms-install, not '$1'" ;;
	esac
	# systemd must take the guest for a machine, as it would a server
	# (in a container it skips steps of the boot and of the shutdown).
	! systemd-detect-virt -q --container ||
		fail "systemd takes this guest for a container: $(systemd-detect-virt --container)"
	writable_tree
	# shellcheck disable=SC2086 # $how is two targets for DKMS
	(cd "$VM_HOST_REPO" && make $how) >"$RESULTS/make-install.log" 2>&1 ||
		fail "make $how failed: $(tail -n 15 "$RESULTS/make-install.log")"
	depmod -a
	systemctl daemon-reload
	systemctl enable --now rdmablkd >"$RESULTS/enable.log" 2>&1 ||
		fail "systemctl enable --now rdmablkd: $(cat "$RESULTS/enable.log")"
	command -v rdmablkctl >/dev/null || fail "rdmablkctl is not on PATH after the install"
	wait_for -t 60 rdmablkctl hostid >/dev/null ||
		fail "rdmablkd does not answer: $(journalctl -b -u rdmablkd --no-pager | tail -n 20)"
	log "installed (make $how); rdmablk.ko from $(modinfo -n rdmablk)"
}

# loaded_by_systemd: rdmablk.ko is loaded, modprobe@rdmablk.service ran in
# this boot, and rdmablkd could not have loaded it (no CAP_SYS_MODULE).
loaded_by_systemd() {
	[ -e /sys/module/rdmablk ] || fail "rdmablk.ko is not loaded"
	[ "$(systemctl show -P ExecMainStartTimestampMonotonic modprobe@rdmablk.service)" -gt 0 ] ||
		fail "modprobe@rdmablk.service did not run: $(systemctl status modprobe@rdmablk.service --no-pager)"
	[ "$(systemctl show -P CapabilityBoundingSet rdmablkd)" = cap_net_admin ] ||
		fail "rdmablkd's capabilities: $(systemctl show -P CapabilityBoundingSet rdmablkd)"
}
