#!/usr/bin/env bash
# vendor_cmake_test.sh BUILD_DIR SOURCE_DIR WORK_DIR
# Installs BUILD_DIR into WORK_DIR/prefix, then builds examples/vendor-cmake against it twice:
# the correct plugin (its ctest must pass) and the seeded bug (its ctest must fail and print a
# failing DepthToSpace case with its `dmconf run` repro line).
set -euo pipefail
build=$1 src=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
fail() { echo "vendor_cmake_test: FAIL: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1 ||
  { cat "$work/install.log" >&2; fail "cmake --install"; }
for f in bin/dmconf include/dmconf/dmconf_plugin.h lib/cmake/dmconf/dmconfConfig.cmake \
  lib/cmake/dmconf/dmconfConfigVersion.cmake lib/cmake/dmconf/DmconfBackendTests.cmake \
  lib/cmake/dmconf/DmconfBackendTestsDiscover.cmake \
  share/dmconf/vectors/golden/MANIFEST.json share/dmconf/vectors/shapes/MANIFEST.json \
  share/dmconf/schemas/dmconf-report-2.schema.json share/doc/dmconf/vendor-guide.md; do
  [ -e "$prefix/$f" ] || fail "the install lacks $f"
done
"$prefix/bin/dmconf" run --backend oracle --ops d2s --count 20 --quiet --no-shrink \
  --report "$work/oracle.json" >"$work/oracle.log" 2>&1 ||
  { cat "$work/oracle.log" >&2; fail "the installed dmconf run --backend oracle"; }

run_vendor() {  # NAME EXTRA_CMAKE_ARGS...
  local name=$1
  shift
  cmake -S "$src/examples/vendor-cmake" -B "$work/$name" -DCMAKE_PREFIX_PATH="$prefix" "$@" \
    >"$work/$name.configure.log" 2>&1 || { cat "$work/$name.configure.log" >&2; fail "configure $name"; }
  cmake --build "$work/$name" >"$work/$name.build.log" 2>&1 ||
    { cat "$work/$name.build.log" >&2; fail "build $name"; }
  set +e
  ctest --test-dir "$work/$name" --output-on-failure >"$work/$name.ctest.log" 2>&1
  local status=$?
  set -e
  return $status
}

run_vendor correct || { cat "$work/correct.ctest.log" >&2; fail "the correct plugin's ctest failed"; }
tests=$(grep -cE 'Test +#[0-9]+: dmconf\.acme\.' "$work/correct.ctest.log" || true)
[ "$tests" -eq 4 ] || fail "expected 4 tests (2 ops x 2 lanes), ctest ran $tests"
for label in dmconf dmconf-DepthToSpace dmconf-kernel dmconf-vectors; do
  n=$(ctest --test-dir "$work/correct" -N -L "^$label\$" | grep -c 'Test *#' || true)
  [ "$n" -gt 0 ] || fail "no test carries the label $label"
done
[ -s "$work/correct/dmconf/acme/DepthToSpace.kernel.xml" ] || fail "no JUnit written"

if run_vendor seeded -DACME_SEEDED_BUG=ON; then
  fail "the seeded bug passed its ctest"
fi
log=$work/seeded.ctest.log
grep -q 'dmconf.acme.DepthToSpace.kernel .*Failed' "$log" || fail "the DepthToSpace kernel test did not fail"
grep -qE 'dmconf run .*--backend-lib .*acme_depth' "$log" || fail "no repro line names the plugin"
grep -q 'depth_first' "$log" || fail "no failing depth_first case is named"
echo "vendor_cmake_test: correct plugin passes $tests tests; the seeded bug fails and is named"
