#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run rdmablk's test layers and print one summary line.
#
#   scripts/check.sh all     static checks, GoogleTest (ASan/UBSan), KUnit, VM,
#                            and the debug kernel lane (KASAN, lockdep,
#                            kmemleak, UBSAN): the kernel (built in the
#                            background meanwhile, cached), the planted-bug
#                            selftest and the tests of tests/vm/debug-lane.list
#                            marked "check"
#   scripts/check.sh quick   static checks, GoogleTest, KUnit
#   scripts/check.sh debug   the debug kernel lane with every listed test
#
# Each layer prints its own "N passed, M failed"; the summary lists every
# layer with its skips and wall time (also in build/check/timings.txt), then
# "K skipped" when tests were skipped, and last the sum, "N passed, M
# failed". Skipped tests count as neither. A layer that ends before
# reporting counts every test it did not report as failed. Exit status is
# non-zero when anything failed.
set -uo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo" || exit 1
mode=${1:-all}
export RDMABLK_SKIP_DEPS=1
"$repo/scripts/install-deps.sh" || exit 1

mkdir -p build/check

# The userspace builds (ASan, the guests' programs, the packager's) go
# through ccache, its store in the shared cache (scripts/cache-dir.sh): a
# fresh clone compiles only what changed. Paths under the clone are
# rewritten relative to it, so clones in other places share entries.
if command -v ccache >/dev/null; then
	export CCACHE_DIR
	CCACHE_DIR=$(scripts/cache-dir.sh)/ccache
	export CCACHE_BASEDIR=$repo CCACHE_NOHASHDIR=1
	export CMAKE_CXX_COMPILER_LAUNCHER=ccache CMAKE_C_COMPILER_LAUNCHER=ccache
fi
total_pass=0
total_fail=0
total_skip=0
summary=()
: >build/check/timings.txt

# record LAYER PASSED FAILED [SKIPPED]
record() {
	local skip=${4:-0} line
	total_pass=$((total_pass + $2))
	total_fail=$((total_fail + $3))
	total_skip=$((total_skip + skip))
	line=$(printf '%-11s %s passed, %s failed' "$1" "$2" "$3")
	[ "$skip" -eq 0 ] || line+=", $skip skipped"
	summary+=("$line")
}

# timed NAME FUNCTION [ARGS...]: run a layer and record its wall time.
timed() {
	local start=$SECONDS t
	"${@:2}"
	t=$((SECONDS - start))
	printf '%-11s %d min %02d s\n' "$1" $((t / 60)) $((t % 60)) >>build/check/timings.txt
	echo "check: $1 took ${t} s"
}

