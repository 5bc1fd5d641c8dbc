# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Host side of the VM bench: kernel selection, initramfs, QEMU command lines,
# running tests and judging their logs. Sourced by tests/vm/run,
# scripts/vm/run-script and scripts/vm/shell. See docs/testing.md.
#
# Environment:
#   RDMABLK_KVER        guest kernel version (default: newest /boot/vmlinuz-*
#                       that has a /lib/modules directory)
#   RDMABLK_VM_KERNEL   kernel image to boot (default /boot/vmlinuz-$KVER)
#   RDMABLK_VM_MEM      guest memory in MiB (default 2048; 1024 in the debug lane)
#   RDMABLK_VM_SMP      vCPUs per guest (default 2 in one-guest mode, 1 in two)
#   RDMABLK_VM_APPEND   extra kernel command line
#   RDMABLK_SKIP_DEPS=1 do not run scripts/install-deps.sh
#   RDMABLK_KERNEL=debug the debug kernel lane (vm_debug_lane): KASAN,
#                       lockdep, kmemleak, UBSAN; sets the variables below
#   RDMABLK_VM_TIMEOUT_SCALE  multiplies every test's VM_TIMEOUT (default 1,
#                       4 in the debug lane)
#   RDMABLK_*           every RDMABLK_ variable is also exported in the guest

VM_BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
VM_REPO=$(cd "$VM_BENCH_DIR/../.." && pwd)
VM_CACHE=$VM_REPO/.cache/vm
VM_LOG_ROOT=$VM_REPO/build/vm-logs
VM_QEMU=${RDMABLK_VM_QEMU:-qemu-system-x86_64}
readonly VM_BENCH_DIR VM_REPO VM_CACHE VM_LOG_ROOT VM_QEMU

# PIDs of QEMU processes still to be reaped (killed on interrupt).
VM_PIDS=()

vm_die() {
	echo "vm: error: $*" >&2
	exit 1
}

# vm_usage FILE: print the comment block at the top of FILE (its help text).
vm_usage() {
	sed -n '4,/^[^#]/{/^#/!d;/shellcheck\|SPDX/d;s/^# \{0,1\}//;p}' "$1"
}

# vm_debug_lane: point the bench at the debug kernel (built or reused by
# scripts/vm/debug-kernel/build) and at an rdmablk.ko built against it with
# UBSAN (RDMABLK_SANITIZE=1) in build/debug-kmod/, so kmod/'s own objects for
# the production kernel stay as they are. Also builds tests/vm/planted (the
# selftest's deliberate bugs) there. Exports RDMABLK_KVER, RDMABLK_VM_KERNEL,
# RDMABLK_DEBUG_KDIR, RDMABLK_KO, RDMABLK_PLANTED_KO, RDMABLK_DEBUG=1 (the
# guest shrinks sizes and scans for leaks) and RDMABLK_VM_TIMEOUT_SCALE.
vm_debug_lane() {
	local env kv out=$VM_REPO/build/debug-kmod
	# Built once into the cache every checkout shares (the script takes
	# its lock: one build at a time, the others wait for it and reuse it).
	env=$("$VM_BENCH_DIR/debug-kernel/build" --print-env) ||
		vm_die "building the debug kernel failed"
	while IFS= read -r kv; do
		export "${kv?}"
	done <<<"$env"
	mkdir -p "$out"
	# Sources only (kmod/ may hold objects for the production kernel), with
	# their times, so the build here stays incremental.
	(cd "$VM_REPO" && find kmod uapi tests/vm/planted -type f \
		\( -name '*.[ch]' -o -name Kbuild -o -name Makefile \) ! -name '*.mod.c' -print0 |
		tar --null -T - -cf -) | tar -C "$out" -xf - ||
		vm_die "cannot copy the module's sources to $out"
	if ! make -C "$RDMABLK_DEBUG_KDIR" M="$out/kmod" RDMABLK_SANITIZE=1 modules \
		>"$out/build.log" 2>&1 ||
		! make -C "$RDMABLK_DEBUG_KDIR" M="$out/tests/vm/planted" modules >>"$out/build.log" 2>&1; then
		tail -n 20 "$out/build.log" >&2
		vm_die "building rdmablk.ko for the debug kernel failed; see $out/build.log"
	fi
	export RDMABLK_KO=/src/${out#"$VM_REPO"/}/kmod/rdmablk.ko
	export RDMABLK_PLANTED_KO=/src/${out#"$VM_REPO"/}/tests/vm/planted/planted.ko
	export RDMABLK_DEBUG=1
	# pci=noacpi: under TCG the debug kernel's ACPI interpreter is so slow
	# that each device's _PRT evaluation hits the 30 s AML loop timeout,
	# adding two minutes to every boot and leaving the devices without
	# legacy interrupt routing. The BIOS's PCI IRQ routing table does the
	# same job in no time.
	# no5lvl: TCG's "max" CPU offers 5-level paging; one debug boot in
	# dozens then got a KASAN wild-memory-access report on a 5-level
	# direct-map address in handle_edge_irq at 2 s, before any test ran.
	# 4-level paging is what KASAN on x86 is used with everywhere.
	export RDMABLK_VM_KERNEL_APPEND="pci=noacpi no5lvl"
	export RDMABLK_VM_TIMEOUT_SCALE=${RDMABLK_VM_TIMEOUT_SCALE:-4}
	# 1 GiB: a kmemleak scan walks every page's struct page and every slab
	# object, and the kernel sizes its hash tables by memory. A one-vCPU
	# guest's scan takes about 24 s with 1 GiB against 36 s with 2 GiB, and
	# the lane's tests shrink their sizes (dbg_size) to fit.
	export RDMABLK_VM_MEM=${RDMABLK_VM_MEM:-1024}
	echo "vm: debug kernel lane: $RDMABLK_KVER, timeouts x$RDMABLK_VM_TIMEOUT_SCALE, ${RDMABLK_VM_MEM} MiB" >&2
}

vm_install_deps() {
	[ "${RDMABLK_SKIP_DEPS:-0}" = 1 ] && return 0
	"$VM_REPO/scripts/install-deps.sh" || vm_die "scripts/install-deps.sh failed"
}

# vm_kver: the guest kernel version.
vm_kver() {
	if [ -n "${RDMABLK_KVER:-}" ]; then
		echo "$RDMABLK_KVER"
		return 0
	fi
	local img k best=''
	for img in /boot/vmlinuz-*; do
		[ -e "$img" ] || continue
		k=${img#/boot/vmlinuz-}
		[ -d "/lib/modules/$k/kernel" ] || continue
		best=$(printf '%s\n%s\n' "$best" "$k" | sed '/^$/d' | sort -V | tail -n 1)
	done
	[ -n "$best" ] || vm_die "no /boot/vmlinuz-* with modules in /lib/modules; run scripts/install-deps.sh"
	echo "$best"
}

# vm_prepare: resolve kernel, image and initramfs into VM_KVER, VM_KERNEL,
# VM_INITRD. Fails with a clear message if something is missing.
vm_prepare() {
	command -v "$VM_QEMU" >/dev/null || vm_die "$VM_QEMU not found (install qemu-system-x86)"
	case ${RDMABLK_KERNEL:-} in
	'' | default) ;;
	debug) vm_debug_lane ;;
	*) vm_die "RDMABLK_KERNEL must be 'default' or 'debug', not '$RDMABLK_KERNEL'" ;;
	esac
	VM_KVER=$(vm_kver)
	[ -d "/lib/modules/$VM_KVER" ] || vm_die "/lib/modules/$VM_KVER missing (RDMABLK_KVER=$VM_KVER?)"
	VM_KERNEL=${RDMABLK_VM_KERNEL:-/boot/vmlinuz-$VM_KVER}
	[ -r "$VM_KERNEL" ] || vm_die "kernel image $VM_KERNEL missing or unreadable"
	VM_INITRD=$("$VM_BENCH_DIR/build-initramfs" "$VM_KVER" "$VM_CACHE") ||
		vm_die "building the initramfs failed"
}

