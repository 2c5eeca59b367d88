#!/usr/bin/env python3
"""Mutation benchmark: IR mutants of example units, bcwalk against libFuzzer.

How many IR mutants of example units bcwalk's walks kill, against a
libFuzzer differential harness on the same mutants.

For each unit, `mutate list` (mutate.c) names the mutation sites of the
unit's bitcode (icmp predicates negated or their boundary moved, integer
constants +-1, stores dropped, branches inverted, returned values
replaced) and `mutate apply` writes each mutant.  For each walk and depth,
an oracle is trained once on the correct build (`bcwalk test --accept`)
and checked to pass it again, unchanged; then each mutant runs `bcwalk
test MUTANT.bc --oracle` (on a fresh copy of that oracle) and `bcwalk
test MUTANT.bc --reference CORRECT.bc`: exit 1 kills it, exit 0 lets it
survive, anything else is an error, reported.  A walk of depth d runs
every sequence of the same walk of depth d - 1, so depths run in
ascending order and a mutant killed at d counts as killed deeper without
running (--every-depth runs every cell).  UNIT_OPTIONS holds a unit's
own bcwalk test options, passed to every test of it (training, oracle
and reference): slots runs with --boundaries, its categories bounded by
its field n, so the oracle records those boundary values and the mutant
is tested on them, not on values it would move along with itself.

The libFuzzer column: fuzz_mutant_<unit>.c runs one operation sequence on
the mutant (compiled from its bitcode with -fsanitize=fuzzer) and on the
correct build renamed ref_*, trapping on the first difference, for
--fuzz-seconds per mutant; a trap, crash or time-out kills it.  The
correct build is fuzzed as long first: a trap there is a false alarm.

Then the survivors: every mutant no bcwalk column kills at the deepest
depth run, with JUDGED's verdict (equivalent or not, and why; a person's
judgement, kept here by unit, id and description), and every mutant
libFuzzer kills and bcwalk does not, with the operations of its crash
input.  --check fails the benchmark unless bcwalk kills at least 99% of
the mutants not judged equivalent, and no fewer than libFuzzer.
Standard library only.
"""
import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from bench import fail, print_machine

UNITS = {"undo": "undo.c", "bstack": "bstack.c", "ringq": "ringq.c",
         "counter": "counter.c", "slots": "slots.c"}
# A unit's own bcwalk test options, on every test of it.
UNIT_OPTIONS = {"slots": ["--boundaries"]}
WALKS = ("protocol", "algebra", "state")
COLUMNS = ("oracle", "reference")

# Survivors judged by a person: (unit, id, description) -> (equivalent,
# why).  A survivor whose description changed is reported unjudged.
# undo_ok is the invariant: every state the API reaches has 0 <= size
# <= 3, 0 <= bottom < 3 and dropped >= 0, so a weaker check answers the
# same on all of them.
JUDGED = {
    ("undo", 4, "undo_ok:66: icmp constant 0 -> -1"):
        (True, "invariant weakened to size >= -1: size is never negative"),
    ("undo", 8, "undo_ok:66: icmp constant 3 -> 4"):
        (True, "invariant weakened to size <= 4: size never passes 3"),
    ("undo", 14, "undo_ok:66: icmp constant 0 -> -1"):
        (True, "invariant weakened to bottom >= -1: bottom is never "
               "negative"),
    ("undo", 17, "undo_ok:67: icmp slt -> sle"):
        (True, "invariant weakened to bottom <= 3: bottom stays below 3"),
    ("undo", 18, "undo_ok:67: icmp constant 3 -> 4"):
        (True, "invariant weakened to bottom < 4: bottom stays below 3"),
    ("undo", 24, "undo_ok:67: icmp constant 0 -> -1"):
        (True, "invariant weakened to dropped >= -1: dropped only grows "
               "from 0"),
    ("undo", 52, "undo_clear:107: store to field 1: constant 0 -> 1"):
        (True, "clear sets bottom to 1, not 0: with size 0 every slot is "
               "taken relative to bottom, so no result depends on it"),
    ("undo", 54, "undo_clear:107: store to field 1 dropped"):
        (True, "clear keeps bottom: with size 0 every slot is taken "
               "relative to bottom, so no result depends on it"),
    ("counter", 14, "clamp:16: icmp sgt -> sge"):
        (True, "v > limit to v >= limit: at v == limit both return limit"),
    ("counter", 22, "counter_read:37: return 0"):
        (True, "counter_read always returns 0"),
    ("slots", 42, "slots_give:82: icmp constant 0 -> -1"):
        (False, "i < 0 made i < -1: slots_give(-1) shifts used by -1, "
                "bit 63 at -O0 on x86: slots_open(64), 64 slots_take, "
                "slots_give(-1) is true (reference false), 66 calls"),
}


