"""instances.py - end-to-end tests of arguments that are instances of
units: made by constructors the walk can call, through a `T **out`
constructor and a configuration struct its init function fills, never
zeroed storage where such a constructor exists.  ctest runs this file as
test_e2e_instances."""
import json
import unittest

import common
from common import bcwalk, example, jsonl


class Instances(unittest.TestCase):
    def test_analyze_names_what_makes_each_argument(self):
        m = json.loads(bcwalk("analyze", example("ring.bc"), "--format",
                              "json", check=0).stdout)
        units = {u["name"]: u for u in m["units"]}
        ctors = [c["name"] for c in units["ring"]["constructors"]]
        self.assertEqual(sorted(ctors), ["ring_new", "ring_new_conf"])
        [conf] = [c for c in units["ring"]["constructors"]
                  if c["name"] == "ring_new_conf"]
        self.assertEqual(conf["params"][0]["made_by"], "ring_conf_init")
        [init] = units["ring_iter"]["constructors"]
        self.assertEqual(init["params"][1]["made_by"], "ring_new")

    def test_iterator_walks_a_real_ring(self):
        for walk, depth in (("protocol", 2), ("algebra", 3)):
            lines = jsonl("ring.bc", "ring_iter", walk, depth)
            self.assertEqual(lines[-1]["sequences"]["terminated"], 0, walk)
            first = lines[0]["calls"][0]
            self.assertEqual(first["args"][1], "ring_new(&out)")

    def test_ring_from_its_configuration(self):
        lines = jsonl("ring.bc", "ring", "protocol", 2)
        self.assertEqual(lines[-1]["sequences"]["terminated"], 0)
        made = {s["calls"][0]["args"][0] for s in lines[:-1]
                if s["calls"][0]["fn"] == "ring_new_conf"}
        self.assertEqual(made, {"ring_conf_init(&storage)"})
        # a ring made from its configuration holds what it was given
        sizes = {s["calls"][2]["result"] for s in lines[:-1]
                 if [c["fn"] for c in s["calls"]] ==
                 ["ring_new_conf", "ring_push", "ring_size"]}
        self.assertEqual(sizes, {"1"})


if __name__ == "__main__":
    common.main()
