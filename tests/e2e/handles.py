"""handles.py - end-to-end tests of derived handles taken from earlier calls
and other units made by their own constructors (issue 4). ctest runs this
file as test_e2e_handles."""
import json
import unittest

import common
from common import bcwalk, by_calls, example, jsonl


class HandlesAndOtherUnits(unittest.TestCase):
    """Issue 4: derived handles taken from earlier calls of the sequence,
    and other units made by their own constructors."""

    def test_a_view_of_a_view_is_a_handle_not_a_unit(self):
        # examples/jval.c: jv_object_get_array(obj, name), first in the
        # file, takes an object that no constructor makes but jv_get_object
        # hands out: the array it returns is a handle of the value too
        # (it was a unit of its own with no constructor, never walked)
        m = json.loads(bcwalk("analyze", example("jval.bc"), "--format",
                              "json").stdout)
        self.assertEqual([u["name"] for u in m["units"]], ["jv"])
        self.assertEqual(sorted(h["type"] for h in m["units"][0]["handles"]),
                         ["jv_array", "jv_object"])
        seqs = by_calls(jsonl("jval.bc", "jv", "protocol", 3))
        counted = seqs[(("jv_new_array", ()), ("jv_get_array", ("#0",)),
                        ("jv_array_append", ("ptr#0", "1")),
                        ("jv_array_count", ("ptr#0",)))]
        self.assertEqual([c["result"] for c in counted["calls"][2:]],
                         ["0", "1"])
        self.assertFalse([q for q in seqs.values()
                          if q["calls"][-1]["outcome"] not in
                          ("normal", "rejected")])

    def test_a_method_takes_the_handle_in_a_later_position(self):
        # dlist_insert_after(l, n, v): the unit's own method, the handle
        # second; after dlist_first it inserts, and the list grows
        seqs = by_calls(jsonl("dlist.bc", "dlist", "protocol", 4))
        ins = seqs[(("dlist_new", ()), ("dlist_append", ("#0", "1")),
                    ("dlist_first", ("#0",)),
                    ("dlist_insert_after", ("#0", "ptr#0", "2")),
                    ("dlist_count", ("#0",)))]
        self.assertEqual([c["result"] for c in ins["calls"][3:]], ["0", "2"])
        # no handle given out yet: the call is not made
        none = seqs[(("dlist_new", ()), ("dlist_append", ("#0", "1")),
                     ("dlist_insert_after", ("#0", "none", "2")))]
        self.assertEqual(none["calls"][-1]["outcome"], "rejected")

    def test_an_iterator_is_followed_only_once_next_set_it(self):
        # clist_iter_remove follows it->last, which init leaves NULL and
        # only next sets: the call is made only after a next, and then
        # it removes an element; nothing halts
        m = json.loads(bcwalk("analyze", example("cursor.bc"), "--format",
                              "json").stdout)
        [u] = m["units"]
        needs = {f["name"]: f["params"][0].get("needs_set")
                 for f in u["methods"] if f["name"].startswith("clist_iter_")}
        self.assertEqual(needs, {"clist_iter_init": None,
                                 "clist_iter_next": None,
                                 "clist_iter_mark": None,
                                 "clist_iter_marked": [24],
                                 "clist_iter_remove": [16]})
        lines = jsonl("cursor.bc", "clist", "protocol", 4)
        self.assertEqual({q["calls"][-1]["outcome"] for q in lines[:-1]},
                         {"normal", "rejected"})
        seqs = by_calls(lines)
        early = seqs[(("clist_new", ()), ("clist_iter_init", ("&it", "#0")),
                      ("clist_iter_remove", ("&it",)))]
        self.assertEqual(early["calls"][-1]["outcome"], "rejected")
        after = seqs[(("clist_new", ()), ("clist_push", ("#0", "Obj#1")),
                      ("clist_iter_init", ("&it", "#0")),
                      ("clist_iter_next", ("&it", "&out")),
                      ("clist_iter_remove", ("&it",)))]
        self.assertEqual([c["outcome"] for c in after["calls"]],
                         ["normal"] * 5)

    def test_an_iterator_left_at_a_sentinel_is_followed_once_moved(self):
        # sset_iter_init sets cur to the set's sentinel nil (set only by
        # sset_new, compared with links): remove, which checks cur for
        # NULL only, is made once next moved cur, and nothing halts
        m = json.loads(bcwalk("analyze", example("sentinel.bc"), "--format",
                              "json").stdout)
        [u] = m["units"]
        needs = {f["name"]: f["params"][0].get("needs_set")
                 for f in u["methods"] if f["name"].startswith("sset_iter_")}
        self.assertEqual(needs, {"sset_iter_init": None,
                                 "sset_iter_next": None,
                                 "sset_iter_remove": [8]})
        lines = jsonl("sentinel.bc", "sset", "protocol", 4)
        self.assertEqual({q["calls"][-1]["outcome"] for q in lines[:-1]},
                         {"normal", "rejected"})
        seqs = by_calls(lines)
        early = seqs[(("sset_new", ()), ("sset_iter_init", ("&it", "#0")),
                      ("sset_iter_remove", ("&it",)))]
        self.assertEqual(early["calls"][-1]["outcome"], "rejected")
        after = seqs[(("sset_new", ()), ("sset_add", ("#0", "1")),
                      ("sset_iter_init", ("&it", "#0")),
                      ("sset_iter_next", ("&it", "&out")),
                      ("sset_iter_remove", ("&it",)))]
        self.assertEqual(after["calls"][-1]["result"], "1")

    def test_an_iterator_returned_by_value_is_a_handle(self):
        # obj_iter_begin returns a one-word struct (json-c's iterator):
        # its copy's address is the handle next, key and value take; at
        # the end (all zero) it is none, and nothing halts at depth 4
        m = json.loads(bcwalk("analyze", example("objiter.bc"), "--format",
                              "json").stdout)
        [u] = m["units"]
        self.assertEqual([(h["type"], h["from"], h["used_by"])
                          for h in u["handles"]],
                         [("obj_iter", ["obj_iter_begin", "obj_iter_end"],
                           ["obj_iter_equal", "obj_iter_next", "obj_iter_key",
                            "obj_iter_value"])])
        self.assertEqual(m["skipped"], [])
        lines = jsonl("objiter.bc", "obj", "protocol", 4)
        self.assertEqual({q["calls"][-1]["outcome"] for q in lines[:-1]},
                         {"normal", "rejected"})
        seqs = by_calls(lines)
        key = seqs[(("obj_new", ()), ("obj_put", ("#0", '"a"', "1")),
                    ("obj_iter_begin", ("#0",)), ("obj_iter_key", ("&it",)))]
        self.assertEqual(key["calls"][-1]["result"], '"a"')
        end = seqs[(("obj_new", ()), ("obj_put", ("#0", '"a"', "1")),
                    ("obj_iter_begin", ("#0",)), ("obj_iter_next", ("&it",)),
                    ("obj_iter_key", ("&it",)))]
        self.assertEqual(end["calls"][-1]["outcome"], "rejected")

    def test_an_iterator_pointing_into_itself_is_filled(self):
        # tq_start stores addresses inside the iterator into it (rax's
        # raxStart): it still only fills it, and gives out a handle
        m = json.loads(bcwalk("analyze", example("tally_iter.bc"), "--format",
                              "json").stdout)
        [u] = m["units"]
        self.assertEqual([(h["type"], h["from"], h["used_by"])
                          for h in u["handles"]],
                         [("tq_iter", ["tq_start"], ["tq_next"])])
        seqs = by_calls(jsonl("tally_iter.bc", "tq", "protocol", 3))
        seq = seqs[(("tq_new", ()), ("tq_add", ("#0",)),
                    ("tq_start", ("&it", "#0")), ("tq_next", ("&it",)))]
        self.assertEqual(seq["calls"][-1]["result"], "1")

    def test_a_handle_parameter_takes_every_live_handle(self):
        # node_next gives out a second node; node_value takes the one
        # given out last, and also the one before it, still live
        lines = jsonl("dlist.bc", "dlist", "protocol", 5)
        calls = (("dlist_new", ()), ("dlist_append", ("#0", "1")),
                 ("dlist_append", ("#0", "2")), ("dlist_first", ("#0",)),
                 ("node_next", ("ptr#0",)))
        taken = {(s["calls"][-1]["args"][0], s["calls"][-1]["labels"][0]):
                 s["calls"][-1].get("result") for s in lines[:-1]
                 if tuple((c["fn"], tuple(c["args"]))
                          for c in s["calls"][:5]) == calls
                 and s["calls"][-1]["fn"] == "node_value"}
        self.assertEqual(taken, {
            ("ptr#1", None): "2",
            ("ptr#0", "the one given out before the last"): "1",
            # a third node handle was never given out: not made
            ("none", "the one given out before those two"): None})
        # at depth 2 no call can have two handles before it: one category
        labels = {c["labels"][0] for s in jsonl("dlist.bc", "dlist",
                                                "protocol", 2)[:-1]
                  for c in s["calls"] if c["fn"] == "node_value"}
        self.assertEqual(labels, {None})

    def test_node_value_sees_the_appended_values(self):
        seqs = by_calls(jsonl("dlist.bc", "dlist", "protocol", 5))
        first = seqs[(("dlist_new", ()), ("dlist_append", ("#0", "1")),
                      ("dlist_first", ("#0",)), ("node_value", ("ptr#0",)))]
        self.assertEqual(first["calls"][2]["result"], "ptr#0")
        self.assertEqual((first["calls"][3]["result"],
                          first["calls"][3]["outcome"]), ("1", "normal"))
        # node_next gives out the next handle, which node_value then takes
        second = seqs[(("dlist_new", ()), ("dlist_append", ("#0", "1")),
                       ("dlist_append", ("#0", "2")),
                       ("dlist_first", ("#0",)), ("node_next", ("ptr#0",)),
                       ("node_value", ("ptr#1",)))]
        self.assertEqual(second["calls"][4]["result"], "ptr#1")
        self.assertEqual(second["calls"][5]["result"], "2")
        # past the end node_next gives out NULL: no handle to pass on
        end = seqs[(("dlist_new", ()), ("dlist_append", ("#0", "1")),
                    ("dlist_first", ("#0",)), ("node_next", ("ptr#0",)),
                    ("node_value", ("none",)))]
        self.assertEqual(end["calls"][-1]["outcome"], "rejected")
        text = bcwalk("explore", example("dlist.bc"), "--unit", "dlist",
                      "--depth", "3", check=0).stdout
        self.assertIn("dlist_append(target, 1);\n"
                      "dlist_first(target);  /* ==> ptr#0 */\n"
                      "node_value(ptr#0);\n==> 1\n", text)

    def test_a_call_with_no_handle_is_not_made(self):
        seqs = by_calls(jsonl("dlist.bc", "dlist", "protocol", 2))
        for fn in ("node_value", "node_next"):
            s = seqs[(("dlist_new", ()), (fn, ("none",)))]
            self.assertEqual(s["calls"][1]["outcome"], "rejected")
            self.assertNotIn("result", s["calls"][1])
        # dlist_first of an empty list gives out NULL: still no handle
        s = seqs[(("dlist_new", ()), ("dlist_first", ("#0",)))]
        self.assertEqual(s["calls"][1]["result"], "NULL")
        text = bcwalk("explore", example("dlist.bc"), "--unit", "dlist",
                      "--depth", "1", check=0).stdout
        self.assertIn("node_value(/* no node */);\n"
                      "==> *rejected* no node handle given out", text)

    def test_a_handle_used_after_its_node_was_freed_is_a_crash(self):
        for calls in ("stub", "ffi"):
            with self.subTest(calls=calls):
                p = bcwalk("explore", example("dlist.bc"), "--unit", "dlist",
                           "--depth", "4", "--format", "jsonl", "--calls",
                           calls, "--jobs", "2", check=0)
                lines = [json.loads(x) for x in p.stdout.splitlines()]
                seqs = by_calls(lines)
                s = seqs[(("dlist_new", ()), ("dlist_append", ("#0", "1")),
                          ("dlist_first", ("#0",)),
                          ("dlist_remove_first", ("#0",)),
                          ("node_value", ("ptr#0",)))]
                self.assertEqual(s["calls"][-1]["outcome"], "rejected")
                summary = lines[-1]
                # recorded by the worker, which goes on: no restart
                self.assertEqual(summary["worker_restarts"], 0)
        text = bcwalk("explore", example("dlist.bc"), "--unit", "dlist",
                      "--depth", "4", check=0).stdout
        self.assertIn("dlist_first(target);  /* ==> ptr#0 */\n"
                      "dlist_remove_first(target);\nnode_value(ptr#0);\n"
                      "==> *rejected* the node handle was freed since it was "
                      "given out", text)

    def test_the_algebra_walk_extends_calls_giving_out_handles(self):
        seqs = by_calls(jsonl("dlist.bc", "dlist", "algebra", 3))
        s = seqs[(("dlist_new", ()), ("dlist_append", ("#0", "1")),
                  ("dlist_first", ("#0",)), ("node_value", ("ptr#0",)))]
        self.assertEqual(s["calls"][-1]["result"], "1")

    def test_handle_users_in_the_model(self):
        m = json.loads(bcwalk("analyze", example("dlist.bc"), "--format",
                              "json", check=0).stdout)["units"][0]
        value = next(f for f in m["methods"] if f["name"] == "node_value")
        self.assertEqual((value["role"], value["params"][0]["kind"],
                          value["params"][0]["handle"]),
                         ("observer", "handle", "node"))
        text = bcwalk("analyze", example("dlist.bc"), check=0).stdout
        self.assertIn("int node_value(const node *n)\n"
                      "                   n: the node handle given out last",
                      text)

    def test_the_pool_takes_a_real_sbuf(self):
        seqs = by_calls(jsonl("sbuf.bc", "sbuf_pool", "protocol", 2))
        put = ("sbuf_pool_put", ("#0", "sbuf_new()"))
        s = seqs[(("sbuf_pool_new", ()), put,
                  ("sbuf_pool_capacity", ("#0",)))]
        # sbuf_new's buffer holds 32 bytes: zeroed storage would give 0
        self.assertEqual(s["calls"][-1]["result"], "32")
        text = bcwalk("explore", example("sbuf.bc"), "--unit", "sbuf_pool",
                      "--depth", "1", check=0).stdout
        self.assertIn("sbuf_pool_put(target, sbuf_new());\n==> 0", text)
        m = json.loads(bcwalk("analyze", example("sbuf.bc"), "--format",
                              "json", check=0).stdout)["units"][1]
        put = next(f for f in m["methods"] if f["name"] == "sbuf_pool_put")
        self.assertEqual(put["params"][1]["made_by"], "sbuf_new")
        self.assertIn("b: made by sbuf_new()",
                      bcwalk("analyze", example("sbuf.bc"), check=0).stdout)


    def test_a_handle_users_value_of_the_unit_is_another_instance(self):
        # tval_set(members, name, child) acts on the table tval_members
        # gave out; child is another tval, a new one, never the target:
        # tval_set does not compare the two, so the value made its own
        # member (a cycle) is no case of the code's.  parson's
        # json_object_set_value was given the target in every call, each
        # halt after it the library's failure
        text = bcwalk("analyze", example("tval.bc")).stdout
        self.assertIn("child in [a new tval]:", text)
        self.assertNotIn("child is the target", text)
        lines = jsonl("tval.bc", "tval", "protocol", 3)
        halted = [x["calls"][-1] for x in lines[:-1]
                  if x["calls"][-1]["outcome"] not in ("normal", "rejected")]
        self.assertEqual(halted, [])
        self.assertEqual(lines[-1]["sequences"]["aliasing"], 0)
        fresh = [x["calls"][-1] for x in lines[:-1]
                 if [c["fn"] for c in x["calls"]] ==
                 ["tval_new", "tval_members", "tval_set"]]
        self.assertEqual({(c["args"][2], c["outcome"], c.get("result"))
                          for c in fresh if c["args"][0] == "ptr#0"},
                         {("tval_new()", "normal", "0")})

if __name__ == "__main__":
    common.main()
