#!/usr/bin/env bash
# `dmconf fuzz` finds a seeded kernel bug within a bounded time: a finding with the given
# verdict whose detail (the line after it) matches the pattern. Used for the example plugin's
# absent_block fault (an absent block_size read as 0, refused with "block_size 0"): dmconf fuzz
# runs valid SpaceToDepth / DepthToSpace cases with block_size absent (the spec default 1).
#   fuzz_finds_test.sh DMCONF PLUGIN SECONDS VERDICT DETAIL_PATTERN
set -uo pipefail
dmconf="$1"
plugin="$2"
secs="$3"
verdict="$4"
pattern="$5"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$("$dmconf" fuzz --backend-lib "$plugin" --time "$secs" --failures "$tmp/find" 2>&1)
rc=$?
found=$(grep -A1 "^FINDING $verdict " <<<"$out" | grep -E -m1 -- "$pattern")
if [ "$rc" -ne 1 ] || [ -z "$found" ]; then
  echo "FAIL: dmconf fuzz exit $rc, no $verdict finding matching '$pattern':"
  grep -A1 '^FINDING' <<<"$out" | head -20
  tail -1 <<<"$out"
  exit 1
fi
echo "ok   $verdict:$found"
