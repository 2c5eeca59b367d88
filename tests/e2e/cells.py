"""cells.py - end-to-end tests of units living in their callers' cells
whose adders return the new entry (issue 10, shape 5): the empty cell is
the constructor, every T ** parameter gets the cell's address and every
T * the list's head.  ctest runs this file as test_e2e_cells."""
import json
import unittest

import common
from common import bcwalk, by_calls, example, jsonl


def analyze(bc):
    return json.loads(bcwalk("analyze", example(bc), "--format", "json",
                             check=0).stdout)["units"][0]


class CallerCells(unittest.TestCase):
    """clist.c: clist_prepend(&list, v) and clist_append(&list, v) read
    the cell before they write it and return the new entry."""

    def test_the_constructor_is_the_empty_cell(self):
        u = analyze("clist.bc")
        self.assertEqual((u["type"], u["in_caller_cell"]), ("CEntry *", True))
        self.assertEqual([c["name"] for c in u["constructors"]], ["(empty)"])
        self.assertEqual([d["name"] for d in u["destructors"]], ["clist_free"])
        kinds = {f["name"]: (f["role"], [p["kind"] for p in f["params"]])
                 for f in u["methods"]}
        self.assertEqual(kinds["clist_prepend"], ("mutator", ["unit", "element"]))
        self.assertEqual(kinds["clist_append"], ("mutator", ["unit", "element"]))
        self.assertEqual(kinds["clist_length"], ("observer", ["unit_value"]))
        # the entries the adders and clist_nth return are handles, not units
        [h] = u["handles"]
        self.assertEqual(h["from"], ["clist_prepend", "clist_append",
                                     "clist_nth"])
        text = bcwalk("analyze", example("clist.bc"), check=0).stdout
        self.assertIn("constructor      CEntry *cell = NULL   [the unit lives "
                      "in its caller's cell]", text)

    def test_a_t_out_constructor_stays_one(self):
        # oc_vec_new(OcVec **out) writes its cell without reading it
        u = analyze("outctor.bc")
        self.assertNotIn("in_caller_cell", u)
        self.assertIn("oc_vec_new", [c["name"] for c in u["constructors"]])

    def test_the_adders_grow_the_same_list(self):
        seqs = by_calls(jsonl("clist.bc", "centry", "protocol", 3))
        s = seqs[(("(empty)", ()), ("clist_prepend", ("&#0", "Obj#1")),
                  ("clist_append", ("&#0", "Obj#2")),
                  ("clist_length", ("#0",)))]
        self.assertEqual([c["result"] for c in s["calls"][1:]],
                         ["ptr#0", "ptr#1", "2"])
        text = bcwalk("explore", example("clist.bc"), "--unit", "CEntry",
                      "--depth", "3", check=0).stdout
        self.assertIn("CEntry *target = NULL;\n"
                      "clist_prepend(&target, Obj#1 /* a new element */);  "
                      "/* ==> ptr#0 */\n"
                      "clist_append(&target, Obj#2 /* a new element */);  "
                      "/* ==> ptr#1 */\n"
                      "clist_length(target);\n==> 2\n", text)

    def test_cell_functions_get_the_cells_address(self):
        seqs = by_calls(jsonl("clist.bc", "centry", "protocol", 3))
        s = seqs[(("(empty)", ()), ("clist_prepend", ("&#0", "Obj#1")),
                  ("clist_prepend", ("&#0", "Obj#2")),
                  ("clist_sort", ("&#0", "bcw_compare")))]
        self.assertEqual((s["calls"][-1]["outcome"], s["calls"][-1]["out"]),
                         ("normal", {"cmp": "1 call"}))
        # the same element again is removed from the cell's list
        s = seqs[(("(empty)", ()), ("clist_prepend", ("&#0", "Obj#0")),
                  ("clist_remove_data", ("&#0", "bcw_equal", "Obj#0")),
                  ("clist_length", ("#0",)))]
        self.assertEqual([c["result"] for c in s["calls"][2:]], ["1", "0"])

    def test_an_unchecked_entry_is_not_given_an_empty_list(self):
        # clist_first_data dereferences its entry unchecked: on the empty
        # list the call is not made; clist_length checks it and is called
        text = bcwalk("explore", example("clist.bc"), "--unit", "CEntry",
                      "--depth", "1", check=0).stdout
        self.assertIn("clist_first_data(target);\n==> *rejected* the list "
                      "is empty (the function does not check its entry for "
                      "NULL)", text)
        self.assertIn("clist_length(target);\n==> 0", text)
        m = analyze("clist.bc")
        params = {f["name"]: f["params"] for f in m["methods"]}
        self.assertEqual(params["clist_first_data"][0].get("nullable"), None)
        self.assertTrue(params["clist_length"][0]["nullable"])

    def test_the_walks_have_no_halts(self):
        # none but the calls on an empty list not made (rejected)
        for walk, depth in (("protocol", 2), ("algebra", 3)):
            with self.subTest(walk=walk):
                lines = jsonl("clist.bc", "centry", walk, depth)
                ends = {(s["calls"][-1]["fn"], s["calls"][-1]["outcome"])
                        for s in lines[:-1]
                        if s["calls"][-1]["outcome"] != "normal"}
                self.assertEqual(ends, {("clist_first_data", "rejected")})
                self.assertGreater(lines[-1]["sequences"]["normal"], 0)


if __name__ == "__main__":
    common.main()
