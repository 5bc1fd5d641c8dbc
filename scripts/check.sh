#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run rdmablk's test layers and print one summary line.
#
#   scripts/check.sh all     static checks, GoogleTest (ASan/UBSan), KUnit, VM
#   scripts/check.sh quick   the same without the VM layer
#
# Each layer prints its own "N passed, M failed"; the last line of this
# script is the sum. Exit status is non-zero when anything failed.
set -uo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo" || exit 1
mode=${1:-all}
export RDMABLK_SKIP_DEPS=1
"$repo/scripts/install-deps.sh" || exit 1

mkdir -p build/check
total_pass=0
total_fail=0
summary=()

# record LAYER PASSED FAILED
record() {
	total_pass=$((total_pass + $2))
	total_fail=$((total_fail + $3))
	summary+=("$(printf '%-8s %s passed, %s failed' "$1" "$2" "$3")")
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

section() {
	printf '\n=== %s ===\n' "$1"
}

static_checks() {
	local pass=0 fail=0 log=build/check/kmod-build.log tree

	section "static: rdmablk.ko with W=1 and sparse (C=2)"
	make -C kmod clean >/dev/null 2>&1
	if make -C kmod W=1 C=2 >"$log" 2>&1 &&
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
	record static "$pass" "$fail"
}

unit_tests() {
	local log=build/check/gtest.log line total failed

	section "GoogleTest (ASan + UBSan)"
	if ! { cmake -S daemon -B build/asan -DRDMABLK_SANITIZE=ON \
		-DCMAKE_BUILD_TYPE=Debug >build/check/asan-cmake.log 2>&1 &&
	       cmake --build build/asan -j"$(nproc)" >build/check/asan-build.log 2>&1; }; then
		echo "FAIL userspace build; see build/check/asan-build.log"
		tail -20 build/check/asan-build.log
		record gtest 0 1
		return
	fi
	ASAN_OPTIONS=detect_leaks=1 ctest --test-dir build/asan --output-on-failure \
		-j"$(nproc)" 2>&1 | tee "$log"
	# "100% tests passed, 0 tests failed out of 12"
	line=$(grep -E 'tests passed, [0-9]+ tests failed out of [0-9]+' "$log" | tail -1)
	if [ -z "$line" ]; then
		record gtest 0 1
		return
	fi
	failed=$(sed -E 's/.* ([0-9]+) tests failed.*/\1/' <<<"$line")
	total=$(sed -E 's/.*out of ([0-9]+).*/\1/' <<<"$line")
	record gtest $((total - failed)) "$failed"
}

kunit_tests() {
	section "KUnit (UML)"
	scripts/kunit.sh >build/check/kunit-run.log 2>&1
	grep -E '^\[[0-9:]+\] (\[PASSED\]|\[FAILED\]|\[SKIPPED\]|Testing complete|Elapsed)' \
		build/check/kunit-run.log | tail -60
	record_log kunit build/check/kunit-run.log
}

vm_tests() {
	section "VM tests"
	if ! make -C kmod >build/check/kmod-vm-build.log 2>&1; then
		echo "FAIL module build; see build/check/kmod-vm-build.log"
		record vm 0 1
		return
	fi
	if ! { cmake -S daemon -B build/userspace -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		>build/check/user-cmake.log 2>&1 &&
	       cmake --build build/userspace -j"$(nproc)" >build/check/user-build.log 2>&1; }; then
		echo "FAIL userspace build; see build/check/user-build.log"
		record vm 0 1
		return
	fi
	tests/vm/run 2>&1 | tee build/check/vm.log
	record_log vm build/check/vm.log

	# make demo and the benchmark boot their guest through run-script.
	section "VM: run-script (the way make demo and scripts/bench boot)"
	if scripts/vm/run-script --timeout 120 scripts/vm/run-script-check.sh run-script-check \
		>build/check/run-script.log 2>&1; then
		echo "ok   run-script boots a guest, runs a script in it and returns its status"
		record run-script 1 0
	else
		echo "FAIL run-script; see build/check/run-script.log"
		tail -20 build/check/run-script.log
		record run-script 0 1
	fi
}

static_checks
unit_tests
kunit_tests
[ "$mode" = quick ] || vm_tests

section "summary"
for s in "${summary[@]}"; do
	echo "$s"
done
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
