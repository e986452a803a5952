# Sourced by the shape-bug tests: the verdict class each seeded bug of shape_bug_plugin.c must
# be found with (the plugin's own table; "a|b": either, the bug answers both ways), and `lib`,
# the plugin paths given as NAME=PATH arguments: shape_bug_args "$@". Every bug must be caught
# by the default `dmconf run` with at least $shape_bug_min_cases cases of its class.
declare -A want=(
  [s2b_batch_wrap]=false_accept [ceil_off_by_one]=unsound_shape [rank_as_4]=unsound_shape
  [block_ones]=unsound_shape [eip_same_floor]=wrong_shape [crops_vs_lo]=unsound_shape
  [s2d_no_divide]=false_accept [d2s_refuse_b1]=false_reject [type_i64]=wrong_type
  [pads_zero]=unsound_shape [eff_unknown_rank]=false_accept
  [absent_block_zero]="unsound_shape|false_reject" [s2d_absent_two]=unsound_shape
  [d2s_absent_two]="wrong_shape|false_reject" [depth_unknown_rank]=false_accept
  [block_unknown_rank]=false_accept [s2b_interval_divide]=false_accept
  [s2d_depth_wrap]="false_accept|invalid_answer" [eip_lower_as_valid]=unsound_shape
  [eip_rates_ignored]=wrong_shape [crops_begin_dropped]=unsound_shape
  [s2d_interval_divide]=false_accept [depth_mode_unchecked]=false_accept)
shape_bug_count=23
shape_bug_min_cases=5
declare -A lib
shape_bug_args() {
  local kv
  for kv in "$@"; do lib["${kv%%=*}"]="${kv#*=}"; done
}
# shape_bug_is VERDICT CLASSES: whether VERDICT is one of CLASSES ("a|b").
shape_bug_is() { [ -n "$1" ] && [[ "|$2|" == *"|$1|"* ]]; }
# shape_bug_count_in LINE CLASSES: the cases of CLASSES in a summary's shape-lane line
# ("shape inference: N cases (...): pass P, wrong_shape W, ...").
shape_bug_count_in() {
  local v n total=0
  for v in ${2//|/ }; do
    n=$(grep -o "[ ,]$v [0-9]*" <<<"$1" | grep -o '[0-9]*$')
    total=$((total + ${n:-0}))
  done
  echo "$total"
}
