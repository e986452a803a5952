#!/usr/bin/env bash
# `dmconf infer-shape` on OpenVINO-style partial shapes. Expected answers derived by hand from
# the specs' output formulas on intervals:
#   DepthToSpace blocks_first, block 2, K = 2: C' = C / 4, D_i * 2.
#     [1, 8..16, 2.., ?] -> [1, [2,4], [4,inf), ?]
#     [1, 5..7, 2, 2]    -> must_reject: no depth in [5,7] is divisible by 4
#   SpaceToBatch, block_shape a non-constant input (values >= 1, unknown), zero pads:
#     [2, 6.., 10] -> batch 2 * prod(B) >= 2, D1 / B_1 >= 1 (unbounded), D2 / B_2 in [1, 10]
#   an unknown rank stays unknown for DepthToSpace.
#   infer_shape_partial_test.sh DMCONF
set -uo pipefail
dmconf="$1"
fail=0
check() {  # check "EXPECTED OUTPUT LINE" ARGS...
  local want="$1"
  shift
  local out
  out=$("$dmconf" infer-shape "$@" 2>&1)
  if ! grep -qxF -- "$want" <<<"$out"; then
    echo "FAIL: dmconf infer-shape $* must print '$want', printed:"
    sed 's/^/  /' <<<"$out"
    fail=1
  fi
}
d2s=(--op d2s --block-size 2 --mode blocks_first)
check "output_shape: [1,[2,4],[4,inf),?]" "${d2s[@]}" --shape 1,8..16,2..,?
check "expectation: valid (for some instances)" "${d2s[@]}" --shape 1,8..16,2..,?
check "must_reject: d2s.block_size.divides: no depth in [5,7] is divisible by block_size^K = 4" \
  "${d2s[@]}" --shape 1,5..7,2,2
check "output_shape: [...]" "${d2s[@]}" --shape ...
check "output_shape: [[2,inf),[1,inf),[1,10]]" --op s2b --shape 2,6..,10 --block-shape '?' \
  --pads-begin 0,0,0 --pads-end 0,0,0
# A static shape still gets the static answer.
check "output_shape: [1,2,4,6]" "${d2s[@]}" --shape 1,8,2,3
# Malformed partial syntax is a rule-named usage error (exit 2).
out=$("$dmconf" infer-shape "${d2s[@]}" --shape 1,x..3 2>&1)
if [ $? -ne 2 ] || ! grep -q "case.flags.partial_shape: --shape '1,x..3'" <<<"$out"; then
  echo "FAIL: bad partial syntax must exit 2 naming case.flags.partial_shape: $out"
  fail=1
fi
[ "$fail" -eq 0 ] && echo "infer-shape partial: all checks passed"
exit "$fail"
