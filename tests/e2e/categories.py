"""categories.py - end-to-end tests of parameter categories (issue 4): every
return code, boundaries, string literals, callbacks, buffer lengths and
permutations, all pairs and the cap. ctest runs this file as
test_e2e_categories."""
import json
import unittest

import common
from common import bcwalk, example, explore_json, jsonl


class Categories(unittest.TestCase):
    """Issue 4's examples: the categories of strings, callbacks, elements
    and field-relative integers drive the walk to every return code."""

    def returns(self, bc, unit, depth):
        codes = {}
        for s in jsonl(bc, unit, "algebra", depth)[:-1]:
            last = s["calls"][-1]
            if last["outcome"] == "normal":
                codes.setdefault(last["fn"], set()).add(last.get("result"))
        return codes

    def test_a_key_stored_is_found_again(self):
        # dict_set and dict_get compare keys with strcmp only: each key
        # is a new string or "a" every time, so a stored key is found
        m = json.loads(bcwalk("analyze", example("dict.bc"), "--format",
                              "json").stdout)
        [u] = m["units"]
        for f in u["methods"]:
            self.assertEqual([c["label"] for c in f["params"][1]["partitions"]],
                             ["a new string", 'key == "a"'], f["name"])
        found = {}
        for q in jsonl("dict.bc", "dict", "protocol", 2)[:-1]:
            calls = q["calls"]
            if [c["fn"] for c in calls] == ["dict_new", "dict_set", "dict_get"]:
                found[(calls[1]["args"][1], calls[2]["args"][1])] = \
                    calls[2]["result"]
        self.assertEqual(found[('"a"', '"a"')], "1")
        self.assertIn("-1", found.values())

    def test_every_return_code_at_depth_3(self):
        want = {
            "bank.bc": ("bank", {"bank_deposit": {"0", "-1", "-3"},
                                 "bank_withdraw": {"0", "-1", "-2"}}),
            "hset.bc": ("hset", {"hset_add": {"1", "0", "-1"},
                                 "hset_has": {"1", "0"},
                                 "hset_remove": {"1", "0"}}),
            "cfg.bc": ("cfg", {"cfg_set": {"0", "-1", "-2"},
                               "cfg_command": {"0", "1", "-1", "-3"},
                               "cfg_set_mode": {"0", "1", "-1"}}),
        }
        for bc, (unit, methods) in want.items():
            codes = self.returns(bc, unit, 3)
            for fn, expected in methods.items():
                with self.subTest(fn=fn):
                    self.assertEqual(codes[fn], expected)

    def test_boundaries_walk_every_category_value(self):
        # --boundaries: each category's minimum and maximum, not only its
        # representative, each labelled with its category
        lines = jsonl("faulty.bc", "faulty", "protocol", 1, "--boundaries",
                      "--timeout", "200")
        ctor = {(c["args"][0], c["labels"][0])
                for s in lines[:-1] for c in s["calls"][:1]
                if c["fn"] == "faulty_with_capacity"}
        self.assertEqual(ctor, {("100", "cap >= 100"),
                                ("2147483647", "cap >= 100"),
                                ("1", "cap < 100"),
                                ("-2147483648", "cap < 100"),
                                ("99", "cap < 100")})
        plain = jsonl("faulty.bc", "faulty", "protocol", 1, "--timeout",
                      "200")
        self.assertEqual({c["args"][0] for s in plain[:-1]
                          for c in s["calls"][:1]
                          if c["fn"] == "faulty_with_capacity"},
                         {"100", "1"})

    def test_field_bounded_categories_step_off_excluded_values(self):
        # mode != c->mode and no case: from a new cfg (mode 0) the bound
        # c->mode + 1 is 1, a case, so the worker steps on to 2
        lines = jsonl("cfg.bc", "cfg", "protocol", 1)
        calls = {s["calls"][1]["labels"][1]: s["calls"][1]
                 for s in lines[:-1] if len(s["calls"]) == 2 and
                 s["calls"][1]["fn"] == "cfg_set_mode"}
        other = calls["c->mode != mode && mode != 0 && mode != 1 && "
                      "mode != 8"]
        self.assertEqual((other["args"][1], other["result"]), ("2", "-1"))
        same = calls["c->mode == mode && mode == 0"]
        self.assertEqual((same["args"][1], same["result"]), ("0", "1"))

    def test_string_literals_are_categories(self):
        model = json.loads(bcwalk("analyze", example("cfg.bc"), "--format",
                                  "json", check=0).stdout)
        fns = {f["name"]: f for f in model["units"][0]["methods"]}
        key = fns["cfg_set"]["params"][1]["partitions"]
        self.assertEqual([(c["label"], c["string"]) for c in key],
                         [('key == "width"', "width"),
                          ('key == "height"', "height"),
                          ('key == "verbose"', "verbose"),
                          ('key == ""', ""), ("one character", "a"),
                          ("none of them", key[-1]["string"])])
        line = [c["label"] for c in
                fns["cfg_command"]["params"][1]["partitions"]]
        self.assertEqual(line[:4], ["line[0] == '#'", "strlen(line) == 16",
                                    "strlen(line) == 17", 'line == "reset"'])
        lines = jsonl("cfg.bc", "cfg", "protocol", 1)
        call = next(s["calls"][1] for s in lines[:-1]
                    if len(s["calls"]) == 2 and
                    s["calls"][1]["labels"][1:] == ['key == "height"',
                                                    "value > 0"])
        self.assertEqual((call["args"], call["result"]),
                         (["#0", '"height"', "1"], "0"))

    def test_text_searched_for_a_separator_holds_it(self):
        # kv_parse gives up unless strchr finds '=' in the text: "a=" is
        # a category of its own, and so is "a://" for the strstr, so the
        # parser is walked past the search; the other categories are
        # rejected there, as before
        model = json.loads(bcwalk("analyze", example("kvpair.bc"),
                                  "--format", "json").stdout)
        [ctor] = model["units"][0]["constructors"]
        self.assertEqual([(c["label"], c["string"])
                          for c in ctor["params"][0]["partitions"]][:2],
                         [("text holds '='", "a="),
                          ('text holds "://"', "a://")])
        lines = jsonl("kvpair.bc", "kv", "protocol", 1)
        made = {s["calls"][0]["args"][0]: s["calls"][0]["outcome"]
                for s in lines[:-1] if len(s["calls"]) == 1}
        self.assertEqual(made['"a="'], "normal")
        self.assertEqual(made['"a"'], "rejected")
        key = next(s["calls"][1] for s in lines[:-1]
                   if [c["fn"] for c in s["calls"]] == ["kv_parse", "kv_key"])
        self.assertEqual(key["result"], '"a"')

    def test_module_functions_fill_callbacks(self):
        lines = jsonl("hset.bc", "hset", "protocol", 2)
        ctor = lines[0]["calls"][0]
        self.assertEqual(ctor["args"], ["hset_ptr_hash", "hset_ptr_eq"])
        # the same element twice: added, then already there
        again = next(s for s in lines[:-1]
                     if [(c["fn"], c["args"][1:]) for c in s["calls"][1:]] ==
                     [("hset_add", ["Obj#0"]), ("hset_add", ["Obj#0"])])
        self.assertEqual([c["result"] for c in again["calls"][1:]],
                         ["1", "0"])
        fresh = next(s for s in lines[:-1]
                     if [(c["fn"], c["args"][1:]) for c in s["calls"][1:]] ==
                     [("hset_add", ["Obj#0"]), ("hset_has", ["Obj#1"])])
        self.assertEqual(fresh["calls"][-1]["result"], "0")

    def test_too_many_steps_fall_back_to_pairs(self):
        # 256 buffer contents make more steps than a walk takes: bcwalk
        # walks all pairs and fewer combinations instead, and says so
        doc = explore_json("sbuf.bc", "sbuf", "protocol", 1, "--permute",
                           "abcdef", "--max-combos", "256")
        fits = [w for w in doc["warnings"] if "steps with all" in w]
        self.assertEqual(len(fits), 1, doc["warnings"])
        self.assertRegex(fits[0], r"^sbuf: \d+ steps with all combinations "
                         r"\(at most 256 are walked\): walked with all pairs, "
                         r"at most \d+ combinations per function, \d+ steps$")
        # the library's report describes settings, it names no option
        self.assertNotIn("--", " ".join(doc["warnings"]))

    def test_buffer_lengths(self):
        # a length the code does not branch on: empty, one byte, small
        lines = jsonl("cfg.bc", "cfg", "protocol", 1)
        sums = {s["calls"][1]["args"][2]: s["calls"][1]["result"]
                for s in lines[:-1] if len(s["calls"]) == 2 and
                s["calls"][1]["fn"] == "cfg_checksum"}
        # width 80 plus the bytes 'a', 'b', ... summed
        self.assertEqual(sums, {"0": "80", "1": str(80 + 97),
                                "16": str(80 + sum(range(97, 113)))})

    def test_buffer_permutations(self):
        lines = jsonl("sbuf.bc", "sbuf", "protocol", 2, "--permute", "ab|cd")
        last = {s["calls"][1]["args"][1]: s["calls"][2]
                for s in lines[:-1] if [c["fn"] for c in s["calls"]] ==
                ["sbuf_new", "sbuf_append", "sbuf_last"]}
        # each group permuted on its own: 2! * 2! contents, the length
        # following the content, and sbuf_last sees the content's last byte
        self.assertEqual({k: v["out"]["out"] for k, v in last.items()},
                         {'"abcd"': "'d'", '"abdc"': "'c'",
                          '"bacd"': "'d'", '"badc"': "'c'"})
        appends = [c for s in lines[:-1] for c in s["calls"]
                   if c["fn"] == "sbuf_append"]
        self.assertTrue(all(c["args"][2] == "4" for c in appends))
        self.assertEqual(appends[0]["labels"][1],
                         "stratified permutation 1 of 4")
        p = bcwalk("explore", example("sbuf.bc"), "--unit", "sbuf",
                   "--permute", "ab||c", check=2)
        # the library names the setting, the command line its option
        self.assertIn('explore: --permute: an empty group in "ab||c"',
                      p.stderr)

    def test_all_pairs_and_the_cap(self):
        full = explore_json("cfg.bc", "cfg", "protocol", 1)
        capped = explore_json("cfg.bc", "cfg", "protocol", 1,
                              "--max-combos", "4")
        self.assertEqual(full["warnings"], [])
        self.assertTrue(any(w.startswith("cfg_set: 18 combinations of its "
                                          "categories (key 6, value 3), "
                                          "above the cap of 4")
                            and w.endswith("(combining by all pairs makes "
                                           "fewer)")
                            for w in capped["warnings"]), capped["warnings"])
        self.assertLess(capped["sequences"]["normal"],
                        full["sequences"]["normal"])
        p = bcwalk("explore", example("cfg.bc"), "--unit", "cfg",
                   "--combine", "triples", check=2)
        self.assertIn("unknown --combine 'triples'", p.stderr)


if __name__ == "__main__":
    common.main()
