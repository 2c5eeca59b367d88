"""walks.py - end-to-end tests of the protocol and algebra walks: JWalk's
BoundedStack counts, the text and jsonl reports, builds of the bitcode,
stubs and jobs. ctest runs this file as test_e2e_walks."""
import json
import re
import os
import random
import subprocess
import tempfile
import time
import unittest

import common
from common import bcwalk, example, explore_json, jsonl, msgpack_stream


class Walks(unittest.TestCase):
    def test_protocol_depth3_matches_jwalk_boundedstack(self):
        s = explore_json("bstack.bc", "bstack", "protocol", 3)
        seq = s["sequences"]
        self.assertEqual((seq["normal"], seq["terminated"], seq["discarded"]),
                         (111, 28, 120))
        self.assertEqual(s["unit"], "bstack")
        self.assertEqual(s["walk"], "protocol")
        self.assertEqual(s["depth"], 3)

    def test_algebra_depth3_matches_jwalk_boundedstack(self):
        s = explore_json("bstack.bc", "bstack", "algebra", 3)
        seq = s["sequences"]
        self.assertEqual((seq["normal"], seq["terminated"], seq["discarded"]),
                         (21, 4, 234))
        self.assertEqual(seq["predicted_void"], 6)
        self.assertEqual(seq["pruned_observer"], 150)

    def test_every_build_of_the_bitcode_gives_the_same_walk(self):
        def calls(lines):
            # a halt's source line needs debug info; its function not
            return [[dict(c, cause=c["cause"].split(" (")[0])
                     if "cause" in c else c for c in s["calls"]]
                    for s in lines[:-1]]
        a = jsonl("bstack.bc", "bstack", "protocol", 3)
        causes = {c["cause"] for s in a[:-1] for c in s["calls"]
                  if "cause" in c}
        self.assertEqual(causes, {"abort() called in bstack_pop (bstack.c:50)",
                                  "abort() called in bstack_top (bstack.c:57)"})
        for bc in ("bstack-O2.bc", "bstack-nodebug.bc", "bstack-opaque.bc",
                   "bstack-O2-opaque.bc", "bstack-O2-nodebug.bc"):
            b = jsonl(bc, "bstack", "protocol", 3)
            self.assertEqual(calls(a), calls(b), bc)
            self.assertEqual(a[-1]["sequences"], b[-1]["sequences"], bc)

    def test_text_report_is_jwalk_style_and_deterministic(self):
        args = ("explore", example("bstack.bc"), "--unit", "bstack",
                "--walk", "protocol", "--depth", "2")
        out = bcwalk(*args, check=0).stdout
        self.assertEqual(out, bcwalk(*args, check=0).stdout)
        self.assertIn("Exploring all method protocols of length: 0\n\n"
                      "bstack *target = bstack_new();\n==> #0\n", out)
        self.assertIn("bstack *target = bstack_new();\nbstack_push(target, 1);"
                      "\nbstack_top(target);\n==> 1\n", out)
        self.assertIn("bstack_pop(target);\n==> *abort* abort() called in "
                      "bstack_pop (bstack.c:50)\n", out)
        self.assertIn("Exercised 23 test sequences that executed normally",
                      out)
        self.assertIn("Discarded 12 test sequences whose prefixes had failed",
                      out)

    def test_algebra_text_withholds_void_results(self):
        out = bcwalk("explore", example("bstack.bc"), "--unit", "bstack",
                     "--walk", "algebra", "--depth", "3", check=0).stdout
        self.assertIn("Withheld 6 void results predicted from signatures",
                      out)
        self.assertIn("Exploring all algebraic constructions of length: 3",
                      out)
        self.assertNotIn("bstack_push(target, 1);\n==> void", out)

    def test_jsonl_streams_every_sequence_then_the_summary(self):
        lines = jsonl("bstack.bc", "bstack", "protocol", 3)
        seqs, summary = lines[:-1], lines[-1]
        self.assertEqual(len(seqs), 139)
        self.assertEqual(summary["sequences"]["normal"], 111)
        push2 = [s for s in seqs if [c["fn"] for c in s["calls"]] ==
                 ["bstack_new", "bstack_push", "bstack_push", "bstack_top"]]
        self.assertEqual(len(push2), 1)
        calls = push2[0]["calls"]
        self.assertEqual(calls[1]["args"], ["#0", "1"])
        self.assertEqual(calls[2]["args"], ["#0", "2"])
        self.assertEqual(calls[3]["result"], "2")
        self.assertNotIn("result", calls[1])  # void
        self.assertTrue(all(c["outcome"] == "normal" for c in calls))
        lengths = [s["length"] for s in seqs]
        self.assertEqual(lengths, sorted(lengths))

    def test_two_file_unit_walks_the_same_at_O0_and_O2(self):
        a = jsonl("iset.bc", "iset", "protocol", 3)
        b = jsonl("iset-O2-nodebug.bc", "iset", "protocol", 3)
        self.assertEqual([s["calls"] for s in a[:-1]],
                         [s["calls"] for s in b[:-1]])
        add2 = [s for s in a[:-1] if [c["fn"] for c in s["calls"]] ==
                ["iset_new", "iset_add", "iset_add", "iset_size"]]
        self.assertEqual(add2[0]["calls"][-1]["result"], "2")

    def test_libffi_and_typed_stubs_agree(self):
        for bc, unit in (("bstack.bc", "bstack"), ("counter.bc", "counter"),
                         ("bstack-nodebug.bc", "bstack"),
                         ("counter-O2-nodebug.bc", "counter")):
            stub = jsonl(bc, unit, "protocol", 3, "--calls", "stub")
            ffi = jsonl(bc, unit, "protocol", 3, "--calls", "ffi")
            for s in (stub[-1], ffi[-1]):
                for k in ("elapsed_s", "calls_per_s"):
                    del s[k]
            self.assertEqual(stub, ffi, bc)

    def test_jobs_do_not_change_the_results(self):
        one = jsonl("bstack.bc", "bstack", "protocol", 4, "--jobs", "1")
        two = jsonl("bstack.bc", "bstack", "protocol", 4, "--jobs", "2")
        for s in (one[-1], two[-1]):
            for k in ("elapsed_s", "calls_per_s"):
                del s[k]
        self.assertEqual(one, two)



