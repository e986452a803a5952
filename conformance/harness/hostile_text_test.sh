#!/usr/bin/env bash
# Every text a backend or a file supplies is escaped on every output path (docs/bad-input.md,
# "Plugins and backends"). A plugin whose name, declared modes, refusal messages and answered
# element type hold <script>, ]]>, quotes, &, |, backticks, ESC, CR, BEL, DEL and a byte that
# is not UTF-8 (hostile_text_plugin.c, mode text) is run with --report, --junit and --html:
#  - the JSON report parses and validates against the report schema (Ajv);
#  - the JUnit file parses as XML (python3 xml.etree) and shows the bytes as `\x1b`;
#  - the HTML page holds no raw tag from the plugin and no raw control byte;
#  - the terminal output holds no raw ESC or CR;
#  - dmconf's one Markdown output (`dmconf rules --markdown`) keeps one column count per
#    table; it holds only the oracle's rule text, never a backend's.
#   hostile_text_test.sh DMCONF SOURCE_DIR TEXT_PLUGIN
# Exit status 77 (skipped) when Ajv is not installed.
set -uo pipefail
dmconf="$1"; src="$2"; plugin="$3"
validator="$src/reports/validator/validate.js"
schema="$src/reports/dmconf-report-2.schema.json"
if [ ! -f "$src/reports/validator/node_modules/ajv/package.json" ]; then
  echo "hostile_text_test: Ajv is not installed (scripts/install-report-validator.sh failed?)"
  exit 77
fi
source "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh"
cd "$tmp" || exit 1
"$dmconf" run --backend-lib "$plugin" --ops d2s,s2d --count 10 --directed-count 0 --no-shrink \
  --report r.json --junit j.xml --html r.html --failures f >out.txt 2>err.txt
rc=$?
check_rc "the run ends with its verdict (exit 1)" $(( rc == 1 ? 0 : 1 )) "exit $rc: $(head -c 800 err.txt)"
out=$(node "$validator" "$schema" r.json 2>&1)
check_rc "the JSON report validates" $? "$out"
out=$(python3 - <<'PY' 2>&1
import json, xml.etree.ElementTree as ET
r = json.load(open("r.json"))
text = json.dumps(r)
assert '<script>alert(1)</script>' in text, "the hostile text is not in the report"
root = ET.parse("j.xml").getroot()
msgs = [f.get("message") for f in root.iter("failure")] + [s.get("message") for s in root.iter("skipped")]
hostile = [m for m in msgs if m and "<script>alert(1)</script>" in m]
assert hostile, "no JUnit message carries the plugin's text: %r" % msgs[:3]
for m in hostile:
    assert "\\x1b[2J\\x0d\\x07\\x7f\\xff end" in m, "control bytes not shown as \\x..: %r" % m
    assert ']]>' in m and '|x|y|' in m and '`tick`' in m, m
PY
)
check_rc "the JUnit file parses as XML and shows the control bytes as \\x1b" $? "$out"
out=$(python3 - <<'PY' 2>&1
page = open("r.html", "rb").read()
assert b"<script>alert" not in page, "a raw <script> tag from the plugin"
bad = sorted({b for b in page if (b < 0x20 and b not in (9, 10)) or b == 0x7f})
assert not bad, "raw control bytes in the page: %r" % bad
from html.parser import HTMLParser
class Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags = []
    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
p = Tags()
p.feed(page.decode("utf-8"))
# The page's own four: the error handler, the summary data, the script, the failing cases.
assert p.tags.count("script") == 4 and "img" not in p.tags, "elements: %r" % p.tags
PY
)
check_rc "the HTML page has no raw tag or control byte from the plugin" $? "$out"
python3 -c 'import sys; d = open(sys.argv[1], "rb").read() + open(sys.argv[2], "rb").read(); sys.exit(1 if b"\x1b" in d or b"\r" in d else 0)' out.txt err.txt
check_rc "the terminal output has no raw ESC or CR" $? "$(head -c 600 out.txt)"
"$dmconf" rules --markdown >rules.md
out=$(python3 - <<'PY' 2>&1
import re
tables, cols = [], None
for line in open("rules.md", encoding="utf-8"):
    if line.startswith("|"):
        n = len(re.findall(r"(?<!\\)\|", line.rstrip("\n")))
        if cols is None:
            cols = n
        assert n == cols, "a row with %d separators, the table has %d: %r" % (n, cols, line)
    else:
        cols = None
PY
)
check_rc "dmconf rules --markdown: every table row keeps its column count" $? "$out"
[ "$fail" -eq 0 ] && echo "hostile_text_test: ok"
exit "$fail"
