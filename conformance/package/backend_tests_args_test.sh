#!/usr/bin/env bash
# dmconf_add_backend_tests (cmake/DmconfBackendTests.cmake, the copy `cmake --install` ships)
# checks its arguments when the project is configured: each bad argument below makes the
# configure step fail with a FATAL_ERROR naming its rule, and the good calls configure and
# register (when ctest reads them, from what the plugin declares) the tests they should. Each case is a throw-away project (LANGUAGES NONE, so no
# compiler is probed) in the test's own temporary folder.
#   backend_tests_args_test.sh SOURCE_DIR DMCONF PLUGIN_SO
set -uo pipefail
src="$1"
dmconf="$2"
plugin="$3"
source "$src/conformance/harness/check_lib.sh"

mkfifo "$tmp/fifo.so"
mkdir "$tmp/dir.so"
printf 'not a library' >"$tmp/text.so"
n=0
# configure NAME BODY: a project whose CMakeLists.txt holds BODY after the function is
# included; its configure log in $tmp/NAME.log; returns cmake's status.
configure() {
  local dir="$tmp/p$((n += 1))"
  mkdir -p "$dir"
  cat >"$dir/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.25)
project(throwaway LANGUAGES NONE)
enable_testing()
include("$src/cmake/DmconfBackendTests.cmake")
add_library(mod MODULE IMPORTED)
set_target_properties(mod PROPERTIES IMPORTED_LOCATION "$plugin")
add_executable(tool IMPORTED)
$2
EOF
  timeout 60 cmake -S "$dir" -B "$dir/build" >"$tmp/$1.log" 2>&1
}
common="DMCONF \"$dmconf\" VECTORS \"$src/vectors\""

# refused NAME RULE ARGS...: configure fails and its log names the rule.
refused() {
  local name=$1 rule=$2
  shift 2
  configure "$name" "dmconf_add_backend_tests($common $*)"
  local rc=$?
  check "$name: configure fails ($rc)" "[ $rc -ne 0 ] && [ $rc -ne 124 ]"
  check "$name: names $rule" "grep -q 'cmake.backend_tests.$rule: ' '$tmp/$name.log'"
}

refused name_dotdot name NAME .. PLUGIN mod
refused name_dot name NAME . PLUGIN mod
refused name_slash name NAME a/b PLUGIN mod
refused name_space name "NAME \"a b\"" PLUGIN mod
refused name_tab name 'NAME "a\tb"' PLUGIN mod
refused name_escape name "NAME \"a$(printf '\033')b\"" PLUGIN mod
refused name_long name NAME "$(printf 'x%.0s' {1..65})" PLUGIN mod
refused name_missing_value args NAME PLUGIN mod
refused plugin_missing plugin NAME m PLUGIN "$tmp/none.so"
refused plugin_fifo plugin NAME m PLUGIN "$tmp/fifo.so"
refused plugin_dir plugin NAME m PLUGIN "$tmp/dir.so"
refused plugin_not_elf plugin NAME m PLUGIN "$tmp/text.so"
refused plugin_executable_target plugin NAME m PLUGIN tool
refused op_unknown ops NAME m PLUGIN mod OPS DepthToSpace Transpose
refused op_twice ops NAME m PLUGIN mod OPS DepthToSpace d2s
refused lane_unknown lanes NAME m PLUGIN mod LANES kernel fuzz
refused lane_twice lanes NAME m PLUGIN mod LANES kernel kernel
refused fuzz_zero fuzz_seconds NAME m PLUGIN mod FUZZ_SECONDS 0
refused fuzz_negative fuzz_seconds NAME m PLUGIN mod FUZZ_SECONDS -5
refused fuzz_huge fuzz_seconds NAME m PLUGIN mod FUZZ_SECONDS 99999999999999999999
refused fuzz_day_and_one fuzz_seconds NAME m PLUGIN mod FUZZ_SECONDS 86401
refused fuzz_fraction fuzz_seconds NAME m PLUGIN mod FUZZ_SECONDS 1.5
refused unknown_argument args NAME m PLUGIN mod FOO bar

