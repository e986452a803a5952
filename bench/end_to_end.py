#!/usr/bin/env python3
"""The whole path's benchmark: what a user waits for around the kernels.

Measures, on one machine in one run (docs/performance.md, "End to end"):
  run      `dmconf run` (no shrinking) at each --sizes count, per backend (the oracle, the
           example C-ABI plugin, one real library): cases/s and the peak RSS of the process;
           report, JUnit and HTML written as a user writes them. Ratio printed: time per case
           at the largest size over time per case at the smallest.
  fuzz     `dmconf fuzz --backend-lib <example plugin> --no-shrink` (isolated worker) per lane,
           against the in-process driver `fuzz_backend_diff_random` on the same plugin for the
           same time (its cases judged, not its inputs). Ratio printed: isolated over
           in-process.
  isolation `dmconf run` of the example plugin at the largest --sizes count, through the
           isolated worker and with --no-isolation (in this process). Ratio printed: the
           isolated rate over the in-process rate.
  shrink   `dmconf run` of the example plugin's garbage-writing variant, with and without
           shrinking: seconds per shrunk failure.
  report   `dmconf report html` and `dmconf report merge` (two shards) of the smallest run;
           the page's size and, when chromium is installed, its load in headless Chromium
           (the summary drawn, the page ready: ms from navigation start). With --page-cases N,
           the same for a report of N cases per backend of four backends (the oracle and
           three mutants; all the mutants' cases failing), made by bench/synthetic_report.py
           from a short real run.
  merge    `dmconf report merge` of --merge-shards synthetic shards of --merge-cases cases
           each (bench/synthetic_shards.py: a small run's cases under new ids, each id in its
           shard), then `dmconf report diff` of the merged report against a copy: seconds
           and peak RSS. Not in the default parts (64 x 10^5 cases write 2 GB of shards).
  jobs     `dmconf run --count <--jobs-count>` per backend with --jobs 1 and --jobs 2, one after
           the other, --jobs-repeat times: the whole command's seconds, the seconds inside the
           backend's run (the report's run.backend_seconds) and the load average before each.
           Ratios printed: --jobs 1 over --jobs 2 (the speedup), of the best of each, for the
           whole command and for the backend's run alone; and the median of the whole
           command's ratios of each back-to-back pair (less moved by one lucky run on a
           shared machine). The two reports must agree (their summaries are compared).

Usage:
  cmake --build build/release --target dmconf dmconf_plugin_example dmconf_plugin_fault_garbage \
      fuzz_backend_diff_random
  bench/end_to_end.py --build build/release [--sizes 10000,100000,1000000]
      [--fuzz-seconds 20] [--backends oracle,example,eigen] [--page-cases 250000]
      [--json out.json] [--jobs-count 200000] [--jobs-repeat 3]
The case counts are `--count` of `dmconf run` (the sweep); the catalogue and the shape lane
run beside it, so a run holds more cases than its count: the table reports the cases the
report holds. Figures depend on the machine and its load; run it on an idle machine.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def high_water_mib(pid):
    """The process's peak resident set (VmHWM of its own address space), in MiB."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return 0.0


def measure(cmd, env=None, cwd=None):
    """Runs cmd; returns (exit status, seconds, peak RSS in MiB, stdout text).

    The peak is read from /proc (VmHWM, a high-water mark of the command's own address space)
    every 10 ms while it runs: a fork's rusage would count the Python interpreter it was forked
    from."""
    start = time.monotonic()
    out = tempfile.TemporaryFile()
    proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=cwd,
                            start_new_session=True)
    peak = 0.0
    while proc.poll() is None:
        peak = max(peak, high_water_mib(proc.pid))
        time.sleep(0.01)
    seconds = time.monotonic() - start
    out.seek(0)
    text = out.read().decode("utf-8", "replace")
    return proc.returncode, seconds, peak, text


def report_cases(path):
    """The report's summary.cases, read from the head of the file: the summary comes before
    the backends' cases, and a report of 10^7 cases is too large to load here."""
    with open(path, encoding="utf-8", errors="replace") as f:
        head = f.read(1 << 20)
    m = re.search(r'\n "summary": \{[^}]*?"cases": (\d+)', head)
    if not m:
        sys.exit(f"end_to_end: {path}: no summary.cases in its first MiB")
    return int(m.group(1))


