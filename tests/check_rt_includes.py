#!/usr/bin/env python3
"""check_rt_includes.py - the worker runtime's files depend on each other
without a cycle (explorer/runtime/README.md).

File X depends on file Y when X.c or X.h includes Y.h (X and Y named
without their extension).  Every runtime .c file but rt_main.c has a
header of its own, and includes it first, so that header compiles alone.
Exits 1, naming the cycle or the file, when that does not hold."""
import os
import re
import sys

RUNTIME = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))), "explorer", "runtime")
INCLUDE = re.compile(r'\s*#\s*include\s+"([^"]+)"')


def includes(path):
    with open(path) as f:
        return [m.group(1) for m in map(INCLUDE.match, f) if m]


def main():
    files = sorted(f for f in os.listdir(RUNTIME) if f.endswith((".c", ".h")))
    names = {f.rsplit(".", 1)[0] for f in files}
    deps = {n: set() for n in names}
    bad = []
    for f in files:
        name = f.rsplit(".", 1)[0]
        incs = includes(os.path.join(RUNTIME, f))
        for inc in incs:
            dep = os.path.basename(inc).rsplit(".", 1)[0]
            if dep in names and dep != name and os.path.dirname(inc) == "":
                deps[name].add(dep)
        if f.endswith(".c") and f != "rt_main.c" and f.startswith("rt_"):
            own = name + ".h"
            if own not in files:
                bad.append(f"{f}: no header {own} declaring what it exports")
            elif not incs or incs[0] != own:
                bad.append(f"{f}: does not include {own} first")
    # depth-first search for a back edge
    state, stack = {}, []

    def visit(n):
        state[n] = "open"
        stack.append(n)
        for d in sorted(deps[n]):
            if state.get(d) == "open":
                cycle = stack[stack.index(d):] + [d]
                bad.append("include cycle: " + " -> ".join(cycle))
            elif d not in state:
                visit(d)
        stack.pop()
        state[n] = "done"

    for n in sorted(names):
        if n not in state:
            visit(n)
    for b in bad:
        print("check_rt_includes: " + b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
