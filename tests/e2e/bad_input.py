"""bad_input.py - end-to-end tests of usage errors: files that are not
bitcode, bitcode bcwalk cannot read, debug info no compiler writes, bad
options and units. ctest runs this file as test_e2e_bad_input."""
import os
import random
import subprocess
import tempfile
import unittest

import common
from common import bcwalk, example, source


class BadInput(unittest.TestCase):
    def expect_usage_error(self, *args, needle):
        p = bcwalk(*args, check=2)
        self.assertEqual(p.stdout, "")
        lines = p.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, p.stderr)
        self.assertIn(needle, lines[0])

    def test_what_the_fuzzers_found_is_one_line(self):
        # tests/data/fuzz/HARNESS/: the inputs a fuzzer of fuzz/ crashed
        # on, each given to the command its harness runs in process
        # (fuzz/README.md), as the harness gave it: a report or one line
        # and exit 2, nothing crashed
        top = source("tests", "data", "fuzz")
        lcov = os.path.join(common.ARGS.tmp, "fuzz.info")
        commands = {
            "analyze": lambda f: ["analyze", f],
            "oracle": lambda f: ["oracle", "dump", f],
            "results": lambda f: ["report", f, "--format", "json"],
            "journal": lambda f: ["explore", example("bstack.bc"), "--unit",
                                  "bstack", "--depth", "2", "--coverage",
                                  lcov, "--checkpoint", f, "--resume",
                                  "--format", "json"],
            "learned": lambda f: ["explore", example("fifo.bc"), "--unit",
                                  "fifo", "--walk", "learned",
                                  "--from-tests", f, "--depth", "2",
                                  "--format", "json"],
        }
        seen = 0
        for harness in sorted(os.listdir(top)):
            for name in sorted(os.listdir(os.path.join(top, harness))):
                with self.subTest(harness=harness, input=name), \
                        tempfile.TemporaryDirectory() as d:
                    # a copy: a resumed walk appends to its journal
                    f = os.path.join(d, name)
                    with open(os.path.join(top, harness, name), "rb") as src, \
                            open(f, "wb") as dst:
                        dst.write(src.read())
                    p = bcwalk(*commands[harness](f), raw=True)
                    err = p.stderr.decode(errors="replace")
                    self.assertIn(p.returncode, (0, 2), err)
                    if p.returncode == 2:
                        self.assertEqual(len(err.strip().splitlines()), 1, err)
                    seen += 1
        self.assertGreater(seen, 0)

    def test_not_bitcode(self):
        self.expect_usage_error("analyze", __file__, needle="not LLVM bitcode")

    def test_functions_defined_in_no_file_are_named(self):
        # lonely.c calls lonely_tick, which another file would define
        self.expect_usage_error("explore", example("lonely.bc"), "--unit",
                                "lonely", "--depth", "1",
                                needle="functions it calls are defined in "
                                "no file of it: lonely_tick, lonely_read (give the files "
                                "defining them with --link A.bc,B.bc, or "
                                "link the library's files into one with "
                                "llvm-link")

    def test_a_unit_too_large_for_its_storage_is_named(self):
        # huge.c's init function makes a 1 MiB struct in the caller's
        # storage: said before any worker is built, not a worker that
        # "did not start"
        self.expect_usage_error("explore", example("huge.bc"), "--unit",
                                "huge", "--depth", "1",
                                needle="unit huge: bcwalk cannot build a "
                                "worker for a struct of 1048580 bytes that "
                                "huge_init makes in the caller's storage (at "
                                "most 65536 bytes)")

    def test_truncated_bitcode(self):
        with tempfile.NamedTemporaryFile(suffix=".bc") as f:
            f.write(open(example("bstack.bc"), "rb").read()[:700])
            f.flush()
            self.expect_usage_error("explore", f.name, "--unit", "bstack",
                                    needle="truncated")

    def test_a_closed_stdout_is_an_error(self):
        # not a report written into whatever bcwalk opens next as fd 1
        env = dict(os.environ, XDG_CACHE_HOME=common.ARGS.cache)
        p = subprocess.run(["sh", "-c", 'exec "$0" explore "$1" --unit bstack '
                            "--depth 1 >&-", common.ARGS.bcwalk,
                            example("bstack.bc")],
                           capture_output=True, text=True, env=env)
        self.assertEqual((p.returncode, p.stderr.strip()),
                         (2, "bcwalk: standard output is closed: reports go "
                             "there (redirect it, to /dev/null if need be)"))
        # closed stdin and stderr are /dev/null: the walk runs
        p = subprocess.run(["sh", "-c", 'exec "$0" explore "$1" --unit bstack '
                            "--depth 1 --format json <&- 2>&-",
                            common.ARGS.bcwalk, example("bstack.bc")],
                           capture_output=True, text=True, env=env)
        self.assertEqual(p.returncode, 0)
        self.assertIn('"unit": "bstack"', p.stdout)

    def test_a_reader_gone_ends_quietly_and_a_full_disk_does_not(self):
        # `bcwalk ... | head`: the reader leaves, bcwalk ends as cat
        # does, with no message; a write that fails otherwise is said
        env = dict(os.environ, XDG_CACHE_HOME=common.ARGS.cache)
        cmd = [common.ARGS.bcwalk, "explore", example("bstack.bc"), "--unit",
               "bstack", "--depth", "2"]
        r, w = os.pipe()
        os.close(r)
        try:
            p = subprocess.run(cmd, stdout=w, stderr=subprocess.PIPE,
                               text=True, env=env)
        finally:
            os.close(w)
        self.assertEqual((p.returncode, p.stderr), (141, ""))
        with open("/dev/full", "w") as full:
            p = subprocess.run(cmd, stdout=full, stderr=subprocess.PIPE,
                               text=True, env=env)
        self.assertEqual((p.returncode, p.stderr.strip()),
                         (3, "bcwalk: writing the report failed"))

    def test_output_never_replaces_the_input_or_a_device(self):
        with tempfile.TemporaryDirectory() as d:
            lib = os.path.join(d, "lib.bc")
            data = open(example("bstack.bc"), "rb").read()
            with open(lib, "wb") as f:
                f.write(data)
            self.expect_usage_error("explore", lib, "--unit", "bstack",
                                    "-o", lib, needle="--output %s is the "
                                    "bitcode file: it would be replaced" % lib)
            self.expect_usage_error("analyze", lib, "-o", lib,
                                    needle="it would be replaced")
            self.assertEqual(open(lib, "rb").read(), data)
        self.expect_usage_error("explore", example("bstack.bc"), "--unit",
                                "bstack", "-o", "/dev/null",
                                needle="--output /dev/null: not a regular "
                                "file (bcwalk replaces only files)")

    def test_a_fifo_or_device_is_refused_not_waited_on(self):
        with tempfile.TemporaryDirectory() as d:
            fifo = os.path.join(d, "lib.bc")
            os.mkfifo(fifo)
            self.expect_usage_error("analyze", fifo,
                                    needle="not a regular file")
        self.expect_usage_error("analyze", "/dev/zero",
                                needle="not a regular file")

    def test_mutated_bitcode_never_crashes_bcwalk(self):
        # bytes of a real module changed at random (a fixed seed): LLVM's
        # reader aborts or crashes on some; bcwalk reads each in a child
        # first, so every answer is a model or one line and exit 2
        rng = random.Random(7)
        with open(example("bstack.bc"), "rb") as f:
            data = f.read()
        answers = set()
        with tempfile.TemporaryDirectory() as d:
            for i in range(60):
                b = bytearray(data)
                for _ in range(rng.randint(1, 8)):
                    b[rng.randrange(len(b))] = rng.randrange(256)
                path = os.path.join(d, "m%d.bc" % i)
                with open(path, "wb") as f:
                    f.write(b)
                p = bcwalk("analyze", path, raw=True)
                self.assertIn(p.returncode, (0, 2), (i, p.stderr))
                # names a mutation damaged are still printed as text:
                # both decode as UTF-8
                p.stdout.decode()
                err = p.stderr.decode()
                if p.returncode == 2:
                    self.assertEqual(len(err.strip().splitlines()), 1, err)
                    answers.add(err.split("(")[0].split(": ", 2)[-1])
        # LLVM gave up on some inside the child: said, not crashed
        self.assertIn("invalid or truncated bitcode ", answers)

    def test_bitcode_from_a_newer_llvm(self):
        newer = source("tests", "data", "bstack-llvm19.bc")
        p = bcwalk("analyze", newer)
        if p.returncode == 0:  # this bcwalk is built against LLVM 19
            self.assertIn("unit bstack", p.stdout)
            return
        self.expect_usage_error("analyze", newer,
                                needle="bitcode from LLVM 19 cannot be read "
                                       "by bcwalk built with LLVM 14")

    def test_debug_info_no_compiler_writes_is_a_model_in_time(self):
        # tests/data/debuginfo/: a pointer, a const through a volatile and
        # typedefs that are their own base types, nulls among a struct's
        # members, which LLVM's verifier lets through; bcwalk followed
        # the cycles forever (a stack overflow, a loop, LLVM's sroa
        # looping) and crashed on the nulls.  Each is a model, with the
        # IR's type where debug info's never ends.
        env = dict(os.environ, XDG_CACHE_HOME=common.ARGS.cache)
        for name, line in (
                ("self-pointer", "int box_get(struct box *p1)"),
                ("qualifier-cycle", "int box_get(struct box *p1)"),
                ("null-member", "void box_set(box *b, enum mode v)"),
                ("self-typedef", "void box_set(struct box *p1, int p2)")):
            with self.subTest(name), tempfile.TemporaryDirectory() as d:
                bc = os.path.join(d, name + ".bc")
                subprocess.run([common.ARGS.clang, "-c", "-emit-llvm",
                                source("tests", "data", "debuginfo",
                                       name + ".ll"), "-o", bc], check=True)
                try:
                    p = subprocess.run([common.ARGS.bcwalk, "analyze", bc],
                                       capture_output=True, text=True,
                                       env=env, timeout=60)
                except subprocess.TimeoutExpired:
                    self.fail("bcwalk analyze %s.ll: no answer in 60 s"
                              % name)
                # a signal is a negative return code
                self.assertEqual(p.returncode, 0, p.stderr)
                self.assertIn("unit box (", p.stdout)
                self.assertIn(line, p.stdout)
                # and walked: the worker's build (clang on the unit's
                # bitcode) does not hang on them either
                try:
                    p = subprocess.run(
                        [common.ARGS.bcwalk, "explore", bc, "--unit", "box",
                         "--depth", "1", "--format", "json"],
                        capture_output=True, text=True, env=env, timeout=120)
                except subprocess.TimeoutExpired:
                    self.fail("bcwalk explore %s.ll: no answer in 120 s"
                              % name)
                self.assertEqual(p.returncode, 0, p.stderr)

    def test_missing_file(self):
        self.expect_usage_error("analyze", "/nonexistent.bc",
                                needle="/nonexistent.bc")

    def test_no_unit(self):
        self.expect_usage_error("analyze", example("nounit.bc"),
                                needle="no unit found")

    def test_unknown_unit(self):
        self.expect_usage_error("explore", example("bstack.bc"), "--unit",
                                "stack", needle="no unit named 'stack'")

    def compiled(self, d, name, *flags):
        """tests/data/NAME compiled to bitcode in d by the tests' clang."""
        bc = os.path.join(d, name + ("+g" if flags else "") + ".bc")
        subprocess.run([common.ARGS.clang, "-c", "-emit-llvm", *flags,
                        source("tests", "data", name), "-o", bc], check=True)
        return bc

    def test_a_typedef_name_without_debug_info_asks_for_g(self):
        # issue 31: "no unit named Queue" without a word about -g, where
        # the typedef's name comes from
        with tempfile.TemporaryDirectory() as d:
            plain = self.compiled(d, "typedef_queue.c")
            self.expect_usage_error(
                "explore", plain, "--unit", "Queue",
                needle="no unit named 'Queue'; typedef names come from debug "
                       "information, which the bitcode lacks: compile it "
                       "with -g (units: ")
            debug = self.compiled(d, "typedef_queue.c", "-g")
            self.assertIn("unit _Queue (Queue, ",
                          bcwalk("analyze", debug).stdout)
            p = bcwalk("explore", debug, "--unit", "Stack", check=2)
            self.assertIn("no unit named 'Stack' (units: _Queue (Queue))",
                          p.stderr)
            self.assertNotIn("debug information", p.stderr)

    def test_cxx_bitcode_is_said_to_be_cxx(self):
        # issue 31: C++ bitcode got "no unit found" without a word about
        # C++: its debug information's language says so, or without -g
        # its mangled names
        for flags, why in ((("-g",), "its debug information's language is "
                                     "C++"),
                           ((), "_Z10make_stackv is a mangled name")):
            with self.subTest(flags), tempfile.TemporaryDirectory() as d:
                bc = self.compiled(d, "cxx_stack.cpp", *flags)
                self.expect_usage_error(
                    "analyze", bc,
                    needle="no unit found (a unit is a struct with a "
                           "constructor returning T * or an init function "
                           "T_init(T *)); this looks like C++ (%s): bcwalk "
                           "walks C interfaces, so give each class extern "
                           "\"C\" wrappers (T *T_new(...), T_free(T *), "
                           "T_method(T *, ...)); structs: " % why)
        p = bcwalk("analyze", example("nounit.bc"), check=2)
        self.assertNotIn("C++", p.stderr)
        # each struct listed once, the last one too
        for flags in (("-g",), ()):
            with tempfile.TemporaryDirectory() as d:
                err = bcwalk("analyze", self.compiled(d, "cxx_stack.cpp",
                                                      *flags),
                             check=2).stderr
                structs = err.split("structs:")[1].split(";")[0].split()
                self.assertEqual(len(structs), len(set(structs)), err)

    def test_bad_depth(self):
        for d in ("0", "-1", "three", "3x", "1000"):
            self.expect_usage_error("explore", example("bstack.bc"), "--unit",
                                    "bstack", "--depth", d, needle="--depth")

    def test_bad_prune(self):
        self.expect_usage_error("explore", example("bstack.bc"), "--unit",
                                "bstack", "--prune", "all",
                                needle="unknown --prune 'all'")

    def test_unknown_option_and_command(self):
        self.expect_usage_error("explore", example("bstack.bc"), "--unit",
                                "bstack", "--fast", needle="--fast")
        self.expect_usage_error("frobnicate", needle="frobnicate")
        self.expect_usage_error("explore", example("bstack.bc"),
                                needle="--unit")

    def test_bad_option_values(self):
        # each names the command, the option and what it takes
        bstack = (example("bstack.bc"), "--unit", "bstack")
        for args, needle in (
                (("--depth",), "explore: missing K after --depth (see bcwalk "
                               "explore --help)"),
                (("-o",), "explore: missing FILE after -o"),
                (("--jobs", "0"), "explore: --jobs must be an integer from 1 "
                                  "to 1024, not '0'"),
                (("--depth=x",), "explore: --depth must be an integer from 1 "
                                 "to 255, not 'x'"),
                (("--walk", "sideways"), "explore: unknown --walk 'sideways' "
                                         "(protocol, algebra, state or learned)"),
                (("--boundaries=yes",), "explore: --boundaries takes no "
                                        "value"),
                (("--graph", ""), "explore: --graph needs a file name"),
                (("--generator", "/nonexistent/gen.c"),
                 "explore: --generator /nonexistent/gen.c: No such file or "
                 "directory")):
            self.expect_usage_error("explore", *bstack, *args, needle=needle)
        self.expect_usage_error("explore", example("bstack.bc"),
                                needle="explore: --unit NAME is required")
        self.expect_usage_error("analyze", example("bstack.bc"), "--format",
                                "xml", needle="analyze: unknown --format "
                                              "'xml' (text or json)")
        self.expect_usage_error("analyze", example("bstack.bc"), "-x",
                                needle="analyze: unknown option '-x' (see "
                                       "bcwalk analyze --help)")

    def test_options_in_any_order(self):
        # operands and options mix; --name=value, -oFILE and -- work
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "m.msgpack")
            bcwalk("analyze", "--unit=bstack", "-o" + path, "--",
                   example("bstack.bc"), check=0)
            self.assertTrue(os.path.exists(path))

    def test_help_has_examples(self):
        for cmd in ("analyze", "explore"):
            p = bcwalk(cmd, "--help", check=0)
            self.assertIn("examples:", p.stdout)
            self.assertTrue(p.stdout.startswith("usage: bcwalk " + cmd))
            self.assertIn("\noptions:\n", p.stdout)
            self.assertTrue(p.stdout.split("examples:")[1].strip()
                            .startswith(("bcwalk", "clang")), cmd)
            self.assertLessEqual(max(map(len, p.stdout.split(
                "examples:")[0].splitlines())), 79, cmd)
        self.assertIn("examples:", bcwalk("--help", check=0).stdout)
        # generated from the option table: the defaults and ranges
        out = bcwalk("explore", "-h", check=0).stdout
        self.assertIn("[--walk protocol|algebra|state|learned]", out)
        self.assertRegex(out, r"--depth K +the longest method sequence "
                              r"\(1 to 255, default 3\)")
        self.assertRegex(out, r"--max-combos N .*\n.*\(1 to 256, default 64\)")


if __name__ == "__main__":
    common.main()
