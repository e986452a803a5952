# Sourced by the shape-bug tests: the verdict class each seeded bug of shape_bug_plugin.c must
# be found with (the plugin's own table), and `lib`, the plugin paths given as NAME=PATH
# arguments: shape_bug_args "$@".
declare -A want=(
  [s2b_batch_wrap]=false_accept [ceil_off_by_one]=unsound_shape [rank_as_4]=unsound_shape
  [block_ones]=unsound_shape [eip_same_floor]=wrong_shape [crops_vs_lo]=unsound_shape
  [s2d_no_divide]=false_accept [d2s_refuse_b1]=false_reject [type_i64]=wrong_type
  [pads_zero]=unsound_shape)
declare -A lib
shape_bug_args() {
  local kv
  for kv in "$@"; do lib["${kv%%=*}"]="${kv#*=}"; done
}