class Progress(unittest.TestCase):
    """--progress: progress lines on stderr when it is not a terminal."""

    def test_progress_goes_to_stderr_only_when_asked(self):
        p = bcwalk("explore", example("bstack.bc"), "--unit", "bstack",
                   "--depth", "4", "--format", "json", "--progress",
                   check=0)
        doc = json.loads(p.stdout)  # the JSON untouched
        executed = doc["sequences"]["normal"] + doc["sequences"]["terminated"]
        last = p.stderr.splitlines()[-1]
        self.assertRegex(last, r"^progress: length 4/4: (\d+) of \1, %d "
                         r"sequences, \d+ states, \d+/s, 0\.0s left at this "
                         r"length, \d+\.\ds$" % executed)
        quiet = bcwalk("explore", example("bstack.bc"), "--unit", "bstack",
                       "--depth", "4", "--format", "json", check=0)
        self.assertEqual(quiet.stderr, "")
        self.assertEqual(json.loads(quiet.stdout)["sequences"],
                         doc["sequences"])


class BoundedReport(unittest.TestCase):
    """--max-report MB (default 1024) and --force: a text report that
    would go on past its limit stops the walk there, the summary first;
    the text report starts with the summary and the distinct halts."""

    def walk(self, *extra):
        return bcwalk("explore", example("bstack.bc"), "--unit", "bstack",
                      "--depth", "6", "--prune", "none", *extra, raw=True)

    def test_a_text_report_past_its_limit_stops_the_walk(self):
        # the state walk's covers make its lengths' sizes uneven: it
        # stops at the limit itself
        p = self.walk("--walk", "state", "--depth", "5", "--max-report", "1")
        self.assertEqual(p.returncode, 3)
        out = p.stdout.decode()
        # a buffer past the limit at most, the summary first, and the
        # warning saying how to go on
        self.assertLess(len(p.stdout), (1 << 20) + (64 << 10))
        self.assertTrue(out.startswith("Test summary for unit: bstack"))
        self.assertIn("Warning: the walk stopped when its text report "
                      "passed 1 MiB (--max-report; --force lifts it)", out)
        err = p.stderr.decode().strip().splitlines()
        self.assertEqual(len(err), 1, err)
        self.assertIn("-o FILE and --format jsonl", err[0])

    def test_a_walk_growing_past_the_limit_stops_before(self):
        # a walk that prunes nothing: the report's size at its depth is
        # projected from each length done; past the limit it stops there
        p = self.walk("--max-report", "1")
        self.assertEqual(p.returncode, 3)
        self.assertLess(len(p.stdout), 64 << 10)
        out = p.stdout.decode()
        m = re.search(r"Warning: the walk stopped after its sequences of "
                      r"length (\d+): its text report would pass 1 MiB "
                      r"\(--max-report; --force lifts it\), about "
                      r"([0-9.]+) MiB by depth 6", out)
        self.assertIsNotNone(m, out[-2000:])
        # the whole walk's report, forced: the estimate is of its size,
        # within a factor of three
        whole = len(self.walk("--force").stdout) / (1 << 20)
        self.assertLess(float(m.group(2)), 3 * whole)
        self.assertGreater(float(m.group(2)), whole / 3)
        err = p.stderr.decode().strip().splitlines()
        self.assertEqual(len(err), 1, err)
        self.assertIn("about %s MiB by depth 6" % m.group(2), err[0])

    def test_the_summary_and_the_distinct_halts_come_first(self):
        out = bcwalk("explore", example("faulty.bc"), "--unit", "faulty",
                     "--depth", "2", check=0).stdout
        self.assertTrue(out.startswith("Test summary for unit: faulty\n"))
        summary = out.index("Reached ")
        halts = out.index("Distinct halts: 4, each with its shortest "
                          "sequence\n")
        first = out.index("Exploring all method protocols of length: 0")
        self.assertLess(summary, halts)
        self.assertLess(halts, first)
        listed = re.findall(r"^\d+\. (\w+): (\w+) ", out[halts:first], re.M)
        self.assertEqual(listed, [("faulty_crash", "crash"),
                                  ("faulty_hang", "hang"),
                                  ("faulty_check", "abort"),
                                  ("faulty_new", "leak")])
        # each with its shortest sequence, the one of length 1
        self.assertIn("1. faulty_crash: crash SIGSEGV: write to address 0x0 "
                      "in faulty_crash (faulty.c:38) (2 sequences, the "
                      "shortest of length 1)\nfaulty *target = faulty_new();"
                      "\nfaulty_crash(target);\n", out)
        # the halt listed, then each sequence in its place
        self.assertEqual(out.count("\nfaulty_crash(target);\n==> *crash*"),
                         1 + 2)

    def test_force_lifts_it_and_other_formats_have_none(self):
        p = self.walk("--max-report", "1", "--force")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertGreater(len(p.stdout), 1 << 20)
        self.assertNotIn(b"Warning: the walk stopped", p.stdout)
        p = self.walk("--max-report", "1", "--format", "jsonl")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertGreater(len(p.stdout), 1 << 20)


