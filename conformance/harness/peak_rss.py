"""What the memory tests (merge_memory_test.py, html_memory_test.py, run_memory_test.py) share:
a command's peak resident set, and the verdict on how much it grew.

The peak is the process's own maximum resident set (os.wait4's ru_maxrss, which the kernel
keeps across exec), so allocations at any moment count, not only those a poll sees.
"""
import os
import subprocess


def peak_mib(cmd):
    """Runs cmd; returns (exit status, its peak resident set in MiB)."""
    with open(os.devnull, "wb") as null:
        proc = subprocess.Popen(cmd, stdout=null, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(proc.pid, 0)
    return os.waitstatus_to_exitcode(status), usage.ru_maxrss / 1024.0


def judge_growth(growth, bound, unit, what, cause):
    """0 when growth < bound (printed "ok"), else 1 with "FAIL: <what> grew by ... : <cause>"."""
    if growth >= bound:
        print(f"FAIL: {what} grew by {growth:.2f} {unit} (bound {bound} {unit}): {cause}")
        return 1
    print(f"ok: {what} grew by {growth:.2f} {unit} (bound {bound} {unit})")
    return 0
