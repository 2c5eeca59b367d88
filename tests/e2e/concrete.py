"""concrete.py - end-to-end tests of concrete states: deep walks pruned by
state, their counts against independent models, observers with side
effects, pointers numbered past 64. ctest runs this file as test_e2e_concrete."""
import json
import unittest

import common
from common import bcwalk, example, explore_json, jsonl


def model_states(start, step, methods, shown, depth):
    """Breadth-first over a model's states to `depth` calls: how many
    distinct states the hash sees (their first `shown` fields; the rest
    is the search's own bookkeeping).  step returns None for a call that
    halts."""
    seen, states, level = {start}, {start[:shown]}, [start]
    for _ in range(depth):
        nxt = []
        for st in level:
            for m in methods:
                s = step(st, m)
                if s is None:
                    continue
                states.add(s[:shown])
                if s not in seen:
                    seen.add(s)
                    nxt.append(s)
        level = nxt
    return len(states)


def bstack_model(depth):
    """Distinct concrete states of bstack within `depth` calls, by an
    independent breadth-first model of what the state hash sees: the size
    and all ten slots of `data`, stale ones included (a pop leaves its
    value; a slot never written holds the allocator's fill), reached with
    the master generator's pushes 1, 2, 3 ... (a push on a full stack
    draws its value too).  The search's own states add the counter, so
    it reaches every state of the full walk."""
    fill = "fill"
    start = (0, (fill,) * 10, 0)

    def step(st, m):
        size, data, pushed = st
        if m == "push":
            pushed += 1
            if size < 10:
                data = data[:size] + (pushed,) + data[size + 1:]
                size += 1
        elif m in ("pop", "top"):
            if size == 0:
                return None  # abort
            if m == "pop":
                size -= 1
        return (size, data, pushed)

    return model_states(start, step, ("push", "pop", "top", "size",
                                      "is_empty", "is_full"), 2, depth)


def ringq_model(depth):
    """The same for ringq (capacity 4, calloc'd slots): the slots, stale
    ones included, head, tail and count, with puts of 1, 2, 3 ..."""
    start = ((0,) * 4, 0, 0, 0, 0)

    def step(st, m):
        items, head, tail, count, put = st
        if m == "put":
            put += 1
            if count < 4:
                items = items[:tail] + (put,) + items[tail + 1:]
                tail, count = (tail + 1) % 4, count + 1
        elif m == "get" and count > 0:
            head, count = (head + 1) % 4, count - 1
        return (items, head, tail, count, put)

    return model_states(start, step, ("put", "get", "length"), 4, depth)


def concrete_states(lines):
    return {s["concrete_state"] for s in lines[:-1] if "concrete_state" in s}


