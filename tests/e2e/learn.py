#!/usr/bin/env python3
"""learn.py - bcwalk learn on real test programs: examples/fifo_tests.c
(c-algorithms' shape: a table of test functions, assert, globals' addresses
as items), and tests/data/learn/ (tests that crash, fail an assertion, hang
and exit; a cmocka suite; a program with no test functions).  What the
tests did, named (#0, Obj#1), the merged model with its loops and data
dependencies, its files (DOT, SVG, msgpack), determinism and bad input."""
import json
import os
import subprocess
import unittest
import xml.etree.ElementTree as ET

import msgpack

import common
from common import bcwalk, example


def compile_test(name, *flags):
    """tests/data/learn/NAME.c as bitcode in the temporary folder."""
    out = os.path.join(common.ARGS.tmp or os.environ["TMPDIR"], name + ".bc")
    subprocess.run([common.ARGS.clang, "-g", "-c", "-emit-llvm", *flags,
                    common.source("tests", "data", "learn", name + ".c"),
                    "-o", out], check=True)
    return out


def learn(tests, *extra, check=0):
    p = bcwalk("learn", tests, example("fifo.bc"), "--unit", "fifo",
               "--format", "json", *extra, check=check)
    return json.loads(p.stdout) if check == 0 else p


def node(model, fn):
    """The model's only node calling fn."""
    [n] = [n for n in model["nodes"] if n["fn"] == fn]
    return n


def edges(model, kind):
    return {(e["from"], e["to"]) for e in model["edges"] if e["kind"] == kind}