def run(cmd, env=None, timeout=600):
    """Wall seconds, exit status and output (stdout then stderr) of cmd;
    the status None when it ran past `timeout` seconds and was killed."""
    t = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, env=env,
                           errors="replace", timeout=timeout)
    except subprocess.TimeoutExpired:
        return time.monotonic() - t, None, f"killed after {timeout} s"
    except OSError as e:
        fail(f"cannot run {cmd[0]}: {e}")
    return time.monotonic() - t, p.returncode, p.stdout + p.stderr


def checked(cmd, env=None):
    """Output of cmd, which must succeed."""
    _, rc, out = run(cmd, env)
    if rc != 0:
        fail(f"{' '.join(cmd)}: exit {rc}: {out.strip()[-400:]}")
    return out


def parallel(jobs, fn, items):
    """fn over items on `jobs` threads, results in order."""
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        return list(pool.map(fn, items))


class Unit:
    """One unit's correct build, mutants and results."""

    def __init__(self, name, correct, tmp):
        self.name = name
        self.correct = correct
        self.dir = os.path.join(tmp, name)
        os.makedirs(self.dir)
        self.mutants = []  # dicts: id, function, kind, description, path
        self.oracles = {}  # (walk, depth) -> trained oracle path
        self.cells = {}    # (walk, depth, column) -> {id: outcome}
        self.seconds = {}  # (walk, depth, column) -> wall seconds
        self.fuzz = {}     # id -> {"killed", "seconds", "trace"}


def correct_bitcode(args, unit, tmp):
    """The correct build's bitcode: the build's, or compiled -g -O0 as
    the examples are."""
    if args.examples:
        path = os.path.join(args.examples, unit + ".bc")
        if not os.path.exists(path):
            fail(f"{path}: no such bitcode (build the examples first)")
        return path
    path = os.path.join(tmp, unit + ".bc")
    checked([args.clang, "-g", "-c", "-emit-llvm", "-I",
             os.path.join(args.source, "include"),
             os.path.join(args.source, "examples", UNITS[unit]), "-o", path])
    return path


def make_mutants(args, u):
    """Lists u's mutation sites and writes each mutant."""
    for line in checked([args.mutate, "list", u.correct]).splitlines():
        mid, function, kind, description = line.split("\t")
        u.mutants.append({"id": int(mid), "function": function, "kind": kind,
                          "description": description,
                          "path": os.path.join(u.dir, f"m{mid}.bc")})
    parallel(args.jobs, lambda m: checked(
        [args.mutate, "apply", u.correct, str(m["id"]), m["path"]]),
        u.mutants)


def bcwalk_test(args, u, bitcode, walk, depth, judge, env):
    """(seconds, exit status, output) of one bcwalk test, with the unit's
    own options."""
    return run([args.bcwalk, "test", bitcode, "--unit", u.name, "--walk",
                walk, "--depth", str(depth), "--jobs", "1", "--format",
                "json", *UNIT_OPTIONS.get(u.name, []), *judge], env)


