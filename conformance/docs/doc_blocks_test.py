#!/usr/bin/env python3
"""The guides are executable: every fenced block of the given Markdown files is marked, and the
runnable ones run (docs/vendor-guide.md, "How this guide is tested").

A marker is an HTML comment on the last non-blank line before the block's opening fence:

  <!-- illustration: WHY -->   not run (WHY: what it stands for, or where it is covered)
  <!-- file: NAME -->          the block is written to NAME in the work folder (C code, JSON)
  <!-- same-as: PATH -->       the block is byte for byte the source tree's file PATH, from
                               its first #include line on (an opening comment may be left out)
  <!-- run -->                 a shell block, run by bash -e in the work folder; must exit 0
  <!-- run: exit=N -->         the same, must exit N
  <!-- output -->              the output of the last run block (stdout and stderr): each part
                               between lines `...` appears in it as consecutive lines, in
                               order; run times ("0.2 s") are compared as "N s"

The work folder is a fresh copy of the source tree's layout (its top-level entries linked, not
build/), in which build/dev/harness/cli/dmconf and build/release/harness/cli/dmconf are the
dmconf under test, and PATH starts with the latter's folder (vendor-guide.md, section 1).
The blocks of one file run in order, in one work folder. An unmarked block, an unknown marker,
a run block that exits otherwise, an output that differs: the test fails, naming the file and
line.

Usage: doc_blocks_test.py --dmconf BIN --source DIR FILE.md...
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

FENCE = re.compile(r'^(```+|~~~+)\s*([A-Za-z0-9_+-]*)')
MARKER = re.compile(r'^<!--\s*(illustration|file|same-as|run|output)\b:?\s*(.*?)\s*-->\s*$')
TIME = re.compile(r'\b\d+(\.\d+)? s\b')
RUN_TIMEOUT = 600


def blocks(path):
    """(line, info, marker, argument, text) of every fenced block of a Markdown file."""
    lines = open(path, encoding='utf-8').read().split('\n')
    out, i = [], 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, info, start = m.group(1), m.group(2), i
        j = i + 1
        while j < len(lines) and not lines[j].startswith(fence):
            j += 1
        text = '\n'.join(lines[i + 1:j]) + '\n'
        k = start - 1
        while k >= 0 and not lines[k].strip():
            k -= 1
        mm = MARKER.match(lines[k].strip()) if k >= 0 else None
        out.append((start + 1, info, mm.group(1) if mm else None, mm.group(2) if mm else '',
                    text))
        i = j + 1
    return out


def work_folder(source, dmconf):
    w = tempfile.mkdtemp(prefix='dmconf-doc-')
    for name in os.listdir(source):
        if name not in ('build', '.git'):
            os.symlink(os.path.join(source, name), os.path.join(w, name))
    for preset in ('dev', 'release'):
        d = os.path.join(w, 'build', preset, 'harness', 'cli')
        os.makedirs(d)
        os.symlink(os.path.abspath(dmconf), os.path.join(d, 'dmconf'))
    return w


def normalise(line):
    return TIME.sub('N s', line.rstrip())


def output_matches(sample, actual):
    """'' when every `...`-separated part of sample is consecutive lines of actual, in order."""
    got = [normalise(l) for l in actual.split('\n')]
    parts, cur = [], []
    for l in sample.rstrip('\n').split('\n'):
        if l.strip() == '...':
            if cur:
                parts.append(cur)
            cur = []
        else:
            cur.append(normalise(l))
    if cur:
        parts.append(cur)
    at = 0
    for part in parts:
        found = next((s for s in range(at, len(got) - len(part) + 1)
                      if got[s:s + len(part)] == part), None)
        if found is None:
            return 'this part is not in the output (after line %d):\n  %s' % (
                at + 1, '\n  '.join(part))
        at = found + len(part)
    return ''


def check_file(path, source, dmconf, env):
    errors, w = [], work_folder(source, dmconf)
    env = dict(env, PATH=os.path.join(w, 'build', 'release', 'harness', 'cli') + os.pathsep +
               env.get('PATH', ''))
    last_output, counts = None, {}
    rel = os.path.relpath(path, source)
    try:
        for line, info, marker, arg, text in blocks(path):
            where = '%s:%d' % (rel, line)
            counts[marker] = counts.get(marker, 0) + 1
            if marker is None:
                errors.append('%s: a ```%s block without a marker (<!-- run -->, <!-- '
                              'illustration: why -->, ...)' % (where, info))
            elif marker == 'illustration' and not arg:
                errors.append('%s: an illustration must say why it is not run' % where)
            elif marker == 'file':
                with open(os.path.join(w, arg), 'w', encoding='utf-8') as f:
                    f.write(text)
            elif marker == 'same-as':
                want = open(os.path.join(source, arg), encoding='utf-8').read()
                at = want.find('#include')
                if text not in (want, want[at:] if at >= 0 else want):
                    errors.append('%s: the block differs from %s' % (where, arg))
            elif marker == 'run':
                m = re.fullmatch(r'(exit=(\d+))?', arg)
                want = int(m.group(2)) if m and m.group(2) else 0
                p = subprocess.run(['bash', '-e', '-o', 'pipefail', '-c', text], cwd=w, env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   timeout=RUN_TIMEOUT, check=False)
                last_output = p.stdout.decode('utf-8', 'replace')
                print('ran %s (exit %d)' % (where, p.returncode))
                if p.returncode != want:
                    errors.append('%s: exited %d, not %d; output:\n%s' % (
                        where, p.returncode, want, last_output[-3000:]))
            elif marker == 'output':
                if last_output is None:
                    errors.append('%s: an output block before any run block' % where)
                    continue
                why = output_matches(text, last_output)
                if why:
                    errors.append('%s: the sample output is not the real one: %s\nthe real '
                                  'output:\n%s' % (where, why, last_output[-4000:]))
    finally:
        shutil.rmtree(w, ignore_errors=True)
    print('%s: %s' % (rel, ', '.join('%d %s' % (n, k or 'unmarked')
                                     for k, n in sorted(counts.items(), key=str))))
    return errors


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--dmconf', required=True)
    ap.add_argument('--source', required=True)
    ap.add_argument('files', nargs='+')
    a = ap.parse_args()
    errors = []
    for f in a.files:
        errors += check_file(os.path.join(a.source, f), a.source, a.dmconf, dict(os.environ))
    for e in errors:
        print('FAIL: ' + e)
    print('%d problem(s)' % len(errors))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