def backend_flag(name, build):
    if name == "example":
        return ["--backend-lib",
                os.path.join(build, "harness", "plugin", "libdmconf_plugin_example.so")]
    return ["--backend", name]


def bench_run(args, dmconf, work, rows):
    sizes = [int(s) for s in args.sizes.split(",")]
    for backend in args.backends.split(","):
        per_case = {}
        for n in sizes:
            out = os.path.join(work, f"run-{backend}-{n}")
            os.makedirs(out, exist_ok=True)
            cmd = [dmconf, "run", *backend_flag(backend, args.build), "--count", str(n),
                   "--no-shrink", "--quiet", "--failures", os.path.join(out, "failures"),
                   "--report", os.path.join(out, "report.json"),
                   "--junit", os.path.join(out, "junit.xml"),
                   "--html", os.path.join(out, "report.html")]
            status, seconds, rss, text = measure(cmd)
            if status not in (0, 1):
                sys.exit(f"end_to_end: {' '.join(cmd)} exited {status}:\n{text[-2000:]}")
            cases = report_cases(os.path.join(out, "report.json"))
            per_case[n] = seconds / max(cases, 1)
            rows.append({"what": "run", "backend": backend, "count": n, "cases": cases,
                         "seconds": seconds, "cases_per_s": cases / seconds, "peak_rss_mib": rss})
            print(f"run  {backend:8} --count {n:>8}: {cases:>9} cases in {seconds:8.1f} s "
                  f"({cases / seconds:9.0f}/s), peak RSS {rss:8.1f} MiB", flush=True)
        if len(sizes) > 1:
            lo, hi = min(sizes), max(sizes)
            ratio = per_case[hi] / per_case[lo]
            rows.append({"what": "run.scaling", "backend": backend, "ratio": ratio})
            print(f"run  {backend:8} time per case at --count {hi} over {lo}: {ratio:.2f}x")


def lane_rates(text):
    rates = {}
    for m in re.finditer(r"^(\w+) lane: (\d+) cases in ([\d.]+) s \((\d+)/s", text, re.M):
        rates[m.group(1)] = (int(m.group(2)), float(m.group(3)))
    return rates


def bench_fuzz(args, dmconf, work, rows):
    plugin = os.path.join(args.build, "harness", "plugin", "libdmconf_plugin_example.so")
    secs = str(args.fuzz_seconds)
    cmd = [dmconf, "fuzz", "--backend-lib", plugin, "--time", secs, "--no-shrink", "--quiet",
           "--failures", os.path.join(work, "fuzz-failures")]
    status, seconds, rss, text = measure(cmd)
    if status not in (0, 1):
        sys.exit(f"end_to_end: dmconf fuzz exited {status}:\n{text[-2000:]}")
    lanes = lane_rates(text)
    for lane, (cases, s) in lanes.items():
        rows.append({"what": "fuzz.isolated", "lane": lane, "cases": cases, "seconds": s,
                     "cases_per_s": cases / max(s, 1e-9), "peak_rss_mib": rss})
        print(f"fuzz isolated {lane:6} lane: {cases:>9} cases in {s:6.1f} s "
              f"({cases / max(s, 1e-9):8.0f}/s)")
    driver = os.path.join(args.build, "fuzz", "fuzz_backend_diff_random")
    if not os.path.exists(driver):
        print(f"fuzz in-process: {driver} not built; no ratio")
        return
    env = dict(os.environ, DMCONF_FUZZ_PLUGIN=plugin,
               DMCONF_FUZZ_FINDINGS=os.path.join(work, "inproc-findings"))
    status, seconds, rss, text = measure([driver, secs, "1"], env=env, cwd=work)
    m = re.search(r"(\d+) inputs in ([\d.]+) s", text)
    if not m:
        print(f"fuzz in-process: no throughput line (exit {status}):\n{text[-1000:]}")
        return
    inputs, s = int(m.group(1)), float(m.group(2))
    # The cases judged, not the inputs: an input that decodes to no case (malformed, too
    # large) costs nothing and would flatter the in-process side.
    j = re.search(r"(\d+) cases judged", text)
    judged = int(j.group(1)) if j else inputs
    rate = judged / max(s, 1e-9)
    rows.append({"what": "fuzz.in_process", "inputs": inputs, "cases": judged, "seconds": s,
                 "cases_per_s": rate, "peak_rss_mib": rss})
    print(f"fuzz in-process (fuzz_backend_diff_random): {inputs} inputs, {judged} cases judged "
          f"in {s:.1f} s ({rate:.0f} cases/s)")
    if "kernel" in lanes:
        cases, ks = lanes["kernel"]
        ratio = (cases / max(ks, 1e-9)) / rate
        rows.append({"what": "fuzz.ratio", "isolated_over_in_process": ratio})
        print(f"fuzz kernel lane, isolated over in-process: {ratio:.2f}")


