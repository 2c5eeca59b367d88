#!/usr/bin/env python3
"""Coverage benchmark: what `explore --coverage` costs a walk, and what
each way of measuring coverage costs the same native calls.

1. The same protocol walk (`--prune none`, one worker) of each unit plain
   and with `--coverage FILE`: calls per second, fastest of --repeat runs
   each, and the ratio.  Both must run the same sequences and calls.
2. native_bstack (benchmarks/native_bstack.c, the hand-written walk of
   bench.py) at depth 9, built by clang -O2 with only examples/bstack.c
   instrumented, four ways: plain; SanitizerCoverage's inline-bool-flag
   with a PC table (a store of 1 per block: what bcwalk's own pass,
   explorer/build/cover_pass.c, compiles too, plus a select per conditional);
   trace-pc-guard (a call per edge into a callback that sets a bitmap
   byte: benchmarks/cov_callbacks.c); and clang's source-based coverage
   (-fprofile-instr-generate -fcoverage-mapping, a 64-bit counter per
   region, its runtime linked).  Calls per second, fastest of --repeat
   runs, and the cost against plain.  Every build must count the same.

Used by `make bench`; standard library only.
"""
import argparse
import os
import subprocess
import tempfile

from bench import best_of, counts, fail, print_machine

VARIANTS = (("plain", ()),
            ("inline-bool-flag,pc-table",
             ("-fsanitize-coverage=inline-bool-flag,pc-table",)),
            ("trace-pc-guard", ("-fsanitize-coverage=trace-pc-guard",)),
            ("source-based", ("-fprofile-instr-generate",
                              "-fcoverage-mapping")))


def walks(args):
    print("## Coverage: explore --coverage against the plain walk\n")
    print_machine()
    print()
    print("| unit | depth | calls | plain calls/s | --coverage calls/s | "
          "cost |")
    print("|---|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for spec in args.units.split(","):
            bc, unit, depth = spec.split(":")
            cmd = [args.bcwalk, "explore", os.path.join(args.examples,
                                                        bc + ".bc"),
                   "--unit", unit, "--depth", depth, "--prune", "none",
                   "--format", "json", "--jobs", "1"]
            plain = best_of(cmd, args.repeat)
            cov = best_of(cmd + ["--coverage", os.path.join(tmp, "c.info")],
                          args.repeat)
            if counts(plain) != counts(cov):
                fail(f"{unit}: --coverage ran another walk: "
                     f"{counts(plain)} against {counts(cov)}")
            a = plain["calls"] / plain["elapsed_s"]
            b = cov["calls"] / cov["elapsed_s"]
            print(f"| {unit} | {depth} | {plain['calls']} | {a / 1e6:.2f} M "
                  f"| {b / 1e6:.2f} M | {a / b:.2f}x |")
    print()


def natives(args):
    print("## Coverage: each instrumentation on the native loop "
          f"(native_bstack {args.depth}, bstack.c instrumented)\n")
    print("| build | calls/s | cost |")
    print("|---|---:|---:|")
    here = os.path.dirname(os.path.abspath(__file__))
    src = os.path.join(os.path.dirname(here), "examples", "bstack.c")
    base = None
    with tempfile.TemporaryDirectory() as tmp:
        for name, flags in VARIANTS:
            exe = os.path.join(tmp, "native_" + str(len(name)))
            obj = os.path.join(tmp, "bstack.o")
            steps = [[args.clang, "-O2", "-c", src, "-o", obj, *flags],
                     [args.clang, "-O2", "-D_POSIX_C_SOURCE=200809L",
                      os.path.join(here, "native_bstack.c"), obj,
                      os.path.join(here, "cov_callbacks.c"), "-o", exe,
                      *(f for f in flags if f.startswith("-fprofile"))]]
            for step in steps:
                p = subprocess.run(step, capture_output=True, text=True)
                if p.returncode != 0:
                    fail(f"{' '.join(step)}: {p.stderr.strip()[-400:]}")
            os.environ["LLVM_PROFILE_FILE"] = os.path.join(tmp, "%p.profraw")
            doc = best_of([exe, str(args.depth)], args.repeat)
            if base is not None and counts(doc) != counts(base):
                fail(f"{name}: another walk than plain's")
            base = base or doc
            rate = doc["calls_per_s"]
            print(f"| {name} | {rate / 1e6:.1f} M | "
                  f"{base['calls_per_s'] / rate:.2f}x |")
    print()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bcwalk", required=True, help="bcwalk binary")
    ap.add_argument("--examples", required=True,
                    help="the build's examples/ folder (bitcode)")
    ap.add_argument("--clang", required=True, help="clang, as bcwalk's")
    ap.add_argument("--units",
                    default="bstack:bstack:7,ringq:ringq:9,sbuf:sbuf:4,"
                            "meter:meter:7")
    ap.add_argument("--depth", type=int, default=9,
                    help="native_bstack's depth")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    walks(args)
    natives(args)


if __name__ == "__main__":
    main()