# vm_header_var FILE NAME: value of a `NAME=value` line in a test script.
vm_header_var() {
	sed -n -E "s/^$2=(\"([^\"]*)\"|'([^']*)'|([^[:space:]#]*)).*/\2\3\4/p" "$1" | tail -n 1
}

vm_port_free() {
	[ -z "$(ss -Hlun "sport = :$1" 2>/dev/null)" ]
}

# vm_pick_port: a UDP port on 127.0.0.1 that nothing is bound to.
vm_pick_port() {
	local p i
	for ((i = 0; i < 100; i++)); do
		p=$((20000 + RANDOM % 40000))
		vm_port_free "$p" && { echo "$p"; return 0; }
	done
	vm_die "no free UDP port found for the guest link"
}

# vm_link_up SECONDS: a private network namespace holding a bridge with two
# tap ports, tap0 and tap1, for the two guests' NICs, and a second bridge
# with tap2 and tap3 for their second NICs (VM_LINKS=2). Sets VM_LINK_NS (the
# path of the namespace) and VM_LINK_PID (the process keeping it alive; it
# ends by itself after SECONDS, so an interrupted run leaks nothing for
# long). The host kernel's bridge moves the frames: a slow guest loses
# packets (its tap queue overflows), which RDMA's reliable transport
# recovers, and never stalls its peer. QEMU's UDP socket backend stalled a
# guest's transmit queue for good under load, which left rxe unable to
# destroy queue pairs (their packets were stuck in the ring). The taps take
# jumbo frames (MTU 9000), as the guests' NICs may (vm_mtu). Returns 1 when
# namespaces or tap devices cannot be made here.
vm_link_up() {
	local ns t
	VM_LINK_PID='' VM_LINK_NS=''
	unshare --net sleep "$1" </dev/null >/dev/null 2>&1 &
	VM_LINK_PID=$!
	ns=/proc/$VM_LINK_PID/ns/net
	# unshare execs sleep once the namespace exists.
	for ((t = 0; t < 50; t++)); do
		[ "$(readlink "$ns" 2>/dev/null)" != "$(readlink /proc/self/ns/net)" ] && break
		vm_alive "$VM_LINK_PID" || break
		sleep 0.1
	done
	# shellcheck disable=SC2016 # $t expands in the namespace's shell
	if ! vm_alive "$VM_LINK_PID" ||
		! nsenter --net="$ns" sh -e -c '
			ip link set lo up
			for b in "br0 tap0 tap1" "br1 tap2 tap3"; do
				set -- $b
				ip link add $1 type bridge stp_state 0 forward_delay 0
				for t in $2 $3; do
					ip tuntap add dev $t mode tap
					ip link set $t mtu 9000 master $1 up
				done
				ip link set $1 up
			done' >/dev/null 2>&1; then
		vm_link_down
		return 1
	fi
	VM_LINK_NS=$ns
	VM_PIDS+=("$VM_LINK_PID")
}

vm_link_down() {
	[ -z "${VM_LINK_PID:-}" ] || vm_kill "$VM_LINK_PID"
	VM_LINK_PID='' VM_LINK_NS=''
}

# vm_mtu [TEST]: the MTU of the soft-RoCE link's Ethernet devices in a test's
# guests: the test's VM_MTU, else RDMABLK_VM_MTU, else 1500 (RDMA path MTU
# 1024, as the benchmark runs). 9000 gives jumbo frames (RDMA MTU 4096, a
# 4 KiB page in one packet): I/O in a guest runs 1.5 to 2.6 times faster
# (docs/testing.md), though make check as a whole did not.
vm_mtu() {
	local m=''
	[ -z "${1:-}" ] || m=$(vm_header_var "$1" VM_MTU)
	echo "${m:-${RDMABLK_VM_MTU:-1500}}"
}

# vm_mtu_valid MTU: true when MTU is an Ethernet MTU the guests' links take,
# 1280 (IPv6's least) to 9000 (the taps' jumbo frames).
vm_mtu_valid() {
	[[ $1 =~ ^[1-9][0-9]*$ ]] && [ "$1" -ge 1280 ] && [ "$1" -le 9000 ]
}

# vm_write_conf DIR KEY=VALUE...: the guest's /results/vm.conf.
vm_write_conf() {
	local dir=$1 kv v
	shift
	{
		for kv in "$@"; do
			printf 'export %s=%q\n' "${kv%%=*}" "${kv#*=}"
		done
		# Where /src is on the host: the build's outputs name that path.
		printf 'export VM_HOST_REPO=%q\n' "$VM_REPO"
		while IFS= read -r v; do
			printf 'export %s=%q\n' "$v" "${!v}"
		done < <(compgen -e | grep '^RDMABLK_' || true)
	} >"$dir/vm.conf"
}