def train_oracles(args, u, env):
    """One oracle per walk and depth, trained on the correct build; the
    correct build must then pass it, and its own reference, unchanged."""
    for walk in args.walks:
        for depth in args.depths:
            oracle = os.path.join(u.dir, f"{walk}-{depth}.oracle")
            _, rc, out = bcwalk_test(args, u, u.correct, walk, depth,
                                     ["--oracle", oracle, "--accept"], env)
            if rc != 0:
                fail(f"{u.name} {walk} {depth}: training the oracle: exit "
                     f"{rc}: {out.strip()[-400:]}")
            u.oracles[walk, depth] = oracle
            for column in COLUMNS:
                _, rc, out = judged_run(args, u, u.correct, walk, depth,
                                        column, env)
                if rc != 0:
                    fail(f"{u.name} {walk} {depth} {column}: the correct "
                         f"build fails its own judgement: a false alarm: "
                         f"exit {rc}: {out.strip()[-400:]}")


def judged_run(args, u, bitcode, walk, depth, column, env):
    """bcwalk test of bitcode against the oracle (a fresh copy) or the
    correct build."""
    if column == "reference":
        judge = ["--reference", u.correct]
        return bcwalk_test(args, u, bitcode, walk, depth, judge, env)
    with tempfile.NamedTemporaryFile(dir=u.dir, suffix=".oracle") as copy:
        shutil.copyfile(u.oracles[walk, depth], copy.name)
        return bcwalk_test(args, u, bitcode, walk, depth,
                           ["--oracle", copy.name], env)


def outcome(rc, out):
    """killed, survived, or the error of one run."""
    if rc == 1:
        return "killed"
    if rc == 0:
        return "survived"
    last = [line for line in out.strip().splitlines() if line][-1:]
    return f"error: exit {rc}: {last[0][:200] if last else ''}"


def walk_mutant(args, u, env, job):
    """Runs one mutant's walk and column over the depths: {depth:
    (outcome, seconds)}."""
    m, walk, column = job
    results, killed = {}, False
    for depth in args.depths:
        if killed and not args.every_depth:
            results[depth] = ("killed", 0.0)
            continue
        t, rc, out = judged_run(args, u, m["path"], walk, depth, column, env)
        if rc not in (0, 1):
            # once more: bcwalk may have been rebuilt under the run
            time.sleep(5)
            t, rc, out = judged_run(args, u, m["path"], walk, depth, column,
                                    env)
        results[depth] = (outcome(rc, out), t)
        killed = results[depth][0] == "killed"
    return results


def run_bcwalk(args, u, env):
    jobs = [(m, walk, column) for m in u.mutants for walk in args.walks
            for column in COLUMNS]
    for (m, walk, column), results in zip(
            jobs, parallel(args.jobs, lambda j: walk_mutant(args, u, env, j),
                           jobs)):
        for depth, (result, t) in results.items():
            u.cells.setdefault((walk, depth, column), {})[m["id"]] = result
            key = (walk, depth, column)
            u.seconds[key] = u.seconds.get(key, 0.0) + t


def fuzzer_of(args, u, harness, bitcode, name):
    """The harness linked with `bitcode` (the build under test)."""
    obj = os.path.join(u.dir, name + ".o")
    binary = os.path.join(u.dir, name + ".fuzz")
    checked([args.clang, "-O1", "-fsanitize=fuzzer", "-c", bitcode, "-o",
             obj])
    checked([args.clang, "-fsanitize=fuzzer", harness, obj, "-o", binary])
    os.remove(obj)
    return binary


def fuzz(args, binary, artifact):
    """(seconds, trapped) of one libFuzzer run from an empty corpus.  A
    mutant that corrupts the heap can deadlock libFuzzer's own time-out
    handler (malloc's lock): killed from outside, it counts as a hang."""
    t, rc, _ = run([binary, "-seed=1", f"-max_total_time={args.fuzz_seconds}",
                    "-timeout=2", f"-exact_artifact_path={artifact}"],
                   timeout=args.fuzz_seconds + 30)
    return t, rc != 0


def trace(binary, artifact):
    """The operations of a crash input, as the harness prints them."""
    env = dict(os.environ, FUZZ_TRACE="1")
    _, _, out = run([binary, artifact], env, timeout=30)
    return [line[2:] for line in out.splitlines() if line.startswith("| ")]


