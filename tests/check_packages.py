#!/usr/bin/env python3
"""check_packages.py - the Debian packages README.md lists for each step
(build and run, test, benchmark) must be those scripts/setup.sh installs
for it, no more and no fewer.

setup.sh holds them in BUILD_PKGS, CHECK_PKGS and BENCH_PKGS; the README
in three lines, `- to build and run bcwalk (...): a, b, ...`, `- to test
it (...): those and a, b, ...` and `- to benchmark it (...): those to
build and a, b, ...`, with setup.sh's $LLVM as 14.

--self-test checks the checker: a package dropped from the README, and
one added to setup.sh, must each be reported.

usage: check_packages.py [ROOT] | --self-test
Exit 0 when they agree; 1 with one line per problem."""
import os
import re
import shutil
import sys
import tempfile

STEPS = [("BUILD_PKGS", "- to build and run bcwalk"),
         ("CHECK_PKGS", "- to test it"),
         ("BENCH_PKGS", "- to benchmark it")]


def setup_lists(root):
    with open(os.path.join(root, "scripts", "setup.sh")) as f:
        text = f.read()
    lists = {}
    for var, _ in STEPS:
        m = re.search(r'^%s="([^"]*)"' % var, text, re.M)
        lists[var] = set(m.group(1).replace("$LLVM", "14").split()) \
            if m else None
    return lists


def readme_lists(root):
    with open(os.path.join(root, "README.md")) as f:
        lines = f.read().splitlines()
    lists = {}
    for var, start in STEPS:
        found = [l for l in lines if l.startswith(start)]
        if len(found) != 1:
            lists[var] = None
            continue
        names = found[0].split(": ", 1)[1]
        names = re.sub(r"^those( to build)? and ", "", names)
        lists[var] = {n.strip() for n in names.split(",")}
    return lists


def check(root):
    problems = []
    ours, theirs = setup_lists(root), readme_lists(root)
    for var, start in STEPS:
        if ours[var] is None:
            problems.append("scripts/setup.sh: no %s=\"...\" line" % var)
        elif theirs[var] is None:
            problems.append("README.md: not one line starting '%s'" % start)
        else:
            for p in sorted(ours[var] - theirs[var]):
                problems.append("README.md: '%s' lacks %s (setup.sh's %s)"
                                % (start, p, var))
            for p in sorted(theirs[var] - ours[var]):
                problems.append("README.md: '%s' lists %s, which setup.sh's "
                                "%s does not install" % (start, p, var))
    return problems


def self_test():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    failed = False
    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, "scripts"))
        for rel in ("README.md", os.path.join("scripts", "setup.sh")):
            shutil.copy(os.path.join(root, rel), os.path.join(d, rel))
        if check(d):
            print("self-test: the copy does not agree to start with")
            return 1
        # (file, its text changed, the problem that must be seen, what
        # the change was)
        plants = [("README.md", ("libz3-dev, ", ""), "lacks libz3-dev",
                   "a package dropped from the README"),
                  (os.path.join("scripts", "setup.sh"),
                   ('BENCH_PKGS="', 'BENCH_PKGS="valgrind '), "lacks valgrind",
                   "a package added to setup.sh")]
        for rel, (old, new), needle, what in plants:
            path = os.path.join(d, rel)
            with open(path) as f:
                text = f.read()
            with open(path, "w") as f:
                f.write(text.replace(old, new, 1))
            if not any(needle in p for p in check(d)):
                print("self-test: %s went unseen" % what)
                failed = True
            with open(path, "w") as f:
                f.write(text)
    return 1 if failed else 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    root = sys.argv[1] if len(sys.argv) > 1 else \
        os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    problems = check(root)
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
