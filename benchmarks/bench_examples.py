#!/usr/bin/env python3
"""bench_examples.py - analysis and walk throughput of two bcwalk builds on
the examples, side by side in one run: a change's cost on the units the
tests use.

usage: bench_examples.py --base BCWALK --head BCWALK --examples DIR
                         [--runs N] [--calls N]

For each example, `analyze` (a fresh cache each run, so the analysis and
the solver are timed, not the model cache) and a protocol walk with
`--prune none` (the worker cache warmed first; the walk's own calls_per_s,
at the least depth whose walk makes --calls calls, 200,000 by default, at
most 9) run alternately with the two builds, best of N each.  Prints a
markdown table with head/base ratios and the geometric means."""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time

UNITS = [("bstack.bc", "bstack"), ("ringq.bc", "ringq"),
         ("account.bc", "account"), ("bank.bc", "bank"),
         ("book.bc", "book"), ("counter.bc", "counter"),
         ("sbuf.bc", "sbuf"), ("str.bc", "str"), ("slist.bc", "entry"),
         ("dlist.bc", "dlist"), ("hset.bc", "hset"), ("cfg.bc", "cfg")]


def run(cmd, cache):
    env = dict(os.environ, XDG_CACHE_HOME=cache)
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        sys.exit("bench_examples: %s failed:\n%s" % (" ".join(cmd), p.stderr))
    return p.stdout


def analyze_s(bcwalk, bc):
    with tempfile.TemporaryDirectory() as cache:
        t = time.perf_counter()
        run([bcwalk, "analyze", bc, "--format", "json"], cache)
        return time.perf_counter() - t


def walk_rate(bcwalk, bc, unit, depth, cache):
    out = run([bcwalk, "explore", bc, "--unit", unit, "--walk", "protocol",
               "--depth", str(depth), "--prune", "none", "--format",
               "json"], cache)
    summary = json.loads(out)
    return summary["calls"], summary["calls_per_s"]


def depth_for(bcwalk, bc, unit, calls, cache):
    """The least depth whose protocol walk makes `calls` calls (9 at most)."""
    for depth in range(2, 10):
        if walk_rate(bcwalk, bc, unit, depth, cache)[0] >= calls:
            return depth
    return 9


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", required=True)
    ap.add_argument("--head", required=True)
    ap.add_argument("--examples", required=True)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--calls", type=int, default=200000)
    a = ap.parse_args()
    rows, ra, rw = [], [], []
    with tempfile.TemporaryDirectory() as cb, \
            tempfile.TemporaryDirectory() as ch:
        caches = {a.base: cb, a.head: ch}
        for bc, unit in UNITS:
            path = os.path.join(a.examples, bc)
            for b in (a.base, a.head):  # warm the worker caches
                walk_rate(b, path, unit, 1, caches[b])
            depth = depth_for(a.head, path, unit, a.calls, caches[a.head])
            an = {a.base: [], a.head: []}
            wk = {a.base: [], a.head: []}
            calls = {}
            for _ in range(a.runs):
                for b in (a.base, a.head):
                    an[b].append(analyze_s(b, path))
                    calls[b], rate = walk_rate(b, path, unit, depth,
                                               caches[b])
                    wk[b].append(rate)
            ab, ah = min(an[a.base]), min(an[a.head])
            wb, wh = max(wk[a.base]), max(wk[a.head])
            ra.append(ah / ab)
            rw.append(wh / wb)
            rows.append("| %s | %.3f | %.3f | %.2f | %d | %d / %d | %.2f M | "
                        "%.2f M | %.2f |"
                        % (bc, ab, ah, ah / ab, depth, calls[a.base],
                           calls[a.head], wb / 1e6, wh / 1e6, wh / wb))
    print("| example | analyze base s | head s | head/base | depth | walk "
          "calls base / head | base calls/s | head calls/s | head/base |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    print("\n".join(rows))
    gm = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))
    print("| geometric mean | | | %.2f | | | | | %.2f |" % (gm(ra), gm(rw)))


if __name__ == "__main__":
    main()
