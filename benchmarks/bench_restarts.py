#!/usr/bin/env python3
"""Restart benchmark: a walk in which every sequence crashes.

examples/brittle.c's destructor always faults, so every sequence of a
protocol walk of it ends in SIGSEGV and is followed by a fresh worker.
For each depth runs `bcwalk explore --prune none` on it, then, for the
same number of crashes, the two native limits (native_restarts.c): a
loop that forks a child per crash (what a fork server costs at best) and
one that spawns a new process image per crash (exec speed).  Keeps the
fastest of --repeat runs of each and prints a markdown table of crashes
per second.  Used by `make bench`; standard library only.
"""
import argparse
import json
import subprocess

from bench import best_of, fail, print_machine


def native(prog, mode, n, repeat):
    best = None
    for _ in range(repeat):
        p = subprocess.run([prog, mode, str(n)], capture_output=True,
                           text=True)
        if p.returncode != 0:
            fail(f"{prog} {mode} {n}: exit {p.returncode}\n{p.stderr}")
        t = json.loads(p.stdout)["elapsed_s"]
        best = t if best is None else min(best, t)
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bcwalk", required=True, help="bcwalk binary")
    ap.add_argument("--native", required=True, help="native_restarts")
    ap.add_argument("--bitcode", required=True, help="brittle.bc")
    ap.add_argument("--depths", default="4,5,6")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    print("## Restarts: every sequence crashes (brittle)\n")
    print_machine()
    print()
    print("| depth | crashes | bcwalk s | bcwalk crashes/s | native fork "
          "crashes/s | native spawn crashes/s | bcwalk / fork |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for depth in map(int, args.depths.split(",")):
        cmd = [args.bcwalk, "explore", args.bitcode, "--unit", "brittle",
               "--depth", str(depth), "--prune", "none", "--format", "json"]
        doc = best_of(cmd, args.repeat)
        s = doc["sequences"]
        crashes = s["terminated"]
        if s["normal"] != 0 or doc["worker_restarts"] != crashes:
            fail(f"{' '.join(cmd)}: expected every sequence to crash and be "
                 f"followed by a restart, got {s} and "
                 f"{doc['worker_restarts']} restarts")
        fork_s = native(args.native, "fork", crashes, args.repeat)
        spawn_s = native(args.native, "spawn", crashes, args.repeat)
        rate = crashes / doc["elapsed_s"]
        print(f"| {depth} | {crashes} | {doc['elapsed_s']:.2f} | {rate:.0f} "
              f"| {crashes / fork_s:.0f} | {crashes / spawn_s:.0f} "
              f"| {rate * fork_s / crashes:.2f} |")
    print()


if __name__ == "__main__":
    main()