class FifoTests(unittest.TestCase):
    """examples/fifo_tests.c: five tests in a table a runner calls."""

    @classmethod
    def setUpClass(cls):
        cls.out = learn(example("fifo_tests.bc"))

    def test_every_test_is_found_and_passes(self):
        o = self.out
        self.assertEqual(o["unit"], "fifo")
        self.assertEqual(o["found"], "test functions from a table of them")
        self.assertEqual(o["test_functions"], 6)
        self.assertEqual([t["name"] for t in o["tests"]],
                         ["test_new_free", "test_push_pop", "test_peek",
                          "test_move", "test_drop", "test_full"])
        self.assertTrue(all(t["passed"] for t in o["tests"]))
        self.assertEqual((o["runs"], o["status"]), (1, 0))

    def test_calls_are_named_and_linked(self):
        """The queue is #0, the items Obj#k: the same address, the same
        name, so fifo_pop's result is the item pushed before."""
        [t] = [t for t in self.out["tests"] if t["name"] == "test_push_pop"]
        calls = [(c["fn"], c["args"], c.get("result")) for c in t["calls"]]
        self.assertEqual(calls, [
            ("fifo_new", [], "#0"),
            ("fifo_push", ["#0", "Obj#1"], "1"),
            ("fifo_push", ["#0", "Obj#2"], "1"),
            ("fifo_length", ["#0"], "2"),
            ("fifo_pop", ["#0"], "Obj#1"),
            ("fifo_pop", ["#0"], "Obj#2"),
            ("fifo_pop", ["#0"], "NULL"),
            ("fifo_free", ["#0"], None)])
        self.assertTrue(all(c["where"].endswith(".c:%d" % common.line_of(
            "fifo_tests.c", "fifo_push(q, &one)")) for c in t["calls"][1:2]))

    def test_two_queues_are_two_instances(self):
        [t] = [t for t in self.out["tests"] if t["name"] == "test_move"]
        made = [c["result"] for c in t["calls"] if c["fn"] == "fifo_new"]
        self.assertEqual(made, ["#0", "#1"])
        moved = [c for c in t["calls"] if c["fn"] == "fifo_push"
                 and c["args"][0] == "#1"]
        self.assertEqual(len(moved), 3)

    def test_model_merges_with_loops_and_data(self):
        m = self.out["model"]
        self.assertEqual(m["k"], [4, 1])
        self.assertEqual(m["traced"]["nodes"],
                         sum(len(t["calls"]) for t in self.out["tests"]))
        self.assertLess(m["merged"]["nodes"], m["traced"]["nodes"])
        # every test starts with the one fifo_new node
        new = node(m, "fifo_new")
        self.assertEqual(new["calls"], 7)
        self.assertEqual(len(new["tests"]), 6)
        ids = {n["id"]: n for n in m["nodes"]}
        control = edges(m, "control")
        # test_full's eight pushes fold into a node with a loop
        self.assertTrue(any(a == b and ids[a]["fn"] == "fifo_push"
                            for a, b in control))
        # test_move: what fifo_pop gives, fifo_push takes (its argument 2)
        data = [e for e in m["edges"] if e["kind"] == "data"]
        self.assertTrue(data)
        for e in data:
            self.assertEqual((ids[e["from"]]["fn"], ids[e["to"]]["fn"],
                              e["param"]), ("fifo_pop", "fifo_push", 1))

    def test_graph_files(self):
        tmp = os.environ["TMPDIR"]
        dot, svg, model = (os.path.join(tmp, "fifo." + x)
                           for x in ("dot", "svg", "learned"))
        p = bcwalk("learn", example("fifo_tests.bc"), example("fifo.bc"),
                   "--unit", "fifo", "--dot", dot, "--svg", svg, "-o", model,
                   check=0)
        self.assertEqual(p.stdout, "")  # -o without --format prints nothing
        plain = subprocess.run(["dot", "-Tplain", dot], capture_output=True,
                               text=True, check=True).stdout
        nodes = [line.split()[1] for line in plain.splitlines()
                 if line.startswith("node ")]
        self.assertEqual(len([n for n in nodes if n.startswith("n")]),
                         self.out["model"]["merged"]["nodes"])
        self.assertIn("start", nodes)
        root = ET.parse(svg).getroot()
        self.assertTrue(root.tag.endswith("svg"))
        text = "".join(root.itertext())
        self.assertIn("fifo_new()", text)
        [doc] = common.msgpack_stream(model)
        self.assertEqual((doc["format"], doc["version"], doc["unit"]),
                         ("bcwalk-learned", 1, "fifo"))
        self.assertEqual(len(doc["tests"]), 6)
        self.assertEqual(len(doc["nodes"]), self.out["model"]["merged"]["nodes"])

    def test_deterministic(self):
        tmp = os.environ["TMPDIR"]
        runs = []
        for i in range(2):
            model = os.path.join(tmp, "again%d.learned" % i)
            p = bcwalk("learn", example("fifo_tests.bc"), example("fifo.bc"),
                       "--unit", "fifo", "--format", "json", "-o", model,
                       check=0)
            with open(model, "rb") as f:
                runs.append((p.stdout, f.read()))
        self.assertEqual(runs[0], runs[1])

    def test_text_report(self):
        p = bcwalk("learn", example("fifo_tests.bc"), example("fifo.bc"),
                   "--unit", "fifo", check=0)
        self.assertIn("Learned unit fifo from 6 tests", p.stdout)
        self.assertIn("Test test_push_pop: passed; 8 calls of the unit",
                      p.stdout)
        self.assertIn("  fifo_pop(#0) = Obj#1\n", p.stdout)

    def test_thresholds(self):
        """--k decides how far the model generalises: strict thresholds
        no tests reach merge nothing."""
        loose = self.out["model"]["merged"]["nodes"]
        strict = learn(example("fifo_tests.bc"), "--k", "32,32")["model"]
        self.assertEqual(strict["merged"], strict["traced"])
        self.assertGreater(strict["merged"]["nodes"], loose)


