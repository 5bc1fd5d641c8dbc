# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Helpers for the VM tests whose guests boot with systemd as PID 1
# (VM_APPEND="vmbench.init=systemd"; tests/vm/06x-*), sourced after
# tests/vm/lib.sh. There rdmablk is installed the way the README says, and
# the programs run are the installed ones.

# install_like_readme: the README's install section: make install, depmod
# -a, systemctl daemon-reload, systemctl enable --now rdmablkd. make install
# and depmod -a ran on the host into a staging root (VM_HOST_INSTALL=yes in
# the test's header: /shared/install; vm_host_install), as a package build
# does, over the module tree this guest's root has, and are copied onto it
# here: under TCG, make install in the guest costs minutes of Kbuild and
# CMake checking that all is built, over 9p, and depmod -a a minute of
# reading every module.
install_like_readme() {
	local stage=$SHARED/install
	# systemd must take the guest for a machine, as it would a server
	# (in a container it skips steps of the boot and of the shutdown).
	! systemd-detect-virt -q --container ||
		fail "systemd takes this guest for a container: $(systemd-detect-virt --container)"
	[ -f "$stage/usr/local/sbin/rdmablkd" ] ||
		fail "no staged install in $stage (VM_HOST_INSTALL=yes in the test's header)"
	# tar, not cp: /lib is a link to usr/lib here, as on any merged-/usr
	# system, and must stay one.
	tar -C "$stage" -cf - . | tar -C / --keep-directory-symlink -xf - ||
		fail "cannot copy the staged install onto the root"
	systemctl daemon-reload
	systemctl enable --now rdmablkd >"$RESULTS/enable.log" 2>&1 ||
		fail "systemctl enable --now rdmablkd: $(cat "$RESULTS/enable.log")"
	command -v rdmablkctl >/dev/null || fail "rdmablkctl is not on PATH after the install"
	wait_for -t 60 rdmablkctl hostid >/dev/null ||
		fail "rdmablkd does not answer: $(journalctl -b -u rdmablkd --no-pager | tail -n 20)"
	log "installed (make install); rdmablk.ko from $(modinfo -n rdmablk)"
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
