"""lifetimes.py - end-to-end tests of the lifetimes the runtime sees
where the analysis does not (issue 45): a call that frees the object
ends it or, returning it moved, replaces it; a call not given the object
may not free what the object holds; a handle the object let go is not
given to calls on the object; a second initialiser found by what it
does, and no sequence reading a file an earlier one wrote. ctest runs
this file as
test_e2e_lifetimes."""
import json
import unittest

import common
from common import bcwalk, by_calls, example, jsonl


def halts(lines):
    """The last calls of lines' sequences that did not end normally, as
    (fn, outcome, cause)."""
    return {(s["calls"][-1]["fn"], s["calls"][-1]["outcome"],
             s["calls"][-1].get("cause")) for s in lines[:-1]
            if s["calls"][-1]["outcome"] != "normal"}


class Lifetimes(unittest.TestCase):
    ENDED = ("an earlier call freed the unit: it ended the object, as a "
             "destructor does")

    def test_a_call_that_frees_the_object_ends_or_replaces_it(self):
        # hs_cat reallocates the block behind the handle and returns the
        # handle to go on with; hs_drop frees the block from its hidden
        # header.  The analysis calls both mutators; the runtime sees the
        # first replace the object (later calls get its result) and the
        # second end it (no call follows, none is made on freed memory)
        model = json.loads(bcwalk("analyze", example("hstr.bc"), "--format",
                                  "json").stdout)
        roles = {f["name"]: f["role"] for f in model["units"][0]["methods"]}
        self.assertEqual((roles["hs_cat"], roles["hs_drop"]),
                         ("mutator", "mutator"))
        for walk, depth in (("protocol", 3), ("algebra", 3)):
            lines = jsonl("hstr.bc", "hstr", walk, depth)
            self.assertEqual({(fn, o) for fn, o, _ in halts(lines)},
                             {("hs_cat", "rejected"), ("hs_len", "rejected"),
                              ("hs_drop", "rejected")}, walk)
            self.assertEqual({c for _, _, c in halts(lines)}, {self.ENDED})
        seqs = by_calls(jsonl("hstr.bc", "hstr", "protocol", 3))
        grown = seqs[(("hs_new", ('"a"',)), ("hs_cat", ("#0", '""')),
                      ("hs_cat", ("#0", '"hello"')), ("hs_len", ("#0",)))]
        self.assertEqual([c["result"] for c in grown["calls"][1:]],
                         ["#0", "#0", "6"])
        summary = json.loads(bcwalk(
            "explore", example("hstr.bc"), "--unit", "hstr", "--depth", "2",
            "--format", "json").stdout)
        self.assertIn("hs_drop freed the object in 4 runs, returning no "
                      "other: the walk took it for a destructor, with no "
                      "call after it (the analysis said mutator)",
                      summary["warnings"])
        self.assertIn("hs_cat freed the object's block in 4 runs and "
                      "returned it moved: the walk went on with what it "
                      "returned (the analysis missed it)",
                      summary["warnings"])

    def test_what_the_object_holds_is_not_freed_nor_used_once_let_go(self):
        # node_free of a node the web still holds would leave web_free a
        # double free; web_sum_from of a node web_take let go would read
        # its empty slot.  Both are the walk's misuse: the calls are not
        # made as a caller's, and nothing halts as the library's fault
        for walk, depth in (("protocol", 3), ("algebra", 3)):
            lines = jsonl("web.bc", "web", walk, depth)
            self.assertEqual({o for _, o, _ in halts(lines)}, {"rejected"})
        lines = jsonl("web.bc", "web", "protocol", 3)
        seqs = by_calls(lines)
        held = seqs[(("web_new", ()), ("web_add", ("#0", "1")),
                     ("node_free", ("ptr#0",)))]
        self.assertEqual(held["calls"][-1]["cause"],
                         "it freed a block the unit still holds, which "
                         "leaves the unit dangling: not a call a caller "
                         "makes")
        let_go = seqs[(("web_new", ()), ("web_add", ("#0", "1")),
                       ("web_take", ("#0",)),
                       ("web_sum_from", ("#0", "ptr#0")))]
        self.assertEqual(let_go["calls"][-1]["cause"],
                         "the node handle is no longer the unit's: a call "
                         "let it go since it was given out")
        # web_close frees the web where the analysis does not see it:
        # nothing follows it, not even web_free (no double free)
        closed = seqs[(("web_new", ()), ("web_add", ("#0", "1")),
                       ("web_close", ("#0",)))]
        self.assertEqual(closed["calls"][-1]["outcome"], "normal")
        after = seqs[(("web_new", ()), ("web_close", ("#0",)),
                      ("web_count", ("#0",)))]
        self.assertEqual(after["calls"][-1]["cause"], self.ENDED)
        self.assertIn("web_close freed the object in 15 runs, returning no "
                      "other: the walk took it for a destructor, with no "
                      "call after it (the analysis said mutator)",
                      lines[-1]["warnings"])
        # what a caller does with them is made, and ends normally
        for calls in ((("web_new", ()), ("web_add", ("#0", "1")),
                       ("web_take", ("#0",)), ("node_free", ("ptr#0",))),
                      (("web_new", ()), ("web_add", ("#0", "1")),
                       ("web_take", ("#0",)), ("node_value", ("ptr#0",))),
                      (("web_new", ()), ("web_add", ("#0", "1")),
                       ("web_add", ("#0", "2")),
                       ("web_sum_from", ("#0", "ptr#0")))):
            self.assertEqual(seqs[calls]["calls"][-1]["outcome"], "normal",
                             calls)

    def test_each_object_is_torn_down_by_the_destructor_made_for_it(self):
        # zone_new's object ends with zone_free, which frees its block;
        # zone_init's, in storage, with zone_destroy, which releases what
        # it holds: a destructor by what it does, though the zone has
        # another.  Crossed, the first would free storage no allocator
        # gave out, the second leak the zone's block
        model = json.loads(bcwalk("analyze", example("zone.bc"), "--format",
                                  "json").stdout)
        [u] = model["units"]
        # zone_grow, hidden, is the library's own
        self.assertNotIn("zone_grow", [m["name"] for m in u["methods"]])
        self.assertEqual({(d["name"], d.get("teardown"))
                          for d in u["destructors"]},
                         {("zone_free", None), ("zone_destroy", "releases")})
        for walk, depth in (("protocol", 2), ("algebra", 3)):
            lines = jsonl("zone.bc", "zone", walk, depth)
            self.assertEqual(halts(lines), set(), walk)
            self.assertFalse([q for q in lines[:-1] if "leak" in q], walk)
            ctors = {q["calls"][0]["fn"] for q in lines[:-1]}
            self.assertEqual(ctors, {"zone_new", "zone_init"}, walk)

    def test_a_string_the_library_adopts_is_a_heap_block(self):
        # adopt_new(str) keeps str (through a helper) and later reallocs
        # and frees it: the parameter, not const and kept, is taken over,
        # and given a heap block the library may do so with; a string in
        # bcwalk's arena made adopt_push abort in realloc
        model = json.loads(bcwalk("analyze", example("adopt.bc"), "--format",
                                  "json").stdout)
        [ctor] = model["units"][0]["constructors"]
        self.assertTrue(ctor["params"][0].get("taken"))
        for walk in ("protocol", "algebra"):
            lines = jsonl("adopt.bc", "adopt", walk, 3)
            self.assertEqual(halts(lines), set(), walk)
            self.assertEqual(lines[-1]["sequences"]["leaking"], 0, walk)
        seqs = by_calls(jsonl("adopt.bc", "adopt", "protocol", 3))
        grown = seqs[(("adopt_new", ('"a"',)), ("adopt_push", ("#0", "'a'")),
                      ("adopt_push", ("#0", "'b'")), ("adopt_len", ("#0",)))]
        self.assertEqual(grown["calls"][-1]["result"], "3")

    def test_a_destructor_that_refuses_the_object_gives_way_to_the_next(self):
        # tm_close_r returns -1 and frees nothing for a stream open for
        # writing, tm_close_w for one open for reading: whichever a
        # sequence's turn picks, the other tears the stream down when it
        # refuses, and no sequence leaks
        for walk in ("protocol", "algebra"):
            lines = jsonl("twomode.bc", "tm", walk, 3)
            self.assertEqual(halts(lines), set(), walk)
            self.assertEqual(lines[-1]["sequences"]["leaking"], 0, walk)
            self.assertEqual({q["calls"][0]["fn"] for q in lines[:-1]},
                             {"tm_open_r", "tm_open_w"}, walk)


    def test_a_load_filling_fresh_storage_is_an_initialiser(self):
        # examples/sketch.c: sk_init returns its setup helper's status and
        # the helper defaults a NULL hash; sk_load fills every field
        # sk_init fills, reading none first, and allocates the cells
        # anew: another initialiser (after sk_init it would leak them)
        m = json.loads(bcwalk("analyze", example("sketch.bc"), "--format",
                              "json").stdout)
        [u] = m["units"]
        ctors = {f["name"]: f for f in u["constructors"]}
        self.assertEqual({n: (f["role"], f.get("succeeds_with"))
                          for n, f in ctors.items()},
                         {"sk_init": ("init-constructor", "zero"),
                          "sk_load": ("init-constructor", "zero")})
        self.assertEqual({f["name"] for f in u["methods"]},
                         {"sk_add", "sk_count", "sk_save", "sk_merge"})
        hash_ = ctors["sk_init"]["params"][3]
        self.assertTrue(hash_.get("nullable"))
        self.assertIn("hash == NULL",
                      [p["label"] for p in hash_["partitions"]])
        # sk_save writes "a" in some sequences; a merge of "a" finds it
        # only after a save in its own sequence, and a load never, with
        # one worker or two, whatever ran before: each sequence starts
        # from an empty working folder
        for jobs in ("1", "2"):
            for walk, depth in (("protocol", 2), ("algebra", 2)):
                lines = jsonl("sketch.bc", "sketch", walk, depth,
                              "--jobs", jobs)
                s = lines[-1]["sequences"]
                self.assertEqual((s["leaking"], s["suspect"]), (0, 0))
                merged = {}
                for q in lines[:-1]:
                    calls = q["calls"]
                    last = calls[-1]
                    if last["fn"] == "sk_merge" and last["args"][1] == '"a"':
                        saved = any(c["fn"] == "sk_save" and
                                    c["args"][1] == '"a"' for c in calls)
                        merged.setdefault(saved, set()).add(last["result"])
                # (an algebra walk puts observers such as sk_save last)
                self.assertEqual(merged, {True: {"0"}, False: {"-1"}}
                                 if walk == "protocol" else {False: {"-1"}},
                                 (walk, jobs))
                loads = [q["calls"][0] for q in lines[:-1]
                         if q["calls"][0]["fn"] == "sk_load"]
                self.assertTrue(loads, (walk, jobs))
                self.assertEqual({(c["outcome"], c["result"])
                                  for c in loads}, {("rejected", "-1")},
                                 (walk, jobs))
                self.assertEqual(halts(lines), {
                    (fn, "rejected", "the init function returned its "
                     "failure status: no object")
                    for fn in ("sk_init", "sk_load")}, (walk, jobs))

if __name__ == "__main__":
    common.main()