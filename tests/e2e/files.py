"""files.py - end-to-end tests of results and model files, decoded by
python3-msgpack, and the model cache. ctest runs this file as
test_e2e_files."""
import json
import os
import subprocess
import tempfile
import unittest

import common
from common import bcwalk, example, msgpack_stream


class Files(unittest.TestCase):
    def test_results_file_is_written_atomically(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "walk.results.msgpack")
            p = bcwalk("explore", example("bstack.bc"), "--unit", "bstack",
                       "--depth", "3", "--format", "json", "-o", path,
                       check=0)
            data = open(path, "rb").read()
            self.assertIn(b"bcwalk-results", data[:64])
            self.assertIn(b"summary", data[-200:])
            self.assertEqual(os.listdir(d), ["walk.results.msgpack"])
            objs = msgpack_stream(path)
        # docs/results.md: a header, one array per sequence run, the
        # replay section, a trailer
        header, seqs, replay, trailer = objs[0], objs[1:-2], objs[-2], objs[-1]
        self.assertEqual(replay["replay"]["argv"][:2],
                         ["explore", example("bstack.bc")])
        self.assertIsNone(replay["replay"]["shard"])
        self.assertEqual({k: header[k] for k in ("format", "version", "unit",
                                                 "walk", "depth")},
                         {"format": "bcwalk-results", "version": 12,
                          "unit": "bstack", "walk": "protocol", "depth": 3})
        fns = [f["name"] for f in header["functions"]]
        self.assertEqual(fns[:3], ["bstack_new", "bstack_free", "bstack_push"])
        summary = json.loads(p.stdout)["sequences"]
        self.assertEqual(len(seqs), summary["normal"] + summary["terminated"])
        self.assertEqual({k: trailer["summary"][k] for k in
                          ("normal", "terminated", "discarded")},
                         {"normal": 111, "terminated": 28, "discarded": 120})
        self.assertEqual(trailer["summary"]["calls"], json.loads(p.stdout)
                         ["calls"])
        # a sequence's steps index the functions, the constructor first;
        # its results are raw words: bstack_new's is the unit (1 << 56)
        steps, results, outcome = seqs[0][:3]
        self.assertEqual(([fns[i] for i in steps], results, outcome),
                         (["bstack_new"], [1 << 56], 0))
        # bstack_pop on a new stack aborts (outcome 2) at method 1
        pop = next(s for s in seqs if [fns[i] for i in s[0]] ==
                   ["bstack_new", "bstack_pop"])
        self.assertEqual((pop[2], pop[4]), (2, 1))
        # with its cause in words, as the reports have it; no leak, no text
        self.assertEqual(pop[8:], ["abort() called in bstack_pop "
                                   "(bstack.c:50)", None, None])
        self.assertTrue(all(s[8] is None for s in seqs if s[2] == 0))
        # the trailer's checksum, last: one byte changed anywhere and
        # the file is refused, not read as other results
        self.assertEqual(list(trailer)[-1], "checksum")
        with tempfile.TemporaryDirectory() as d:
            bad = os.path.join(d, "bad.msgpack")
            for at in (len(data) // 3, len(data) // 2, len(data) - 20):
                changed = bytearray(data)
                changed[at] ^= 0x01
                with open(bad, "wb") as f:
                    f.write(changed)
                q = bcwalk("report", bad, check=2)
                self.assertIn("corrupt results file (its checksum does not "
                              "match its bytes)", q.stderr)
            with open(bad, "wb") as f:
                f.write(data)
            bcwalk("report", bad, check=0)

    def test_results_keep_leaks_and_texts(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "enc.results.msgpack")
            bcwalk("explore", example("enc.bc"), "--unit", "enc", "--depth",
                   "2", "--format", "json", "-o", path, check=0)
            objs = msgpack_stream(path)
            leaky = os.path.join(d, "faulty.results.msgpack")
            bcwalk("explore", example("faulty.bc"), "--unit", "faulty",
                   "--depth", "1", "--timeout", "200", "--format", "json",
                   "-o", leaky, check=0)
            faulty = msgpack_stream(leaky)
        fns = [f["name"] for f in objs[0]["functions"]]
        # enc_name's string by its bytes, enc_copy's buffer by its content
        texts = [(fns[s[0][-1]], s[10]) for s in objs[1:-2]
                 if s[10] is not None]
        self.assertIn(("enc_name", b"caf\xe9"), texts)
        self.assertIn(("enc_copy", b""), texts)
        self.assertTrue(all(fn in ("enc_name", "enc_copy")
                            for fn, _ in texts))
        leaks = [s[9] for s in faulty[1:-2] if s[9] is not None]
        self.assertTrue(leaks)
        self.assertTrue(all("left by faulty_free" in w for w in leaks), leaks)

    def test_unwritable_results_file_is_a_clear_error(self):
        p = bcwalk("explore", example("bstack.bc"), "--unit", "bstack",
                   "-o", "/nonexistent/dir/x.msgpack", check=2)
        self.assertIn("/nonexistent/dir/x.msgpack", p.stderr)
        self.assertEqual(p.stdout, "")


class CarefulWrites(unittest.TestCase):
    """Outputs as a careful tool writes them (issue 30): through a link
    to its target, never over a device or an input, never one lost to
    another, and no temporary left when the disk or a limit says no."""

    def walk(self, *extra, check=None, env=None, preexec_fn=None):
        args = [common.ARGS.bcwalk, "explore", example("bstack.bc"),
                "--unit", "bstack", "--depth", "2", "--format", "json",
                *extra]
        p = subprocess.run(args, capture_output=True, text=True, timeout=300,
                           env=env or dict(os.environ,
                                           XDG_CACHE_HOME=common.ARGS.cache),
                           preexec_fn=preexec_fn)
        if check is not None:
            self.assertEqual(p.returncode, check, p.stderr)
        return p

    def test_an_output_that_is_a_link_is_written_to_its_target(self):
        with tempfile.TemporaryDirectory() as d:
            target = os.path.join(d, "target.msgpack")
            link = os.path.join(d, "latest.msgpack")
            open(target, "w").close()
            os.symlink("target.msgpack", link)
            self.walk("-o", link, check=0)
            self.assertTrue(os.path.islink(link))
            self.assertEqual(msgpack_stream(target)[0]["format"],
                             "bcwalk-results")
            self.assertEqual(sorted(os.listdir(d)),
                             ["latest.msgpack", "target.msgpack"])
            # a link to nothing, and a device, are refused before the walk
            os.symlink("gone", os.path.join(d, "dangling"))
            p = self.walk("-o", os.path.join(d, "dangling"), check=2)
            self.assertIn("a symbolic link to nothing", p.stderr)
            p = self.walk("--html", "/dev/null", check=2)
            self.assertIn("/dev/null: not a regular file", p.stderr)
            self.assertTrue(os.path.exists("/dev/null"))

    def test_two_outputs_of_one_file_are_refused_before_the_walk(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "out")
            p = self.walk("-o", out, "--html", os.path.join(d, ".", "out"),
                          check=2)
            self.assertIn("-o and --html name one file", p.stderr)
            self.assertEqual(os.listdir(d), [])
            p = self.walk("-o", out, "--checkpoint", out, check=2)
            self.assertIn("-o and --checkpoint name one file", p.stderr)
            self.assertEqual(os.listdir(d), [])

    def test_a_file_size_limit_is_a_clear_error_and_leaves_nothing(self):
        import resource

        def small():
            resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "out")
            os.mkdir(out)
            os.mkdir(os.path.join(d, "cache"))
            env = dict(os.environ, XDG_CACHE_HOME=os.path.join(d, "cache"))
            # the worker's build in the cache: said, and nothing left
            p = self.walk("-o", os.path.join(out, "r.msgpack"), env=env,
                          preexec_fn=small, check=3)
            self.assertIn("File too large", p.stderr)
            self.assertEqual(os.listdir(out), [])
            cache = os.path.join(d, "cache", "bcwalk")
            self.assertEqual([f for f in os.listdir(cache)
                              if f.startswith("tmp.")], [])
            # the worker built already: the walk's own files (its shared
            # memory, the results file) say it the same way
            self.walk(env=env, check=0)
            p = self.walk("-o", os.path.join(out, "r.msgpack"), env=env,
                          preexec_fn=small, check=3)
            self.assertIn("File too large", p.stderr)
            self.assertEqual(p.stderr.count("\n"), 1, p.stderr)
            self.assertEqual(os.listdir(out), [])

    def test_an_analysis_that_cannot_hand_its_model_back_says_why(self):
        # the child that reads the bitcode analyses it and writes the
        # model into an unlinked file: past `ulimit -f` that write fails,
        # said in one line, and no file is left
        import resource

        def tiny():
            resource.setrlimit(resource.RLIMIT_FSIZE, (512, 512))
        with tempfile.TemporaryDirectory() as d:
            env = dict(os.environ, XDG_CACHE_HOME=d, TMPDIR=d)
            p = subprocess.run([common.ARGS.bcwalk, "analyze",
                                example("bstack.bc")], env=env,
                               preexec_fn=tiny, capture_output=True,
                               text=True)
            self.assertEqual(
                (p.returncode, p.stderr),
                (3, "bcwalk: %s: the analysis could not hand its model "
                    "back through a file in %s: File too large\n"
                    % (example("bstack.bc"), d)))
            self.assertEqual(os.listdir(d), [])

    def test_a_full_disk_is_a_clear_error_and_leaves_nothing(self):
        # a filesystem of 64 KiB: the results file does not fit
        with tempfile.TemporaryDirectory() as d:
            if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k",
                               "tmpfs", d], capture_output=True).returncode:
                self.skipTest("cannot mount a small filesystem here (not "
                              "root)")
            try:
                p = self.walk("--depth", "4", "-o", os.path.join(d, "r"),
                              check=3)
                self.assertIn("No space left on device", p.stderr)
                self.assertEqual(p.stderr.count("\n"), 1, p.stderr)
                self.assertEqual(os.listdir(d), [])
            finally:
                subprocess.run(["umount", d])

    def test_a_home_that_is_not_there_is_not_made(self):
        with tempfile.TemporaryDirectory() as d:
            env = {k: v for k, v in os.environ.items()
                   if k != "XDG_CACHE_HOME"}
            env.update(HOME=os.path.join(d, "nowhere"), TMPDIR=d)
            self.walk(check=0, env=env)
            self.assertFalse(os.path.exists(os.path.join(d, "nowhere")))
            self.assertIn("bcwalk-cache-%d" % os.getuid(), os.listdir(d))