class Memory(unittest.TestCase):
    """--memory: the walk's own budget, never a silent cut."""

    def test_a_walk_past_its_budget_spills_and_says_where(self):
        # depth 8 unpruned: 488281 sequences, 50 MB of tree, in 1 MiB
        doc = explore_json("bstack.bc", "bstack", "protocol", 8, "--prune",
                           "none", "--memory", "1")
        whole = explore_json("bstack.bc", "bstack", "protocol", 8,
                             "--prune", "none")
        self.assertEqual(doc["spilled_at"], 6)
        self.assertIn("the walk's tree passed its memory budget of 1 MiB "
                      "(--memory) at length 6: from there on it was kept in "
                      "a file, paged by the system", doc["warnings"])
        self.assertNotIn("spilled_at", whole)
        self.assertEqual(doc["sequences"], whole["sequences"])
        self.assertEqual(doc["concrete_states"], whole["concrete_states"])

    def test_a_results_file_past_its_limit_stops_the_walk_partial(self):
        out = os.path.join(common.ARGS.tmp, "limited.msgpack")
        p = bcwalk("explore", example("bstack.bc"), "--unit", "bstack",
                   "--depth", "7", "--prune", "none", "--format", "json",
                   "-o", out, "--max-results", "1", check=3)
        doc = json.loads(p.stdout)
        self.assertTrue(doc["partial"])
        self.assertIn("the walk stopped when its results file passed its "
                      "limit of 1 MiB (--max-results): the file holds the "
                      "sequences before", doc["warnings"])
        self.assertIn("--max-results", p.stderr)
        objs = msgpack_stream(out)
        self.assertTrue(objs[-1]["summary"]["partial"])
        self.assertEqual(len(objs) - 2, doc["sequences"]["normal"] +
                         doc["sequences"]["terminated"])

    def test_a_walk_that_cannot_fit_says_so_before_it_starts(self):
        p = bcwalk("explore", example("bstack.bc"), "--unit", "bstack",
                   "--depth", "40", "--prune", "none", "--format", "json",
                   check=2)
        self.assertRegex(p.stderr, r"the walk cannot fit: its [0-9.e+]+ "
                         r"sequences would take about [0-9.e+]+ GiB, past its "
                         r"memory budget .* and the free disk it spills to ")
        self.assertEqual(p.stdout, "")