# vm_qemu_argv NAME RESULTS_DIR SHARED_DIR NET SERIAL SMP
#   NET:    none, or one NIC's link, or two joined by a comma (the second
#           NIC's MAC ends in :03:0N instead of :02:0N): tap:IFNAME (a port
#           of a bridge vm_link_up made; QEMU runs in that namespace) or
#           udp:LOCAL_PORT:PEER_PORT (a point-to-point link over UDP on
#           127.0.0.1, where namespaces or tap devices are not available)
#   SERIAL: file (console.log in RESULTS_DIR) | stream (stdout + console.log)
#           | interactive (terminal, Ctrl-A X quits)
# Sets the array VM_ARGV.
vm_qemu_argv() {
	local name=$1 dir=$2 shared=$3 net=$4 serial=$5 smp=$6 mac share=""
	# loglevel=5 keeps the boot console short but still shows WARNING lines
	# (KERN_WARNING) there, in case a guest dies before saving its dmesg.
	local append="console=ttyS0 panic=-1 loglevel=5 rdinit=/init"
	# virtio_net.napi_tx=0: under TCG on a busy host, virtio-net's NAPI
	# transmit completion stalls a guest's transmit queue for good
	# (NETDEV WATCHDOG) under heavy RDMA traffic; each stuck skb holds a
	# reference to its rxe queue pair, so rdma_destroy_qp() then waits 50 s
	# and WARNs. Without NAPI, transmitted skbs are orphaned at once.
	append+=" virtio_net.napi_tx=0"
	# no_timer_check: on a loaded host, TCG is slow enough that the boot-time
	# IO-APIC timer check fails and the guest panics ("IO-APIC + timer
	# doesn't work!"); the timer works, the check only measured too little.
	append+=" no_timer_check"
	append+=" mitigations=off i8042.noaux i8042.nokbd 8250.nr_uarts=1"
	append+=" ${RDMABLK_VM_KERNEL_APPEND:-} ${RDMABLK_VM_APPEND:-}"
	[ ! -e "$dir/rootdisk.img" ] || append+=" vmbench.rootdisk=rdmablk-root"
	# shellcheck disable=SC2054 # commas separate QEMU sub-options
	VM_ARGV=(
		"$VM_QEMU" -name "rdmablk-$name"
		-machine pc -accel tcg,thread=multi -cpu max
		-m "${RDMABLK_VM_MEM:-2048}" -smp "$smp"
		-nodefaults -no-reboot -display none -nic none
		-kernel "$VM_KERNEL" -initrd "$VM_INITRD" -append "$append"
		-fsdev "local,id=fsroot,path=/,security_model=none,readonly=on,multidevs=remap"
		-device virtio-9p-pci,fsdev=fsroot,mount_tag=root
		-fsdev "local,id=fssrc,path=$VM_REPO,security_model=none,readonly=on,multidevs=remap"
		-device virtio-9p-pci,fsdev=fssrc,mount_tag=src
		-fsdev "local,id=fsresults,path=$dir,security_model=none,multidevs=remap"
		-device virtio-9p-pci,fsdev=fsresults,mount_tag=results
		-fsdev "local,id=fsshared,path=$shared,security_model=none,multidevs=remap"
		-device virtio-9p-pci,fsdev=fsshared,mount_tag=shared
	)
	[ "$name" = target ] && mac=01 || mac=02
	# A disk that outlives the guest (vm_power_cycle): host file, raw. With
	# VM_DISK_SHARED both guests open it (the initiator's disk.img is a
	# link to the target's): share-rw lets the two QEMUs write it at once,
	# as two hosts write a shared LUN. The host's page cache under both
	# keeps what each wrote visible to the other (cache=writeback); the
	# guests' own page caches never see the disk's blocks, as rdmablk's
	# target sends its bios to the disk itself.
	if [ -e "$dir/disk.img" ]; then
		[ ! -L "$dir/disk.img" ] && [ ! -L "$dir/../initiator/disk.img" ] || share=,share-rw=on
		# shellcheck disable=SC2054 # commas separate QEMU sub-options
		VM_ARGV+=(-drive "file=$dir/disk.img,if=none,id=disk,format=raw,cache=writeback"
			-device "virtio-blk-pci,drive=disk,serial=rdmablk-data$share")
	fi
	# The root's upper layer on a disk, so the guest's writes survive its
	# reboots (VM_ROOT_DISK_MB); the initramfs finds it by its serial.
	if [ -e "$dir/rootdisk.img" ]; then
		# shellcheck disable=SC2054
		VM_ARGV+=(-drive "file=$dir/rootdisk.img,if=none,id=rootdisk,format=raw,cache=writeback"
			-device virtio-blk-pci,drive=rootdisk,serial=rdmablk-root)
	fi
	local link i=0 ports
	[ "$net" = none ] || for link in ${net//,/ }; do
		case $link in
		tap:*)
			[ "$i" != 0 ] || VM_ARGV=(nsenter --net="$VM_LINK_NS" -- "${VM_ARGV[@]}")
			VM_ARGV+=(-netdev "tap,id=n$i,ifname=${link#tap:},script=no,downscript=no")
			;;
		udp:*)
			ports=${link#udp:}
			VM_ARGV+=(-netdev "socket,id=n$i,udp=127.0.0.1:${ports#*:},localaddr=127.0.0.1:${ports%%:*}")
			;;
		*) vm_die "internal: bad NET '$net'" ;;
		esac
		VM_ARGV+=(-device "virtio-net-pci,netdev=n$i,mac=52:54:00:c0:0$((i + 2)):$mac")
		i=$((i + 1))
	done
	case $serial in
	file) VM_ARGV+=(-serial "file:$dir/console.log") ;;
	stream) VM_ARGV+=(-chardev "stdio,id=ser0,signal=on,logfile=$dir/console.log" -serial chardev:ser0) ;;
	interactive)
		# shellcheck disable=SC2054
		VM_ARGV+=(-chardev "stdio,id=ser0,mux=on,signal=off,logfile=$dir/console.log"
			-serial chardev:ser0 -mon chardev=ser0,mode=readline)
		;;
	*) vm_die "internal: bad SERIAL '$serial'" ;;
	esac
}

# vm_start NAME RESULTS_DIR SHARED_DIR NET SMP: boot a guest in the
# background with its console in RESULTS_DIR/console.log. Sets VM_PID.
vm_start() {
	vm_qemu_argv "$1" "$2" "$3" "$4" file "$5"
	printf '%q ' "${VM_ARGV[@]}" >"$2/qemu.cmd"
	: >"$2/qemu.log"
	vm_boot_guard "$2" "${VM_ARGV[@]}" &
	VM_PID=$!
	VM_PIDS+=("$VM_PID")
}

# vm_keep_failed_boot DIR NAME WHAT DETAIL: keep a failed boot's console as
# DIR/console.NAME.log and add to DIR/boot-retried "WHAT (DETAIL; last
# line: ...); booted again".
vm_keep_failed_boot() {
	local dir=$1 kept=$1/console.$2.log
	mv -f "$dir/console.log" "$kept"
	echo "$3 ($4; last line: $(tail -n 1 "$kept" | tr -d '\r')); booted again" >>"$dir/boot-retried"
}

