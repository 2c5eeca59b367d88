"""reports.py - what bcwalk exports, read back by the tools that consume
it: coverage (explore --coverage, report --lcov) by lcov and genhtml."""
import json
import os
import re
import subprocess
import tempfile
import unittest

import common
from common import bcwalk, example, line_of


def tmp(name):
    return os.path.join(common.ARGS.tmp, name)


def read(path, mode="r"):
    with open(path, mode) as f:
        return f.read()


def covered(bc, unit, depth, info, *extra):
    """explore's JSON summary of a walk with --coverage into `info`."""
    p = bcwalk("explore", example(bc), "--unit", unit, "--depth", str(depth),
               "--format", "json", "--coverage", info, *extra, check=0)
    return json.loads(p.stdout)


def records(info):
    """An lcov tracefile's DA, BRDA and FNDA entries by source file:
    {file: {"DA": {line: hits}, "BRDA": {(line, block, arm): taken},
    "FNDA": {name: hits}}}."""
    files, cur = {}, None
    for line in read(info).splitlines():
        key, _, value = line.partition(":")
        if key == "SF":
            cur = files.setdefault(value, {"DA": {}, "BRDA": {}, "FNDA": {}})
        elif key == "DA":
            n, hits = value.split(",")[:2]
            cur["DA"][int(n)] = int(hits)
        elif key == "BRDA":
            n, block, arm, taken = value.split(",")
            cur["BRDA"][(int(n), int(block), int(arm))] = taken
        elif key == "FNDA":
            hits, name = value.split(",")
            cur["FNDA"][name] = int(hits)
    return files


def lcov_summary(info):
    """lcov --summary's lines, functions and branches: {kind: (hit, of)}."""
    p = subprocess.run(["lcov", "--summary", "--rc", "lcov_branch_coverage=1",
                        info], capture_output=True, text=True, check=True)
    found = {}
    for kind, hit, total in re.findall(r"(lines|functions|branches)\.+: "
                                       r"[\d.]+% \((\d+) of (\d+)",
                                       p.stdout + p.stderr):
        found[kind] = (int(hit), int(total))
    return found


