#!/usr/bin/env python3
"""Throughput benchmark: bcwalk's protocol walk of bstack vs. the native baseline.

Runs `native_bstack D` and `bcwalk explore ... --format json` at each depth,
keeps the fastest of --repeat runs of each, checks that both walked the same
sequences and made the same number of calls, and prints a markdown table.
Used by `make bench`; standard library only.
"""
import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import time


def fail(msg):
    print(f"bench: error: {msg}", file=sys.stderr)
    sys.exit(1)


def timed(cmd, ok=(0,)):
    """Runs cmd: its wall seconds, exit status and output (stdout then
    stderr); an exit status not in `ok` fails the benchmark."""
    t = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True)
    elapsed = time.monotonic() - t
    if p.returncode not in ok:
        fail(f"{' '.join(cmd)}: exit {p.returncode}: "
             f"{p.stderr.strip()[-400:]}")
    return elapsed, p.returncode, p.stdout + p.stderr


def run_json(cmd):
    """Run cmd and return the JSON document it prints on stdout."""
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True)
    except OSError as e:
        fail(f"cannot run {cmd[0]}: {e}")
    # Judge by the output rather than the exit status alone: a walk that
    # finds aborting sequences may legitimately exit non-zero.
    try:
        doc = json.loads(proc.stdout)
        if proc.returncode < 0:
            raise ValueError(f"killed by signal {-proc.returncode}")
        for key in ("sequences", "calls", "elapsed_s", "calls_per_s"):
            if key not in doc:
                raise ValueError(f"missing field {key!r}")
    except ValueError as e:
        fail(f"{' '.join(cmd)}: no usable JSON result ({e}; exit status "
             f"{proc.returncode})\n{proc.stderr.strip()}")
    return doc


def best_of(cmd, repeat):
    """Fastest of `repeat` runs; every run must report the same counts."""
    runs = [run_json(cmd) for _ in range(repeat)]
    if any(counts(r) != counts(runs[0]) for r in runs):
        fail(f"{' '.join(cmd)}: counts differ between repeated runs")
    return min(runs, key=lambda r: r["elapsed_s"])


def counts(doc):
    s = doc["sequences"]
    return (s["normal"], s["terminated"], s["discarded"], doc["calls"])


def seqs_per_s(doc):
    s = doc["sequences"]
    return (s["normal"] + s["terminated"]) / doc["elapsed_s"] if doc["elapsed_s"] else 0.0


def print_machine():
    """The header every table gets: the CPU, how many, and when."""
    try:
        ncpu = len(os.sched_getaffinity(0))
    except AttributeError:
        ncpu = os.cpu_count()
    print(f"Machine: {cpu_model()}, nproc {ncpu}")
    print(f"Date: {datetime.datetime.now().astimezone().strftime('%Y-%m-%d %H:%M %Z')}")


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bcwalk", required=True, help="bcwalk binary")
    ap.add_argument("--native", required=True, help="native_bstack binary")
    ap.add_argument("--bitcode", required=True, help="bstack bitcode (-O2)")
    ap.add_argument("--depths", default="7,8,9", help="comma-separated walk depths")
    ap.add_argument("--repeat", type=int, default=3, help="runs per tool and depth; the best is kept")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                    help="workers for the parallel bcwalk column")
    args = ap.parse_args()
    try:
        depths = [int(d) for d in args.depths.split(",")]
    except ValueError:
        fail(f"bad --depths {args.depths!r}")
    if args.repeat < 1:
        fail("--repeat must be at least 1")

    # bcwalk configurations measured side by side with the native limit
    configs = [("stub, 1 job", ["--calls", "stub", "--jobs", "1"]),
               ("ffi, 1 job", ["--calls", "ffi", "--jobs", "1"]),
               (f"stub, {args.jobs} jobs", ["--calls", "stub", "--jobs",
                                           str(args.jobs)])]
    if args.jobs == 1:
        configs.pop()
    rows = []
    for d in depths:
        native = best_of([args.native, str(d)], args.repeat)
        results = []
        for _, extra in configs:
            doc = best_of([args.bcwalk, "explore", args.bitcode, "--unit",
                           "bstack", "--walk", "protocol", "--depth", str(d),
                           "--format", "json", "--prune", "none", *extra],
                          args.repeat)
            if counts(native) != counts(doc):
                fail(f"depth {d}: native and bcwalk {' '.join(extra)} "
                     f"disagree\n  (normal, terminated, discarded, calls)\n"
                     f"  native: {counts(native)}\n  bcwalk: {counts(doc)}")
            results.append(doc)
        rows.append((d, native, results))

    print_machine()
    print(f"Protocol walk of bstack; best of {args.repeat} runs each; "
          f"calls/s (ratio to native)\n")
    print("| depth | sequences run | calls | native | "
          + " | ".join(f"bcwalk {name}" for name, _ in configs) + " |")
    print("|---:|---:|---:|---:|" + "---:|" * len(configs))
    for d, native, results in rows:
        normal, terminated, _, calls = counts(native)
        cells = []
        for doc in results:
            ratio = doc["calls_per_s"] / native["calls_per_s"]
            cells.append(f"{doc['calls_per_s'] / 1e6:.1f} M ({ratio:.2f})")
        print(f"| {d} | {normal + terminated:,} | {calls:,} "
              f"| {native['calls_per_s'] / 1e6:.1f} M | " + " | ".join(cells)
              + " |")


if __name__ == "__main__":
    main()
