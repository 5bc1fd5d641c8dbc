#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rdmablkctl key generate, the built program: each key it prints is checked
# apart from rdmablk's own code (python3's base64 and zlib), and a bad
# --hmac is refused.
#
#   key-generate-test.sh RDMABLKCTL
set -u

if ! command -v python3 >/dev/null; then
	echo "python3 not installed; skipping"
	exit 77
fi
ctl=$1
status=0
# No rdmablkd is needed; this socket does not exist.
export RDMABLK_SOCKET=/nonexistent/rdmablkd.sock

fail() {
	echo "FAIL $*"
	status=1
}

# What key generate printed, on stdin: "HH LENGTH" of its secret, or why it
# is not one key and a newline.
check_key() {
	python3 -c '
import base64, binascii, re, struct, sys, zlib
text = sys.stdin.read()
m = re.fullmatch(r"RDMABLK-1:(0[123]):([A-Za-z0-9+/]+={0,2}):\n", text)
if not m:
    sys.exit("not one key and a newline: %r" % text)
blob = base64.b64decode(m.group(2), validate=True)
if len(blob) < 4:
    sys.exit("%d bytes, no room for a CRC-32" % len(blob))
secret, crc = blob[:-4], struct.unpack("<I", blob[-4:])[0]
if crc != zlib.crc32(secret):
    sys.exit("CRC mismatch")
want = {"01": 32, "02": 48, "03": 64}[m.group(1)]
if len(secret) != want:
    sys.exit("%d-byte secret for %s" % (len(secret), m.group(1)))
print(m.group(1), len(secret))
'
}

for c in ":01 32" "--hmac sha256:01 32" "--hmac sha384:02 48" "--hmac=sha512:03 64"; do
	args=${c%%:*} want=${c#*:}
	# shellcheck disable=SC2086 # $args is words
	if ! out=$("$ctl" key generate $args); then
		fail "rdmablkctl key generate${args:+ $args} exited non-zero"
		continue
	fi
	if got=$(printf '%s\n' "$out" | check_key 2>&1) && [ "$got" = "$want" ]; then
		echo "ok   rdmablkctl key generate${args:+ $args}: HH and secret length $got"
	else
		fail "rdmablkctl key generate${args:+ $args}: $got"
	fi
done

out=$("$ctl" key generate -o json) &&
	json_key=$(printf '%s' "$out" | python3 -c 'import json, sys; print(json.load(sys.stdin)["key"])') &&
	printf '%s\n' "$json_key" | check_key >/dev/null &&
	echo "ok   rdmablkctl key generate -o json: {\"key\": ...}" ||
	fail "rdmablkctl key generate -o json: $out"

err=$("$ctl" key generate --hmac md5 2>&1 >/dev/null)
rc=$?
want='rdmablkctl: invalid --hmac "md5": expected sha256, sha384 or sha512'
if [ "$rc" -eq 2 ] && [ "$err" = "$want" ]; then
	echo "ok   rdmablkctl key generate --hmac md5: exit 2, $err"
else
	fail "rdmablkctl key generate --hmac md5: exit $rc, '$err'"
fi
exit "$status"