class Halts(unittest.TestCase):
    """Tests that crash, fail an assertion, hang and exit: each ends its
    test, and the program runs again from the next test."""

    @classmethod
    def setUpClass(cls):
        cls.out = learn(compile_test("halts"), "--time-limit", "1")

    def ends(self):
        return {t["name"]: t["end"] for t in self.out["tests"]}

    def test_each_test_ends_its_own_way(self):
        line = common.source("tests", "data", "learn", "halts.c")
        with open(line) as f:
            at = next(n for n, s in enumerate(f, 1) if "assert(fifo_pop" in s)
        e = self.ends()
        self.assertEqual(list(e), ["test_ok", "test_crash", "test_assert",
                                   "test_hang", "test_exit", "test_after"])
        self.assertEqual(e["test_ok"], "passed")
        self.assertEqual(e["test_crash"], "crash (SIGSEGV)")
        self.assertRegex(e["test_assert"],
                         r"^assertion failed \(.*halts\.c:%d: " % at)
        self.assertEqual(e["test_hang"], "hang (its time limit)")
        self.assertEqual(e["test_exit"], "exit 3")
        # after all that, the last test ran, and passed
        self.assertEqual(e["test_after"], "passed")
        self.assertEqual(self.out["runs"], 5)

    def test_the_call_that_crashed(self):
        [t] = [t for t in self.out["tests"] if t["name"] == "test_crash"]
        last = t["calls"][-1]
        self.assertEqual((last["fn"], last["args"], last["outcome"]),
                         ("fifo_push", ["NULL", "Obj#1"], "crash (SIGSEGV)"))
        crash = [n for n in self.out["model"]["nodes"]
                 if n["outcome"] != "normal"]
        self.assertEqual([(n["fn"], n["outcome"]) for n in crash],
                         [("fifo_push", "crash (SIGSEGV)")])

    def test_a_loop_is_recorded_by_its_first_calls(self):
        [t] = [t for t in self.out["tests"] if t["name"] == "test_hang"]
        self.assertEqual(t["unit_calls"], 1 + 2 * 64)  # --per-site 64
        self.assertGreater(t["library_calls"], 1000)


class Frameworks(unittest.TestCase):
    def test_cmocka_suite(self):
        """cmocka's CMUnitTest table; a failed check jumps out of its
        test, which ends there."""
        o = learn(compile_test("cmocka"), "--lib", "cmocka")
        self.assertEqual([(t["name"], t["passed"]) for t in o["tests"]],
                         [("pushes_and_pops", True),
                          ("expects_too_much", False), ("counts", True)])
        self.assertEqual(o["tests"][1]["end"],
                         "left by a jump (its framework's failed check)")
        self.assertEqual(o["status"], 1)  # cmocka's verdict: one failed

    def test_a_runner_forking_each_test(self):
        """Check and Criterion run each test in a child: a child's crash
        ends its test, the runner goes on, the program runs once."""
        o = learn(compile_test("forks"))
        self.assertEqual([(t["name"], t["end"]) for t in o["tests"]],
                         [("test_first", "passed"),
                          ("test_crashes", "crash (SIGSEGV)"),
                          ("test_last", "passed")])
        self.assertEqual((o["runs"], o["status"]), (1, 1))

    def test_no_test_functions(self):
        o = learn(compile_test("plain"))
        self.assertEqual(o["found"], "no test functions: main is the one test")
        [t] = o["tests"]
        self.assertEqual(t["name"], "main")
        self.assertEqual([c["fn"] for c in t["calls"]],
                         ["fifo_new"] + ["fifo_push"] * 3 + ["fifo_pop"] * 4
                         + ["fifo_free"])
        self.assertEqual(t["library_calls"], 9)


class OneFile(unittest.TestCase):
    """examples/selftest.c: the tests in the library's own source, under
    #ifdef SELFTEST with their own main; built with the switch, one file
    holds both and is given alone."""

    def test_the_tests_calls_are_learned_not_the_librarys_own(self):
        o = json.loads(bcwalk("learn", example("selftest-tests.bc"),
                              "--unit", "iset8", "--format", "json",
                              check=0).stdout)
        self.assertEqual(o["found"], "test functions from a table of them")
        self.assertEqual([(t["name"], t["passed"]) for t in o["tests"]],
                         [("test_add_has", True), ("test_remove", True)])
        # iset8_add calls iset8_has, and `of`, the tests' helper, calls
        # iset8_add: the tests' calls only, each once
        self.assertEqual([c["fn"] for c in o["tests"][0]["calls"]],
                         ["iset8_new", "iset8_add", "iset8_add", "iset8_has",
                          "iset8_add", "iset8_size", "iset8_free"])
        # the model walks with it
        model = os.path.join(os.environ["TMPDIR"], "iset8.learned")
        bcwalk("learn", example("selftest-tests.bc"), "--unit", "iset8",
               "-o", model, check=0)
        doc = json.loads(bcwalk("explore", example("selftest.bc"), "--unit",
                                "iset8", "--walk", "learned", "--from-tests",
                                model, "--format", "json", check=0).stdout)
        self.assertGreater(doc["sequences"]["normal"], 0)

    def test_the_same_library_twice_says_to_give_it_alone(self):
        p = bcwalk("learn", example("selftest-tests.bc"),
                   example("selftest.bc"), "--unit", "iset8", check=2)
        self.assertIn("multiply defined", p.stderr)
        self.assertIn("give it alone (bcwalk learn ", p.stderr)


