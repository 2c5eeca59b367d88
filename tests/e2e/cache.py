"""cache.py - end-to-end tests of the model, worker and generator cache:
an entry truncated, changed or half removed is rebuilt, the run gives the
clean run's report, and the entry is whole again; a walk that cannot finish
(its worker not built or not started) is exit 3, bad input still 2.
ctest runs this file as test_e2e_cache."""
import os
import re
import shutil
import stat
import subprocess
import tempfile
import unittest

import common
from common import bcw_hash, example, source



def walk(cache):
    """A walk of the bounded stack with its cache in folder `cache`."""
    return run(cache, "explore", example("bstack.bc"), "--unit", "bstack",
               "--depth", "2")


def run(cache, *args):
    """bcwalk with its cache in folder `cache`."""
    env = dict(os.environ, XDG_CACHE_HOME=cache)
    return subprocess.run([common.ARGS.bcwalk, *args], capture_output=True,
                          text=True, env=env, timeout=300)


def entry_of(cache):
    """The worker cache entry (a folder named by its 16-digit key)."""
    root = os.path.join(cache, "bcwalk")
    [name] = [n for n in os.listdir(root) if re.fullmatch("[0-9a-f]{16}", n)]
    return os.path.join(root, name)


def files_in(folder):
    """Each file's name and bytes."""
    out = {}
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name), "rb") as f:
            out[name] = f.read()
    return out


def write(path, data, mode=0o644):
    with open(path, "wb") as f:
        f.write(data)
    os.chmod(path, mode)


class Entries(unittest.TestCase):
    """One clean run fills a fresh cache; each damage is then done to a
    copy of it, and the next run must repair it."""

    @classmethod
    def setUpClass(cls):
        cls.clean = tempfile.mkdtemp()
        p = walk(cls.clean)
        assert p.returncode == 0, p.stderr
        cls.report = p.stdout
        cls.root = os.path.join(cls.clean, "bcwalk")
        [cls.model] = os.listdir(os.path.join(cls.root, "models"))
        cls.models = files_in(os.path.join(cls.root, "models"))
        cls.entry = os.path.basename(entry_of(cls.clean))
        cls.worker = files_in(entry_of(cls.clean))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.clean)

    def damaged(self, damage):
        """Runs the walk on a copy of the clean cache after `damage(root)`:
        the report is the clean run's, the model and worker entries
        are the clean ones again, and nothing temporary is left."""
        with tempfile.TemporaryDirectory() as cache:
            root = os.path.join(cache, "bcwalk")
            shutil.copytree(self.root, root)
            damage(root)
            p = walk(cache)
            self.assertEqual((p.returncode, p.stderr), (0, ""))
            self.assertEqual(p.stdout, self.report)
            self.assertEqual(files_in(os.path.join(root, "models")),
                             self.models)
            self.assertEqual(files_in(os.path.join(root, self.entry)),
                             self.worker)
            mode = os.stat(os.path.join(root, self.entry, "worker")).st_mode
            self.assertTrue(mode & stat.S_IXUSR)
            self.assertEqual(sorted(os.listdir(root)),
                             sorted([self.entry, "models"]))

    def test_the_entries_carry_their_checksums(self):
        [model] = common.msgpack_stream(os.path.join(self.root, "models",
                                                     self.model))
        data = self.models[self.model]
        # docs/model.md: the last entry, over every byte before its 8
        self.assertEqual(list(model)[-1], "checksum")
        self.assertEqual(model["checksum"], bcw_hash(data[:-8]))
        self.assertEqual(self.worker["checksum"].decode(),
                         "%016x\n" % bcw_hash(self.worker["worker"]))
        self.assertNotIn("note", self.worker)

    def test_a_damaged_model_entry_is_analysed_again(self):
        path = lambda root: os.path.join(root, "models", self.model)
        data = self.models[self.model]
        middle = len(data) // 2
        flipped = data[:middle] + bytes([data[middle] ^ 0x5a]) + \
            data[middle + 1:]
        # a name changed: still a model that parses, only the checksum
        # tells (an older bcwalk walked "bstack_pusH")
        renamed = data.replace(b"bstack_push", b"bstack_pusH")
        self.assertNotEqual(renamed, data)
        for what, bad in (("truncated by half", data[:middle]),
                          ("its last byte cut", data[:-1]),
                          ("emptied", b""),
                          ("a byte flipped", flipped),
                          ("a name changed", renamed),
                          ("its checksum changed",
                           data[:-1] + bytes([data[-1] ^ 1]))):
            with self.subTest(what):
                self.damaged(lambda root: write(path(root), bad))

    def test_a_damaged_worker_entry_is_built_again(self):
        worker = self.worker["worker"]
        middle = len(worker) // 2
        flipped = worker[:middle] + bytes([worker[middle] ^ 0x5a]) + \
            worker[middle + 1:]

        def at(name, data, mode=0o755):
            return lambda root: write(os.path.join(root, self.entry, name),
                                      data, mode)

        def remove(name):
            return lambda root: os.unlink(os.path.join(root, self.entry,
                                                       name))

        def replace_by_file(root):
            shutil.rmtree(os.path.join(root, self.entry))
            write(os.path.join(root, self.entry), b"junk")
        for what, damage in (
                ("worker truncated", at("worker", worker[:middle])),
                ("worker's bytes changed", at("worker", flipped)),
                ("worker a script that never says hello",
                 at("worker", b"#!/bin/sh\nexit 0\n")),
                ("worker not executable", at("worker", worker, 0o644)),
                ("worker removed", remove("worker")),
                ("a note that was never written",
                 at("note", b"\xff\xfe garbage\n", 0o644)),
                ("checksum emptied", at("checksum", b"", 0o644)),
                ("checksum removed", remove("checksum")),
                ("the entry a file", replace_by_file)):
            with self.subTest(what):
                self.damaged(damage)


