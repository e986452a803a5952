#!/usr/bin/env python3
"""`dmconf run --shard K/N` and `dmconf report merge`.

    run_shard_test.py DMCONF SOURCE_DIR WORK_DIR SHAPE_PLUGIN

One command (the oracle; the example plugin, narrow, so it also gets directed sweep cases; a
plugin with shape inference, so the shape lane runs; the catalogue, its sweep and the golden
kernel and shape vector files) runs whole and as shards 1/3, 2/3, 3/3. The multiset of
(backend, lane, case id, verdict) over the shards must equal the whole run's; every shard is
non-empty; a shard run twice selects the same cases; a bad --shard is a usage error.
`dmconf report merge` of the three shard reports (with --junit) gives the whole run's report
(apart from "run", "options", the order of cases and the seconds spent shrinking) and its JUnit test cases, and validates
against the schema with Ajv (when scripts/install-report-validator.sh has installed it); the
same shard twice, or reports with other options, are refused by rule with exit status 2.
"""
import collections
import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree


def fail(msg):
    print('run_shard_test: FAIL: ' + msg)
    sys.exit(1)


def run(dmconf, args, report, junit=None):
    extra = ['--junit', junit] if junit else []
    p = subprocess.run([dmconf, 'run'] + args + ['--quiet', '--report', report] + extra,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=900)
    if p.returncode not in (0, 1):
        fail('dmconf run %s: exit status %d: %s' % (' '.join(args), p.returncode, p.stderr))
    with open(report) as f:
        r = json.load(f)
    return collections.Counter((b['name'], c.get('lane', ''), c['id'], c['verdict'])
                               for b in r['backends'] for c in b['cases'])


def comparable(report):
    with open(report) as f:
        r = json.load(f)
    del r['run'], r['options']
    for b in r['backends']:
        for c in b['cases']:
            # Wall time of shrinking: differs between any two runs.
            c.get('shrunk', {}).pop('seconds', None)
        b['cases'].sort(key=lambda c: json.dumps(c, sort_keys=True))
    return r


def testcases(junit):
    return collections.Counter((t.get('classname'), t.get('name'), tuple(sorted(
        (child.tag, child.get('type', '')) for child in t)))
        for t in xml.etree.ElementTree.parse(junit).getroot().iter('testcase'))


def merge_checks(dmconf, src, work):
    shards = [os.path.join(work, 's%d.json' % k) for k in (1, 2, 3)]
    merged, junit = os.path.join(work, 'merged.json'), os.path.join(work, 'merged.xml')
    p = subprocess.run([dmconf, 'report', 'merge'] + shards + ['-o', merged, '--junit', junit],
                       capture_output=True, text=True, timeout=300)
    if p.returncode not in (0, 1):
        fail('report merge: exit status %d: %s' % (p.returncode, p.stderr))
    if comparable(merged) != comparable(os.path.join(work, 'whole.json')):
        fail('the merged report differs from the whole run\'s')
    with open(merged) as f:
        if json.load(f)['options'].get('shards') != ['1/3', '2/3', '3/3']:
            fail('the merged options do not list the shards')
    if testcases(junit) != testcases(os.path.join(work, 'whole.xml')):
        fail('the merged JUnit test cases differ from the whole run\'s')
    validator = os.path.join(src, 'reports/validator')
    if os.path.isfile(os.path.join(validator, 'node_modules/ajv/package.json')):
        v = subprocess.run(['node', os.path.join(validator, 'validate.js'),
                            os.path.join(src, 'reports/dmconf-report-2.schema.json'), merged],
                           capture_output=True, text=True, timeout=300)
        if v.returncode != 0:
            fail('the merged report is not valid: ' + v.stdout + v.stderr)
    else:
        print('run_shard_test: Ajv not installed; merged report not validated')
    other = os.path.join(work, 'other.json')
    run(dmconf, ['--backend', 'oracle', '--count', '7', '--shard', '1/3'], other)
    for inputs, rule in (([shards[0], shards[1], shards[2], shards[0]], 'report.merge.shards_repeated'),
                         ([shards[0], other], 'report.merge.options_differ')):
        p = subprocess.run([dmconf, 'report', 'merge'] + inputs + ['-o', os.path.join(work, 'x.json')],
                           capture_output=True, text=True, timeout=300)
        if p.returncode != 2 or rule not in p.stderr:
            fail('merge %s: exit status %d, stderr %r (expected %s)' %
                 (inputs, p.returncode, p.stderr, rule))


def main():
    dmconf, src, work, plugin = sys.argv[1:5]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    args = ['--backend', 'oracle,example', '--backend-lib', plugin, '--count', '60',
            '--shape-count', '40', '--vectors', os.path.join(src, 'vectors/golden'),
            '--vectors', os.path.join(src, 'vectors/shapes'), '--timeout', '5']
    whole = run(dmconf, args, os.path.join(work, 'whole.json'), os.path.join(work, 'whole.xml'))
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
    merge_checks(dmconf, src, work)
    print('run_shard_test: ok (%d cases in 3 shards, merged)' % sum(whole.values()))
    return 0


if __name__ == '__main__':
    sys.exit(main())
