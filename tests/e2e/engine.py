"""engine.py - the walk engine's promises: every core gives the answer
one core gives, byte for byte; a walk split into shards merges into what
one run gives; any results file prints its report again."""
import json
import os
import shutil
import subprocess
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


def run_to(path, bc, unit, *args):
    """explore's jsonl of a walk, its results file written to `path`."""
    p = bcwalk("explore", example(bc), "--unit", unit, "--format", "jsonl",
               "-o", path, *args, check=0)
    return without_timing([json.loads(line) for line in p.stdout.splitlines()])


def read(path):
    with open(path, "rb") as f:
        return f.read()


def replay_of(path):
    """The replay section of results file `path`."""
    [replay] = [o["replay"] for o in common.msgpack_stream(path)
                if isinstance(o, dict) and "replay" in o]
    return replay


class Shards(unittest.TestCase):
    """--shard I/N and bcwalk merge: the shards' results files merge into
    the file one run of the whole walk writes, byte for byte."""

    WALKS = [("bstack.bc", "bstack", "--depth", "7", "--prune", "none"),
             ("bstack.bc", "bstack", "--depth", "9"),
             ("faulty.bc", "faulty", "--depth", "3"),
             ("account.bc", "account", "--walk", "state", "--depth", "3"),
             ("tally.bc", "tally", "--walk", "algebra", "--depth", "5"),
             ("cbmap.bc", "cbmap", "--depth", "3")]

    def shards(self, name, walk, n):
        tmp = common.ARGS.tmp
        paths = []
        ran = 0
        for i in range(n):
            path = os.path.join(tmp, "%s.shard%d.msgpack" % (name, i))
            lines = run_to(path, walk[0], walk[1], *walk[2:],
                           "--shard", "%d/%d" % (i, n))
            ran += len(lines) - 1
            paths.append(path)
        return paths, ran

    # the walks whose shards lay out their parts (docs/results.md,
    # "parts"), which merge copies: not the state walk, nor a walk pruned
    # by state apart (bstack at depth 9 prunes by default)
    LAID = {0, 2, 4, 5}

    def test_shards_merge_into_one_runs_results(self):
        tmp = common.ARGS.tmp
        for k, walk in enumerate(self.WALKS):
            with self.subTest(walk=walk):
                one = os.path.join(tmp, "one%d.msgpack" % k)
                lines = run_to(one, *walk)
                paths, ran = self.shards("w%d" % k, walk, 3)
                laid = [replay_of(p)["parts"] is not None for p in paths]
                self.assertEqual(laid, [k in self.LAID] * 3)
                self.assertIsNone(replay_of(one)["parts"])
                merged = os.path.join(tmp, "merged%d.msgpack" % k)
                bcwalk("merge", *paths, "-o", merged, check=0)
                self.assertEqual(read(merged), read(one))
                # with a report, merge walks again: the same file
                os.unlink(merged)
                p = bcwalk("merge", *paths, "-o", merged, "--format", "json",
                           check=0)
                self.assertEqual(json.loads(p.stdout)["sequences"],
                                 lines[-1]["sequences"])
                self.assertEqual(read(merged), read(one))
                if k == 0:
                    # shared out: the shards together ran less than three
                    # whole walks, yet more than one
                    self.assertLess(ran, 2 * (len(lines) - 1))
                    self.assertGreater(ran, len(lines) - 1)

    def test_shards_pruning_together_run_what_one_walk_runs(self):
        # --shard-sync: three shards at once, pruning by state, exchange
        # the keys of each length: together they run the one walk's
        # sequences and the lengths before the share-out thrice (which
        # each pruning apart exceeds), and merge into its results file
        tmp = common.ARGS.tmp
        walk = ("bstack.bc", "bstack", "--depth", "12", "--prune", "state")
        one = os.path.join(tmp, "sync-one.msgpack")
        whole = len(run_to(one, *walk)) - 1

        def together(sync):
            # each shard's output to a file: one blocked on a full pipe
            # would hold the others at their exchange
            procs, paths, outs = [], [], []
            for i in range(3):
                path = os.path.join(tmp, "sync%d.%d.msgpack" % (sync, i))
                cmd = [common.ARGS.bcwalk, "explore", example(walk[0]),
                       "--unit", walk[1], *walk[2:], "--format", "jsonl",
                       "-o", path, "--shard", "%d/3" % i]
                if sync:
                    cmd += ["--shard-sync", os.path.join(tmp, "sync-dir")]
                outs.append(open(path + ".jsonl", "w+"))
                procs.append(subprocess.Popen(
                    cmd, stdout=outs[-1], stderr=subprocess.DEVNULL,
                    env=dict(os.environ, XDG_CACHE_HOME=common.ARGS.cache)))
                paths.append(path)
            ran = 0
            for p, out in zip(procs, outs):
                self.assertEqual(p.wait(timeout=300), 0)
                out.seek(0)
                ran += len(out.read().splitlines()) - 1
                out.close()
            return paths, ran
        shutil.rmtree(os.path.join(tmp, "sync-dir"), ignore_errors=True)
        paths, ran = together(True)
        # pruning together, each shard runs its subtrees as the whole
        # walk does: their files lay out their parts for merge to copy
        self.assertTrue(all(replay_of(p)["parts"] for p in paths))
        _, apart = together(False)
        self.assertLess(ran, 1.1 * whole)
        self.assertGreater(apart, 1.25 * whole)
        merged = os.path.join(tmp, "sync-merged.msgpack")
        bcwalk("merge", *paths, "-o", merged, check=0)
        self.assertEqual(read(merged), read(one))
        p = bcwalk("explore", example("bstack.bc"), "--unit", "bstack",
                   "--shard-sync", tmp, "-o", merged, check=2)
        self.assertIn("--shard-sync is for a walk run in shards", p.stderr)
        # another shard's keys that are not keys: this shard stops, says
        # why, and leaves its mark for the shards waiting on it
        bad = os.path.join(tmp, "sync-bad")
        shutil.rmtree(bad, ignore_errors=True)
        os.makedirs(bad)
        for level in range(12):
            with open(os.path.join(bad, "length-%d.shard-1.keys" % level),
                      "wb") as f:
                f.write(b"not keys")
        p = bcwalk("explore", example(walk[0]), "--unit", walk[1],
                   *walk[2:], "--shard", "0/2", "--shard-sync", bad,
                   "-o", merged, check=None)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("not the keys of length", p.stderr)
        self.assertTrue(os.path.exists(os.path.join(bad, "shard-0.failed")))

    def test_report_prints_a_results_file_as_explore_did(self):
        tmp = common.ARGS.tmp
        path = os.path.join(tmp, "report.msgpack")
        lines = run_to(path, "faulty.bc", "faulty", "--depth", "3")
        again = bcwalk("report", path, "--format", "jsonl", check=0)
        again = without_timing([json.loads(line)
                                for line in again.stdout.splitlines()])
        # workers replaced is of the run, as its timing: a replay has none
        self.assertGreater(lines[-1].pop("worker_restarts"), 0)
        self.assertEqual(again[-1].pop("worker_restarts"), 0)
        self.assertEqual(again, lines)
        text = bcwalk("explore", example("faulty.bc"), "--unit", "faulty",
                      "--depth", "3", check=0).stdout
        self.assertEqual(bcwalk("report", path, check=0).stdout, text)

    def test_shards_whose_common_lengths_differ_are_refused(self):
        # the lengths every shard runs, recorded otherwise by one shard
        # (as a library giving other results from run to run would): the
        # merge says so rather than copying either
        walk = ("bstack.bc", "bstack", "--depth", "7", "--prune", "none")
        paths, _ = self.shards("differ", walk, 2)
        data = bytearray(read(paths[1]))
        u = common.msgpack.Unpacker(raw=False)
        u.feed(bytes(data))
        u.unpack()
        data[u.tell() + 3] ^= 1  # in the first sequence, its constructor's
        data[-8:] = common.bcw_checksum(data[:-8]).to_bytes(8, "big")
        with open(paths[1], "wb") as f:
            f.write(data)
        out = os.path.join(common.ARGS.tmp, "differ.msgpack")
        p = bcwalk("merge", *paths, "-o", out, check=2)
        self.assertIn("the lengths every shard runs differ", p.stderr)
        self.assertIn(paths[1], p.stderr)
        self.assertFalse(os.path.exists(out))

    def test_shards_that_do_not_make_a_walk_are_refused(self):
        walk = ("bstack.bc", "bstack", "--depth", "7", "--prune", "none")
        paths, _ = self.shards("bad", walk, 3)
        out = os.path.join(common.ARGS.tmp, "bad.msgpack")
        p = bcwalk("merge", paths[0], paths[2], "-o", out, check=2)
        self.assertIn("shard 1/3 is missing", p.stderr)
        p = bcwalk("merge", paths[0], paths[0], paths[1], "-o", out, check=2)
        self.assertIn("shard 0/3 a second time", p.stderr)
        other, _ = self.shards("other", ("bstack.bc", "bstack", "--depth",
                                         "6", "--prune", "none"), 3)
        p = bcwalk("merge", paths[0], other[1], paths[2], "-o", out, check=2)
        self.assertIn("not of the walk of the files before it", p.stderr)
        self.assertFalse(os.path.exists(out))
        with open(out, "wb") as f:
            f.write(read(paths[1])[:-40])
        p = bcwalk("report", out, check=2)
        self.assertIn(out, p.stderr)
        p = bcwalk("report", example("bstack.bc"), check=2)
        self.assertIn("not a bcwalk results file", p.stderr)
        p = bcwalk("explore", example("bstack.bc"), "--unit", "bstack",
                   "--shard", "3/3", "-o", out, check=2)
        self.assertIn("--shard takes I/N", p.stderr)


if __name__ == "__main__":
    common.main()