# vm_boot_guard DIR QEMU-ARGV...: run QEMU (its console in DIR/console.log)
# and exit with its status. Under TCG a guest's kernel now and then stops
# early in its boot, before it calibrates its timers, and never reaches user
# space (seen with the debug kernel: the console's last line "ACPI: setting
# ELCR", or at loglevel 8 "Running RCU-tasks wait API self tests": its
# one CPU halted, idle, for good); nothing of the module or the tests has
# run by then. It happens to about one debug boot in four, rarely to
# Debian's kernel. A boot whose initramfs has not said "vm-initramfs:
# started" within 45 s (90 s under the debug kernel, which gets there in 10
# to 40) is killed and started again, up to three times: each hung console
# is kept as console.hung-boot.N.log and the test's log says so
# (boot-retried). A kernel that ends before user space instead (QEMU exits:
# a reset or a panic this early powers the guest off under -no-reboot; seen
# with Debian's kernel, the console's last line "tsc: Unable to calibrate
# against PIT") is started again the same way, its console kept as
# console.ended-boot.N.log: nothing of rdmablk runs before user space.
# TERM or INT stop QEMU too; USR1 kills it at once (vm_power_cycle).
vm_boot_guard() {
	local dir=$1 qpid='' limit=45 start tries=0 rc
	shift
	[ "${RDMABLK_KERNEL:-default}" != debug ] || limit=90
	trap '[ -z "$qpid" ] || kill -TERM "$qpid" 2>/dev/null; wait "$qpid" 2>/dev/null; exit 143' TERM INT
	trap '[ -z "$qpid" ] || kill -KILL "$qpid" 2>/dev/null; wait "$qpid" 2>/dev/null; exit 137' USR1
	while :; do
		"$@" </dev/null >>"$dir/qemu.log" 2>&1 &
		qpid=$!
		start=$SECONDS
		while kill -0 "$qpid" 2>/dev/null &&
			! grep -qs 'vm-initramfs: started' "$dir/console.log"; do
			if [ $((SECONDS - start)) -ge "$limit" ] && [ "$tries" -lt 3 ]; then
				kill -KILL "$qpid" 2>/dev/null
				wait "$qpid" 2>/dev/null
				tries=$((tries + 1))
				vm_keep_failed_boot "$dir" "hung-boot.$tries" \
					"the guest's boot hung" "no user space after ${limit}s"
				continue 2
			fi
			# A pause that the traps interrupt at once.
			sleep 1 &
			wait $!
		done
		rc=0
		wait "$qpid" || rc=$?
		# A kernel that printed something: not a QEMU that could not start
		# (a port taken: the caller picks others).
		if [ "$tries" -lt 3 ] && [ -s "$dir/console.log" ] &&
		   ! grep -qs 'vm-initramfs: started' "$dir/console.log"; then
			tries=$((tries + 1))
			vm_keep_failed_boot "$dir" "ended-boot.$tries" \
				"the guest's kernel ended before user space" "QEMU exit status $rc"
			continue
		fi
		exit "$rc"
	done
}

# vm_start_udp_pair LOGDIR SMP LINKS: boot target and initiator joined by
# LINKS (1 or 2) UDP socket links. Sets pids.
vm_start_udp_pair() {
	local _ p=() i
	for _ in 1 2 3 4 5; do
		for i in 0 1 2 3; do p[i]=$(vm_pick_port); done
		[ "$(printf '%s\n' "${p[@]}" | sort -u | wc -l)" = 4 ] || continue
		VM_GUEST_NET=("udp:${p[0]}:${p[1]}" "udp:${p[1]}:${p[0]}")
		if [ "$3" = 2 ]; then
			VM_GUEST_NET[0]+=",udp:${p[2]}:${p[3]}"
			VM_GUEST_NET[1]+=",udp:${p[3]}:${p[2]}"
		fi
		vm_start target "$1/target" "$1/shared" "${VM_GUEST_NET[0]}" "$2"
		pids=("$VM_PID")
		vm_start initiator "$1/initiator" "$1/shared" "${VM_GUEST_NET[1]}" "$2"
		pids+=("$VM_PID")
		# A port taken meanwhile makes QEMU exit at once: retry.
		sleep 0.5
		if vm_alive "${pids[0]}" && vm_alive "${pids[1]}"; then
			break
		fi
		kill "${pids[@]}" 2>/dev/null || true
		wait "${pids[@]}" 2>/dev/null || true
		grep -qs 'in use' "$1/target/qemu.log" "$1/initiator/qemu.log" || break
	done
}

# vm_kill PID...: stop QEMU processes (TERM, then KILL after 2 s).
vm_kill() {
	local p i
	for p in "$@"; do kill -TERM "$p" 2>/dev/null || true; done
	for ((i = 0; i < 20; i++)); do
		for p in "$@"; do kill -0 "$p" 2>/dev/null && break; p=''; done
		[ -n "$p" ] || break
		sleep 0.1
	done
	for p in "$@"; do kill -KILL "$p" 2>/dev/null || true; done
	for p in "$@"; do wait "$p" 2>/dev/null || true; done
}

vm_cleanup() {
	[ "${#VM_PIDS[@]}" -eq 0 ] || vm_kill "${VM_PIDS[@]}"
	VM_PIDS=()
}

vm_alive() {
	kill -0 "$1" 2>/dev/null
}

# vm_resolve_test ARG: path of a test given as a number, a name or a path.
vm_resolve_test() {
	local arg=$1 m
	if [ -f "$arg" ]; then
		(cd "$(dirname "$arg")" && echo "$PWD/$(basename "$arg")")
		return 0
	fi
	if [ -f "$VM_REPO/tests/vm/$arg" ]; then
		echo "$VM_REPO/tests/vm/$arg"
		return 0
	fi
	m=$(compgen -G "$VM_REPO/tests/vm/$arg-*" | head -n 1 || true)
	[ -n "$m" ] || return 1
	echo "$m"
}

