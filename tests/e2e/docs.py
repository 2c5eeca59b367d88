#!/usr/bin/env python3
"""docs.py - the documentation cannot drift from bcwalk: every command
README.md and docs/guide.md show in a shell block runs, in order, and
gives what the page shows; and no link of README.md or docs/*.md points
to a file or heading that is not there.  ctest runs this file as
test_e2e_docs.

A shell block is a ``` block.  In one holding lines `$ command`, each
such line (with its `\\` continuation lines) is run by bash, in the
page's own folder, and the lines after it up to the next `$` are what it
shows:

- `$ echo $?` is not run: the number under it is the exit status the
  command before it must give; every other command must exit 0.  A pipe
  (`| tail -6`) is run as written, with pipefail, so the status is
  bcwalk's.
- `...` (alone on its line) stands for lines left out; the shown lines
  between two of them must appear together, in the page's order, in what
  the command wrote (stdout and stderr together), after the previous
  ones.  A shown line ending in ` ...` is the start of the real one.
- An answer typed at a prompt (`accept? ... [q]uit: n`) is given on
  stdin; the prompt is checked without it, and the empty line the
  terminal's echo of the answer made is not looked for.
- Paths ending in `/examples/` (the source's, the page's folder's) are
  compared as one, and the timing in JSON (`elapsed_s`, `calls_per_s`)
  is not compared.

In a block with no `$` line, the lines starting `bcwalk ` are commands
(with `\\` continuation lines) that must exit 0; their output is not
shown, so it is not checked.

Each page runs in a folder of its own laid out as the repository is
after `make`: `examples/` holds the sources and the bitcode the build
made of them, `build/examples`, `build/lib` and `build/bin` are the
build's, and `bcwalk`, `clang`, `opt-14` and `llvm-link` are the build's
own (the pages name LLVM 14's tools; an LLVM 19 build runs its own).
Everything runs with the tests' cache."""
import os
import re
import shutil
import subprocess
import unittest

import common
from common import source

PAGES = ("README.md", os.path.join("docs", "guide.md"))

PROMPT = re.compile(r"^(.*\[q\]uit: )(\w+)$")
TIMING = re.compile(r'("(?:elapsed_s|calls_per_s)": )[-+0-9.eE]+')
EXAMPLES = re.compile(r"(?:/[^\s/():,\"']+)+/examples/")


class Command:
    """One command a page shows: where, its text, the output it shows (or
    None), the exit status it must give and what is typed at it."""

    def __init__(self, page, line, text, shown):
        self.page, self.line, self.text = page, line, text
        self.shown = shown
        self.status = 0
        self.stdin = ""

    def where(self):
        return "%s:%d: %s" % (self.page, self.line, self.text)


def fenced_blocks(text):
    """(line number of its first line, its lines) of each ``` block."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        if lines[i].lstrip().startswith("```"):
            j = i + 1
            while j < len(lines) and not lines[j].lstrip().startswith("```"):
                j += 1
            yield i + 2, lines[i + 1:j]
            i = j + 1
        else:
            i += 1


def joined(lines, i):
    """The command starting at lines[i] with its `\\` continuation lines
    joined, and the index of the line after it."""
    text = lines[i]
    i += 1
    while text.endswith("\\") and i < len(lines):
        text = text[:-1].rstrip() + " " + lines[i].strip()
        i += 1
    return text, i


def commands_of(page, text):
    """Every command `page` shows, in order."""
    out = []
    for first, lines in fenced_blocks(text):
        if any(l.startswith("$ ") for l in lines):
            i = 0
            while i < len(lines):
                if not lines[i].startswith("$ "):
                    i += 1
                    continue
                line = first + i
                cmd, i = joined(lines, i)
                cmd = cmd[2:].strip()
                shown = []
                while i < len(lines) and not lines[i].startswith("$ "):
                    shown.append(lines[i])
                    i += 1
                if cmd == "echo $?":
                    if not out or not shown or not shown[0].strip().isdigit():
                        raise AssertionError("%s:%d: `echo $?` with no "
                                             "command or number" % (page, line))
                    out[-1].status = int(shown[0])
                    continue
                c = Command(page, line, cmd, shown)
                answers = [PROMPT.match(s) for s in shown]
                c.stdin = "".join(m.group(2) + "\n" for m in answers if m)
                out.append(c)
        else:
            i = 0
            while i < len(lines):
                if lines[i].startswith("bcwalk "):
                    line = first + i
                    cmd, i = joined(lines, i)
                    out.append(Command(page, line, cmd.strip(), None))
                else:
                    i += 1
    return out


def normal(line):
    line = EXAMPLES.sub("<examples>/", line.rstrip())
    return TIMING.sub(r"\1N", line)


def runs_of(shown):
    """The shown lines as runs that must appear together: split at `...`
    lines, prompts without their answer, the echo's empty line dropped."""
    runs, run, skip_blank = [], [], False
    for s in shown:
        if skip_blank and s.strip() == "":
            skip_blank = False
            continue
        skip_blank = False
        if s.strip() in ("...", "…"):
            if run:
                runs.append(run)
            run = []
            continue
        m = PROMPT.match(s)
        if m:
            s, skip_blank = m.group(1), True
        run.append(normal(s))
    if run:
        runs.append(run)
    # a run of empty lines alone (the blank line before a `...`) says nothing
    return [r for r in runs if any(x.strip() for x in r)]


