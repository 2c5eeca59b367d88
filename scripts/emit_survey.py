#!/usr/bin/env python3
"""How many of the tests bcwalk --emit-c writes run, and pass, against the
library they were emitted from: one table row per unit.

usage: emit_survey.py BCWALK LIB.bc [--depth N] [--walk W] [--all]
                      [--sources "A.c B.c -Iinclude"] [--walk-args "..."]
                      [--keep DIR] [UNIT...]

Each unit (every unit of LIB.bc when none is named) is walked with
--emit-c; the files are built by clang with AddressSanitizer and cmocka,
with the library's sources when --sources gives them (as a user builds
them: clang instruments the sources, not a bitcode input), else with
LIB.bc itself, and run.  A test counts as run when cmocka ran it (not
skipped); it passes when cmocka says so.  Build and run times are the
files' (all of them, in one clang call)."""
import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import time


def units_of(bcwalk, lib):
    p = subprocess.run([bcwalk, "analyze", lib, "--format", "json"],
                       capture_output=True, text=True, check=True)
    return [u["name"] for u in json.loads(p.stdout)["units"]]


def survey(args, unit, work):
    stem = os.path.join(work, re.sub(r"\W", "_", unit))
    for old in glob.glob(stem + "*"):
        os.unlink(old)
    tests_c = stem + ".c"
    walk = [args.bcwalk, "explore", args.lib, "--unit", unit, "--walk",
            args.walk, "--depth", str(args.depth), "--emit-c", tests_c,
            "--format", "json"]
    if args.all:
        walk.append("--emit-c-all")
    walk += args.walk_args.split()
    p = subprocess.run(walk, capture_output=True, text=True)
    if not os.path.exists(tests_c):
        return {"unit": unit, "error": "walk: " + p.stderr.strip()[:200]}
    doc = json.loads(p.stdout) if p.stdout.strip() else {}
    files = sorted(glob.glob(stem + "_*.c"),
                   key=lambda f: int(re.search(r"_(\d+)\.c$", f).group(1)))
    files = [tests_c] + files
    head = open(tests_c).read(2000)
    m = re.search(r"(\d+) tests of its (\d+) sequences", head)
    exe = stem + ".exe"
    t0 = time.time()
    lib = args.sources.split() if args.sources else [args.lib]
    b = subprocess.run(["clang", "-g", "-w", "-fsanitize=address", "-o", exe,
                        *files, *lib, "-lcmocka", "-lm"],
                       capture_output=True, text=True)
    built = time.time() - t0
    if b.returncode != 0:
        return {"unit": unit, "error": "build: " + b.stderr.strip()[:300]}
    t0 = time.time()
    r = subprocess.run([exe], capture_output=True, text=True, timeout=3600)
    ran = time.time() - t0
    out = r.stdout + r.stderr
    passed = sum(int(n) for n in re.findall(r"\[  PASSED  \] (\d+) test", out))
    skipped = sum(int(n) for n in re.findall(r"\[  SKIPPED \] (\d+) test", out))
    failed = sum(int(n) for n in re.findall(r"\[  FAILED  \] (\d+) test", out))
    failures = re.findall(r"\[  FAILED  \] (seq_\d+)", out)
    return {"unit": unit, "tests": int(m.group(1)) if m else None,
            "sequences": int(m.group(2)) if m else None, "files": len(files),
            "passed": passed, "skipped": skipped, "failed": failed,
            "failures": failures[:5], "build_s": round(built, 1),
            "run_s": round(ran, 1), "rc": r.returncode,
            "halts": len(doc.get("halts", [])) if isinstance(doc, dict)
            else None}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bcwalk")
    ap.add_argument("lib")
    ap.add_argument("units", nargs="*")
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--walk", default="protocol")
    ap.add_argument("--all", action="store_true")
    ap.add_argument("--sources", help="the library's C files and flags")
    ap.add_argument("--walk-args", default="", help="more explore options")
    ap.add_argument("--keep", help="folder for the files (default: a "
                    "temporary one, removed)")
    args = ap.parse_args()
    units = args.units or units_of(args.bcwalk, args.lib)
    tmp = None if args.keep else tempfile.TemporaryDirectory()
    work = args.keep or tmp.name
    os.makedirs(work, exist_ok=True)
    print("| unit | sequences | tests | files | run | passed | skipped | "
          "failed | run % | build s | run s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    notes = []
    for unit in units:
        row = survey(args, unit, work)
        if "error" in row:
            print("| %s | | | | | | | | | | |" % unit)
            notes.append("%s: %s" % (unit, row["error"]))
            continue
        run = row["passed"] + row["failed"]
        total = run + row["skipped"]
        print("| %s | %s | %s | %d | %d | %d | %d | %d | %.1f | %.1f | %.1f |"
              % (unit, row["sequences"], row["tests"], row["files"], run,
                 row["passed"], row["skipped"], row["failed"],
                 100.0 * run / total if total else 0.0, row["build_s"],
                 row["run_s"]))
        if row["failed"]:
            notes.append("%s: failed %s" % (unit, ", ".join(row["failures"])))
        sys.stdout.flush()
    for n in notes:
        print("- " + n)


if __name__ == "__main__":
    main()