# Parse "N passed, M failed" from the last such line of a log.
record_log() {
	local layer=$1 log=$2 line p f
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
	if [ -z "$line" ]; then
		echo "check: $layer did not report a result; see $log" >&2
		record "$layer" 0 1
		return
	fi
	p=${line%% passed*}
	f=${line#*passed, }
	f=${f%% failed*}
	record "$layer" "$p" "$f"
}

# record_vm LAYER LOG EXPECTED: a tests/vm/run log of EXPECTED tests. Counts
# its PASS and FAIL lines; tests it never reported (the run crashed) count
# as failed, so the sum never shows fewer tests than were meant to run.
record_vm() {
	local layer=$1 log=$2 want=$3 p f
	p=$(grep -c '^PASS ' "$log")
	f=$(grep -c '^FAIL ' "$log")
	if [ $((p + f)) -lt "$want" ] || ! grep -qE '^[0-9]+ passed, [0-9]+ failed$' "$log"; then
		echo "check: $layer reported $((p + f)) of $want tests; the rest count as failed; see $log" >&2
		f=$((want - p))
		[ "$f" -gt 0 ] || f=1
	fi
	record "$layer" "$p" "$f"
}

section() {
	printf '\n=== %s ===\n' "$1"
}

static_checks() {
	local pass=0 fail=0 log=build/check/kmod-build.log tree

	section "static: rdmablk.ko with W=1 and sparse (C=2)"
	make -C kmod clean >/dev/null 2>&1
	if make -C kmod -j"$(nproc)" W=1 C=2 >"$log" 2>&1 &&
	   ! grep -E 'warning:|error:' "$log"; then
		echo "ok   module builds with no warning under W=1 and sparse"
		pass=$((pass + 1))
	else
		echo "FAIL module build has warnings or errors; see $log"
		grep -E 'warning:|error:' "$log" | head -20
		fail=$((fail + 1))
	fi

	section "static: checkpatch --strict"
	tree=$(scripts/linux-source.sh)
	log=build/check/checkpatch.log
	if "$tree/scripts/checkpatch.pl" --no-tree --strict --quiet \
		--ignore BIT_MACRO,LINE_SPACING -f $(ls kmod/*.c kmod/*.h kmod/*/*.c kmod/*/*.h | grep -v "\.mod\.c$") \
		uapi/linux/*.h >"$log" 2>&1; then
		echo "ok   checkpatch --strict clean"
		pass=$((pass + 1))
	else
		echo "FAIL checkpatch findings; see $log"
		head -30 "$log"
		fail=$((fail + 1))
	fi

	# make dkms-install's steps (add, build, install) for the kernel the VM
	# tests boot, in a staging tree: DKMS builds and installs the module
	# from what dkms-install ships. (The guests install with make install:
	# compiling the module under TCG would cost a guest many minutes.)
	section "static: DKMS builds and installs the module"
	local kver ko version
	log=build/check/dkms.log
	kver=$(basename "$(dirname "$(scripts/kdir.sh)")")
	version=$(sed -n 's/^#define RDMABLK_VERSION[^"]*"\(.*\)"/\1/p' kmod/rdmablk.h)
	ko=build/dkms-stage/lib/modules/$kver/updates/dkms/rdmablk.ko
	if scripts/dkms-install.sh --stage build/dkms-stage "$kver" "$version" >"$log" 2>&1 &&
	   [ -f "$ko" ] && [ "$(modinfo -F vermagic "$ko" | cut -d' ' -f1)" = "$kver" ] &&
	   [ "$(modinfo -F version "$ko")" = "$version" ]; then
		echo "ok   DKMS builds rdmablk $version for $kver and installs it under updates/dkms"
		pass=$((pass + 1))
	else
		echo "FAIL DKMS did not build and install rdmablk $version for $kver; see $log"
		tail -20 "$log"
		fail=$((fail + 1))
	fi

	# The bench's report: the median ratio's confidence interval, its
	# verdict, pooled result directories.
	section "static: scripts/bench-report.py unit tests"
	log=build/check/bench-report.log
	if python3 tests/scripts/bench_report_test.py -v >"$log" 2>&1; then
		echo "ok   bench-report.py: $(grep -c ' \.\.\. ok$' "$log") tests passed"
		pass=$((pass + 1))
	else
		echo "FAIL bench-report.py unit tests; see $log"
		tail -20 "$log"
		fail=$((fail + 1))
	fi

	# As a distribution builds it: Release (-O3), Debian's hardening flags,
	# no -Werror (a compiler's new warning must not fail a package build).
	# make check's other builds are RelWithDebInfo (the VM tests' programs)
	# and Debug (the unit tests under ASan), both with -Werror.
	section "static: the programs build as a packager builds them"
	log=build/check/release-build.log
	if CXXFLAGS="$(dpkg-buildflags --get CPPFLAGS) $(dpkg-buildflags --get CXXFLAGS)" \
		LDFLAGS=$(dpkg-buildflags --get LDFLAGS) \
		cmake -S daemon -B build/release -DCMAKE_BUILD_TYPE=Release >"$log" 2>&1 &&
	   cmake --build build/release -j"$(nproc)" --target rdmablkd rdmablkctl >>"$log" 2>&1; then
		echo "ok   rdmablkd and rdmablkctl build with CMAKE_BUILD_TYPE=Release and dpkg-buildflags"
		pass=$((pass + 1))
	else
		echo "FAIL the Release build with Debian's flags fails; see $log"
		grep -E 'error' "$log" | head -20
		fail=$((fail + 1))
	fi
	record static "$pass" "$fail"
}

unit_tests() {
	local log=build/check/gtest.log line total failed skipped want

	section "GoogleTest (ASan + UBSan)"
	# A unity build (eight sources a compiler run): the tests' sources
	# include the same heavy headers (GoogleTest, nlohmann-json), which a
	# fresh machine would otherwise parse once per source; the build takes
	# 8 minutes of CPU instead of 17. The packager's build in the static
	# layer compiles the programs' sources one at a time, so a source
	# that leans on another's includes still fails there.
	if ! { cmake -S daemon -B build/asan -DRDMABLK_SANITIZE=ON -DRDMABLK_WERROR=ON \
		-DCMAKE_UNITY_BUILD=ON -DCMAKE_BUILD_TYPE=Debug >build/check/asan-cmake.log 2>&1 &&
	       cmake --build build/asan -j"$(nproc)" >build/check/asan-build.log 2>&1; }; then
		echo "FAIL userspace build; see build/check/asan-build.log"
		tail -20 build/check/asan-build.log
		record gtest 0 1
		return
	fi
	want=$(ctest --test-dir build/asan -N 2>/dev/null | sed -nE 's/^Total Tests: ([0-9]+)$/\1/p')
	ASAN_OPTIONS=detect_leaks=1 ctest --test-dir build/asan --output-on-failure \
		-j"$(nproc)" 2>&1 | tee "$log"
	# "100% tests passed, 0 tests failed out of 12"; skipped tests (GTEST_SKIP)
	# are listed after it as "  7 - Suite.Name (Skipped)" and counted in
	# neither passed nor failed.
	line=$(grep -E 'tests passed, [0-9]+ tests failed out of [0-9]+' "$log" | tail -1)
	if [ -z "$line" ]; then
		echo "check: ctest did not report a result; all ${want:-1} tests count as failed" >&2
		record gtest 0 "${want:-1}"
		return
	fi
	failed=$(sed -E 's/.* ([0-9]+) tests failed.*/\1/' <<<"$line")
	total=$(sed -E 's/.*out of ([0-9]+).*/\1/' <<<"$line")
	skipped=$(grep -cE '^[[:space:]]*[0-9]+ - .*\(Skipped\)' "$log")
	if [ -n "$want" ] && [ "$total" -lt "$want" ]; then
		echo "check: ctest ran $total of $want tests; the rest count as failed" >&2
		failed=$((failed + want - total))
	fi
	record gtest $((total - failed - skipped)) "$failed" "$skipped"
}

kunit_tests() {
	section "KUnit (UML)"
	scripts/kunit.sh >build/check/kunit-run.log 2>&1
	local log=build/check/kunit-run.log line ran p f s
	grep -E '^\[[0-9:]+\] (\[PASSED\]|\[FAILED\]|\[SKIPPED\]|Testing complete|Elapsed)' \
		"$log" | tail -60
	# kunit.py: "Testing complete. Ran N tests: passed: P, failed: F,
	# skipped: S"; skipped tests are neither passed nor failed.
	line=$(grep -E 'Testing complete\. Ran [0-9]+ tests' "$log" | tail -1)
	if [ -z "$line" ]; then
		record_log kunit "$log"
		return
	fi
	ran=$(sed -nE 's/.*Ran ([0-9]+) tests.*/\1/p' <<<"$line")
	p=$(sed -nE 's/.*passed: ([0-9]+).*/\1/p' <<<"$line")
	f=$(sed -nE 's/.*failed: ([0-9]+).*/\1/p' <<<"$line")
	s=$(sed -nE 's/.*skipped: ([0-9]+).*/\1/p' <<<"$line")
	p=${p:-0} f=${f:-0} s=${s:-0}
	# Crashed or errored tests are in N but in none of the counts.
	[ $((p + f + s)) -ge "$ran" ] || f=$((ran - p - s))
	if [ "$f" -eq 0 ] && ! grep -qE '^[0-9]+ passed, 0 failed' "$log"; then
		f=1
	fi
	record kunit "$p" "$f" "$s"
}

# vm_userspace: the programs the guests run (make vm-programs), and only
# those: the unit tests are built and run under ASan by the GoogleTest
# layer, and building them a second time here would cost minutes of both
# CPUs. A unity build, as the GoogleTest layer's: on a fresh machine it
# takes half the CPU time (4 minutes instead of 9 on 2 cores); the
# packager's build in the static layer compiles each program's sources
# one at a time.
vm_userspace() {
	make -s vm-programs CMAKE_ARGS="-DRDMABLK_WERROR=ON -DCMAKE_UNITY_BUILD=ON" \
		>build/check/user-build.log 2>&1
}

vm_tests() {
	section "VM tests"
	# W=1 as the static layer built it: the same command lines, so Kbuild
	# finds its objects up to date instead of compiling them again.
	if ! make -C kmod -j"$(nproc)" W=1 >build/check/kmod-vm-build.log 2>&1; then
		echo "FAIL module build; see build/check/kmod-vm-build.log"
		record vm 0 1
		return
	fi
	if ! vm_userspace; then
		echo "FAIL userspace build; see build/check/user-build.log"
		record vm 0 1
		return
	fi
	# Every VM test but those whose header says VM_CHECK=no (run them
	# with make vmtest T=...) and those the debug lane runs in make check
	# (marked check in tests/vm/debug-lane.list): the same test under the
	# debug kernel checks all it checks here and what KASAN, lockdep and
	# kmemleak see. A test that make check's debug lane runs only in part
	# (words after "check" in the list) runs here too, whole.
	local t n jobs=1 skip=()
	local -a tests=()
	mapfile -t skip < <(debug_lane_tests check-whole)
	for t in tests/vm/[0-9][0-9][0-9]-*; do
		[ -f "$t" ] || continue
		n=$(basename "$t")
		n=${n%%-*}
		if printf '%s\n' "${skip[@]}" | grep -qx "$n"; then
			echo "vm: $n runs in the debug lane below"
			continue
		fi
		grep -qx 'VM_CHECK=no' "$t" || tests+=("$t")
	done
	# While the debug kernel builds, one test at a time: it builds in the
	# CPU time a lone test leaves idle. Once it is there (from the cache),
	# two one-vCPU guests side by side (docs/testing.md).
	if [ -z "$debug_kernel_pid" ] || ! kill -0 "$debug_kernel_pid" 2>/dev/null; then
		jobs=2
	fi
	echo "vm: ${#tests[@]} tests, $jobs at a time"
	tests/vm/run -j "$jobs" "${tests[@]}" 2>&1 | tee build/check/vm.log
	record_vm vm build/check/vm.log "${#tests[@]}"

	# make demo and the benchmark boot their guest through run-script.
	section "VM: run-script (the way make demo and scripts/bench boot)"
	if RDMABLK_VM_MTU=9000 scripts/vm/run-script --timeout 120 scripts/vm/run-script-check.sh run-script-check \
		>build/check/run-script.log 2>&1; then
		echo "ok   run-script boots a guest at the MTU asked for, runs a script in it and returns its status"
		record run-script 1 0
	else
		echo "FAIL run-script; see build/check/run-script.log"
		tail -20 build/check/run-script.log
		record run-script 0 1
	fi
}

# debug_kernel_start: build (or reuse) the debug kernel in the background,
# under SCHED_IDLE, while the other layers run: the VM tests leave the CPUs
# idle for much of their time (guests waiting for timeouts), which the
# kernel build soaks up without taking CPU time from them.
debug_kernel_pid=
debug_kernel_start() {
	scripts/linux-source.sh >/dev/null || return
	chrt --idle 0 scripts/vm/debug-kernel/build \
		>build/check/debug-kernel.log 2>&1 &
	debug_kernel_pid=$!
}

# debug_kernel: the debug kernel, built once and cached in
# the shared cache (scripts/cache-dir.sh; started earlier by
# debug_kernel_start, or now).
# Sets debug_kernel_ok=1 when it is there.
debug_kernel_ok=0
debug_kernel() {
	local log=build/check/debug-kernel.log rc=0
	section "debug kernel lane: kernel (cached; about 20 min of CPU from scratch)"
	[ -n "$debug_kernel_pid" ] || debug_kernel_start
	wait "$debug_kernel_pid" || rc=$?
	if [ "$rc" != 0 ]; then
		echo "FAIL debug kernel build; see $log"
		tail -20 "$log"
		record dbg-kernel 0 1
		return
	fi
	echo "ok   debug kernel $(tail -n 1 "$log")"
	record dbg-kernel 1 0
	debug_kernel_ok=1
}

# debug_lane_tests all|check|check-whole: the tests of
# tests/vm/debug-lane.list, one number a line: all, those marked check, or
# those marked check with nothing after (run whole in make check).
debug_lane_tests() {
	sed 's/#.*//' tests/vm/debug-lane.list |
		awk -v which="$1" 'NF && (which == "all" || $2 == "check" && (which == "check" || NF == 2)) { print $1 }'
}

# debug_lane_append: the kernel command line words that follow "check" in
# tests/vm/debug-lane.list (e.g. hostile_target_scenarios=...: the part of
# a test that make check's debug lane runs), all on one line.
debug_lane_append() {
	sed 's/#.*//' tests/vm/debug-lane.list |
		awk 'NF > 2 && $2 == "check" { for (i = 3; i <= NF; i++) printf "%s ", $i }'
}

# debug_lane all|check: the planted-bug selftest, then the tests of
# tests/vm/debug-lane.list under the debug kernel: all of them, or (check)
# those marked "check", which make check runs. Runs after vm_tests, which
# builds the userspace tools.
debug_lane() {
	local log p f
	local -a tests
	section "debug kernel lane: planted bugs (scripts/vm/selftest --debug)"
	log=build/check/debug-selftest.log
	scripts/vm/selftest --debug 2>&1 | tee "$log"
	# selftest's own verdicts; the runs it checks are indented ("  | ").
	p=$(grep -c '^ok ' "$log")
	f=$(grep -c '^FAIL ' "$log")
	grep -q '^selftest: all checks passed' "$log" || [ "$f" -gt 0 ] || f=1
	record dbg-self "$p" "$f"

	if [ "$1" = check ]; then
		section "debug kernel lane: VM tests (tests/vm/debug-lane.list, those marked check)"
	else
		section "debug kernel lane: VM tests (tests/vm/debug-lane.list)"
	fi
	mapfile -t tests < <(debug_lane_tests "$1")
	# tests/vm/run with no test runs every test: never here.
	if [ "${#tests[@]}" -eq 0 ]; then
		echo "no test of tests/vm/debug-lane.list is marked check"
		return
	fi
	# Two one-vCPU guests side by side: a debug guest spends most of its
	# time in one thread (boot, kmemleak scans). make check runs part of
	# some tests (debug_lane_append); make check-debug all of each.
	local append=
	[ "$1" != check ] || append=$(debug_lane_append)
	[ -z "$append" ] || echo "vm-debug: kernel command line: $append"
	RDMABLK_VM_APPEND="${RDMABLK_VM_APPEND:-} $append" \
		tests/vm/run --kernel debug -j 2 "${tests[@]}" 2>&1 | tee build/check/vm-debug.log
	record_vm vm-debug build/check/vm-debug.log "${#tests[@]}"
}

case $mode in
all)
	debug_kernel_start
	timed static static_checks
	timed gtest unit_tests
	timed kunit kunit_tests
	timed vm vm_tests
	# The kernel's time here is what was left after the layers above.
	timed dbg-kernel debug_kernel
	[ "$debug_kernel_ok" = 1 ] && timed dbg-lane debug_lane check
	;;
quick)
	timed static static_checks
	timed gtest unit_tests
	timed kunit kunit_tests
	;;
debug)
	# The lane needs the userspace tools the VM layer builds.
	if ! vm_userspace; then
		echo "FAIL userspace build; see build/check/user-build.log"
		record dbg-lane 0 1
	else
		timed dbg-kernel debug_kernel
		[ "$debug_kernel_ok" = 1 ] && timed dbg-lane debug_lane all
	fi
	;;
*)
	echo "usage: $0 all|quick|debug" >&2
	exit 2
	;;
esac

section "summary"
for s in "${summary[@]}"; do
	echo "$s"
done
echo "wall time per layer:"
cat build/check/timings.txt
[ "$total_skip" -eq 0 ] || echo "$total_skip skipped"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
