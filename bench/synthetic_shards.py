#!/usr/bin/env python3
"""Synthetic shard reports for `dmconf report merge`: N reports `shard K/N` of M cases each,
made from a real report (its head and its cases as templates, each case given a new id).

Each id is one that `dmconf run --shard K/N` would run in shard K (harness/runner/shard.h:
FNV-1a of the id, 64 bits, modulo N, plus 1), so the set is one command's shards as far as
the merge can tell. Written a case at a time: the generator's memory does not grow with M.

Usage:
  dmconf run --backend oracle --count 50 --no-shrink --report template.json
  bench/synthetic_shards.py template.json out/ --shards 64 --cases 100000
"""
import argparse
import json
import os

_ID = "@@dmconf-synthetic-id@@"
_CASES = "@@dmconf-synthetic-cases@@"


def shard_of(case_id, count):
    """harness/runner/shard.cc ShardOf: FNV-1a over the id's bytes."""
    h = 14695981039346656037
    for b in case_id.encode():
        h ^= b
        h = (h * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h % count + 1


def _head_parts(report, k, n):
    """The report's text before and after its one backend's cases, as shard k of n."""
    head = json.loads(json.dumps(report))
    head["backends"] = head["backends"][:1]
    head["backends"][0]["cases"] = _CASES
    if n > 1:
        head["options"]["shard"] = f"{k}/{n}"
    else:
        head["options"].pop("shard", None)
    head["options"].pop("shards", None)
    text = json.dumps(head, indent=1)
    before, after = text.split(json.dumps(_CASES))
    return before + "[\n", "\n]" + after + "\n"


def write_shards(template, out_dir, shards, cases, prefix="synthetic"):
    """Writes out_dir/shard-K.json for K = 1..shards; returns their paths."""
    with open(template, encoding="utf-8") as f:
        report = json.load(f)
    patterns = []
    for c in report["backends"][0]["cases"]:
        c = dict(c)
        c.pop("known", None)
        patterns.append(json.dumps(dict(c, id=_ID)).split(json.dumps(_ID)))
    os.makedirs(out_dir, exist_ok=True)
    paths = [os.path.join(out_dir, f"shard-{k}.json") for k in range(1, shards + 1)]
    files = [open(p, "w", encoding="utf-8") for p in paths]
    tails, written = [], [0] * shards
    for k, f in enumerate(files, start=1):
        before, after = _head_parts(report, k, shards)
        f.write(before)
        tails.append(after)
    i, full = 0, 0
    while full < shards:
        case_id = f"{prefix}.{i}"
        k = shard_of(case_id, shards) - 1
        if written[k] < cases:
            a, b = patterns[i % len(patterns)]
            files[k].write((",\n" if written[k] else "") + a + json.dumps(case_id) + b)
            written[k] += 1
            full += written[k] == cases
        i += 1
    for f, tail in zip(files, tails):
        f.write(tail)
        f.close()
    return paths


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("template")
    p.add_argument("out_dir")
    p.add_argument("--shards", type=int, default=64)
    p.add_argument("--cases", type=int, default=100000)
    a = p.parse_args()
    for path in write_shards(a.template, a.out_dir, a.shards, a.cases):
        print(path)


if __name__ == "__main__":
    main()
