"""oracle.py - end-to-end tests of the oracle file (docs/oracle.md):
`bcwalk oracle dump` prints a file written by another writer, with its
bytes as docs/oracle.md says, and refuses bad ones with one line and
exit 2.  ctest runs this file as test_e2e_oracle."""
import json
import os
import struct
import subprocess
import tempfile
import unittest

import msgpack

import common
from common import bcwalk, bcw_hash, example


def oracle_bytes(unit, entries, version=6, model=None, states=None):
    """An oracle file as docs/oracle.md lays it out, written here, not by
    bcwalk: its one map, the checksum last."""
    p = msgpack.Packer(use_bin_type=True)
    out = p.pack_map_header(7)
    for key, value in (("format", "bcwalk-oracle"), ("version", version),
                       ("unit", unit), ("model", model), ("states", states),
                       ("entries", entries)):
        out += p.pack(key) + p.pack(value)
    out += b"\xa8checksum\xcf"
    return out + struct.pack(">Q", bcw_hash(out))


ENTRIES = [
    [0x9a3c0e1b55f0d2a7, 0x51, ["bstack_new()",
                                "bstack_push(target, 1 /* x > 0 */)"],
     "pass", 1795000000, ["normal", None, None, []],
     ["normal", None, "1", []], "protocol", 1, 0x7a, [2, 5],
     [[1, 2 ** 64 - 1]]],
    [0, 0, ["doc_new()", b"doc_put(target, \"caf\xe9\")"], "pending",
     1795000060, ["crash", "SIGSEGV: read of address 0x8 in doc_put (doc.c:9)",
                  None, ["visit", "16"]], None, None, 0, 0, [], []],
]

# the state walk's design states: the plan's step count, the predicates,
# each state's name, value and cover (steps, and their functions)
STATES = [11, ["bstack_is_empty", "bstack_is_full"],
          [["empty", 1, [0], ["bstack_new"]],
           ["default", 0, [0, 2], ["bstack_new", "bstack_push"]]]]


