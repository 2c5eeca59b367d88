"""golden.py - pins bcwalk's text reports of the examples to the files in
tests/golden/: `bcwalk analyze` of each example's bitcode and an `explore`
report of each unit.  ctest runs it as test_e2e_golden; `make golden` runs
it with --update, which writes the files anew (then read `git diff
tests/golden` before committing them).

The text reports hold no timing and no paths, so nothing is stripped: a
report must come out the same, byte for byte, on every run."""
import difflib
import os
import sys

import common
from common import bcwalk

# the file in tests/golden/, then the bcwalk arguments (examples by name).
# Depths keep each file under 40 KB: cfg's depth 2 would be 290 KB.
REPORTS = [("analyze-%s.txt" % bc, ("analyze", bc + ".bc"))
           for bc in ("bstack", "faulty", "counter", "ringq", "account",
                      "sbuf", "str", "slist", "dlist", "callee", "cfg",
                      "hset", "bank", "book", "tally", "iset", "outctor",
                      "sdsish", "shelf")]
EXPLORED = (  # example, unit, walk, depth, more arguments
    ("bstack", "bstack", "protocol", 3, ()),
    ("bstack", "bstack", "algebra", 3, ()),
    ("bstack", "bstack", "state", 2, ()),
    # five hangs: each costs the time-out
    ("faulty", "faulty", "protocol", 2, ("--timeout", "200")),
    ("counter", "counter", "protocol", 2, ()),
    ("ringq", "ringq", "protocol", 3, ()),
    ("account", "account", "protocol", 2, ()),
    ("sbuf", "sbuf", "protocol", 2, ()),
    ("sbuf", "sbuf_pool", "protocol", 3, ()),
    ("str", "str", "protocol", 3, ()),
    ("slist", "entry", "protocol", 3, ()),
    ("dlist", "dlist", "protocol", 3, ()),
    ("callee", "tank", "protocol", 2, ()),
    ("cfg", "cfg", "protocol", 1, ()),
    ("hset", "hset", "protocol", 2, ()),
    ("bank", "bank", "protocol", 2, ()),
    ("book", "book", "protocol", 3, ()),
    ("tally", "tally", "protocol", 3, ()),
    ("iset", "iset", "protocol", 3, ()),
    # the unit by its typedef
    ("outctor", "OcVec", "protocol", 2, ()),
    ("sdsish", "hstr", "protocol", 2, ()))
REPORTS += [("explore-%s-%s-%d.txt" % (unit, walk, depth),
             ("explore", bc + ".bc", "--unit", unit, "--walk", walk,
              "--depth", str(depth), *more))
            for bc, unit, walk, depth, more in EXPLORED]

# lines of a failing file's diff shown; the whole report is in --tmp
SHOWN = 80


def command(args):
    """The report's command as a user types it."""
    return "bcwalk " + " ".join(args)


def report(args):
    """bcwalk's stdout for `args`, the example named by the second."""
    args = (args[0], common.example(args[1])) + args[2:]
    return bcwalk(*args, check=0).stdout


def check(golden, tmp):
    """Compares every report with its file; prints a diff for each that
    differs.  Returns how many differ or are missing or stale."""
    bad = 0
    for name, args in REPORTS:
        path = os.path.join(golden, name)
        out = report(args)
        try:
            with open(path) as f:
                want = f.read()
        except FileNotFoundError:
            want = None
        if out == want:
            continue
        bad += 1
        got = os.path.join(tmp, name)
        with open(got, "w") as f:
            f.write(out)
        if want is None:
            print("%s: missing (the report is in %s)" % (path, got))
            continue
        diff = list(difflib.unified_diff(
            want.splitlines(keepends=True), out.splitlines(keepends=True),
            "tests/golden/" + name, command(args)))
        print("".join(diff[:SHOWN]), end="")
        if len(diff) > SHOWN:
            print("... %d more lines of diff" % (len(diff) - SHOWN))
        print("whole report: %s\n" % got)
    known = {name for name, _ in REPORTS}
    for name in sorted(set(os.listdir(golden)) - known):
        if name.endswith(".txt"):
            bad += 1
            print("%s: stale, no report makes it" % os.path.join(golden, name))
    return bad


def update(golden):
    """Writes every report to its file and removes stale files."""
    os.makedirs(golden, exist_ok=True)
    written = 0
    for name, args in REPORTS:
        path = os.path.join(golden, name)
        out = report(args)
        try:
            with open(path) as f:
                same = f.read() == out
        except FileNotFoundError:
            same = False
        if not same:
            with open(path, "w") as f:
                f.write(out)
            print("wrote %s (%d bytes)" % (path, len(out)))
            written += 1
    known = {name for name, _ in REPORTS}
    for name in sorted(set(os.listdir(golden)) - known):
        if name.endswith(".txt"):
            os.unlink(os.path.join(golden, name))
            print("removed %s" % os.path.join(golden, name))
    print("%d reports, %d written anew in %s" % (len(REPORTS), written, golden))


def main():
    def extra(ap):
        ap.add_argument("--golden", default=common.source("tests", "golden"))
        ap.add_argument("--update", action="store_true",
                        help="write the files instead of comparing")
    common.ARGS, rest = common.parse_args(extra=extra)
    if rest:
        sys.exit("golden.py: unknown arguments %s" % " ".join(rest))
    if common.ARGS.update:
        update(common.ARGS.golden)
        return 0
    bad = check(common.ARGS.golden, common.own_tmp(common.ARGS.tmp, "golden"))
    if bad:
        print("tests/golden: %d files differ, are missing or are stale "
              "(of %d reports). If the change is meant: make golden, then "
              "review git diff tests/golden" % (bad, len(REPORTS)))
        return 1
    print("%d reports match tests/golden" % len(REPORTS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
