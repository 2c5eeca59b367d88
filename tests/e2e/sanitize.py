"""sanitize.py - end-to-end tests of explore --sanitize on
examples/hazard.c, whose faults a plain walk cannot see: with
AddressSanitizer an over-read and a use after free, with the undefined
checks a signed overflow, a shift too far and memcpy given NULL, each the
outcome of the call that made it, with its cause, and the walk going on.
ctest runs this file as test_e2e_sanitize."""
import unittest

import common
from common import bcwalk, example, jsonl, without_timing


def line_of(text):
    """The line of examples/hazard.c holding `text`."""
    return common.line_of("hazard.c", text)


def last_calls(lines):
    """(fn, fn ...) of each sequence -> its last call's (outcome, cause or
    result)."""
    out = {}
    for s in lines[:-1]:
        c = s["calls"][-1]
        out[tuple(k["fn"] for k in s["calls"][1:])] = (
            c["outcome"], c.get("cause", c.get("result")))
    return out


class Sanitize(unittest.TestCase):
    def test_a_plain_walk_sees_none_of_it(self):
        last = last_calls(jsonl("hazard.bc", "hz", "protocol", 2))
        for seq in (("hz_last",), ("hz_reset", "hz_first"),
                    ("hz_double", "hz_double"), ("hz_shift", "hz_shift"),
                    ("hz_copy",)):
            self.assertEqual(last[seq][0], "normal", seq)

    def test_address_finds_over_reads_and_use_after_free(self):
        lines = jsonl("hazard.bc", "hz", "protocol", 2,
                      "--sanitize", "address")
        last = last_calls(lines)
        new = "hz_new (hazard.c:%d)" % line_of("h->data = calloc")
        self.assertEqual(
            last[("hz_last",)],
            ("crash", "AddressSanitizer: heap-buffer-overflow: read 0 bytes "
                      "past the end of a 8-byte block allocated in %s in "
                      "hz_last (hazard.c:%d)"
             % (new, line_of("one past the end"))))
        self.assertEqual(
            last[("hz_reset", "hz_first")],
            ("crash", "AddressSanitizer: heap-use-after-free: read at "
                      "offset 0 of a 8-byte block allocated in %s and freed "
                      "in hz_reset (hazard.c:%d) in hz_first (hazard.c:%d)"
             % (new, line_of("left dangling"), line_of("return h->data[0]"))))
        # the undefined checks are not compiled in
        self.assertEqual(last[("hz_double", "hz_double")][0], "normal")
        # each report restarted the worker, and the walk went on
        self.assertGreater(lines[-1]["worker_restarts"], 0)
        self.assertEqual(last[("hz_double",)][0], "normal")

    def test_undefined_behaviour_is_stopped_before_it_happens(self):
        lines = jsonl("hazard.bc", "hz", "protocol", 2,
                      "--sanitize", "undefined")
        last = last_calls(lines)
        self.assertEqual(
            last[("hz_double", "hz_double")],
            ("crash", "undefined behaviour: signed integer overflow: "
                      "1073741825 * 2 in 32 bits in hz_double (hazard.c:%d)"
             % line_of("h->sum * 2")))
        self.assertEqual(last[("hz_double",)], ("normal", "1073741825"))
        self.assertEqual(
            last[("hz_shift", "hz_shift")],
            ("crash", "undefined behaviour: shift of 1 by 40, not less than "
                      "its 32 bits in hz_shift (hazard.c:%d)"
             % line_of("1 << h->k")))
        self.assertEqual(
            last[("hz_copy",)],
            ("crash", "undefined behaviour: NULL passed as argument 2 of "
                      "memcpy, memmove, memset or memcmp in hz_copy "
                      "(hazard.c:%d)" % line_of("memcpy(")))
        # caught before it happened: no worker was replaced
        self.assertEqual(lines[-1]["worker_restarts"], 0)
        # AddressSanitizer is not linked in
        self.assertEqual(last[("hz_last",)][0], "normal")

    def test_both_and_jobs_give_the_same_report(self):
        args = ("explore", example("hazard.bc"), "--unit", "hz", "--depth",
                "3", "--sanitize", "undefined,address")
        one = bcwalk(*args, check=0).stdout
        two = bcwalk(*args, "--jobs", "2", check=0).stdout
        self.assertEqual(one.split("\nsummary")[0], two.split("\nsummary")[0])
        self.assertIn("heap-buffer-overflow", one)
        self.assertIn("signed integer overflow", one)
        lines = jsonl("hazard.bc", "hz", "protocol", 3, "--sanitize",
                      "address,undefined")
        again = jsonl("hazard.bc", "hz", "protocol", 3, "--sanitize",
                      "address,undefined", "--jobs", "2")
        self.assertEqual(without_timing(lines)[:-1],
                         without_timing(again)[:-1])

    def test_an_unknown_check_is_a_usage_error(self):
        p = bcwalk("explore", example("hazard.bc"), "--unit", "hz",
                   "--sanitize", "address,thread", check=2)
        self.assertEqual(p.stderr.strip().splitlines(),
                         ["bcwalk: explore: --sanitize takes address, "
                          "undefined or both (address,undefined), not "
                          "'thread'"])


if __name__ == "__main__":
    common.main()
