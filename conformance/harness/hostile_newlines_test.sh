#!/usr/bin/env bash
# A newline in text from outside never starts a line of its own on the terminal
# (harness/base/shown_text.h): it is shown as \x0a, like the other control bytes, and dmconf's
# own lines stay lines. Each command below gets text that holds "\nFAKE: OK" (an option, a
# path, a plugin's name, refusal messages and element types, an expectations entry's reason,
# a report's backend name); no line of its output may start with "FAKE", and the text must be
# shown with \x0a:
#   1. run --backend $'x\nFAKE: OK', run --shard $'1\nFAKE: OK/2', an unknown option (CLI11);
#   2. eval --case $'bad\nFAKE: OK.json' (a path in an io.read message);
#   3. a plugin whose refusal messages hold it (the summary's case cards; its name holding it
#      is made an identity without it, harness/backend/identity.h), and one whose declared
#      element type does (the startup check);
#   4. --update-expectations with a stale entry whose reason holds it (the summary's stale
#      lines and the list of removed entries);
#   5. report diff of the plugin's report against the oracle's (backend names).
#   hostile_newlines_test.sh DMCONF NEWLINE_PLUGIN NEWLINE_CAPS_PLUGIN
set -uo pipefail
dmconf="$1"; plugin="$2"; caps="$3"
source "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh"
cd "$tmp" || exit 1
nl=$'\nFAKE: OK'

forged() {  # NAME EXPECTED-STATUS OUTPUT STATUS: no forged line, \x0a shown, the status
  local name="$1" want="$2" out="$3" rc="$4"
  check "$name: exit $rc, no line of its own, shown as \\x0a" \
    '[ "$rc" -eq "$want" ] && ! grep -q "^FAKE" <<<"$out" && grep -qF "\\x0aFAKE: OK" <<<"$out"'
}

out=$("$dmconf" run --backend "x$nl" 2>&1); forged "run --backend" 2 "$out" $?
out=$("$dmconf" run --backend oracle --shard "1$nl/2" 2>&1); forged "run --shard" 2 "$out" $?
out=$("$dmconf" run --backend oracle "--bogus$nl" 2>&1); rc=$?
forged "an unknown option (CLI11's message)" 2 "$out" $rc
check "  CLI11's own second line stays a line" 'grep -q "^Run with --help for more information.$" <<<"$out"'
out=$("$dmconf" eval --case "bad$nl.json" 2>&1); forged "eval --case PATH" 2 "$out" $?

run() { "$dmconf" run --ops d2s --count 5 --directed-count 0 --no-shrink --quiet "$@" 2>&1; }
out=$(run --backend-lib "$plugin" --failures f --report p.json); rc=$?
forged "a plugin's name, refusals and element type in the summary" 1 "$out" $rc
check "  its cards name the refusal" 'grep -qF "refused: x\\x0aFAKE: OK refusal" <<<"$out"'
check "  dmconf's own lines stay lines" 'grep -q "^FAILED: " <<<"$out" && grep -q "^== backend newline_FAKE__OK_name: " <<<"$out" && grep -q "^     repro: " <<<"$out"'
out=$(run --backend-lib "$caps"); forged "a declared element type (the startup check)" 2 "$out" $?

cat > e.json <<JSON
{"format": "dmconf-expectations/1",
 "known_failures": [{"backend": "oracle", "case": "*", "verdict": "crash",
                     "reason": "gone\\nFAKE: OK reason"}]}
JSON
out=$(run --backend oracle --expectations e.json --update-expectations e.json --report o.json); rc=$?
forged "a stale entry's reason (summary and update list)" 0 "$out" $rc
check "  both lists name it" '[ "$(grep -cF "gone\\x0aFAKE: OK reason" <<<"$out")" -eq 2 ]'

out=$("$dmconf" report diff o.json p.json 2>&1); rc=$?
forged "report diff: backend names from a report" 1 "$out" $rc
exit "$fail"
