#!/usr/bin/env python3
"""Analyzer benchmark: `bcwalk analyze` on a generated module of 1,000
units (11,000 functions) and on SQLite's amalgamation (fetched from the
npm registry's better-sqlite3 package into a temporary folder, never
committed).  Prints seconds (best of --repeat) and peak memory."""
import argparse
import glob
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def analyze(bcwalk, bc, repeat):
    best, peak, doc = None, 0, None
    for _ in range(repeat):
        with tempfile.TemporaryFile("w+") as out:
            t0 = time.perf_counter()
            p = subprocess.Popen([bcwalk, "analyze", bc, "--format", "json"],
                                 stdout=out, stderr=subprocess.DEVNULL)
            # wait4 gives this child's own peak memory, not clang's
            _, status, usage = os.wait4(p.pid, 0)
            dt = time.perf_counter() - t0
            p.returncode = os.waitstatus_to_exitcode(status)
            if p.returncode != 0:
                sys.exit(f"bench: bcwalk analyze {bc} failed")
            peak = max(peak, usage.ru_maxrss)
            best = dt if best is None else min(best, dt)
            out.seek(0)
            doc = json.load(out)
    units = len(doc["units"])
    funcs = sum(len(u["constructors"]) + len(u["destructors"]) +
                len(u["methods"]) for u in doc["units"])
    preds = sum(len(u["predicates"]) for u in doc["units"])
    return best, peak, units, funcs, preds


def count_defined(dis, bc):
    try:
        p = subprocess.run([dis, bc, "-o", "-"], capture_output=True,
                           text=True)
        return sum(1 for line in p.stdout.splitlines()
                   if line.startswith("define "))
    except OSError:
        return 0


def sqlite_source(tmp):
    """SQLite's amalgamation from better-sqlite3 on the npm registry."""
    try:
        p = subprocess.run(["npm", "pack", "better-sqlite3", "--silent"],
                           cwd=tmp, capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.TimeoutExpired) as e:
        print(f"(SQLite skipped: npm pack failed: {e})")
        return None
    tgz = glob.glob(os.path.join(tmp, "better-sqlite3-*.tgz"))
    if p.returncode != 0 or not tgz:
        print(f"(SQLite skipped: npm pack failed: {p.stderr.strip()})")
        return None
    with tarfile.open(tgz[0]) as t:
        t.extractall(tmp, filter="data")
    src = os.path.join(tmp, "package", "deps", "sqlite3", "sqlite3.c")
    return src if os.path.exists(src) else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bcwalk", required=True)
    ap.add_argument("--clang", required=True)
    ap.add_argument("--llvm-dis", required=True)
    ap.add_argument("--solver", default="",
                    help="bench_solver binary: adds the solver's table")
    ap.add_argument("--units", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    rows = []
    solver_inputs = []
    with tempfile.TemporaryDirectory() as tmp:
        gen_c = os.path.join(tmp, "generated.c")
        with open(gen_c, "w") as f:
            subprocess.run([sys.executable, os.path.join(HERE, "gen_units.py"),
                            str(args.units)], stdout=f, check=True)
        inputs = [(f"generated, {args.units} units", gen_c, [])]
        sq = sqlite_source(tmp)
        if sq:
            inputs.append(("SQLite 3 amalgamation", sq,
                           ["-DSQLITE_THREADSAFE=0",
                            "-DSQLITE_OMIT_LOAD_EXTENSION"]))
        for name, src, flags in inputs:
            bc = src + ".bc"
            lines = sum(1 for _ in open(src, errors="replace"))
            subprocess.run([args.clang, "-g", "-c", "-emit-llvm", *flags, src,
                            "-o", bc], check=True, capture_output=True)
            solver_inputs.append(bc)
            secs, peak, units, funcs, preds = analyze(args.bcwalk, bc,
                                                      args.repeat)
            rows.append((name, lines, count_defined(args.llvm_dis, bc),
                         os.path.getsize(bc), units, funcs, preds, secs, peak))
        solver_table = ""
        if args.solver:
            ex = os.path.join(os.path.dirname(args.bcwalk), "examples")
            extra = [os.path.join(ex, f) for f in
                     ("account.bc", "sbuf.bc", "faulty.bc", "bank.bc", "cfg.bc",
                      "hset.bc")]
            p = subprocess.run([args.solver, *extra, *solver_inputs],
                               capture_output=True, text=True)
            if p.returncode != 0:
                sys.exit(f"bench: bench_solver failed: {p.stderr.strip()}")
            solver_table = p.stdout
    print(f"Analyzer: bcwalk analyze --format json, -O0 -g bitcode, best of "
          f"{args.repeat}\n")
    print("| input | C lines | defined functions | .bc bytes | units | "
          "unit functions | predicates | seconds | peak RSS |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, lines, defined, size, units, funcs, preds, secs, peak in rows:
        print(f"| {name} | {lines:,} | {defined:,} | {size:,} | {units:,} | "
              f"{funcs:,} | {preds:,} | {secs:.2f} | {peak / 1024:.0f} MB |")
    if solver_table:
        print("\nSolver: Z3 categories against the analysis they follow "
              "(one run)\n")
        print(solver_table, end="")


if __name__ == "__main__":
    main()
