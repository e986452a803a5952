#!/usr/bin/env python3
"""A large dmconf-report/2 report made from a small real one, for the HTML page's tests and
benchmark (a `dmconf run` of 10^6 failing cases would take far longer than writing one).

    synthetic_report.py TEMPLATE.json OUT.json --cases N [--failing F]

Each backend of TEMPLATE gets N cases: case i is failing when floor((i+1)F) > floor(iF) (a
fraction F of them, spread evenly), and is then the template's failing cases (new or known)
taken in turn, else its passing ones in turn; each copy keeps everything of its template
but its id, which becomes "<template id>~<i>". A backend without failing (or passing) cases
in the template gets none. The summary, totals, pass rates, counts and status matrix are
counted from the cases written; the slices, run and options blocks are the template's.
The file is written case by case: memory stays small whatever N.
"""
import argparse
import collections
import json
import sys

def failing(c):
    return c['failure'] or 'known' in c


def plan(cases, n, frac):
    """The template case of each of the n cases, as indices into `cases`."""
    bad = [i for i, c in enumerate(cases) if failing(c)]
    good = [i for i, c in enumerate(cases) if not failing(c)]
    out = []
    nb = ng = 0
    for i in range(n):
        want_bad = int((i + 1) * frac) > int(i * frac)
        if (want_bad and bad) or not good:
            out.append(bad[nb % len(bad)])
            nb += 1
        else:
            out.append(good[ng % len(good)])
            ng += 1
    return out


def tallies(b, cases, order):
    """totals, pass_rates, counts and status_matrix of the cases written."""
    totals = collections.Counter()
    counts = collections.defaultdict(lambda: collections.defaultdict(collections.Counter))
    by_op = collections.defaultdict(lambda: [0, 0])
    cells = collections.defaultdict(collections.Counter)
    for i in order:
        c = cases[i]
        totals['cases'] += 1
        ran = c['verdict'] != 'unsupported'
        totals['run'] += ran
        totals['new_failures'] += c['failure']
        totals['known_failures'] += 'known' in c
        counts[c['op']][c['element_type']][c['verdict']] += 1
        if ran:
            by_op[c['op']][1] += 1
            by_op[c['op']][0] += not failing(c)
        lane = 'shape' if c.get('lane') else 'kernel'
        cell = cells[(c['op'], c['element_type'], c['rank'], lane)]
        cell['cases'] += 1
        cell['failing'] += failing(c)
        cell['passed'] += ran and not failing(c)
    ok = sum(v[0] for v in by_op.values())
    run = sum(v[1] for v in by_op.values())
    rate = lambda a, r: round(a / r, 6) if r else 1.0
    matrix = [{'op': k[0], 'element_type': k[1], 'rank': k[2], 'lane': k[3],
               'status': 'failing' if v['failing'] else
                         'implemented' if v['passed'] else 'unsupported',
               'cases': v['cases']}
              for k, v in cells.items()]
    return ({'cases': totals['cases'], 'run': totals['run'],
             'unsupported': totals['cases'] - totals['run'],
             'new_failures': totals['new_failures'], 'known_failures': totals['known_failures']},
            {'overall': rate(ok, run), 'by_op': {op: rate(*v) for op, v in by_op.items()}},
            counts, matrix)


def write(template, out, n, frac):
    with open(template) as f:
        t = json.load(f)
    plans, heads = [], []
    summary = collections.Counter()
    for b in t['backends']:
        order = plan(b['cases'], n, frac)
        totals, rates, counts, matrix = tallies(b, b['cases'], order)
        head = {k: v for k, v in b.items() if k != 'cases'}
        head.update(totals=totals, pass_rates=rates, counts=counts, status_matrix=matrix)
        plans.append(order)
        heads.append(head)
        for k in ('cases', 'new_failures', 'known_failures'):
            summary[k] += totals[k]
    doc = {k: v for k, v in t.items() if k != 'backends'}
    doc['summary'] = dict(t['summary'], backends=len(heads), **summary)
    with open(out, 'w') as f:
        f.write(json.dumps(doc)[:-1] + ', "backends": [')
        for bi, (b, head, order) in enumerate(zip(t['backends'], heads, plans)):
            # Each template case serialised once, its id written apart.
            texts = []
            for c in b['cases']:
                rest = json.dumps({k: v for k, v in c.items() if k != 'id'})
                texts.append((c['id'], rest[1:]))
            f.write((', ' if bi else '') + json.dumps(head)[:-1] + ', "cases": [')
            for i, k in enumerate(order):
                cid, rest = texts[k]
                f.write((',' if i else '') + '{"id": ' + json.dumps('%s~%d' % (cid, i)) +
                        (', ' + rest if rest != '}' else '}'))
            f.write(']}')
        f.write(']}\n')


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('template')
    p.add_argument('out')
    p.add_argument('--cases', type=int, required=True, help='cases per backend')
    p.add_argument('--failing', type=float, default=1.0, help='fraction failing (0..1)')
    a = p.parse_args()
    write(a.template, a.out, a.cases, a.failing)
    return 0


if __name__ == '__main__':
    sys.exit(main())
