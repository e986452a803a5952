#!/usr/bin/env bash
# Memory is bounded by the input, and a saved repro can be read back (docs/bad-input.md).
#   memory_bound_test.sh DMCONF
# A 32 MB vector file of the densest plain kind (DepthToSpace f32 [1,8100004,1,1], block size
# 2, blocks_first, elements alternating "0" and "1" in and out: 2 bytes of file per 4 bytes of
# tensor, with the oracle's expectation, since a file the oracle contradicts is a file error and
# never runs) is verified on mutant.d2s_mode_swapped (depth_first instead), which gets half of
# the elements wrong, so the case fails and is saved. The target:
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

# m output channels (odd), n = 4m elements; input element i holds i % 2.
if [ "${DMCONF_MEMORY_BOUND_APPLIES:-1}" = 1 ]; then m=2025001; else m=126563; fi
n=$((4 * m))
# The spec's blocks_first with b = 2, D1 = D2 = 1: out[0, c', bh, bw] = in[0, (bh*2 + bw)*m + c'],
# i.e. ((bh*2 + bw)*m + c') % 2 = (bw + c') % 2 for m odd. depth_first reads in[c'*4 + bh*2 + bw],
# i.e. bw % 2: the two differ exactly where c' is odd, 4 * (m // 2) elements.
wrong=$((4 * (m / 2)))
python3 - "$tmp/big.json" "$m" <<'PY'
import sys
m = int(sys.argv[2])
n = 4 * m
with open(sys.argv[1], "w") as f:
    f.write('{"schema": "dmconf-vector/1", "id": "big.d2s", "op": "DepthToSpace", "version": 1,'
            ' "attributes": {"block_size": 2, "mode": "blocks_first"}, "inputs": [{"name": "data",'
            ' "constant": false, "type": "f32", "shape": [1, %d, 1, 1], "data": [' % n)
    f.write(",".join(["0", "1"] * (n // 2)))
    f.write(']}], "expectation": {"kind": "valid", "output": {"type": "f32", "shape": [1, %d, 2, 2],'
            ' "data": [' % m)
    f.write(",".join(["0,1,0,1" if c % 2 == 0 else "1,0,1,0" for c in range(m)]))
    f.write(']}}, "provenance": {"kind": "hand_written", "note": "memory bound"}, "classes": []}')
PY

# Peak RSS (ru_maxrss of the waited-for process tree: dmconf and its worker) in KiB.
out=$(python3 - "$dmconf" "$tmp" <<'PY'
import os, resource, subprocess, sys
dmconf, tmp = sys.argv[1], sys.argv[2]
r = subprocess.run([dmconf, "vectors", "verify", tmp + "/big.json", "--quiet",
                    "--backend", "mutant.d2s_mode_swapped", "--report", tmp + "/r.json",
                    "--failures", tmp + "/failures"], capture_output=True, text=True)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
size = os.path.getsize(tmp + "/big.json")
print(r.returncode, peak, size)
sys.stdout.write(r.stdout[-2000:])
# A mutant's failures are not listed on the terminal (its summary is the mutation score): the
# report gives the case's detail and repro line.
import json
for c in json.load(open(tmp + "/r.json"))["backends"][0]["cases"]:
    print("\n" + c.get("detail", "") + "\nrepro: " + c.get("repro", ""))
PY
)
read -r status peak_kib size <<<"$(head -1 <<<"$out")"
bound_kib=$(((8 * size + (64 << 20)) / 1024))
echo "file $size bytes; peak memory $peak_kib KiB = $((peak_kib * 1024 * 100 / size))% of the file; bound $bound_kib KiB"
if [ "$status" -ne 1 ] || ! grep -q "$wrong of $n elements differ" <<<"$out"; then
  echo "FAIL: the swapped mode must fail (exit 1, $wrong of $n elements differ), got exit $status"
  tail -8 <<<"$out"
  fail=1
fi
if [ "${DMCONF_MEMORY_BOUND_APPLIES:-1}" = 1 ] && [ "$peak_kib" -gt "$bound_kib" ]; then
  echo "FAIL: peak memory $peak_kib KiB is above 8 x file size + 64 MiB = $bound_kib KiB"
  fail=1
fi

# The saved repro is readable by the command printed for it, and holds the oracle's output.
repro=$(grep -oE 'repro: dmconf run --backend mutant.d2s_mode_swapped --vectors [^ ]+' <<<"$out" | head -1)
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
