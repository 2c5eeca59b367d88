#!/usr/bin/env python3
"""Oracle benchmark: what judging a walk against its oracle costs
(`bcwalk test`, docs/oracle.md) against the same walk explored, and how
big and how fast to load the oracle of a deep walk is.

For each unit runs, wall clock, best of --repeat: `explore --format json`
(the walk, counted), `explore` (every sequence printed, as a person
reads a walk), `test --accept` on a fresh oracle (the baseline:
judged, the oracle made and saved), `test` against that oracle (every
sequence checked, loading and all), and `oracle dump` (loading it and
printing every entry). Checks that the checking run passed every
sequence. Used by `make bench`; standard library only.
"""
import argparse
import json
import os
import tempfile

from bench import fail, print_machine, timed


def best(cmd, repeat, before=None):
    """The fastest of `repeat` runs of cmd (each after `before()`), and
    the last one's stdout."""
    times, out = [], ""
    for _ in range(repeat):
        if before:
            before()
        t, _, out = timed(cmd)
        times.append(t)
    return min(times), out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bcwalk", required=True, help="bcwalk binary")
    ap.add_argument("--examples", required=True,
                    help="the build's examples/ folder (bitcode)")
    ap.add_argument("--units", default="bstack:bstack:9,ringq:ringq:9")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    print("## Oracles: bcwalk test against explore\n")
    print_machine()
    print()
    print("| unit | depth | sequences | explore json s | explore text s | "
          "test --accept s | test s | test / explore json | oracle entries "
          "| oracle KiB | oracle dump s |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for spec in args.units.split(","):
            bc, unit, depth = spec.split(":")
            oracle = os.path.join(tmp, unit + ".oracle.msgpack")
            walk = [os.path.join(args.examples, bc + ".bc"), "--unit", unit,
                    "--depth", depth, "--prune", "none", "--format", "json"]
            t_explore, _ = best([args.bcwalk, "explore", *walk], args.repeat)
            t_text, _ = best([args.bcwalk, "explore", *walk[:-2]], args.repeat)

            def fresh():
                if os.path.exists(oracle):
                    os.unlink(oracle)
            t_accept, _ = best([args.bcwalk, "test", *walk, "--oracle", oracle,
                                "--accept"], args.repeat, fresh)
            t_test, out = best([args.bcwalk, "test", *walk, "--oracle",
                                oracle], args.repeat)
            doc = json.loads(out)
            seqs = doc["sequences"]["normal"] + doc["sequences"]["terminated"]
            judged = doc["oracle"]
            if judged["passed"] + doc["sequences"]["predicted_void"] > seqs or \
                    judged["failed"] + judged["new"] + judged["changed"] + \
                    judged["pending"] != 0:
                fail(f"{unit}: the checking run did not pass: {judged}")
            t_dump, dump = best([args.bcwalk, "oracle", "dump", oracle],
                                args.repeat)
            entries = len(json.loads(dump)["entries"])
            size = os.path.getsize(oracle)
            print(f"| {unit} | {depth} | {seqs} | {t_explore:.2f} | "
                  f"{t_text:.2f} | {t_accept:.2f} | {t_test:.2f} | "
                  f"{t_test / t_explore:.2f}x | {entries} | "
                  f"{size / 1024:.1f} | {t_dump:.3f} |")
    print()


if __name__ == "__main__":
    main()
