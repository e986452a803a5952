#!/usr/bin/env python3
"""`dmconf run` does not hold the sweep's cases: the kernel lane's peak resident set grows by
less than BOUND_KIB per case between a run of --count SMALL and one of FACTOR * SMALL
(--no-shapes, the oracle backend, no shrinking). The sweep's cases are unheld
(harness/runner/case_list.h): kept as their sweep index and four facts, 8 bytes, and made
whole again as they run. Held whole, with their data and expected outputs, the slope was
4.15 KiB per case (5257 to 19783 cases); held hollow, without data bytes and expected output,
1.37 KiB (the case's description and its result); unheld, 0.28 KiB (the result).

The peak is the run's own maximum resident set (os.wait4's ru_maxrss), and the case counts are
those of the written report, so the slope is per case the run held.

Usage: run_memory_test.py DMCONF WORK_DIR
"""
import json
import os
import shutil
import sys

from peak_rss import judge_growth, peak_mib

SMALL, FACTOR = 5000, 4
BOUND_KIB = 0.7  # allowed growth of the peak per kernel case


def main():
    dmconf, work = sys.argv[1:3]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    points = []
    for count in (SMALL, FACTOR * SMALL):
        report = os.path.join(work, f"run-{count}.json")
        status, peak = peak_mib([dmconf, "run", "--backend", "oracle", "--count", str(count),
                                 "--no-shapes", "--no-shrink", "--quiet", "--report", report])
        if status != 0:
            print(f"FAIL: dmconf run --count {count} exited {status}")
            return 1
        with open(report, encoding="utf-8") as f:
            cases = json.load(f)["summary"]["cases"]
        print(f"dmconf run --count {count}: {cases} cases, peak RSS {peak:.1f} MiB")
        points.append((cases, peak))
    (c0, p0), (c1, p1) = points
    if c1 <= c0:
        print("FAIL: the larger run holds no more cases than the smaller one")
        return 1
    return judge_growth((p1 - p0) * 1024.0 / (c1 - c0), BOUND_KIB, "KiB",
                        f"the peak per case from {c0} to {c1} cases",
                        "the run holds its sweep cases")


if __name__ == "__main__":
    sys.exit(main())
