#!/usr/bin/env python3
"""JSON writer benchmark: the jsonl report of a depth-9 protocol walk of
bstack written by bcwalk's streaming writer and by jansson.

Runs `bcwalk explore bstack.bc --depth 9 --format jsonl` once into a
temporary file, then `bench_json` on it (benchmarks/bench_json.c), which
checks that both writers reproduce the report's lines byte for byte and
prints the table.  Used by `make bench`; standard library only.
"""
import argparse
import os
import subprocess
import sys
import tempfile

from bench import fail, print_machine


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bcwalk", required=True, help="bcwalk binary")
    ap.add_argument("--bench-json", required=True, help="bench_json binary")
    ap.add_argument("--bitcode", required=True, help="bstack.bc")
    ap.add_argument("--depth", type=int, default=9)
    ap.add_argument("--reps", type=int, default=200,
                    help="times each round writes every line")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-json-") as tmp:
        path = os.path.join(tmp, "walk.jsonl")
        with open(path, "wb") as out:
            p = subprocess.run([args.bcwalk, "explore", args.bitcode,
                                "--unit", "bstack", "--depth",
                                str(args.depth), "--format", "jsonl"],
                               stdout=out)
        if p.returncode != 0:
            fail(f"bcwalk explore exited with {p.returncode}")
        print(f"\n## JSON writers: the jsonl of bstack at depth {args.depth}\n")
        print_machine()
        sys.stdout.flush()
        p = subprocess.run([args.bench_json, path, str(args.reps),
                            str(args.rounds)])
        if p.returncode != 0:
            fail("bench_json failed")


if __name__ == "__main__":
    main()
