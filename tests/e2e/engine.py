"""engine.py - the walk engine's promises: every core gives the answer
one core gives, byte for byte; a walk split into shards merges into what
one run gives; any results file prints its report again."""
import json
import os
import unittest

import common
from common import bcwalk, example, without_timing


# Units of every kind of outcome: normal walks, crashes and worker
# restarts (faulty, memfault, twofree), leaks, handles, callbacks, text,
# state walks.  hostile.py checks hostile.c's walk on one and two workers.
UNITS = [("bstack.bc", "bstack", "protocol", 4), ("bstack.bc", "bstack",
                                                  "algebra", 4),
         ("account.bc", "account", "state", 3), ("faulty.bc", "faulty",
                                                 "protocol", 2),
         ("memfault.bc", "mf", "protocol", 2), ("twofree.bc", "box",
                                                     "protocol", 2),
         ("slist.bc", "entry", "protocol", 2), ("cbmap.bc", "cbmap",
                                                "protocol", 2),
         ("str.bc", "str", "protocol", 2), ("sbuf.bc", "sbuf", "protocol", 2),
         ("undo.bc", "undo", "protocol", 2), ("tally.bc", "tally", "state", 2),
         ("hset.bc", "hset", "protocol", 2), ("ringq.bc", "ringq", "protocol",
                                              2)]


class Jobs(unittest.TestCase):
    """--jobs: the workers share the walk's batches as they free up; the
    report, the jsonl and the results file are those of one worker."""

    def test_examples_walk_the_same_on_one_and_two_workers(self):
        for bc, unit, walk, depth in UNITS:
            runs = []
            for jobs in ("1", "2"):
                out = os.path.join(common.ARGS.tmp, "%s.%s.j%s.msgpack"
                                   % (bc, unit, jobs))
                p = bcwalk("explore", example(bc), "--unit", unit, "--walk",
                           walk, "--depth", str(depth), "--format", "jsonl",
                           "--jobs", jobs, "-o", out, check=0)
                with open(out, "rb") as f:
                    runs.append((without_timing([json.loads(line) for line
                                                 in p.stdout.splitlines()]),
                                 f.read()))
            with self.subTest(bc=bc, unit=unit):
                self.assertEqual(runs[0][0], runs[1][0])
                self.assertEqual(runs[0][1], runs[1][1])


if __name__ == "__main__":
    common.main()