class ModelFiles(unittest.TestCase):
    def test_analyze_saves_a_model_file(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "bstack.model.msgpack")
            p = bcwalk("analyze", example("bstack.bc"), "-o", path, check=0)
            self.assertEqual(p.stdout, "")
            self.assertIn(b"bcwalk-model", open(path, "rb").read(64))
            self.assertEqual(os.listdir(d), ["bstack.model.msgpack"])
            [model] = msgpack_stream(path)
        # docs/model.md: one map; a unit is [name, ctype, size, ...,
        # functions, ...], a function [name, role, ...]
        self.assertEqual((model["format"], model["version"], model["file"]),
                         ("bcwalk-model", 16, example("bstack.bc")))
        [unit] = model["units"]
        self.assertEqual(unit[:3], ["bstack", "bstack", 16])
        roles = ["constructor", "init-constructor", "destructor", "observer",
                 "mutator", "empty cell"]
        saved = {f[0]: roles[f[1]] for f in unit[6]}
        shown = json.loads(bcwalk("analyze", example("bstack.bc"), "--format",
                                  "json", check=0).stdout)["units"][0]
        self.assertEqual(saved, {**{f["name"]: "constructor"
                                    for f in shown["constructors"]},
                                 **{f["name"]: "destructor"
                                    for f in shown["destructors"]},
                                 **{f["name"]: f["role"]
                                    for f in shown["methods"]}})
        self.assertEqual(model["syms"], list(saved))

    def test_explore_caches_the_model_and_survives_a_corrupt_cache(self):
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, XDG_CACHE_HOME=cache)
            args = [common.ARGS.bcwalk, "explore", example("bstack.bc"),
                    "--unit", "bstack", "--depth", "2", "--format", "jsonl"]
            first = subprocess.run(args, capture_output=True, text=True,
                                   env=env, check=True).stdout
            models = os.path.join(cache, "bcwalk", "models")
            [name] = os.listdir(models)
            with open(os.path.join(models, name), "wb") as f:
                f.write(b"\x93garbage")
            again = subprocess.run(args, capture_output=True, text=True,
                                   env=env, check=True).stdout
            strip = lambda out: out.splitlines()[:-1]
            self.assertEqual(strip(first), strip(again))
            self.assertIn(b"bcwalk-model",
                          open(os.path.join(models, name), "rb").read(64))
            # the cache holds a whole model again, not the garbage
            [model] = msgpack_stream(os.path.join(models, name))
            self.assertEqual([u[0] for u in model["units"]], ["bstack"])


if __name__ == "__main__":
    common.main()