def bench_isolation(args, dmconf, work, rows):
    """`dmconf run` of the example plugin through the isolated worker and in this process
    (--no-isolation), the same cases, one after the other: the ratio of their rates."""
    n = max(int(s) for s in args.sizes.split(","))
    seconds = {}
    for mode, extra in (("isolated", []), ("in_process", ["--no-isolation"])):
        out = os.path.join(work, f"isolation-{mode}")
        os.makedirs(out, exist_ok=True)
        cmd = [dmconf, "run", *backend_flag("example", args.build), "--count", str(n),
               "--no-shrink", "--quiet", "--failures", os.path.join(out, "failures"),
               "--report", os.path.join(out, "report.json"), *extra]
        status, secs, rss, text = measure(cmd)
        if status not in (0, 1):
            sys.exit(f"end_to_end: {' '.join(cmd)} exited {status}:\n{text[-2000:]}")
        cases = report_cases(os.path.join(out, "report.json"))
        seconds[mode] = secs
        rows.append({"what": f"run.{mode}", "backend": "example", "count": n, "cases": cases,
                     "seconds": secs, "cases_per_s": cases / secs, "peak_rss_mib": rss})
        print(f"run  example {mode:10} --count {n:>8}: {cases:>9} cases in {secs:8.1f} s "
              f"({cases / secs:9.0f}/s)", flush=True)
    ratio = seconds["in_process"] / seconds["isolated"]
    rows.append({"what": "run.ratio", "isolated_over_in_process": ratio})
    print(f"run  example, isolated over in-process (rate): {ratio:.2f}")


def bench_shrink(args, dmconf, work, rows):
    out = os.path.join(work, "shrink")
    os.makedirs(out, exist_ok=True)
    plugin = os.path.join(args.build, "harness", "plugin", "libdmconf_plugin_fault_garbage.so")
    cmd = [dmconf, "run", "--backend-lib", plugin, "--count", "100", "--quiet", "--no-shapes",
           "--shrink-total-seconds", "3600", "--failures", os.path.join(out, "failures"),
           "--report", os.path.join(out, "r.json")]
    _, seconds_with, _, _ = measure(cmd)
    _, seconds_without, _, _ = measure(cmd + ["--no-shrink"])
    with open(os.path.join(out, "r.json"), encoding="utf-8") as f:
        doc = json.load(f)
    failures = sum(1 for b in doc.get("backends", []) for c in b.get("cases", [])
                   if c.get("verdict") not in ("pass", "unsupported"))
    per = (seconds_with - seconds_without) / max(failures, 1)
    rows.append({"what": "shrink", "failures": failures, "seconds_per_failure": per})
    print(f"shrink (example plugin writing garbage): {failures} failures, "
          f"{per:.3f} s per shrunk failure")


