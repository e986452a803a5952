#!/usr/bin/env bash
# An installed dmconf uses only installed files (docs/install.md, "Where dmconf finds its own
# files"; harness/backends/registry/builtin_files.h):
# 1. `cmake --install` of this build into a temporary prefix: no installed file holds a path of
#    the build folder or the source tree (every byte searched, as `strings` would show them);
# 2. `dmconf backends` names the rule each binary follows: the build tree's own files for the
#    build tree's binary, the prefix's for the installed one;
# 3. with the build folder and the source tree hidden (a tmpfs over them in a private mount
#    namespace) and hostile files planted at their old paths (an example plugin that leaves a
#    mark when loaded, a Node adapter that does the same), the installed `dmconf run --backend
#    all` prints the same OK line as the build tree's, `vectors run-onnx` and `--backend
#    onnxruntime` look in PREFIX/share/dmconf/node, and nothing planted runs;
# 4. with the installed plugin missing, `--backend example` names the path it looked for and the
#    rule (backend.builtin.missing).
# Part 3 needs `unshare -m` (root, or user namespaces); without it the test ends with status 77
# (skipped) after parts 1, 2 and 4.
#   install_paths_test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build=$(cd "$1" && pwd -P)
src=$(cd "$2" && pwd -P)
source "$src/conformance/harness/check_lib.sh"
tmp=$(cd "$tmp" && pwd -P)
prefix="$tmp/prefix"
dmconf="$build/harness/cli/dmconf"

cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1
check_rc "cmake --install into a temporary prefix" $? "$(cat "$tmp/install.log")"
for f in bin/dmconf lib/dmconf/libdmconf_plugin_example.so share/dmconf/node/adapter.js \
  share/dmconf/node/run_onnx_tests.js share/dmconf/node/package-lock.json; do
  check "installed: $f" "[ -f '$prefix/$f' ]"
done

# 1. No path of the tree in what is installed: the build folder, and the source tree's folders.
{
  echo "$build"
  for d in harness oracle conformance vectors cmake fuzz bench scripts docs reports examples; do
    echo "$src/$d"
  done
} >"$tmp/tree-paths"
grep -rlaF -f "$tmp/tree-paths" "$prefix" >"$tmp/holders"
check "no installed file holds a path of the build folder or the source tree" \
  "[ ! -s '$tmp/holders' ]"
while read -r f; do
  echo "  $f: $(strings -a "$f" | grep -F -f "$tmp/tree-paths" | head -3 | tr '\n' ' ')"
done <"$tmp/holders"

# 2. The rule each binary follows.
"$dmconf" backends >"$tmp/tree-backends.txt" 2>&1
check "the build tree's dmconf uses the build tree's files" \
  "grep -q \"^files: the build tree's dmconf ($dmconf, \" '$tmp/tree-backends.txt'"
"$prefix/bin/dmconf" backends >"$tmp/inst-backends.txt" 2>&1
check "the installed dmconf uses the prefix's files" \
  "grep -qF 'files: an installed dmconf ($prefix/bin/dmconf) uses the files installed beside it: plugins in $prefix/lib/dmconf, Node adapters in $prefix/share/dmconf/node' '$tmp/inst-backends.txt'"

# The run both binaries make: every default backend, with the shipped expectations (copied:
# the source tree is hidden in part 3), a small sweep.
mkdir -p "$tmp/expectations"
cp "$src"/reports/expectations/{armnn,xnnpack,eigen}.json "$tmp/expectations/"
run_all() {  # DMCONF OUT_DIR
  mkdir -p "$2"
  "$1" run --backend all --expectations "$tmp/expectations/armnn.json" \
    --expectations "$tmp/expectations/xnnpack.json" \
    --expectations "$tmp/expectations/eigen.json" --count 100 \
    --no-shrink --quiet --failures "$2/failures" >"$2/run.log" 2>&1
}
run_all "$dmconf" "$tmp/tree"
tree_ok=$(grep -m1 '^OK:' "$tmp/tree/run.log")
check "the build tree's dmconf run --backend all prints its OK line" "[ -n \"\$tree_ok\" ]"

# 4. A missing file of dmconf's own: the path it looked for, and the rule.
mv "$prefix/lib/dmconf" "$prefix/lib/dmconf.away"
"$prefix/bin/dmconf" run --backend example --count 5 --no-shrink --quiet \
  --failures "$tmp/missing-failures" >"$tmp/missing.log" 2>&1
check "a missing plugin fails the run" "[ $? -ne 0 ]"
check "a missing plugin names its path and the rule" \
  "grep -qF 'backend.builtin.missing: $prefix/lib/dmconf/libdmconf_plugin_example.so: No such file or directory (an installed dmconf ($prefix/bin/dmconf) uses the files installed beside it' '$tmp/missing.log'"
