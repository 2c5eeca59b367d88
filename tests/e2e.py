#!/usr/bin/env python3
"""End-to-end tests: run the real bcwalk binary on the example units and
check its output, exit codes and files, as a user or a tool would."""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import unittest

import mpack

ARGS = None


def bcwalk(*args, check=None):
    env = dict(os.environ, XDG_CACHE_HOME=ARGS.cache)
    p = subprocess.run([ARGS.bcwalk, *args], capture_output=True, text=True,
                       env=env, timeout=300)
    if check is not None and p.returncode != check:
        raise AssertionError("bcwalk %s: exit %d, expected %d\nstderr: %s"
                             % (" ".join(args), p.returncode, check, p.stderr))
    return p


def example(name):
    return os.path.join(ARGS.examples, name)


def source(*path):
    """A file of the source tree (this script lives in tests/)."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return os.path.join(root, *path)


def explore_json(bc, unit, walk, depth, *extra):
    p = bcwalk("explore", example(bc), "--unit", unit, "--walk", walk,
               "--depth", str(depth), "--format", "json", *extra, check=0)
    return json.loads(p.stdout)


def jsonl(bc, unit, walk, depth, *extra):
    p = bcwalk("explore", example(bc), "--unit", unit, "--walk", walk,
               "--depth", str(depth), "--format", "jsonl", *extra, check=0)
    return [json.loads(line) for line in p.stdout.splitlines()]


class Analyze(unittest.TestCase):
    def test_bstack_units_and_roles(self):
        p = bcwalk("analyze", example("bstack.bc"), "--format", "json",
                   check=0)
        model = json.loads(p.stdout)
        self.assertEqual([u["name"] for u in model["units"]], ["bstack"])
        u = model["units"][0]
        self.assertEqual([c["name"] for c in u["constructors"]],
                         ["bstack_new"])
        self.assertEqual([d["name"] for d in u["destructors"]],
                         ["bstack_free"])
        roles = {m["name"]: m["role"] for m in u["methods"]}
        self.assertEqual(roles, {
            "bstack_push": "mutator", "bstack_pop": "mutator",
            "bstack_top": "observer", "bstack_size": "observer",
            "bstack_is_empty": "observer", "bstack_is_full": "observer"})
        push = next(m for m in u["methods"] if m["name"] == "bstack_push")
        self.assertEqual(push["params"][1],
                         {"name": "x", "type": "int", "kind": "int"})

    def test_predicates_in_json(self):
        m = json.loads(bcwalk("analyze", example("ringq.bc"), "--format",
                              "json", check=0).stdout)
        preds = {p["name"]: p for p in m["units"][0]["predicates"]}
        self.assertEqual(set(preds), {"count == cap", "count == 0"})
        full = preds["count == cap"]
        self.assertEqual(full["source"], "bitcode")
        self.assertEqual((full["op"], full["l"], full["r"]),
                         ("==", {"field": 16, "bits": 32},
                          {"field": 20, "bits": 32}))
        self.assertEqual(full["used_by"], ["ringq_put"])
        self.assertEqual(preds["count == 0"]["r"], {"const": 0})
        put = next(f for f in m["units"][0]["methods"]
                   if f["name"] == "ringq_put")
        self.assertEqual(put["writes"], ["tail", "count", "*items"])
        b = json.loads(bcwalk("analyze", example("bstack.bc"), "--format",
                              "json", check=0).stdout)
        iface = [p for p in b["units"][0]["predicates"]
                 if p["source"] == "interface"]
        self.assertEqual([(p["name"], p["expr"]) for p in iface],
                         [("is_empty", "bstack_is_empty(target)"),
                          ("is_full", "bstack_is_full(target)")])

    def test_parameter_kinds_and_contracts_in_json(self):
        m = json.loads(bcwalk("analyze", example("sbuf.bc"), "--format",
                              "json", check=0).stdout)
        sbuf, pool = m["units"]
        methods = {f["name"]: f for f in sbuf["methods"]}
        params = {f: {p["name"]: p for p in methods[f]["params"]}
                  for f in methods}
        mode = params["sbuf_set_case"]["mode"]
        self.assertEqual((mode["kind"], mode["enumerators"]),
                         ("enum", "SBUF_KEEP=0, SBUF_UPPER=1, SBUF_LOWER=4"))
        # the switch's cases are the enum's categories, and the rest
        self.assertEqual([(c["label"], c["values"][0])
                          for c in mode["partitions"]],
                         [("mode != 0 && mode != 1 && mode != 4", "2"),
                          ("mode == 0", "0"), ("mode == 1", "1"),
                          ("mode == 4", "4")])
        self.assertEqual(params["sbuf_append"]["data"]["kind"], "buffer")
        self.assertEqual(params["sbuf_append"]["data"]["length"], "len")
        self.assertEqual(params["sbuf_append"]["len"]["buffer"], "data")
        self.assertEqual(params["sbuf_each"]["visit"]["signature"],
                         "void (*)(char, void *)")
        self.assertNotIn("not_walked", methods["sbuf_each"])
        self.assertEqual([(c["label"], c["function"]) for c in
                          params["sbuf_each"]["visit"]["partitions"]],
                         [("visit == bcw_visit", "bcw_visit")])
        self.assertTrue(params["sbuf_copy_to"]["dst"]["nullable"])
        self.assertEqual(params["sbuf_last"]["out"]["kind"], "out")
        self.assertTrue(methods["sbuf_data"]["returns_into_unit"])
        put = next(f for f in pool["methods"] if f["name"] == "sbuf_pool_put")
        self.assertEqual(put["params"][1]["kind"], "unit_ref")
        self.assertEqual(put["params"][1]["unit"], "sbuf")
        a = json.loads(bcwalk("analyze", example("account.bc"), "--format",
                              "json", check=0).stdout)["units"][0]
        self.assertIn({"function": "account_withdraw", "kind": "requires",
                       "expr": "amount > 0"}, a["contracts"])
        self.assertIn({"function": "account_deposit", "kind": "abort",
                       "expr": "frozen != 0"}, a["contracts"])
        self.assertIn({"kind": "invariant_function",
                       "function": "account_invariant"}, a["contracts"])

    def test_invariant_named_by_the_user(self):
        m = json.loads(bcwalk("analyze", example("ringq.bc"), "--invariant",
                              "ringq_length", "--format", "json",
                              check=0).stdout)
        self.assertIn({"kind": "invariant_function",
                       "function": "ringq_length"},
                      m["units"][0]["contracts"])
        p = bcwalk("analyze", example("ringq.bc"), "--invariant", "ringq_put",
                   check=2)
        self.assertIn("ringq_put cannot be ringq's invariant", p.stderr)

    def test_text_shows_signatures(self):
        p = bcwalk("analyze", example("bstack.bc"), check=0)
        self.assertIn("mutator          void bstack_push(bstack *s, int x)\n"
                      "                   reads data, size, capacity\n"
                      "                   writes size, *data\n", p.stdout)
        self.assertIn("predicate        size == capacity   [branched on in "
                      "bstack_push, bstack_is_full]", p.stdout)
        self.assertIn("observer         bool bstack_is_empty(const bstack *s)",
                      p.stdout)

    def test_same_roles_at_O2_and_without_debug_info(self):
        def roles(bc):
            m = json.loads(bcwalk("analyze", example(bc), "--format", "json",
                                  check=0).stdout)
            return {f["name"]: f["role"] for f in m["units"][0]["methods"]}
        self.assertEqual(roles("bstack.bc"), roles("bstack-O2.bc"))
        self.assertEqual(roles("bstack.bc"), roles("bstack-nodebug.bc"))


class OptPlugin(unittest.TestCase):
    def test_plugin_model_equals_the_command(self):
        if not ARGS.plugin:
            self.skipTest("the plugin is not built with sanitizers")
        for bc in ("bstack.bc", "ringq.bc", "account.bc", "counter.bc",
                   "bstack-O2-nodebug.bc"):
            with tempfile.TemporaryDirectory() as d:
                out = os.path.join(d, "model.json")
                env = dict(os.environ, BCWALK_MODEL=out)
                p = subprocess.run([ARGS.opt, "-load-pass-plugin=" +
                                    ARGS.plugin, "-passes=bcwalk-analyze",
                                    "-disable-output", example(bc)],
                                   capture_output=True, text=True, env=env)
                self.assertEqual(p.returncode, 0, p.stderr)
                cmd = bcwalk("analyze", example(bc), "--format", "json",
                             check=0).stdout
                self.assertEqual(open(out).read(), cmd, bc)


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
        a = jsonl("bstack.bc", "bstack", "protocol", 3)
        for bc in ("bstack-O2.bc", "bstack-nodebug.bc", "bstack-opaque.bc",
                   "bstack-O2-opaque.bc", "bstack-O2-nodebug.bc"):
            b = jsonl(bc, "bstack", "protocol", 3)
            self.assertEqual([s["calls"] for s in a[:-1]],
                             [s["calls"] for s in b[:-1]], bc)
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
        self.assertIn("bstack_pop(target);\n==> *abort* SIGABRT\n", out)
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


class Outcomes(unittest.TestCase):
    def test_crash_hang_and_abort_are_recorded_and_the_walk_goes_on(self):
        lines = jsonl("faulty.bc", "faulty", "protocol", 2,
                      "--timeout", "200")
        summary = lines[-1]
        last = {tuple(c["fn"] for c in s["calls"]): s["calls"][-1]["outcome"]
                for s in lines[:-1]}
        self.assertEqual(last[("faulty_new", "faulty_crash")], "crash")
        self.assertEqual(last[("faulty_new", "faulty_hang")], "hang")
        self.assertEqual(last[("faulty_new", "faulty_check")], "abort")
        self.assertEqual(last[("faulty_new", "faulty_add", "faulty_check")],
                         "normal")
        self.assertEqual(last[("faulty_new", "faulty_add", "faulty_crash")],
                         "crash")
        self.assertGreaterEqual(summary["worker_restarts"], 4)
        seq = summary["sequences"]
        # three constructor steps (faulty_with_capacity's cap >= 100 and
        # cap < 100 categories), four methods, depth 2
        self.assertEqual(seq["normal"] + seq["terminated"] + seq["discarded"],
                         3 * (1 + 4 + 16))

    def test_constructor_returning_null_ends_its_sequence(self):
        lines = jsonl("faulty.bc", "faulty", "protocol", 2,
                      "--timeout", "200")
        rejected = [s for s in lines[:-1]
                    if s["calls"][0]["fn"] == "faulty_with_capacity" and
                    s["calls"][0]["args"] == ["1"]]
        self.assertEqual(len(rejected), 1)  # no extension is run
        call = rejected[0]["calls"][0]
        self.assertEqual((call["args"], call["labels"], call["result"],
                          call["outcome"]),
                         (["1"], ["cap < 100"], "NULL", "rejected"))
        text = bcwalk("explore", example("faulty.bc"), "--unit", "faulty",
                      "--depth", "1", "--timeout", "200", check=0).stdout
        self.assertIn("faulty *target = faulty_with_capacity(1 /* cap < 100 "
                      "*/);\n==> NULL  *rejected*", text)
        # the other category makes an object: its sequences go on
        self.assertIn("faulty *target = faulty_with_capacity(100 /* cap >= "
                      "100 */);\nfaulty_add(target, 1);\n==> void", text)

    def test_contract_failures_and_rejections(self):
        lines = jsonl("account.bc", "account", "protocol", 2)
        last = {tuple(c["fn"] for c in s["calls"]): s["calls"][-1]["outcome"]
                for s in lines[:-1]}
        # the off-by-one in account_withdraw breaks its ENSURES: the walk
        # withdraws the category bound balance + limit + 1 read from the
        # new account (1) and the balance goes below the limit
        by_label = {s["calls"][1]["labels"][1]: s["calls"][1]
                    for s in lines[:-1] if len(s["calls"]) == 2 and
                    s["calls"][1]["fn"] == "account_withdraw"}
        # the bound read from a new account, (0 + 0) + 1, is what is passed
        inside = by_label["amount > 0 && amount <= ((balance + limit) + 1)"]
        self.assertEqual((inside["args"][1], inside["outcome"]),
                         ("1", "failure"))
        above = by_label["amount > 0 && amount > ((balance + limit) + 1)"]
        self.assertEqual((above["result"], above["outcome"]), ("-1", "normal"))
        # closing a non-empty account breaks account_close's REQUIRES
        self.assertEqual(last[("account_new", "account_deposit",
                               "account_close")], "rejected")
        self.assertEqual(last[("account_new", "account_close")], "normal")
        text = bcwalk("explore", example("account.bc"), "--unit", "account",
                      "--depth", "1", check=0).stdout
        self.assertIn("account_withdraw(target, 1 /* "
                      "amount > 0 && amount <= ((balance + limit) + 1) */);\n"
                      "==> *failure* ENSURES(a->balance >= -a->limit)", text)

    def test_buffers_enums_and_callbacks(self):
        lines = jsonl("sbuf.bc", "sbuf", "protocol", 2)
        fns = {c["fn"] for s in lines[:-1] for c in s["calls"]}
        # len's categories mix it with the object's fields: the worker
        # solves them on the live object, and reports the value passed
        appended = {s["calls"][1]["labels"][2]: s["calls"][1]
                    for s in lines[:-1] if len(s["calls"]) == 2 and
                    s["calls"][1]["fn"] == "sbuf_append"}
        self.assertEqual(
            {label: (c["args"][1:], c["result"])
             for label, c in appended.items()},
            {"((b->len + len) + 1) <= cap": (["bytes[16]", "1"], "0"),
             "((b->len + len) + 1) > cap": (["bytes[32]", "32"], "-1")})
        # a built-in visitor closure counts its calls: one per byte
        visits = {s["calls"][1]["args"][2]: s["calls"][2]["out"]
                  for s in lines[:-1] if [c["fn"] for c in s["calls"]] ==
                  ["sbuf_new", "sbuf_append", "sbuf_each"]}
        self.assertEqual(visits, {"1": {"visit": "1 call"},
                                  "32": {"visit": "0 calls"}})
        seq = next(s for s in lines[:-1] if [c["fn"] for c in s["calls"]] ==
                   ["sbuf_new", "sbuf_append", "sbuf_last"])
        self.assertEqual(seq["calls"][1]["args"], ["#0", "bytes[16]", "1"])
        # the buffer holds 'a'..'p' and one byte was appended: 'a' comes
        # back out
        self.assertEqual(seq["calls"][2]["out"], {"out": "'a'"})
        self.assertEqual(seq["calls"][2]["result"], "0")

    def test_out_parameter_constructor_and_moving_handles(self):
        lines = jsonl("str.bc", "str", "protocol", 5)
        by_calls = {tuple((c["fn"], tuple(c["args"])) for c in s["calls"]): s
                    for s in lines[:-1]}
        # str_cat reallocates on the 4th append: the walk follows the new
        # handle it returns, so str_len sees all 19 bytes
        cat4 = by_calls[(("str_new", ()),
                         ("str_cat", ("#0", '"a"')),
                         ("str_cat", ("#0", '""')),
                         ("str_cat", ("#0", '"hello"')),
                         ("str_cat", ("#0", '"Hello, World!"')),
                         ("str_len", ("#0",)))]
        self.assertEqual(cat4["calls"][-1]["result"], "19")
        # int str_from(const char *, str **out): the unit comes back in out
        # strlen(init) > 64: its categories are 64 and 65 characters
        long = '"' + "x" * 24 + '"... (%d chars)'
        from_len = by_calls[(("str_from", (long % 64, "&target")),
                             ("str_len", ("#0",)))]
        self.assertEqual([c["result"] for c in from_len["calls"]], ["0", "64"])
        too_long = by_calls[(("str_from", (long % 65, "&target")),)]
        self.assertEqual((too_long["calls"][0]["result"],
                          too_long["calls"][0]["outcome"]), ("-1", "rejected"))

    def test_unit_in_the_callers_cell(self):
        lines = jsonl("slist.bc", "entry", "protocol", 3)
        by = {tuple(c["fn"] for c in s["calls"]): s["calls"]
              for s in lines[:-1]}
        calls = by[("(empty)", "list_push", "list_push", "list_length")]
        self.assertEqual(calls[1]["args"], ["&#0", "1"])
        self.assertEqual(calls[3]["args"], ["#0"])
        self.assertEqual(calls[3]["result"], "2")
        pop = by[("(empty)", "list_push", "list_push", "list_pop")][-1]
        self.assertEqual((pop["result"], pop["out"]), ("0", {"out": "2"}))
        # the walk's destructor frees what is left: no leak between runs
        self.assertEqual(lines[-1]["sequences"]["terminated"], 0)

    def test_init_constructor_out_parameter_and_globals_reset(self):
        lines = jsonl("counter.bc", "counter", "protocol", 2)
        reads = [s for s in lines[:-1] if [c["fn"] for c in s["calls"]] ==
                 ["counter_init", "counter_step", "counter_read"] and
                 s["calls"][1]["labels"][1] == "(value + by) <= limit"]
        self.assertEqual(len(reads), 1)
        read = reads[0]["calls"][-1]
        # value 1 plus 1000 per counter_step so far: the module's global
        # call count starts from its initial value in every sequence
        self.assertEqual(read["out"], {"out": "1001"})
        self.assertEqual(read["result"], "0")
        text = bcwalk("explore", example("counter.bc"), "--unit", "counter",
                      "--depth", "1", check=0).stdout
        self.assertIn("counter storage, *target = &storage;\n"
                      "counter_init(target);", text)
        self.assertIn("==> 0, *out = 0", text)
        # counter_value is static inline in counter.h: callable all the same
        self.assertIn("counter_init(target);\ncounter_value(target);\n==> 0",
                      text)

    def test_memory_libc_allocated_is_freed_by_the_unit(self):
        # note_write frees asprintf's text: the runtime's free hands it
        # back to libc, and every sequence ends normally
        summary = explore_json("note.bc", "note", "protocol", 4)
        self.assertEqual(summary["sequences"]["terminated"], 0)
        self.assertEqual(summary["sequences"]["normal"], 31)
        self.assertEqual(summary["worker_restarts"], 0)
        lines = jsonl("note.bc", "note", "protocol", 3)
        last = [s for s in lines[:-1]
                if [c["fn"] for c in s["calls"]] == ["note_new"] +
                ["note_write"] * 3][0]
        self.assertEqual([c["result"] for c in last["calls"][1:]],
                         ["1", "2", "3"])


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


class HandlesAndOtherUnits(unittest.TestCase):
    """Issue 4: derived handles taken from earlier calls of the sequence,
    and other units made by their own constructors."""

    def by_calls(self, lines):
        return {tuple((c["fn"], tuple(c["args"])) for c in s["calls"]): s
                for s in lines[:-1]}

    def test_a_method_takes_the_handle_in_a_later_position(self):
        # dlist_insert_after(l, n, v): the unit's own method, the handle
        # second; after dlist_first it inserts, and the list grows
        seqs = self.by_calls(jsonl("dlist.bc", "dlist", "protocol", 4))
        ins = seqs[(("dlist_new", ()), ("dlist_append", ("#0", "1")),
                    ("dlist_first", ("#0",)),
                    ("dlist_insert_after", ("#0", "ptr#0", "2")),
                    ("dlist_count", ("#0",)))]
        self.assertEqual([c["result"] for c in ins["calls"][3:]], ["0", "2"])
        # no handle given out yet: the call is not made
        none = seqs[(("dlist_new", ()), ("dlist_append", ("#0", "1")),
                     ("dlist_insert_after", ("#0", "none", "2")))]
        self.assertEqual(none["calls"][-1]["outcome"], "rejected")

    def test_node_value_sees_the_appended_values(self):
        seqs = self.by_calls(jsonl("dlist.bc", "dlist", "protocol", 5))
        first = seqs[(("dlist_new", ()), ("dlist_append", ("#0", "1")),
                      ("dlist_first", ("#0",)), ("node_value", ("ptr#0",)))]
        self.assertEqual(first["calls"][2]["result"], "ptr#0")
        self.assertEqual((first["calls"][3]["result"],
                          first["calls"][3]["outcome"]), ("1", "normal"))
        # node_next gives out the next handle, which node_value then takes
        second = seqs[(("dlist_new", ()), ("dlist_append", ("#0", "1")),
                       ("dlist_append", ("#0", "2")),
                       ("dlist_first", ("#0",)), ("node_next", ("ptr#0",)),
                       ("node_value", ("ptr#1",)))]
        self.assertEqual(second["calls"][4]["result"], "ptr#1")
        self.assertEqual(second["calls"][5]["result"], "2")
        # past the end node_next gives out NULL: no handle to pass on
        end = seqs[(("dlist_new", ()), ("dlist_append", ("#0", "1")),
                    ("dlist_first", ("#0",)), ("node_next", ("ptr#0",)),
                    ("node_value", ("none",)))]
        self.assertEqual(end["calls"][-1]["outcome"], "rejected")
        text = bcwalk("explore", example("dlist.bc"), "--unit", "dlist",
                      "--depth", "3", check=0).stdout
        self.assertIn("dlist_append(target, 1);\n"
                      "dlist_first(target);  /* ==> ptr#0 */\n"
                      "node_value(ptr#0);\n==> 1\n", text)

    def test_a_call_with_no_handle_is_not_made(self):
        seqs = self.by_calls(jsonl("dlist.bc", "dlist", "protocol", 2))
        for fn in ("node_value", "node_next"):
            s = seqs[(("dlist_new", ()), (fn, ("none",)))]
            self.assertEqual(s["calls"][1]["outcome"], "rejected")
            self.assertNotIn("result", s["calls"][1])
        # dlist_first of an empty list gives out NULL: still no handle
        s = seqs[(("dlist_new", ()), ("dlist_first", ("#0",)))]
        self.assertEqual(s["calls"][1]["result"], "NULL")
        text = bcwalk("explore", example("dlist.bc"), "--unit", "dlist",
                      "--depth", "1", check=0).stdout
        self.assertIn("node_value(/* no node */);\n"
                      "==> *rejected* no node handle given out", text)

    def test_a_handle_used_after_its_node_was_freed_is_a_crash(self):
        for calls in ("stub", "ffi"):
            with self.subTest(calls=calls):
                p = bcwalk("explore", example("dlist.bc"), "--unit", "dlist",
                           "--depth", "4", "--format", "jsonl", "--calls",
                           calls, "--jobs", "2", check=0)
                lines = [json.loads(x) for x in p.stdout.splitlines()]
                seqs = self.by_calls(lines)
                s = seqs[(("dlist_new", ()), ("dlist_append", ("#0", "1")),
                          ("dlist_first", ("#0",)),
                          ("dlist_remove_first", ("#0",)),
                          ("node_value", ("ptr#0",)))]
                self.assertEqual(s["calls"][-1]["outcome"], "crash")
                summary = lines[-1]
                # recorded by the worker, which goes on: no restart
                self.assertEqual(summary["worker_restarts"], 0)
        text = bcwalk("explore", example("dlist.bc"), "--unit", "dlist",
                      "--depth", "4", check=0).stdout
        self.assertIn("dlist_first(target);  /* ==> ptr#0 */\n"
                      "dlist_remove_first(target);\nnode_value(ptr#0);\n"
                      "==> *crash* use after free (the node handle was "
                      "freed)", text)

    def test_the_algebra_walk_extends_calls_giving_out_handles(self):
        seqs = self.by_calls(jsonl("dlist.bc", "dlist", "algebra", 3))
        s = seqs[(("dlist_new", ()), ("dlist_append", ("#0", "1")),
                  ("dlist_first", ("#0",)), ("node_value", ("ptr#0",)))]
        self.assertEqual(s["calls"][-1]["result"], "1")

    def test_handle_users_in_the_model(self):
        m = json.loads(bcwalk("analyze", example("dlist.bc"), "--format",
                              "json", check=0).stdout)["units"][0]
        value = next(f for f in m["methods"] if f["name"] == "node_value")
        self.assertEqual((value["role"], value["params"][0]["kind"],
                          value["params"][0]["handle"]),
                         ("observer", "handle", "node"))
        text = bcwalk("analyze", example("dlist.bc"), check=0).stdout
        self.assertIn("int node_value(const node *n)\n"
                      "                   n: the node handle given out last",
                      text)

    def test_the_pool_takes_a_real_sbuf(self):
        seqs = self.by_calls(jsonl("sbuf.bc", "sbuf_pool", "protocol", 2))
        put = ("sbuf_pool_put", ("#0", "sbuf_new()"))
        s = seqs[(("sbuf_pool_new", ()), put,
                  ("sbuf_pool_capacity", ("#0",)))]
        # sbuf_new's buffer holds 32 bytes: zeroed storage would give 0
        self.assertEqual(s["calls"][-1]["result"], "32")
        text = bcwalk("explore", example("sbuf.bc"), "--unit", "sbuf_pool",
                      "--depth", "1", check=0).stdout
        self.assertIn("sbuf_pool_put(target, sbuf_new());\n==> 0", text)
        m = json.loads(bcwalk("analyze", example("sbuf.bc"), "--format",
                              "json", check=0).stdout)["units"][1]
        put = next(f for f in m["methods"] if f["name"] == "sbuf_pool_put")
        self.assertEqual(put["params"][1]["made_by"], "sbuf_new")
        self.assertIn("b: made by sbuf_new()",
                      bcwalk("analyze", example("sbuf.bc"), check=0).stdout)


class DesignStates(unittest.TestCase):
    """Issue 5: design states, the state walk and its graph."""

    def test_bounded_stack_matches_jwalk(self):
        doc = explore_json("bstack.bc", "bstack", "state", 3)
        self.assertEqual(
            {k: doc["sequences"][k] for k in ("normal", "terminated",
                                               "discarded")},
            {"normal": 601, "terminated": 44, "discarded": 132})
        # covers of 0, 1 and 10 calls after the constructor
        self.assertEqual([(s["name"], len(s["cover"]) - 1)
                          for s in doc["states"]],
                         [("empty", 0), ("default", 1), ("full", 10)])
        self.assertEqual(doc["states"][2]["predicates"],
                         {"is_empty": False, "is_full": True})
        # the bitcode's size == 0 is is_empty: bstack_is_empty returns it
        self.assertIn("predicate size == 0 merged into is_empty: "
                      "bstack_is_empty returns that comparison",
                      doc["warnings"])
        # concrete states are counted once across the states' walks
        lines = jsonl("bstack.bc", "bstack", "state", 3)
        seen = {s["concrete_state"] for s in lines[:-1]
                if "concrete_state" in s}
        self.assertEqual(doc["concrete_states"], len(seen))
        trans = {(t["from"], t["call"]): (t["outcome"], t["to"])
                 for t in doc["transitions"]}
        self.assertEqual(trans[("empty", "bstack_pop")], ("abort", None))
        self.assertEqual(trans[("full", "bstack_pop")], ("normal", "default"))
        self.assertEqual(trans[("default", "bstack_pop")], ("normal", "empty"))

    def test_report_grouped_by_state_then_length(self):
        text = bcwalk("explore", example("bstack.bc"), "--unit", "bstack",
                      "--walk", "state", "--depth", "2", check=0).stdout
        heads = [line for line in text.splitlines()
                 if ": all transitions of length" in line]
        self.assertEqual(heads, ["%s: all transitions of length %d" % (s, n)
                                 for s in ("empty", "default", "full")
                                 for n in range(3)])
        self.assertIn("Test mode: State exploration", text)
        self.assertIn("  full: cover of 10 calls after the constructor",
                      text)
        lines = jsonl("bstack.bc", "bstack", "state", 1)
        self.assertEqual({(s["state"], s["length"]) for s in lines[:-1]},
                         {(n, k) for n in ("empty", "default", "full")
                          for k in (0, 1)})
        # the cover's calls are shown, but only the last one's result
        full0 = next(s for s in lines[:-1]
                     if s["state"] == "full" and s["length"] == 0)
        self.assertEqual(len(full0["calls"]), 11)
        self.assertNotIn("result", full0["calls"][0])
        self.assertEqual(full0["calls"][-1]["args"], ["#0", "10"])

    def test_states_from_bitcode_predicates_only(self):
        doc = explore_json("ringq.bc", "ringq", "state", 1)
        self.assertEqual([(s["name"], len(s["cover"]) - 1)
                          for s in doc["states"]],
                         [("count == 0", 0), ("default", 1),
                          ("count == cap", 4)])

    def test_two_orthogonal_predicates_make_four_states(self):
        doc = explore_json("book.bc", "book", "state", 1)
        self.assertEqual(sorted(s["name"] for s in doc["states"]),
                         sorted(["default", "on_loan", "reserved",
                                 "on_loan & reserved"]))
        # is_on_loan returns on_loan != 0: the negation of on_loan == 0
        self.assertIn("predicate on_loan == 0 merged into is_on_loan: "
                      "book_is_on_loan returns that comparison's negation",
                      doc["warnings"])
        trans = {(t["from"], t["call"]): t["to"] for t in doc["transitions"]}
        self.assertEqual(trans[("reserved", "book_lend")],
                         "on_loan & reserved")
        self.assertEqual(trans[("on_loan & reserved", "book_cancel")],
                         "on_loan")

    def test_states_saved_with_the_results(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "s.results.msgpack")
            bcwalk("explore", example("bstack.bc"), "--unit", "bstack",
                   "--walk", "state", "--depth", "1", "-o", path, check=0)
            with open(path, "rb") as f:
                objs = mpack.stream(f.read())
        header, seqs, graph, trailer = objs[0], objs[1:-2], objs[-2], objs[-1]
        self.assertEqual((header["version"], header["walk"]), (2, "state"))
        fns = [f["name"] for f in header["functions"]]
        self.assertEqual([(name, len(cover) - 1)
                          for name, value, cover in graph["states"]],
                         [("empty", 0), ("default", 1), ("full", 10)])
        # each sequence names its state and how many calls its cover has
        self.assertEqual({(s[6], s[7]) for s in seqs},
                         {(0, 0), (1, 1), (2, 10)})
        push = fns.index("bstack_push")
        self.assertIn([2, fns.index("bstack_pop"), 0, 1], graph["transitions"])
        self.assertIn([0, push, 0, 1], graph["transitions"])
        self.assertEqual(trailer["summary"]["normal"] +
                         trailer["summary"]["terminated"], len(seqs))

    def test_chosen_predicates_and_the_graph(self):
        with tempfile.TemporaryDirectory() as tmp:
            dot = os.path.join(tmp, "bstack.dot")
            doc = explore_json("bstack.bc", "bstack", "state", 1,
                               "--predicates", "size == 0", "--graph", dot)
            self.assertEqual([s["name"] for s in doc["states"]],
                             ["size == 0", "default"])
            with open(dot) as f:
                graph = f.read()
        self.assertTrue(graph.startswith('digraph "bstack" {'))
        self.assertIn('s0 [label="size == 0"];', graph)
        self.assertIn('s0 -> s1 [label="bstack_push"];', graph)
        self.assertIn('s0 -> halted [label="bstack_pop / abort"];', graph)
        p = bcwalk("explore", example("bstack.bc"), "--unit", "bstack",
                   "--walk", "state", "--predicates", "is_big", check=2)
        self.assertIn('unit bstack has no predicate "is_big"; its '
                      'predicates are "is_empty", "is_full"', p.stderr)
        for bad, msg in ((("--walk", "state", "--predicates", ""),
                          "explore: --predicates: no predicate named"),
                         (("--walk", "state", "--predicates", "is_empty:"),
                          'an empty name after "is_empty:"'),
                         (("--predicates", "is_empty"),
                          "explore: --predicates applies to the state walk "
                          "only (--walk state)"),
                         (("--graph", "x.dot"),
                          "explore: --graph applies to the state walk only"),
                         (("--probe-depth", "4"),
                          "explore: --probe-depth applies to the state walk "
                          "only")):
            p = bcwalk("explore", example("bstack.bc"), "--unit", "bstack",
                       *bad, check=2)
            self.assertIn(msg, p.stderr)
        # renamed: the states take the new names
        doc = explore_json("bstack.bc", "bstack", "state", 1, "--predicates",
                           "is_empty:Empty,is_full:Full")
        self.assertEqual([s["name"] for s in doc["states"]],
                         ["Empty", "default", "Full"])


class Files(unittest.TestCase):
    def test_results_file_is_written_atomically(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "walk.results.msgpack")
            bcwalk("explore", example("bstack.bc"), "--unit", "bstack",
                   "--depth", "3", "--format", "json", "-o", path, check=0)
            data = open(path, "rb").read()
            self.assertIn(b"bcwalk-results", data[:64])
            self.assertIn(b"summary", data[-200:])
            self.assertEqual(os.listdir(d), ["walk.results.msgpack"])

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

    def test_explore_caches_the_model_and_survives_a_corrupt_cache(self):
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, XDG_CACHE_HOME=cache)
            args = [ARGS.bcwalk, "explore", example("bstack.bc"), "--unit",
                    "bstack", "--depth", "2", "--format", "jsonl"]
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


def model_states(start, step, methods, shown, depth):
    """Breadth-first over a model's states to `depth` calls: how many
    distinct states the hash sees (their first `shown` fields; the rest
    is the search's own bookkeeping).  step returns None for a call that
    halts."""
    seen, states, level = {start}, {start[:shown]}, [start]
    for _ in range(depth):
        nxt = []
        for st in level:
            for m in methods:
                s = step(st, m)
                if s is None:
                    continue
                states.add(s[:shown])
                if s not in seen:
                    seen.add(s)
                    nxt.append(s)
        level = nxt
    return len(states)


def bstack_model(depth):
    """Distinct concrete states of bstack within `depth` calls, by an
    independent breadth-first model of what the state hash sees: the size
    and all ten slots of `data`, stale ones included (a pop leaves its
    value; a slot never written holds the allocator's fill), reached with
    the master generator's pushes 1, 2, 3 ... (a push on a full stack
    draws its value too).  The search's own states add the counter, so
    it reaches every state of the full walk."""
    fill = "fill"
    start = (0, (fill,) * 10, 0)

    def step(st, m):
        size, data, pushed = st
        if m == "push":
            pushed += 1
            if size < 10:
                data = data[:size] + (pushed,) + data[size + 1:]
                size += 1
        elif m in ("pop", "top"):
            if size == 0:
                return None  # abort
            if m == "pop":
                size -= 1
        return (size, data, pushed)

    return model_states(start, step, ("push", "pop", "top", "size",
                                      "is_empty", "is_full"), 2, depth)


def ringq_model(depth):
    """The same for ringq (capacity 4, calloc'd slots): the slots, stale
    ones included, head, tail and count, with puts of 1, 2, 3 ..."""
    start = ((0,) * 4, 0, 0, 0, 0)

    def step(st, m):
        items, head, tail, count, put = st
        if m == "put":
            put += 1
            if count < 4:
                items = items[:tail] + (put,) + items[tail + 1:]
                tail, count = (tail + 1) % 4, count + 1
        elif m == "get" and count > 0:
            head, count = (head + 1) % 4, count - 1
        return (items, head, tail, count, put)

    return model_states(start, step, ("put", "get", "length"), 4, depth)


def concrete_states(lines):
    return {s["concrete_state"] for s in lines[:-1] if "concrete_state" in s}


class ConcreteStates(unittest.TestCase):
    def test_deep_bstack_walk_is_pruned_and_counts_its_states(self):
        self.assertEqual(bstack_model(12), 1195)
        s = explore_json("bstack.bc", "bstack", "protocol", 12)
        seq = s["sequences"]
        self.assertEqual(s["prune"], "state")  # the default from depth 6
        self.assertEqual(s["concrete_states"], 1195)
        self.assertEqual(seq["normal"] + seq["terminated"], 4111)
        self.assertEqual(seq["normal"] + seq["terminated"] + seq["discarded"],
                         sum(6 ** k for k in range(13)))
        self.assertGreater(seq["pruned_state"], 0)
        self.assertLess(s["elapsed_s"], 10)

    def test_deep_ringq_walk_is_pruned_and_counts_its_states(self):
        for depth in (12, 14):
            s = explore_json("ringq.bc", "ringq", "protocol", depth)
            self.assertEqual(s["concrete_states"], ringq_model(depth))
        self.assertEqual(s["concrete_states"], 222)
        self.assertLess(s["elapsed_s"], 10)

    def test_pruning_keeps_the_set_of_states(self):
        for bc, unit, depth in (("bstack.bc", "bstack", 6),
                                ("ringq.bc", "ringq", 8),
                                ("dlist.bc", "dlist", 4),
                                ("sbuf.bc", "sbuf", 3)):
            full = jsonl(bc, unit, "protocol", depth, "--prune", "none")
            pruned = jsonl(bc, unit, "protocol", depth, "--prune", "state")
            self.assertEqual(full[-1]["prune"], "none")
            self.assertEqual(pruned[-1]["prune"], "state")
            self.assertEqual(concrete_states(full), concrete_states(pruned),
                             bc)
            self.assertEqual(full[-1]["concrete_states"],
                             len(concrete_states(full)))
            self.assertLess(len(pruned), len(full), bc)
            # a pruned sequence is reported, its extensions are not run
            self.assertTrue(any(x.get("pruned") for x in pruned[:-1]))
        self.assertEqual(len(concrete_states(full)),
                         full[-1]["concrete_states"])

    def test_prune_none_keeps_the_figures(self):
        for extra in ((), ("--prune", "none")):
            s = explore_json("bstack.bc", "bstack", "protocol", 3, *extra)
            seq = s["sequences"]
            self.assertEqual((seq["normal"], seq["terminated"],
                              seq["discarded"], seq["pruned_state"]),
                             (111, 28, 120, 0))
            self.assertEqual(s["prune"], "none")
            self.assertEqual(s["concrete_states"], bstack_model(3))
        s = explore_json("bstack.bc", "bstack", "protocol", 6, "--prune",
                         "none")
        seq = s["sequences"]
        self.assertEqual(seq["normal"] + seq["terminated"], 17935)
        self.assertEqual(seq["pruned_state"], 0)
        self.assertEqual(s["concrete_states"], bstack_model(6))

    def test_text_report_counts_pruned_and_states(self):
        out = bcwalk("explore", example("bstack.bc"), "--unit", "bstack",
                     "--depth", "6", check=0).stdout
        self.assertIn("Discarded 55848 test sequences whose prefixes were "
                      "pruned\nPruned 36648 of them below sequences that "
                      "reached an already visited concrete state\n"
                      "Reached 42 distinct concrete states\n", out)

    def test_an_observer_with_a_hidden_side_effect_is_flagged(self):
        roles = {m["name"]: m["role"] for m in json.loads(bcwalk(
            "analyze", example("tally.bc"), "--format", "json",
            check=0).stdout)["units"][0]["methods"]}
        self.assertEqual(roles["tally_last"], "observer")
        s = explore_json("tally.bc", "tally", "protocol", 3)
        # 1 + 3 + 9 sequences end in tally_last, every one bumps `reads`
        self.assertEqual(s["warnings"], [
            "tally_last was classified an observer but changed the concrete "
            "state in 13 runs (a side effect the analysis missed)"])
        out = bcwalk("explore", example("tally.bc"), "--unit", "tally",
                     "--depth", "2", check=0).stdout
        self.assertIn("Warning: tally_last was classified an observer but "
                      "changed the concrete state in 4 runs", out)
        for bc, unit in (("bstack.bc", "bstack"), ("ringq.bc", "ringq"),
                         ("counter.bc", "counter"), ("hset.bc", "hset")):
            self.assertEqual(explore_json(bc, unit, "protocol", 3)["warnings"],
                             [], bc)

    def test_states_are_the_same_in_every_worker(self):
        # dlist leaves dangling handles: freed blocks hash by offset
        one = jsonl("dlist.bc", "dlist", "protocol", 4, "--jobs", "1")
        two = jsonl("dlist.bc", "dlist", "protocol", 4, "--jobs", "2")
        self.assertEqual([x.get("concrete_state") for x in one[:-1]],
                         [x.get("concrete_state") for x in two[:-1]])


class DeepWalks(unittest.TestCase):
    """A sequence that gives out more than 64 pointers: the worker's
    table numbering them (ptr#k) once held 64 and was read past its end,
    giving a pointer met again past the 64th a new number."""

    @staticmethod
    def rung(step):
        """The rung ladder_climb steps on at its step-th call (from 0)."""
        up = step % (2 * 66 - 2)
        return up if up < 66 else 2 * 66 - 2 - up

    def test_ladder_keeps_every_pointer_number_at_depth_70(self):
        for calls in ("stub", "ffi"):
            with self.subTest(calls=calls):
                lines = jsonl("ladder.bc", "ladder", "protocol", 70,
                              "--calls", calls)
                seqs, summary = lines[:-1], lines[-1]
                self.assertEqual(summary["sequences"]["normal"], 71)
                self.assertEqual(summary["concrete_states"], 71)
                # rungs 0 .. 65 are new pointers, numbered in order; from
                # the 67th call the ladder goes down: rungs 64, 63 ...
                # again, with the numbers they had
                for s in seqs:
                    self.assertEqual(
                        [c["result"] for c in s["calls"][1:]],
                        ["ptr#%d" % self.rung(k) for k in range(s["length"])])
                self.assertEqual(
                    [c["result"] for c in seqs[-1]["calls"][-5:]],
                    ["ptr#65", "ptr#64", "ptr#63", "ptr#62", "ptr#61"])


class BadInput(unittest.TestCase):
    def expect_usage_error(self, *args, needle):
        p = bcwalk(*args, check=2)
        self.assertEqual(p.stdout, "")
        lines = p.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, p.stderr)
        self.assertIn(needle, lines[0])

    def test_not_bitcode(self):
        self.expect_usage_error("analyze", __file__, needle="not LLVM bitcode")

    def test_truncated_bitcode(self):
        with tempfile.NamedTemporaryFile(suffix=".bc") as f:
            f.write(open(example("bstack.bc"), "rb").read()[:700])
            f.flush()
            self.expect_usage_error("explore", f.name, "--unit", "bstack",
                                    needle="truncated")

    def test_bitcode_from_a_newer_llvm(self):
        newer = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                             "data", "bstack-llvm19.bc")
        p = bcwalk("analyze", newer)
        if p.returncode == 0:  # this bcwalk is built against LLVM 19
            self.assertIn("unit bstack", p.stdout)
            return
        self.expect_usage_error("analyze", newer,
                                needle="bitcode from LLVM 19 cannot be read "
                                       "by bcwalk built with LLVM 14")

    def test_missing_file(self):
        self.expect_usage_error("analyze", "/nonexistent.bc",
                                needle="/nonexistent.bc")

    def test_no_unit(self):
        self.expect_usage_error("analyze", example("nounit.bc"),
                                needle="no unit found")

    def test_unknown_unit(self):
        self.expect_usage_error("explore", example("bstack.bc"), "--unit",
                                "stack", needle="no unit named 'stack'")

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
                                         "(protocol, algebra or state)"),
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
        self.assertIn("[--walk protocol|algebra|state]", out)
        self.assertRegex(out, r"--depth K +the longest method sequence "
                              r"\(1 to 255, default 3\)")
        self.assertRegex(out, r"--max-combos N .*\n.*\(1 to 256, default 64\)")


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


def without_timing(lines):
    for k in ("elapsed_s", "calls_per_s"):
        del lines[-1][k]
    return lines


def calls_of(lines, *fns):
    """The calls of the one sequence calling exactly `fns`."""
    [seq] = [s for s in lines[:-1] if tuple(c["fn"] for c in s["calls"]) == fns]
    return seq["calls"]


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


def worker_reports(prefix):
    """The reports of sanitizer errors workers wrote (PREFIX.pid), in a
    build with sanitizers; none when prefix is empty."""
    if not prefix:
        return []
    folder, name = os.path.split(prefix)
    return sorted(os.path.join(folder, f) for f in os.listdir(folder)
                  if f.startswith(name + "."))


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--bcwalk", required=True)
    ap.add_argument("--examples", required=True)
    ap.add_argument("--cache", required=True)
    ap.add_argument("--opt", default="")
    ap.add_argument("--plugin", default="")
    # sanitizer builds: where the workers' ASan/UBSan reports go (PREFIX.pid)
    ap.add_argument("--worker-logs", default="")
    ARGS, rest = ap.parse_known_args()
    for old in worker_reports(ARGS.worker_logs):
        os.unlink(old)
    result = unittest.main(argv=[sys.argv[0], *rest], verbosity=2,
                           exit=False).result
    reports = worker_reports(ARGS.worker_logs)
    for path in reports:
        with open(path, errors="replace") as f:
            print("sanitizer report of a worker, %s:\n%s" % (path, f.read()),
                  file=sys.stderr)
    sys.exit(0 if result.wasSuccessful() and not reports else 1)
