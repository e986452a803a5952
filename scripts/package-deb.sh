#!/usr/bin/env bash
# Builds the Debian package of dmconf from the release preset and checks it.
#   scripts/package-deb.sh            install deps, build (release), cpack -G DEB, then check:
#                                     the package's dependencies resolve on this machine
#                                     (apt-get install --simulate), and the packaged dmconf,
#                                     unpacked into a temporary root, runs the oracle.
# Prints the path of build/release/dmconf_<version>_<arch>.deb. Install it with
#   apt install ./build/release/dmconf_*.deb
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
  -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
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
"$work/root/usr/bin/dmconf" run --backend oracle --count 50 --quiet --no-shrink \
  --report "$work/report.json" >"$work/run.log" 2>&1 ||
  { cat "$work/run.log" >&2; echo "package-deb: the packaged dmconf failed to run" >&2; exit 1; }
grep -m1 '^OK:' "$work/run.log"
echo "package-deb: $deb resolves its dependencies and its dmconf runs"