class GeneratorEntry(unittest.TestCase):
    """A custom generator's shared object is cached with a checksum; a
    damaged one is built again and the walk is the clean one's."""

    def test_a_damaged_generator_is_built_again(self):
        args = ("explore", example("bstack.bc"), "--unit", "bstack",
                "--depth", "2", "--generator",
                source("examples", "gen_index.c"))
        with tempfile.TemporaryDirectory() as cache:
            clean = run(cache, *args)
            self.assertEqual(clean.returncode, 0, clean.stderr)
            folder = os.path.join(cache, "bcwalk", "generators")
            [so] = [n for n in os.listdir(folder) if n.endswith(".so")]
            so, sum_ = os.path.join(folder, so), os.path.join(
                folder, so[:-3] + ".sum")
            with open(so, "rb") as f:
                data = f.read()

            def whole():
                with open(so, "rb") as f, open(sum_) as g:
                    return g.read() == "%016x\n" % bcw_hash(f.read())
            self.assertTrue(whole())
            middle = len(data) // 2
            for what, damage in (
                    ("truncated", lambda: write(so, data[:middle])),
                    ("a byte flipped",
                     lambda: write(so, data[:middle] +
                                   bytes([data[middle] ^ 0x5a]) +
                                   data[middle + 1:])),
                    ("its checksum removed", lambda: os.unlink(sum_))):
                with self.subTest(what):
                    damage()
                    p = run(cache, *args)
                    self.assertEqual((p.returncode, p.stderr), (0, ""))
                    self.assertEqual(p.stdout, clean.stdout)
                    self.assertTrue(whole())
                    self.assertEqual(
                        [n for n in os.listdir(folder) if "tmp" in n], [])


class CannotFinish(unittest.TestCase):
    """Exit 3: the input is good, but the walk could not run to its end;
    one line on stderr says why."""

    def expect_unfinished(self, cache, needle):
        p = walk(cache)
        lines = p.stderr.strip().splitlines()
        self.assertEqual((p.returncode, len(lines)), (3, 1), p.stderr)
        self.assertTrue(lines[0].startswith("bcwalk: "), lines[0])
        self.assertIn(needle, lines[0])
        self.assertNotIn("Test summary", p.stdout)
        return lines[0]

    def test_a_worker_that_does_not_start(self):
        # an entry whose checksum holds (as a build from an incompatible
        # runtime would), but whose worker exits before its hello
        with tempfile.TemporaryDirectory() as cache:
            self.assertEqual(walk(cache).returncode, 0)
            entry = entry_of(cache)
            script = b"#!/bin/sh\nexit 0\n"
            write(os.path.join(entry, "worker"), script, 0o755)
            write(os.path.join(entry, "checksum"),
                  b"%016x\n" % bcw_hash(script))
            line = self.expect_unfinished(cache, "did not start")
            self.assertIn("worker %s/worker" % entry, line)

    def test_a_worker_that_cannot_be_built(self):
        # the cache folder cannot be made under a file
        line = self.expect_unfinished("/dev/null",
                                      "mkdir /dev/null/bcwalk: Not a "
                                      "directory")
        self.assertEqual(line, "bcwalk: mkdir /dev/null/bcwalk: Not a "
                               "directory")

    def test_bad_input_is_still_2(self):
        # the same broken cache, but an unknown unit: the user's to fix
        p = run("/dev/null", "explore", example("bstack.bc"), "--unit",
                "stack")
        self.assertEqual((p.returncode, p.stderr.count("\n")), (2, 1))
        self.assertIn("no unit named 'stack'", p.stderr)
        # an output in a folder that does not exist is the user's too
        p = run("/dev/null", "analyze", example("bstack.bc"), "-o",
                "/nonexistent/dir/m.msgpack")
        self.assertEqual((p.returncode, p.stderr.count("\n")), (2, 1))
        self.assertIn("/nonexistent/dir/m.msgpack", p.stderr)


if __name__ == "__main__":
    common.main()
