#!/usr/bin/env bash
# Memory is bounded by the input, and a saved repro can be read back (docs/bad-input.md).
#   memory_bound_test.sh DMCONF
# A 32 MB vector file of the densest plain kind (DepthToSpace f32 [1,8100000,1,1], every
# element "0" and every expected element "1": 2 bytes of file per 4 bytes of tensor, and a
# deliberately wrong expectation, so the case fails and is saved) is verified. The target:
# the peak resident memory of dmconf and its worker is at most 8 times the file size plus
# 64 MiB (measured before: 52 times; a 162 MB file took 8.47 GB). The failing case's saved file
# must be readable by the repro line printed for it, and a file above the reader's limit is
# refused by its size before a byte is read. DMCONF_MEMORY_BOUND_APPLIES=0 (sanitizer builds,
# whose shadow memory and quarantine change every figure) skips the bound, and uses a 16 times
# smaller file: the replay and refusal checks stay, without minutes of instrumented parsing.
set -uo pipefail
dmconf="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

if [ "${DMCONF_MEMORY_BOUND_APPLIES:-1}" = 1 ]; then n=8100000; else n=506250; fi
python3 - "$tmp/big.json" "$n" <<'PY'
import sys
n = int(sys.argv[2])
with open(sys.argv[1], "w") as f:
    f.write('{"schema": "dmconf-vector/1", "id": "big.d2s", "op": "DepthToSpace", "version": 1,'
            ' "attributes": {"block_size": 1, "mode": "blocks_first"}, "inputs": [{"name": "data",'
            ' "constant": false, "type": "f32", "shape": [1, %d, 1, 1], "data": [' % n)
    f.write(",".join(["0"] * n))
    f.write(']}], "expectation": {"kind": "valid", "output": {"type": "f32", "shape": [1, %d, 1, 1],'
            ' "data": [' % n)
    f.write(",".join(["1"] * n))
    f.write(']}}, "provenance": {"kind": "hand_written", "note": "memory bound"}, "classes": []}')
PY

# Peak RSS (ru_maxrss of the waited-for process tree: dmconf and its worker) in KiB.
out=$(python3 - "$dmconf" "$tmp" <<'PY'
import os, resource, subprocess, sys
dmconf, tmp = sys.argv[1], sys.argv[2]
r = subprocess.run([dmconf, "vectors", "verify", tmp + "/big.json", "--quiet",
                    "--failures", tmp + "/failures"], capture_output=True, text=True)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
size = os.path.getsize(tmp + "/big.json")
print(r.returncode, peak, size)
sys.stdout.write(r.stdout[-2000:])
PY
)
read -r status peak_kib size <<<"$(head -1 <<<"$out")"
bound_kib=$(((8 * size + (64 << 20)) / 1024))
echo "file $size bytes; peak memory $peak_kib KiB = $((peak_kib * 1024 * 100 / size))% of the file; bound $bound_kib KiB"
if [ "$status" -ne 1 ] || ! grep -q "$n of $n elements differ" <<<"$out"; then
  echo "FAIL: the wrong expectation must fail (exit 1, every element differs), got exit $status"
  tail -8 <<<"$out"
  fail=1
fi
if [ "${DMCONF_MEMORY_BOUND_APPLIES:-1}" = 1 ] && [ "$peak_kib" -gt "$bound_kib" ]; then
  echo "FAIL: peak memory $peak_kib KiB is above 8 x file size + 64 MiB = $bound_kib KiB"
  fail=1
fi

# The saved repro is readable by the command printed for it, and holds the oracle's output.
repro=$(grep -oE 'repro: dmconf run --backend oracle --vectors [^ ]+' <<<"$out" | head -1)
saved=${repro##* }
if [ -z "$saved" ] || [ ! -f "$saved" ]; then
  echo "FAIL: no saved failing case in the output"
  fail=1
else
  again=$("$dmconf" run --backend oracle --vectors "$saved" --quiet --failures "$tmp/f2" 2>&1)
  if [ $? -ne 0 ] || ! grep -q "^OK: 0 new failure" <<<"$again"; then
    echo "FAIL: the saved repro $saved cannot be replayed:"
    tail -5 <<<"$again"
    fail=1
  fi
fi

# A file above the reader's 256 MiB limit is refused by its size: a sparse 1 GiB file is never
# read (it would take seconds and a gigabyte).
truncate -s 1G "$tmp/huge.json"
refused=$(timeout 20 "$dmconf" vectors verify "$tmp/huge.json" --quiet 2>&1)
if ! grep -q "io.read.too_large: $tmp/huge.json: 1073741824 bytes, above the limit of 268435456 bytes" <<<"$refused"; then
  echo "FAIL: a 1 GiB file must be refused by its size:"
  tail -3 <<<"$refused"
  fail=1
fi

[ "$fail" -eq 0 ] && echo "memory bound: all checks passed"
exit "$fail"