def run_fuzzer(args, u):
    harness = os.path.join(u.dir, "harness.o")
    checked([args.clang, "-g", "-O1", "-fsanitize=fuzzer", "-c", "-I",
             os.path.join(args.source, "examples"),
             os.path.join(args.source, "benchmarks",
                          f"fuzz_mutant_{u.name}.c"), "-o", harness])
    clean = fuzzer_of(args, u, harness, u.correct, "correct")
    _, trapped = fuzz(args, clean, os.path.join(u.dir, "crash-correct"))
    if trapped:
        fail(f"{u.name}: libFuzzer trapped on the correct build: a false "
             "alarm")

    def one(m):
        binary = fuzzer_of(args, u, harness, m["path"], f"m{m['id']}")
        artifact = os.path.join(u.dir, f"crash-m{m['id']}")
        t, trapped = fuzz(args, binary, artifact)
        steps = trace(binary, artifact) if trapped else []
        os.remove(binary)
        return {"killed": trapped, "seconds": t, "trace": steps}

    for m, result in zip(u.mutants, parallel(args.jobs, one, u.mutants)):
        u.fuzz[m["id"]] = result


def killed_by_bcwalk(args, u, mid):
    """Whether any bcwalk column kills mutant mid at the deepest depth."""
    deepest = max(args.depths)
    return any(u.cells[walk, deepest, column][mid] == "killed"
               for walk in args.walks for column in COLUMNS)


def judgement(u, m):
    """(equivalent or None when unjudged, why) of a survivor."""
    return JUDGED.get((u.name, m["id"], m["description"]), (None, "unjudged"))


def count(cell):
    return sum(1 for result in cell.values() if result == "killed")


def errors(cell):
    return sum(1 for result in cell.values() if result.startswith("error"))