class NoSequence(unittest.TestCase):
    def test_a_test_that_gives_no_sequence_says_why(self):
        """tests/data/learn/nomake.c: a test whose constructor made no
        instance gives --walk learned no sequence, and the summary says
        which test and why."""
        model = os.path.join(os.environ["TMPDIR"], "nomake.learned")
        bcwalk("learn", compile_test("nomake"), example("faulty.bc"),
               "--unit", "faulty", "-o", model, check=0)
        doc = json.loads(bcwalk("explore", example("faulty.bc"), "--unit",
                                "faulty", "--walk", "learned",
                                "--from-tests", model, "--depth", "2",
                                "--format", "json", check=0).stdout)
        t = doc["from_tests"]
        # the walk's growth from the tests' values, stated: two
        # constructor steps more and one method step, and what they make
        # of an unpruned walk of depth 2
        self.assertEqual(t["steps"]["constructors"], [3, 5])
        self.assertEqual(t["steps"]["methods"], [4, 5])
        self.assertEqual(t["steps"]["times"],
                         round(5 * (1 + 5 + 25) / (3 * (1 + 4 + 16)), 2))
        self.assertEqual(t["sequences"], 1)  # test_big's
        self.assertEqual(t["no_sequence"],
                         ["test_small: its call 1, faulty_with_capacity(5), "
                          "made no instance"])


class Cells(unittest.TestCase):
    def test_a_list_in_the_callers_cell(self):
        """examples/clist.c's list: no call makes it; the tests' sequences
        start at their first call on the cell, and the learned walk
        follows them from the empty list."""
        model = os.path.join(os.environ["TMPDIR"], "cells.learned")
        bcwalk("learn", compile_test("cells"), example("clist.bc"), "--unit",
               "CEntry", "-o", model, check=0)
        lines = common.jsonl("clist.bc", "CEntry", "learned", 3,
                             "--from-tests", model)
        seqs = sorted(tuple(c["fn"] for c in s["calls"]) for s in lines[:-1])
        self.assertIn(("(empty)", "clist_prepend", "clist_prepend",
                       "clist_first_data"), seqs)
        self.assertIn(("(empty)", "clist_append", "clist_append",
                       "clist_length"), seqs)
        self.assertNotIn(("(empty)", "clist_length"), seqs)
        g = common.explore_json("clist.bc", "CEntry", "protocol", 1,
                                "--from-tests", model)["from_tests"]
        self.assertEqual((g["sequences"], g["cut"]), (2, []))


class OtherUnits(unittest.TestCase):
    def test_a_call_that_makes_an_argument_is_kept(self):
        """sbuf_pool_put takes a buffer sbuf_new makes: that call is part
        of the model, a data dependency into the put; a call on the buffer
        that makes nothing the pool takes is not."""
        p = bcwalk("learn", compile_test("pool"), example("sbuf.bc"),
                   "--unit", "sbuf_pool", "--format", "json", check=0)
        o = json.loads(p.stdout)
        [t] = o["tests"]
        self.assertEqual([(c["fn"], c["unit"]) for c in t["calls"]],
                         [("sbuf_pool_new", True), ("sbuf_new", False),
                          ("sbuf_pool_put", True), ("sbuf_pool_size", True),
                          ("sbuf_pool_free", True)])
        self.assertEqual(t["library_calls"], 6)  # sbuf_append too
        m = o["model"]
        ids = {n["fn"]: n["id"] for n in m["nodes"]}
        self.assertIn({"from": ids["sbuf_new"], "to": ids["sbuf_pool_put"],
                       "kind": "data", "param": 1}, m["edges"])


