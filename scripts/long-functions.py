#!/usr/bin/env python3
"""Lists the functions of the C/C++ sources that are longer than a limit.

    scripts/long-functions.py [--limit 80] [DIR ...]     (default: oracle harness fuzz bench)

A function is a top-level or class-level body that a line ending in ')', ') const', ')
override' or the like opens with '{' (on that line or the next); its length is the number of
lines from its signature to its closing brace. Lambdas and initializer lists inside a body
count toward their function. Prints `path:line: name: N lines`, longest first, then the count.
Comments and strings are stripped before braces are matched.
"""
import os
import re
import sys

SIG_END = re.compile(r'\)\s*(const)?\s*(noexcept)?\s*(override)?\s*(->\s*[\w:<>,\s*&]+)?\s*\{?\s*$')
NAME = re.compile(r'([~\w:]+)\s*\(')


def strip(text):
    text = re.sub(r'/\*.*?\*/', lambda m: '\n' * m.group(0).count('\n'), text, flags=re.S)
    text = re.sub(r'//[^\n]*', '', text)
    text = re.sub(r'"(\\.|[^"\\\n])*"', '""', text)
    text = re.sub(r"'(\\.|[^'\\\n])*'", "''", text)
    return text


def functions(path):
    lines = strip(open(path, encoding='utf-8', errors='replace').read()).split('\n')
    depth = 0
    out = []
    i = 0
    start = None
    name = None
    fdepth = None
    while i < len(lines):
        line = lines[i]
        if start is None and depth <= 2:
            s = line.rstrip()
            nxt = lines[i + 1].strip() if i + 1 < len(lines) else ''
            opens = s.endswith('{') or (nxt.startswith('{') and not s.endswith(';'))
            if SIG_END.search(s) and opens and not re.match(r'\s*(if|for|while|switch|catch)\b', s):
                # the signature may span lines: walk back to its first line
                j = i
                while j > 0 and '(' not in lines[j] and lines[j - 1].strip() and \
                        not lines[j - 1].rstrip().endswith((';', '{', '}')):
                    j -= 1
                sig = ' '.join(l.strip() for l in lines[j:i + 1])
                m = NAME.search(sig)
                if m and m.group(1) not in ('if', 'for', 'while', 'switch', 'return'):
                    start, name, fdepth = j, m.group(1), depth
        for ch in line:
            if ch == '{':
                depth += 1
            elif ch == '}':
                depth -= 1
                if start is not None and depth == fdepth:
                    out.append((i - start + 1, start + 1, name))
                    start = None
        i += 1
    return out


def main():
    args = sys.argv[1:]
    limit = 80
    if len(args) >= 2 and args[0] == '--limit':
        limit = int(args[1])
        args = args[2:]
    dirs = args or ['oracle', 'harness', 'fuzz', 'bench']
    found = []
    for d in dirs:
        for root, _, files in os.walk(d):
            for f in files:
                if f.endswith(('.cc', '.c', '.cpp')) and not f.endswith('_test.cc'):
                    p = os.path.join(root, f)
                    for n, line, name in functions(p):
                        if n > limit:
                            found.append((n, p, line, name))
    for n, p, line, name in sorted(found, reverse=True):
        print(f'{p}:{line}: {name}: {n} lines')
    print(f'{len(found)} function(s) over {limit} lines')


if __name__ == '__main__':
    main()