class Dump(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def write(self, name, data):
        path = os.path.join(self.tmp.name, name)
        with open(path, "wb") as f:
            f.write(data)
        return path

    def test_dump_prints_each_entry(self):
        path = self.write("o.msgpack", oracle_bytes("bstack", ENTRIES,
                                                    states=STATES))
        p = bcwalk("oracle", "dump", path, check=0)
        self.assertEqual(p.stderr, "")
        doc = json.loads(p.stdout)
        self.assertEqual((doc["format"], doc["version"], doc["unit"]),
                         ("bcwalk-oracle", 6, "bstack"))
        self.assertIsNone(doc["model_bytes"])
        self.assertEqual(doc["states"], {
            "plan_steps": 11, "predicates": ["bstack_is_empty",
                                             "bstack_is_full"],
            "states": [{"name": "empty", "value": 1, "cover": ["bstack_new"]},
                       {"name": "default", "value": 0,
                        "cover": ["bstack_new", "bstack_push"]}]})
        first, second = doc["entries"]
        self.assertEqual(first, {
            "state": "9a3c0e1b55f0d2a7", "after": "0000000000000051",
            "sequence": ["bstack_new()",
                         "bstack_push(target, 1 /* x > 0 */)"],
            "verdict": "pass", "first_seen": "2026-11-18T11:06:40Z",
            "walk": "protocol", "depth": 1,
            "plan": "000000000000007a", "steps": [2, 5],
            "args": {"1": 2 ** 64 - 1},
            "outcome": "normal", "cause": None, "result": None, "out": {},
            "proposed": {"outcome": "normal", "cause": None, "result": "1",
                         "out": {}}})
        # bytes that are not UTF-8 as lone surrogates (docs/results.md)
        self.assertEqual(second["sequence"][1], "doc_put(target, \"caf\udce9\")")
        self.assertEqual((second["state"], second["after"], second["verdict"],
                          second["out"], second["proposed"]),
                         (None, None, "pending", {"visit": "16"}, None))
        # an entry per line
        self.assertEqual(p.stdout.count("\n"), 4)

    def test_bad_files_are_one_line_and_exit_2(self):
        good = oracle_bytes("bstack", ENTRIES)
        for what, data, says in (
                ("truncated", good[:-3], "corrupt oracle file"),
                ("a byte changed", good.replace(b"x > 0", b"x > 1"),
                 "corrupt oracle file (its checksum does not match its "
                 "bytes)"),
                ("another version", oracle_bytes("bstack", ENTRIES, 2),
                 "oracle version 2, this bcwalk reads 6"),
                ("a cover with no steps", oracle_bytes(
                    "bstack", ENTRIES, states=[11, [], [["s", 0, [], []]]]),
                 "corrupt oracle file (a state's cover)"),
                ("a cover's steps and functions apart", oracle_bytes(
                    "bstack", ENTRIES,
                    states=[11, [], [["s", 0, [0, 1], ["bstack_new"]]]]),
                 "corrupt oracle file (a state's cover)"),
                ("a model that is no bytes",
                 oracle_bytes("bstack", ENTRIES, model="bstack"),
                 "corrupt oracle file (model)"),
                ("an entry twice", oracle_bytes("bstack", ENTRIES[:1] * 2),
                 "two entries of one key"),
                ("arguments of no step", oracle_bytes(
                    "bstack", [ENTRIES[0][:10] + [[], [[1, 5]]]]),
                 "corrupt oracle file (arguments of no step)"),
                ("an argument twice", oracle_bytes(
                    "bstack", [ENTRIES[0][:10] + [[2], [[1, 5], [1, 6]]]]),
                 "corrupt oracle file (an argument twice)"),
                ("an argument past a call's", oracle_bytes(
                    "bstack", [ENTRIES[0][:10] + [[2], [[8, 5]]]]),
                 "corrupt oracle file"),
                ("not msgpack", b"BC\xc0\xde", "corrupt oracle file"),
                ("empty", b"", "corrupt oracle file")):
            with self.subTest(what):
                path = self.write("bad.msgpack", data)
                p = bcwalk("oracle", "dump", path, check=2)
                self.assertEqual(p.stdout, "")
                self.assertEqual(p.stderr.count("\n"), 1, p.stderr)
                self.assertTrue(p.stderr.startswith("bcwalk: %s: " % path))
                self.assertIn(says, p.stderr)
        # a model file is no oracle
        model = os.path.join(self.tmp.name, "m.msgpack")
        bcwalk("analyze", common.example("bstack.bc"), "-o", model, check=0)
        p = bcwalk("oracle", "dump", model, check=2)
        self.assertEqual(p.stderr, "bcwalk: %s: not a bcwalk oracle file\n"
                         % model)
        p = bcwalk("oracle", check=2)
        self.assertIn("dump FILE", p.stderr)


def test_run(oracle, bc, depth, *extra, unit="bstack"):
    """bcwalk test of `unit` in `bc` against `oracle`, jsonl: its exit
    status, its sequences and its summary."""
    p = bcwalk("test", example(bc), "--unit", unit, "--depth", str(depth),
               "--oracle", oracle, "--format", "jsonl", *extra)
    lines = [json.loads(line) for line in p.stdout.splitlines()]
    return p.returncode, lines[:-1], lines[-1]


# examples/undo.c's seeded faults, each with a sequence its change shows in
SEEDED = {1: ["undo_new"] + ["undo_push"] * 4 + ["undo_dropped"],
          2: ["undo_new"] + ["undo_push"] * 2 + ["undo_pop"],
          3: ["undo_new"] + ["undo_push"] * 3 + ["undo_size"],
          4: ["undo_new"] + ["undo_push"] * 2 + ["undo_is_full"],
          5: ["undo_new"] + ["undo_push"] * 4 + ["undo_dropped"] * 2,
          6: ["undo_new"] + ["undo_push"] * 5 + ["undo_top"],
          7: ["undo_new"] + ["undo_push"] * 4,
          8: ["undo_new", "undo_push", "undo_clear", "undo_size"]}


class Test(unittest.TestCase):
    """bcwalk test: a walk judged against its oracle (docs/oracle.md)."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.oracle = os.path.join(self.tmp.name, "bstack.oracle.msgpack")

    def entries(self):
        p = bcwalk("oracle", "dump", self.oracle, check=0)
        return json.loads(p.stdout)["entries"]

    def test_a_first_run_is_pending_and_saved_for_review(self):
        rc, seqs, summary = test_run(self.oracle, "bstack.bc", 2)
        self.assertEqual(rc, 1)
        # a void call that returned normally passes by the weak rule
        rule = [s for s in seqs if s["oracle"] == "void rule"]
        self.assertTrue(rule)
        self.assertTrue(all(s["verdict"] == "pass" and
                            s["calls"][-1]["fn"] in ("bstack_push",
                                                     "bstack_pop")
                            for s in rule))
        # and so does a sequence that reaches its state and makes it
        shared = [s for s in seqs if s["oracle"] == "same"]
        self.assertTrue(all(s["verdict"] == "pass" and
                            s["calls"][-1]["fn"] in ("bstack_push",
                                                     "bstack_pop")
                            for s in shared))
        judged = [s for s in seqs if s["verdict"] not in ("predicted", "pass")]
        self.assertTrue(all(s["verdict"] == "pending" and
                            s["oracle"] == "new" for s in judged))
        self.assertEqual(summary["oracle"]["new"], len(judged))
        # sequences that reach one state and make one call share an entry
        entries = self.entries()
        pending = [e for e in entries if e["verdict"] == "pending"]
        self.assertLess(len(pending), len(judged))
        self.assertTrue(all(e["verdict"] == "pass" and e["result"] is None
                            and e["outcome"] == "normal"
                            for e in entries if e not in pending))
        # a person is asked once per entry (JWalk's manual confirmations)
        self.assertEqual(summary["efficiency"]["manual"], len(pending))
        self.assertEqual(summary["efficiency"]["predicted"],
                         len(seqs) - len(pending))
        # still pending on the next run, and the oracle unchanged
        with open(self.oracle, "rb") as f:
            before = f.read()
        rc, seqs, summary = test_run(self.oracle, "bstack.bc", 2)
        self.assertEqual((rc, summary["oracle"]["pending"]), (1, len(judged)))
        with open(self.oracle, "rb") as f:
            self.assertEqual(f.read(), before)

    def test_an_accepted_baseline_passes_and_a_deeper_walk_adds_to_it(self):
        rc, seqs, summary = test_run(self.oracle, "bstack.bc", 3, "--accept")
        self.assertEqual(rc, 0)
        n = summary["sequences"]["normal"] + summary["sequences"]["terminated"]
        self.assertEqual(summary["oracle"]["passed"], n)
        self.assertEqual(summary["verdicts"]["pass_auto"], n)
        rc, seqs, summary = test_run(self.oracle, "bstack.bc", 3)
        self.assertEqual((rc, summary["oracle"]["passed"]), (0, n))
        self.assertTrue(all(s["verdict"] == "pass" and s["oracle"] == "same"
                            for s in seqs))
        # what depth 4 adds is new, what it shares with depth 3 passes
        rc, seqs, summary = test_run(self.oracle, "bstack.bc", 4)
        self.assertEqual(rc, 1)
        self.assertGreater(summary["oracle"]["passed"], n)
        new = [s for s in seqs if s["oracle"] == "new"]
        self.assertTrue(new)
        self.assertTrue(all(len(s["calls"]) >= 5 for s in new))

    def test_oracle_efficiency_as_jwalks_table_2(self):
        # JWalk's Table 2 (BoundedStack): the oracle grown cycle by cycle,
        # algebra 1-3 then state 1-3, each confirmed (--accept)
        got = []
        for walk, depth in (("algebra", 1), ("algebra", 2), ("algebra", 3),
                            ("state", 1), ("state", 2), ("state", 3)):
            p = bcwalk("test", example("bstack.bc"), "--unit", "bstack",
                       "--walk", walk, "--depth", str(depth), "--oracle",
                       self.oracle, "--accept", "--format", "json", check=0)
            e = json.loads(p.stdout)["efficiency"]
            got.append((e["manual"], e["predicted"], e["automated_pct"]))
        # the algebra cycles as the paper has them: manual 6, 4, 9;
        # predicted 1, 9, 16; automated 14.29%, 90.70%, 96.53%
        self.assertEqual(got[:3], [(6, 1, 14.29), (4, 9, 90.70),
                                   (9, 16, 96.53)])
        # the state cycles: the paper asks 4, 8 and 28 times; sharing
        # entries by concrete state asks less from depth 2 on
        self.assertEqual([m for m, _, _ in got[3:]], [4, 4, 20])
        self.assertEqual([m + p for m, p, _ in got[3:]], [21, 117, 645])

    def test_a_seeded_fault_is_caught(self):
        # the same stack built with capacity 3: full after three pushes
        test_run(self.oracle, "bstack.bc", 4, "--accept")
        rc, seqs, summary = test_run(self.oracle, "bstack-cap3.bc", 4)
        self.assertEqual(rc, 1)
        # its states hash otherwise (the capacity is in them): the walk
        # follows the oracle's from call to call, and only what differs
        # is pending
        self.assertEqual((summary["oracle"]["changed"],
                          summary["oracle"]["new"]), (1, 0))
        changed = [s for s in seqs if s["oracle"] == "changed"]
        full = [s for s in changed
                if [c["fn"] for c in s["calls"]] ==
                ["bstack_new"] + ["bstack_push"] * 3 + ["bstack_is_full"]]
        self.assertEqual(len(full), 1)
        self.assertEqual(full[0]["calls"][-1]["result"], "true")
        self.assertEqual(full[0]["was"], {"outcome": "normal",
                                          "result": "false"})
        text = bcwalk("test", example("bstack-cap3.bc"), "--unit", "bstack",
                      "--depth", "4", "--oracle", self.oracle,
                      check=1).stdout
        self.assertIn("bstack_is_full(target);\n==> true\n--- changed: "
                      "pending, the oracle has ==> false\n", text)
        # the correct build still passes its oracle
        rc, seqs, summary = test_run(self.oracle, "bstack.bc", 4)
        self.assertEqual((rc, summary["oracle"]["changed"]), (0, 0))
        # accepted, the change becomes the oracle's; the old build is
        # then the changed one
        rc, seqs, summary = test_run(self.oracle, "bstack-cap3.bc", 4,
                                     "--accept")
        self.assertEqual((rc, summary["oracle"]["accepted"]), (0, 1))
        rc, seqs, summary = test_run(self.oracle, "bstack.bc", 4)
        [changed] = [s for s in seqs if s["oracle"] == "changed"]
        self.assertEqual((rc, changed["was"]["result"]), (1, "true"))

    def test_seeded_faults_are_caught(self):
        # examples/undo.c: an oracle trained on the correct unit, then
        # each seeded fault judged against it
        oracle = os.path.join(self.tmp.name, "undo.oracle.msgpack")
        rc, seqs, summary = test_run(oracle, "undo.bc", 6, "--accept",
                                     unit="undo")
        self.assertEqual((rc, summary["oracle"]["changed"]), (0, 0))
        # the same source one line lower, built elsewhere: every abort's
        # site moved, and nothing changed
        rc, seqs, summary = test_run(oracle, "undo-moved.bc", 6, unit="undo")
        self.assertEqual((rc, summary["oracle"]["passed"]), (0, len(seqs)))
        with open(oracle, "rb") as f:
            trained = f.read()
        for fault, calls in SEEDED.items():
            with self.subTest(fault=fault):
                with open(oracle, "wb") as f:
                    f.write(trained)
                rc, seqs, summary = test_run(
                    oracle, "undo-fault%d.bc" % fault, 6, unit="undo")
                self.assertEqual(rc, 1)
                changed = [[c["fn"] for c in s["calls"]] for s in seqs
                           if s["oracle"] == "changed"]
                self.assertEqual(len(changed), summary["oracle"]["changed"])
                failed = [[c["fn"] for c in s["calls"]] for s in seqs
                          if s["verdict"] == "fail"]
                self.assertEqual(len(failed), summary["oracle"]["failed"])
                # fault 7 breaks the invariant: a failure, no person asked
                self.assertIn(calls, failed if fault == 7 else changed)
        # the wrap-around fault needs two drops and a look: depth 6
        with open(oracle, "wb") as f:
            f.write(trained)
        rc, seqs, summary = test_run(oracle, "undo-fault6.bc", 5, unit="undo")
        self.assertEqual((rc, summary["oracle"]["changed"]), (0, 0))

    def test_what_the_oracle_has_and_the_walk_misses_fails(self):
        # fault 9: undo_new makes nothing, so every sequence is rejected;
        # every entry a protocol walk of depth 3 made is missing, with
        # and without a reference, and a shallower walk of the correct
        # build leaves the deeper entries beyond it, passing
        oracle = os.path.join(self.tmp.name, "undo.oracle.msgpack")
        rc, seqs, summary = test_run(oracle, "undo.bc", 3, "--accept",
                                     unit="undo")
        self.assertEqual(rc, 0)
        dumped = json.loads(bcwalk("oracle", "dump", oracle).stdout)
        entries = len(dumped["entries"])
        # the entries say which walk made them
        self.assertEqual({(e["walk"], e["depth"])
                          for e in dumped["entries"]}, {("protocol", 3)})
        rc, seqs, summary = test_run(oracle, "undo-fault9.bc", 3, unit="undo")
        o = summary["oracle"]
        # the constructor's rejection is a changed observation, both sides
        # shown; what follows it is missing
        [ctor] = seqs
        self.assertEqual((ctor["oracle"], ctor["calls"][0]["outcome"],
                          ctor["was"]["outcome"], ctor["was"]["result"]),
                         ("changed", "rejected", "normal", "#0"))
        self.assertEqual((rc, o["changed"], o["missing"], o["beyond"],
                          o["unreached"]), (1, 1, entries - 1, 0, entries - 1))
        self.assertEqual(len(o["missing_list"]), 10)
        self.assertEqual(o["missing_list"][0]["why"],
                         "its prefix of 1 calls ended rejected in this walk "
                         "(the oracle has it normal), so undo_ok(target) was "
                         "not made")
        p = bcwalk("test", example("undo-fault9.bc"), "--unit", "undo",
                   "--depth", "3", "--reference", example("undo.bc"))
        self.assertEqual(p.returncode, 1)
        self.assertIn("undo *target = undo_new();\n==> NULL  *rejected*\n"
                      "--- failed: the reference build gives ==> #0\n",
                      p.stdout)
        self.assertIn("Missing %d observations of the reference build that "
                      "this walk should have reached" % (entries - 1),
                      p.stdout)
        rc, seqs, summary = test_run(oracle, "undo.bc", 2, unit="undo")
        o = summary["oracle"]
        self.assertEqual((rc, o["missing"]), (0, 0))
        self.assertGreater(o["beyond"], 0)
        # --accept takes what is missing as gone: dropped from the oracle,
        # and the next run passes
        rc, _, summary = test_run(oracle, "undo-fault9.bc", 3, "--accept",
                                  unit="undo")
        o = summary["oracle"]
        self.assertEqual((rc, o["missing"], o["dropped"]),
                         (0, entries - 1, entries - 1))
        dumped = json.loads(bcwalk("oracle", "dump", oracle).stdout)
        self.assertEqual(len(dumped["entries"]), 1)
        rc, _, summary = test_run(oracle, "undo-fault9.bc", 3, unit="undo")
        self.assertEqual((rc, summary["oracle"]["missing"]), (0, 0))

    def test_an_observer_that_changes_the_state_fails(self):
        # fault 5: reading the drop count clears it.  The algebra walk
        # walks undo_dropped as an observer; in test every sequence ending
        # in one is checked, and what the call did to the state is part of
        # its observation: a change where the reference's or the
        # oracle's left the state as it was fails
        text = bcwalk("test", example("undo-fault5.bc"), "--unit", "undo",
                      "--walk", "algebra", "--depth", "5", "--reference",
                      example("undo.bc")).stdout
        self.assertIn("undo_push(target, 4);\nundo_dropped(target);\n==> 1 "
                      "(walked as an observer, it changed the object's "
                      "state)\n--- failed: the reference build gives ==> 1\n",
                      text)
        oracle = os.path.join(self.tmp.name, "undo.oracle.msgpack")
        rc, _, _ = test_run(oracle, "undo.bc", 5, "--walk", "algebra",
                            "--accept", unit="undo")
        self.assertEqual(rc, 0)
        rc, seqs, summary = test_run(oracle, "undo-fault5.bc", 5, "--walk",
                                     "algebra", unit="undo")
        self.assertEqual(rc, 1)
        changed = [[c["fn"] for c in q["calls"]] for q in seqs
                   if q.get("oracle") == "changed"]
        self.assertIn(["undo_new"] + ["undo_push"] * 4 + ["undo_dropped"],
                      changed)
        # the faulty build's own oracle has its side effect: a build that
        # always changed the state there (a cache it fills) passes it
        rc, _, _ = test_run(oracle, "undo-fault5.bc", 5, "--walk", "algebra",
                            "--accept", unit="undo")
        self.assertEqual(rc, 0)
        rc, _, summary = test_run(oracle, "undo-fault5.bc", 5, "--walk",
                                  "algebra", unit="undo")
        self.assertEqual((rc, summary["oracle"]["passed"],
                          summary["oracle"]["changed"]),
                         (0, summary["oracle"]["passed"], 0))

    def test_the_oracles_plan_is_followed(self):
        # fault 8: undo_clear stores nothing, an observer to the faulty
        # build's analysis; the oracle keeps the correct build's plan,
        # where it is a mutator the algebra walk extends
        oracle = os.path.join(self.tmp.name, "undo.oracle.msgpack")
        test_run(oracle, "undo.bc", 3, "--walk", "algebra", "--accept",
                 unit="undo")
        with open(oracle, "rb") as f:
            trained = f.read()
        model = json.loads(bcwalk("oracle", "dump", oracle,
                                  check=0).stdout)["model_bytes"]
        self.assertGreater(model, 0)
        rc, seqs, summary = test_run(oracle, "undo-fault8.bc", 3, "--walk",
                                     "algebra", unit="undo")
        self.assertEqual(rc, 1)
        changed = {tuple(c["fn"] for c in s["calls"]): s["was"]
                   for s in seqs if s.get("oracle") == "changed"}
        # judged after a clear as the oracle has it after a clear
        self.assertEqual(
            changed[("undo_new", "undo_push", "undo_clear", "undo_size")],
            {"outcome": "normal", "result": "0"})
        self.assertTrue(all("undo_clear" in fns for fns in changed))
        # planned from the faulty build instead, the fault hides
        with open(oracle, "wb") as f:
            f.write(trained)
        rc, seqs, summary = test_run(oracle, "undo-fault8.bc", 3, "--walk",
                                     "algebra", "--replan", unit="undo")
        self.assertEqual((rc, summary["oracle"]["changed"]), (0, 0))
        self.assertFalse(any(fns[-1] != "undo_clear" and "undo_clear" in fns
                             for fns in ([c["fn"] for c in s["calls"]]
                                         for s in seqs)))
        # and --replan kept the faulty build's plan
        self.assertNotEqual(json.loads(bcwalk(
            "oracle", "dump", oracle, check=0).stdout)["model_bytes"], model)

    def test_an_invariant_function_fails_a_call_with_no_oracle(self):
        # examples/undo.c's undo_ok, called after every call: fault 7
        # breaks it on the push that finds the history full
        p = bcwalk("explore", example("undo-fault7.bc"), "--unit", "undo",
                   "--depth", "4", "--format", "jsonl", check=0)
        seqs = [json.loads(line) for line in p.stdout.splitlines()][:-1]
        broken = [s for s in seqs if s["calls"][-1]["outcome"] == "failure"]
        self.assertTrue(broken)
        for s in broken:
            self.assertEqual([c["fn"] for c in s["calls"]][-1], "undo_push")
            self.assertEqual(s["calls"][-1]["cause"],
                             "invariant undo_ok(target) is false after the "
                             "call")
        self.assertIn(["undo_new"] + ["undo_push"] * 4,
                      [[c["fn"] for c in s["calls"]] for s in broken])
        # the correct unit keeps it after every call
        p = bcwalk("explore", example("undo.bc"), "--unit", "undo",
                   "--depth", "4", "--format", "json", check=0)
        self.assertEqual(json.loads(p.stdout)["sequences"]["terminated"],
                         json.loads(bcwalk(
                             "explore", example("undo-fault1.bc"), "--unit",
                             "undo", "--depth", "4", "--format", "json",
                             check=0).stdout)["sequences"]["terminated"])
        # judged, it fails whatever the oracle says: no person asked
        oracle = os.path.join(self.tmp.name, "undo.oracle.msgpack")
        test_run(oracle, "undo.bc", 4, "--accept", unit="undo")
        rc, seqs, summary = test_run(oracle, "undo-fault7.bc", 4, unit="undo")
        self.assertEqual((rc, summary["oracle"]["failed"]), (1, len(broken)))
        self.assertEqual(summary["efficiency"]["manual"], 0)

    def test_a_reference_build_catches_the_seeded_faults(self):
        # --reference: the correct unit's walk, then the same plan's on
        # the faulty build, every difference a failure
        def reference_run(bc, depth=6, walk="protocol"):
            p = bcwalk("test", example(bc), "--unit", "undo", "--depth",
                       str(depth), "--walk", walk, "--reference",
                       example("undo.bc"), "--format", "jsonl")
            lines = [json.loads(line) for line in p.stdout.splitlines()]
            return p.returncode, lines[:-1], lines[-1]
        rc, seqs, summary = reference_run("undo-moved.bc")
        self.assertEqual((rc, summary["oracle"]["passed"],
                          summary["oracle"]["reference"]), (0, len(seqs), True))
        for fault, calls in SEEDED.items():
            with self.subTest(fault=fault):
                rc, seqs, summary = reference_run("undo-fault%d.bc" % fault)
                self.assertEqual(rc, 1)
                differs = [s for s in seqs if s["oracle"] == "differs"]
                self.assertEqual(len(differs), summary["oracle"]["differs"])
                self.assertTrue(all(s["verdict"] == "fail" and "was" in s
                                    for s in differs))
                failed = differs if fault != 7 else [
                    s for s in seqs if s["verdict"] == "fail"]
                self.assertIn(calls, [[c["fn"] for c in s["calls"]]
                                      for s in failed])
                self.assertEqual(summary["oracle"]["pending"], 0)
        # the text shows both sides
        text = bcwalk("test", example("undo-fault6.bc"), "--unit", "undo",
                      "--depth", "6", "--reference", example("undo.bc"),
                      check=1).stdout
        self.assertIn("undo_push(target, 5);\nundo_top(target);\n==> 3\n"
                      "--- failed: the reference build gives ==> 5\n", text)
        self.assertIn("Failed 2 test sequences: 2 not as the reference build "
                      "gives them", text)
        # the reference's plan: the algebra walk keeps the reference's
        # observer out of prefixes, where the faulty build's side effect
        # would show, and says what it saw of it
        rc, seqs, summary = reference_run("undo-fault5.bc", 6, "algebra")
        self.assertTrue(any(
            w.startswith("undo_dropped was classified an observer but "
                         "changed the concrete state in ") and
            w.endswith(" runs (a side effect the analysis missed)")
            for w in summary["warnings"]), summary["warnings"])
        # a clear that stores nothing, an observer to its own analysis,
        # is extended in the reference's algebra walk and caught there
        rc, seqs, summary = reference_run("undo-fault8.bc", 3, "algebra")
        self.assertEqual(rc, 1)
        self.assertIn(["undo_new", "undo_push", "undo_clear", "undo_size"],
                      [[c["fn"] for c in s["calls"]] for s in seqs
                       if s.get("oracle") == "differs"])
        # and its states: the state walk from the reference's covers
        rc, seqs, summary = reference_run("undo-fault6.bc", 6, "state")
        self.assertEqual(rc, 1)
        self.assertEqual(set(s["state"] for s in seqs),
                         {"empty", "full", "default"})

    def test_every_shape_of_fault_fails_at_the_least_depth_showing_it(self):
        # issue 29's shapes: a constructor returning NULL (undo fault 9;
        # slots fault 4, always: no constructor at all to its own
        # build's analysis), a state made unreachable (undo fault 3:
        # full is never reached), a teardown halting on some states (undo
        # fault 10: after a drop), a boundary moved by one (slots fault
        # 1: slots_open(0)
        # refused; fault 2: the slot one past the pool given back), an
        # init function forgetting a field (counter fault 1: its storage
        # is not zeroed for it, as a C caller's stack is not), an
        # observer with a side effect only the algebra walk
        # checks (undo fault 5).  Each fails by oracle and by reference
        # at the depth that first shows it, and passes one below (walks
        # are at least one method deep)
        for faulty, unit, walk, depth, extra in (
                ("undo-fault9", "undo", "protocol", 1, []),
                ("undo-fault3", "undo", "state", 1, []),
                ("undo-fault10", "undo", "protocol", 4, []),
                ("slots-fault1", "slots", "protocol", 1, ["--boundaries"]),
                ("slots-fault2", "slots", "protocol", 1, []),
                ("slots-fault4", "slots", "protocol", 1, []),
                ("counter-fault1", "counter", "protocol", 1, []),
                ("undo-fault5", "undo", "algebra", 5, [])):
            correct = unit + ".bc"
            for d in (depth - 1, depth) if depth > 1 else (depth,):
                with self.subTest(faulty=faulty, depth=d):
                    args = ["--walk", walk, *extra]
                    oracle = os.path.join(self.tmp.name, "%s-%d" % (faulty, d))
                    rc, _, _ = test_run(oracle, correct, d, "--accept", *args,
                                        unit=unit)
                    self.assertEqual(rc, 0)
                    rc, _, summary = test_run(oracle, faulty + ".bc", d, *args,
                                              unit=unit)
                    self.assertEqual(rc, int(d == depth), summary["oracle"])
                    p = bcwalk("test", example(faulty + ".bc"), "--unit",
                               unit, "--depth", str(d), *args, "--reference",
                               example(correct))
                    self.assertEqual(p.returncode, int(d == depth))
        # the teardown's halt is the last call's observation, both sides
        # shown, not a new one
        text = bcwalk("test", example("undo-fault10.bc"), "--unit", "undo",
                      "--depth", "4", "--reference", example("undo.bc"),
                      check=1).stdout
        self.assertIn("undo_push(target, 4);\nundo_free(target);\n==> "
                      "*abort* abort() called in undo_free (undo.c:", text)
        self.assertIn("--- failed: the reference build gives ==> void\n",
                      text)

    def test_a_recorded_argument_is_passed_again(self):
        # slots fault 3 makes the pool one slot too big, so the first
        # number past it, computed from the object, moves with the fault:
        # the oracle's number is passed again, and the call it judged
        # shows the change, by oracle and by reference; --replan computes
        # the number again
        oracle = os.path.join(self.tmp.name, "slots")
        args = ["--walk", "protocol", "--boundaries"]
        rc, _, _ = test_run(oracle, "slots.bc", 1, "--accept", *args,
                            unit="slots")
        self.assertEqual(rc, 0)
        past = "slots_taken(target, 1 /* i >= 0 && i >= n */)"
        dump = json.loads(bcwalk("oracle", "dump", oracle).stdout)
        self.assertEqual([e["args"] for e in dump["entries"]
                          if e["sequence"] == ["slots_open(1 /* n >= 0 && "
                                               "n <= 64 */)", past]],
                         [{"1": 1}])

        def taken_past(seqs, number):
            return [s for s in seqs
                    if [(c["fn"], c["args"]) for c in s["calls"]] ==
                    [("slots_open", ["1"]), ("slots_taken", ["#0", number])]
                    and s["calls"][1]["labels"][1] == "i >= 0 && i >= n"]
        rc, seqs, summary = test_run(oracle, "slots-fault3.bc", 1, *args,
                                     unit="slots")
        self.assertEqual(rc, 1)
        (seq,) = taken_past(seqs, "1")
        self.assertEqual((seq["oracle"], seq["calls"][1]["result"],
                          seq["was"]["result"]), ("changed", "0", "-1"))
        self.assertEqual(taken_past(seqs, "2"), [])
        p = bcwalk("test", example("slots-fault3.bc"), "--unit", "slots",
                   "--depth", "1", *args, "--reference", example("slots.bc"),
                   "--format", "jsonl", check=1)
        seqs = [json.loads(line) for line in p.stdout.splitlines()][:-1]
        (seq,) = taken_past(seqs, "1")
        self.assertEqual((seq["oracle"], seq["was"]["result"]),
                         ("differs", "-1"))
        rc, seqs, summary = test_run(oracle, "slots-fault3.bc", 1, *args,
                                     "--replan", unit="slots")
        self.assertEqual(len(taken_past(seqs, "2")), 1)
        self.assertEqual(taken_past(seqs, "1"), [])
        # slots_count's `to` is bounded by the pool and by `from`, a
        # generated value the state does not decide: computed, not
        # pinned, so the correct build passes its own oracle
        oracle = os.path.join(self.tmp.name, "slots-2")
        test_run(oracle, "slots.bc", 2, "--accept", unit="slots")
        rc, seqs, summary = test_run(oracle, "slots.bc", 2, unit="slots")
        self.assertEqual((rc, summary["oracle"]["passed"],
                          summary["oracle"]["missing"]), (0, len(seqs), 0))
        self.assertIn(("slots_count", ["#0", "2", "2"]),
                      [(c["fn"], c["args"]) for s in seqs for c in s["calls"]])

    def test_a_state_made_unreachable_fails_at_its_cover(self):
        # fault 3 drops on a history of two: full is never reached.  The
        # first state walk keeps its states in the oracle; later ones
        # reach them by its covers, and the cover of full fails
        oracle = os.path.join(self.tmp.name, "undo.oracle.msgpack")
        rc, _, _ = test_run(oracle, "undo.bc", 1, "--walk", "state",
                            "--accept", unit="undo")
        self.assertEqual(rc, 0)
        states = json.loads(bcwalk("oracle", "dump", oracle).stdout)["states"]
        self.assertEqual([(s["name"], len(s["cover"]))
                          for s in states["states"]],
                         [("empty", 1), ("default", 2), ("full", 4)])
        text = bcwalk("test", example("undo.bc"), "--unit", "undo", "--walk",
                      "state", "--depth", "1", "--oracle", oracle).stdout
        self.assertIn("Design states (3, reached by the oracle's covers):",
                      text)
        cover = ["undo_new"] + ["undo_push"] * 3
        for judge in (["--oracle", oracle],
                      ["--reference", example("undo.bc")]):
            with self.subTest(judge=judge[0]):
                p = bcwalk("test", example("undo-fault3.bc"), "--unit",
                           "undo", "--walk", "state", "--depth", "1",
                           "--format", "jsonl", *judge)
                self.assertEqual(p.returncode, 1)
                seqs = [json.loads(line) for line in p.stdout.splitlines()]
                lost = [s for s in seqs if "cover_reaches" in s]
                self.assertEqual([([c["fn"] for c in s["calls"]], s["state"],
                                   s["verdict"], s["cover_reaches"])
                                  for s in lost],
                                 [(cover, "full", "fail", "default")])
        text = bcwalk("test", example("undo-fault3.bc"), "--unit", "undo",
                      "--walk", "state", "--depth", "1", "--oracle", oracle,
                      check=1).stdout
        self.assertIn("undo_push(target, 3);\n==> void\n--- failed: the "
                      "cover of state full no longer reaches it: it reaches "
                      "default\n", text)
        # a cover whose teardown halts still reached its state, and a
        # walk that found no state (brittle.c's destructor always
        # crashes) has no cover to lose: each passes its own oracle
        for bc, unit in (("undo-fault10.bc", "undo"), ("brittle.bc",
                                                       "brittle")):
            other = os.path.join(self.tmp.name, unit + ".state.msgpack")
            for extra in (["--accept"], []):
                rc, _, summary = test_run(other, bc, 2, "--walk", "state",
                                          *extra, unit=unit)
                self.assertEqual((rc, summary["oracle"]["failed"]), (0, 0))
        # states of other predicates cannot be the oracle's: the walk
        # probes again, and says so
        rc, seqs, summary = test_run(oracle, "undo.bc", 1, "--walk", "state",
                                     "--predicates", "is_empty", unit="undo")
        self.assertIn("the oracle's states are of predicate is_full, which "
                      "this walk does not choose from: the design states "
                      "were probed again, not reached by the oracle's covers",
                      summary["warnings"])

    def test_an_observation_is_the_calls_own_not_the_paths(self):
        # examples/item.c: the target added as its own child makes a
        # cycle item_free recurses on until the stack overflows.  The
        # reports list the halt apart (aliasing); the oracle keeps what
        # the call did: its result, then the teardown's crash, with no
        # frame (where a stack ends is not what the call did)
        oracle = os.path.join(self.tmp.name, "item.oracle.msgpack")
        rc, _, _ = test_run(oracle, "item.bc", 1, "--accept", unit="item")
        self.assertEqual(rc, 0)
        entries = json.loads(bcwalk("oracle", "dump", oracle).stdout)[
            "entries"]
        [cycle] = [e for e in entries if e["sequence"] == [
            "item_new(1)", "item_add(target, target /* child is the "
            "target */)"]]
        self.assertEqual((cycle["outcome"], cycle["cause"], cycle["result"]),
                         ("crash", "SIGSEGV: stack overflow", "1"))

    def test_randomness_and_clocks_are_the_sequences_own(self):
        # examples/ticket.c salts with getrandom(), seeds rand() with
        # time() and stamps with clock_gettime(): the worker gives each
        # sequence the same stream and clock, so two walks report the
        # same, and the unit passes its own oracle and its own reference
        walks = [bcwalk("explore", example("ticket.bc"), "--unit", "ticket",
                        "--depth", "2").stdout for _ in range(2)]
        self.assertEqual(walks[0], walks[1])
        self.assertIn("ticket_take(target);\nticket_stamped(target);\n"
                      "==> 1767225600\n", walks[0])
        oracle = os.path.join(self.tmp.name, "ticket.oracle.msgpack")
        for extra in (["--accept"], []):
            rc, _, summary = test_run(oracle, "ticket.bc", 2, *extra,
                                      unit="ticket")
            self.assertEqual((rc, summary["oracle"]["changed"]), (0, 0))
        p = bcwalk("test", example("ticket.bc"), "--unit", "ticket",
                   "--depth", "2", "--reference", example("ticket.bc"),
                   check=0)
        self.assertEqual(p.returncode, 0, p.stdout[-2000:])

    def test_a_reference_must_be_the_same_interface(self):
        # a function missing, and the same functions with one parameter
        # of another type
        for tested, ref, says in (
                ("bstack.bc", "undo.bc", "%s does not define undo_new, which "
                 "the walk of %s calls: not an implementation of the same "
                 "interface"),
                ("undo.bc", "undo-long.bc", "%s's undo_push takes another type "
                 "as parameter 2 (x) than the walk of %s passes (long): not "
                 "the same interface")):
            p = bcwalk("test", example(tested), "--unit", "undo", "--depth",
                       "2", "--reference", example(ref), check=2)
            self.assertEqual(p.stderr, "bcwalk: " + says % (
                example(tested), example(ref)) + "\n")
        oracle = os.path.join(self.tmp.name, "o.msgpack")
        for extra in ([], ["--oracle", oracle, "--reference",
                           example("undo.bc")]):
            p = bcwalk("test", example("undo.bc"), "--unit", "undo", *extra,
                       check=2)
            self.assertIn("--oracle FILE) or a reference build", p.stderr)
        p = bcwalk("test", example("undo.bc"), "--unit", "undo",
                   "--reference", example("undo.bc"), "--accept", check=2)
        self.assertIn("--accept records into an oracle", p.stderr)
        self.assertFalse(os.path.exists(oracle))

    def test_a_failed_contract_fails_whatever_is_accepted(self):
        # account.c's withdraw breaks its ENSURES: failed, accepted or
        # not; a failed assert() is an observation a person judges once
        # (a library's assert is often its precondition check)
        oracle = os.path.join(self.tmp.name, "account.oracle.msgpack")
        rc, seqs, summary = test_run(oracle, "account.bc", 2, "--accept",
                                     unit="account")
        self.assertEqual(rc, 1)
        failed = [s["calls"][-1] for s in seqs if s["verdict"] == "fail"]
        self.assertEqual(len(failed), summary["oracle"]["failed"])
        self.assertTrue(failed)
        self.assertTrue(all(c["fn"] == "account_withdraw" and
                            c["outcome"] == "failure" for c in failed))
        asserts = [s for s in seqs if s["calls"][-1].get("cause", "")
                   .startswith("assertion failed")]
        self.assertTrue(asserts)
        self.assertTrue(all(s["verdict"] == "pass" for s in asserts))
        oracle = os.path.join(self.tmp.name, "faulty.oracle.msgpack")
        rc, seqs, summary = test_run(oracle, "faulty.bc", 1, "--accept",
                                     unit="faulty")
        self.assertEqual((rc, summary["oracle"]["failed"]), (0, 0))

    def test_pointers_are_named_as_the_call_gives_them_out(self):
        # examples/twin.c: a clone is ptr#0 or ptr#1 of its sequence as
        # the prefix gave out a pointer or not, in the same state
        oracle = os.path.join(self.tmp.name, "twin.oracle.msgpack")
        rc, seqs, summary = test_run(oracle, "twin.bc", 2, "--accept",
                                     unit="twin")
        results = {tuple(c["fn"] for c in s["calls"]):
                   s["calls"][-1].get("result") for s in seqs}
        self.assertEqual(results[("twin_new", "twin_clone", "twin_clone")],
                         "ptr#1")
        self.assertEqual((rc, summary["oracle"]["changed"]), (0, 0))
        rc, seqs, summary = test_run(oracle, "twin.bc", 2, unit="twin")
        self.assertEqual((rc, summary["oracle"]["passed"]), (0, len(seqs)))
        clones = [e for e in json.loads(
            bcwalk("oracle", "dump", oracle, check=0).stdout)["entries"]
            if e["sequence"][-1] == "twin_clone(target)"]
        self.assertTrue(clones)
        self.assertTrue(all(e["result"] == "ptr#0" for e in clones))

    def test_strings_and_buffers_are_observed_by_content(self):
        # examples/enc.c: enc_name returns the literal last matched,
        # enc_copy fills a buffer with it
        oracle = os.path.join(self.tmp.name, "enc.oracle.msgpack")
        test_run(oracle, "enc.bc", 2, "--accept", unit="enc")
        entries = json.loads(bcwalk("oracle", "dump", oracle,
                                    check=0).stdout)["entries"]
        named = {e["sequence"][1]: e["result"] for e in entries
                 if len(e["sequence"]) == 3 and
                 e["sequence"][2] == "enc_name(target)"}
        self.assertEqual(named['enc_set(target, "caf\\xe9" /* name == '
                               '"caf\\xe9" */)'], '"caf\\xe9"')
        copied = [e["out"] for e in entries
                  if e["sequence"][-1].startswith("enc_copy(")]
        self.assertIn({"buf": '""'}, copied)

    def test_an_oracle_of_another_unit_is_refused(self):
        test_run(self.oracle, "bstack.bc", 1, "--accept")
        p = bcwalk("test", example("ringq.bc"), "--unit", "ringq", "--depth",
                   "1", "--oracle", self.oracle, check=2)
        self.assertEqual(p.stderr, "bcwalk: test: --oracle %s: it judges "
                                   "unit bstack, not ringq\n" % self.oracle)
        p = bcwalk("test", example("bstack.bc"), "--unit", "bstack", check=2)
        self.assertIn("--oracle", p.stderr)


class Review(unittest.TestCase):
    """A person's judgements: test --interactive and bcwalk review."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.oracle = os.path.join(self.tmp.name, "bstack.oracle.msgpack")

    def run_bcwalk(self, *args, answers=""):
        env = dict(os.environ, XDG_CACHE_HOME=common.ARGS.cache)
        return subprocess.run([common.ARGS.bcwalk, *args], input=answers,
                              capture_output=True, text=True, env=env,
                              timeout=300)

    def verdicts(self):
        doc = json.loads(bcwalk("oracle", "dump", self.oracle,
                                check=0).stdout)
        return {tuple(e["sequence"]): e for e in doc["entries"]}

    def test_interactive_asks_as_it_prints(self):
        # in walk order: new, pop, top, size, is_empty, is_full; the void
        # push that returned normally passes by the weak rule, unasked
        p = self.run_bcwalk("test", example("bstack.bc"), "--unit", "bstack",
                            "--depth", "1", "--oracle", self.oracle,
                            "--interactive", answers="y\nn\nx\n\nq\n")
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertEqual(p.stderr.count("accept? "), 5)
        self.assertIn("Accepted 2 observations into the oracle as passing\n",
                      p.stdout)
        self.assertIn("Rejected 1 observations into the oracle as known "
                      "failures\n", p.stdout)
        self.assertIn("Pending 3 test sequences: 3 new", p.stdout)
        self.assertNotIn("bstack_push", p.stdout)
        got = {seq[-1].split("(")[0]: e["verdict"]
               for seq, e in self.verdicts().items()}
        self.assertEqual(got, {"bstack_new": "pass", "bstack_push": "pass",
                               "bstack_pop": "fail", "bstack_top": "pending",
                               "bstack_size": "pass",
                               "bstack_is_empty": "pending",
                               "bstack_is_full": "pending"})
        # it asks about what is pending only, and a known failure fails
        p = self.run_bcwalk("test", example("bstack.bc"), "--unit", "bstack",
                            "--depth", "1", "--oracle", self.oracle,
                            "--interactive", answers="later\n" * 3)
        self.assertEqual(p.stderr.count("accept? "), 3)
        self.assertIn("Failed 1 test sequences", p.stdout)
        p = self.run_bcwalk("test", example("bstack.bc"), "--unit", "bstack",
                            "--depth", "1", "--oracle", self.oracle,
                            "--interactive", "--accept")
        self.assertEqual(p.returncode, 2)
        self.assertIn("--interactive", p.stderr)

    def test_review_judges_what_a_run_left_pending(self):
        test_run(self.oracle, "bstack.bc", 4, "--accept")
        rc, seqs, summary = test_run(self.oracle, "bstack-cap3.bc", 4)
        self.assertEqual((rc, summary["oracle"]["changed"]), (1, 1))
        full = ("bstack_new()", "bstack_push(target, 1)",
                "bstack_push(target, 2)", "bstack_push(target, 3)",
                "bstack_is_full(target)")
        entry = self.verdicts()[full]
        self.assertEqual((entry["result"], entry["proposed"]["result"]),
                         ("false", "true"))
        # listed, not judged: it stays pending
        p = self.run_bcwalk("review", "--oracle", self.oracle, "--list")
        self.assertEqual(p.returncode, 1)
        self.assertEqual(p.stdout,
                         "[1/1] changed\n" + "".join(c + ";\n" for c in full)
                         + "==> true\n--- the oracle has ==> false "
                         "(passing)\n0 accepted, 0 rejected, 1 still "
                         "pending\n")
        self.assertEqual(p.stderr, "")
        # rejected: the new observation is a known failure
        p = self.run_bcwalk("review", "--oracle", self.oracle, answers="n\n")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertTrue(p.stdout.endswith("0 accepted, 1 rejected, 0 still "
                                          "pending\n"))
        entry = self.verdicts()[full]
        self.assertEqual((entry["result"], entry["verdict"],
                          entry["proposed"]), ("true", "fail", None))
        rc, seqs, summary = test_run(self.oracle, "bstack-cap3.bc", 4)
        self.assertEqual((rc, summary["oracle"]["failed"],
                          summary["oracle"]["changed"]), (1, 1, 0))
        # the fixed build changes it back; accepted, everything passes
        rc, seqs, summary = test_run(self.oracle, "bstack.bc", 4)
        self.assertEqual((rc, summary["oracle"]["changed"]), (1, 1))
        p = self.run_bcwalk("review", "--oracle", self.oracle, "--accept-all")
        self.assertEqual((p.returncode, p.stdout),
                         (0, "1 accepted, 0 rejected, 0 still pending\n"))
        rc, seqs, summary = test_run(self.oracle, "bstack.bc", 4)
        self.assertEqual((rc, summary["oracle"]["passed"]), (0, len(seqs)))
        # nothing left: exit 0, the file untouched
        with open(self.oracle, "rb") as f:
            before = f.read()
        p = self.run_bcwalk("review", "--oracle", self.oracle)
        self.assertEqual((p.returncode, p.stderr), (0, ""))
        with open(self.oracle, "rb") as f:
            self.assertEqual(f.read(), before)

    def test_review_refuses_what_it_cannot_do(self):
        p = self.run_bcwalk("review", "--oracle",
                            os.path.join(self.tmp.name, "none.msgpack"))
        self.assertEqual(p.returncode, 2)
        test_run(self.oracle, "bstack.bc", 1)
        p = self.run_bcwalk("review", "--oracle", self.oracle,
                            "--accept-all", "--reject-all")
        self.assertEqual(p.returncode, 2)
        self.assertIn("give one", p.stderr)
        p = self.run_bcwalk("review", self.oracle)
        self.assertEqual(p.returncode, 2)
        # stopped at once: all still pending, the file as it was
        p = self.run_bcwalk("review", "--oracle", self.oracle, answers="q\n")
        self.assertEqual(p.returncode, 1)
        self.assertTrue(p.stdout.endswith("0 accepted, 0 rejected, 6 still "
                                          "pending\n"))


if __name__ == "__main__":
    common.main()