def page_load(page, work):
    """(ms to the summary drawn, ms to the page ready) of the page in headless Chromium,
    from navigation start (the page's data-summary-ms and data-ready-ms); None without
    chromium."""
    browser = shutil.which("chromium")
    if browser is None:
        return None
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                    "conformance", "harness"))
    import report_html_test  # noqa: E402  (chromium_dom: headless, every process reaped)
    dom = report_html_test.chromium_dom(browser, page, "", os.path.join(work, "chromium"))
    body = re.search(r"<body[^>]*>", dom)
    found = dict(re.findall(r'data-(summary-ms|ready-ms)="([0-9.]+)"', body.group(0) if body else ""))
    if len(found) != 2:
        return None
    return float(found["summary-ms"]), float(found["ready-ms"])


def bench_page(dmconf, src, work, rows, what, label):
    """`dmconf report html` of src: seconds, peak RSS, the page's size and its load."""
    page = os.path.join(work, what + ".html")
    status, seconds, rss, text = measure([dmconf, "report", "html", src, "-o", page])
    size = os.path.getsize(page) / 1e6 if status == 0 else 0.0
    load = page_load(page, work) if status == 0 else None
    row = {"what": what, "seconds": seconds, "peak_rss_mib": rss, "page_mb": size}
    if load:
        row["summary_ms"], row["ready_ms"] = load
    rows.append(row)
    print(f"report html of {label}: {seconds:.2f} s, peak RSS {rss:.1f} MiB, page {size:.1f} MB"
          + (f", in chromium: summary drawn {load[0]:.0f} ms, ready {load[1]:.0f} ms"
             if load else "") + ("" if status == 0 else f" (exit {status}: {text[-300:]})"))


def bench_big_page(args, dmconf, work, rows):
    template = os.path.join(work, "page-template.json")
    measure([dmconf, "run", "--backend", "oracle,mutant.d2s_mode_swapped,"
             "mutant.eip_same_swapped,mutant.nan_quieting", "--count", "30", "--no-shrink",
             "--quiet", "--report", template])
    big = os.path.join(work, "page-big.json")
    subprocess.run([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                 "synthetic_report.py"),
                    template, big, "--cases", str(args.page_cases)], check=True)
    with open(big, encoding="utf-8") as f:
        head = f.read(4096)
    summary = json.loads(re.search(r'"summary": (\{[^}]*\})', head).group(1))
    print(f"synthetic report: {summary['cases']} cases, {summary['new_failures']} failing, "
          f"{os.path.getsize(big) / 1e6:.0f} MB")
    bench_page(dmconf, big, work, rows, "report.html.big",
               f"{summary['cases']} cases ({summary['new_failures']} failing)")


def bench_report(args, dmconf, work, rows):
    n = min(int(s) for s in args.sizes.split(","))
    backend = args.backends.split(",")[0]
    src = os.path.join(work, f"run-{backend}-{n}", "report.json")
    bench_page(dmconf, src, work, rows, "report.html", f"the --count {n} report")
    if args.page_cases:
        bench_big_page(args, dmconf, work, rows)
    shards = []
    for k in (1, 2):
        path = os.path.join(work, f"shard{k}.json")
        measure([dmconf, "run", *backend_flag(backend, args.build), "--count", str(n),
                 "--no-shrink", "--quiet", "--shard", f"{k}/2", "--report", path,
                 "--failures", os.path.join(work, f"shard{k}-failures")])
        shards.append(path)
    status, seconds, rss, text = measure(
        [dmconf, "report", "merge", *shards, "-o", os.path.join(work, "merged.json")])
    rows.append({"what": "report.merge", "seconds": seconds, "peak_rss_mib": rss})
    print(f"report merge of 2 shards: {seconds:.2f} s, peak RSS {rss:.1f} MiB (exit {status})")


