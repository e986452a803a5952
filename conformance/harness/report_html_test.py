#!/usr/bin/env python3
"""The HTML report in a real browser (headless Chromium).

    report_html_test.py DMCONF SOURCE_DIR WORK_DIR

Runs dmconf (passes, failures with pictures, a known failure, crashes), plants a hostile case
id, writes the page with `dmconf report html` and loads it in headless Chromium (--dump-dom),
once per URL fragment. Checks: the page's script ran to the end with no JavaScript error; the
matrix counts equal a tally of the JSON report's cases; each filter lists exactly the failing
cases of the JSON that it should; a failure's heat map has one red cell per listed wrong
element, and a planted 130 x 130 wrong output is drawn binned with hand-derived cells and hover
texts; the hostile id is shown as text and runs nothing. Then, driven through the DevTools
protocol (--remote-debugging-pipe), choosing a backend and a verdict in the selects lists the
JSON's failing cases of both, "(all)" lists them all again, and "next" shows the second page of
100. Every expected figure is computed
here from the JSON report, not taken from the page.
Exit status 77 (skipped) only when chromium is not installed.
"""
import collections
import json
import os
import shutil
import subprocess
import sys
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from headless_chromium import Dom, DevTools, chromium_dom, find_chromium  # noqa: E402

HOSTILE = ('<script>document.title="pwned"</script>'
           '<img src=x onerror="document.title=\'pwned\'">')


def fail(msg):
    print('report_html_test: FAIL: ' + msg)
    sys.exit(1)


def load(browser, page, fragment, profile):
    text = chromium_dom(browser, page, fragment, profile)
    dom = Dom()
    dom.feed(text)
    body = dom.attrs_of.get('body', {})
    if 'data-js-errors' in dom.attrs_of.get('html', {}):
        fail('JavaScript errors (%s): %s' % (fragment, text[text.find('js-errors'):][:400]))
    if body.get('data-ready') != '1':
        fail('the page script did not run to the end (%s)' % fragment)
    return dom, text


