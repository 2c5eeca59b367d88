#!/usr/bin/env python3
"""State pruning benchmark: deep protocol walks of bstack and ringq with
and without pruning by concrete state.

For each unit and depth runs `bcwalk explore --prune state` and, where
the full walk is affordable, `--prune none`, keeps the fastest of
--repeat runs, checks that both reach the same number of distinct
concrete states, and prints a markdown table: sequences run, distinct
states, seconds, sequences/s, states/s (distinct states found per
second) and the sequences pruning saved.  Used by `make bench`;
standard library only.
"""
import argparse
import json
import os
import subprocess
import sys

from bench import fail, print_machine, run_json


def best_of(cmd, repeat):
    runs = [run_json(cmd) for _ in range(repeat)]
    key = [(r["sequences"], r["concrete_states"]) for r in runs]
    if any(k != key[0] for k in key):
        fail(f"{' '.join(cmd)}: counts differ between repeated runs")
    return min(runs, key=lambda r: r["elapsed_s"])


def run_count(doc):
    s = doc["sequences"]
    return s["normal"] + s["terminated"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bcwalk", required=True, help="bcwalk binary")
    ap.add_argument("--examples", required=True,
                    help="the build's examples/ folder (bitcode)")
    ap.add_argument("--depths", default="6,9,12")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--max-full", type=int, default=20_000_000,
                    help="run --prune none only when the whole sequence "
                         "set is at most this large")
    args = ap.parse_args()
    depths = [int(d) for d in args.depths.split(",")]
    units = [("bstack", "bstack-O2.bc", 6), ("ringq", "ringq-O2-nodebug.bc", 3)]
    rows = []
    for unit, bc, methods in units:
        for d in depths:
            base = [args.bcwalk, "explore", os.path.join(args.examples, bc),
                    "--unit", unit, "--walk", "protocol", "--depth", str(d),
                    "--format", "json", "--jobs", "1"]
            pruned = best_of(base + ["--prune", "state"], args.repeat)
            full = None
            if sum(methods ** k for k in range(d + 1)) <= args.max_full:
                full = best_of(base + ["--prune", "none"], args.repeat)
                if full["concrete_states"] != pruned["concrete_states"]:
                    fail(f"{unit} depth {d}: pruning lost states "
                         f"({full['concrete_states']} without, "
                         f"{pruned['concrete_states']} with)")
            rows.append((unit, d, pruned, full))

    print_machine()
    print(f"Protocol walks, 1 job, best of {args.repeat} runs each\n")
    print("| unit | depth | prune | sequences run | concrete states | seconds "
          "| sequences/s | states/s | calls/s | saved |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    for unit, d, pruned, full in rows:
        for name, doc in (("none", full), ("state", pruned)):
            if doc is None:
                print(f"| {unit} | {d} | none | not run | | | | | | |")
                continue
            t = doc["elapsed_s"] or 1e-9
            if name == "none":
                saved = ""
            elif full is not None:
                saved = f"{run_count(full) - run_count(doc):,}"
            else:
                saved = f"≤ {doc['sequences']['pruned_state']:,}"
            print(f"| {unit} | {d} | {name} | {run_count(doc):,} "
                  f"| {doc['concrete_states']:,} | {t:.4f} "
                  f"| {run_count(doc) / t / 1e6:.2f} M "
                  f"| {doc['concrete_states'] / t / 1e3:.1f} k "
                  f"| {doc['calls_per_s'] / 1e6:.1f} M | {saved} |")


if __name__ == "__main__":
    main()
