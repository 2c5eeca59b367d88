"""inputs.py - end-to-end tests of inputs that reach the interesting paths
(issue 10): an enum parameter the constructor only stores gets its
enumerators; in `index + length > r->len` both parameters get categories,
the length solved on the index the call passes, one of them its wrap;
`--setup FN` runs the library's initialisation before the sequences
(examples/range.c makes no range before range_lib_init()).
ctest runs this file as test_e2e_inputs."""
import json
import os
import tempfile
import unittest

import common
from common import bcwalk, example, explore_json, jsonl


SETUP = ("--setup", "range_lib_init")


def analyzed(bc, fn):
    """The JSON of function `fn` in `analyze --format json` of `bc`."""
    model = json.loads(bcwalk("analyze", example(bc), "--format", "json",
                              check=0).stdout)
    [f] = [f for u in model["units"]
           for f in u["constructors"] + u["methods"] if f["name"] == fn]
    return f


class StoredEnum(unittest.TestCase):
    """range_new(mode) only stores its enum; range_add branches on it."""

    def test_a_file_argument_is_an_open_stream(self):
        # examples/recio.c: rec_load(FILE *in) and rec_dump(r, FILE *out)
        # are given an open stream in memory holding "bcwalk 1 2 3": the
        # record is read from it and written to it, nothing made up,
        # and emitted C opens the same stream
        m = json.loads(bcwalk("analyze", example("recio.bc"), "--format",
                              "json").stdout)
        fns = {f["name"]: f for u in m["units"]
               for k in ("constructors", "methods") for f in u.get(k, [])}
        self.assertEqual((fns["rec_load"]["params"][0]["kind"],
                          fns["rec_dump"]["params"][1]["kind"]),
                         ("file", "file"))
        lines = jsonl("recio.bc", "rec", "protocol", 2)
        s = lines[-1]["sequences"]
        self.assertEqual((s["terminated"], s["suspect"], s["leaking"]),
                         (0, 0, 0))
        last = {tuple(c["fn"] for c in q["calls"]): q["calls"][-1]
                for q in lines[:-1]}
        self.assertEqual(last[("rec_load",)]["args"], ["stream"])
        self.assertEqual(last[("rec_load", "rec_sum")]["result"], "6")
        self.assertEqual(last[("rec_load", "rec_dump")]["result"], "13")
        # rec_take closes the stream it reads: the runtime does not
        # close it again at the sequence's end
        self.assertEqual(last[("rec_take", "rec_sum")]["result"], "6")
        self.assertEqual({q["calls"][-1]["outcome"] for q in lines[:-1]},
                         {"normal"})

    def test_hooks_checked_for_null_are_given_null(self):
        # examples/allocfns.c: hk_new(const hk_alloc *hooks) takes allocator
        # hooks or NULL for its own.  Zeroed hooks, which no caller
        # makes, are refused; NULL, which the code checks for, makes a
        # buffer the walk goes on with, and the emitted C passes NULL
        hooks = analyzed("allocfns.bc", "hk_new")["params"][0]
        self.assertEqual((hooks["kind"], hooks.get("nullable")),
                         ("scratch", True))
        self.assertEqual([p["label"] for p in hooks["partitions"]],
                         ["zeroed storage", "hooks == NULL"])
        lines = jsonl("allocfns.bc", "hkbuf", "protocol", 2)
        s = lines[-1]["sequences"]
        self.assertEqual((s["suspect"], s["leaking"]), (0, 0))
        made = {q["calls"][0]["args"][0]: q["calls"][0]["outcome"]
                for q in lines[:-1] if len(q["calls"]) == 1}
        self.assertEqual(made, {"&scratch": "rejected", "NULL": "normal"})
        last = {tuple(c["fn"] for c in q["calls"]): q["calls"][-1]
                for q in lines[:-1] if q["calls"][0]["args"] == ["NULL"]}
        self.assertEqual(last[("hk_new", "hk_put", "hk_len")]["result"], "1")
        with tempfile.TemporaryDirectory() as folder:
            c = os.path.join(folder, "allocfns.c")
            bcwalk("explore", example("allocfns.bc"), "--unit", "hkbuf",
                   "--depth", "1", "--emit-c", c, "--emit-c-all")
            with open(c) as f:
                self.assertIn("L_hk_new(NULL /* hooks == NULL */)", f.read())

    def test_a_scalar_read_through_its_pointer_is_the_callers_value(self):
        # examples/timerid.c: ts_cancel(t, uint64_t *id) reads the id
        # first: storage holding TS_INVALID, which it tests for, and
        # zeroed storage, an id no caller holds, whose halt is suspect
        ident = analyzed("timerid.bc", "ts_cancel")["params"][1]
        self.assertEqual(ident["kind"], "out")
        self.assertEqual([p["label"] for p in ident["partitions"]],
                         ["*id == 18446744073709551615", "zeroed storage"])
        lines = jsonl("timerid.bc", "tset", "protocol", 2)
        given = {}
        for q in lines[:-1]:
            last = q["calls"][-1]
            if last["fn"] == "ts_cancel":
                given.setdefault(last["args"][1], set()).add(last["outcome"])
        self.assertEqual(given, {"&(18446744073709551615)": {"normal"},
                                 "&out": {"normal", "suspect"}})
        with tempfile.TemporaryDirectory() as folder:
            c = os.path.join(folder, "timerid.c")
            bcwalk("explore", example("timerid.bc"), "--unit", "tset",
                   "--depth", "1", "--emit-c", c)
            with open(c) as f:
                self.assertIn("uint64_t bcw_x = 18446744073709551615ull; "
                              "memcpy(bcw_v, &bcw_x, 8); bcw_v; })", f.read())

    def test_enumerators_are_categories(self):
        [mode] = analyzed("range.bc", "range_new")["params"]
        self.assertEqual(mode["kind"], "enum")
        self.assertEqual([(c["label"], c["values"])
                          for c in mode["partitions"]],
                         [("RANGE_GROW", ["0"]), ("RANGE_FIXED", ["1"]),
                          ("RANGE_SORTED", ["4"])])

    def test_walk_makes_each_mode(self):
        lines = jsonl("range.bc", "range", "protocol", 1, *SETUP)
        made = {(c["args"][0], c["labels"][0])
                for s in lines[:-1] for c in s["calls"][:1]}
        self.assertEqual(made, {("0", "RANGE_GROW"), ("1", "RANGE_FIXED"),
                                ("4", "RANGE_SORTED")})



