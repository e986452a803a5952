#!/usr/bin/env python3
"""`dmconf run --shard K/N`: the N shards of one command run each of its cases exactly once.

    run_shard_test.py DMCONF SOURCE_DIR WORK_DIR SHAPE_PLUGIN

One command (the oracle; the example plugin, narrow, so it also gets directed sweep cases; a
plugin with shape inference, so the shape lane runs; the catalogue, its sweep and the golden
kernel and shape vector files) runs whole and as shards 1/3, 2/3, 3/3. The multiset of
(backend, lane, case id, verdict) over the shards must equal the whole run's; every shard is
non-empty; a shard run twice selects the same cases; a bad --shard is a usage error.
"""
import collections
import json
import os
import shutil
import subprocess
import sys


def fail(msg):
    print('run_shard_test: FAIL: ' + msg)
    sys.exit(1)


def run(dmconf, args, report):
    p = subprocess.run([dmconf, 'run'] + args + ['--quiet', '--report', report],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=900)
    if p.returncode not in (0, 1):
        fail('dmconf run %s: exit status %d: %s' % (' '.join(args), p.returncode, p.stderr))
    with open(report) as f:
        r = json.load(f)
    return collections.Counter((b['name'], c.get('lane', ''), c['id'], c['verdict'])
                               for b in r['backends'] for c in b['cases'])


def main():
    dmconf, src, work, plugin = sys.argv[1:5]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    args = ['--backend', 'oracle,example', '--backend-lib', plugin, '--count', '60',
            '--shape-count', '40', '--vectors', os.path.join(src, 'vectors/golden'),
            '--vectors', os.path.join(src, 'vectors/shapes'), '--timeout', '5']
    whole = run(dmconf, args, os.path.join(work, 'whole.json'))
    lanes = {lane for (_, lane, _, _) in whole}
    if not {'', 'shape_static', 'shape_partial'} <= lanes:
        fail('the whole run lacks a lane: %s' % sorted(lanes))
    union = collections.Counter()
    for k in (1, 2, 3):
        part = run(dmconf, args + ['--shard', '%d/3' % k], os.path.join(work, 's%d.json' % k))
        if not part:
            fail('shard %d/3 is empty' % k)
        both = set(part) & set(union)
        if both:
            fail('shard %d/3 repeats cases of an earlier shard: %s' % (k, sorted(both)[:5]))
        union += part
    if union != whole:
        fail('the shards differ from the whole run: %d cases only in the shards, %d only in '
             'the whole run' % (sum((union - whole).values()), sum((whole - union).values())))
    again = run(dmconf, args + ['--shard', '2/3'], os.path.join(work, 's2-again.json'))
    part2 = run(dmconf, args + ['--shard', '2/3'], os.path.join(work, 's2.json'))
    if again != part2:
        fail('shard 2/3 is not deterministic')
    for bad in ('0/3', '4/3', '1/0', '1', 'a/b', '1/3/5', '-1/3', '1/1000001'):
        p = subprocess.run([dmconf, 'run', '--backend', 'oracle', '--shard', bad],
                           capture_output=True, text=True, timeout=60)
        if p.returncode != 2 or 'cli.shard' not in p.stderr:
            fail('--shard %s: exit status %d, stderr %r' % (bad, p.returncode, p.stderr))
    print('run_shard_test: ok (%d cases in 3 shards)' % sum(whole.values()))
    return 0


if __name__ == '__main__':
    sys.exit(main())
