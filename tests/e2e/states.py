"""states.py - end-to-end tests of design states (issue 5): the state walk,
its report, its results file and its graph. ctest runs this file as
test_e2e_states."""
import os
import tempfile
import unittest

import common
from common import bcwalk, example, explore_json, jsonl, msgpack_stream


class DesignStates(unittest.TestCase):
    """Issue 5: design states, the state walk and its graph."""

    def test_bounded_stack_matches_jwalk(self):
        doc = explore_json("bstack.bc", "bstack", "state", 3)
        self.assertEqual(
            {k: doc["sequences"][k] for k in ("normal", "terminated",
                                               "discarded")},
            {"normal": 601, "terminated": 44, "discarded": 132})
        # covers of 0, 1 and 10 calls after the constructor
        self.assertEqual([(s["name"], len(s["cover"]) - 1)
                          for s in doc["states"]],
                         [("empty", 0), ("default", 1), ("full", 10)])
        self.assertEqual(doc["states"][2]["predicates"],
                         {"is_empty": False, "is_full": True})
        # the bitcode's size == 0 is is_empty: bstack_is_empty returns it
        self.assertIn("predicate size == 0 merged into is_empty: "
                      "bstack_is_empty returns that comparison",
                      doc["warnings"])
        # concrete states are counted once across the states' walks
        lines = jsonl("bstack.bc", "bstack", "state", 3)
        seen = {s["concrete_state"] for s in lines[:-1]
                if "concrete_state" in s}
        self.assertEqual(doc["concrete_states"], len(seen))
        trans = {(t["from"], t["call"]): (t["outcome"], t["to"])
                 for t in doc["transitions"]}
        self.assertEqual(trans[("empty", "bstack_pop")], ("abort", None))
        self.assertEqual(trans[("full", "bstack_pop")], ("normal", "default"))
        self.assertEqual(trans[("default", "bstack_pop")], ("normal", "empty"))

    def test_report_grouped_by_state_then_length(self):
        text = bcwalk("explore", example("bstack.bc"), "--unit", "bstack",
                      "--walk", "state", "--depth", "2", check=0).stdout
        heads = [line for line in text.splitlines()
                 if ": all transitions of length" in line]
        self.assertEqual(heads, ["%s: all transitions of length %d" % (s, n)
                                 for s in ("empty", "default", "full")
                                 for n in range(3)])
        self.assertIn("Test mode: State exploration", text)
        self.assertIn("  full: cover of 10 calls after the constructor",
                      text)
        lines = jsonl("bstack.bc", "bstack", "state", 1)
        self.assertEqual({(s["state"], s["length"]) for s in lines[:-1]},
                         {(n, k) for n in ("empty", "default", "full")
                          for k in (0, 1)})
        # the cover's calls are shown, but only the last one's result
        full0 = next(s for s in lines[:-1]
                     if s["state"] == "full" and s["length"] == 0)
        self.assertEqual(len(full0["calls"]), 11)
        self.assertNotIn("result", full0["calls"][0])
        self.assertEqual(full0["calls"][-1]["args"], ["#0", "10"])

    def test_no_state_found_is_the_protocol_walk(self):
        # examples/range.c makes no range before its library's set-up:
        # probing finds no state, and the walk from the constructors
        # still says what they do
        doc = explore_json("range.bc", "range", "state", 1)
        self.assertEqual(doc["sequences"]["terminated"], 3)
        self.assertEqual(doc["states"], [])
        self.assertTrue(any(w.startswith("probing found no design state of "
                                         "unit range") and
                            w.endswith("the protocol walk from the "
                                       "constructors was run instead")
                            for w in doc["warnings"]))
        lines = jsonl("range.bc", "range", "state", 1)
        self.assertEqual([s["calls"][0]["outcome"] for s in lines[:-1]],
                         ["rejected"] * 3)

    def test_states_from_bitcode_predicates_only(self):
        doc = explore_json("ringq.bc", "ringq", "state", 1)
        self.assertEqual([(s["name"], len(s["cover"]) - 1)
                          for s in doc["states"]],
                         [("count == 0", 0), ("default", 1),
                          ("count == cap", 4)])

    def test_two_orthogonal_predicates_make_four_states(self):
        doc = explore_json("book.bc", "book", "state", 1)
        self.assertEqual(sorted(s["name"] for s in doc["states"]),
                         sorted(["default", "on_loan", "reserved",
                                 "on_loan & reserved"]))
        # is_on_loan returns on_loan != 0: the negation of on_loan == 0
        self.assertIn("predicate on_loan == 0 merged into is_on_loan: "
                      "book_is_on_loan returns that comparison's negation",
                      doc["warnings"])
        trans = {(t["from"], t["call"]): t["to"] for t in doc["transitions"]}
        self.assertEqual(trans[("reserved", "book_lend")],
                         "on_loan & reserved")
        self.assertEqual(trans[("on_loan & reserved", "book_cancel")],
                         "on_loan")

    def test_states_saved_with_the_results(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "s.results.msgpack")
            bcwalk("explore", example("bstack.bc"), "--unit", "bstack",
                   "--walk", "state", "--depth", "1", "-o", path, check=0)
            objs = msgpack_stream(path)
        header, seqs, graph, trailer = objs[0], objs[1:-3], objs[-3], objs[-1]
        self.assertEqual((header["version"], header["walk"]), (12, "state"))
        fns = [f["name"] for f in header["functions"]]
        self.assertEqual([(name, len(cover) - 1)
                          for name, value, cover in graph["states"]],
                         [("empty", 0), ("default", 1), ("full", 10)])
        # each sequence names its state and how many calls its cover has
        self.assertEqual({(s[6], s[7]) for s in seqs},
                         {(0, 0), (1, 1), (2, 10)})
        push = fns.index("bstack_push")
        self.assertIn([2, fns.index("bstack_pop"), 0, 1], graph["transitions"])
        self.assertIn([0, push, 0, 1], graph["transitions"])
        self.assertEqual(trailer["summary"]["normal"] +
                         trailer["summary"]["terminated"], len(seqs))

    def test_chosen_predicates_and_the_graph(self):
        with tempfile.TemporaryDirectory() as tmp:
            dot = os.path.join(tmp, "bstack.dot")
            doc = explore_json("bstack.bc", "bstack", "state", 1,
                               "--predicates", "size == 0", "--graph", dot)
            self.assertEqual([s["name"] for s in doc["states"]],
                             ["size == 0", "default"])
            with open(dot) as f:
                graph = f.read()
        self.assertTrue(graph.startswith('digraph "bstack" {'))
        # a loop back to the state is in its node, under its name:
        # Graphviz would set the loop's label over the other edges'
        self.assertIn('s0 [label="size == 0\\n\u21ba bstack_size, '
                      'bstack_is_empty, bstack_is_full\\n3 of 6"];', graph)
        self.assertIn('s0 -> s0;', graph)
        # parallel edges collapsed: one per node reached, its methods and
        # the share of the state's calls that took it; a halt its node
        self.assertIn('s0 -> s1 [label="bstack_push\\n1 of 6"];', graph)
        self.assertIn('s0 -> abort [label="bstack_pop, bstack_top\\n2 of 6", '
                      'color="#b3261e"];', graph)
        self.assertIn('abort [shape=box', graph)
        p = bcwalk("explore", example("bstack.bc"), "--unit", "bstack",
                   "--walk", "state", "--predicates", "is_big", check=2)
        self.assertIn('unit bstack has no predicate "is_big"; its '
                      'predicates are "is_empty", "is_full"', p.stderr)
        for bad, msg in ((("--walk", "state", "--predicates", ""),
                          "explore: --predicates: no predicate named"),
                         (("--walk", "state", "--predicates", "is_empty:"),
                          'an empty name after "is_empty:"'),
                         (("--predicates", "is_empty"),
                          "explore: --predicates applies to the state walk "
                          "only (--walk state)"),
                         (("--graph", "x.dot"),
                          "explore: --graph applies to the state walk only"),
                         (("--probe-depth", "4"),
                          "explore: --probe-depth applies to the state walk "
                          "only")):
            p = bcwalk("explore", example("bstack.bc"), "--unit", "bstack",
                       *bad, check=2)
            self.assertIn(msg, p.stderr)
        # renamed: the states take the new names
        doc = explore_json("bstack.bc", "bstack", "state", 1, "--predicates",
                           "is_empty:Empty,is_full:Full")
        self.assertEqual([s["name"] for s in doc["states"]],
                         ["Empty", "default", "Full"])

    def test_explore_and_test_take_dot_as_report_does(self):
        # issue 31: report writes the graph with --dot, explore had only
        # --graph; explore and test take the same export options
        with tempfile.TemporaryDirectory() as tmp:
            dot, graph = (os.path.join(tmp, n) for n in ("d.dot", "g.dot"))
            explore_json("bstack.bc", "bstack", "state", 1, "--dot", dot)
            explore_json("bstack.bc", "bstack", "state", 1, "--graph", graph)
            with open(dot) as f, open(graph) as g:
                text = f.read()
                self.assertEqual(text, g.read())
            self.assertTrue(text.startswith('digraph "bstack" {'))
            self.assertIn('s0 [label="empty\\n', text)
            tested = os.path.join(tmp, "t.dot")
            bcwalk("test", example("bstack.bc"), "--unit", "bstack",
                   "--walk", "state", "--depth", "1", "--oracle",
                   os.path.join(tmp, "o.msgpack"), "--accept", "--format",
                   "json", "--dot", tested, check=0)
            with open(tested) as f:
                self.assertEqual(f.read(), text)
        for cmd in ("explore", "test"):
            self.assertIn("--dot FILE", bcwalk(cmd, "--help").stdout)
        p = bcwalk("explore", example("bstack.bc"), "--unit", "bstack",
                   "--dot", "x.dot", check=2)
        self.assertEqual(p.stderr, "bcwalk: explore: --dot applies to the "
                         "state walk only (--walk state)\n")


class NotMade(unittest.TestCase):
    """A call not made (its argument's category had no value on the
    object as it was) is counted apart, and is no transition: neither in
    the summary's list nor as an edge of the state graph."""

    def test_a_call_not_made_is_no_transition(self):
        dot = os.path.join(tempfile.mkdtemp(), "tank.dot")
        out = bcwalk("explore", example("callee.bc"), "--unit", "tank",
                     "--walk", "state", "--depth", "1", "--dot", dot,
                     check=0).stdout
        self.assertIn("Not made 2 test sequences", out)
        transitions = out[out.index("Transitions:"):].split("\n\n")[0]
        self.assertIn("--tank_fill", transitions)
        self.assertNotIn("*rejected*", transitions)
        with open(dot) as f:
            self.assertNotIn("rejected", f.read())


if __name__ == "__main__":
    common.main()