# accepted NAME ARGS...: configures; $tmp/NAME.tests lists the tests ctest would run.
accepted() {
  local name=$1
  shift
  configure "$name" "dmconf_add_backend_tests($common $*)"
  local rc=$?
  check_rc "$name: configures" "$rc" "$(cat "$tmp/$name.log")"
  ctest --test-dir "$tmp/p$n/build" -N | sed -n 's/^ *Test *#[0-9]*: //p' >"$tmp/$name.tests"
}
accepted good_target NAME acme-1.0_x+y PLUGIN mod OPS DepthToSpace-1 s2d LANES kernel vectors \
  FUZZ_SECONDS 86400
check "good_target: 4 op x lane tests and the fuzz test" \
  "[ \$(wc -l <'$tmp/good_target.tests') -eq 5 ] &&
   grep -qx 'dmconf.acme-1.0_x+y.DepthToSpace-1.kernel' '$tmp/good_target.tests' &&
   grep -qx 'dmconf.acme-1.0_x+y.fuzz' '$tmp/good_target.tests'"
# All five ops asked of the example plugin, which declares DepthToSpace and SpaceToDepth with
# kernels and shape inference: their 3 lanes each, and the other three ops listed once each
# as not provided, never as a test that passes.
accepted good_path NAME mine PLUGIN "$plugin"
check "good_path: 2 declared ops x 3 lanes, 3 ops not provided" \
  "[ \$(wc -l <'$tmp/good_path.tests') -eq 9 ] &&
   grep -qx 'dmconf.mine.DepthToSpace.shape' '$tmp/good_path.tests' &&
   [ \$(grep -c '^dmconf.mine.*not_provided' '$tmp/good_path.tests') -eq 3 ] &&
   grep -qx 'dmconf.mine.SpaceToBatch.not_provided.*Disabled.*' '$tmp/good_path.tests' &&
   ! grep -q 'SpaceToBatch.kernel\|BatchToSpace.vectors\|ExtractImagePatches.shape' '$tmp/good_path.tests'"
ctest --test-dir "$tmp/p$n/build" -R 'not_provided' >"$tmp/not_provided.log" 2>&1
check "good_path: ctest runs no not_provided test and passes" \
  "grep -q 'Not Run (Disabled)' '$tmp/not_provided.log' && ! grep -q 'Passed' '$tmp/not_provided.log'"
# A plugin that cannot be asked (an ELF library with no dmconf entry point): one discovery test,
# which fails with dmconf's reason.
accepted not_a_plugin NAME np PLUGIN "$(readlink -f /lib/x86_64-linux-gnu/libm.so.6)"
check "not_a_plugin: one discovery test" \
  "[ \$(wc -l <'$tmp/not_a_plugin.tests') -eq 1 ] && grep -qx 'dmconf.np.discovery' '$tmp/not_a_plugin.tests'"
ctest --test-dir "$tmp/p$n/build" --output-on-failure >"$tmp/np.log" 2>&1
check "not_a_plugin: the discovery test fails, naming backend.startup" \
  "grep -q 'dmconf.np.discovery .*Failed' '$tmp/np.log' && grep -q 'backend.startup' '$tmp/np.log'"
# --require-cases (what each registered test passes): a run of an op the backend does not
# declare runs no case, and fails only with the flag.
"$dmconf" run --backend-lib "$plugin" --ops s2b --quiet --no-shrink --report "$tmp/rc0.json" \
  >"$tmp/rc0.log" 2>&1
check_rc "run --ops s2b without --require-cases passes" "$?" "$(tail -3 "$tmp/rc0.log")"
"$dmconf" run --backend-lib "$plugin" --ops s2b --quiet --no-shrink --require-cases \
  --report "$tmp/rc1.json" >"$tmp/rc1.log" 2>&1
rc=$?
check "run --ops s2b --require-cases fails (exit $rc) naming the rule" \
  "[ $rc -eq 1 ] && grep -q 'ran no case (--require-cases)' '$tmp/rc1.log'"
exit "$fail"