class Nulls(unittest.TestCase):
    def test_a_null_element_is_a_category_of_its_own(self):
        """The walk's elements stand for the tests' objects, not for NULL:
        a test pushing NULL gives fifo_push a NULL category, and its
        sequence is not cut."""
        model = os.path.join(os.environ["TMPDIR"], "nulls.learned")
        bcwalk("learn", compile_test("nulls"), example("fifo.bc"), "--unit",
               "fifo", "-o", model, check=0)
        lines = common.jsonl("fifo.bc", "fifo", "protocol", 1,
                             "--from-tests", model)
        pushes = {(tuple(c["args"]), c["labels"][1]): c["result"]
                  for s in lines[:-1] for c in s["calls"]
                  if c["fn"] == "fifo_push"}
        self.assertEqual(pushes[(("#0", "NULL"), "from tests: NULL")], "1")
        g = lines[-1]["from_tests"]
        self.assertEqual((g["categories"], g["sequences"], g["cut"]),
                         (1, 1, []))


class Strings(unittest.TestCase):
    """examples/str.c's strings: one longer than the 64 bytes the tracer
    keeps, and a bad pointer the tracer cannot read."""

    @classmethod
    def setUpClass(cls):
        cls.model = os.path.join(os.environ["TMPDIR"], "str.learned")
        p = bcwalk("learn", compile_test("strings"), example("str.bc"),
                   "--unit", "str", "--format", "json", "-o", cls.model,
                   check=0)
        cls.out = json.loads(p.stdout)

    def test_a_long_string_is_shown_cut(self):
        [t] = [t for t in self.out["tests"] if t["name"] == "test_long"]
        cat = t["calls"][1]
        self.assertEqual(cat["fn"], "str_cat")
        self.assertEqual(cat["args"][1], '"' + "x" * 64 + '"...')
        self.assertEqual(t["calls"][2]["result"], "67")  # the library's

    def test_a_cut_string_is_no_category(self):
        doc = common.explore_json("str.bc", "str", "protocol", 1,
                                  "--from-tests", self.model)
        g = doc["from_tests"]
        self.assertEqual(g["categories"], 2)  # "ab" and "cd"
        self.assertEqual(len(g["cut"]), 1)
        self.assertIn("test_long: its call 1, str_cat(#0, \"xxx", g["cut"][0])

    def test_a_bad_pointer_ends_its_test(self):
        ends = [(t["name"], t["end"]) for t in self.out["tests"]]
        self.assertEqual(ends, [("test_long", "passed"),
                                ("test_bad_pointer", "crash (SIGSEGV)"),
                                ("test_after", "passed")])


class BadInput(unittest.TestCase):
    def fails(self, args, message):
        p = bcwalk("learn", *args, check=2)
        self.assertIn(message, p.stderr)
        self.assertEqual(p.stdout, "")

    def test_not_bitcode(self):
        self.fails([common.source("README.md"), example("fifo.bc"), "--unit",
                    "fifo"], "not LLVM bitcode")
        self.fails([example("fifo_tests.bc"), common.source("README.md"),
                    "--unit", "fifo"], "not LLVM bitcode")

    def test_no_main(self):
        self.fails([example("bstack.bc"), example("fifo.bc"), "--unit",
                    "fifo"], "no main function")

    def test_defined_twice(self):
        self.fails([example("fifo.bc"), example("fifo.bc"), "--unit", "fifo"],
                   "no main function")
        self.fails([compile_test("twice"), example("fifo.bc"), "--unit",
                    "fifo"], "cannot be linked with")

    def test_an_output_is_never_an_input(self):
        for out in ("-o", "--dot"):
            with self.subTest(out):
                lib = os.path.join(os.environ["TMPDIR"], "lib-copy.bc")
                with open(example("fifo.bc"), "rb") as f:
                    data = f.read()
                with open(lib, "wb") as f:
                    f.write(data)
                p = bcwalk("learn", example("fifo_tests.bc"), lib, "--unit",
                           "fifo", out, lib, check=2)
                self.assertIn("it would be replaced", p.stderr)
                with open(lib, "rb") as f:
                    self.assertEqual(f.read(), data)

    def test_unknown_unit_and_options(self):
        self.fails([example("fifo_tests.bc"), example("fifo.bc"), "--unit",
                    "nosuch"], "nosuch")
        self.fails([example("fifo_tests.bc"), example("fifo.bc"), "--unit",
                    "fifo", "--k", "1,4"], "--k 1,4")
        self.fails([example("fifo_tests.bc"), example("fifo.bc"), "--unit",
                    "fifo", "--k", "4,0"], "--k 4,0")
        # alone, a file is the library built with its tests: this one
        # holds no unit
        self.fails([example("fifo_tests.bc"), "--unit", "fifo"],
                   "no unit found")
        self.fails([example("fifo_tests.bc"), example("fifo.bc"),
                    example("fifo.bc"), "--unit", "fifo"],
                   "expected 1 to 2 operands")

    def test_missing_library(self):
        """A cmocka suite without --lib cmocka: the message says so."""
        p = bcwalk("learn", compile_test("cmocka"), example("fifo.bc"),
                   "--unit", "fifo", check=2)
        self.assertIn("_cmocka_run_group_tests", p.stderr)
        self.assertIn("--lib", p.stderr)


