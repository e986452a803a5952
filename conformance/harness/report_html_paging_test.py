#!/usr/bin/env python3
"""The HTML page of a report with many failing cases, in headless Chromium.

    report_html_paging_test.py DMCONF SOURCE_DIR WORK_DIR

A real run (the oracle and four mutants, one of them's failures listed as known) is the
template of a larger report (bench/synthetic_report.py: 300 cases a backend, half failing).
Checked, every expected figure computed here from the JSON report:
- paging: the failing cases are listed 100 a page in the report's order; page 2, the last
  page, a page past the last (shows the last) and page 2 of a filter list exactly the JSON's
  cases at those places, with the page count;
- the cap (`report html --max-failures`): above it, the page embeds exactly the cases the rule
  of harness/report/html_failures.h picks (worked out here from the JSON), pages them, and a
  note gives the failing, embedded and left-out numbers and names the JSON report; the
  summary, the matrix and the causes still count every case. At the cap exactly and below
  it, no note and every failing case listed. `run --html --html-max-failures` likewise;
- on load: the summary and the matrix are in the page before the parser has read the
  failing cases (a MutationObserver installed before the page's own script records it).
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
import headless_chromium as browser_lib  # noqa: E402

PAGE = 100
MUTANTS = ['mutant.d2s_mode_swapped', 'mutant.s2d_mode_swapped', 'mutant.eip_same_swapped',
           'mutant.nan_quieting']


def fail(msg):
    print('report_html_paging_test: FAIL: ' + msg)
    sys.exit(1)


def failing_cases(report):
    return [(b['name'], c) for b in report['backends'] for c in b['cases']
            if c['failure'] or 'known' in c]


def mistake(c):
    return c.get('diagnosis', {}).get('mistake', '')


def embedded(report, cap):
    """The failing cases a page with this cap embeds, by the rule of html_failures.h: causes
    (backend, new or known, verdict, mistake) in the order they first occur; the largest
    equal share q with sum(min(size, q)) <= cap; what is left adds one to each of the first
    causes larger than q; of each cause its first cases."""
    fails = failing_cases(report)
    key = lambda b, c: (b, 'known' in c, c['verdict'], mistake(c))
    sizes = collections.OrderedDict()
    for b, c in fails:
        sizes[key(b, c)] = sizes.get(key(b, c), 0) + 1
    if len(fails) <= cap:
        return fails
    q = max(s for s in range(max(sizes.values()) + 1)
            if sum(min(n, s) for n in sizes.values()) <= cap)
    quota = {k: min(n, q) for k, n in sizes.items()}
    left = cap - sum(quota.values())
    for k, n in sizes.items():
        if left > 0 and n > q:
            quota[k] += 1
            left -= 1
    out = []
    for b, c in fails:
        if quota[key(b, c)] > 0:
            quota[key(b, c)] -= 1
            out.append((b, c))
    return out


def load(chromium, page, fragment, profile):
    text = browser_lib.chromium_dom(chromium, page, fragment, profile)
    dom = browser_lib.Dom()
    dom.feed(text)
    if 'data-js-errors' in dom.attrs_of.get('html', {}) or \
            dom.attrs_of.get('body', {}).get('data-ready') != '1':
        fail('the page script failed or did not finish (%s)' % fragment)
    return dom, text


def check_list(chromium, page, fragment, want, profile, what):
    """The page at `fragment` lists `want` (the matching cases), the right page of them."""
    dom, _ = load(chromium, page, fragment, profile)
    f = dom.attrs_of['failures']
    pages = max(1, (len(want) + PAGE - 1) // PAGE)
    asked = dict(urllib.parse.parse_qsl(fragment)).get('page', '1')
    number = min(int(asked), pages)
    ids = [b['attrs']['data-case'] for b in dom.boxes]
    expect = [c['id'] for _, c in want[(number - 1) * PAGE:number * PAGE]]
    got = (int(f['data-matching']), int(f['data-page']), int(f['data-pages']), ids)
    if got != (len(want), number, pages, expect):
        fail('%s (%s): page %s of %s, %s matching, ids %s...; expected page %d of %d, %d '
             'matching, ids %s...' % (what, fragment, got[1], got[2], got[0], ids[:3], number,
                                      pages, len(want), expect[:3]))
    return dom


def check_counts(dom, text, report, what):
    """The summary and the matrix count every case of the JSON, whatever the page embeds."""
    for key in ('cases', 'new_failures', 'known_failures'):
        shown = text.split('data-key="%s">' % key)[1].split('<')[0]
        if int(shown) != report['summary'][key]:
            fail('%s: summary %s %s, JSON %d' % (what, key, shown, report['summary'][key]))
    tally = collections.Counter((b['name'], c['op'], c['verdict'])
                                for b in report['backends'] for c in b['cases'])
    cells = {(b, op, v): n for b, op, v, n in dom.cells}
    if cells != dict(tally):
        fail('%s: matrix counts differ from the JSON: %s' %
             (what, sorted(set(cells.items()) ^ set(tally.items()))[:6]))


def check_note(dom, text, failing, cap, report_path, what):
    note = dom.attrs_of.get('cap-note')
    if failing <= cap:
        if note is not None:
            fail('%s: a cap note with %d failing cases and cap %d' % (what, failing, cap))
        return
    if note is None:
        fail('%s: no cap note with %d failing cases and cap %d' % (what, failing, cap))
    got = [int(note['data-' + k]) for k in ('failing', 'embedded', 'left-out', 'cap')]
    if got != [failing, cap, failing - cap, cap]:
        fail('%s: cap note numbers %s, expected %s' % (what, got,
                                                        [failing, cap, failing - cap, cap]))
    para = text.split('id="cap-note"', 1)[1].split('</p>', 1)[0]
    for words in ('embeds %d of the %d failing cases' % (cap, failing),
                  'the other %d are not in the page' % (failing - cap), report_path):
        if words not in para:
            fail('%s: the cap note does not say %r: %s' % (what, words, para[:300]))


def check_causes(text, report, what):
    """The by-cause counts: every new failure of the JSON, whatever the page embeds."""
    want = collections.Counter((b['name'], c['verdict'], mistake(c))
                               for b in report['backends'] for c in b['cases'] if c['failure'])
    got = collections.Counter()
    for chunk in text.split('<div class="causes"')[1:]:
        backend = chunk.split('data-backend="', 1)[1].split('"', 1)[0]
        for g in chunk.split('<details class="cause"')[1:]:
            attrs = g.split('>', 1)[0]
            field = lambda k: attrs.split('data-%s="' % k, 1)[1].split('"', 1)[0]
            got[(backend, field('verdict'), field('mistake'))] += int(field('count'))
    if got != want:
        fail('%s: causes %s, JSON %s' % (what, dict(got), dict(want)))


HOOK = """window.__seen = {};
new MutationObserver(() => {
  for (const id of ['summary', 'matrix', 'cap-note']) {
    if (!(id in window.__seen) && document.getElementById(id)) {
      window.__seen[id] = {failures_read: !!document.getElementById('report-failures'),
                           boxes: document.querySelectorAll('.failure').length};
    }
  }
}).observe(document, {childList: true, subtree: true});"""


def check_first_drawn(chromium, page, profile):
    tools = browser_lib.DevTools(chromium, 'about:blank', profile)
    try:
        tools.call('Page.enable', tools.session)
        tools.call('Page.addScriptToEvaluateOnNewDocument', tools.session, source=HOOK)
        tools.call('Page.navigate', tools.session, url='file://' + page)
        for _ in range(300):
            if tools.eval("document.body && document.body.dataset.ready || ''") == '1':
                break
            time.sleep(0.1)
        else:
            fail('DevTools: the page did not get ready')
        seen = tools.eval('window.__seen')
    finally:
        tools.close()
    for id in ('summary', 'matrix', 'cap-note'):
        s = seen.get(id)
        if s is None or s['failures_read'] or s['boxes']:
            fail('#%s was not drawn before the failing cases were read: %s' % (id, seen))


def main():
    dmconf, src, work = sys.argv[1:4]
    chromium = browser_lib.find_chromium('report_html_paging_test')
    if chromium is None:
        return 77
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    known = os.path.join(work, 'known.json')
    with open(known, 'w') as f:
        json.dump({'format': 'dmconf-expectations/1', 'known_failures': [
            {'backend': MUTANTS[1], 'case': '*', 'reason': 'a known failure'}]}, f)
    template = os.path.join(work, 'template.json')
    small_html = os.path.join(work, 'small.html')
    run = subprocess.run([dmconf, 'run', '--backend', ','.join(['oracle'] + MUTANTS),
                          '--count', '30', '--no-shrink', '--quiet', '--expectations', known,
                          '--report', template, '--html', small_html,
                          '--html-max-failures', '20'],
                         stdout=subprocess.DEVNULL, timeout=600)
    if run.returncode not in (0, 1):
        fail('dmconf run: exit status %d' % run.returncode)
    with open(template) as f:
        small = json.load(f)
    profile = os.path.join(work, 'profile')
    # `run --html-max-failures`: the note names the run's --report.
    dom, text = load(chromium, small_html, '', profile)
    check_note(dom, text, len(failing_cases(small)), 20, template, 'run --html')
    check_list(chromium, small_html, 'page=1', embedded(small, 20), profile, 'run --html')

    big = os.path.join(work, 'big.json')
    subprocess.run([sys.executable, os.path.join(src, 'bench', 'synthetic_report.py'),
                    template, big, '--cases', '300', '--failing', '0.5'], check=True)
    with open(big) as f:
        report = json.load(f)
    fails = failing_cases(report)
    if len(fails) < 5 * PAGE:
        fail('the synthetic report has %d failing cases, too few to page' % len(fails))
    pages = {}
    for cap in (None, len(fails), len(fails) - 1, 250):
        page = os.path.join(work, 'cap-%s.html' % cap)
        out = subprocess.run([dmconf, 'report', 'html', big, '-o', page] +
                             (['--max-failures', str(cap)] if cap is not None else []),
                             capture_output=True, text=True, timeout=300)
        if out.returncode != 0:
            fail('dmconf report html --max-failures %s: %s' % (cap, out.stderr))
        pages[cap] = page
    # Below the cap (the default) and at it: every failing case, paged; no note.
    backend = MUTANTS[0]
    mine = [(b, c) for b, c in fails if b == backend]
    for cap in (None, len(fails)):
        what = 'cap %s' % cap
        dom, text = load(chromium, pages[cap], '', profile)
        check_note(dom, text, len(fails), cap or 10 ** 9, big, what)
        check_counts(dom, text, report, what)
        for frag in ('page=2', 'page=%d' % ((len(fails) + PAGE - 1) // PAGE), 'page=999'):
            check_list(chromium, pages[cap], frag, fails, profile, what)
        check_list(chromium, pages[cap], urllib.parse.urlencode({'backend': backend, 'page': 2}),
                   mine, profile, what)
    # Above the cap: the embedded ones, paged; the note; every case still counted.
    for cap in (len(fails) - 1, 250):
        what = 'cap %d' % cap
        want = embedded(report, cap)
        dom, text = load(chromium, pages[cap], '', profile)
        check_note(dom, text, len(fails), cap, big, what)
        check_counts(dom, text, report, what)
        check_causes(text, report, what)
        for frag in ('page=1', 'page=2', 'page=3'):
            check_list(chromium, pages[cap], frag, want, profile, what)
        check_list(chromium, pages[cap], urllib.parse.urlencode({'backend': backend, 'page': 2}),
                   [(b, c) for b, c in want if b == backend], profile, what)
    check_first_drawn(chromium, pages[250], profile + '-devtools')
    size = os.path.getsize(pages[None])
    print('report_html_paging_test: ok (%d failing cases in %d pages, cap 250 embeds %s per '
          'backend; page of all %.1f MB)' %
          (len(fails), (len(fails) + PAGE - 1) // PAGE,
           dict(collections.Counter(b for b, _ in embedded(report, 250))), size / 1e6))
    return 0


if __name__ == '__main__':
    sys.exit(main())