# vm_guest_script_path PATH: the guest path of a host script; scripts outside
# the repository are copied into DIR (a results export, arg 2).
vm_guest_script_path() {
	local path=$1 dir=$2
	case $path in
	"$VM_REPO"/*) echo "/src/${path#"$VM_REPO"/}" ;;
	*)
		cp "$path" "$dir/script"
		echo "/results/script"
		;;
	esac
}

# vm_judge_guest DIR ROLE IGNORE: append failure reasons for one guest to
# VM_REASONS.
vm_judge_guest() {
	local dir=$1 role=$2 ignore=$3 rc hits who='' f
	[ "$role" = one ] || who="$role: "
	if [ -e "$dir/guest-timeout" ]; then
		VM_TIMED_OUT=1
	elif [ -s "$dir/setup-failed" ]; then
		VM_REASONS+=("${who}$(head -n 1 "$dir/setup-failed")")
	elif [ ! -s "$dir/exit-code" ]; then
		if [ "$VM_TIMED_OUT" = 0 ]; then
			VM_REASONS+=("${who}no exit status (guest crashed or powered off)")
			[ ! -s "$dir/qemu.log" ] || VM_REASONS+=("${who}qemu: $(head -n 1 "$dir/qemu.log")")
		fi
	else
		rc=$(<"$dir/exit-code")
		[ "$rc" = 0 ] || VM_REASONS+=("${who}exit status $rc$(vm_fail_message "$dir")")
	fi
	local -a logs=(-c "$dir/console.log" "$dir/dmesg")
	for f in "$dir"/console.boot*.log; do
		[ ! -e "$f" ] || logs+=(-c "$f")
	done
	for f in "$dir"/dmesg.boot*; do
		[ ! -e "$f" ] || logs+=("$f")
	done
	if hits=$("$VM_BENCH_DIR/scan-log" ${ignore:+-i "$ignore"} "${logs[@]}" 2>&1); then
		:
	else
		local first
		first=$(head -n 1 <<<"$hits")
		printf '%s\n' "$hits" >"$dir/kernel-problems.txt"
		vm_report_excerpt "$first" >"$dir/kernel-report.txt" || true
		first=${first#"$dir"/}
		VM_REASONS+=("${who}kernel log: ${first}")
	fi
}

# vm_fail_message DIR: ", " and the test's last "FAIL: " message (lib.sh's
# fail), cut to 300 characters, so that the FAIL line says why even where
# the logs are not kept; nothing if it printed none.
vm_fail_message() {
	local msg
	[ -f "$1/output.log" ] || return 0
	msg=$(tr -d '\r' <"$1/output.log" | LC_ALL=C grep -a -o 'FAIL: .*' | tail -n 1)
	[ -z "$msg" ] || printf ', %s' "${msg:0:300}"
}

# vm_report_excerpt FILE:LINE:TEXT: the kernel's lines from that one on (the
# report, its RIP and call trace), at most 40: printed with a FAIL line, so
# that a report seen only where the logs are not kept can still be read.
vm_report_excerpt() {
	local file=${1%%:*} rest=${1#*:} line
	line=${rest%%:*}
	[ -f "$file" ] && [[ $line =~ ^[0-9]+$ ]] || return 1
	tail -n +"$line" "$file" | tr -d '\r' |
		LC_ALL=C grep -a -E '\[ *[0-9]+\.[0-9]{6}\]' | head -n 40
}

# vm_header_problem PATH: what makes PATH no valid test (not executable, no
# PROVES line, no VM_TIMEOUT in seconds), or nothing.
vm_header_problem() {
	if [ ! -x "$1" ]; then
		echo "not executable"
	elif ! grep -q '^# PROVES: ' "$1"; then
		echo "missing '# PROVES:' header"
	elif [[ ! $(vm_header_var "$1" VM_TIMEOUT) =~ ^[1-9][0-9]*$ ]]; then
		echo "VM_TIMEOUT missing or not a number of seconds"
	elif ! vm_mtu_valid "$(vm_mtu "$1")"; then
		echo "VM_MTU (or RDMABLK_VM_MTU) must be a number from 1280 to 9000"
	elif [[ ! $(vm_header_var "$1" VM_RDMA) =~ ^(|yes|no)$ ]]; then
		echo "VM_RDMA must be yes or no"
	elif [ "$(vm_header_var "$1" VM_RDMA)" = no ] && [ "$(vm_header_var "$1" VM_MODE)" != one ]; then
		echo "VM_RDMA=no is for one-guest tests (two guests talk over soft-RoCE)"
	elif [[ ! $(vm_header_var "$1" VM_LINKS) =~ ^(|1|2)$ ]]; then
		echo "VM_LINKS must be 1 or 2"
	elif [ "$(vm_header_var "$1" VM_LINKS)" = 2 ] && [ "$(vm_header_var "$1" VM_MODE)" != two ]; then
		echo "VM_LINKS=2 is for two-guest tests (one guest makes its second link with second_link)"
	elif [[ ! $(vm_header_var "$1" VM_DISK_SHARED) =~ ^(|yes)$ ]]; then
		echo "VM_DISK_SHARED must be yes or absent"
	elif [ "$(vm_header_var "$1" VM_DISK_SHARED)" = yes ] &&
		{ [ "$(vm_header_var "$1" VM_MODE)" != two ] || [ -z "$(vm_header_var "$1" VM_TARGET_DISK_MB)" ]; }; then
		echo "VM_DISK_SHARED=yes is for two-guest tests with a VM_TARGET_DISK_MB disk"
	fi
}

# vm_net PATH...: the network the guest of these tests sets up: "none"
# when every one says VM_RDMA=no (no soft-RoCE: a minute and a half of a
# debug guest's boot saved), else "one" (soft-RoCE on a veth pair).
vm_net() {
	local t
	for t in "$@"; do
		[ "$(vm_header_var "$t" VM_RDMA)" = no ] || { echo one; return; }
	done
	echo none
}

# vm_guest_margin TIMEOUT: how long before a test's time limit its guest
# gives up on it (15 s; a quarter of limits up to 60 s), so that the
# guest's kernel log still reaches the results before the host kills it.
vm_guest_margin() {
	echo $(($1 > 60 ? 15 : $1 / 4))
}

# vm_run_test PATH: run one test; prints its PASS/FAIL line, returns 0/1.
vm_run_test() {
	local path=$1 name mode timeout ignore logdir start end elapsed gpath disk_mb root_mb disk_shared
	local host_install links
	local -a roles=() pids=()
	name=$(basename "$path")
	logdir=$VM_LOG_ROOT/$name
	start=$SECONDS
	VM_REASONS=()
	VM_TIMED_OUT=0

	mode=$(vm_header_var "$path" VM_MODE)
	timeout=$(vm_header_var "$path" VM_TIMEOUT)
	ignore=$(vm_header_var "$path" VM_LOG_IGNORE)
	disk_mb=$(vm_header_var "$path" VM_TARGET_DISK_MB)
	disk_shared=$(vm_header_var "$path" VM_DISK_SHARED)
	root_mb=$(vm_header_var "$path" VM_ROOT_DISK_MB)
	host_install=$(vm_header_var "$path" VM_HOST_INSTALL)
	# VM_LINKS=2: two-guest tests get a second link (a second NIC each).
	links=$(vm_header_var "$path" VM_LINKS)
	# VM_APPEND: more guest kernel command line for this test alone.
	local RDMABLK_VM_APPEND="${RDMABLK_VM_APPEND:-} $(vm_header_var "$path" VM_APPEND)"
	rm -rf "$logdir"
	mkdir -p "$logdir/shared"
	if [[ $timeout =~ ^[1-9][0-9]*$ ]] && [ "${RDMABLK_VM_TIMEOUT_SCALE:-1}" != 1 ]; then
		timeout=$((timeout * RDMABLK_VM_TIMEOUT_SCALE))
	fi
	local problem
	problem=$(vm_header_problem "$path")
	[ -z "$problem" ] || VM_REASONS+=("$problem")
	case $mode in
	one) roles=(one) ;;
	two) roles=(target initiator) ;;
	*) VM_REASONS+=("VM_MODE must be 'one' or 'two', not '$mode'") ;;
	esac

	# VM_HOST_INSTALL=yes: make install on the host into a staging root,
	# /shared/install in the guests (tests/vm/systemd.sh installs it).
	if [ "${#VM_REASONS[@]}" -eq 0 ] && [ "$host_install" = yes ]; then
		vm_host_install "$logdir/shared/install" "$logdir/host-install.log" ||
			VM_REASONS+=("make install on the host failed; see $logdir/host-install.log")
	fi

	if [ "${#VM_REASONS[@]}" -eq 0 ]; then
		local deadline=$(($(date +%s) + timeout)) role dir func smp net
		for role in "${roles[@]}"; do
			if [ "$mode" = one ]; then dir=$logdir; else dir=$logdir/$role; fi
			mkdir -p "$dir"
			# VM_TARGET_DISK_MB: the target gets /dev/vda, a sparse host
			# file that survives its power cycles.
			if [ "$role" = target ] && [ -n "$disk_mb" ]; then
				truncate -s "${disk_mb}M" "$dir/disk.img"
			fi
			# VM_DISK_SHARED=yes: the initiator has the same disk, /dev/vda
			# too (shared storage behind two targets).
			if [ "$role" = initiator ] && [ "$disk_shared" = yes ]; then
				ln -s ../target/disk.img "$dir/disk.img"
			fi
			# VM_ROOT_DISK_MB: each guest keeps its root's writes on
			# an ext4 disk of that size, through its reboots.
			if [ -n "$root_mb" ]; then
				truncate -s "${root_mb}M" "$dir/rootdisk.img"
				mkfs.ext4 -q -F -L rdmablk-root "$dir/rootdisk.img" ||
					VM_REASONS+=("mkfs.ext4 of the root disk failed")
			fi
			case $role in
			one) func=test_main ;;
			*) func=${role}_main ;;
			esac
			gpath=$(vm_guest_script_path "$path" "$dir")
			# The guest gives up a little before the host kills it, so
			# its kernel log still reaches the results directory.
			net=$role
			[ "$role" != one ] || net=$(vm_net "$path")
			vm_write_conf "$dir" VM_ROLE="$role" VM_NET="$net" VM_SCRIPT="$gpath" \
				VM_FUNC="$func" VM_TEST="$name" VM_MODE="$mode" VM_MTU="$(vm_mtu "$path")" \
				VM_LINKS="${links:-1}" \
				VM_DEADLINE=$((deadline - $(vm_guest_margin "$timeout")))
		done
		if [ "$mode" = one ]; then
			vm_start one "$logdir" "$logdir/shared" none "${RDMABLK_VM_SMP:-2}"
			pids=("$VM_PID")
		else
			smp=${RDMABLK_VM_SMP:-1}
			if vm_link_up $((timeout + 60)); then
				VM_GUEST_NET=(tap:tap0 tap:tap1)
				[ "$links" != 2 ] || VM_GUEST_NET=(tap:tap0,tap:tap2 tap:tap1,tap:tap3)
				vm_start target "$logdir/target" "$logdir/shared" "${VM_GUEST_NET[0]}" "$smp"
				pids=("$VM_PID")
				vm_start initiator "$logdir/initiator" "$logdir/shared" "${VM_GUEST_NET[1]}" "$smp"
				pids+=("$VM_PID")
			else
				echo "vm: no network namespace or tap device here; joining the guests over UDP" >&2
				vm_start_udp_pair "$logdir" "$smp" "$links"
			fi
		fi
		vm_wait_guests "$deadline" "$logdir" "${smp:-1}" "${pids[@]}"
		for role in "${roles[@]}"; do
			if [ "$mode" = one ]; then dir=$logdir; else dir=$logdir/$role; fi
			vm_judge_guest "$dir" "$role" "$ignore"
		done
		[ "$VM_TIMED_OUT" = 0 ] || VM_REASONS=("timed out after ${timeout}s (VM_TIMEOUT)" "${VM_REASONS[@]}")
	fi

	end=$SECONDS
	elapsed=$((end - start))
	vm_verdict "$name" "$logdir" "$elapsed"
}

# vm_host_install DESTDIR LOG: make install of the project as built for the
# guests' kernel into the staging root DESTDIR, as a package build does; its
# output to LOG. Under TCG the same make install in a guest costs minutes of
# Kbuild and CMake checking over 9p, here seconds. Then the README's
# depmod -a for that kernel (vm_host_depmod).
vm_host_install() {
	rm -rf "$1"
	make -C "$VM_REPO" install DESTDIR="$1" >"$2" 2>&1 &&
		vm_host_depmod "$1" >>"$2" 2>&1
}

# vm_host_depmod DESTDIR: depmod -a for the kernel make install put the
# module under in DESTDIR, over the modules the guests' root has (the host's
# own /lib/modules: a guest's root is the host's), the index files it writes
# put into DESTDIR beside the module, to be copied onto the guest's root
# with it. The same depmod over the same files: in a TCG guest it costs a
# minute of reading all four thousand modules over 9p, here a second.
vm_host_depmod() {
	local dest=$1 kver base f
	kver=$(ls "$dest/lib/modules")
	[ -n "$kver" ] && [ -d "/lib/modules/$kver/kernel" ] || {
		echo "vm_host_depmod: no module tree for '$kver' in $dest/lib/modules and /lib/modules"
		return 1
	}
	base=$(mktemp -d)
	mkdir -p "$base/lib/modules/$kver"
	# depmod's inputs, linked; the module installed, copied.
	for f in kernel modules.order modules.builtin modules.builtin.modinfo; do
		[ ! -e "/lib/modules/$kver/$f" ] || ln -s "/lib/modules/$kver/$f" "$base/lib/modules/$kver/$f"
	done
	cp -a "$dest/lib/modules/$kver/." "$base/lib/modules/$kver/"
	if ! depmod -a -b "$base" "$kver" ||
	   ! grep -q '^updates/rdmablk\.ko:' "$base/lib/modules/$kver/modules.dep"; then
		echo "vm_host_depmod: depmod did not index updates/rdmablk.ko for $kver"
		rm -rf "$base"
		return 1
	fi
	find "$base/lib/modules/$kver" -maxdepth 1 -type f -name 'modules.*' \
		-exec cp -t "$dest/lib/modules/$kver/" {} +
	rm -rf "$base"
}

# vm_verdict NAME LOGDIR SECONDS: the PASS or FAIL line of a test judged
# into VM_REASONS, with the kernel's reports under a FAIL; returns 0/1.
vm_verdict() {
	local name=$1 logdir=$2 elapsed=$3 note
	while IFS= read -r note; do
		echo "note: ${note#"$PWD"/}: $(cat "$note")"
	done < <(find "$logdir" -maxdepth 2 -name boot-retried | sort)
	if [ "${#VM_REASONS[@]}" -eq 0 ]; then
		echo "PASS $name (${elapsed}s)"
		[ -z "${VM_TALLY:-}" ] || echo "PASS $name" >>"$VM_TALLY"
		return 0
	fi
	[ -z "${VM_TALLY:-}" ] || echo "FAIL $name" >>"$VM_TALLY"
	local IFS=';'
	local reasons="${VM_REASONS[*]}"
	echo "FAIL $name (${elapsed}s): ${reasons//;/; } -- logs: ${logdir#"$PWD"/}"
	local report
	while IFS= read -r report; do
		echo "  kernel report, ${report#"$logdir"/}:"
		sed 's/^/    /' "$report"
	done < <(find "$logdir" -maxdepth 2 -name kernel-report.txt -size +0 | sort)
	# A test that ran out of time: where each guest was, for a log that
	# is not kept (a CI run's).
	if [ "${VM_TIMED_OUT:-0}" = 1 ]; then
		while IFS= read -r report; do
			echo "  last lines of ${report#"$PWD"/}:"
			tail -n 12 "$report" | tr -d '\r' | cut -c1-200 | sed 's/^/    /'
		done < <({ find "$logdir" -maxdepth 2 -name console.log | sort | grep .; } ||
			{ [ ! -s "$logdir/shared-guest" ] || echo "$(cat "$logdir/shared-guest")/console.log"; })
	fi
	return 1
}

# vm_test_seconds PATH: about how long the test at PATH takes, in seconds,
# under the kernel chosen (RDMABLK_KERNEL): its line in tests/vm/seconds
# ("NNN DEFAULT DEBUG", measured in a make check run), or a quarter of its
# VM_TIMEOUT when it has none. Only for the order of the shared guests' pool.
vm_test_seconds() {
	local n col=2 secs
	n=$(basename "$1")
	n=${n%%-*}
	[ "${RDMABLK_KERNEL:-default}" != debug ] || col=3
	secs=$(awk -v n="$n" -v c="$col" '$1 == n { print $c; exit }' \
		"$VM_REPO/tests/vm/seconds" 2>/dev/null)
	if ! [[ $secs =~ ^[0-9]+$ ]]; then
		secs=$(vm_header_var "$1" VM_TIMEOUT)
		[[ $secs =~ ^[0-9]+$ ]] || secs=600
		secs=$((secs / 4))
	fi
	echo "$secs"
}

# vm_shareable PATH: true if the test can share a guest with others
# (vm_run_batch): a valid one-guest test with nothing of its own on the
# kernel command line, no disk, no MTU of its own and no VM_SHARE=no.
vm_shareable() {
	local path=$1 v
	[ -z "$(vm_header_problem "$path")" ] || return 1
	[ "$(vm_header_var "$path" VM_MODE)" = one ] || return 1
	for v in VM_APPEND VM_TARGET_DISK_MB VM_ROOT_DISK_MB VM_MTU; do
		[ -z "$(vm_header_var "$path" "$v")" ] || return 1
	done
	[ "$(vm_header_var "$path" VM_SHARE)" != no ]
}

# Shared guests: one-guest tests (vm_shareable) one after the other in one
# guest, saving a boot each (about 15 s, 110 s under the debug kernel);
# scripts/vm/guest-init resets the guest between two and gives each test its
# own results, time limit and kernel log, judged as vm_run_test judges them.
# The tests wait in a pool (vm_pool_create), longest first; each guest takes
# the next test nobody took (a directory in the pool's claims/, made by
# mkdir, which only one guest can make), so that guests side by side (-j N:
# one vm_run_pool each) end at about the same time however long the tests
# take today. A test that ends the guest (a crash, its time limit) or leaves
# what the guest cannot undo ends that guest; the tests nobody took yet run
# in the other guests or in a new one.

# vm_pool_create DIR PATH...: a pool of tests in DIR (the guests' /shared):
# batch.list ("NAME SCRIPT LIMIT" a line, in the order given: LIMIT is the
# seconds the guest gives the test, a little less than its VM_TIMEOUT) and
# paths (NAME PATH). Scripts outside the tree are copied into the pool.
vm_pool_create() {
	local dir=$1 t name timeout scale=${RDMABLK_VM_TIMEOUT_SCALE:-1}
	shift
	rm -rf "$dir"
	mkdir -p "$dir/claims"
	for t in "$@"; do
		name=$(basename "$t")
		timeout=$(($(vm_header_var "$t" VM_TIMEOUT) * scale))
		echo "$name $t" >>"$dir/paths"
		case $t in
		"$VM_REPO"/*) echo "$name /src/${t#"$VM_REPO"/} $((timeout - $(vm_guest_margin "$timeout")))" ;;
		*) cp "$t" "$dir/$name.script" &&
			echo "$name /shared/$name.script $((timeout - $(vm_guest_margin "$timeout")))" ;;
		esac
	done >"$dir/batch.list"
}

# vm_pool_unclaimed DIR: the names of the pool's tests that no guest took.
vm_pool_unclaimed() {
	local name _
	while read -r name _; do
		[ -e "$1/claims/$name" ] || echo "$name"
	done <"$1/batch.list"
}

# vm_run_pool DIR [SLOT]: shared guests, one after the other, while the
# pool holds a test nobody took; SLOT (1) tells side-by-side runs' guests
# apart: build/vm-logs/shared-guest.SLOT-K for the Kth. Prints a PASS/FAIL
# line per test it ran; returns 1 if any failed.
vm_run_pool() {
	local rc=0 k=0
	while [ -n "$(vm_pool_unclaimed "$1")" ]; do
		k=$((k + 1))
		vm_pool_guest "$1" "$VM_LOG_ROOT/shared-guest.${2:-1}-$k" || rc=1
	done
	return "$rc"
}

# vm_pool_guest DIR GUESTDIR: boot one shared guest, its logs in GUESTDIR,
# that takes tests from the pool until none is left or it must stop; judge
# the tests it took.
vm_pool_guest() {
	local pool=$1 bdir=$2 name path t now deadline rc=0 took logdir scale=${RDMABLK_VM_TIMEOUT_SCALE:-1}
	local cur='' seen=0 pid
	local -A path_of=() timeout_of=()
	while read -r name path; do
		path_of[$name]=$path
		timeout_of[$name]=$(($(vm_header_var "$path" VM_TIMEOUT) * scale))
	done <"$pool/paths"
	rm -rf "$bdir"
	mkdir -p "$bdir"
	vm_write_conf "$bdir" VM_ROLE=one VM_NET="$(vm_net "${path_of[@]}")" VM_MODE=one VM_MTU="$(vm_mtu)" \
		VM_BATCH=/shared/batch.list VM_TEST="shared guest" VM_FUNC=test_main
	vm_start one "$bdir" "$pool" none "${RDMABLK_VM_SMP:-2}"
	pid=$VM_PID
	# The boot and the bench's setup, and the debug lane's kmemleak scans
	# after the last test ("@kmemleak" in the guest's order file).
	deadline=$(($(date +%s) + 300 * scale))
	while vm_alive "$pid"; do
		# The guest adds each test it takes to its order file.
		if [ -s "$bdir/order" ] && [ "$(wc -l <"$bdir/order")" -gt "$seen" ]; then
			seen=$(wc -l <"$bdir/order")
			cur=$(tail -n 1 "$bdir/order")
			if [ "$cur" = @kmemleak ]; then
				deadline=$(($(date +%s) + 300 * scale))
			else
				deadline=$(($(date +%s) + timeout_of[$cur]))
			fi
		fi
		now=$(date +%s)
		if [ "$now" -ge "$deadline" ]; then
			vm_kill "$pid"
			if [ -n "$cur" ] && [ "$cur" != @kmemleak ]; then
				echo "killed by the host at the time limit" >"$bdir/$cur/host-timeout"
			fi
			break
		fi
		sleep 0.2
	done
	wait "$pid" 2>/dev/null || true
	VM_PIDS=()

	# The guest ended before its first test (its boot, its setup): the
	# first test nobody took fails for it, so that a guest that cannot
	# boot does not loop.
	if [ ! -s "$bdir/order" ]; then
		name=$(vm_pool_unclaimed "$pool" | head -n 1)
		[ -n "$name" ] && mkdir "$pool/claims/$name" 2>/dev/null || return 0
		echo "$name" >"$bdir/order"
		mkdir -p "$bdir/$name"
	fi
	[ ! -s "$bdir/boot-retried" ] || echo "note: ${bdir#"$PWD"/}: $(cat "$bdir/boot-retried")"
	local scanned=1
	[ "$(tail -n 1 "$bdir/order")" != @kmemleak ] || [ -e "$bdir/kmemleak-done" ] || scanned=0
	while read -r name; do
		[ "$name" != @kmemleak ] || continue
		t=$bdir/$name
		logdir=$VM_LOG_ROOT/$name
		rm -rf "$logdir"
		mkdir -p "$t"
		mv "$t" "$logdir"
		echo "${bdir#"$PWD"/}" >"$logdir/shared-guest"
		VM_REASONS=()
		VM_TIMED_OUT=0
		[ ! -e "$logdir/host-timeout" ] || VM_TIMED_OUT=1
		if [ -e "$logdir/started" ] && [ ! -e "$logdir/exit-code" ]; then
			# The guest ended while this test ran: what the console
			# saw from its start on is its log.
			sed -n "/vm-init: .* running $name /,\$p" "$bdir/console.log" >"$logdir/console.log"
		elif [ ! -e "$logdir/started" ]; then
			# The guest ended before its first test: its boot.
			cp "$bdir/console.log" "$logdir/console.log"
			[ ! -s "$bdir/setup-failed" ] || cp "$bdir/setup-failed" "$logdir/"
			[ ! -s "$bdir/qemu.log" ] || cp "$bdir/qemu.log" "$logdir/"
		fi
		vm_judge_guest "$logdir" one "$(vm_header_var "${path_of[$name]}" VM_LOG_IGNORE)"
		[ "$VM_TIMED_OUT" = 0 ] || VM_REASONS=("timed out after ${timeout_of[$name]}s (VM_TIMEOUT)" "${VM_REASONS[@]}")
		# The debug lane's kmemleak scans after the guest's last test
		# judge every test it ran (vm_judge_guest reads their verdict).
		if [ "$scanned" = 0 ]; then
			VM_REASONS+=("the shared guest's kmemleak scans after its last test did not finish; see ${bdir#"$PWD"/}/console.log")
		fi
		took=$(cat "$logdir/took" 2>/dev/null || echo "?")
		vm_verdict "$name" "$logdir" "$took" || rc=1
	done <"$bdir/order"
	return "$rc"
}

# vm_power_cycle LOGDIR ROLE PID SMP: kill the guest's QEMU (a power
# failure: no shutdown, nothing flushed; nothing left to kill after a
# reboot) and boot it again with VM_BOOT counting up; its earlier console is
# kept as console.bootN.log. Sets VM_PID.
vm_power_cycle() {
	local logdir=$1 role=$2 pid=$3 smp=$4 dir=$1/$2 boot net
	kill -USR1 "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	boot=$(sed -n 's/^export VM_BOOT=//p' "$dir/vm.conf" | tail -n 1)
	boot=${boot:-1}
	mv -f "$dir/console.log" "$dir/console.boot$boot.log"
	echo "export VM_BOOT=$((boot + 1))" >>"$dir/vm.conf"
	rm -f "$logdir/shared/powercycle.$role" "$logdir/shared/reboot.$role"
	[ "$role" = target ] && net=${VM_GUEST_NET[0]} || net=${VM_GUEST_NET[1]}
	vm_start "$role" "$dir" "$logdir/shared" "$net" "$smp"
}

# vm_wait_guests DEADLINE LOGDIR SMP PID...: wait for all guests to power
# off, killing them at DEADLINE (sets VM_TIMED_OUT=1). A guest that asked
# for it (vm_power_cycle in tests/vm/lib.sh) is killed and booted again.
# When a guest ends without a result, tell the other one through the shared
# directory so its vm_wait fails fast instead of running into the time limit.
vm_wait_guests() {
	local deadline=$1 logdir=$2 smp=$3 p live i role
	shift 3
	local -a pids=("$@") told=()
	while :; do
		live=0
		for i in "${!pids[@]}"; do
			p=${pids[$i]}
			role=target
			[ "$i" = 0 ] || role=initiator
			if [ "${#pids[@]}" -gt 1 ] && [ -e "$logdir/shared/powercycle.$role" ]; then
				vm_power_cycle "$logdir" "$role" "$p" "$smp"
				pids[i]=$VM_PID
				live=1
			elif vm_alive "$p"; then
				live=1
			elif [ "${#pids[@]}" -gt 1 ] && [ -e "$logdir/shared/reboot.$role" ]; then
				# The guest rebooted itself (vm_reboot); QEMU runs
				# with -no-reboot, so it ended: boot it again.
				vm_power_cycle "$logdir" "$role" "$p" "$smp"
				pids[i]=$VM_PID
				live=1
			elif [ "${#pids[@]}" -gt 1 ] && [ -z "${told[$i]:-}" ]; then
				told[i]=1
				[ -e "$logdir/shared/exit.$role" ] || echo "crashed" >"$logdir/shared/exit.$role"
			fi
		done
		[ "$live" = 1 ] || break
		if [ "$(date +%s)" -ge "$deadline" ]; then
			VM_TIMED_OUT=1
			vm_kill "${pids[@]}"
			break
		fi
		sleep 0.2
	done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
	vm_link_down
	VM_PIDS=()
}
