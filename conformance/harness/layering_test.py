#!/usr/bin/env python3
"""The harness's floors (harness/README.md) hold in the code.

    layering_test.py SOURCE_DIR          check the tree
    layering_test.py --self-test         check that the checker catches what it must

Reads the table of harness/README.md ("| `room/` | holds | may include |") and fails when:
  - a file of a room includes a header of another room not listed as allowed for it;
  - a folder of harness/ that holds sources is not a room on the map (or a room has no folder);
  - the table itself has a cycle (two rooms that may include each other, directly or not);
  - a file of oracle/ includes a header of the harness (the oracle stands below everything).
Each failure names the file, the line and the rule broken.
"""
import os
import re
import sys
import tempfile

SOURCE_EXT = ('.h', '.cc', '.c')
INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
ROW_RE = re.compile(r'^\|\s*`([a-z_/]+)`\s*\|(.*)\|(.*)\|\s*$')
ROOM_RE = re.compile(r'`([a-z_/]+)`')


def room_of(parts):
    """The room of a path below harness/, as parts after 'harness'."""
    if not parts:
        return None
    if parts[0] == 'backends':
        return 'backends/' + parts[1] if len(parts) > 2 else None
    return parts[0] if len(parts) > 1 else None


def norm(name):
    return name.rstrip('/')


def read_map(readme):
    rooms = {}
    everything = set()
    with open(readme, encoding='utf-8') as f:
        for line in f:
            m = ROW_RE.match(line)
            if not m:
                continue
            room = norm(m.group(1))
            allowed = m.group(3)
            if 'every room above' in allowed:
                everything.add(room)
                rooms[room] = set()
            else:
                rooms[room] = {norm(r) for r in ROOM_RE.findall(allowed)}
    for room in everything:
        rooms[room] = {r for r in rooms if r != room}
    return rooms


def table_cycle(rooms):
    """A cycle of the table as a list of rooms, or None."""
    state = {}

    def visit(r, path):
        state[r] = 1
        for d in sorted(rooms.get(r, ())):
            if state.get(d) == 1:
                return path + [r, d]
            if d not in state:
                c = visit(d, path + [r])
                if c:
                    return c
        state[r] = 2
        return None

    for r in sorted(rooms):
        if r not in state:
            c = visit(r, [])
            if c:
                return c
    return None


def check(src):
    errors = []
    readme = os.path.join(src, 'harness', 'README.md')
    if not os.path.isfile(readme):
        return ['layering.map_missing: harness/README.md is missing']
    rooms = read_map(readme)
    if not rooms:
        return ['layering.map_empty: harness/README.md has no table of rooms']
    cyc = table_cycle(rooms)
    if cyc:
        errors.append('layering.table_cycle: harness/README.md lets rooms include each other: ' +
                      ' -> '.join(cyc))
    for r, allowed in sorted(rooms.items()):
        for a in sorted(allowed):
            if a not in rooms:
                errors.append(f'layering.unknown_room: the row of {r} names {a}, not a room')
    harness = os.path.join(src, 'harness')
    seen_rooms = set()
    for root, dirs, files in os.walk(harness):
        dirs.sort()
        rel = os.path.relpath(root, harness)
        parts = [] if rel == '.' else rel.split(os.sep)
        for name in sorted(files):
            if not name.endswith(SOURCE_EXT):
                continue
            room = room_of(parts + [name])
            path = os.path.join('harness', *parts, name)
            if room is None:
                errors.append(f'layering.outside_rooms: {path} is not inside a room')
                continue
            seen_rooms.add(room)
            if room not in rooms:
                errors.append(f'layering.room_not_on_map: {path}: room {room} is not on '
                              'harness/README.md')
                continue
            with open(os.path.join(root, name), encoding='utf-8', errors='replace') as f:
                for n, line in enumerate(f, 1):
                    m = INCLUDE_RE.match(line)
                    if not m:
                        continue
                    inc = m.group(1).split('/')
                    if inc[0] != 'harness':
                        continue
                    dst = room_of(inc[1:])
                    if dst is None or dst == room:
                        continue
                    if dst not in rooms[room]:
                        errors.append(f'layering.include: {path}:{n}: room {room} includes '
                                      f'{m.group(1)} (room {dst}), which its row does not allow')
    for r in sorted(set(rooms) - seen_rooms):
        errors.append(f'layering.empty_room: {r} is on the map but holds no source file')
    oracle = os.path.join(src, 'oracle')
    for root, dirs, files in os.walk(oracle):
        dirs.sort()
        for name in sorted(files):
            if not name.endswith(SOURCE_EXT):
                continue
            path = os.path.relpath(os.path.join(root, name), src)
            with open(os.path.join(root, name), encoding='utf-8', errors='replace') as f:
                for n, line in enumerate(f, 1):
                    m = INCLUDE_RE.match(line)
                    if m and m.group(1).startswith('harness/'):
                        errors.append(f'layering.oracle_includes_harness: {path}:{n}: '
                                      f'{m.group(1)}')
    return errors


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w', encoding='utf-8') as f:
        f.write(text)


def self_test():
    """Builds small trees, each breaking one rule, and checks that exactly that rule fires."""
    table = ('| room | holds | may include |\n|---|---|---|\n'
             '| `base/` | x | |\n| `io/` | x | `base/` |\n| `cli/` | x | every room above |\n')

    def tree(extra_files, readme=table):
        d = tempfile.mkdtemp()
        write(os.path.join(d, 'harness', 'README.md'), readme)
        files = {'harness/base/a.h': '', 'harness/io/b.cc': '#include "harness/base/a.h"\n',
                 'harness/cli/c.cc': '#include "harness/io/b.h"\n#include "harness/base/a.h"\n',
                 'oracle/o.cc': '#include "oracle/o.h"\n'}
        files.update(extra_files)
        for p, t in files.items():
            write(os.path.join(d, p), t)
        return d

    cases = [
        ({}, table, None),
        ({'harness/base/a.h': '#include "harness/io/b.h"\n'}, table, 'layering.include'),
        ({'harness/stray/x.cc': ''}, table, 'layering.room_not_on_map'),
        ({'oracle/o.cc': '#include "harness/base/a.h"\n'}, table, 'layering.oracle_includes_harness'),
        ({}, table.replace('| `base/` | x | |', '| `base/` | x | `io/` |'), 'layering.table_cycle'),
        ({}, table + '| `gone/` | x | |\n', 'layering.empty_room'),
        ({}, table.replace('| `io/` | x | `base/` |', '| `io/` | x | `nowhere/` |'),
         'layering.unknown_room'),
    ]
    failed = 0
    for files, readme, want in cases:
        errs = check(tree(files, readme))
        kinds = {e.split(':')[0] for e in errs}
        ok = (not errs) if want is None else (want in kinds)
        if not ok:
            failed += 1
            print(f'self-test: expected {want or "no error"}, got {errs}')
    print(f'layering self-test: {len(cases) - failed} passed, {failed} failed')
    return 1 if failed else 0


def main():
    if len(sys.argv) == 2 and sys.argv[1] == '--self-test':
        return self_test()
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    errors = check(sys.argv[1])
    for e in errors:
        print(e)
    print(f'layering: {len(errors)} violation(s) of harness/README.md')
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
