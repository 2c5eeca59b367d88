"""reports.py - what bcwalk exports, read back by the tools that consume
it: coverage (explore --coverage, report --lcov) by lcov and genhtml; the
state graph (--dot, --svg) by Graphviz; JUnit XML by xmllint against a
JUnit schema; SARIF by the SARIF 2.1.0 schema (python3-jsonschema); the
HTML page by headless Chromium."""
import glob
import json
import os
import re
import subprocess
import tempfile
import unittest
import xml.etree.ElementTree as ET

import jsonschema  # Debian's python3-jsonschema (scripts/setup.sh)

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

    def test_an_arm_is_named_by_where_it_goes(self):
        # clang branches on m for `!m` with the arms swapped, and on each
        # half of an `&&`: an arm is named by its conditional's column
        # and where it goes, never by an IR polarity the source lacks
        src = read(common.source("examples", "meter.c")).splitlines()
        neg = line_of("meter.c", "if (!m)")
        both = line_of("meter.c", "&& grow(m)")
        col_and = src[both - 1].index("&&") + 1
        col_grow = src[both - 1].index("grow(m)") + 1

        def cond(line):  # the column of an if's condition
            return src[line - 1].index("if (") + 5

        def body(line):  # the column of an if's one-line body
            return len(src[line]) - len(src[line].lstrip()) + 1

        untaken = {}
        for depth in (3, 5):
            cov = covered("meter.bc", "meter", depth,
                          tmp("arms%d.info" % depth))["coverage"]
            untaken[depth] = {(b["function"], b["line"], b["column"]):
                              (b["to_line"], b["to_column"])
                              for b in cov["untaken_branches"]}
        # calloc never fails: `!m` never goes to its return
        self.assertEqual(untaken[5][("meter_new", neg, cond(neg))],
                         (neg + 1, body(neg)))
        # up to 4 readings, the first half never finds the meter full,
        # never going on to grow(m); at 5 it does, and the second half
        # never sees grow fail
        to_line, to_col = untaken[3][("meter_add", both, col_and)]
        self.assertEqual(to_line, both)
        self.assertIn(to_col, range(col_grow, col_grow + len("grow(m)")))
        self.assertNotIn(("meter_add", both, cond(both)), untaken[3])
        self.assertNotIn(("meter_add", both, col_and), untaken[5])
        self.assertEqual(untaken[5][("meter_add", both, cond(both))],
                         (both + 1, body(both)))
        p = bcwalk("explore", example("meter.bc"), "--unit", "meter",
                   "--depth", "3", "--coverage", tmp("arms.info"))
        self.assertIn("meter.c:%d:%d to %d:%d (meter_add)"
                      % (both, col_and, both, to_col), p.stdout)

    def test_each_unit_of_a_library_counts_its_own_code(self):
        # ring.bc has two units: a walk of ring_conf is not a walk of ring
        info = tmp("ring_conf.info")
        conf = covered("ring.bc", "ring_conf", 2, info)["coverage"]
        self.assertEqual(conf["functions"], {"hit": 1, "total": 1})
        (_, rec), = records(info).items()
        self.assertEqual(list(rec["FNDA"]), ["ring_conf_init"])
        ring = covered("ring.bc", "ring", 2, tmp("ring.info"))["coverage"]
        self.assertGreater(ring["functions"]["total"], 1)

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
            # its results file too, as the runs below: a walk of a second
            # or more, which the limit stops
            p = bcwalk("explore", example("bstack.bc"), "--unit", "bstack",
                       "--depth", "9", "--prune", "none", "--coverage", first,
                       "--checkpoint", ck, "--time-limit", "1",
                       "--format", "json", "-o",
                       os.path.join(folder, "first.msgpack"))
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

    def test_a_unit_living_in_a_cell(self):
        """A list in the caller's cell starts with no call (its "(empty)"
        constructor): the unit's code is its functions' alone."""
        doc = covered("clist.bc", "CEntry", 2, tmp("cell.info"))
        cov = doc["coverage"]
        self.assertGreater(cov["functions"]["hit"], 0)
        self.assertEqual(cov["functions"]["hit"], cov["functions"]["total"])

    def test_a_walk_without_coverage_has_none_to_export(self):
        out = tmp("plain.msgpack")
        bcwalk("explore", example("bstack.bc"), "--unit", "bstack",
               "--depth", "2", "-o", out, check=0)
        info = tmp("plain.info")
        p = bcwalk("report", out, "--lcov", info, check=2)
        self.assertIn("the walk was run without --coverage", p.stderr)
        self.assertFalse(os.path.exists(info))


