#!/usr/bin/env python3
"""`dmconf report diff OLD NEW` (text and --html) on reports changed in known ways.

    report_diff_test.py DMCONF WORK_DIR

NEW is OLD with, by construction: a passing case made failing (its id hostile markup), a
failing case made passing, a passing case made unsupported, a case left out and a failing case
added. The diff must list exactly those (new failures, fixed, changed, one case only in each),
exit 1; reversed, it swaps new and fixed; a report against itself is clean (exit 0); two
one-backend reports are paired whatever their backend names; the HTML form lists the same
entries, holds no script and shows the hostile id as text; a malformed report is refused by
rule with exit status 2.
"""
import copy
import html.parser
import json
import os
import shutil
import subprocess
import sys

HOSTILE = '<script>alert(1)</script><img src=x onerror=alert(2)>'


def fail(msg):
    print('report_diff_test: FAIL: ' + msg)
    sys.exit(1)


def diff(dmconf, old, new, status, html=None):
    args = [dmconf, 'report', 'diff', old, new] + (['--html', html] if html else [])
    p = subprocess.run(args, capture_output=True, text=True, timeout=300)
    if p.returncode != status:
        fail('%s: exit status %d, expected %d: %s%s' % (' '.join(args[2:]), p.returncode, status,
                                                       p.stdout[-2000:], p.stderr))
    lists = {'new failure': [], 'fixed': [], 'changed': []}
    for line in p.stdout.splitlines():
        for k in lists:
            if line.startswith(k + ': '):
                lists[k].append(line)
    return lists, p.stdout


def expect(lists, want, what):
    for k, ids in want.items():
        got = lists[k]
        if len(got) != len(ids) or not all(any(' %s: ' % i in g for g in got) for i in ids):
            fail('%s: %s lines %s, expected ids %s' % (what, k, got, ids))


class Rows(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.table = None
        self.rows = {}
        self.tags = {}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags[tag] = self.tags.get(tag, 0) + 1
        if tag == 'table':
            self.table = a.get('id')
        if tag == 'tr' and a.get('class') == 'entry':
            self.rows[self.table] = self.rows.get(self.table, 0) + 1


def main():
    dmconf, work = sys.argv[1:3]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    old = os.path.join(work, 'old.json')
    p = subprocess.run([dmconf, 'run', '--backend', 'example,mutant.d2s_mode_swapped', '--ops',
                        'DepthToSpace', '--count', '20', '--quiet', '--report', old,
                        '--failures', os.path.join(work, 'failures')],
                       stdout=subprocess.DEVNULL, timeout=600)
    if p.returncode != 0:
        fail('dmconf run: exit status %d' % p.returncode)
    with open(old) as f:
        r = json.load(f)
    ex, mu = r['backends'][0]['cases'], r['backends'][1]['cases']
    passing = [c for c in ex if c['verdict'] == 'pass']
    a, c_, d = passing[0], passing[1], passing[2]
    a['id'] = HOSTILE
    b = next(c for c in mu if c['failure'])
    with open(old, 'w') as f:
        json.dump(r, f)
    n = copy.deepcopy(r)
    nex, nmu = n['backends'][0]['cases'], n['backends'][1]['cases']
    na = next(c for c in nex if c['id'] == a['id'])
    na.update(verdict='wrong_values', failure=True, detail='planted regression')
    nb = next(c for c in nmu if c['id'] == b['id'])
    nb.update(verdict='pass', failure=False, detail='')
    nb.pop('mismatch', None), nb.pop('diagnosis', None), nb.pop('invocation', None)
    next(c for c in nex if c['id'] == c_['id']).update(verdict='unsupported')
    n['backends'][0]['cases'] = [c for c in nex if c['id'] != d['id']]
    e = dict(a, id='added/only-in-new', verdict='crash', failure=True, detail='planted crash')
    n['backends'][0]['cases'].append(e)
    new = os.path.join(work, 'new.json')
    with open(new, 'w') as f:
        json.dump(n, f)

    page = os.path.join(work, 'diff.html')
    lists, out = diff(dmconf, old, new, 1, page)
    expect(lists, {'new failure': [HOSTILE, 'added/only-in-new'], 'fixed': [b['id']],
                   'changed': [c_['id']]}, 'OLD NEW')
    if ' only in OLD, 1 only in NEW' not in out or ', 1 only in OLD' not in out:
        fail('the counts of cases in one report only: ' + out.splitlines()[-1])
    rows = Rows()
    with open(page) as f:
        text = f.read()
    rows.feed(text)
    if rows.rows != {'new-failures': 2, 'fixed': 1, 'changed': 1}:
        fail('HTML entries %s' % rows.rows)
    if rows.tags.get('script') or rows.tags.get('img'):
        fail('the HTML page holds a script or img element: %s' % rows.tags)
    if '&lt;script&gt;alert(1)&lt;/script&gt;' not in text:
        fail('the hostile id is not shown as text')

    lists, _ = diff(dmconf, new, old, 1)
    expect(lists, {'new failure': [b['id']], 'fixed': [HOSTILE], 'changed': [c_['id']]},
           'NEW OLD')
    lists, _ = diff(dmconf, old, old, 0)
    expect(lists, {'new failure': [], 'fixed': [], 'changed': []}, 'OLD OLD')

    # One backend each, different names: paired.
    v1, v2 = copy.deepcopy(r), copy.deepcopy(n)
    for rep, name in ((v1, '/v1/libx.so'), (v2, '/v2/libx.so')):
        rep['backends'] = rep['backends'][:1]
        rep['backends'][0]['name'] = name
    p1, p2 = os.path.join(work, 'v1.json'), os.path.join(work, 'v2.json')
    for rep, path in ((v1, p1), (v2, p2)):
        with open(path, 'w') as f:
            json.dump(rep, f)
    lists, out = diff(dmconf, p1, p2, 1)
    expect(lists, {'new failure': [HOSTILE, 'added/only-in-new'], 'fixed': [],
                   'changed': [c_['id']]}, 'v1 v2')
    if '/v1/libx.so -> /v2/libx.so' not in out:
        fail('the two backends were not paired')

    bad = os.path.join(work, 'bad.json')
    with open(bad, 'w') as f:
        f.write(json.dumps(r).replace('"dmconf-report/2"', '"dmconf-report/1"'))
    for args in ([bad, new], [old, bad]):
        p = subprocess.run([dmconf, 'report', 'diff'] + args, capture_output=True, text=True,
                           timeout=300)
        if p.returncode != 2 or 'report.format' not in p.stderr:
            fail('diff %s: exit status %d, stderr %r' % (args, p.returncode, p.stderr))
    print('report_diff_test: ok')
    return 0


if __name__ == '__main__':
    sys.exit(main())