def same(shown, real):
    if shown.endswith(" ...") and shown != " ...":
        return real.startswith(shown[:-4])
    return shown == real


def find_run(run, real, start):
    """The index in `real` from `start` on where `run` appears, or -1."""
    # leading and trailing empty lines of a run may fall at the output's ends
    while run and run[0] == "":
        run = run[1:]
    while run and run[-1] == "":
        run = run[:-1]
    for k in range(start, len(real) - len(run) + 1):
        if all(same(s, real[k + n]) for n, s in enumerate(run)):
            return k + len(run)
    return -1


def heading_anchors(text):
    """GitHub's anchors of a page's headings (outside code blocks)."""
    anchors, seen, in_code = set(), {}, False
    for line in text.split("\n"):
        if line.lstrip().startswith("```"):
            in_code = not in_code
            continue
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if in_code or not m:
            continue
        a = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower())
        a = a.replace(" ", "-")
        n = seen.get(a, 0)
        seen[a] = n + 1
        anchors.add(a if n == 0 else "%s-%d" % (a, n))
    return anchors


def prose(text):
    """A page without its code blocks."""
    return re.sub(r"^\s*```.*?^\s*```[^\n]*$", "", text, flags=re.M | re.S)


def broken_links(root, rel):
    """The links of page `rel` (relative to `root`) to a file or heading
    that is not there: markdown links, and `path.md` named in code."""
    path = os.path.join(root, rel)
    with open(path, encoding="utf-8") as f:
        text = prose(f.read())
    here = os.path.dirname(path)
    bad = []
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"^[a-z]+:", target):
            continue
        file, _, anchor = target.partition("#")
        dest = os.path.normpath(os.path.join(here, file)) if file else path
        if not os.path.exists(dest):
            bad.append("%s: link %s: no file %s"
                       % (rel, target, os.path.relpath(dest, root)))
            continue
        if anchor and dest.endswith(".md"):
            with open(dest, encoding="utf-8") as f:
                if anchor not in heading_anchors(f.read()):
                    bad.append("%s: link %s: no heading with that anchor in %s"
                               % (rel, target, os.path.relpath(dest, root)))
    for name in re.findall(r"`([\w.-]+(?:/[\w.-]+)*\.md)`", text):
        if not (os.path.exists(os.path.join(root, name)) or
                os.path.exists(os.path.join(here, name))):
            bad.append("%s: names `%s`, which is not there" % (rel, name))
    return bad


def tool_shims(folder):
    """A folder of the tools the pages name, each the build's own."""
    bindir = os.path.join(folder, "bin")
    os.makedirs(bindir)
    args = common.ARGS
    tools = {"bcwalk": args.bcwalk,
             "clang": shutil.which(args.clang) or args.clang}
    if args.opt:
        opt = shutil.which(args.opt) or args.opt
        tools["opt-14"] = opt
        ver = re.sub(r"^opt-?", "", os.path.basename(args.opt))
        for cand in (os.path.join(os.path.dirname(os.path.realpath(opt)),
                                  "llvm-link"),
                     shutil.which("llvm-link-" + ver) if ver else None):
            if cand and os.path.exists(cand):
                tools["llvm-link"] = cand
                break
    for name, target in tools.items():
        os.symlink(os.path.abspath(target), os.path.join(bindir, name))
    return bindir


def page_folder(folder):
    """`folder` laid out as the repository after `make` (module doc)."""
    args = common.ARGS
    built = os.path.abspath(args.examples)
    ex = os.path.join(folder, "examples")
    os.makedirs(ex)
    for name in os.listdir(source("examples")):
        os.symlink(source("examples", name), os.path.join(ex, name))
    for name in os.listdir(built):
        if name.endswith((".bc", ".so")) and \
                not os.path.exists(os.path.join(ex, name)):
            os.symlink(os.path.join(built, name), os.path.join(ex, name))
    os.makedirs(os.path.join(folder, "build"))
    for name, target in (("examples", built),
                         ("lib", os.path.join(os.path.dirname(built), "lib")),
                         ("bin", os.path.dirname(os.path.abspath(args.bcwalk)))):
        os.symlink(target, os.path.join(folder, "build", name))
    os.symlink(source("include"), os.path.join(folder, "include"))