class Checkpoint(unittest.TestCase):
    """--checkpoint FILE, --resume, --time-limit: a walk killed at any
    moment goes on from its checkpoint, and its files are an uninterrupted
    run's byte for byte."""

    WALK = ("--unit", "bstack", "--depth", "9", "--prune", "none",
            "--format", "json")

    def walk(self, folder, name, *extra):
        out = os.path.join(folder, name)
        p = bcwalk("explore", example("bstack.bc"), *self.WALK, "-o", out,
                   *extra)
        return p, out

    def test_killed_at_random_moments_it_resumes_to_the_same_results(self):
        rng = random.Random(13)
        with tempfile.TemporaryDirectory() as folder:
            started = time.monotonic()
            _, whole = self.walk(folder, "whole.msgpack")
            # kills within the first half of a whole walk's time, so that
            # a walk of any speed is killed several times
            span = time.monotonic() - started
            ck = os.path.join(folder, "walk.ckpt")
            out = os.path.join(folder, "resumed.msgpack")
            env = dict(os.environ, XDG_CACHE_HOME=common.ARGS.cache)
            kills = 0
            for attempt in range(8):
                cmd = [common.ARGS.bcwalk, "explore", example("bstack.bc"),
                       *self.WALK, "-o", out, "--checkpoint", ck,
                       "--checkpoint-every", "1"]
                # (killed before it made the checkpoint, under load, it
                # starts anew)
                if attempt > 0 and os.path.exists(ck):
                    cmd.append("--resume")
                with tempfile.TemporaryFile() as err:
                    p = subprocess.Popen(cmd, env=env,
                                         stdout=subprocess.DEVNULL,
                                         stderr=err)
                    try:
                        p.wait(timeout=rng.uniform(0.1, 0.5) * span)
                    except subprocess.TimeoutExpired:
                        p.kill()  # SIGKILL: nothing of bcwalk's runs after
                        p.wait()
                        kills += 1
                        # the results file is renamed into place last:
                        # there, the walk had ended, killed as it exited
                        if os.path.exists(out):
                            break
                        continue
                    err.seek(0)
                    self.assertEqual(p.returncode, 0, err.read())
                break
            else:
                p = subprocess.run(cmd, env=env, capture_output=True)
                self.assertEqual(p.returncode, 0, p.stderr)
            self.assertGreaterEqual(kills, 3)
            with open(whole, "rb") as a, open(out, "rb") as b:
                self.assertEqual(a.read(), b.read())

    def test_a_time_limit_stops_partial_and_resume_finishes(self):
        with tempfile.TemporaryDirectory() as folder:
            ck = os.path.join(folder, "walk.ckpt")
            p, _ = self.walk(folder, "first.msgpack", "--checkpoint", ck,
                             "--time-limit", "1")
            self.assertEqual(p.returncode, 3, p.stderr)
            doc = json.loads(p.stdout)
            self.assertTrue(doc["partial"])
            self.assertIn("the walk stopped at its time limit, 1 s "
                          "(--time-limit): its results so far are in %s, "
                          "and --resume goes on from there" % ck,
                          doc["warnings"])
            p, resumed = self.walk(folder, "resumed.msgpack", "--checkpoint",
                                   ck, "--resume")
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertNotIn("partial", json.loads(p.stdout))
            _, whole = self.walk(folder, "whole.msgpack")
            with open(whole, "rb") as a, open(resumed, "rb") as b:
                self.assertEqual(a.read(), b.read())

    def test_a_checkpoint_of_another_walk_is_refused(self):
        with tempfile.TemporaryDirectory() as folder:
            ck = os.path.join(folder, "walk.ckpt")
            bcwalk("explore", example("bstack.bc"), "--unit", "bstack",
                   "--depth", "2", "--checkpoint", ck, check=0)
            # there already: not overwritten without --resume
            p = bcwalk("explore", example("bstack.bc"), "--unit", "bstack",
                       "--depth", "2", "--checkpoint", ck, check=2)
            self.assertIn("a checkpoint is already there: --resume", p.stderr)
            p = bcwalk("explore", example("bstack.bc"), "--unit", "bstack",
                       "--depth", "3", "--checkpoint", ck, "--resume",
                       check=2)
            self.assertIn("the checkpoint is of another walk", p.stderr)
            with open(ck, "r+b") as f:
                f.write(b"garbage!")
            p = bcwalk("explore", example("bstack.bc"), "--unit", "bstack",
                       "--depth", "2", "--checkpoint", ck, "--resume",
                       check=2)
            self.assertIn("not a bcwalk checkpoint", p.stderr)
            p = bcwalk("explore", example("bstack.bc"), "--unit", "bstack",
                       "--resume", check=2)
            self.assertIn("--resume goes on from a checkpoint", p.stderr)

    def test_a_torn_block_is_cut_and_the_walk_goes_on(self):
        with tempfile.TemporaryDirectory() as folder:
            ck = os.path.join(folder, "walk.ckpt")
            first = bcwalk("explore", example("bstack.bc"), "--unit", "bstack",
                           "--depth", "5", "--format", "jsonl",
                           "--checkpoint", ck, check=0).stdout
            size = os.path.getsize(ck)
            with open(ck, "r+b") as f:
                f.truncate(size - 5)  # a kill in the middle of a write
            again = bcwalk("explore", example("bstack.bc"), "--unit",
                           "bstack", "--depth", "5", "--format", "jsonl",
                           "--checkpoint", ck, "--resume", check=0).stdout
            self.assertEqual(without_timing_text(first),
                             without_timing_text(again))


def without_timing_text(jsonl_text):
    lines = [json.loads(l) for l in jsonl_text.splitlines()]
    return common.without_timing(lines)


if __name__ == "__main__":
    common.main()
