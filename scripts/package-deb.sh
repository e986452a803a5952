#!/usr/bin/env bash
# Builds the Debian package of dmconf from the release preset and checks it.
#   scripts/package-deb.sh            install deps, build (release), cpack -G DEB, then check:
#                                     the package's dependencies resolve on this machine
#                                     (apt-get install --simulate), no file of it holds a path
#                                     of this tree, and the packaged dmconf, unpacked into a
#                                     temporary root, runs --backend all with the build tree's
#                                     OK line, the tree hidden (unshare -m, when allowed).
# Prints the path of build/release/dmconf_<version>_<arch>.deb. Install it with
#   apt install ./build/release/dmconf_*.deb
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
  -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
  "") ;;
  *) echo "package-deb.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
esac
bash scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release
(cd build/release && cpack -G DEB >/dev/null)
deb=$(ls build/release/dmconf_*.deb | head -1)
[ -n "$deb" ] || { echo "package-deb.sh: cpack wrote no .deb" >&2; exit 1; }
echo "package-deb: built $deb"
dpkg-deb --field "$deb" Package Version Depends
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
apt-get install --simulate -q "./$deb" >"$work/simulate.log" 2>&1 ||
  { cat "$work/simulate.log" >&2; echo "package-deb: its dependencies do not resolve" >&2; exit 1; }
dpkg-deb -x "$deb" "$work/root"
for f in usr/bin/dmconf usr/include/dmconf/dmconf_plugin.h usr/lib/cmake/dmconf/dmconfConfig.cmake \
  usr/share/dmconf/vectors/golden/MANIFEST.json usr/share/doc/dmconf/README.md; do
  [ -e "$work/root/$f" ] || { echo "package-deb: the package lacks /$f" >&2; exit 1; }
done
# No path of this tree in the package (every byte of every file, as `strings` would show it).
src=$(pwd -P)
for d in build harness oracle conformance vectors cmake fuzz bench scripts docs reports examples; do
  echo "$src/$d"
done >"$work/tree-paths"
if grep -rlaF -f "$work/tree-paths" "$work/root" >"$work/holders"; then
  echo "package-deb: these packaged files hold a path of $src:" >&2
  cat "$work/holders" >&2
  exit 1
fi
# The packaged dmconf runs every default backend with the build tree's OK line, the tree hidden
# (docs/install.md, "Where dmconf finds its own files").
cp reports/expectations/{armnn,xnnpack,eigen}.json "$work/"
run_all() {  # DMCONF LOG FAILURES
  "$1" run --backend all --expectations "$work/armnn.json" --expectations "$work/xnnpack.json" \
    --expectations "$work/eigen.json" --count 100 --no-shrink --quiet --failures "$3" >"$2" 2>&1
}
run_all build/release/harness/cli/dmconf "$work/tree.log" "$work/tree-failures" ||
  { tail -20 "$work/tree.log" >&2; echo "package-deb: the build tree's dmconf failed" >&2; exit 1; }
hide=()
if unshare -m true 2>/dev/null; then
  hide=(unshare -m --propagation private bash -c 'mount -t tmpfs tmpfs "$0" && exec "${@}"' "$src")
else
  echo "package-deb: note: unshare -m is not allowed here: the packaged dmconf runs beside the tree"
fi
export -f run_all
export work
"${hide[@]}" bash -c 'run_all "$0" "$1" "$2"' "$work/root/usr/bin/dmconf" "$work/run.log" \
  "$work/deb-failures" ||
  { tail -20 "$work/run.log" >&2; echo "package-deb: the packaged dmconf failed to run" >&2; exit 1; }
tree_ok=$(grep -m1 '^OK:' "$work/tree.log")
deb_ok=$(grep -m1 '^OK:' "$work/run.log" || true)
if [ -z "$deb_ok" ] || [ "$deb_ok" != "$tree_ok" ]; then
  echo "package-deb: the packaged dmconf's run differs from the build tree's:" >&2
  echo "  tree:    $tree_ok" >&2
  echo "  package: ${deb_ok:-no OK line}" >&2
  exit 1
fi
echo "$deb_ok"
echo "package-deb: $deb resolves its dependencies, holds no path of this tree, and its dmconf runs --backend all as the tree's does"