class Commands(unittest.TestCase):
    """Each page's commands, run in order in the page's own folder."""

    maxDiff = None

    def run_page(self, page):
        with open(source(page), encoding="utf-8") as f:
            cmds = commands_of(page, f.read())
        walks = [c for c in cmds if re.match(r"bcwalk\s", c.text)]
        self.assertGreater(len(walks), 5, "%s: its bcwalk commands were not "
                           "found (a change of the blocks' form?)" % page)
        top = os.path.join(common.ARGS.tmp or os.environ["TMPDIR"],
                           page.replace(os.sep, "_").replace(".md", ""))
        shutil.rmtree(top, ignore_errors=True)
        os.makedirs(top)
        env = dict(os.environ, XDG_CACHE_HOME=common.ARGS.cache)
        env["PATH"] = tool_shims(top) + os.pathsep + env.get("PATH", "")
        work = os.path.join(top, "work")
        os.makedirs(work)
        page_folder(work)
        for c in cmds:
            with self.subTest(command=c.where()):
                self.run_one(c, work, env)

    def run_one(self, c, work, env):
        p = subprocess.run(["bash", "-o", "pipefail", "-c", c.text],
                           cwd=work, env=env, input=c.stdin,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, errors="replace", timeout=300)
        out = p.stdout
        tail = out if len(out) < 4000 else "...\n" + out[-4000:]
        self.assertEqual(p.returncode, c.status,
                         "%s: exit %d, the page implies %d\n%s"
                         % (c.where(), p.returncode, c.status, tail))
        if not c.shown:
            return
        real = [normal(l) for l in out.split("\n")]
        at = 0
        for run in runs_of(c.shown):
            k = find_run(run, real, at)
            self.assertNotEqual(k, -1, "%s: these lines the page shows are "
                                "not in its output (in this order, together):"
                                "\n%s\n--- output:\n%s"
                                % (c.where(), "\n".join(run), tail))
            at = k

    def test_readme(self):
        self.run_page("README.md")

    def test_guide(self):
        self.run_page(os.path.join("docs", "guide.md"))


class Parsing(unittest.TestCase):
    """The reader of the pages' blocks on blocks written here."""

    PAGE = "\n".join([
        "text", "```", "$ bcwalk explore a.bc \\", "    --depth 2 | tail -1",
        "Reached 3 states", "...", "", "last one", "$ echo $?", "1",
        "$ bcwalk review --oracle o",
        "accept? [Y]es, [q]uit: n", "", "0 accepted", "```",
        "```", "make demo", "bcwalk report r.msgpack  # again", "```", ""])

    def test_blocks(self):
        a, b, c = commands_of("p.md", self.PAGE)
        self.assertEqual((a.line, a.text, a.status),
                         (3, "bcwalk explore a.bc --depth 2 | tail -1", 1))
        self.assertEqual(runs_of(a.shown), [["Reached 3 states"],
                                            ["", "last one"]])
        self.assertEqual((b.stdin, runs_of(b.shown)),
                         ("n\n", [["accept? [Y]es, [q]uit:", "0 accepted"]]))
        self.assertEqual((c.text, c.shown, c.status),
                         ("bcwalk report r.msgpack  # again", None, 0))

    def test_matching(self):
        real = ["x", "Reached 3 states", "y", "last one"]
        self.assertEqual(find_run(["Reached 3 states"], real, 0), 2)
        self.assertEqual(find_run(["", "last one"], real, 2), 4)
        self.assertEqual(find_run(["Reached 3 states"], real, 2), -1)
        self.assertEqual(find_run(["Reach ..."], real, 0), 2)
        self.assertEqual(normal('"elapsed_s": 0.25, "calls": 9'),
                         '"elapsed_s": N, "calls": 9')
        self.assertEqual(normal("in f (/tmp/x/examples/f.c:3)"),
                         normal("in f (/work/main/examples/f.c:3)"))

    def test_anchors(self):
        self.assertIn("testing-against-an-oracle-bcwalk-test", heading_anchors(
            "## Testing against an oracle: `bcwalk test`"))
        self.assertEqual(heading_anchors("# A\n# A\n```\n# B\n```"),
                         {"a", "a-1"})


class Links(unittest.TestCase):
    """README.md's and docs/*.md's links go to files and headings that are
    there."""

    def test_links(self):
        root = source()
        pages = ["README.md"] + sorted(
            os.path.join("docs", n) for n in os.listdir(source("docs"))
            if n.endswith(".md"))
        bad = [b for p in pages for b in broken_links(root, p)]
        self.assertEqual(bad, [])


if __name__ == "__main__":
    common.main()
