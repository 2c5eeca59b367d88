#!/usr/bin/env python3
"""bench_bounds.py - values computed from the live object, memoised against
solved on every call (issue 32, item 2), side by side in one run.

usage: bench_bounds.py --bcwalk BCWALK --examples BUILD/examples [--repeat N]

A category whose bounds read the object's fields (`i < n`, `len + b->len
<= cap`) gets its value in the worker, on the object as it is at the
call: a boundary, or a value found by bisecting the category's conditions
(rt_bounds.c).  The worker keeps what it computed, keyed by the fields and
earlier arguments the bounds read (the memo); BCW_BOUNDS_MEMO=0 in the
environment makes it solve on every call, as before the memo.  Each row is
one state walk (`--walk state --prune none`) run both ways, alternating,
the median of --repeat runs of each; elapsed_s is the walk's own clock.
Both ways must report the same counts, calls and concrete states.
Standard library only.
"""
import argparse
import os
import statistics

from bench import fail, print_machine, run_json

WALKS = [("slots", 4), ("slots", 5), ("sbuf", 4), ("sbuf", 5),
         ("account", 6), ("bank", 5)]


def walk(bcwalk, examples, unit, depth, memo):
    if memo:
        os.environ.pop("BCW_BOUNDS_MEMO", None)
    else:
        os.environ["BCW_BOUNDS_MEMO"] = "0"
    return run_json([bcwalk, "explore", os.path.join(examples, f"{unit}.bc"),
                     "--unit", unit, "--walk", "state", "--depth", str(depth),
                     "--prune", "none", "--format", "json"])


def same(a, b):
    return (a["sequences"], a["calls"], a["concrete_states"]) == \
        (b["sequences"], b["calls"], b["concrete_states"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bcwalk", required=True)
    ap.add_argument("--examples", required=True)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    for unit, _ in WALKS:  # workers built and cached
        walk(args.bcwalk, args.examples, unit, 1, True)
    print_machine()
    print("State walks (`--prune none`), values from the live object "
          f"memoised or solved on every call; median of {args.repeat}")
    print()
    print("| unit | depth | calls | solved each call (s) | memoised (s) "
          "| speed-up |")
    print("|---|---:|---:|---:|---:|---:|")
    for unit, depth in WALKS:
        runs = {True: [], False: []}
        for _ in range(args.repeat):
            for memo in (False, True):
                runs[memo].append(walk(args.bcwalk, args.examples, unit,
                                       depth, memo))
        docs = runs[True] + runs[False]
        if not all(same(d, docs[0]) for d in docs):
            fail(f"{unit} depth {depth}: the memo changed the walk")
        off = statistics.median(d["elapsed_s"] for d in runs[False])
        on = statistics.median(d["elapsed_s"] for d in runs[True])
        print(f"| {unit} | {depth} | {docs[0]['calls']:,} | {off:.3f} "
              f"| {on:.3f} | {off / on:.2f} |")


if __name__ == "__main__":
    main()