mv "$prefix/lib/dmconf.away" "$prefix/lib/dmconf"

# 3. The tree hidden, hostile files planted where the tree's files were.
mark="$tmp/planted.mark"
printf '%s\n' '#include <fcntl.h>' '#include <unistd.h>' \
  '__attribute__((constructor)) static void Planted(void) {' \
  "  close(open(\"$mark\", O_CREAT | O_WRONLY, 0644));" '}' >"$tmp/planted.c"
cc -shared -fPIC -o "$tmp/planted.so" "$tmp/planted.c"
check_rc "the planted library builds" $?
mkdir -p "$tmp/planted-node/node_modules/onnxruntime-node" "$tmp/planted-node/node_modules/onnx-proto"
for p in onnxruntime-node onnx-proto; do echo '{}' >"$tmp/planted-node/node_modules/$p/package.json"; done
for js in adapter.js run_onnx_tests.js; do
  printf '%s\n' "require('fs').writeFileSync('$mark', 'node');" \
    "console.log('run_onnx_tests: 1 passed, 0 failed, 0 unsupported, 0 known (F8)');" \
    >"$tmp/planted-node/$js"
done
case "$tmp/" in "$src/"* | "$build/"*)
  echo "note: the temporary folder is inside the tree; part 3 cannot hide the tree"
  exit $((fail ? 1 : 77)) ;;
esac
cat >"$tmp/hidden.sh" <<EOF
set -u
mount -t tmpfs tmpfs "$src" || exit 77
case "$build/" in "$src/"*) ;; *) mount -t tmpfs tmpfs "$build" || exit 77 ;; esac
mkdir -p "$build/harness/plugin" "$src/harness/backends/subprocess"
cp "$tmp/planted.so" "$build/harness/plugin/libdmconf_plugin_example.so"
cp -r "$tmp/planted-node" "$src/harness/backends/subprocess/node"
EOF
declare -f run_all >>"$tmp/hidden.sh"
cat >>"$tmp/hidden.sh" <<EOF
tmp="$tmp"
run_all "$prefix/bin/dmconf" "$tmp/inst"
"$prefix/bin/dmconf" run --backend example --count 5 --no-shrink --quiet \
  --failures "$tmp/inst/example-failures" >"$tmp/inst/example.log" 2>&1
echo \$? >"$tmp/inst/example.rc"
"$prefix/bin/dmconf" vectors run-onnx "$prefix/share/dmconf/vectors/golden/types.d2s.blocks_first.f32.json" \
  >"$tmp/inst/onnx.log" 2>&1
echo \$? >"$tmp/inst/onnx.rc"
"$prefix/bin/dmconf" run --backend onnxruntime --ops d2s --count 5 --no-shrink --quiet \
  --failures "$tmp/inst/ort-failures" >"$tmp/inst/ort.log" 2>&1
exit 0
EOF
unshare -m --propagation private bash "$tmp/hidden.sh"
rc=$?
if [ "$rc" -eq 77 ]; then
  echo "note: cannot hide the tree (unshare -m and mount need root or user namespaces): part 3 not run"
  exit $((fail ? 1 : 77))
fi
check_rc "the hidden-tree runs ran" "$rc"
inst_ok=$(grep -m1 '^OK:' "$tmp/inst/run.log")
check "the installed dmconf, the tree hidden, prints the same OK line: $inst_ok" \
  "[ -n \"\$inst_ok\" ] && [ \"\$inst_ok\" = \"\$tree_ok\" ]"
check "the installed --backend example passes, the tree hidden" "[ \"\$(cat '$tmp/inst/example.rc')\" = 0 ]"
check "nothing planted at the tree's old paths ran" "[ ! -e '$mark' ]"
if command -v node >/dev/null; then
  check "run-onnx looks in PREFIX/share/dmconf/node" \
    "grep -qF 'npm package onnxruntime-node is not installed in $prefix/share/dmconf/node/node_modules' '$tmp/inst/onnx.log' && [ \"\$(cat '$tmp/inst/onnx.rc')\" = 2 ]"
  check "--backend onnxruntime looks in PREFIX/share/dmconf/node" \
    "grep -qF 'backend.unavailable: onnxruntime: npm package onnxruntime-node is not installed in $prefix/share/dmconf/node/node_modules' '$tmp/inst/ort.log'"
else
  echo "note: node is not on PATH: the Node adapter's folder was not checked"
fi
[ "$fail" -eq 0 ] || { echo "--- installed run:"; tail -20 "$tmp/inst/run.log"; }
exit "$fail"
