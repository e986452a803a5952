#!/usr/bin/env bash
# dmconf run refuses output paths that are not regular files before it runs anything, exits
# non-zero, and leaves the node as it was; a report on a full disk is an error with no partial
# or temporary file left. Every node is made in a fresh temp folder (never the real /dev).
#   write_targets_test.sh PATH_TO_DMCONF
set -uo pipefail
dmconf="$1"
dir=$(mktemp -d)
trap 'umount "$dir/small" 2>/dev/null; rm -rf "$dir"' EXIT
fail=0
run() { "$dmconf" run --backend oracle --ops d2s --count 3 --directed-count 0 "$@"; }

expect_refused() {  # NAME PATH TYPE-LETTER (stat %F prefix)
  local name="$1" path="$2" before after out code
  before=$(stat -c %F "$path")
  out=$(run --report "$path" 2>&1); code=$?
  after=$(stat -c %F "$path")
  if [ "$code" -eq 0 ]; then echo "FAIL $name: exit 0"; fail=1; fi
  if ! grep -q 'io.write.not_regular' <<<"$out"; then echo "FAIL $name: no io.write.not_regular in: $out"; fail=1; fi
  if grep -q '^OK:\|^FAILED:' <<<"$out"; then echo "FAIL $name: the run started before the refusal"; fail=1; fi
  if [ "$before" != "$after" ]; then echo "FAIL $name: $before became $after"; fail=1; fi
  echo "ok $name: exit $code, still $after"
}

mkfifo "$dir/fifo"; expect_refused fifo "$dir/fifo"
mkdir "$dir/folder"; expect_refused folder "$dir/folder"
if mknod "$dir/full" c 1 7 2>/dev/null; then
  expect_refused char-device "$dir/full"
  ln -s full "$dir/link-to-device"; expect_refused symlink-to-device "$dir/link-to-device"
  # --junit is checked the same way.
  out=$(run --report "$dir/r.json" --junit "$dir/full" 2>&1); code=$?
  [ "$code" -ne 0 ] && [ "$(stat -c %F "$dir/full")" = "character special file" ] \
    && [ ! -e "$dir/r.json" ] || { echo "FAIL junit on a device: exit $code"; fail=1; }
else
  echo "skip char-device: mknod needs root"
fi

# A report through a symbolic link: the link is kept, its target replaced.
echo old > "$dir/target.json"; ln -s target.json "$dir/link.json"
run --report "$dir/link.json" >/dev/null 2>&1
if [ -L "$dir/link.json" ] && grep -q '"format": "dmconf-report' "$dir/target.json"; then
  echo "ok symlink followed and kept"
else
  echo "FAIL symlink: link or target wrong"; fail=1
fi

# A replaced report and JUnit keep their mode; a read-only report is refused before the run.
echo old > "$dir/m.json"; chmod 0600 "$dir/m.json"; echo old > "$dir/m.xml"; chmod 0640 "$dir/m.xml"
run --report "$dir/m.json" --junit "$dir/m.xml" >/dev/null 2>&1
if [ "$(stat -c %a "$dir/m.json")" = 600 ] && [ "$(stat -c %a "$dir/m.xml")" = 640 ] \
    && grep -q '"format": "dmconf-report' "$dir/m.json"; then
  echo "ok report 0600 and junit 0640 kept their modes"
else
  echo "FAIL modes: report $(stat -c %a "$dir/m.json"), junit $(stat -c %a "$dir/m.xml")"; fail=1
fi
echo old > "$dir/ro.json"; chmod 0444 "$dir/ro.json"
out=$(run --report "$dir/ro.json" --junit "$dir/ro.xml" 2>&1); code=$?
if [ "$code" -eq 2 ] && grep -q 'io.write.read_only' <<<"$out" && ! grep -q '^OK:\|^FAILED:' <<<"$out" \
    && [ "$(cat "$dir/ro.json")" = old ] && [ ! -e "$dir/ro.xml" ]; then
  echo "ok read-only report refused before the run"
else
  echo "FAIL read-only report: exit $code: $out"; fail=1
fi

# A full disk: an 8 KiB tmpfs in a private mount namespace (needs root; skipped otherwise).
mkdir "$dir/small"
if unshare -m true 2>/dev/null; then
  out=$(unshare -m bash -c "mount -t tmpfs -o size=8k tmpfs '$dir/small' && {
          '$dmconf' run --backend oracle --ops d2s --count 3 --directed-count 0 \
            --report '$dir/small/r.json' --failures '$dir/failures'; echo exit=\$?;
          echo files:; ls -A '$dir/small'; }" 2>&1)
  code=$(sed -n 's/^exit=//p' <<<"$out")
  files=$(sed -n '/^files:$/,$p' <<<"$out" | tail -n +2)
  if [ -z "$code" ] || [ "$code" -eq 0 ] || [ -n "$files" ] || ! grep -q 'io.write' <<<"$out"; then
    echo "FAIL full disk (exit '${code}', files left: '${files}'): $out"; fail=1
  else
    echo "ok full disk: exit $code, nothing left"
  fi
else
  echo "skip full disk: no private mount namespace"
fi
exit $fail
