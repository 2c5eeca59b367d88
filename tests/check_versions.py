#!/usr/bin/env python3
"""check_versions.py - each versioned format's version, as the code
defines it and as its page in docs/ states it, must be the same number.

A format's page says it in one line, `Format version: N`; the code has one
#define.  The check fails, naming both places, when the numbers differ,
when the constant or the line is missing, or when a page has that line
more than once (a reader could not tell which one holds).

--self-test checks the checker: on a copy of the files, each format's
doc number changed, then each constant changed, then a line and a
constant removed, must each be reported.

usage: check_versions.py [ROOT] | --self-test
Exit 0 when they agree; 1 with one line per problem."""
import os
import re
import shutil
import sys
import tempfile

# (what, source file, its #define, the page that states it)
FORMATS = [
    ("worker protocol", "core/wire/proto.h", "BCW_PROTO_VERSION",
     "docs/worker-protocol.md"),
    ("model file", "core/model_io.c", "MODEL_VERSION", "docs/model.md"),
    ("results file", "explorer/engine/replay.h", "RESULTS_VERSION",
     "docs/results.md"),
    ("generator interface", "include/bcwalk/generator.h",
     "BCW_GENERATOR_VERSION", "docs/generators.md"),
    ("oracle file", "core/oracle.c", "ORACLE_VERSION", "docs/oracle.md"),
]

DOC_LINE = re.compile(r"^Format version: (\d+)\b", re.M)


def define_re(name):
    return re.compile(r"^#define %s (\d+)u?\b" % re.escape(name), re.M)


def read(root, rel, problems):
    try:
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        problems.append("%s: cannot read: %s" % (rel, e.strerror))
        return None


def check(root):
    problems = []
    for what, src, name, doc in FORMATS:
        code_text = read(root, src, problems)
        doc_text = read(root, doc, problems)
        if code_text is None or doc_text is None:
            continue
        defs = define_re(name).findall(code_text)
        lines = DOC_LINE.findall(doc_text)
        if len(defs) != 1:
            problems.append("%s: %s: %s defined %d times, not once"
                            % (what, src, name, len(defs)))
        if len(lines) != 1:
            problems.append("%s: %s: %d 'Format version: N' lines, not one"
                            % (what, doc, len(lines)))
        if len(defs) == 1 and len(lines) == 1 and \
                int(defs[0]) != int(lines[0]):
            problems.append("%s: %s has %s %s but %s says Format version: %s"
                            % (what, src, name, defs[0], doc, lines[0]))
    return problems


def self_test(root):
    failures = []

    def bump(m):
        return m.group(1) + str(int(m.group(2)) + 1)

    with tempfile.TemporaryDirectory() as top:
        tmp = os.path.join(top, "tree")

        def copy():
            shutil.rmtree(tmp, ignore_errors=True)
            for _, src, _, doc in FORMATS:
                for rel in (src, doc):
                    os.makedirs(os.path.join(tmp, os.path.dirname(rel)),
                                exist_ok=True)
                    shutil.copy(os.path.join(root, rel),
                                os.path.join(tmp, rel))

        def edit(rel, pattern, repl):
            path = os.path.join(tmp, rel)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            new, n = re.subn(pattern, repl, text, count=1, flags=re.M)
            if n != 1:
                failures.append("self-test: %s: nothing to change" % rel)
            with open(path, "w", encoding="utf-8") as f:
                f.write(new)

        def expect(plant, want):
            got = check(tmp)
            if not any(all(w in g for w in want) for g in got):
                failures.append("self-test: %s not reported (got %r)"
                                % (plant, got))

        copy()
        got = check(tmp)
        if got:
            return ["self-test: the unchanged copy already fails: %r" % got]
        for what, src, name, doc in FORMATS:
            copy()
            edit(doc, r"^(Format version: )(\d+)", bump)
            expect("%s: a changed number in %s" % (what, doc),
                   [src, name, doc])
            copy()
            edit(src, r"^(#define %s )(\d+)" % re.escape(name), bump)
            expect("%s: a changed %s" % (what, name), [src, name, doc])
            copy()
            edit(doc, r"^Format version: \d+.*\n", "")
            expect("%s: no version line in %s" % (what, doc), [doc])
            copy()
            edit(src, r"^#define %s .*\n" % re.escape(name), "")
            expect("%s: no %s" % (what, name), [src, name])
    return failures


def main():
    args = sys.argv[1:]
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if args == ["--self-test"]:
        problems = self_test(here)
    else:
        problems = check(args[0] if args else here)
    for p in problems:
        print("check_versions: " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