def bench_merge(args, dmconf, work, rows):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import synthetic_shards  # pylint: disable=import-outside-toplevel
    template = os.path.join(work, "template.json")
    measure([dmconf, "run", "--backend", "oracle", "--count", "50", "--no-shrink", "--quiet",
             "--report", template])
    n, m = args.merge_shards, args.merge_cases
    start = time.monotonic()
    shards = synthetic_shards.write_shards(template, os.path.join(work, "synthetic"), n, m)
    print(f"{n} synthetic shards of {m} cases written in {time.monotonic() - start:.0f} s",
          flush=True)
    merged = os.path.join(work, "merged-synthetic.json")
    status, seconds, rss, text = measure([dmconf, "report", "merge", *shards, "-o", merged])
    rows.append({"what": "report.merge.synthetic", "shards": n, "cases": n * m,
                 "seconds": seconds, "peak_rss_mib": rss, "exit": status})
    print(f"report merge of {n} shards x {m} cases: {seconds:.1f} s, peak RSS {rss:.1f} MiB "
          f"(exit {status})", flush=True)
    for path in shards:
        os.remove(path)
    again = os.path.join(work, "merged-again.json")
    shutil.copyfile(merged, again)
    status, seconds, rss, text = measure([dmconf, "report", "diff", merged, again])
    rows.append({"what": "report.diff.synthetic", "cases": n * m, "seconds": seconds,
                 "peak_rss_mib": rss, "exit": status})
    print(f"report diff of two {n * m}-case reports: {seconds:.1f} s, peak RSS {rss:.1f} MiB "
          f"(exit {status})", flush=True)


def load_average():
    with open("/proc/loadavg", encoding="ascii") as f:
        return float(f.read().split()[0])


def jobs_run(args, dmconf, backend, jobs, out):
    """One `dmconf run --jobs` of the jobs part: (seconds, backend seconds, load, summary)."""
    os.makedirs(out, exist_ok=True)
    report = os.path.join(out, "report.json")
    load = load_average()
    cmd = [dmconf, "run", *backend_flag(backend, args.build), "--count", str(args.jobs_count),
           "--no-shrink", "--quiet", "--jobs", str(jobs), "--failures",
           os.path.join(out, "failures"), "--report", report]
    status, seconds, _, text = measure(cmd)
    if status not in (0, 1):
        sys.exit(f"end_to_end: {' '.join(cmd)} exited {status}:\n{text[-2000:]}")
    with open(report, encoding="utf-8") as f:
        doc = json.load(f)
    inside = sum(doc["run"].get("backend_seconds", {}).values())
    return seconds, inside, load, doc["summary"]


def bench_jobs(args, dmconf, work, rows):
    for backend in args.backends.split(","):
        best = {}
        summaries = {}
        pairs = []  # per repeat: --jobs 1 seconds over --jobs 2 seconds
        for rep in range(args.jobs_repeat):
            pair = {}
            for jobs in (1, 2):
                out = os.path.join(work, f"jobs-{backend}-{jobs}")
                seconds, inside, load, summary = jobs_run(args, dmconf, backend, jobs, out)
                summaries[jobs] = summary
                rows.append({"what": "jobs", "backend": backend, "jobs": jobs,
                             "count": args.jobs_count, "seconds": seconds,
                             "backend_seconds": inside, "load_before": load})
                print(f"jobs {backend:8} --jobs {jobs} --count {args.jobs_count}: {seconds:7.2f} s"
                      f" (backend run {inside:7.2f} s), load average before {load:.2f}",
                      flush=True)
                b = best.get(jobs)
                best[jobs] = (min(seconds, b[0]), min(inside, b[1])) if b else (seconds, inside)
                pair[jobs] = seconds
            pairs.append(pair[1] / max(pair[2], 1e-9))
        if summaries[1] != summaries[2]:
            sys.exit(f"end_to_end: {backend}: --jobs 2 summary differs from --jobs 1:\n"
                     f"{summaries[1]}\n{summaries[2]}")
        whole = best[1][0] / best[2][0]
        inside = best[1][1] / max(best[2][1], 1e-9)
        median = statistics.median(pairs)
        rows.append({"what": "jobs.speedup", "backend": backend, "whole": whole,
                     "backend_run": inside, "whole_pairs": pairs, "whole_pairs_median": median})
        print(f"jobs {backend:8} speedup of --jobs 2 over --jobs 1 (best of {args.jobs_repeat}): "
              f"{whole:.2f}x whole command, {inside:.2f}x the backend's run; whole command, "
              f"median of the {len(pairs)} back-to-back pairs: {median:.2f}x "
              f"({', '.join(f'{r:.2f}' for r in pairs)})")


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build", required=True, help="a build folder (release for real figures)")
    p.add_argument("--sizes", default="10000,100000", help="--count values of dmconf run")
    p.add_argument("--backends", default="oracle,example,eigen")
    p.add_argument("--fuzz-seconds", type=int, default=20)
    p.add_argument("--page-cases", type=int, default=0,
                   help="report part: also a synthetic report of this many cases per backend "
                        "(four backends) written as a page (0: not)")
    p.add_argument("--parts", default="run,fuzz,isolation,shrink,report,jobs")
    p.add_argument("--merge-shards", type=int, default=64)
    p.add_argument("--merge-cases", type=int, default=100000, help="cases per synthetic shard")
    p.add_argument("--jobs-count", type=int, default=200000, help="--count of the jobs part")
    p.add_argument("--jobs-repeat", type=int, default=3, help="runs of each --jobs value")
    p.add_argument("--json", help="also write the figures as JSON here")
    p.add_argument("--check", action="store_true",
                   help="exit 1 unless every part asked for produced its figures (the smoke "
                        "test of this script)")
    args = p.parse_args()
    args.build = os.path.abspath(args.build)
    dmconf = os.path.join(args.build, "harness", "cli", "dmconf")
    if not os.access(dmconf, os.X_OK):
        sys.exit(f"end_to_end: {dmconf} is not built")
    work = tempfile.mkdtemp(prefix="dmconf-e2e-")
    rows = []
    try:
        parts = args.parts.split(",")
        print(f"end_to_end: {os.cpu_count()} cores, {dmconf}", flush=True)
        if "run" in parts or "report" in parts:
            bench_run(args, dmconf, work, rows)
        if "fuzz" in parts:
            bench_fuzz(args, dmconf, work, rows)
        if "isolation" in parts:
            bench_isolation(args, dmconf, work, rows)
        if "shrink" in parts:
            bench_shrink(args, dmconf, work, rows)
        if "report" in parts:
            bench_report(args, dmconf, work, rows)
        if "merge" in parts:
            bench_merge(args, dmconf, work, rows)
        if "jobs" in parts:
            bench_jobs(args, dmconf, work, rows)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(rows, f, indent=1)
    return missing_figures(args, rows) if args.check else 0


