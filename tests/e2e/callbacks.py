"""callbacks.py - end-to-end tests of callback parameters: the kind their
typedefs and names tell, the module's own functions of that kind, the
built-ins for the rest, and containers filled through them (issue 10).
ctest runs this file as test_e2e_callbacks."""
import json
import unittest

import common
from common import bcwalk, example, jsonl


def sizes(lines, fn):
    """The results of every normal call of `fn`, as ints."""
    return [int(c["result"]) for s in lines[:-1] for c in s["calls"]
            if c["fn"] == fn and c["outcome"] == "normal"]


def halts(lines):
    return [c for s in lines[:-1] for c in s["calls"]
            if c["outcome"] not in ("normal", "rejected")]


class CallbacksMeanWhatTheirTypeSays(unittest.TestCase):

    def test_a_callback_checked_for_null_is_given_null_too(self):
        # dh_new(size, hash, alloc) picks its own hash and allocator when
        # given NULL: NULL is a category beside the built-in hash, passed
        # as it is, and written as NULL; the allocator, returning a
        # pointer bcw_zero cannot make, gets NULL alone; nothing halts
        m = json.loads(bcwalk("analyze", example("defhash.bc"), "--format",
                              "json").stdout)
        [ctor] = m["units"][0]["constructors"]
        self.assertEqual([[c["label"] for c in p["partitions"]]
                          for p in ctor["params"][1:]],
                         [["hash == bcw_hash", "hash == NULL"],
                          ["alloc == NULL"]])
        lines = jsonl("defhash.bc", "dh", "protocol", 2)
        made = {tuple(q["calls"][0]["args"]) for q in lines[:-1]}
        self.assertIn(("1", "NULL", "NULL"), made)
        self.assertIn(("1", "bcw_hash", "NULL"), made)
        # no halt: only a size of 0 makes no table
        self.assertEqual({(q["calls"][-1]["outcome"], q["calls"][0]["args"][0])
                          for q in lines[:-1]
                          if q["calls"][-1]["outcome"] != "normal"},
                         {("rejected", "0")})
        counted = [q["calls"][-1]["result"] for q in lines[:-1]
                   if q["calls"][0]["args"][1] == "NULL" and
                   [c["fn"] for c in q["calls"]] ==
                   ["dh_new", "dh_add", "dh_count"]]
        self.assertTrue(counted)

    def test_each_callback_gets_a_function_of_its_kind(self):
        m = json.loads(bcwalk("analyze", example("cbmap.bc"), "--format",
                              "json", check=0).stdout)
        given = {}
        for u in m["units"]:
            for f in u["constructors"] + u["methods"]:
                for p in f["params"]:
                    if p["kind"] == "callback":
                        given[(f["name"], p["name"])] = (
                            p["type"], [c["function"]
                                        for c in p["partitions"]])
        self.assertEqual(given, {
            # the module's own, typedefs resolved, each of its kind only:
            # cbmap_int_compare has the equality's type but not its kind;
            # NULL too where the function checks for it
            ("cbmap_new", "hash"): ("cbmap_hash_fn",
                                    ["cbmap_str_hash", "NULL"]),
            ("cbmap_new", "equal"): ("cbmap_equal_fn",
                                     ["cbmap_int_equal", "NULL"]),
            ("cbmap_min_key", "cmp"): ("cbmap_compare_fn",
                                       ["cbmap_int_compare"]),
            # none in the module: the built-in of the typedef's kind
            ("cbmap_count_if", "pred"): ("cbmap_pred_fn", ["bcw_pred"]),
            ("cbmap_each", "visit"): ("cbmap_visit_fn", ["bcw_visit"]),
            # (checked for NULL in the helper it is passed to)
            ("cbmap_clear", "free_key"): ("cbmap_free_fn",
                                          ["bcw_free", "NULL"]),
            # three arguments, user data last
            ("cbset_new", "cmp"): ("cbset_compare_fn",
                                   ["bcw_compare", "NULL"])})

    def test_only_functions_a_caller_can_name_and_no_dispatcher(self):
        # fmt_text is static (the library installs it on text values
        # only) and val_print calls the printer it would be stored as:
        # val_set_format is given fmt_number alone, and nothing halts
        m = json.loads(bcwalk("analyze", example("fmt.bc"), "--format",
                              "json").stdout)
        [val] = m["units"]
        [setter] = [f for f in val["methods"] if f["name"] == "val_set_format"]
        self.assertEqual([c["label"] for c in setter["params"][1]["partitions"]],
                         ["fmt == fmt_number"])
        self.assertEqual(halts(jsonl("fmt.bc", "val", "protocol", 2)), [])

    def test_a_built_in_compare_with_user_data_keeps_keys_apart(self):
        lines = jsonl("cbmap.bc", "cbset", "protocol", 3)
        self.assertEqual(halts(lines), [])
        # two distinct keys are two; the same key twice is one
        self.assertEqual(max(sizes(lines, "cbset_size")), 2)
        seqs = {tuple((c["fn"], tuple(c["args"])) for c in s["calls"]): s
                for s in lines[:-1]}
        new = ("cbset_new", ("bcw_compare", "Obj#1"))
        twice = seqs[(new, ("cbset_add", ("#0", "Obj#0")),
                      ("cbset_add", ("#0", "Obj#0")))]
        self.assertEqual([c["result"] for c in twice["calls"][1:]],
                         ["1", "0"])
        found = seqs[(new, ("cbset_add", ("#0", "Obj#2")),
                      ("cbset_has", ("#0", "Obj#0")))]
        self.assertEqual(found["calls"][-1]["result"], "0")

    def test_the_map_holds_several_keys_and_the_built_ins_act(self):
        lines = jsonl("cbmap.bc", "cbmap", "protocol", 3)
        self.assertEqual(halts(lines), [])
        self.assertGreater(max(sizes(lines, "cbmap_size")), 1)
        calls = {tuple((c["fn"], tuple(c["args"])) for c in s["calls"]):
                 s["calls"][-1] for s in lines[:-1]}
        new = ("cbmap_new", ("cbmap_str_hash", "cbmap_int_equal"))
        # the built-in predicate holds for odd cells: Obj#1, not Obj#0
        for put, n in ((("Obj#1", "Obj#2"), "1"), (("Obj#0", "Obj#1"), "0")):
            last = calls[(new, ("cbmap_put", ("#0", *put)),
                          ("cbmap_count_if", ("#0", "bcw_pred")))]
            self.assertEqual((last["result"], last["out"]),
                             (n, {"pred": "1 call"}))
        # the built-in free function is called and frees nothing
        last = calls[(new, ("cbmap_put", ("#0", "Obj#1", "Obj#2")),
                      ("cbmap_clear", ("#0", "bcw_free")))]
        self.assertEqual((last["outcome"], last["out"]),
                         ("normal", {"free_key": "1 call"}))

    def test_keys_the_set_copies_are_found_by_their_bytes(self):
        # copyset_add copies key_size bytes of the key: key_size is the
        # element size, and the built-in compare reads the copies' bytes
        m = json.loads(bcwalk("analyze", example("copyset.bc"), "--format",
                              "json", check=0).stdout)
        [u] = m["units"]
        [new] = u["constructors"]
        self.assertEqual([p.get("element_size", False)
                          for p in new["params"]], [True, False])
        lines = jsonl("copyset.bc", "copyset", "protocol", 3)
        found = {}
        for q in lines[:-1]:
            calls = q["calls"]
            if all(c["outcome"] == "normal" for c in calls):
                found.setdefault(tuple((c["fn"], tuple(c["args"][1:]))
                                       for c in calls[1:]),
                                 [c.get("result") for c in calls[1:]])
        # a key added is there, once; two keys are two
        self.assertEqual(found[(("copyset_add", ("Obj#0",)),
                                ("copyset_has", ("Obj#0",)))], ["1", "1"])
        self.assertEqual(found[(("copyset_add", ("Obj#0",)),
                                ("copyset_add", ("Obj#0",)),
                                ("copyset_count", ()))], ["1", "0", "1"])
        self.assertEqual(found[(("copyset_add", ("Obj#1",)),
                                ("copyset_add", ("Obj#0",)),
                                ("copyset_count", ()))], ["1", "1", "2"])
        self.assertEqual(found[(("copyset_add", ("Obj#1",)),
                                ("copyset_add", ("Obj#0",)),
                                ("copyset_has", ("Obj#0",)))],
                         ["1", "1", "1"])
        self.assertEqual(found[(("copyset_add", ("Obj#0",)),
                                ("copyset_add", ("Obj#1",)),
                                ("copyset_remove", ("Obj#0",)))],
                         ["1", "1", "1"])
        self.assertEqual(found[(("copyset_add", ("Obj#1",)),
                                ("copyset_has", ("Obj#2",)))], ["1", "0"])

    def test_a_table_of_callbacks_is_filled_member_by_member(self):
        # optab_new(const optab_ops *ops): no function makes an
        # optab_ops, so bcwalk passes zeroed storage, each member a
        # built-in of its kind; every member filled, it is no made-up
        # argument, and the set holds and finds its keys
        m = json.loads(bcwalk("analyze", example("optab.bc"), "--format",
                              "json", check=0).stdout)
        [u] = m["units"]
        [ops] = u["constructors"][0]["params"]
        self.assertEqual(ops["kind"], "scratch")
        self.assertEqual([(x["name"], x["offset"], x["callback"])
                          for x in ops["members"]],
                         [("hash", 0, "bcw_hash"), ("equal", 8, "bcw_equal"),
                          ("free_key", 16, "bcw_free")])
        self.assertTrue(ops["members_all"])
        lines = jsonl("optab.bc", "optab", "protocol", 2)
        self.assertEqual(lines[-1]["sequences"]["suspect"], 0)
        self.assertEqual(lines[0]["calls"][0]["args"], [
            "&{hash = bcw_hash, equal = bcw_equal, free_key = bcw_free}"])
        found = {tuple((c["fn"], tuple(c["args"][1:])) for c in q["calls"]):
                 [c.get("result") for c in q["calls"][1:]]
                 for q in lines[:-1]}
        new = ("optab_new", ())
        self.assertEqual(found[(new, ("optab_put", ("Obj#0",)),
                                ("optab_has", ("Obj#0",)))], ["1", "1"])
        self.assertEqual(found[(new, ("optab_put", ("Obj#1",)),
                                ("optab_has", ("Obj#2",)))], ["1", "0"])
        # the only halt is the library's assert on an empty set
        self.assertEqual({(c["fn"], c["outcome"]) for c in halts(lines)},
                         {("optab_first", "abort")})

    def test_a_free_hook_named_by_its_setter_frees_the_librarys_memory(self):
        # lb_set_free_func(b, f): `f`, void (*)(void *), says nothing;
        # its setter says it frees.  The built-in free callback frees
        # what the library allocated, so lb_free releases the buffer
        # through it and no sequence leaks (a visitor there would have
        # left the buffer behind in every sequence that set it)
        text = bcwalk("analyze", example("hooks.bc")).stdout
        self.assertIn("f in [f == bcw_free]: bcw_free", text)
        for walk in ("protocol", "algebra"):
            lines = jsonl("hooks.bc", "lbuf", walk, 3)
            self.assertEqual(lines[-1]["sequences"]["leaking"], 0, walk)
            self.assertEqual(lines[-1]["sequences"]["terminated"], 0, walk)
            hooked = [q for q in lines[:-1]
                      if [c["fn"] for c in q["calls"]][1:3] ==
                      ["lb_set_free_func", "lb_put"]]
            self.assertTrue(hooked, walk)


if __name__ == "__main__":
    common.main()
