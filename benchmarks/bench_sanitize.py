#!/usr/bin/env python3
"""Sanitizer benchmark: what each checking mode of `explore --sanitize`
costs against the plain walk.

For each unit runs the same protocol walk (`--prune none`) plain, with
`--sanitize address`, `--sanitize undefined` and both, keeps the fastest
of --repeat runs of each, checks that every mode ran the same sequences
and calls (the units have no faults the checks would stop), and prints a
markdown table of calls per second and the ratio to the plain walk.
Used by `make bench`; standard library only.
"""
import argparse
import os

from bench import best_of, fail, print_machine

MODES = (("plain", ()), ("address", ("--sanitize", "address")),
         ("undefined", ("--sanitize", "undefined")),
         ("both", ("--sanitize", "address,undefined")))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bcwalk", required=True, help="bcwalk binary")
    ap.add_argument("--examples", required=True,
                    help="the build's examples/ folder (bitcode)")
    ap.add_argument("--units", default="bstack:bstack:7,ringq:ringq:9,sbuf:sbuf:4")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    print("## Checking modes: explore --sanitize against the plain walk\n")
    print_machine()
    print()
    print("| unit | depth | calls | " +
          " | ".join(f"{m} calls/s" for m, _ in MODES) +
          " | cost: address | undefined | both |")
    print("|---|---:|---:|" + "---:|" * (len(MODES) + 3))
    for spec in args.units.split(","):
        bc, unit, depth = spec.split(":")
        rates, counts = [], set()
        for _, extra in MODES:
            cmd = [args.bcwalk, "explore", os.path.join(args.examples,
                                                        bc + ".bc"),
                   "--unit", unit, "--depth", depth, "--prune", "none",
                   "--format", "json", *extra]
            best = best_of(cmd, args.repeat)
            counts.add((best["calls"], best["sequences"]["normal"],
                        best["sequences"]["terminated"]))
            rates.append(best["calls"] / best["elapsed_s"])
        if len(counts) != 1:
            fail(f"{unit}: the modes ran different walks: {sorted(counts)}")
        calls = counts.pop()[0]
        print(f"| {unit} | {depth} | {calls} | " +
              " | ".join(f"{r / 1e6:.2f} M" for r in rates) + " | " +
              " | ".join(f"{rates[0] / r:.2f}x" for r in rates[1:]) +
              " |")
    print()


if __name__ == "__main__":
    main()
