#!/usr/bin/env bash
# Runs libFuzzer targets for a fixed time, each from its seed corpus with the settings of its
# .options file (dictionary, max_len, timeout, rss_limit_mb), one process per target, and
# prints one line per target: executions, exec/s, crashes.
#
#   scripts/fuzz.sh TARGET|all SECONDS [BUILD_DIR]
#     TARGET     infer, shape_all, shape_s2b, ..., vector_reader, plugin_abi (fuzz/options/)
#     BUILD_DIR  a build with DMCONF_FUZZ=ON (default build/fuzz: `cmake --preset fuzz &&
#                cmake --build --preset fuzz`; build/fuzz-nosan for throughput without
#                sanitizers, docs/fuzzing.md)
#   env WORK=dir  where corpora grow and crash inputs land (default /tmp/dmconf-fuzz); a
#                 crash input is WORK/<target>/crash-<sha1>: replay it with
#                 BUILD_DIR/fuzz/fuzz_<target> FILE, keep it in fuzz/regressions/<target>/.
# Exit status: 0 when no target found a crash, timeout or leak, 1 otherwise, 2 on misuse.
set -uo pipefail
cd "$(dirname "$0")/.."
usage() { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; }
case "${1:-}" in
  -h | --help) usage; exit 0 ;;
  "") usage >&2; exit 2 ;;
esac
target="$1"
seconds="${2:?usage: scripts/fuzz.sh TARGET|all SECONDS [BUILD_DIR]}"
build="${3:-build/fuzz}"
work="${WORK:-/tmp/dmconf-fuzz}"
if [ "$target" = all ]; then
  targets=$(ls fuzz/options | sed -n 's/^fuzz_\(.*\)\.options$/\1/p')
else
  targets="$target"
fi
status=0
printf '%-20s %12s %10s %s\n' target executions exec/s result
for t in $targets; do
  bin="$build/fuzz/fuzz_$t"
  opts="fuzz/options/fuzz_$t.options"
  if [ ! -f "$opts" ]; then echo "fuzz.sh: no target $t (no $opts)" >&2; exit 2; fi
  if [ ! -x "$bin" ]; then
    echo "fuzz.sh: $bin not built (cmake --preset fuzz && cmake --build --preset fuzz)" >&2
    [ "$target" = all ] || exit 2
    printf '%-20s %12s %10s %s\n' "$t" - - "not built"
    continue
  fi
  # .options settings as flags; the dictionary file is named after the target in OSS-Fuzz.
  flags=()
  while IFS='=' read -r k v; do
    k=$(echo "$k" | tr -d ' '); v=$(echo "$v" | tr -d ' ')
    case "$k" in
      dict) case "$t" in vector_reader|json_readers) flags+=("-dict=fuzz/dict/json.dict") ;;
                         *) flags+=("-dict=fuzz/dict/dmconf.dict") ;; esac ;;
      max_len|timeout|rss_limit_mb) flags+=("-$k=$v") ;;
    esac
  done < <(grep '=' "$opts")
  dir="$work/$t"
  mkdir -p "$dir/corpus"
  [ -d "fuzz/corpus/$t" ] && cp -n fuzz/corpus/"$t"/* "$dir/corpus/" 2>/dev/null
  log="$dir/run.log"
  "$bin" "${flags[@]}" -max_total_time="$seconds" -print_final_stats=1 \
    -artifact_prefix="$dir/" "$dir/corpus" >"$log" 2>&1
  rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  if [ "$rc" -eq 0 ]; then
    result=clean
  else
    result="FAILED (exit $rc): $(ls -t "$dir"/crash-* "$dir"/timeout-* "$dir"/leak-* \
      "$dir"/oom-* 2>/dev/null | head -1); log $log"
    status=1
  fi
  printf '%-20s %12s %10s %s\n' "$t" "${execs:-?}" "${rate:-?}" "$result"
done
exit "$status"
