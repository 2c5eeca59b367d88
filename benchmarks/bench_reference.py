#!/usr/bin/env python3
"""Two-version benchmark: time to first detection of each seeded fault of
examples/undo.c, `bcwalk test --reference` against a libFuzzer harness
(fuzz_undo.c) that runs the same operations on the faulty build and the
correct one and traps on the first difference.

Both run on a cached build: the harnesses are compiled, and bcwalk's
workers built, before any clock starts. For bcwalk: the least depth
whose walk fails, the wall time of walking depths 1, 2, ... up to it (a
user deepening the walk), and the time of the depth-6 walk that finds
every fault. For libFuzzer: the median, over --seeds seeds from an empty
corpus, of the wall time to the trap and the inputs run. The correct
build runs too, for --clean seconds: a false alarm fails the benchmark.
Used by `make bench`; standard library only.
"""
import argparse
import json
import os
import re
import statistics
import tempfile

from bench import fail, print_machine, timed

FAULTS = {1: "lost counter update", 2: "FIFO for LIFO",
          3: "off-by-one capacity", 4: "wrong predicate boundary",
          5: "observer with a side effect", 6: "wrap-around index (deep)",
          7: "broken representation (invariant)",
          8: "deleted store (clear)"}
DEPTH = 6


def build_fuzzers(clang, src, examples_src, tmp):
    """The harness linked with each faulty build, and with the correct
    one: {fault: path} (fault 0 the correct build)."""
    flags = ["-g", "-O1", "-fsanitize=fuzzer"]
    ref = os.path.join(tmp, "ref.o")
    harness = os.path.join(tmp, "harness.o")
    timed([clang, *flags, "-c", "-I", examples_src,
           os.path.join(src, "fuzz_undo_ref.c"), "-o", ref])
    timed([clang, *flags, "-c", os.path.join(src, "fuzz_undo.c"),
           "-o", harness])
    out = {}
    for fault in [0, *FAULTS]:
        obj = os.path.join(tmp, f"undo{fault}.o")
        timed([clang, *flags, "-c", f"-DUNDO_FAULT={fault}",
               os.path.join(examples_src, "undo.c"), "-o", obj])
        out[fault] = os.path.join(tmp, f"fuzz{fault}")
        timed([clang, "-fsanitize=fuzzer", harness, ref, obj,
               "-o", out[fault]])
    return out


def fuzz(binary, seed, seconds, tmp):
    """(seconds, inputs run, trapped) of one libFuzzer run."""
    t, rc, out = timed([binary, f"-seed={seed}", f"-max_total_time={seconds}",
                        "-print_final_stats=1",
                        f"-artifact_prefix={tmp}/"], ok=(0, 1, 77))
    m = re.search(r"number_of_executed_units:\s*(\d+)", out)
    trapped = "deadly signal" in out or "ILL" in out or rc != 0
    return t, int(m.group(1)) if m else 0, trapped


def bcwalk_test(bcwalk, examples, fault, depth):
    """(seconds, failed) of test --reference at `depth`."""
    t, rc, out = timed([bcwalk, "test",
                        os.path.join(examples, f"undo-fault{fault}.bc"),
                        "--unit", "undo", "--depth", str(depth),
                        "--reference", os.path.join(examples, "undo.bc"),
                        "--format", "json"], ok=(0, 1))
    doc = json.loads(out[:out.rindex("}") + 1])
    return t, doc["oracle"]["failed"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bcwalk", required=True, help="bcwalk binary")
    ap.add_argument("--examples", required=True,
                    help="the build's examples/ folder (bitcode)")
    ap.add_argument("--clang", required=True, help="clang with libFuzzer")
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--clean", type=int, default=10,
                    help="seconds the correct build is fuzzed")
    args = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    examples_src = os.path.join(os.path.dirname(here), "examples")
    with tempfile.TemporaryDirectory() as tmp:
        fuzzers = build_fuzzers(args.clang, here, examples_src, tmp)
        t, inputs, trapped = fuzz(fuzzers[0], 1, args.clean, tmp)
        if trapped:
            fail("libFuzzer trapped on the correct build: a false alarm")
        for fault in FAULTS:  # bcwalk's workers built and cached
            bcwalk_test(args.bcwalk, args.examples, fault, 1)
        print_machine()
        print(f"Seeded faults of examples/undo.c, each judged against the "
              f"correct build; libFuzzer: median of {args.seeds} seeds; "
              f"the correct build fuzzed {args.clean} s "
              f"({inputs} inputs): no trap")
        print()
        print("| fault | bcwalk: least depth | bcwalk: depths 1..it (s) "
              f"| bcwalk: depth {DEPTH} (s), failing | libFuzzer: to the "
              "trap (s) | libFuzzer: inputs |")
        print("|---|---|---|---|---|---|")
        for fault, name in FAULTS.items():
            total, least = 0.0, None
            for depth in range(1, DEPTH + 1):
                t, differs = bcwalk_test(args.bcwalk, args.examples, fault,
                                         depth)
                total += t
                if differs:
                    least = depth
                    break
            if least is None:
                fail(f"bcwalk missed fault {fault} ({name}) at depth {DEPTH}")
            deep, differs = min(bcwalk_test(args.bcwalk, args.examples, fault,
                                            DEPTH) for _ in range(3))
            runs = [fuzz(fuzzers[fault], seed, 60, tmp)
                    for seed in range(1, args.seeds + 1)]
            if not all(trapped for _, _, trapped in runs):
                fail(f"libFuzzer missed fault {fault} ({name}) in 60 s")
            print(f"| {fault} {name} | {least} | {total:.2f} "
                  f"| {deep:.2f}, {differs} "
                  f"| {statistics.median(r[0] for r in runs):.2f} "
                  f"| {int(statistics.median(r[1] for r in runs))} |")


if __name__ == "__main__":
    main()
