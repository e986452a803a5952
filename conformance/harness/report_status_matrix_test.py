#!/usr/bin/env python3
"""The implementation-status matrix of the run report and of its HTML page.

    report_status_matrix_test.py DMCONF SOURCE_DIR WORK_DIR

Runs the oracle, the example plugin (narrow capabilities: unsupported cells) and a mutant with
a seeded layout bug (failing cells; its failures on f16 and i64 data listed as known), in two
shards. Checks, with every expected figure recounted here from the report's own cases (never
from dmconf's matrix code):
- each backend's `status_matrix` holds one entry per op x element type x rank x lane that has
  a case, with its case count and its status (failing: a case has `failure` or `known`; else
  implemented: a case ran, verdict not `unsupported`; else unsupported), in sorted order;
- each status occurs (the test can tell them apart), and the mutant has failing cells;
- `dmconf report merge` of the two shards gives the unsharded run's matrix (it recomputes it
  from the merged cases);
- the HTML page in headless Chromium shows per backend an op x element type table whose cells
  sum the report cells over rank and lane (status, cases, a hover line per rank and lane).
Exit status 77 (skipped) only when chromium is not installed (the JSON checks run first).
"""
import collections
import html.parser
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import headless_chromium as browser_lib  # noqa: E402

OPS = ['SpaceToBatch', 'BatchToSpace', 'SpaceToDepth', 'DepthToSpace', 'ExtractImagePatches']


def fail(msg):
    print('report_status_matrix_test: FAIL: ' + msg)
    sys.exit(1)


def recount(backend, types):
    """The matrix from the report's cases, by the rule the docs state."""
    cells = collections.OrderedDict()
    for c in backend['cases']:
        lane = 'shape' if 'lane' in c else 'kernel'
        key = (c['op'], c['element_type'], c['rank'], lane)
        cells.setdefault(key, []).append(c)
    out = []
    for key in sorted(cells, key=lambda k: (OPS.index(k[0]), types.index(k[1]), k[2], k[3])):
        cs = cells[key]
        if any(c['failure'] or 'known' in c for c in cs):
            status = 'failing'
        elif any(c['verdict'] != 'unsupported' for c in cs):
            status = 'implemented'
        else:
            status = 'unsupported'
        out.append({'op': key[0], 'element_type': key[1], 'rank': key[2], 'lane': key[3],
                    'status': status, 'cases': len(cs)})
    return out


class StatusCells(html.parser.HTMLParser):
    """(backend, op, type) -> attributes of the page's status-matrix cells."""

    def __init__(self):
        super().__init__()
        self.cells = {}
        self.tables = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == 'table' and 'status' in a.get('class', '').split():
            self.tables.append(a['data-backend'])
        if tag == 'td' and 'data-status' in a and self.tables:
            self.cells[(self.tables[-1], a['data-op'], a['data-type'])] = a


def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          timeout=600)