def main():
    dmconf, src, work = sys.argv[1:4]
    browser = find_chromium('report_html_test')
    if browser is None:
        return 77
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    known = os.path.join(work, 'known.json')
    with open(known, 'w') as f:
        json.dump({'format': 'dmconf-expectations/1', 'known_failures': [
            {'backend': 'mutant.d2s_mode_swapped', 'case': 'example/*',
             'reason': 'listed to exercise the known-failure fields'}]}, f)
    report = os.path.join(work, 'report.json')
    run = subprocess.run([dmconf, 'run', '--backend',
                          'oracle,example,mutant.d2s_mode_swapped,fault-crash', '--count', '40',
                          '--timeout', '2', '--quiet', '--expectations', known, '--report', report,
                          '--failures', os.path.join(work, 'failures')],
                         stdout=subprocess.DEVNULL, timeout=600)
    if run.returncode != 1:
        fail('dmconf run: expected exit status 1 (new failures), got %d' % run.returncode)
    with open(report) as f:
        r = json.load(f)
    # A hostile case id and detail on the first failing case (shown on the first page).
    for b in r['backends']:
        bad = [c for c in b['cases'] if c['failure'] or 'known' in c]
        if bad:
            bad[0]['id'] = HOSTILE
            # A backend's message: markup, quotes, ]]>, control bytes (ESC, CR, BEL, DEL).
            bad[0]['detail'] = HOSTILE + ' "dq" \'sq\' ]]> \x1b[2J\r\x07\x7f end'
            break
    # A wrong output of 130 x 130, drawn binned (3 x 3 elements a cell, 44 cells a side):
    # elements (0,0), (0,1), (2,2) share the first cell, (129,129) is alone in the last one.
    binned = [c for b in r['backends'] for c in b['cases']
              if (c['failure'] or 'known' in c) and 'mismatch' in c][1]
    binned['mismatch'] = {'index': [0, 0, 0, 0], 'expected_bits': '0x00000001',
                          'actual_bits': '0x00000002', 'differing': 4, 'total': 16900,
                          'shape': [1, 1, 130, 130],
                          'listed': [[f, '0x%08x' % (f + 1), '0x%08x' % (f + 2)]
                                     for f in (0, 1, 2 * 130 + 2, 129 * 130 + 129)]}
    with open(report, 'w') as f:
        json.dump(r, f)
    page = os.path.join(work, 'report.html')
    out = subprocess.run([dmconf, 'report', 'html', report, '-o', page], capture_output=True,
                         text=True, timeout=120)
    if out.returncode != 0 or out.stdout.strip() != page:
        fail('dmconf report html: status %d, stdout %r, stderr %r' %
             (out.returncode, out.stdout, out.stderr))
    profile = os.path.join(work, 'chromium-profile')

    failing = [(b['name'], c) for b in r['backends'] for c in b['cases']
               if c['failure'] or 'known' in c]
    tally = collections.Counter((b['name'], c['op'], c['verdict'])
                                for b in r['backends'] for c in b['cases'])

    # 1. The whole page: counts, the hostile id, a failure's picture.
    dom, text = load(browser, page, '', profile)
    cells = {(b, op, v): n for b, op, v, n in dom.cells}
    if cells != dict(tally):
        fail('matrix counts differ from the JSON: %s' %
             sorted(set(cells.items()) ^ set(tally.items()))[:10])
    for key in ('cases', 'new_failures', 'known_failures'):
        shown = text.split('data-key="%s">' % key)[1].split('<')[0]
        if int(shown) != r['summary'][key]:
            fail('summary %s: page %s, JSON %d' % (key, shown, r['summary'][key]))
    fails = dom.attrs_of['failures']
    if int(fails['data-matching']) != len(failing):
        fail('failing cases: page %s, JSON %d' % (fails['data-matching'], len(failing)))
    if len(dom.boxes) != min(100, len(failing)):
        fail('%d failure boxes shown, expected %d' % (len(dom.boxes), min(100, len(failing))))
    if dom.title != 'dmconf report' or dom.imgs != 0 or dom.scripts != 4:
        fail('the hostile case id changed the page: title %r, %d img, %d script elements' %
             (dom.title, dom.imgs, dom.scripts))
    if '&lt;script&gt;document.title="pwned"&lt;/script&gt;' not in text:
        fail('the hostile case id is not shown as text')
    if '"dq" \'sq\' ]]&gt; \x1b[2J' not in text:
        fail('the hostile message (quotes, ]]>, ESC) is not shown as text')

    # 2. Pictures: for each shown failure with listed wrong elements in slices of at most
    # 64 x 64, one red cell per listed element of the first four slices.
    by_box = [c for _, c in failing][:len(dom.boxes)]
    drawn = 0
    for box, c in zip(dom.boxes, by_box):
        m = c.get('mismatch')
        if not m or not m['listed']:
            if box['wrong'] or box['slices']:
                fail('a picture for a case without listed wrong elements: %s' % c['id'])
            continue
        shape = m['shape']
        h = shape[-2] if len(shape) >= 2 else 1
        w = shape[-1] if len(shape) >= 1 else 1
        if h > 64 or w > 64:
            continue
        slices = collections.OrderedDict()
        for flat, _, _ in m['listed']:
            slices.setdefault(flat // (h * w), []).append(flat)
        first = list(slices.values())[:4]
        want = sum(len(s) for s in first)
        if box['wrong'] != want or box['slices'] != len(first):
            fail('%s: %d red cells in %d slices, expected %d in %d' %
                 (c['id'], box['wrong'], box['slices'], want, len(first)))
        flat, e, a = m['listed'][0]
        if not any(t.endswith(': expected %s, got %s' % (e, a)) for t in box['titles']):
            fail('%s: no hover text with expected %s and actual %s' % (c['id'], e, a))
        drawn += 1
    if drawn == 0:
        fail('no failure picture was checked')
    shrunk = sum('shrunk' in c for c in by_box)
    if text.count('<span class="shrunk">') != shrunk:
        fail('%d shrunk cases shown, %d in the JSON' % (text.count('<span class="shrunk">'), shrunk))
    box = dom.boxes[by_box.index(binned)]
    want_titles = ['rows 0-2, columns 0-2: 3 wrong; first [0,0,0,0] expected 0x00000001, '
                   'got 0x00000002',
                   'rows 129-129, columns 129-129: 1 wrong; first [0,0,129,129] expected '
                   '0x00004204, got 0x00004205']
    if box['wrong'] != 2 or box['slices'] != 1 or sorted(box['titles']) != want_titles:
        fail('binned picture: %d red cells, %d slices, titles %s' %
             (box['wrong'], box['slices'], box['titles']))

    # 3. Filters, set through the URL fragment as the matrix links and the selects set them.
    checks = []
    for (b, op, v), n in sorted(tally.items()):
        if any(fb == b and fc['op'] == op and fc['verdict'] == v for fb, fc in failing):
            checks.append({'backend': b, 'op': op, 'verdict': v})
    checks.append({'rule': failing[-1][1]['rule']})
    checks.append({'type': failing[0][1]['element_type']})
    checks.append({'backend': failing[0][0], 'page': '2'})
    fields = {'backend': lambda b, c: b, 'op': lambda b, c: c['op'],
              'verdict': lambda b, c: c['verdict'], 'rule': lambda b, c: c['rule'],
              'type': lambda b, c: c['element_type']}
    for f in checks:
        want = [(b, c) for b, c in failing
                if all(fields[k](b, c) == v for k, v in f.items() if k in fields)]
        dom, _ = load(browser, page, urllib.parse.urlencode(f), profile)
        got = int(dom.attrs_of['failures']['data-matching'])
        # A page beyond the last shows the last.
        number = min(int(f.get('page', 1)), max(1, (len(want) + 99) // 100))
        shown = min(100, len(want) - 100 * (number - 1))
        if got != len(want) or len(dom.boxes) != shown:
            fail('filter %s: page %d matching, %d shown; JSON %d' %
                 (f, got, len(dom.boxes), len(want)))
        for box in dom.boxes:
            a = box['attrs']
            for k, v in f.items():
                if k in fields and a['data-' + k] != v:
                    fail('filter %s shows a case with %s=%s' % (f, k, a['data-' + k]))
    # 4. A person's way: choose filters in the selects, press "show more".
    tools = DevTools(browser, 'file://' + page, profile + '-devtools')
    try:
        for _ in range(100):
            if tools.eval("document.body && document.body.dataset.ready || ''") == '1':
                break
            time.sleep(0.1)
        else:
            fail('DevTools: the page did not get ready')
        state = """new Promise(done => setTimeout(() => done([location.hash,
            Number(document.getElementById('failures').dataset.matching),
            document.querySelectorAll('#failures .failure').length,
            document.documentElement.getAttribute('data-js-errors')]), 200))"""
        choose = """(() => { const s = document.getElementById('filter-%s');
            s.value = %s; s.dispatchEvent(new Event('change')); })()"""
        backend = failing[0][0]
        tools.eval(choose % ('backend', json.dumps(backend)))
        mine = [c for b, c in failing if b == backend]
        verdict = mine[-1]['verdict']
        tools.eval(choose % ('verdict', json.dumps(verdict)))
        got = tools.eval(state)
        want = [c for c in mine if c['verdict'] == verdict]
        if got[1:] != [len(want), min(100, len(want)), None] or \
                urllib.parse.parse_qs(got[0][1:]) != {'backend': [backend], 'verdict': [verdict]}:
            fail('selects backend=%s verdict=%s: page %s, JSON %d' %
                 (backend, verdict, got, len(want)))
        tools.eval("document.getElementById('filter-backend').selectedIndex = 0,"
                   "document.getElementById('filter-backend').dispatchEvent(new Event('change'))")
        tools.eval("document.getElementById('filter-verdict').selectedIndex = 0,"
                   "document.getElementById('filter-verdict').dispatchEvent(new Event('change'))")
        got = tools.eval(state)
        if got[1:3] != [len(failing), min(100, len(failing))]:
            fail('filters back to (all): page %s, JSON %d' % (got, len(failing)))
        if len(failing) > 100:
            tools.eval("document.querySelector('#failures-section .page-next').click()")
            got = tools.eval(state)
            if got[2] != min(100, len(failing) - 100) or \
                    urllib.parse.parse_qs(got[0][1:]) != {'page': ['2']}:
                fail('"next": %s, expected %d failures shown on page 2' %
                     (got, min(100, len(failing) - 100)))
    finally:
        tools.close()
    print('report_html_test: ok (%d matrix cells, %d failing cases, %d pictures, %d filters)' %
          (len(cells), len(failing), drawn, len(checks)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
