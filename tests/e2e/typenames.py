"""types.py - end-to-end tests of types as users name them (issue 10):
`--unit` by the typedef as well as the struct's tag, units made by
`T **out` constructors with their size and fields from debug info,
string handles (`typedef char *hstr`).
ctest runs this file as test_e2e_typenames."""
import json
import unittest

import common
from common import bcwalk, example, jsonl


class UnitByItsType(unittest.TestCase):
    def test_unit_by_typedef_or_tag(self):
        by_tag = bcwalk("analyze", example("outctor.bc"), "--unit",
                        "oc_vec_s", check=0).stdout
        self.assertTrue(by_tag.startswith("unit oc_vec_s (OcVec, "))
        for name in ("OcVec", "struct oc_vec_s"):
            self.assertEqual(bcwalk("analyze", example("outctor.bc"),
                                    "--unit", name, check=0).stdout, by_tag)
        walk = bcwalk("explore", example("outctor.bc"), "--unit", "OcVec",
                      "--depth", "1", check=0).stdout
        self.assertIn("oc_vec_size(target);\n==> 0", walk)

    def test_reports_name_the_unit_as_the_user_did(self):
        # issue 31: --unit ArrayList reported "Test unit: _ArrayList"; the
        # headers name the unit as --unit did, the JSON its own name
        res, page = common.ARGS.tmp + "/ocvec.msgpack", \
            common.ARGS.tmp + "/ocvec.html"
        text = bcwalk("explore", example("outctor.bc"), "--unit", "OcVec",
                      "--depth", "1", "-o", res, "--html", page,
                      check=0).stdout
        self.assertIn("Test summary for unit: OcVec\n\nTest unit: OcVec\n",
                      text)
        with open(page) as f:
            self.assertIn("<title>bcwalk: OcVec, protocol walk, depth 1"
                          "</title>", f.read())
        # report says what explore said: the name is the recorded --unit
        self.assertEqual(bcwalk("report", res, check=0).stdout, text)
        for name in ("oc_vec_s", "struct oc_vec_s"):
            text = bcwalk("explore", example("outctor.bc"), "--unit", name,
                          "--depth", "1", check=0).stdout
            self.assertIn("Test unit: %s\n" % name, text)
        doc = json.loads(bcwalk("explore", example("outctor.bc"), "--unit",
                                "OcVec", "--depth", "1", "--format", "json",
                                check=0).stdout)
        self.assertEqual(doc["unit"], "oc_vec_s")

    def test_unknown_name_lists_tags_and_types(self):
        p = bcwalk("explore", example("outctor.bc"), "--unit", "OcVector",
                   check=2)
        self.assertIn("no unit named 'OcVector' (units: oc_vec_s (OcVec))",
                      p.stderr)


class OutConstructor(unittest.TestCase):
    """A unit made only by `int oc_vec_new(OcVec **out)`: the struct's
    size and field names come from debug info."""

    def test_size_and_fields(self):
        for bc in ("outctor.bc", "outctor-linked.bc"):
            text = bcwalk("analyze", example(bc), check=0).stdout
            self.assertTrue(text.startswith("unit oc_vec_s (OcVec, 32 bytes)"),
                            text)
            self.assertIn("reads size, capacity, items, grow_by\n", text)
            # a const pointer as the source writes it
            self.assertIn("size_t oc_vec_size(const OcVec *const v)\n", text)
            self.assertNotIn("@", text)
            u = json.loads(bcwalk("analyze", example(bc), "--format", "json",
                                  check=0).stdout)["units"][0]
            self.assertEqual([(f["name"], f["offset"]) for f in u["fields"]],
                             [("size", 0), ("capacity", 8), ("items", 16),
                              ("grow_by", 24)])


class StringHandle(unittest.TestCase):
    """`typedef char *hstr` with a header before the characters: a unit
    named by the typedef, walked through handles that move."""

    def test_analyze(self):
        text = bcwalk("analyze", example("sdsish.bc"), check=0).stdout
        self.assertTrue(text.startswith("unit hstr (hstr, 0 bytes)\n"
                                        "  constructor      hstr "
                                        "hstr_new(const char *init)\n"),
                        text)
        self.assertIn("destructor       void hstr_free(hstr s)", text)
        u = json.loads(bcwalk("analyze", example("sdsish.bc"), "--format",
                              "json", check=0).stdout)["units"][0]
        cat = next(f for f in u["methods"] if f["name"] == "hstr_cat")
        self.assertTrue(cat["rebinds"])

    def test_walk_follows_the_moved_handle(self):
        text = bcwalk("explore", example("sdsish.bc"), "--unit", "hstr",
                      "--depth", "1", check=0).stdout
        self.assertIn('hstr target = hstr_new("a");\n', text)
        seqs = {tuple((c["fn"], tuple(c["args"])) for c in s["calls"]): s
                for s in jsonl("sdsish.bc", "hstr", "protocol", 3)[:-1]}
        # "a" has no room for "hello": hstr_cat reallocates, and
        # hstr_len must be given the handle it returned
        s = seqs[(("hstr_new", ('"a"',)), ("hstr_cat", ("#0", '""')),
                  ("hstr_cat", ("#0", '"hello"')), ("hstr_len", ("#0",)))]
        self.assertEqual([(c["outcome"], c["result"]) for c in s["calls"]],
                         [("normal", "#0")] * 3 + [("normal", "6")])


if __name__ == "__main__":
    common.main()
