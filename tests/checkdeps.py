#!/usr/bin/env python3
"""checkdeps.py - the layering rule, file by file: which module's headers
each source may include, and no include cycle between files.

    core <- analyzer <- solver <- explorer <- cli

and inside the explorer, its stages in their one direction, then the
pipelines (explorer/ itself) over them:

    build <- plan <- engine <- learn <- report <- judge <- explorer

A module includes its own headers and those of the modules before it.  A
stage exposes one header, named after it (explorer/engine/engine.h): a
file outside the stage includes that one and none of the stage's others.
core/wire/ (ABI classes, parameter kinds, the worker protocol) is what the
worker runtime (explorer/runtime/) may see of core; the stages use the
runtime's values.h and custom.h, which they compile too; the command
(cli/) uses only the public headers (include/bcwalk/).

Files are nodes by their stem (x.c and x.h are one node, `x`); an include
from one to another is an edge.  A cycle (report.c includes states.h,
states.h includes report.h) means two files that cannot be read or
changed apart, and fails the check like a wrong-way include.

With --objects BUILD, the same holds for what the files call: from the
object files of BUILD (nm), a file using a function another defines
depends on it; a call against the direction fails, and those
dependencies have no cycle either (a header declaring the functions of
several files hides such cycles from the include graph).

--self-test checks the checker: on a copy of the sources, a wrong-way
include (the analyzer including the engine's walk.h, the engine including
report.h), a stage's private header included from another stage, an
include cycle, a source not including its own header first, and a
wrong-way call must all be reported.

usage: checkdeps.py [ROOT] [--objects BUILD] | --self-test
Exit 0 when clean; 1 with one line per problem."""
import os
import re
import subprocess
import sys

MODULES = {  # folder -> module
    "include/bcwalk": "public",
    "core/wire": "wire",
    "core": "core",
    "analyzer": "analyzer",
    "solver": "solver",
    "explorer/build": "build",
    "explorer/plan": "plan",
    "explorer/engine": "engine",
    "explorer/learn": "learn",
    "explorer/report": "report",
    "explorer/judge": "judge",
    "explorer/runtime": "runtime",
    "explorer": "explorer",
    "cli": "cli",
}
# The modules in their direction: each may use those before it.
LAYERS = ["core", "analyzer", "solver", "build", "plan", "engine", "learn",
          "report", "judge", "explorer"]
STAGES = {"build", "plan", "engine", "learn", "report", "judge"}
ORDER = ("core <- analyzer <- solver <- build <- plan <- engine <- learn "
         "<- report <- judge <- explorer <- cli")
# What each module may include, in search order (the build's include
# paths); "runtime-shared" is the runtime's two files the stages use,
# from the plan on.
MAY_USE = {
    "public": ["public"],
    "wire": ["wire"],
    "runtime": ["runtime", "wire", "public"],
    "cli": ["cli", "public"],
}
for _i, _m in enumerate(LAYERS):
    MAY_USE[_m] = [_m] + LAYERS[_i - 1::-1][:_i] + \
        (["runtime-shared"] if _i >= LAYERS.index("plan") else []) + \
        ["wire", "public"]
RUNTIME_SHARED = {"values.h", "custom.h"}
SOURCE = re.compile(r"\.(c|h|cpp)$")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def module_of(rel):
    folder = os.path.dirname(rel)
    for prefix in sorted(MODULES, key=len, reverse=True):
        if folder == prefix:
            return MODULES[prefix]
    return None


def scan(root):
    """Every source file of a module, by path relative to root."""
    files = {}
    for prefix in MODULES:
        d = os.path.join(root, prefix)
        if not os.path.isdir(d):
            continue
        for name in sorted(os.listdir(d)):
            rel = os.path.join(prefix, name)
            if SOURCE.search(name) and os.path.isfile(os.path.join(root, rel)):
                files[rel] = module_of(rel)
    return files


