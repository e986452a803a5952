#!/usr/bin/env python3
"""The witness of an unsound_shape failure on the HTML report's card, in headless Chromium.

    report_html_witness_test.py DMCONF BUGGY_LIB WORK_DIR

Runs dmconf on a plugin whose shape inference is unsound (shape_bug_plugin.c, ceil_off_by_one),
writes the page with `dmconf report html` and loads it. Checks: every shown card of an
unsound_shape case has one witness row holding the JSON report's witness instance and the file
it was saved as, and its witness repro; no card of another verdict has one. Every expected
figure is computed here from the JSON report.
Exit status 77 (skipped) only when chromium is not installed.
"""
import html
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from headless_chromium import chromium_dom, find_chromium  # noqa: E402


def fail(msg):
    print('report_html_witness_test: FAIL: ' + msg)
    sys.exit(1)


def main():
    dmconf, buggy, work = sys.argv[1:4]
    browser = find_chromium('report_html_witness_test')
    if browser is None:
        return 77
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    report, page = os.path.join(work, 'r.json'), os.path.join(work, 'r.html')
    run = subprocess.run([dmconf, 'run', '--backend-lib', buggy, '--count', '20',
                          '--shape-count', '40', '--quiet', '--report', report,
                          '--failures', os.path.join(work, 'f')], capture_output=True, text=True)
    if run.returncode != 1:
        fail('dmconf run: status %d, %s' % (run.returncode, run.stdout[-400:]))
    out = subprocess.run([dmconf, 'report', 'html', report, '-o', page], capture_output=True,
                         text=True)
    if out.returncode != 0:
        fail('dmconf report html: status %d, %s' % (out.returncode, out.stderr))
    r = json.load(open(report))
    failing = [c for b in r['backends'] for c in b['cases'] if c['failure'] or 'known' in c]
    shown = failing[:100]
    witnessed = [c for c in shown if 'witness' in c]
    if not witnessed or any(c['verdict'] != 'unsound_shape' for c in witnessed) or \
            any(c['verdict'] == 'unsound_shape' and 'witness' not in c for c in shown):
        fail('the JSON report: %d shown failures, %d with a witness; unsound_shape ones %d' %
             (len(shown), len(witnessed), sum(c['verdict'] == 'unsound_shape' for c in shown)))
    text = chromium_dom(browser, page, '', os.path.join(work, 'profile'))
    if 'data-ready="1"' not in text or '<div id="js-errors"></div>' not in text:
        fail('the page script did not run to the end, or raised an error')
    rows = text.count('<span class="witness">')
    if rows != len(witnessed):
        fail('%d witness rows on the page, %d witnessed cases shown' % (rows, len(witnessed)))
    for c in witnessed:
        w = c['witness']
        for part in (w['instance'], w['case_file'], w['repro']):
            if html.escape(part, quote=False) not in text:
                fail('%s: the page does not show %r' % (c['id'], part))
    print('ok   %d unsound_shape cards, each with its witness instance, saved case and repro' %
          len(witnessed))
    return 0


if __name__ == '__main__':
    sys.exit(main())
