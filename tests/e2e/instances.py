"""instances.py - end-to-end tests of arguments that are instances of
units: made by constructors the walk can call, through a `T **out`
constructor and a configuration struct its init function fills, never
zeroed storage where such a constructor exists; a second instance of the
unit itself (an item handed over to another), or the target again, whose
halts are listed apart as aliasing.  ctest runs this file as
test_e2e_instances."""
import json
import unittest

import common
from common import bcwalk, example, explore_json, jsonl


def halts(lines):
    """Calls that ended otherwise than normally or rejected (an iterator
    step with no iterator given out yet is not made)."""
    return [c for s in lines[:-1] for c in s["calls"]
            if c["outcome"] not in ("normal", "rejected")]


class Instances(unittest.TestCase):
    def test_analyze_names_what_makes_each_argument(self):
        m = json.loads(bcwalk("analyze", example("ring.bc"), "--format",
                              "json", check=0).stdout)
        # the configuration has no method and no destructor: no abstract
        # data type, but a part made for ring_new_conf
        units = {u["name"]: u for u in m["units"] + m["parts"]}
        self.assertEqual([u["name"] for u in m["units"]], ["ring"])
        self.assertEqual([u["name"] for u in m["parts"]], ["ring_conf"])
        ctors = [c["name"] for c in units["ring"]["constructors"]]
        self.assertEqual(sorted(ctors), ["ring_new", "ring_new_conf"])
        [conf] = [c for c in units["ring"]["constructors"]
                  if c["name"] == "ring_new_conf"]
        self.assertEqual(conf["params"][0]["made_by"], "ring_conf_init")

    def test_an_iterator_is_a_step_of_its_containers_walk(self):
        # ring_iter_init(&it, r) fills an iterator: a handle of the ring,
        # not a unit over a ring of its own
        m = json.loads(bcwalk("analyze", example("ring.bc"), "--format",
                              "json", check=0).stdout)
        [ring] = [u for u in m["units"] if u["name"] == "ring"]
        handles = {h["type"]: (h["from"], h["used_by"])
                   for h in ring["handles"]}
        self.assertEqual(handles, {
            "ring_iter": (["ring_iter_init"], ["ring_iter_next"]),
            "ring_cursor": (["ring_cursor_init"], ["ring_cursor_next"])})
        for walk, depth in (("protocol", 3), ("algebra", 3)):
            self.assertEqual(halts(jsonl("ring.bc", "ring", walk, depth)),
                             [], walk)
        lines = jsonl("ring.bc", "ring", "protocol", 3)
        seqs = [s["calls"] for s in lines[:-1]
                if [c["fn"] for c in s["calls"]] ==
                ["ring_new", "ring_push", "ring_iter_init", "ring_iter_next"]
                and s["calls"][1]["args"][1] == "Obj#1"
                and s["calls"][3]["labels"][0] is None]
        [seq] = seqs
        self.assertEqual(seq[2]["args"], ["&it", "#0"])
        self.assertEqual(seq[3]["args"][0], "&it")
        self.assertEqual((seq[3]["result"], seq[3]["out"]["out"]),
                         ("0", "Obj#1"))

    def test_ring_from_its_configuration(self):
        lines = jsonl("ring.bc", "ring", "protocol", 2)
        self.assertEqual(halts(lines), [])
        made = {s["calls"][0]["args"][0] for s in lines[:-1]
                if s["calls"][0]["fn"] == "ring_new_conf"}
        self.assertEqual(made, {"ring_conf_init(&storage)"})
        # a ring made from its configuration holds what it was given
        sizes = {s["calls"][2]["result"] for s in lines[:-1]
                 if [c["fn"] for c in s["calls"]] ==
                 ["ring_new_conf", "ring_push", "ring_size"]}
        self.assertEqual(sizes, {"1"})

    def test_callbacks_a_configuration_leaves_null_are_set(self):
        # oset_conf_init leaves cmp NULL for the user: the analysis knows
        # the field's kind, and a walk sets it before oset_new_conf
        m = json.loads(bcwalk("analyze", example("oset.bc"), "--format",
                              "json", check=0).stdout)
        [conf] = [u for u in m["parts"] if u["name"] == "oset_conf"]
        kinds = {f["name"]: f.get("callback") for f in conf["fields"]}
        self.assertEqual(kinds, {"cmp": "bcw_compare", "mem_alloc": None,
                                 "mem_free": "bcw_free", "capacity": None})
        for walk, depth in (("protocol", 2), ("algebra", 3)):
            lines = jsonl("oset.bc", "oset", walk, depth)
            self.assertEqual(halts(lines), [], walk)
        # the set orders and finds what it holds through that comparison
        lines = jsonl("oset.bc", "oset", "protocol", 3)
        found = {(s["calls"][1]["args"][1], s["calls"][2]["args"][1],
                  s["calls"][2]["result"]) for s in lines[:-1]
                 if [c["fn"] for c in s["calls"]] ==
                 ["oset_new_conf", "oset_add", "oset_contains"]}
        self.assertIn(("Obj#0", "Obj#0", "1"), found)
        self.assertIn(("Obj#1", "Obj#2", "0"), found)
        twice = {s["calls"][2]["result"] for s in lines[:-1]
                 if [c["fn"] for c in s["calls"]] ==
                 ["oset_new_conf", "oset_add", "oset_add"] and
                 s["calls"][1]["args"][1] == s["calls"][2]["args"][1]}
        self.assertEqual(twice, {"1"})

    def test_a_struct_result_in_registers_is_walked(self):
        # oset_bounds_of returns {lo, hi} by value: each element shown as
        # a result is, the same through the typed stubs and libffi
        for calls in ("stub", "ffi"):
            lines = jsonl("oset.bc", "oset", "protocol", 3, "--calls",
                          calls)
            got = {tuple(c["args"][1] for c in s["calls"][1:-1]):
                   s["calls"][-1]["result"] for s in lines[:-1]
                   if s["calls"][-1]["fn"] == "oset_bounds_of" and
                   all(c["fn"] == "oset_add" for c in s["calls"][1:-1])}
            self.assertEqual(got[()], "{NULL, NULL}", calls)
            self.assertEqual(got[("Obj#1", "Obj#2")], "{Obj#1, Obj#2}", calls)
            self.assertEqual(got[("Obj#1", "Obj#0")], "{Obj#0, Obj#1}", calls)
        # a struct passed by value on the stack is not called: skipped
        m = json.loads(bcwalk("analyze", example("oset.bc"), "--format",
                              "json", check=0).stdout)
        self.assertIn("oset_add_batch: a struct passed by value (byval or "
                      "sret) is not supported yet", m["skipped"])

    def test_every_argument_is_one_a_caller_can_make(self):
        # examples/digest.c, in xxhash's shape: parameters named by the
        # function's own debug information (an always-inline reader's
        # `p` and `shift` are inlined into dg_update); the length paired
        # with the input never past the longest buffer a walk makes; the
        # source of dg_copy, which does not compare it with the target,
        # never the target itself
        m = json.loads(bcwalk("analyze", example("digest.bc"), "--format",
                              "json").stdout)
        fns = {f["name"]: f for f in m["units"][0]["methods"]}
        self.assertEqual([p["name"] for p in fns["dg_update"]["params"]],
                         ["state", "input", "len"])
        self.assertEqual([c["label"] for c in
                          fns["dg_copy"]["params"][1]["partitions"]],
                         ["a new dg_state"])
        for walk in ("protocol", "algebra"):
            lines = jsonl("digest.bc", "dg_state", walk, 3)
            s = lines[-1]["sequences"]
            self.assertEqual((s["suspect"], s["aliasing"]), (0, 0), walk)
            self.assertGreater(s["unmet"], 0, walk)
            lens = [int(c["args"][2]) for q in lines[:-1]
                    for c in q["calls"] if c["fn"] == "dg_update" and
                    c["outcome"] != "rejected"]
            self.assertTrue(lens, walk)
            self.assertLessEqual(max(lens), 65536, walk)
            # the category only a length wrapping past SIZE_MAX meets on
            # an empty tail: no call made, none with a shorter buffer
            wrap = [q["calls"][-1] for q in lines[:-1]
                    if q["calls"][-1]["fn"] == "dg_update" and
                    q["calls"][-1]["labels"][2] ==
                    "(ntail + len) < 16 && len >= 16"]
            self.assertTrue(wrap, walk)
            self.assertEqual({c["outcome"] for c in wrap}, {"rejected"},
                             walk)
            # the library's own halt: an update before the reset
            self.assertEqual({(q["calls"][-1]["fn"], q["calls"][-1]["outcome"])
                              for q in lines[:-1]
                              if q["calls"][-1]["outcome"]
                              not in ("normal", "rejected")},
                             {("dg_update", "crash")}, walk)

    def test_a_halt_after_a_made_up_argument_is_suspect(self):
        # doc_set_font reads a font nothing a walk can call makes (its
        # only constructor is variadic): its crash is suspect, counted
        # apart; doc_scale(d, -1) aborts on proper arguments: the library's
        s = explore_json("doc.bc", "doc", "protocol", 2)["sequences"]
        self.assertEqual((s["terminated"], s["suspect"]), (6, 3))
        outcomes = {(c["fn"], c["outcome"], c["cause"])
                    for q in jsonl("doc.bc", "doc", "protocol", 2)[:-1]
                    for c in q["calls"] if c["outcome"] != "normal"}
        self.assertEqual(outcomes, {
            ("doc_set_font", "suspect",
             "crash: SIGSEGV: read of address 0x0 in doc_set_font (doc.c:51), "
             "after an argument bcwalk made up"),
            ("doc_scale", "abort", "abort() called in doc_scale (doc.c:57)")})
        text = bcwalk("explore", example("doc.bc"), "--unit", "doc",
                      "--walk", "protocol", "--depth", "1").stdout
        self.assertIn("doc_set_font(target, &scratch);\n==> *suspect* "
                      "*crash* SIGSEGV: read of address 0x0 in doc_set_font "
                      "(doc.c:51), after an argument bcwalk made up", text)
        self.assertIn("Of the terminated and leaking, 1 suspect", text)

    def test_an_init_failing_status_makes_no_object(self):
        # vring_init returns -1 before writing anything and 0 once it
        # filled the ring: a -1 is no object, never pushed into (whose
        # len % cap would divide by zero)
        m = json.loads(bcwalk("analyze", example("vecinit.bc"), "--format",
                              "json").stdout)
        [u] = m["units"]
        [init] = u["constructors"]
        self.assertEqual(init["succeeds_with"], "zero")
        # what releases what the init acquired is the destructor
        self.assertEqual([d["name"] for d in u["destructors"]],
                         ["vring_destroy"])
        lines = jsonl("vecinit.bc", "vring", "protocol", 2)
        self.assertEqual(halts(lines), [])
        failed = [q["calls"][0] for q in lines[:-1]
                  if q["calls"][0]["outcome"] == "rejected"]
        self.assertEqual(sorted(c["labels"][1] for c in failed),
                         ["cap < 1", "cap > 16"])
        for c in failed:
            self.assertEqual(c["cause"], "the init function returned its "
                             "failure status: no object")
        text = bcwalk("explore", example("vecinit.bc"), "--unit", "vring",
                      "--depth", "1").stdout
        self.assertIn("vring_init(target, 17 /* cap > 16 */);\n==> "
                      "*rejected* the init function returned its failure "
                      "status: no object", text)

    def released(self, bc, unit, new, get, count):
        """`get` takes a reference `put` releases (retains): the walk
        releases once more per reference taken, so no sequence leaks, and
        two gets after `new` count 3."""
        m = json.loads(bcwalk("analyze", example(bc), "--format",
                              "json").stdout)
        [u] = m["units"]
        retains = {f["name"]: f.get("retains", False) for f in u["methods"]}
        self.assertEqual(retains, {get: True, count: False})
        lines = jsonl(bc, unit, "protocol", 3)
        self.assertEqual(lines[-1]["sequences"]["leaking"], 0)
        counts = [q["calls"][-1]["result"] for q in lines[:-1]
                  if [c["fn"] for c in q["calls"]] == [new, get, get, count]]
        self.assertEqual(counts, ["3"])

    def test_a_reference_taken_is_released(self):
        # ref_get counts up what ref_put counts down (through a helper)
        # and frees at zero
        self.released("refobj.bc", "ref", "ref_new", "ref_get", "ref_count")

    def test_a_reference_counted_atomically_is_released(self):
        # examples/arcobj.c: arc_get and arc_put count with
        # __atomic_fetch_add and __atomic_sub_fetch (atomicrmw in the
        # bitcode): a reference all the same (each sequence taking one
        # leaked it before)
        self.released("arcobj.bc", "arc", "arc_new", "arc_get", "arc_refs")

    def test_an_item_of_its_own_is_handed_over(self):
        m = json.loads(bcwalk("analyze", example("item.bc"), "--format",
                              "json", check=0).stdout)
        [item] = m["units"]
        [add] = [f for f in item["methods"] if f["name"] == "item_add"]
        self.assertEqual([c["label"] for c in add["params"][1]["partitions"]],
                         ["a new item", "child is the target"])
        # item_add compares child with parent; item_replace never looks
        # at `with` beside *root: the target again is no case of its code
        labels = {f["name"]: [c["label"] for c in f["params"][1]["partitions"]]
                  for f in item["methods"]
                  if f["name"] in ("item_replace", "item_adopt")}
        self.assertEqual(labels, {"item_replace": ["a new item"],
                                  "item_adopt": ["a new item",
                                                 "from is the target"]})
        lines = jsonl("item.bc", "item", "protocol", 3)
        seqs = {}
        for q in lines[:-1]:
            seqs.setdefault(tuple(c["fn"] for c in q["calls"]), []).append(q)
        # the child is the parent's: counted, freed with it, never by
        # bcwalk (no double free), and no leak
        [added] = [q for q in seqs[("item_new", "item_add", "item_count")]
                   if q["calls"][1]["labels"][1] == "a new item"]
        self.assertEqual(added["calls"][1]["args"], ["#0", "item_new(2)"])
        self.assertEqual([c["result"] for c in added["calls"][1:3]],
                         ["1", "2"])
        self.assertEqual(added["calls"][2]["outcome"], "normal")
        self.assertNotIn("leak", added)
        # detached, the child is the caller's again: no leak either
        detached = [q for q in seqs[("item_new", "item_add", "item_detach")]
                    if q["calls"][1]["labels"][1] == "a new item"]
        self.assertEqual(len(detached), 1)
        self.assertEqual(detached[0]["calls"][2]["result"], "ptr#0")
        self.assertNotIn("leak", detached[0])
        # every halt comes after the item was made its own child, or
        # replaced by itself, but item_first_value's on a leaf: after
        # item_same(#0, #0), which changes nothing, it is the library's
        halted = [q for q in lines[:-1]
                  if q["calls"][-1]["outcome"]
                  not in ("normal", "crash", "rejected")]
        self.assertEqual({q["calls"][-1]["fn"] for q in lines[:-1]
                          if q["calls"][-1]["outcome"] == "crash"},
                         {"item_first_value"})
        leaf = [q["calls"][-1]["outcome"] for q in lines[:-1]
                if [c["fn"] for c in q["calls"]] ==
                ["item_new", "item_same", "item_first_value"]]
        self.assertEqual(leaf, ["crash", "crash"])
        self.assertTrue(halted)
        for q in halted:
            self.assertEqual(q["calls"][-1]["outcome"], "aliasing")
            self.assertTrue({"child is the target", "with is the target",
                             "from is the target"} &
                            {c["labels"][1] for c in q["calls"]
                             if c["fn"] in ("item_add", "item_replace",
                                            "item_adopt")})
        # the handle by its address: the replacement is the target after
        [replaced] = [q for q in seqs[("item_new", "item_replace",
                                       "item_value")]
                      if q["calls"][1]["labels"][1] == "a new item"]
        self.assertEqual(replaced["calls"][1]["args"], ["&#0", "item_new(2)"])
        self.assertEqual([c["result"] for c in replaced["calls"]],
                         ["#0", "1", "2"])
        self.assertNotIn("leak", replaced)
        # a leak after the target was spliced onto itself (its children
        # a cycle nothing holds) is listed apart too; every leak is one
        leaks = [q for q in lines[:-1] if "leak" in q]
        self.assertTrue(leaks)
        for q in leaks:
            self.assertIn(["item_adopt", "#0"], [[c["fn"], c["args"][-1]]
                                                 for c in q["calls"]])
            self.assertTrue(q["leak"].endswith(
                "after the target was passed as its own argument"))
        s = lines[-1]["sequences"]
        self.assertEqual(s["aliasing"], len(halted) + len(leaks))
        text = bcwalk("explore", example("item.bc"), "--unit", "item",
                      "--walk", "protocol", "--depth", "1").stdout
        self.assertIn("item_add(target, target /* child is the target */);\n"
                      "item_free(target);\n==> *aliasing* *crash* SIGSEGV: "
                      "stack overflow in item_free, after the target was "
                      "passed as its own argument", text)
        self.assertIn("Of the terminated and leaking, 1 aliasing", text)

    def test_a_child_looked_for_in_the_target_is_one_it_holds(self):
        # item_take(parent, child) compares child with the pointers it
        # loads from parent: the walk gives it a child the parent holds
        # (item_first's), never a new item, and the child comes back
        m = json.loads(bcwalk("analyze", example("item.bc"), "--format",
                              "json", check=0).stdout)
        [item] = m["units"]
        [take] = [f for f in item["methods"] if f["name"] == "item_take"]
        self.assertEqual((take["params"][1]["kind"],
                          take["params"][1]["handle"]), ("handle", "item"))
        lines = jsonl("item.bc", "item", "protocol", 3)
        taken = [q for q in lines[:-1]
                 if [c["fn"] for c in q["calls"]] ==
                 ["item_new", "item_add", "item_first", "item_take"]
                 and q["calls"][1]["labels"][1] == "a new item"
                 and q["calls"][-1]["outcome"] == "normal"]
        self.assertEqual([q["calls"][-1]["result"] for q in taken], ["ptr#0"])
        self.assertEqual(taken[0]["calls"][2]["result"], "ptr#0")
        self.assertNotIn("leak", taken[0])
        # with no child given out, the call is not made
        self.assertEqual({q["calls"][-1]["outcome"] for q in lines[:-1]
                          if [c["fn"] for c in q["calls"]] ==
                          ["item_new", "item_take"]}, {"rejected"})


if __name__ == "__main__":
    common.main()
