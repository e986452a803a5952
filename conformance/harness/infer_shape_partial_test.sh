#!/usr/bin/env bash
# `dmconf infer-shape` on OpenVINO-style partial shapes. Expected answers derived by hand from
# the specs' output formulas on intervals:
#   DepthToSpace blocks_first, block 2, K = 2: C' = C / 4, D_i * 2.
#     [1, 8..16, 2.., ?] -> [1, [2,4], [4,inf), ?]
#     [1, 5..7, 2, 2]    -> must_reject: no depth in [5,7] is divisible by 4
#   SpaceToBatch, block_shape a non-constant input (values >= 1, unknown), zero pads:
#     [2, 6.., 10] -> batch 2 * prod(B) >= 2, D1 / B_1 >= 1 (unbounded), D2 / B_2 in [1, 10]
#   an unknown rank stays unknown for DepthToSpace.
#   Non-constant inputs given by their shape ("1-D tensors with shape [N], N the rank of data"):
#     s2b [1, 2..8], block_shape ?[2], pads_begin 0,1, pads_end 0,0:
#       batch 1 * B_0 * B_1 >= 1, unbounded; (D_1 + 1) / B_1 with D_1 + 1 in [3, 9]: B_1 = 1
#       gives 9, B_1 = D_1 + 1 gives 1 -> [[1,inf),[1,9]]
#     the same with block_shape ?[3] or ?[2,1] (2-D): no instance has shape [2] -> must_reject
#       s2b.inputs.shape
#     s2b, unknown data rank, block_shape ?[4], pads ?: every accepted instance has rank 4 and
#       every dim is ? (batch 0, pads 0 give 0; nothing bounds them) -> [?,?,?,?]
#     s2b, unknown data rank, block_shape ?[2..3], pads_begin ?[3..5]: only N = 3 -> [?,?,?];
#       block_shape ?[2..3] alone leaves 2 and 3 -> [...]
#     b2s, unknown data rank, block_shape ?[?], crops ?[3]: rank 3 -> [?,?,?]
#     b2s, crops_begin ?[2] and crops_end ?[3]: never the same shape -> b2s.inputs.shape
#   Attribute-only rules hold at every rank: ExtractImagePatches, sizes 3,1, rates 2^62,1:
#     rate * (size - 1) + 1 = 2^62 * 2 + 1 > 2^63-1 -> must_reject eip.output.representable for
#     --shape 1,1,5,5 and for an unknown rank alike.
#   A float block_shape / pads ("T2: any supported integer type") is a case the spec rejects:
#     must_reject s2b.inputs.integer_type, exit 0 (infer-shape and eval), not a usage error.
#   Messages speak of the partial input: d2s --shape 2.. is "rank 1 (shape [[2,inf)])".
#   infer_shape_partial_test.sh DMCONF
set -uo pipefail
dmconf="$1"
fail=0
check_prefix() {  # check_prefix "START OF AN OUTPUT LINE" ARGS...
  local want="$1"
  shift
  local out line found=0
  out=$("$dmconf" infer-shape "$@" 2>&1)
  while IFS= read -r line; do
    [[ "$line" == "$want"* ]] && found=1
  done <<<"$out"
  if [ "$found" -ne 1 ]; then
    echo "FAIL: dmconf infer-shape $* must print a line starting '$want', printed:"
    sed 's/^/  /' <<<"$out"
    fail=1
  fi
}
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
# Non-constant inputs with a known, partial or unknown shape.
s2b=(--op s2b --shape 1,2..8 --pads-begin 0,1 --pads-end 0,0)
check "output_shape: [[1,inf),[1,9]]" "${s2b[@]}" --block-shape '?[2]'
check "block_shape: not constant, shape [2]" "${s2b[@]}" --block-shape '?[2]'
check "output_shape: [[1,inf),[1,9]]" "${s2b[@]}" --block-shape '?[1..3]'
check "output_shape: [[1,inf),[1,9]]" "${s2b[@]}" --block-shape '?[?]'
check "output_shape: [[1,inf),[1,9]]" "${s2b[@]}" --block-shape '?[...]'
check "expectation: must_reject (every instance)" "${s2b[@]}" --block-shape '?[3]'
check_prefix "must_reject: s2b.inputs.shape: " "${s2b[@]}" --block-shape '?[3]'
check_prefix "must_reject: s2b.inputs.shape: " "${s2b[@]}" --block-shape '?[2,1]'
check "output_shape: [?,?,?,?]" --op s2b --shape ... --block-shape '?[4]' --pads-begin '?' \
  --pads-end '?'