def main():
    dmconf, src, work = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    with open(os.path.join(src, 'reports', 'dmconf-report-2.schema.json')) as f:
        types = json.load(f)['definitions']['element_type']['enum']
    known = os.path.join(work, 'known.json')
    with open(known, 'w') as f:
        json.dump({'format': 'dmconf-expectations/1', 'known_failures': [
            {'backend': 'mutant.d2s_mode_swapped', 'case': pattern % t,
             'reason': 'listed so that known failures count as failing'}
            # Catalogue ids hold the type after the op; golden vector ids ("vector/types.d2s.
            # blocks_first.f16") at the end.
            for t in ('f16', 'i64') for pattern in ('*d2s.%s.*', '*.d2s.*.%s')]}, f)
    base = [dmconf, 'run', '--backend', 'oracle,example,mutant.d2s_mode_swapped', '--count',
            '20', '--timeout', '2', '--quiet', '--no-shrink', '--expectations', known]
    whole = os.path.join(work, 'whole.json')
    r = run(base + ['--report', whole])
    if r.returncode != 0:
        fail('dmconf run: status %d: %s' % (r.returncode, r.stderr[-400:]))
    shards = []
    for k in (1, 2):
        shards.append(os.path.join(work, 'shard%d.json' % k))
        r = run(base + ['--shard', '%d/2' % k, '--report', shards[-1]])
        if r.returncode != 0:
            fail('shard %d: status %d: %s' % (k, r.returncode, r.stderr[-400:]))
    merged = os.path.join(work, 'merged.json')
    r = run([dmconf, 'report', 'merge'] + shards + ['-o', merged])
    if r.returncode != 0:
        fail('report merge: status %d: %s' % (r.returncode, r.stderr[-400:]))

    with open(whole) as f:
        report = json.load(f)
    seen = collections.Counter()
    for b in report['backends']:
        want = recount(b, types)
        if b['status_matrix'] != want:
            diff = [x for x in want if x not in b['status_matrix']][:3]
            fail('%s: status_matrix differs from a recount of its cases, e.g. %s' %
                 (b['name'], diff))
        if sum(x['cases'] for x in b['status_matrix']) != len(b['cases']):
            fail('%s: the matrix does not count every case once' % b['name'])
        seen.update((b['name'], x['status']) for x in b['status_matrix'])
    for name, status in [('oracle', 'implemented'), ('example', 'unsupported'),
                         ('example', 'implemented'), ('mutant.d2s_mode_swapped', 'failing')]:
        if seen[(name, status)] == 0:
            fail('no %s cell for %s: the run does not exercise the statuses' % (status, name))
    if seen[('oracle', 'failing')] or seen[('oracle', 'unsupported')]:
        fail('the oracle has failing or unsupported cells')
    mutant = next(b for b in report['backends'] if b['name'] == 'mutant.d2s_mode_swapped')
    # A cell failing by known failures only, and one by new failures only.
    failing = collections.defaultdict(set)
    for c in mutant['cases']:
        if c['failure'] or 'known' in c:
            key = (c['op'], c['element_type'], c['rank'], 'lane' in c)
            failing[key].add('known' if 'known' in c else 'new')
    if {'known'} not in failing.values() or {'new'} not in failing.values():
        fail('the mutant needs a cell with only known and one with only new failures: %s' %
             dict(failing))

    with open(merged) as f:
        m = json.load(f)
    for a, b in zip(report['backends'], m['backends']):
        if a['status_matrix'] != b['status_matrix']:
            fail('%s: the merged report\'s matrix differs from the unsharded run\'s' % a['name'])

    # The page.
    chromium = browser_lib.find_chromium('report_status_matrix_test')
    if chromium is None:
        return 77
    page = os.path.join(work, 'report.html')
    r = run([dmconf, 'report', 'html', whole, '-o', page])
    if r.returncode != 0:
        fail('report html: status %d: %s' % (r.returncode, r.stderr[-400:]))
    dom_text = browser_lib.chromium_dom(chromium, page, '', os.path.join(work, 'profile'))
    if 'data-js-errors' in dom_text.split('<body', 1)[0] or 'data-ready="1"' not in dom_text:
        fail('the page script failed or did not finish')
    dom = StatusCells()
    dom.feed(dom_text)
    if dom.tables != [b['name'] for b in report['backends']]:
        fail('status tables for %s' % dom.tables)
    want = {}
    for b in report['backends']:
        groups = collections.defaultdict(list)
        for x in recount(b, types):
            groups[(b['name'], x['op'], x['element_type'])].append(x)
        for key, xs in groups.items():
            st = {x['status'] for x in xs}
            status = ('failing' if 'failing' in st else 'implemented' if st == {'implemented'}
                      else 'unsupported' if st == {'unsupported'} else 'partial')
            title = '\n'.join('rank %s, %s: %s (%d cases)' %
                              ('?' if x['rank'] < 0 else x['rank'], x['lane'], x['status'],
                               x['cases']) for x in xs)
            want[key] = (status, sum(x['cases'] for x in xs), title)
    got = {k: (a['data-status'], int(a['data-cases']), a['title']) for k, a in dom.cells.items()}
    if got != want:
        diff = sorted(set(got.items()) ^ set(want.items()))[:4]
        fail('page status cells differ from the recount: %s' % diff)
    statuses = collections.Counter(s for s, _, _ in got.values())
    print('report_status_matrix_test: ok (%s matrix entries; page cells %s)' %
          (sum(len(b['status_matrix']) for b in report['backends']), dict(statuses)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
