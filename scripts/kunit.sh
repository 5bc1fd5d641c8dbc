#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run rdmablk's KUnit suites under UML on Debian's linux-source-6.1.
#
# The source is unpacked once into the shared cache (scripts/linux-source.sh);
# the module's sources, its tests and the uapi headers are linked into
# drivers/block/rdmablk/ of that tree, so edits are picked up by the next
# run without copying. The UML build directory is kept in the shared cache
# too, so a rebuild takes seconds, not minutes; the module's objects in it
# are removed before each run, as they may be another checkout's.
#
# Prints "N passed, M failed" as its last line; exits non-zero on failure.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
[ "${RDMABLK_SKIP_DEPS:-0}" = 1 ] || "$repo/scripts/install-deps.sh"

tree=$("$repo/scripts/linux-source.sh")
cache=$("$repo/scripts/cache-dir.sh")
build="$cache/kunit-build"
# One run at a time: the links below and the build are shared.
exec 9>"$cache/kunit.lock"
flock 9
rm -rf "$build/drivers/block/rdmablk"

# Link the module's sources and the KUnit glue into the tree.
dir="$tree/drivers/block/rdmablk"
rm -rf "$dir"
mkdir -p "$dir"
for f in "$repo"/kmod/*.c "$repo"/kmod/*.h; do
	ln -s "$f" "$dir/"
done
ln -s "$repo/kmod/host" "$dir/host"
ln -s "$repo/kmod/target" "$dir/target"
# A copy, not a link: the tree is shared by every checkout
# (scripts/cache-dir.sh), and the drivers/block/Kconfig that sources it must
# still parse, for the debug kernel, after this checkout is gone.
cp "$repo/kmod/kunit/Kconfig" "$dir/Kconfig"
ln -s "$repo/kmod/kunit/Makefile" "$dir/Makefile"
ln -s "$repo/kmod/kunit/.kunitconfig" "$dir/.kunitconfig"
ln -s "$repo/uapi" "$dir/uapi"

kconfig="$tree/drivers/block/Kconfig"
if ! grep -q 'drivers/block/rdmablk/Kconfig' "$kconfig"; then
	sed -i 's|^endif # BLK_DEV$|source "drivers/block/rdmablk/Kconfig"\n\nendif # BLK_DEV|' "$kconfig"
	grep -q 'drivers/block/rdmablk/Kconfig' "$kconfig" ||
		{ echo "kunit: cannot hook into $kconfig" >&2; exit 1; }
fi
kmake="$tree/drivers/block/Makefile"
grep -q 'rdmablk/' "$kmake" ||
	echo 'obj-$(CONFIG_RDMABLK_KUNIT_TEST) += rdmablk/' >>"$kmake"

log="$repo/build/kunit.log"
mkdir -p "$repo/build"
cd "$tree"
set +e
python3 tools/testing/kunit/kunit.py run \
	--kunitconfig=drivers/block/rdmablk \
	--build_dir="$build" --jobs="$(nproc)" "$@" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
set -e

# kunit.py's summary: "Testing complete. Ran N tests: passed: P, failed: F"
summary=$(grep -E 'Testing complete\. Ran [0-9]+ tests' "$log" | tail -1 || true)
passed=$(sed -nE 's/.*passed: ([0-9]+).*/\1/p' <<<"$summary")
failed=$(sed -nE 's/.*failed: ([0-9]+).*/\1/p' <<<"$summary")
passed=${passed:-0}
failed=${failed:-0}
if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
	echo "kunit: kunit.py failed before running the tests; see $log" >&2
	failed=1
fi
echo "$passed passed, $failed failed"
[ "$rc" -eq 0 ] && [ "$failed" -eq 0 ]
