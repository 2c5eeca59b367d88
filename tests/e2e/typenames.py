"""types.py - end-to-end tests of types as users name them (issue 10):
`--unit` by the typedef as well as the struct's tag, units made by
`T **out` constructors with their size and fields from debug info.
ctest runs this file as test_e2e_typenames."""
import json
import unittest

import common
from common import bcwalk, example


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
            self.assertNotIn("@", text)
            u = json.loads(bcwalk("analyze", example(bc), "--format", "json",
                                  check=0).stdout)["units"][0]
            self.assertEqual([(f["name"], f["offset"]) for f in u["fields"]],
                             [("size", 0), ("capacity", 8), ("items", 16),
                              ("grow_by", 24)])


if __name__ == "__main__":
    common.main()