class JointRange(unittest.TestCase):
    """range_remove(r, index, length) checks `index + length > r->len`,
    and a length wrapping the sum past UINT_MAX slips through."""

    def test_both_parameters_get_categories(self):
        _, index, length = analyzed("range.bc", "range_remove")["params"]
        self.assertEqual([c["label"] for c in index["partitions"]],
                         ["index <= len", "index > len"])
        labels = [c["label"] for c in length["partitions"]]
        self.assertEqual(len(labels), 4)
        self.assertIn("(index + length) <= len && index + length wraps",
                      labels)

    def test_the_wrap_is_walked_and_caught(self):
        lines = jsonl("range.bc", "range", "protocol", 2, *SETUP)
        crashes = [s["calls"] for s in lines[:-1]
                   if s["calls"][-1]["outcome"] == "crash"]
        self.assertEqual(
            [[(c["fn"], c["args"]) for c in calls] for calls in crashes],
            [[("range_new", [mode]), ("range_add", ["#0", "1"]),
              ("range_remove", ["#0", "1", "4294967295"])]
             for mode in ("0", "1", "4")])
        self.assertTrue(all(calls[-1]["labels"][2].endswith("wraps")
                            for calls in crashes))
        # the rest are calls not made, counted apart from the halts:
        # categories an empty range allows no value of (an index past it
        # whose sum stays within it; a sum from index 0 that wraps)
        seqs = lines[-1]["sequences"]
        self.assertEqual(seqs["terminated"], 3)
        self.assertGreater(seqs["unmet"], 0)



class Setup(unittest.TestCase):
    """explore --setup FN: the library's initialisation in each worker."""

    def test_without_it_every_range_is_rejected(self):
        s = explore_json("range.bc", "range", "protocol", 1)["sequences"]
        self.assertEqual((s["normal"], s["terminated"]), (0, 3))

    def test_with_it_sequences_run(self):
        # 3 constructors, each followed by range_add, 16 range_remove
        # steps (2 index categories, each at its boundary and at an
        # ordinary value, times 4 solved length categories), range_first
        # and range_len
        for jobs in ("1", "2"):
            s = explore_json("range.bc", "range", "protocol", 1, *SETUP,
                             "--jobs", jobs)["sequences"]
            # 7 of the 16 range_remove steps have no value on an empty
            # range: not made, no halt (from index 1 no length wraps the
            # sum past 0; from index 100 one does)
            self.assertEqual((s["normal"], s["terminated"], s["unmet"]),
                             (3 + 3 * 12, 0, 3 * 7))

    def test_kept_across_sequences_and_restarts(self):
        # the crashes of the wrap restart the worker, which runs the
        # setup again: later sequences still make ranges
        lines = jsonl("range.bc", "range", "protocol", 2, *SETUP)
        # three crashes, each confirmed alone at most once
        self.assertIn(lines[-1]["worker_restarts"], range(3, 7))
        made = [s["calls"][0] for s in lines[:-1]]
        self.assertTrue(all(c["result"] == "#0" for c in made))

    def test_bad_setups_are_clear_errors(self):
        bc = example("range.bc")
        for fn, says in (
                ("nope", "explore: --setup nope: %s defines no function of "
                         "that name" % bc),
                ("range_add", "explore: --setup range_add: it takes 2 "
                              "parameters; a setup function takes none"),
                ("range_lib_default_cap", "explore: --setup: it crashed "
                                          "(signal 11) in the worker, "
                                          "before any sequence"),
                ("range_lib_done", "explore: --setup: it aborted (abort, a "
                                   "failed assert or exit) in the worker, "
                                   "before any sequence")):
            p = bcwalk("explore", bc, "--unit", "range", "--setup", fn,
                       check=2)
            self.assertEqual(p.stderr, "bcwalk: %s\n" % says)
            self.assertEqual(p.stdout, "")


if __name__ == "__main__":
    common.main()