def print_table(args, units):
    print("| unit | walk | depth | oracle killed/total | reference "
          "killed/total | either | errors | oracle s | reference s |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for u in units:
        total = len(u.mutants)
        for walk in args.walks:
            for depth in args.depths:
                cells = [u.cells[walk, depth, c] for c in COLUMNS]
                either = sum(1 for m in u.mutants
                             if any(c[m["id"]] == "killed" for c in cells))
                print(f"| {u.name} | {walk} | {depth} "
                      f"| {count(cells[0])}/{total} "
                      f"| {count(cells[1])}/{total} | {either}/{total} "
                      f"| {sum(errors(c) for c in cells)} "
                      f"| {u.seconds[walk, depth, 'oracle']:.1f} "
                      f"| {u.seconds[walk, depth, 'reference']:.1f} |")


def summary(args, u):
    """Counts of u's mutants: total, killed by bcwalk and libFuzzer, and
    the same among the non-equivalent (unjudged ones count as such)."""
    rows = {"total": len(u.mutants), "bcwalk": 0, "libfuzzer": 0,
            "equivalent": 0, "bcwalk_nonequiv": 0, "libfuzzer_nonequiv": 0}
    for m in u.mutants:
        by_bcwalk = killed_by_bcwalk(args, u, m["id"])
        by_fuzz = u.fuzz.get(m["id"], {}).get("killed", False)
        equivalent = not by_bcwalk and judgement(u, m)[0] is True
        rows["bcwalk"] += by_bcwalk
        rows["libfuzzer"] += by_fuzz
        rows["equivalent"] += equivalent
        if not equivalent:
            rows["bcwalk_nonequiv"] += by_bcwalk
            rows["libfuzzer_nonequiv"] += by_fuzz
    return rows


def print_summary(args, units):
    fuzzed = args.fuzz_seconds > 0
    print(f"\n| unit | mutants | bcwalk killed (depth <= {max(args.depths)}, "
          "any walk or column) | libFuzzer killed | judged equivalent "
          "| bcwalk on non-equivalent | libFuzzer on non-equivalent "
          "| libFuzzer s |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    totals = {}
    for u in units:
        rows = summary(args, u)
        for key, value in rows.items():
            totals[key] = totals.get(key, 0) + value
        seconds = sum(r["seconds"] for r in u.fuzz.values())
        print_summary_row(u.name, rows, fuzzed, seconds)
    seconds = sum(r["seconds"] for u in units for r in u.fuzz.values())
    print_summary_row("all", totals, fuzzed, seconds)
    return totals


def print_summary_row(name, rows, fuzzed, seconds):
    nonequiv = rows["total"] - rows["equivalent"]
    share = (lambda k: f"{rows[k]}/{nonequiv} "
             f"({100.0 * rows[k] / nonequiv if nonequiv else 100.0:.1f}%)")
    fuzz = (f"{rows['libfuzzer']}/{rows['total']}", share("libfuzzer_nonequiv"),
            f"{seconds:.0f}") if fuzzed else ("-", "-", "-")
    print(f"| {name} | {rows['total']} | {rows['bcwalk']}/{rows['total']} "
          f"| {fuzz[0]} | {rows['equivalent']} | {share('bcwalk_nonequiv')} "
          f"| {fuzz[1]} | {fuzz[2]} |")


def print_survivors(args, units):
    print(f"\nSurvivors (no bcwalk column kills them at depth "
          f"{max(args.depths)}):\n")
    print("| unit | id | mutant | libFuzzer | equivalent | why |")
    print("|---|---:|---|---|---|---|")
    for u in units:
        for m in u.mutants:
            if killed_by_bcwalk(args, u, m["id"]):
                continue
            equivalent, why = judgement(u, m)
            fuzz = u.fuzz.get(m["id"])
            print(f"| {u.name} | {m['id']} | {m['description']} "
                  f"| {'-' if fuzz is None else 'killed' if fuzz['killed'] else 'survived'} "
                  f"| {'?' if equivalent is None else 'yes' if equivalent else 'no'} "
                  f"| {why} |")


def print_differences(args, units):
    """Mutants one tool kills and the other does not (libFuzzer's with
    the crash input's operations, its last 12), and bcwalk's errors."""
    print("\nKilled by libFuzzer, not by bcwalk:\n")
    found = False
    for u in units:
        for m in u.mutants:
            fuzz = u.fuzz.get(m["id"])
            if fuzz and fuzz["killed"] and not killed_by_bcwalk(args, u,
                                                                m["id"]):
                found = True
                print(f"- {u.name} {m['id']} {m['description']}: "
                      + "; ".join(fuzz["trace"][-12:]))
    if not found:
        print("- none")
    print("\nKilled by bcwalk, not by libFuzzer:\n")
    found = False
    for u in units:
        for m in u.mutants:
            fuzz = u.fuzz.get(m["id"])
            if fuzz and not fuzz["killed"] and killed_by_bcwalk(args, u,
                                                                m["id"]):
                found = True
                print(f"- {u.name} {m['id']} {m['description']}")
    if not found:
        print("- none")
    print("\nErrors (bcwalk exit status neither 0 nor 1):\n")
    found = False
    for u in units:
        for (walk, depth, column), cell in sorted(u.cells.items()):
            for mid, result in cell.items():
                if result.startswith("error"):
                    found = True
                    print(f"- {u.name} {mid} {walk} {depth} {column}: "
                          f"{result}")
    if not found:
        print("- none")


def write_json(path, args, units, totals):
    doc = {"depths": args.depths, "walks": args.walks,
           "fuzz_seconds": args.fuzz_seconds, "totals": totals, "units": []}
    for u in units:
        doc["units"].append({
            "unit": u.name,
            "mutants": [{k: m[k] for k in ("id", "function", "kind",
                                            "description")}
                        | {"bcwalk": {f"{w}/{d}/{c}": u.cells[w, d, c][m["id"]]
                                      for w in args.walks for d in args.depths
                                      for c in COLUMNS},
                           "libfuzzer": u.fuzz.get(m["id"]),
                           "judged": judgement(u, m)}
                        for m in u.mutants],
            "seconds": {f"{w}/{d}/{c}": t for (w, d, c), t in u.seconds.items()},
        })
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(doc, f, indent=1)
    os.replace(tmp, path)


def parse_args():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bcwalk", required=True, help="bcwalk binary")
    ap.add_argument("--mutate", required=True, help="mutate binary (mutate.c)")
    ap.add_argument("--clang", required=True, help="clang with libFuzzer")
    ap.add_argument("--examples", help="the build's examples/ folder "
                    "(bitcode); default: compile the units from --source")
    ap.add_argument("--source", default=os.path.dirname(here),
                    help="bcwalk's source tree (default: this file's)")
    ap.add_argument("--units", default=",".join(UNITS),
                    help=f"comma-separated, of {', '.join(UNITS)}")
    ap.add_argument("--walks", default=",".join(WALKS))
    ap.add_argument("--depths", default="1,2,3,4")
    ap.add_argument("--every-depth", action="store_true",
                    help="run every depth, not only up to the first kill")
    ap.add_argument("--fuzz-seconds", type=int, default=10,
                    help="libFuzzer seconds per mutant (0: no libFuzzer)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--json", help="also write the results as JSON")
    ap.add_argument("--check", action="store_true",
                    help="exit 1 unless bcwalk kills at least 99%% of the "
                    "non-equivalent mutants and no fewer than libFuzzer")
    args = ap.parse_args()
    args.units = args.units.split(",")
    args.walks = args.walks.split(",")
    try:
        args.depths = sorted(int(d) for d in args.depths.split(","))
    except ValueError:
        fail(f"bad --depths {args.depths!r}")
    if any(unit not in UNITS for unit in args.units):
        fail(f"--units: one of {', '.join(UNITS)}")
    if any(walk not in WALKS for walk in args.walks):
        fail(f"--walks: of {', '.join(WALKS)}")
    if args.jobs < 1 or args.fuzz_seconds < 0:
        fail("--jobs must be at least 1, --fuzz-seconds at least 0")
    return args


def main():
    args = parse_args()
    units = []
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        # the mutants' workers cached here, not in the user's cache
        env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, "cache"))
        for name in args.units:
            u = Unit(name, correct_bitcode(args, name, tmp), tmp)
            make_mutants(args, u)
            train_oracles(args, u, env)
            run_bcwalk(args, u, env)
            if args.fuzz_seconds > 0:
                run_fuzzer(args, u)
            units.append(u)
            print(f"bench_mutants: {name}: {len(u.mutants)} mutants, "
                  f"{time.monotonic() - started:.0f} s", file=sys.stderr)
        print_machine()
        print(f"Mutants of {', '.join(args.units)}: bcwalk test against an "
              f"oracle trained on the correct build, and against it as "
              f"--reference; libFuzzer {args.fuzz_seconds} s per mutant; "
              f"{'every depth run' if args.every_depth else 'a mutant killed at a depth counted killed deeper'}"
              + "".join(f"; {name} with {' '.join(UNIT_OPTIONS[name])}"
                        for name in args.units if name in UNIT_OPTIONS)
              + "\n")
        print_table(args, units)
        totals = print_summary(args, units)
        print_survivors(args, units)
        print_differences(args, units)
        if args.json:
            write_json(args.json, args, units, totals)
        print(f"\nTotal {time.monotonic() - started:.0f} s")
    if args.check:
        check(totals)


def check(totals):
    """Fails unless bcwalk kills 99% of the non-equivalent mutants and no
    fewer than libFuzzer."""
    nonequiv = totals["total"] - totals["equivalent"]
    if totals["bcwalk_nonequiv"] < 0.99 * nonequiv:
        fail(f"bcwalk killed {totals['bcwalk_nonequiv']} of {nonequiv} "
             "non-equivalent mutants: under 99%")
    if totals["bcwalk_nonequiv"] < totals["libfuzzer_nonequiv"]:
        fail(f"bcwalk killed {totals['bcwalk_nonequiv']} non-equivalent "
             f"mutants, libFuzzer {totals['libfuzzer_nonequiv']}")


if __name__ == "__main__":
    main()
