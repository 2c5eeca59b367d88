"""generators.py - end-to-end tests of custom generators (`--generator`):
built-in and written ones, delegation to the master, .c/.bc/.so, errors.
ctest runs this file as test_e2e_generators."""
import os
import tempfile
import unittest

import common
from common import bcwalk, example, source, jsonl, without_timing, calls_of


GEN_HEAD = "#include <bcwalk/generator.h>\n#include <string.h>\n"
GEN_TAIL = ("const bcw_generator bcw_generator_main = {BCW_GENERATOR_VERSION, "
            "\"test\", handles, next, reset, NULL};\n")

# every int parameter: the master's value on every other draw
GEN_ALTERNATE = GEN_HEAD + """
static int n;
static int handles(const bcw_gen_param *p, void *payload)
{ (void)payload; return strcmp(p->kind, "int") == 0; }
static int next(const bcw_gen_param *p, bcw_gen_value *out, void *payload)
{ (void)p, (void)payload; out->i = 100; return n++ % 2 ? BCW_GEN_DELEGATE
                                                      : BCW_GEN_OK; }
static void reset(void *payload) { (void)payload; n = 0; }
""" + GEN_TAIL

# takes every parameter offered and always delegates
GEN_DELEGATE = GEN_HEAD + """
static int handles(const bcw_gen_param *p, void *payload)
{ (void)p, (void)payload; return 1; }
static int next(const bcw_gen_param *p, bcw_gen_value *out, void *payload)
{ (void)p, (void)out, (void)payload; return BCW_GEN_DELEGATE; }
static void reset(void *payload) { (void)payload; }
""" + GEN_TAIL

# str_cat's t only, chosen by what bcwalk says of it: "xy", "z", NULL ...
GEN_STRINGS = GEN_HEAD + """
static int n;
static int handles(const bcw_gen_param *p, void *payload)
{
    (void)payload;
    return strcmp(p->function, "str_cat") == 0 && strcmp(p->name, "t") == 0
        && strcmp(p->ctype, "const char *") == 0
        && strcmp(p->kind, "string") == 0 && p->index == 1 && p->bits == 0;
}
static int next(const bcw_gen_param *p, bcw_gen_value *out, void *payload)
{
    static const char *const v[] = {"xy", "z", NULL};
    (void)p, (void)payload;
    out->s = v[n++ % 3];
    return BCW_GEN_OK;
}
static void reset(void *payload) { (void)payload; n = 0; }
""" + GEN_TAIL


