#!/usr/bin/env bash
# Checks that generated, checked-in files are current: scripts/check-generated.sh BUILD_DIR.
# Regenerate them with scripts/regenerate.sh BUILD_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:?usage: check-generated.sh BUILD_DIR}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
BUILD="$build" OUT="$tmp" bash scripts/regenerate.sh >/dev/null
status=0
while IFS= read -r f; do
  if ! cmp -s "$tmp/$f" "$f"; then
    echo "check-generated: $f is stale; run scripts/regenerate.sh $build and commit it" >&2
    diff -u "$f" "$tmp/$f" | head -20 >&2 || true
    status=1
  fi
done < <(cd "$tmp" && find . -type f | sed 's|^\./||' | sort)
[ "$status" -eq 0 ] && echo "check-generated: all generated files are current"
exit "$status"