def walk_to(name, bc, unit, *args):
    """A walk's results file, `name` in the tests' folder."""
    out = tmp(name)
    bcwalk("explore", example(bc), "--unit", unit, "-o", out, "--format",
           "json", *args, check=0)
    return out


def exported(results, *opts):
    """bcwalk report RESULTS with export options (--junit F ...)."""
    return bcwalk("report", results, "--format", "json", *opts, check=0)


SVG = "{http://www.w3.org/2000/svg}"


class StateGraph(unittest.TestCase):
    """--dot and --svg: the state graph, states named by their predicates,
    halts as nodes, each edge with its methods and its share of the
    state's calls; Graphviz reads the DOT, the SVG is its drawing."""

    def test_graphviz_reads_the_dot_and_the_svg_has_every_state(self):
        res = walk_to("acc.msgpack", "account.bc", "account", "--walk",
                      "state", "--depth", "2")
        dot, svg = tmp("acc.dot"), tmp("acc.svg")
        doc = json.loads(exported(res, "--dot", dot, "--svg", svg).stdout)
        p = subprocess.run(["dot", "-Tplain", dot], capture_output=True,
                           text=True, check=True)
        nodes = [line.split()[1] for line in p.stdout.splitlines()
                 if line.startswith("node ")]
        names = [st["name"] for st in doc["states"]]
        self.assertEqual(nodes[:len(names)],
                         ["s%d" % i for i in range(len(names))])
        self.assertIn("failure", nodes)
        root = ET.parse(svg).getroot()
        self.assertEqual(root.tag, SVG + "svg")
        texts = [t.text for t in root.iter(SVG + "text")]
        for name in names:
            self.assertIn(name, texts)
        # every edge's share: of the 11 calls made from each state (the
        # withdrawal of a category empty on every state, `amount <= 0 &&
        # amount > balance + limit + 1`, is not made: no transition)
        shares = [t for t in texts if t and t.endswith(" of 11")]
        self.assertGreater(len(shares), len(names))
        edges = re.findall(r"^\s*(s\d+) -> (\w+) ", read(dot), re.M)
        self.assertEqual(len(edges), len(set(edges)))  # parallel collapsed

    def test_a_walk_without_states_has_no_graph_to_draw(self):
        res = walk_to("bst.msgpack", "bstack.bc", "bstack", "--depth", "2")
        p = bcwalk("report", res, "--svg", tmp("none.svg"), check=2)
        self.assertEqual(p.stderr, "bcwalk: report: --svg: the state graph "
                         "is drawn by the state walk only (this results "
                         "file holds a protocol walk)\n")
        self.assertFalse(os.path.exists(tmp("none.svg")))

    def test_an_export_that_does_not_apply_fails_alone(self):
        # issue 31: --dot on a protocol walk's results named no option
        # and no other export of the command was written
        res = walk_to("alone.msgpack", "bstack.bc", "bstack", "--depth", "2")
        files = {opt: tmp("alone" + ext) for opt, ext in (
            ("--dot", ".dot"), ("--svg", ".svg"), ("--lcov", ".info"),
            ("--html", ".html"), ("--junit", ".xml"), ("--sarif", ".sarif"),
            ("--emit-c", ".c"))}
        p = bcwalk("report", res, "--format", "json",
                   *[w for opt, f in files.items() for w in (opt, f)],
                   check=2)
        self.assertEqual(json.loads(p.stdout)["walk"], "protocol")
        self.assertEqual(p.stderr.splitlines(), [
            "bcwalk: report: --dot: the state graph is drawn by the state "
            "walk only (this results file holds a protocol walk)",
            "bcwalk: report: --svg: the state graph is drawn by the state "
            "walk only (this results file holds a protocol walk)",
            "bcwalk: report: --lcov: the walk was run without --coverage: "
            "its results have no coverage to write"])
        for opt, f in files.items():
            self.assertEqual(os.path.exists(f),
                             opt not in ("--dot", "--svg", "--lcov"), opt)
        # --graph is named as it was given; an algebra walk is "an"
        res = walk_to("alg.msgpack", "bstack.bc", "bstack", "--walk",
                      "algebra", "--depth", "1")
        p = bcwalk("report", res, "--graph", tmp("alg.dot"), "--junit",
                   tmp("alg.xml"), check=2)
        self.assertIn("Exercised", p.stdout)
        self.assertEqual(p.stderr, "bcwalk: report: --graph: the state graph "
                         "is drawn by the state walk only (this results "
                         "file holds an algebra walk)\n")
        self.assertTrue(os.path.exists(tmp("alg.xml")))
        # a state walk's results: the same command writes them all
        res = walk_to("st.msgpack", "bstack.bc", "bstack", "--walk",
                      "state", "--depth", "1")
        p = exported(res, "--dot", tmp("st.dot"), "--svg", tmp("st.svg"),
                     "--html", tmp("st.html"))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertTrue(read(tmp("st.dot")).startswith("digraph "))
        # an export refused at the end of a walk fails alone as well:
        # the report, the results file and the other exports are written
        out = {ext: tmp("end" + ext) for ext in (".msgpack", ".html", ".xml")}
        p = bcwalk("explore", example("bstack.bc"), "--unit", "bstack",
                   "--walk", "state", "--depth", "1", "--format", "json",
                   "--svg", "/nonexistent/end.svg", "--html", out[".html"],
                   "--junit", out[".xml"], "-o", out[".msgpack"], check=2)
        self.assertEqual(p.stderr, "bcwalk: cannot write /nonexistent/end.svg"
                         ": No such file or directory\n")
        self.assertEqual(json.loads(p.stdout)["walk"], "state")
        for f in out.values():
            self.assertTrue(os.path.exists(f), f)