class Generators(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def write(self, name, text):
        path = os.path.join(self.tmp.name, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_index_generator_gives_pairs_from_zero(self):
        gen = source("examples", "gen_index.c")
        lines = jsonl("bstack.bc", "bstack", "protocol", 4, "--generator", gen)
        calls = calls_of(lines, "bstack_new", "bstack_push", "bstack_push",
                         "bstack_push", "bstack_push")
        self.assertEqual([c["args"][1] for c in calls[1:]],
                         ["0", "0", "1", "1"])
        # the worker called with those values: top sees the third push's
        calls = calls_of(lines, "bstack_new", "bstack_push", "bstack_push",
                         "bstack_push", "bstack_top")
        self.assertEqual(calls[-1]["result"], "1")
        # a new sequence starts again from 0
        calls = calls_of(lines, "bstack_new", "bstack_push", "bstack_top")
        self.assertEqual((calls[1]["args"], calls[2]["result"]),
                         (["#0", "0"], "0"))
        # the walk's shape does not change
        self.assertEqual(lines[-1]["sequences"],
                         jsonl("bstack.bc", "bstack", "protocol", 4)[-1]
                         ["sequences"])
        text = bcwalk("explore", example("bstack.bc"), "--unit", "bstack",
                      "--depth", "2", "--generator", gen, check=0).stdout
        self.assertIn("bstack_push(target, 0);\nbstack_push(target, 0);\n"
                      "==> void", text)

    def test_source_bitcode_and_shared_object_agree(self):
        # gen_index.bc is built without -fPIC, as users build bitcode
        runs = [without_timing(jsonl("bstack.bc", "bstack", "protocol", 3,
                                     "--generator", gen, *extra))
                for gen, extra in (
                    (source("examples", "gen_index.c"), ()),
                    (example("gen_index.bc"), ()),
                    (example("gen_index.so"), ()),
                    (source("examples", "gen_index.c"), ("--jobs", "2")),
                    (source("examples", "gen_index.c"), ("--calls", "ffi")))]
        for other in runs[1:]:
            self.assertEqual(runs[0], other)

    def test_delegating_keeps_the_masters_values(self):
        gen = self.write("delegate.c", GEN_DELEGATE)
        for bc, unit in (("bstack.bc", "bstack"), ("str.bc", "str"),
                         ("faulty.bc", "faulty")):
            plain = jsonl(bc, unit, "protocol", 2, "--timeout", "200")
            mine = jsonl(bc, unit, "protocol", 2, "--timeout", "200",
                         "--generator", gen)
            # the categories are the generator's to replace: faulty's
            # and str's constructors are called once, with the master's
            # values
            if unit == "faulty":
                self.assertLess(len(mine), len(plain))
                calls = calls_of(mine, "faulty_with_capacity")
                self.assertEqual((calls[0]["args"], calls[0]["labels"]),
                                 (["1"], [None]))
                continue
            if unit == "str":
                self.assertLess(len(mine), len(plain))
                calls = calls_of(mine, "str_from")
                self.assertEqual((calls[0]["args"], calls[0]["labels"]),
                                 (['"a"', "&target"], [None, None]))
                continue
            self.assertEqual(without_timing(plain), without_timing(mine), bc)
        # a generator that takes nothing (str has no int parameter)
        self.assertEqual(
            without_timing(jsonl("str.bc", "str", "protocol", 2)),
            without_timing(jsonl("str.bc", "str", "protocol", 2,
                                 "--generator",
                                 source("examples", "gen_index.c"))))

    def test_delegating_one_draw_in_two(self):
        gen = self.write("alternate.c", GEN_ALTERNATE)
        lines = jsonl("bstack.bc", "bstack", "protocol", 4, "--generator", gen)
        calls = calls_of(lines, "bstack_new", "bstack_push", "bstack_push",
                         "bstack_push", "bstack_push")
        # the master counts only the draws handed back to it
        self.assertEqual([c["args"][1] for c in calls[1:]],
                         ["100", "1", "100", "2"])
        calls = calls_of(lines, "bstack_new", "bstack_push", "bstack_push",
                         "bstack_top")
        self.assertEqual(calls[-1]["result"], "1")

    def test_strings_by_function_and_parameter_name(self):
        gen = self.write("strings.c", GEN_STRINGS)
        lines = jsonl("str.bc", "str", "protocol", 3, "--generator", gen)
        calls = calls_of(lines, "str_new", "str_cat", "str_cat", "str_len")
        self.assertEqual([c["args"] for c in calls[1:3]],
                         [["#0", '"xy"'], ["#0", '"z"']])
        self.assertEqual(calls[-1]["result"], "3")
        calls = calls_of(lines, "str_new", "str_cat", "str_cat", "str_cat")
        self.assertEqual((calls[-1]["args"], calls[-1]["outcome"]),
                         (["#0", "NULL"], "crash"))
        # other string parameters keep their categories
        inits = {s["calls"][0]["args"][0] for s in lines[:-1]
                 if s["calls"][0]["fn"] == "str_from"}
        self.assertIn('""', inits)
        self.assertNotIn('"xy"', inits)

    def expect_error(self, gen, needle):
        p = bcwalk("explore", example("bstack.bc"), "--unit", "bstack",
                   "--generator", gen, check=2)
        self.assertEqual(p.stdout, "")
        lines = p.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, p.stderr)
        self.assertIn(needle, lines[0])
        return lines[0]

    def test_errors(self):
        self.expect_error("/nonexistent/gen.c",
                          "/nonexistent/gen.c: No such file or directory")
        self.expect_error(self.write("gen.txt", ""),
                          "a generator is a .c, .bc or .so file")
        bad = self.write("bad.c", "int broken = ;\n")
        msg = self.expect_error(bad, bad + ": compiling the generator failed")
        self.assertIn("bad.c:1:14: error: expected expression", msg)
        self.assertIn("full log:", msg)
        self.expect_error(self.write("none.c", "int f(void) { return 0; }\n"),
                          "no generator in it: define `const bcw_generator "
                          "bcw_generator_main`")
        self.expect_error(self.write("old.c", GEN_DELEGATE.replace(
            "BCW_GENERATOR_VERSION, ", "99, ")),
            "bcw_generator_main.version is 99, this bcwalk wants 1")
        self.expect_error(self.write("fake.so", "not ELF"),
                          "cannot load the generator")


if __name__ == "__main__":
    common.main()
