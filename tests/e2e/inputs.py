"""inputs.py - end-to-end tests of inputs that reach the interesting paths
(issue 10): an enum parameter the constructor only stores gets its
enumerators (examples/range.c).
ctest runs this file as test_e2e_inputs."""
import json
import unittest

import common
from common import bcwalk, example, jsonl


def analyzed(bc, fn):
    """The JSON of function `fn` in `analyze --format json` of `bc`."""
    model = json.loads(bcwalk("analyze", example(bc), "--format", "json",
                              check=0).stdout)
    [f] = [f for u in model["units"]
           for f in u["constructors"] + u["methods"] if f["name"] == fn]
    return f


class StoredEnum(unittest.TestCase):
    """range_new(mode) only stores its enum; range_add branches on it."""

    def test_enumerators_are_categories(self):
        [mode] = analyzed("range.bc", "range_new")["params"]
        self.assertEqual(mode["kind"], "enum")
        self.assertEqual([(c["label"], c["values"])
                          for c in mode["partitions"]],
                         [("RANGE_GROW", ["0"]), ("RANGE_FIXED", ["1"]),
                          ("RANGE_SORTED", ["4"])])

    def test_walk_makes_each_mode(self):
        lines = jsonl("range.bc", "range", "protocol", 1)
        made = {(c["args"][0], c["labels"][0])
                for s in lines[:-1] for c in s["calls"][:1]}
        self.assertEqual(made, {("0", "RANGE_GROW"), ("1", "RANGE_FIXED"),
                                ("4", "RANGE_SORTED")})


if __name__ == "__main__":
    common.main()