class FromTests(unittest.TestCase):
    """explore --from-tests: the tests' values as categories, the states
    their calls reach as covers, the gaps, and the learned walk."""

    @classmethod
    def setUpClass(cls):
        cls.model = os.path.join(os.environ["TMPDIR"], "fifo-from.learned")
        bcwalk("learn", example("fifo_tests.bc"), example("fifo.bc"),
               "--unit", "fifo", "-o", cls.model, check=0)

    def state_walk(self, *extra):
        return common.explore_json("fifo.bc", "fifo", "state", 2, *extra)

    def test_values_become_categories(self):
        lines = common.jsonl("fifo.bc", "fifo", "protocol", 1,
                             "--from-tests", self.model)
        drops = {tuple(c["args"][1:]): c["labels"][1]
                 for s in lines[:-1] for c in s["calls"]
                 if c["fn"] == "fifo_drop"}
        # test_drop's fifo_drop(q, 2) and fifo_drop(q, 5)
        self.assertEqual(drops[("2",)], "from tests: 2")
        self.assertEqual(drops[("5",)], "from tests: 5")
        self.assertEqual(lines[-1]["from_tests"]["categories"], 2)
        # without the tests, no such category
        plain = common.jsonl("fifo.bc", "fifo", "protocol", 1)
        self.assertFalse(any("from tests" in str(c["labels"])
                             for s in plain[:-1] for c in s["calls"]))

    def test_the_walks_growth_is_bounded(self):
        """The tests' categories grow a walk at most --tests-growth times
        (2 by default); beyond, the least used are not walked, each
        named, and a test's sequence stops at a value not walked."""
        def walk(*extra):
            return common.explore_json("fifo.bc", "fifo", "protocol", 3,
                                       *extra)
        both = walk("--from-tests", self.model)["from_tests"]
        # fifo_drop(q, 2) and (q, 5): 10 -> 12 methods, 1.70 times
        self.assertEqual((both["categories"], both["walked"],
                          both["growth"], both["not_walked"]),
                         (2, 2, 2, []))
        self.assertEqual(both["steps"]["times"], 1.7)
        plain = walk()
        held = walk("--from-tests", self.model, "--tests-growth", "1")
        g = held["from_tests"]
        self.assertEqual((g["categories"], g["walked"], g["growth"]),
                         (2, 0, 1))
        self.assertEqual(g["steps"]["methods"], [10, 10])
        # each used once: the last added goes first
        self.assertEqual(g["not_walked"],
                         ["fifo_drop(n): from tests: 5 (1 call)",
                          "fifo_drop(n): from tests: 2 (1 call)"])
        self.assertEqual(g["cut"], ["test_drop: its call 4, fifo_drop(#0, "
                                    "2), passes values no step of the walk "
                                    "passes"])
        # the walk is the walk without the tests
        self.assertEqual(held["sequences"], plain["sequences"])
        text = bcwalk("explore", example("fifo.bc"), "--unit", "fifo",
                      "--depth", "3", "--from-tests", self.model,
                      "--tests-growth", "1", check=0).stdout
        self.assertIn("From the tests: 2 categories of their values, 0 "
                      "walked", text)
        self.assertIn("2 of them not walked, the least used, to keep the "
                      "walk's growth within --tests-growth 1:\n"
                      "    fifo_drop(n): from tests: 5 (1 call)\n", text)

    def test_covers_reach_what_probing_does_not(self):
        """test_full fills the ring (16 items): probing, 12 calls deep,
        never does; its calls become the cover of that state, and the walk
        from it grows the ring, which no walk without the tests reaches."""
        tmp = os.environ["TMPDIR"]
        with_cov, without_cov = (os.path.join(tmp, n + ".info")
                                 for n in ("with", "without"))
        got = self.state_walk("--from-tests", self.model,
                              "--coverage", with_cov)
        plain = self.state_walk("--coverage", without_cov)
        full = [st for st in got["states"] if st["name"] == "length == capacity"]
        self.assertEqual(len(full), 1)
        self.assertEqual(full[0]["cover_from"], "test_full")
        self.assertEqual(full[0]["cover"],
                         ["fifo_new"] + ["fifo_push [a new element]"] * 16)
        self.assertNotIn("length == capacity",
                         [st["name"] for st in plain["states"]])
        every = got["coverage"]["functions"]["total"]
        self.assertEqual(got["coverage"]["functions"]["hit"], every)
        self.assertEqual(plain["coverage"]["functions"]["hit"], every - 1)
        self.assertEqual([f["name"] for f in
                          plain["coverage"]["unreached_functions"]], ["grow"])
        self.assertEqual(got["coverage"]["unreached_functions"], [])
        self.assertGreater(got["coverage"]["lines"]["hit"],
                           plain["coverage"]["lines"]["hit"])

    def test_gaps(self):
        g = self.state_walk("--from-tests", self.model)["from_tests"]
        self.assertEqual(g["sequences"], 7)
        self.assertEqual(g["cut"], [])
        self.assertEqual(g["states_only_tests"],
                         ["length == capacity (test_full, 16 calls)"])
        # the tests never push onto a full ring, nor pop from one
        self.assertIn("length == capacity --fifo_push [a new element]--> "
                      "default", g["transitions_untested"])
        self.assertIn("length == capacity --fifo_pop--> default",
                      g["transitions_untested"])
        # every state is one a test reaches, every function one they call
        self.assertEqual(g["states_untested"], [])
        self.assertEqual(g["functions_untested"], [])
        text = bcwalk("explore", example("fifo.bc"), "--unit", "fifo",
                      "--walk", "state", "--depth", "2", "--from-tests",
                      self.model, check=0).stdout
        self.assertIn("cover of 16 calls after the constructor, from test "
                      "test_full", text)
        self.assertIn("states only the tests reach", text)

    def test_learned_walk(self):
        lines = common.jsonl("fifo.bc", "fifo", "learned", 3,
                             "--from-tests", self.model)
        summary = lines[-1]
        self.assertEqual(summary["walk"], "learned")
        self.assertGreater(summary["sequences"]["pruned_model"], 0)
        protocol = common.explore_json("fifo.bc", "fifo", "protocol", 3,
                                       "--from-tests", self.model)
        total = lambda s: sum(s["sequences"][k] for k in
                              ("normal", "terminated", "discarded"))
        self.assertEqual(total(summary), total(protocol))
        seqs = [[c["fn"] for c in s["calls"]] for s in lines[:-1]]
        self.assertIn(["fifo_new", "fifo_push", "fifo_push", "fifo_push"],
                      seqs)
        # no test drops or pops right after making the queue
        self.assertFalse(any(s[1:2] in (["fifo_drop"], ["fifo_pop"])
                             for s in seqs))
        # a results file replays to the same report, --from-tests and all
        out = os.path.join(os.environ["TMPDIR"], "learned.results")
        ran = json.loads(bcwalk("explore", example("fifo.bc"), "--unit",
                                "fifo", "--walk", "learned", "--depth", "3",
                                "--from-tests", self.model, "-o", out,
                                "--format", "json", check=0).stdout)
        again = json.loads(bcwalk("report", out, "--format", "json",
                                  check=0).stdout)
        for doc in (ran, again):
            for k in ("elapsed_s", "calls_per_s"):
                del doc[k]
        self.assertEqual(ran, again)

    def test_learned_walk_is_judged(self):
        oracle = os.path.join(os.environ["TMPDIR"], "learned.oracle")
        args = ("test", example("fifo.bc"), "--unit", "fifo", "--walk",
                "learned", "--depth", "3", "--from-tests", self.model,
                "--oracle", oracle, "--format", "json")
        first = json.loads(bcwalk(*args, "--accept", check=0).stdout)
        again = json.loads(bcwalk(*args, check=0).stdout)
        self.assertEqual(first["oracle"]["accepted"],
                         first["sequences"]["normal"])
        self.assertEqual(again["oracle"]["passed"],
                         again["sequences"]["normal"])
        self.assertEqual(again["oracle"]["failed"], 0)

    def test_errors(self):
        p = bcwalk("explore", example("fifo.bc"), "--unit", "fifo", "--walk",
                   "learned", check=2)
        self.assertIn("--from-tests", p.stderr)
        p = bcwalk("explore", example("bstack.bc"), "--unit", "bstack",
                   "--from-tests", self.model, check=2)
        self.assertIn("a model learned of unit fifo, not of bstack", p.stderr)
        p = bcwalk("explore", example("fifo.bc"), "--unit", "fifo",
                   "--tests-growth", "3", check=2)
        self.assertIn("--tests-growth bounds what the tests' categories add: "
                      "give --from-tests MODEL", p.stderr)
        bad = os.path.join(os.environ["TMPDIR"], "bad.learned")
        with open(self.model, "rb") as f:
            data = f.read()
        with open(bad, "wb") as f:
            f.write(data[:len(data) // 2])
        p = bcwalk("explore", example("fifo.bc"), "--unit", "fifo",
                   "--from-tests", bad, check=2)
        self.assertIn("bad.learned", p.stderr)

    def test_a_resealed_model_of_bad_values_is_refused(self):
        """A file whose checksum matches but whose values break what
        their readers rely on (another tool's, an edited one): refused,
        never a crash."""
        [doc] = common.msgpack_stream(self.model)
        [t] = [t for t in doc["tests"] if t[0] == "test_drop"]
        [drop] = [c for c in t[4] if c[0] == "fifo_drop"][:1]
        cases = {
            "nothing (the control: it is read)": lambda: None,
            "an integer without its text": lambda: drop[2][1].__setitem__(
                2, None),
            "an object of a negative number": lambda: drop[2][0].__setitem__(
                1, -5),
            "a string without its bytes": lambda: drop[2][1].__setitem__(
                0, 3),
        }
        for what, damage in cases.items():
            with self.subTest(what):
                [doc] = common.msgpack_stream(self.model)
                [t] = [t for t in doc["tests"] if t[0] == "test_drop"]
                drop[:] = [c for c in t[4] if c[0] == "fifo_drop"][0]
                damage()
                del doc["checksum"]
                body = msgpack.packb(doc)
                # one more entry: the checksum, in its fixed 9-byte form
                n = len(doc) + 1
                assert body[0] & 0xf0 == 0x80 and n < 16
                body = bytes([0x80 | n]) + body[1:] + \
                    msgpack.packb("checksum")
                data = body + b"\xcf"
                data += common.bcw_hash(data).to_bytes(8, "big")
                bad = os.path.join(os.environ["TMPDIR"], "resealed.learned")
                with open(bad, "wb") as f:
                    f.write(data)
                if what.startswith("nothing"):
                    bcwalk("explore", example("fifo.bc"), "--unit", "fifo",
                           "--depth", "1", "--from-tests", bad, check=0)
                    continue
                p = bcwalk("explore", example("fifo.bc"), "--unit", "fifo",
                           "--from-tests", bad, check=2)
                self.assertIn("corrupt learned model file", p.stderr)
                self.assertNotIn("checksum", p.stderr)


if __name__ == "__main__":
    common.main()
