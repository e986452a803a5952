#!/usr/bin/env python3
"""`dmconf report merge` fails exactly where the unsharded run fails, and checks the shard set.

    merge_verdict_test.py DMCONF WORK_DIR UNSUPPORTED_PLUGIN

1. One rule for "does this run fail": a configuration that fails only because of a strict flag
   (--strict-expectations with an entry that matches nothing; --strict-coverage with a plugin
   that answers UNSUPPORTED to its whole declared slice) runs whole and as shards 1/2, 2/2.
   The merge of the shards must exit as the whole run does (1), and the same commands without
   the strict flag must both exit 0.
2. The shard set: shards 1-3 of 4 are refused (report.merge.shards_missing naming 4/4), so are
   1/4 with 1/3, a shard with an unsharded report, a report of another dmconf version
   (report.merge.shards_mixed) and a shard given twice (report.merge.shards_repeated); all four
   merge (exit 0). Two unsharded reports of the same backend overlap
   (report.merge.duplicate_case).
"""
import json
import os
import shutil
import subprocess
import sys


def fail(msg):
    print('merge_verdict_test: FAIL: ' + msg)
    sys.exit(1)


def run(dmconf, args, report):
    p = subprocess.run([dmconf, 'run'] + args + ['--quiet', '--report', report],
                       capture_output=True, text=True, timeout=600)
    if p.returncode not in (0, 1):
        fail('dmconf run %s: exit status %d: %s' % (' '.join(args), p.returncode, p.stderr))
    return p.returncode


def merge(dmconf, work, reports):
    p = subprocess.run([dmconf, 'report', 'merge'] + reports +
                       ['-o', os.path.join(work, 'merged.json')],
                       capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout + p.stderr


def same_exit(dmconf, work, name, args, want):
    whole = run(dmconf, args, os.path.join(work, name + '-whole.json'))
    shards = [os.path.join(work, '%s-%d.json' % (name, k)) for k in (1, 2)]
    for k, path in enumerate(shards, 1):
        run(dmconf, args + ['--shard', '%d/2' % k], path)
    merged, out = merge(dmconf, work, shards)
    if whole != want or merged != want:
        fail('%s: the whole run exits %d, the merge of its shards %d (both must be %d): %s' %
             (name, whole, merged, want, out.strip()))
    print('ok   %s: whole run and merged shards both exit %d' % (name, want))


def strict_checks(dmconf, work, plugin):
    exp = os.path.join(work, 'stale.json')
    with open(exp, 'w') as f:
        json.dump({'format': 'dmconf-expectations/1',
                   'known_failures': [{'backend': 'oracle', 'case': '*', 'verdict': 'hang',
                                       'reason': 'stale on purpose'}]}, f)
    base = ['--backend', 'oracle', '--count', '20', '--shape-count', '10', '--expectations', exp]
    same_exit(dmconf, work, 'stale', base, 0)
    same_exit(dmconf, work, 'stale-strict', base + ['--strict-expectations'], 1)
    base = ['--backend-lib', plugin, '--ops', 'd2s', '--count', '20', '--no-shapes']
    same_exit(dmconf, work, 'coverage', base, 0)
    same_exit(dmconf, work, 'coverage-strict', base + ['--strict-coverage'], 1)


def expect_refused(dmconf, work, reports, rule, text):
    code, out = merge(dmconf, work, reports)
    if code != 2 or rule not in out or text not in out:
        fail('merge %s: exit %d, output %r (want exit 2 with %s ... %s)' %
             ([os.path.basename(r) for r in reports], code, out, rule, text))
    print('ok   refused with %s: %s' % (rule, [os.path.basename(r) for r in reports]))


def shard_set_checks(dmconf, work):
    args = ['--backend', 'oracle', '--count', '20', '--no-shapes']
    q = [os.path.join(work, 'q%d.json' % k) for k in (1, 2, 3, 4)]
    for k, path in enumerate(q, 1):
        run(dmconf, args + ['--shard', '%d/4' % k], path)
    t1 = os.path.join(work, 't1.json')
    run(dmconf, args + ['--shard', '1/3'], t1)
    whole = os.path.join(work, 'unsharded.json')
    run(dmconf, args, whole)
    other = os.path.join(work, 'q4-other-version.json')
    with open(q[3]) as f:
        r = json.load(f)
    r['run']['dmconf_version'] = '0.0.1'
    with open(other, 'w') as f:
        json.dump(r, f)
    expect_refused(dmconf, work, q[:3], 'report.merge.shards_missing', 'shard 4/4 is missing')
    expect_refused(dmconf, work, [q[0], q[2]], 'report.merge.shards_missing',
                   'shards 2/4, 4/4 are missing')
    expect_refused(dmconf, work, [q[0], t1], 'report.merge.shards_mixed', 'shard 1/3')
    expect_refused(dmconf, work, [q[0], whole], 'report.merge.shards_mixed', 'is not a shard')
    expect_refused(dmconf, work, q[:3] + [other], 'report.merge.shards_mixed', '0.0.1')
    expect_refused(dmconf, work, q + [q[1]], 'report.merge.shards_repeated',
                   'shard 2/4 is given twice')
    expect_refused(dmconf, work, [whole, whole], 'report.merge.duplicate_case', 'oracle')
    code, out = merge(dmconf, work, q)
    if code != 0:
        fail('the four shards of 4 must merge (exit 0): exit %d: %s' % (code, out))
    print('ok   shards 1/4 .. 4/4 merge')


def main():
    dmconf, work, plugin = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    strict_checks(dmconf, work, plugin)
    shard_set_checks(dmconf, work)
    print('merge_verdict_test: ok')
    return 0


if __name__ == '__main__':
    sys.exit(main())
