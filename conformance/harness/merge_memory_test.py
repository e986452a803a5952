#!/usr/bin/env python3
"""`dmconf report merge` in bounded memory: the peak resident set of merging 4 shards of M
cases and of 4 shards of 4M cases differ by less than a small fixed bound (the merge reads
each shard one case at a time and holds 8 bytes per case across shards: 0.3 MB more here).
Before the streamed merge every case was held (about 10 KB each: some 300 MB more here).

The peak is the merge process's own maximum resident set (os.wait4's ru_maxrss, which the
kernel keeps across exec), so allocations at any moment count, not only those a poll sees.

Usage: merge_memory_test.py DMCONF SOURCE_DIR WORK_DIR
"""
import os
import shutil
import subprocess
import sys

from peak_rss import judge_growth, peak_mib

SMALL, FACTOR, SHARDS = 2500, 4, 4
BOUND_MIB = 12.0  # allowed growth of the peak from SMALL to FACTOR * SMALL cases per shard


def main():
    dmconf, source, work = sys.argv[1:4]
    sys.path.insert(0, os.path.join(source, "bench"))
    import synthetic_shards  # pylint: disable=import-outside-toplevel

    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    template = os.path.join(work, "template.json")
    subprocess.run([dmconf, "run", "--backend", "oracle", "--count", "40", "--no-shrink",
                    "--quiet", "--report", template], check=True, stdout=subprocess.DEVNULL)
    peaks = []
    for n in (SMALL, FACTOR * SMALL):
        shards = synthetic_shards.write_shards(template, os.path.join(work, f"s{n}"), SHARDS, n)
        merged = os.path.join(work, f"merged-{n}.json")
        status, peak = peak_mib([dmconf, "report", "merge", *shards, "-o", merged])
        if status != 0:
            print(f"FAIL: merge of {SHARDS} x {n} cases exited {status}")
            return 1
        with open(merged, encoding="utf-8") as f:
            head = f.read(1 << 16)
        want = f'"cases": {SHARDS * n},'
        if want not in head:
            print(f"FAIL: the merged summary does not hold {want}")
            return 1
        print(f"merge of {SHARDS} shards x {n} cases: peak RSS {peak:.1f} MiB")
        peaks.append(peak)
    return judge_growth(peaks[1] - peaks[0], BOUND_MIB, "MiB",
                        f"the peak from {SHARDS * SMALL} to {SHARDS * FACTOR * SMALL} cases",
                        "memory grows with the number of cases")


if __name__ == "__main__":
    sys.exit(main())