def missing_figures(args, rows):
    """1 (and the list printed) when a part asked for left a figure out."""
    parts = args.parts.split(",")
    want = []
    if "run" in parts:
        for b in args.backends.split(","):
            for n in args.sizes.split(","):
                want.append(("run", lambda r, b=b, n=int(n): r.get("backend") == b and
                             r.get("count") == n and r["cases"] > 0 and r["peak_rss_mib"] > 0))
    if "fuzz" in parts:
        for lane in ("kernel", "shape"):
            want.append((f"fuzz.isolated {lane}", lambda r, lane=lane: r["what"] ==
                         "fuzz.isolated" and r["lane"] == lane and r["cases"] > 0))
        want.append(("fuzz.ratio", lambda r: r["what"] == "fuzz.ratio"))
    if "isolation" in parts:
        want.append(("run.ratio", lambda r: r["what"] == "run.ratio"))
    if "shrink" in parts:
        want.append(("shrink", lambda r: r["what"] == "shrink" and r["failures"] > 0))
    if "report" in parts:
        want.append(("report.html", lambda r: r["what"] == "report.html" and r["page_mb"] > 0))
        if args.page_cases:
            want.append(("report.html.big", lambda r: r["what"] == "report.html.big" and
                         r["page_mb"] > 0 and (shutil.which("chromium") is None or
                                               r.get("ready_ms", 0) > 0)))
        want.append(("report.merge", lambda r: r["what"] == "report.merge"))
    if "merge" in parts:
        want.append(("report.merge.synthetic", lambda r: r["what"] == "report.merge.synthetic"
                     and r["exit"] == 0))
    if "jobs" in parts:
        for b in args.backends.split(","):
            want.append((f"jobs.speedup {b}", lambda r, b=b: r["what"] == "jobs.speedup" and
                         r["backend"] == b))
    missing = [name for name, ok in want if not any(ok(r) for r in rows if "what" in r)]
    for name in missing:
        print(f"end_to_end: no figure for {name}", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
