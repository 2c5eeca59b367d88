#!/usr/bin/env python3
"""Containment benchmark (issue 30): what the containment costs a walk,
two builds side by side in one run.

The base build is one from before the containment (descriptors closed
at start, the seccomp filter, subreapers reaping what the code left at
each batch's end, bcwalk and the fork server not dumpable); the head
build is the one under test.  Each measure alternates base and head
runs and keeps the fastest of --repeat of each; the two must report the
same counts.

  start     a depth-1 walk of bstack: the fork server's start and one
            batch (the walk's elapsed_s)
  restarts  a protocol walk of brittle.c, whose destructor always
            faults: a fresh worker per sequence, crashes per second
  calls     bstack's depth-8 protocol walk, --prune none: calls per
            second of a walk whose code makes no system call

usage: bench_contain.py --base OLD/bin/bcwalk --head NEW/bin/bcwalk
       --examples build/examples
"""
import argparse
import os
import tempfile

from bench import best_of, counts, fail, print_machine


def walk(bcwalk, bitcode, unit, depth):
    return [bcwalk, "explore", bitcode, "--unit", unit, "--depth",
            str(depth), "--prune", "none", "--format", "json"]


def side_by_side(args, bitcode, unit, depth):
    """(base, head) fastest summaries of the same walk, alternating."""
    best = {}
    for _ in range(args.repeat):
        for name in ("base", "head"):
            # each build's own cache: a build's worker is its own
            os.environ["XDG_CACHE_HOME"] = os.path.join(args.cache, name)
            doc = best_of(walk(getattr(args, name), bitcode, unit, depth), 1)
            if name not in best or doc["elapsed_s"] < best[name]["elapsed_s"]:
                best[name] = doc
    if counts(best["base"]) != counts(best["head"]):
        fail(f"{unit} depth {depth}: base and head give other counts")
    return best["base"], best["head"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", required=True, help="bcwalk before")
    ap.add_argument("--head", required=True, help="bcwalk under test")
    ap.add_argument("--examples", required=True, help="build/examples")
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    ex = args.examples
    with tempfile.TemporaryDirectory() as cache:
        args.cache = cache
        rows = []
        base, head = side_by_side(args, f"{ex}/bstack.bc", "bstack", 1)
        rows.append(("fork server start and one batch (bstack, depth 1)",
                     base["elapsed_s"] * 1e3, head["elapsed_s"] * 1e3, "ms"))
        base, head = side_by_side(args, f"{ex}/brittle.bc", "brittle", 7)
        rows.append((f"worker restarts (brittle, depth 7, "
                     f"{base['worker_restarts']} crashes)",
                     base["worker_restarts"] / base["elapsed_s"],
                     head["worker_restarts"] / head["elapsed_s"], "/s"))
        base, head = side_by_side(args, f"{ex}/bstack.bc", "bstack", 8)
        rows.append((f"calls (bstack, depth 8, {base['calls']} calls)",
                     base["calls"] / base["elapsed_s"] / 1e6,
                     head["calls"] / head["elapsed_s"] / 1e6, "M/s"))
    print_machine()
    print(f"Best of {args.repeat} alternating runs each.\n")
    print("| measure | base | head | head/base |")
    print("|---|---:|---:|---:|")
    for what, b, h, unit in rows:
        print(f"| {what} | {b:.2f} {unit} | {h:.2f} {unit} | {h / b:.2f} |")


if __name__ == "__main__":
    main()