class Coverage(unittest.TestCase):
    """--coverage: the lines, branch arms and functions of the unit's code
    the walk reached, from which length, as an lcov tracefile lcov and
    genhtml read."""

    def test_lcov_and_genhtml_read_what_the_summary_says(self):
        info = tmp("bstack.info")
        doc = covered("bstack.bc", "bstack", 3, info)
        cov = doc["coverage"]
        self.assertEqual(lcov_summary(info), {
            "lines": (cov["lines"]["hit"], cov["lines"]["total"]),
            "functions": (cov["functions"]["hit"], cov["functions"]["total"]),
            "branches": (cov["branches"]["hit"], cov["branches"]["total"])})
        src = common.source("examples", "bstack.c")
        (path, rec), = records(info).items()
        self.assertEqual(os.path.realpath(path), os.path.realpath(src))
        # malloc never fails: its NULL arm and return are never run
        self.assertEqual(rec["DA"][line_of("bstack.c", "return NULL;")], 0)
        self.assertEqual(rec["DA"][line_of("bstack.c", "s->size++] = x")], 1)
        self.assertEqual(rec["FNDA"], {f: 1 for f in (
            "bstack_new", "bstack_free", "bstack_push", "bstack_pop",
            "bstack_top", "bstack_size", "bstack_is_empty", "bstack_is_full")})
        # pop on an empty stack aborts: its branch taken both ways
        pop = line_of("bstack.c", "if (s->size == 0)")
        self.assertEqual(sorted(t for (n, _, _), t in rec["BRDA"].items()
                                if n == pop), ["1", "1"])
        html = tmp("bstack-html")
        subprocess.run(["genhtml", "--quiet", "--branch-coverage", "-o", html,
                        info], check=True, capture_output=True)
        page = read(os.path.join(html, "index.html"))
        self.assertIn("%d / %d" % (cov["lines"]["hit"], cov["lines"]["total"]),
                      page)
        self.assertIn("%d / %d" % (cov["branches"]["hit"],
                                   cov["branches"]["total"]), page)
        folder = os.path.basename(os.path.dirname(src))
        page = read(os.path.join(html, folder, "bstack.c.gcov.html"))
        self.assertIn("bstack_push", page)

    def test_a_deeper_walk_reaches_a_helper_and_says_from_which_length(self):
        info3, info5 = tmp("meter3.info"), tmp("meter5.info")
        three = covered("meter.bc", "meter", 3, info3)["coverage"]
        five = covered("meter.bc", "meter", 5, info5)["coverage"]
        grow = line_of("meter.c", "static int grow")
        self.assertEqual([f["name"] for f in three["unreached_functions"]],
                         ["grow"])
        self.assertEqual(three["unreached_functions"][0]["line"], grow)
        self.assertEqual(five["unreached_functions"], [])
        # only a fifth reading grows the meter: length 5 pays, 3 and 4 not
        lines = [k["lines"] for k in five["by_length"]]
        self.assertEqual(len(lines), 6)
        self.assertEqual(lines[2], lines[4])
        self.assertGreater(lines[5], lines[4])
        self.assertEqual(three["by_length"], five["by_length"][:4])
        (_, rec3), = records(info3).items()
        (_, rec5), = records(info5).items()
        self.assertEqual(rec3["FNDA"]["grow"], 0)
        self.assertEqual(rec5["FNDA"]["grow"], 1)
        # the library's function no function of the unit calls is not the
        # unit's code: not counted, not in the tracefile
        self.assertNotIn("meter_unused", rec5["FNDA"])
        self.assertEqual(three["functions"]["total"], 6)
        # every case of the switch on the mode, and its default, is taken
        switch = line_of("meter.c", "switch (mode)")
        arms = {k[2]: t for k, t in rec5["BRDA"].items() if k[0] == switch}
        self.assertEqual(arms, {0: "1", 1: "1", 2: "1", 3: "1"})
        self.assertNotIn(switch, [b["line"] for b in five["untaken_branches"]])

    def test_a_sequence_that_crashes_or_hangs_covers_what_it_ran(self):
        info = tmp("faulty.info")
        covered("faulty.bc", "faulty", 1, info)
        (_, rec), = records(info).items()
        for text in ("f->cells[f->n] = 1;", "while (spin)",
                     "assert(f->n > 0);"):
            with self.subTest(line=text):
                self.assertEqual(rec["DA"][line_of("faulty.c", text)], 1)

    def test_same_coverage_on_two_workers_in_shards_and_from_the_results(self):
        walk = ("bstack.bc", "bstack", 7, "--prune", "none")
        one = tmp("one.info")
        doc = covered(*walk[:3], one, *walk[3:], "--jobs", "1", "-o",
                      tmp("one.msgpack"))
        two = tmp("two.info")
        self.assertEqual(covered(*walk[:3], two, *walk[3:], "--jobs", "2")
                         ["coverage"], doc["coverage"])
        self.assertEqual(read(one), read(two))
        shards = []
        for i in range(3):
            shards.append(tmp("shard%d.msgpack" % i))
            covered(*walk[:3], tmp("shard%d.info" % i), *walk[3:], "--shard",
                    "%d/3" % i, "-o", shards[i])
        merged, info = tmp("merged.msgpack"), tmp("merged.info")
        bcwalk("merge", *shards, "-o", merged, "--lcov", info, check=0)
        self.assertEqual(read(merged, "rb"), read(tmp("one.msgpack"), "rb"))
        self.assertEqual(read(info), read(one))
        again = tmp("again.info")
        p = bcwalk("report", merged, "--format", "json", "--lcov", again,
                   check=0)
        self.assertEqual(json.loads(p.stdout)["coverage"], doc["coverage"])
        self.assertEqual(read(again), read(one))

    def test_a_resumed_walk_keeps_the_coverage_of_its_checkpoint(self):
        with tempfile.TemporaryDirectory() as folder:
            walk = ("bstack.bc", "bstack", 9, "--prune", "none")
            ck = os.path.join(folder, "walk.ckpt")
            first = os.path.join(folder, "first.info")
            p = bcwalk("explore", example("bstack.bc"), "--unit", "bstack",
                       "--depth", "9", "--prune", "none", "--coverage", first,
                       "--checkpoint", ck, "--time-limit", "1",
                       "--format", "json")
            self.assertEqual(p.returncode, 3, p.stderr)
            resumed = os.path.join(folder, "resumed.info")
            doc = covered(*walk[:3], resumed, *walk[3:], "--checkpoint", ck,
                          "--resume", "-o", os.path.join(folder, "r.msgpack"))
            whole = os.path.join(folder, "whole.info")
            want = covered(*walk[:3], whole, *walk[3:], "-o",
                           os.path.join(folder, "w.msgpack"))
            self.assertEqual(doc["coverage"], want["coverage"])
            self.assertEqual(read(resumed), read(whole))
            self.assertEqual(read(os.path.join(folder, "r.msgpack"), "rb"),
                             read(os.path.join(folder, "w.msgpack"), "rb"))

    def test_bitcode_without_debug_information_counts_functions_only(self):
        info = tmp("nodebug.info")
        doc = covered("bstack-nodebug.bc", "bstack", 2, info)
        self.assertEqual(doc["coverage"]["lines"]["total"], 0)
        self.assertEqual(doc["coverage"]["functions"], {"hit": 8, "total": 8})
        self.assertTrue(any("no debug information (clang -g)" in w
                            for w in doc["warnings"]))
        self.assertEqual(read(info), "")

    def test_a_walk_without_coverage_has_none_to_export(self):
        out = tmp("plain.msgpack")
        bcwalk("explore", example("bstack.bc"), "--unit", "bstack",
               "--depth", "2", "-o", out, check=0)
        info = tmp("plain.info")
        p = bcwalk("report", out, "--lcov", info, check=2)
        self.assertIn("the walk was run without --coverage", p.stderr)
        self.assertFalse(os.path.exists(info))


if __name__ == "__main__":
    common.main()
