#!/usr/bin/env python3
"""`dmconf report html` in bounded memory: the peak resident set of the page of a report of N
cases per backend and of one of 4N differ by less than a small fixed bound. The page embeds at
most --max-failures failing cases (here 50, so both pages embed as many) and counts the others;
`report html` reads the report one case at a time, twice, and holds the embedded cases and the
counts only. Before it streamed, the whole report was held as one JSON document (some 300 MB
more here).

The peak is the process's own maximum resident set (os.wait4's ru_maxrss), so allocations at
any moment count, not only those a poll sees.

Usage: html_memory_test.py DMCONF SOURCE_DIR WORK_DIR
"""
import os
import shutil
import subprocess
import sys

from peak_rss import judge_growth, peak_mib

SMALL, FACTOR = 2500, 4  # cases per backend
CAP = 50                 # --max-failures
BOUND_MIB = 12.0         # allowed growth of the peak from SMALL to FACTOR * SMALL cases


def main():
    dmconf, source, work = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    template = os.path.join(work, "template.json")
    # The oracle passes every case, the mutant fails some: passing and failing cases both.
    subprocess.run([dmconf, "run", "--backend", "oracle,mutant.d2s_mode_swapped", "--count", "40",
                    "--no-shrink", "--quiet", "--report", template], check=True,
                   stdout=subprocess.DEVNULL)
    synthetic = os.path.join(source, "bench", "synthetic_report.py")
    peaks = []
    for n in (SMALL, FACTOR * SMALL):
        report = os.path.join(work, f"r{n}.json")
        subprocess.run([sys.executable, synthetic, template, report, "--cases", str(n),
                        "--failing", "0.2"], check=True, stdout=subprocess.DEVNULL)
        page = os.path.join(work, f"r{n}.html")
        status, peak = peak_mib([dmconf, "report", "html", report, "-o", page,
                                 "--max-failures", str(CAP)])
        if status != 0:
            print(f"FAIL: report html of {n} cases per backend exited {status}")
            return 1
        with open(page, encoding="utf-8") as f:
            text = f.read()
        # The summary counts every case of both backends; the page embeds CAP failing cases.
        want = f'"cases":{2 * n},'
        embedded = f'"embedded":{{"cap":{CAP},"embedded":{CAP},'
        if want not in text or embedded not in text:
            print(f"FAIL: the page of {n} cases per backend lacks {want} or {embedded}")
            return 1
        print(f"report html of {n} cases per backend: peak RSS {peak:.1f} MiB")
        peaks.append(peak)
    return judge_growth(peaks[1] - peaks[0], BOUND_MIB, "MiB",
                        f"the peak from {SMALL} to {FACTOR * SMALL} cases per backend",
                        "memory grows with the number of cases")


if __name__ == "__main__":
    sys.exit(main())