check "output_shape: [?,?,?]" --op s2b --shape ... --block-shape '?[2..3]' \
  --pads-begin '?[3..5]' --pads-end '?'
check "output_shape: [...]" --op s2b --shape ... --block-shape '?[2..3]' --pads-begin '?' \
  --pads-end '?'
check "output_shape: [?,?,?]" --op b2s --shape ... --block-shape '?[?]' --crops-begin '?[3]' \
  --crops-end '?[3]'
check_prefix "must_reject: b2s.inputs.shape: " --op b2s --shape 4..13,2..3 --block-shape 1,4 \
  --crops-begin '?[2]' --crops-end '?[3]'
# Attribute-only rules at an unknown rank, as at a static one.
eip=(--op eip --sizes 3,1 --strides 1,1 --rates 4611686018427387904,1 --auto-pad valid)
check_prefix "must_reject: eip.output.representable: " "${eip[@]}" --shape 1,1,5,5
check_prefix "must_reject: eip.output.representable: " "${eip[@]}" --shape ...
check_prefix "must_reject: d2s.block_size.positive: " --op d2s --block-size 0 --mode blocks_first \
  --shape ...
# Any element type for the integer inputs is a case: must_reject with its rule, exit 0.
f32=(--op s2b --shape 1,4 --block-shape 1,2 --pads-begin 0,0 --pads-end 0,0 --int-type f32)
check_prefix "must_reject: s2b.inputs.integer_type: block_shape has element type f32" "${f32[@]}"
check_prefix "must_reject: b2s.inputs.integer_type: " --op b2s --shape 2,4 --block-shape 1,2 \
  --crops-begin 0,0 --crops-end 0,0 --int-type bf16
out=$("$dmconf" eval "${f32[@]}" 2>&1)
if [ $? -ne 0 ] || ! grep -qx "rule: s2b.inputs.integer_type" <<<"$out"; then
  echo "FAIL: dmconf eval --int-type f32 must answer must_reject s2b.inputs.integer_type: $out"
  fail=1
fi
# The partial input as given, not the probe's stand-in shape.
check "must_reject: d2s.data.rank: data has rank 1 (shape [[2,inf)]), at least 3 is required" \
  "${d2s[@]}" --shape 2..
# A static shape still gets the static answer.
check "output_shape: [1,2,4,6]" "${d2s[@]}" --shape 1,8,2,3
# Malformed partial syntax is a rule-named usage error (exit 2).
out=$("$dmconf" infer-shape "${d2s[@]}" --shape 1,x..3 2>&1)
if [ $? -ne 2 ] || ! grep -q "case.flags.partial_shape: --shape '1,x..3'" <<<"$out"; then
  echo "FAIL: bad partial syntax must exit 2 naming case.flags.partial_shape: $out"
  fail=1
fi
out=$("$dmconf" infer-shape --op s2b --shape 1,2 --block-shape '?4' 2>&1)
if [ $? -ne 2 ] || ! grep -q "case.flags.partial_shape: --block-shape '?4'" <<<"$out"; then
  echo "FAIL: a non-constant input without [shape] must exit 2 naming the flag: $out"
  fail=1
fi
out=$("$dmconf" infer-shape --op s2b --shape 1,2 --block-shape '?[2' 2>&1)
if [ $? -ne 2 ] || ! grep -qF "case.flags.partial_shape: --block-shape '?[2': unbalanced" <<<"$out"; then
  echo "FAIL: an unbalanced ?[ must exit 2 naming the flag: $out"
  fail=1
fi
[ "$fail" -eq 0 ] && echo "infer-shape partial: all checks passed"
exit "$fail"
