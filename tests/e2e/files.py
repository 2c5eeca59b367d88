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
                         {"format": "bcwalk-results", "version": 9,
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
                         ("bcwalk-model", 14, example("bstack.bc")))
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