def headers_by_module(files):
    out = {}
    for rel, mod in files.items():
        if rel.endswith(".h"):
            out.setdefault(mod, {})[os.path.basename(rel)] = rel
            if mod == "runtime" and os.path.basename(rel) in RUNTIME_SHARED:
                out.setdefault("runtime-shared", {})[os.path.basename(rel)] = rel
    return out


def resolve(inc, rel, mod, by_mod, files):
    """The file an include names, and whether the module may use it."""
    own = os.path.normpath(os.path.join(os.path.dirname(rel), inc))
    if own in files:
        return own, True
    if inc.startswith("bcwalk/"):
        path = os.path.join("include", inc)
        if path in files:
            return path, "public" in MAY_USE[mod]
    base = os.path.basename(inc)
    if inc == base:
        for m in MAY_USE[mod]:
            if base in by_mod.get(m, {}):
                return by_mod[m][base], True
    for m, hs in by_mod.items():  # somewhere it may not look
        if m != "runtime-shared" and base in hs and (inc == base or hs[base] == inc):
            return hs[base], False
    return None, True  # a system or generated header


def node(rel):
    return re.sub(r"\.(c|h|cpp)$", "", rel)


def cycles(edges):
    """Strongly connected components with more than one node (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def check(root):
    files = scan(root)
    problems = []
    if not files:
        return ["no source files found under %s" % root]
    by_mod = headers_by_module(files)
    edges = {}
    for rel, mod in sorted(files.items()):
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
            text = f.read()
        incs = INCLUDE.findall(text)
        own = os.path.basename(node(rel)) + ".h"
        if rel.endswith(".c") and node(rel) + ".h" in files and \
                (not incs or incs[0] != own):
            # so that the header compiles alone and says what the file
            # exports
            problems.append('%s does not include "%s" first' % (rel, own))
        for inc in incs:
            target, allowed = resolve(inc, rel, mod, by_mod, files)
            if target is None:
                continue
            if not allowed:
                problems.append(
                    '%s includes "%s" (%s): %s may not use %s (%s; the runtime '
                    "sees core/wire only, the command include/bcwalk only)"
                    % (rel, inc, target, mod, files[target], ORDER))
            tmod = files.get(target)
            if allowed and tmod in STAGES and tmod != mod and \
                    os.path.basename(target) != tmod + ".h":
                problems.append(
                    '%s includes "%s" (%s), a header of the %s stage of its '
                    'own: include "%s.h", the one the stage exposes'
                    % (rel, inc, target, tmod, tmod))
            if node(target) != node(rel):
                edges.setdefault(node(rel), set()).add(node(target))
    for comp in cycles(edges):
        problems.append("include cycle between files: %s" % " <-> ".join(comp))
    return problems


def objects(build, root):
    """Call-level dependencies between the project's object files (those
    of sources still in `root`: a build folder keeps objects of files
    since moved)."""
    objs = {}
    for dirpath, _, names in os.walk(os.path.join(build, "CMakeFiles")):
        m = re.search(r"CMakeFiles/(bcwalk_\w+)\.dir/(.*)$", dirpath)
        if not m or m.group(1) == "bcwalk_opt":
            continue
        for n in names:
            if n.endswith(".o"):
                src = os.path.join(m.group(2), n[:-2])
                if not os.path.isfile(os.path.join(root, src)):
                    continue
                objs[node(src)] = os.path.join(dirpath, n)
    defs, uses = {}, {n: set() for n in objs}
    by_path = {path: n for n, path in objs.items()}
    out = subprocess.run(["nm", "-A", "-g"] + sorted(by_path),
                         capture_output=True, text=True).stdout
    for line in out.splitlines():
        path, _, rest = line.partition(": ")
        if path not in by_path:
            path, _, rest = line.partition(":")
        parts = rest.split()
        if len(parts) == 2 and parts[0] == "U":
            uses[by_path[path]].add(parts[1])
        elif len(parts) == 3:
            defs.setdefault(parts[2], by_path[path])
    edges = {}
    for n, syms in uses.items():
        for s in syms:
            d = defs.get(s)
            if d is not None and d != n:
                edges.setdefault(n, set()).add(d)
    return objs, edges


def call_problems(edges):
    """Calls against the direction, and call cycles, in `edges` (node ->
    the nodes whose functions it uses)."""
    problems = []
    for n, ds in sorted(edges.items()):
        mod = module_of(n + ".c")
        for d in sorted(ds):
            dmod = module_of(d + ".c")
            shared = dmod == "runtime" and "runtime-shared" in \
                MAY_USE.get(mod, ()) and os.path.basename(d) + ".h" in \
                RUNTIME_SHARED
            if mod and dmod and dmod != mod and dmod not in MAY_USE[mod] \
                    and not shared:
                problems.append("%s calls into %s: %s may not use %s (%s)"
                                % (n, d, mod, dmod, ORDER))
    for comp in cycles(edges):
        problems.append("call cycle between files: %s" % " <-> ".join(comp))
    return problems


def self_test(root):
    import shutil
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        for prefix in MODULES:
            if os.path.isdir(os.path.join(root, prefix)):
                os.makedirs(os.path.join(tmp, prefix), exist_ok=True)
                for name in os.listdir(os.path.join(root, prefix)):
                    src = os.path.join(root, prefix, name)
                    if os.path.isfile(src):
                        shutil.copy(src, os.path.join(tmp, prefix, name))
        if check(tmp):
            return ["self-test: the unchanged copy already fails"]

        def append(rel, text):
            with open(os.path.join(tmp, rel), "a") as f:
                f.write(text)
        append("analyzer/units.c", '\n#include "walk.h"\n')
        append("explorer/engine/walk.c", '\n#include "report.h"\n')
        append("explorer/report/results.c", '\n#include "pool.h"\n')
        append("explorer/plan/combine.h", '\n#include "permute.h"\n')
        append("explorer/plan/permute.h", '\n#include "combine.h"\n')
        rt_seq = os.path.join(tmp, "explorer", "runtime", "rt_seq.c")
        with open(rt_seq) as f:
            text = f.read()
        with open(rt_seq, "w") as f:
            f.write(text.replace('#include "rt_seq.h"',
                                 '#include "rt_halt.h"\n#include "rt_seq.h"', 1))
        got = check(tmp)
        got += call_problems({"explorer/engine/walk": {"explorer/report/report",
                                                       "explorer/engine/spill"},
                              "explorer/report/report": {"explorer/engine/walk"}})
        want = ['analyzer/units.c includes "walk.h"',
                'explorer/engine/walk.c includes "report.h"',
                'explorer/report/results.c includes "pool.h" '
                '(explorer/engine/pool.h), a header of the engine stage',
                "include cycle between files: explorer/plan/combine <-> "
                "explorer/plan/permute",
                'explorer/runtime/rt_seq.c does not include "rt_seq.h" first',
                "explorer/engine/walk calls into explorer/report/report: "
                "engine may not use report",
                "call cycle between files: explorer/engine/walk <-> "
                "explorer/report/report"]
        # (the engine's include of report.h makes a cycle too: report.h
        # includes engine.h)
        missed = ["self-test: not reported: " + w for w in want
                  if not any(g.startswith(w) for g in got)]
        # nor more than planted: walk -> spill is a call the engine makes
        extra = ["self-test: reported, not planted: " + g for g in got
                 if not any(g.startswith(w) for w in want) and
                 not g.startswith("include cycle between files: ")]
        return missed + extra


def main():
    args = sys.argv[1:]
    if args == ["--self-test"]:
        problems = self_test(os.path.dirname(os.path.dirname(
            os.path.abspath(__file__))))
        for p in problems:
            print("checkdeps: " + p)
        return 1 if problems else 0
    build = None
    if "--objects" in args:
        i = args.index("--objects")
        build = args[i + 1]
        del args[i:i + 2]
    root = args[0] if args else \
        os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    problems = check(root)
    if build is not None:
        objs, edges = objects(build, root)
        if not objs:
            problems.append("no object files found under %s" % build)
        problems += call_problems(edges)
    for p in problems:
        print("checkdeps: " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