class ConcreteStates(unittest.TestCase):
    def test_deep_bstack_walk_is_pruned_and_counts_its_states(self):
        self.assertEqual(bstack_model(12), 1195)
        s = explore_json("bstack.bc", "bstack", "protocol", 12)
        seq = s["sequences"]
        self.assertEqual(s["prune"], "state")  # the default from depth 6
        self.assertEqual(s["concrete_states"], 1195)
        self.assertEqual(seq["normal"] + seq["terminated"], 4111)
        self.assertEqual(seq["normal"] + seq["terminated"] + seq["discarded"],
                         sum(6 ** k for k in range(13)))
        self.assertGreater(seq["pruned_state"], 0)
        self.assertLess(s["elapsed_s"], 10)

    def test_deep_ringq_walk_is_pruned_and_counts_its_states(self):
        for depth in (12, 14):
            s = explore_json("ringq.bc", "ringq", "protocol", depth)
            self.assertEqual(s["concrete_states"], ringq_model(depth))
        self.assertEqual(s["concrete_states"], 222)
        self.assertLess(s["elapsed_s"], 10)

    def test_pruning_keeps_the_set_of_states(self):
        for bc, unit, depth in (("bstack.bc", "bstack", 6),
                                ("ringq.bc", "ringq", 8),
                                ("dlist.bc", "dlist", 4),
                                ("sbuf.bc", "sbuf", 3)):
            full = jsonl(bc, unit, "protocol", depth, "--prune", "none")
            pruned = jsonl(bc, unit, "protocol", depth, "--prune", "state")
            self.assertEqual(full[-1]["prune"], "none")
            self.assertEqual(pruned[-1]["prune"], "state")
            self.assertEqual(concrete_states(full), concrete_states(pruned),
                             bc)
            self.assertEqual(full[-1]["concrete_states"],
                             len(concrete_states(full)))
            self.assertLess(len(pruned), len(full), bc)
            # a pruned sequence is reported, its extensions are not run
            self.assertTrue(any(x.get("pruned") for x in pruned[:-1]))
        self.assertEqual(len(concrete_states(full)),
                         full[-1]["concrete_states"])

    def test_prune_none_keeps_the_figures(self):
        for extra in ((), ("--prune", "none")):
            s = explore_json("bstack.bc", "bstack", "protocol", 3, *extra)
            seq = s["sequences"]
            self.assertEqual((seq["normal"], seq["terminated"],
                              seq["discarded"], seq["pruned_state"]),
                             (111, 28, 120, 0))
            self.assertEqual(s["prune"], "none")
            self.assertEqual(s["concrete_states"], bstack_model(3))
        s = explore_json("bstack.bc", "bstack", "protocol", 6, "--prune",
                         "none")
        seq = s["sequences"]
        self.assertEqual(seq["normal"] + seq["terminated"], 17935)
        self.assertEqual(seq["pruned_state"], 0)
        self.assertEqual(s["concrete_states"], bstack_model(6))

    def test_text_report_counts_pruned_and_states(self):
        out = bcwalk("explore", example("bstack.bc"), "--unit", "bstack",
                     "--depth", "6", check=0).stdout
        self.assertIn("Discarded 55848 test sequences whose prefixes were "
                      "pruned\nPruned 36648 of them below sequences that "
                      "reached an already visited concrete state\n"
                      "Reached 42 distinct concrete states\n", out)

    def test_an_observer_with_a_hidden_side_effect_is_flagged(self):
        roles = {m["name"]: m["role"] for m in json.loads(bcwalk(
            "analyze", example("tally.bc"), "--format", "json",
            check=0).stdout)["units"][0]["methods"]}
        self.assertEqual(roles["tally_last"], "observer")
        s = explore_json("tally.bc", "tally", "protocol", 3)
        # 1 + 3 + 9 sequences end in tally_last, every one bumps `reads`
        self.assertEqual(s["warnings"], [
            "tally_last was classified an observer but changed the concrete "
            "state in 13 runs (a side effect the analysis missed)"])
        out = bcwalk("explore", example("tally.bc"), "--unit", "tally",
                     "--depth", "2", check=0).stdout
        self.assertIn("Warning: tally_last was classified an observer but "
                      "changed the concrete state in 4 runs", out)
        for bc, unit in (("bstack.bc", "bstack"), ("ringq.bc", "ringq"),
                         ("counter.bc", "counter"), ("hset.bc", "hset")):
            self.assertEqual(explore_json(bc, unit, "protocol", 3)["warnings"],
                             [], bc)

    def test_states_are_the_same_in_every_worker(self):
        # dlist leaves dangling handles: freed blocks hash by offset
        one = jsonl("dlist.bc", "dlist", "protocol", 4, "--jobs", "1")
        two = jsonl("dlist.bc", "dlist", "protocol", 4, "--jobs", "2")
        self.assertEqual([x.get("concrete_state") for x in one[:-1]],
                         [x.get("concrete_state") for x in two[:-1]])



class DeepWalks(unittest.TestCase):
    """A sequence that gives out more than 64 pointers: the worker's
    table numbering them (ptr#k) once held 64 and was read past its end,
    giving a pointer met again past the 64th a new number."""

    @staticmethod
    def rung(step):
        """The rung ladder_climb steps on at its step-th call (from 0)."""
        up = step % (2 * 66 - 2)
        return up if up < 66 else 2 * 66 - 2 - up

    def test_ladder_keeps_every_pointer_number_at_depth_70(self):
        for calls in ("stub", "ffi"):
            with self.subTest(calls=calls):
                lines = jsonl("ladder.bc", "ladder", "protocol", 70,
                              "--calls", calls)
                seqs, summary = lines[:-1], lines[-1]
                self.assertEqual(summary["sequences"]["normal"], 71)
                self.assertEqual(summary["concrete_states"], 71)
                # rungs 0 .. 65 are new pointers, numbered in order; from
                # the 67th call the ladder goes down: rungs 64, 63 ...
                # again, with the numbers they had
                for s in seqs:
                    self.assertEqual(
                        [c["result"] for c in s["calls"][1:]],
                        ["ptr#%d" % self.rung(k) for k in range(s["length"])])
                self.assertEqual(
                    [c["result"] for c in seqs[-1]["calls"][-5:]],
                    ["ptr#65", "ptr#64", "ptr#63", "ptr#62", "ptr#61"])

if __name__ == "__main__":
    common.main()
