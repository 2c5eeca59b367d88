"""standalone.py - end-to-end tests of `explore --reproduce DIR`: each
distinct halt written as a standalone C program (elements, callbacks and
the other arguments bcwalk made spelled in C), built with the library's
bitcode by clang with AddressSanitizer and no bcwalk runtime, and run; a
halt it reproduces on the same call is the library's, one it does not is
listed as bcwalk's own, with what the program did.  ctest runs this file
as test_e2e_standalone."""
import os
import subprocess
import tempfile
import unittest

import common
from common import bcwalk, example, explore_json


def reproduce(bc, unit, depth, *extra):
    """The walk's summary with --reproduce, and the programs' folder."""
    d = tempfile.mkdtemp(prefix="repro-")
    s = explore_json(bc, unit, "protocol", depth, "--reproduce", d, *extra)
    return s, d


def by_fn(s):
    return {h["fn"]: h for h in s["standalone"]["list"]}


class Standalone(unittest.TestCase):
    def test_each_outcome_reproduces_on_its_call(self):
        s, d = reproduce("faulty.bc", "faulty", 1)
        c = s["standalone"]
        self.assertEqual((c["halts"], c["reproduced"], c["not_reproduced"],
                          c["not_written"], c["not_built"]), (4, 4, 0, 0, 0))
        h = by_fn(s)
        # a write through NULL: AddressSanitizer's SEGV in the same place
        self.assertEqual(h["faulty_crash"]["verdict"], "reproduced")
        self.assertIn("SEGV in faulty_crash", h["faulty_crash"]["standalone"])
        self.assertIn("faulty.c:38", h["faulty_crash"]["standalone"])
        self.assertEqual(h["faulty_hang"]["standalone"],
                         "still running at its time limit (a hang)")
        self.assertEqual(h["faulty_check"]["standalone"], "killed by Aborted")
        # a leak: LeakSanitizer's after the destructor, of the block the
        # walk saw leak (the program's own storage is kept reachable)
        self.assertEqual(h["faulty_new"]["verdict"], "reproduced")
        said = h["faulty_new"]["standalone"]
        self.assertTrue(said.startswith(
            "LeakSanitizer: detected memory leaks in faulty_add "), said)
        self.assertIn("faulty.c:%d" % common.line_of(
            "faulty.c", "int *leak = malloc"), said)
        # the program stands alone: run by hand, the crash is its own
        prog = os.path.join(d, "halts")
        with open(os.path.join(d, "halts.c")) as f:
            src = f.read()
        self.assertNotIn("bcw_rt_", src)
        [n] = [i for i, x in enumerate(s["standalone"]["list"])
               if x["fn"] == "faulty_crash"]
        p = subprocess.run([prog, str(n)], capture_output=True, text=True,
                           env={"ASAN_OPTIONS": "detect_leaks=0"})
        self.assertNotIn(p.returncode, (0, 125))
        self.assertIn("faulty_crash", p.stderr)

    def test_elements_and_callbacks_are_written_in_c(self):
        # pq_push's second call writes past the array: the program needs
        # the elements and a compare callback of pq_cmp's signature
        s, d = reproduce("pq.bc", "pq", 2)
        h = by_fn(s)["pq_push"]
        self.assertEqual(h["verdict"], "reproduced")
        self.assertIn("heap-buffer-overflow in pq_push", h["standalone"])
        self.assertIn("Obj#2", h["sequence"])
        with open(os.path.join(d, "halts.c")) as f:
            src = f.read()
        self.assertIn("int32_t bcw_cb_0(void * a0, void * a1)", src)
        self.assertIn("target = L_pq_new(bcw_cb_0 /* cmp == bcw_compare */);",
                      src)
        self.assertIn("L_pq_push(target, bcw_obj(2) /* a new element */);",
                      src)

    def test_a_copied_key_is_found_in_the_program_too(self):
        # copyset_add_new asserts its key is not there: the walk's compare
        # found the copy of Obj#0 by its first key_size bytes, and so
        # must the program's, or the halt would not be reproduced
        s, d = reproduce("copyset.bc", "copyset", 2)
        h = by_fn(s)["copyset_add_new"]
        self.assertEqual(h["verdict"], "reproduced")
        self.assertEqual(h["standalone"], "killed by Aborted")
        with open(os.path.join(d, "halts.c")) as f:
            src = f.read()
        self.assertIn("bcw_esize = (uint64_t)(1ULL);", src)

    def test_undefined_behaviour_is_reproduced_with_the_checks_compiled_in(
            self):
        # --sanitize undefined's halts: lib.bc gets the same checks, which
        # call the program's own handler (no bcwalk runtime), in the call
        s, d = reproduce("hazard.bc", "hz", 2, "--sanitize", "undefined")
        h = by_fn(s)
        self.assertEqual(h["hz_double"]["verdict"], "reproduced")
        self.assertEqual(h["hz_double"]["standalone"],
                         "undefined behaviour: signed integer overflow (*) "
                         "(1073741825, 2, 32 bits)")
        self.assertEqual(h["hz_shift"]["verdict"], "reproduced")
        self.assertEqual(h["hz_copy"]["verdict"], "reproduced")
        with open(os.path.join(d, "halts.c")) as f:
            self.assertNotIn("bcw_rt_", f.read())

    def test_a_table_of_callbacks_is_written_member_by_member(self):
        # optab_first's assert on an empty set: the program makes the
        # set with an optab_ops whose members are its own callbacks
        s, d = reproduce("optab.bc", "optab", 1)
        h = by_fn(s)["optab_first"]
        self.assertEqual((h["verdict"], h["standalone"]),
                         ("reproduced", "killed by Aborted"))
        with open(os.path.join(d, "halts.c")) as f:
            src = f.read()
        self.assertIn("target = L_optab_new(({ void **bcw_t = bcw_cell(24); "
                      "bcw_t[0] = (void *)bcw_cb_0; bcw_t[1] = (void *)"
                      "bcw_cb_1; bcw_t[2] = (void *)bcw_cb_2; (void *)bcw_t; "
                      "}));", src)

    def test_a_halt_the_program_does_not_make_is_bcwalks_own(self):
        # 0.7 s is a hang under --timeout 300; the program, given twice
        # that and more, sees the call return
        s, _ = reproduce("slow.bc", "slow", 1, "--timeout", "300")
        c = s["standalone"]
        self.assertEqual((c["halts"], c["reproduced"], c["not_reproduced"]),
                         (1, 0, 1))
        h = by_fn(s)["slow_round"]
        self.assertEqual(h["verdict"], "not reproduced")
        self.assertEqual(h["outcome"], "hang")
        self.assertEqual(h["standalone"], "every call returned")

    def test_the_text_report_lists_each_halt_with_both_outcomes(self):
        d = tempfile.mkdtemp(prefix="repro-")
        out = bcwalk("explore", example("slow.bc"), "--unit", "slow",
                     "--depth", "1", "--timeout", "300", "--reproduce", d,
                     check=0).stdout
        self.assertIn("Standalone programs: 1 distinct halts, 0 reproduced "
                      "(the library's), 1 not reproduced (bcwalk's own)", out)
        self.assertIn("halt 0, not reproduced: slow_round hang: ", out)
        self.assertIn("    walk: no return within 300 ms\n", out)
        self.assertIn("    program: every call returned\n", out)

    def test_a_walk_without_halts_builds_nothing(self):
        s, d = reproduce("counter.bc", "counter", 2)
        self.assertEqual(s["standalone"]["halts"], 0)
        self.assertEqual(s["standalone"]["list"], [])
        self.assertFalse(os.path.exists(os.path.join(d, "halts")))

    def test_a_file_is_no_folder(self):
        f = tempfile.NamedTemporaryFile(delete=False)
        p = bcwalk("explore", example("faulty.bc"), "--unit", "faulty",
                   "--reproduce", f.name, check=2)
        self.assertIn("--reproduce %s: not a folder" % f.name, p.stderr)


if __name__ == "__main__":
    common.main()