class JUnit(unittest.TestCase):
    """--junit: JUnit XML a CI system reads, valid by the JUnit schema; a
    test case per length (per state in the state walk), failing when its
    sequences crashed, hung, broke a contract or leaked."""

    def validate(self, path):
        p = subprocess.run(["xmllint", "--noout", "--schema",
                            common.source("tests", "schema", "junit.xsd"),
                            path], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        return ET.parse(path).getroot()

    def test_the_schema_refuses_what_is_not_junit(self):
        bad = tmp("bad.xml")
        with open(bad, "w") as f:
            f.write('<testsuites><testsuite name="x"><testcase/>'
                    '</testsuite></testsuites>')
        p = subprocess.run(["xmllint", "--noout", "--schema",
                            common.source("tests", "schema", "junit.xsd"),
                            bad], capture_output=True, text=True)
        self.assertNotEqual(p.returncode, 0)

    def test_crashes_fail_their_length_and_aborts_do_not(self):
        res = walk_to("faulty.msgpack", "faulty.bc", "faulty", "--depth", "2")
        out = tmp("faulty.xml")
        exported(res, "--junit", out)
        root = self.validate(out)
        cases = {c.get("name"): c for c in root.iter("testcase")}
        self.assertEqual(sorted(cases), ["length 0", "length 1", "length 2"])
        failure = cases["length 1"].find("failure")
        self.assertIsNotNone(failure)
        self.assertIn("faulty_crash: crash SIGSEGV", failure.text)
        self.assertIn("faulty_crash(target);", failure.text)
        self.assertIsNone(cases["length 0"].find("failure"))
        res = walk_to("bstack.msgpack", "bstack.bc", "bstack", "--depth", "2")
        out = tmp("bstack.xml")
        exported(res, "--junit", out)
        root = self.validate(out)
        self.assertEqual(root.get("failures"), "0")
        out_text = "".join(c.findtext("system-out")
                           for c in root.iter("testcase"))
        self.assertIn("bstack_pop: abort abort() called", out_text)

    def test_the_state_walk_has_a_test_case_per_state(self):
        res = walk_to("acc2.msgpack", "account.bc", "account", "--walk",
                      "state", "--depth", "2")
        out = tmp("acc.xml")
        doc = json.loads(exported(res, "--junit", out).stdout)
        root = self.validate(out)
        self.assertEqual([c.get("name") for c in root.iter("testcase")],
                         ["state " + st["name"] for st in doc["states"]])


def sarif_schema():
    path = os.path.join(os.environ.get("XDG_CACHE_HOME") or
                        os.path.expanduser("~/.cache"), "bcwalk-tests",
                        "sarif-schema-2.1.0.json")
    if not os.path.exists(path):
        raise AssertionError("no SARIF schema at %s: make setup fetches it "
                             "(scripts/sarif-schema.sh)" % path)
    with open(path) as f:
        return json.load(f)


class Sarif(unittest.TestCase):
    """--sarif: SARIF 2.1.0, valid by its schema; a result per distinct
    halt at the source line where it happened, its shortest sequence in
    the message."""

    def test_valid_sarif_with_each_halt_where_it_happened(self):
        res = walk_to("faulty.msgpack", "faulty.bc", "faulty", "--depth", "2")
        out = tmp("faulty.sarif")
        exported(res, "--sarif", out)
        with open(out) as f:
            doc = json.load(f)
        jsonschema.Draft4Validator(sarif_schema()).validate(doc)
        results = doc["runs"][0]["results"]
        crash = [r for r in results if r["ruleId"] == "crash"]
        self.assertEqual(len(crash), 1)
        self.assertEqual(crash[0]["level"], "error")
        loc = crash[0]["locations"][0]["physicalLocation"]
        self.assertTrue(loc["artifactLocation"]["uri"].endswith("faulty.c"))
        self.assertEqual(loc["region"]["startLine"],
                         line_of("faulty.c", "f->cells[f->n] = 1;"))
        self.assertIn("faulty_crash(target);", crash[0]["message"]["text"])
        hang = [r for r in results if r["ruleId"] == "hang"]
        self.assertEqual(len(hang), 1)
        aborts = [r for r in results if r["ruleId"] == "abort"]
        self.assertTrue(aborts)
        self.assertTrue(all(r["level"] == "warning" for r in aborts))
        where = aborts[0]["locations"][0]["physicalLocation"]["region"]
        self.assertEqual(where["startLine"],
                         line_of("faulty.c", "assert(f->n > 0);"))

    def test_a_write_found_after_its_call_says_where_its_line_is(self):
        # pq_push writes one slot past its block; a plain walk finds it
        # after the call, by the block's guard: the walk's SARIF puts it
        # at the line that wrote, as the halt's standalone program under
        # AddressSanitizer finds it, and says so; report, which runs
        # nothing, puts it at the function's start and says why;
        # --sanitize address gives the two lines that write
        said = "pq_push: crash heap overflow: a write past"

        def locations(out, said):
            with open(out) as f:
                doc = json.load(f)
            jsonschema.Draft4Validator(sarif_schema()).validate(doc)
            return [r["locations"][0] for r in doc["runs"][0]["results"]
                    if said in r["message"]["text"]]
        writes = [line_of("pq.c", "q->items[i] = q->items[i - 1];"),
                  line_of("pq.c", "q->items[i] = item;")]
        res, out = tmp("pq.msgpack"), tmp("pq.sarif")
        bcwalk("explore", example("pq.bc"), "--unit", "pq", "--depth", "2",
               "-o", res, "--sarif", out, check=0)
        [plain] = locations(out, said)
        self.assertIn(plain["physicalLocation"]["region"]["startLine"],
                      writes)
        self.assertTrue(plain["physicalLocation"]["artifactLocation"]["uri"]
                        .endswith("/pq.c"))
        self.assertIn("as AddressSanitizer found it when the halt's "
                      "shortest sequence ran again", plain["message"]["text"])
        # nothing of that program is left behind
        self.assertEqual(glob.glob(os.path.join(
            common.ARGS.tmp, "bcwalk-sarif.*")), [])
        exported(res, "--sarif", out)
        [again] = locations(out, said)
        self.assertEqual(again["physicalLocation"]["region"]["startLine"],
                         line_of("pq.c", "int pq_push(pq *q, void *item)"))
        self.assertIn("found after the call, by the block's guard",
                      again["message"]["text"])
        res = walk_to("pq-asan.msgpack", "pq.bc", "pq", "--depth", "2",
                      "--sanitize", "address")
        exported(res, "--sarif", out)
        asan = locations(out, "pq_push: crash AddressSanitizer")
        self.assertEqual(
            sorted(a["physicalLocation"]["region"]["startLine"] for a in asan),
            writes)
        self.assertFalse(any("message" in a for a in asan))

    def test_the_schema_refuses_what_is_not_sarif(self):
        with self.assertRaises(jsonschema.ValidationError):
            jsonschema.Draft4Validator(sarif_schema()).validate(
                {"version": "2.1.0", "runs": [{"results": []}]})


def chromium(page):
    """Headless Chromium's DOM of `page` once loaded, and its console
    messages (an uncaught error among them)."""
    p = subprocess.run(["chromium", "--headless", "--no-sandbox",
                        "--disable-gpu", "--enable-logging=stderr", "--v=0",
                        "--user-data-dir=" + tmp("chromium-profile"),
                        "--dump-dom", "file://" + page],
                       capture_output=True, text=True, timeout=120)
    console = [line for line in p.stderr.splitlines() if ":CONSOLE" in line]
    return p.stdout, console


class Html(unittest.TestCase):
    """--html: one self-contained page, loaded by a real browser without
    a console error, showing the counts, the state graph, the halts in C
    and the coverage."""

    def test_the_harness_sees_a_script_error(self):
        bad = tmp("bad.html")
        with open(bad, "w") as f:
            f.write("<!DOCTYPE html><p>x</p><script>nosuch();</script>")
        _, console = chromium(bad)
        self.assertTrue(any("nosuch" in line for line in console), console)

    def test_chromium_loads_the_page_and_shows_the_walk(self):
        res = walk_to("acc3.msgpack", "account.bc", "account", "--walk",
                      "state", "--depth", "2", "--coverage", tmp("a3.info"))
        page = tmp("acc.html")
        doc = json.loads(exported(res, "--html", page).stdout)
        text = read(page)
        self.assertNotIn("src=\"http", text)  # self-contained
        self.assertNotIn("href=\"http", text)
        dom, console = chromium(page)
        self.assertEqual(console, [])
        seqs = doc["sequences"]
        for key in ("normal", "terminated", "discarded"):
            self.assertRegex(dom, r'<td id="%s">%d</td>' % (key, seqs[key]))
        self.assertIn("<svg", dom)
        for st in doc["states"]:
            self.assertIn(st["name"].replace("&", "&amp;").replace(
                "<", "&lt;").replace(">", "&gt;"), dom)
        self.assertIn("account *target = account_new();", dom)
        self.assertIn("ENSURES(a-&gt;balance &gt;= -a-&gt;limit)", dom)
        cov = doc["coverage"]["lines"]
        self.assertIn("%d / %d" % (cov["hit"], cov["total"]), dom)


def cmocka_build(tests_c, exe, *sources_and_flags):
    """The emitted tests compiled with the system's C compiler against
    the library's source, linked with cmocka."""
    p = subprocess.run(["cc", "-Wall", "-I" + common.source("include"),
                        "-o", exe, tests_c, *sources_and_flags, "-lcmocka"],
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise AssertionError("cc %s: %s" % (tests_c, p.stderr))
    return subprocess.run([exe], capture_output=True, text=True,
                          timeout=600)


class EmitC(unittest.TestCase):
    """--emit-c: a C file of cmocka tests, one per sequence, that the
    system's compiler builds against the library's source: it passes on
    the build it was made from and fails on a seeded fault."""

    def test_the_tests_pass_on_the_unit_and_fail_on_a_seeded_fault(self):
        res = walk_to("b4.msgpack", "bstack.bc", "bstack", "--depth", "4")
        tests_c = tmp("bstack_tests.c")
        exported(res, "--emit-c", tests_c, "--emit-c-all")
        src = read(tests_c)
        self.assertIn("target = L_bstack_new();", src)
        self.assertIn("assert_true(halts(", src)  # pop on empty aborts
        self.assertNotIn("skip();\n}", src)        # every sequence in C
        self.assertEqual(src.count("cmocka_unit_test_setup("), 667)
        bstack = common.source("examples", "bstack.c")
        good = cmocka_build(tests_c, tmp("bstack_tests"), bstack)
        self.assertEqual(good.returncode, 0, good.stdout + good.stderr)
        self.assertNotIn("FAILED", good.stdout + good.stderr)
        # capacity 3: a fourth push is ignored, and the sequences that
        # saw the fourth element fail
        bad = cmocka_build(tests_c, tmp("bstack_cap3"), bstack,
                           "-DBSTACK_CAPACITY=3")
        self.assertNotEqual(bad.returncode, 0)
        self.assertIn("FAILED", bad.stdout + bad.stderr)

    def test_a_large_walk_emits_a_chosen_set_or_all_in_files(self):
        """By default a sample of each length and every distinct halt;
        with --emit-c-all every sequence, in files of at most 1000
        tests that build together and pass."""
        res = walk_to("b5.msgpack", "bstack.bc", "bstack", "--depth", "5")
        sarif = tmp("b7.sarif")
        seqs = json.loads(exported(res, "--sarif", sarif).stdout)["sequences"]
        halts = json.loads(read(sarif))["runs"][0]["results"]
        self.assertGreater(len(halts), 0)
        chosen = tmp("b7_chosen.c")
        exported(res, "--emit-c", chosen)
        src = read(chosen)
        self.assertIn("a chosen set", src)
        lengths = re.findall(r"^/\* length (\d+) \*/$", src, re.M)
        self.assertEqual(sorted(set(lengths), key=int),
                         [str(n) for n in range(6)])
        for n in set(lengths):
            # 100 drawn, and the halts' shortest sequences pinned
            self.assertLessEqual(lengths.count(n), 100 + len(halts))
        # every distinct halt's shortest sequence is a test of its halt
        self.assertGreaterEqual(src.count("assert_true(halts(seq_"),
                                len(halts))
        every = tmp("b7_all.c")
        for old in glob.glob(tmp("b7_all*.c")):
            os.unlink(old)
        exported(res, "--emit-c", every, "--emit-c-all")
        files = sorted(glob.glob(tmp("b7_all*.c")))
        total = sum(read(f).count("cmocka_unit_test_setup(")
                    for f in files)
        self.assertEqual(total, seqs["normal"] + seqs["terminated"] +
                         seqs["leaking"])
        self.assertEqual(len(files), (total + 999) // 1000)
        self.assertIn("b7_all_2.c", read(every))  # the build line names all
        run = cmocka_build(every, tmp("b7_all"), *files[1:],
                           common.source("examples", "bstack.c"))
        self.assertEqual(run.returncode, 0, run.stdout[-2000:])
        self.assertEqual(
            sum(int(n) for n in re.findall(r"PASSED  \] (\d+)",
                                           run.stdout + run.stderr)),
            total)

    def test_every_shape_of_argument_is_written_and_its_tests_pass(self):
        """Elements, buffers, strings, handles filled in storage, other
        units' instances, out-constructors, built-in callbacks and an
        init function's storage, an object a call moved or ended are
        all written in C; the tests build
        with the library's source under AddressSanitizer (which checks
        the heap halts) and pass.  Only a call of a static function (a
        static inline of a header) is skipped, saying so."""
        shapes = {  # example, its unit, what its tests spell in C
            "enc": ("enc", ["bcw_bytes(", "bcw_str(\"",
                            "assert_string_equal("]),
            "cursor": ("clist", ["bcw_store(\"", "bcw_obj("]),
            "pq": ("pq", ["bcw_cb_0 /*", "HALT_CHECKED"]),
            "outctor": ("oc_vec_s", ["L_oc_vec_new(&target);"]),
            "item": ("item", ["({ void *bcw_o"]),
            "counter": ("counter", ["bcw_init_cell("]),
            "slab": ("slab", ["L_slab_new(bcw_cell(32), "]),
            # the object moved by a call goes on as what it returned; one
            # a call ended has no teardown (no double free natively)
            "hstr": ("hstr", ["    target = r1;\n"]),
            "web": ("web", ["web_close(target);\n}"]),
            # the destructor that tore the stream down, not the one that
            # refused it (LeakSanitizer would see a leak)
            "twomode": ("tm", ["L_tm_close_w(target);"]),
        }
        for name, (unit, spelled) in shapes.items():
            res = walk_to(name + "2.msgpack", name + ".bc", unit, "--depth",
                          "2")
            tests_c = tmp(name + "_shapes.c")
            exported(res, "--emit-c", tests_c)
            src = read(tests_c)
            for s in spelled:
                self.assertTrue(s in src, name + ": no " + s)
            skipped = re.findall(r"/\* not in C: (.*) \*/", src)
            for why in skipped:
                self.assertIn("static in the library", why, name)
            self.assertEqual(bool(skipped), name == "counter", name)
            run = cmocka_build(tests_c, tmp(name + "_shapes"),
                               common.source("examples", name + ".c"),
                               "-fsanitize=address", "-g")
            self.assertEqual(run.returncode, 0,
                             name + ": " + run.stdout[-3000:])
            self.assertNotIn("FAILED", run.stdout, name)

    def test_crashes_aborts_and_hangs_are_expected_to_halt(self):
        res = walk_to("f2.msgpack", "faulty.bc", "faulty", "--depth", "2")
        tests_c = tmp("faulty_tests.c")
        exported(res, "--emit-c", tests_c)
        src = read(tests_c)
        for how in ("HALT_SIGNAL, 11", "HALT_ABORT", "HALT_HANG"):
            self.assertIn(how, src)
        run = cmocka_build(tests_c, tmp("faulty_tests"),
                           common.source("examples", "faulty.c"))
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)

    def test_a_judged_walk_emits_a_test_per_confirmed_oracle_entry(self):
        oracle = tmp("bstack.oracle")
        if os.path.exists(oracle):
            os.unlink(oracle)
        walk = ("--unit", "bstack", "--depth", "4")
        bcwalk("test", example("bstack.bc"), *walk, "--oracle", oracle,
               "--accept", check=0)
        entries = json.loads(bcwalk("oracle", "dump", oracle,
                                    check=0).stdout)["entries"]
        tests_c, page = tmp("oracle_tests.c"), tmp("oracle.html")
        doc = json.loads(bcwalk("test", example("bstack.bc"), *walk,
                                "--oracle", oracle, "--emit-c", tests_c,
                                "--html", page, "--format", "json",
                                check=0).stdout)
        # the page has JWalk's oracle efficiency too
        self.assertIn('<td id="passed">%d</td>' % doc["oracle"]["passed"],
                      read(page))
        self.assertIn("Decisions automated", read(page))
        src = read(tests_c)
        self.assertEqual(src.count("cmocka_unit_test_setup("),
                         sum(e["verdict"] == "pass" for e in entries))
        bstack = common.source("examples", "bstack.c")
        good = cmocka_build(tests_c, tmp("oracle_tests"), bstack)
        self.assertEqual(good.returncode, 0, good.stdout + good.stderr)
        bad = cmocka_build(tests_c, tmp("oracle_cap3"), bstack,
                           "-DBSTACK_CAPACITY=3")
        self.assertNotEqual(bad.returncode, 0)

    def test_the_state_walk_groups_its_tests_by_state(self):
        res = walk_to("acc4.msgpack", "account.bc", "account", "--walk",
                      "state", "--depth", "2")
        tests_c = tmp("account_tests.c")
        doc = json.loads(exported(res, "--emit-c", tests_c).stdout)
        src = read(tests_c)
        groups = re.findall(r'cmocka_run_group_tests_name\("([^"]*)"', src)
        self.assertEqual(groups,
                         ["state " + st["name"] for st in doc["states"]])
        run = cmocka_build(tests_c, tmp("account_tests"),
                           common.source("examples", "account.c"))
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)


if __name__ == "__main__":
    common.main()
