"""analyze.py - end-to-end tests of `bcwalk analyze`: units, roles,
predicates, parameter kinds and contracts in JSON and text, and the opt
plugin's model. ctest runs this file as test_e2e_analyze."""
import json
import os
import subprocess
import tempfile
import unittest

import common
from common import bcwalk, example, explore_json


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

    def test_a_header_static_function_copied_by_each_file_is_walked_once(self):
        # shelf.h's static inline helpers are emitted by both files of
        # the library and llvm-link renames the second copies: one
        # function of the API, its copies skipped with what they copy
        model = json.loads(bcwalk("analyze", example("shelf.bc"), "--format",
                                  "json").stdout)
        [u] = model["units"]
        self.assertEqual(sorted(m["name"] for m in u["methods"]),
                         ["shelf_count", "shelf_full", "shelf_put",
                          "shelf_room", "shelf_take"])
        skipped = dict(s.split(": ", 1) for s in model["skipped"])
        self.assertEqual(sorted(skipped), ["shelf_count.1", "shelf_full.2"])
        self.assertRegex(skipped["shelf_full.2"],
                         r"^is a copy of shelf_full \(.*shelf\.h:29\), the "
                         r"same static function emitted again by another "
                         r"file: walked once$")
        self.assertEqual([p["name"] for p in u["predicates"]],
                         ["full", "room", "n == 8"])

    def test_the_slow_path_of_a_static_inline_function_is_walked_through_it(
            self):
        # finreg.h's static inline finreg_push calls the exported
        # finreg_push_expand only once its array is full (msgpack-c's
        # zone finalizers): called alone with slots free, the expansion
        # skips them and finreg_free runs what they hold.  It is walked
        # through finreg_push, never alone, and nothing halts
        model = json.loads(bcwalk("analyze", example("finreg.bc"),
                                  "--format", "json").stdout)
        [u] = model["units"]
        self.assertEqual(sorted(m["name"] for m in u["methods"]),
                         ["finreg_count", "finreg_keep", "finreg_push"])
        self.assertIn("finreg_push_expand: is called only by finreg_push, "
                      "a static function of ", "\n".join(model["skipped"]))
        for depth in (3, 5):
            s = explore_json("finreg.bc", "finreg", "algebra", depth)
            self.assertEqual(s["sequences"]["terminated"], 0)
            self.assertGreater(s["sequences"]["normal"], 100)

    def test_a_header_only_librarys_static_helpers_are_not_walked(self):
        # tinyq.h defines the external API and a static helper that
        # trusts its caller's index (jsmn.h's shape): a header that
        # defines external functions is an implementation, and its
        # static functions are helpers, not API.  counter.h's static
        # inline accessor, in a header defining none, stays API
        model = json.loads(bcwalk("analyze", example("tinyq.bc"), "--format",
                                  "json").stdout)
        [u] = model["units"]
        self.assertEqual(sorted(m["name"] for m in u["methods"]),
                         ["tinyq_pop", "tinyq_push"])
        self.assertNotIn("tinyq_put_at",
                         bcwalk("analyze", example("tinyq.bc")).stdout)
        counter = json.loads(bcwalk("analyze", example("counter.bc"),
                                    "--format", "json").stdout)
        self.assertIn("counter_value", [m["name"] for c in counter["units"]
                                        for m in c["methods"]])
        walked = explore_json("tinyq.bc", "tinyq", "protocol", 3)
        self.assertEqual(walked["sequences"]["terminated"], 0)
        self.assertGreater(walked["sequences"]["normal"], 0)

    def test_a_teardown_that_keeps_a_field_is_the_destructor(self):
        # wheel_term frees the slots and stores back the start time it
        # read (`*w = (wheel){.start = w->start}`, sc_timer_term's
        # shape): no new value, so it is the unit's destructor, each
        # sequence ends with it, and nothing leaks
        text = bcwalk("analyze", example("wheel.bc")).stdout
        self.assertIn("destructor       void wheel_term(wheel *w)", text)
        walked = explore_json("wheel.bc", "wheel", "protocol", 2)
        self.assertEqual((walked["sequences"]["terminated"],
                          walked["sequences"]["leaking"]), (0, 0))
        # init, then each of wheel_add and wheel_count, then each again
        self.assertEqual(walked["sequences"]["normal"], 7)

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
        # the enumerators are its categories, and the switch's rest
        self.assertEqual([(c["label"], c["values"][0])
                          for c in mode["partitions"]],
                         [("SBUF_KEEP", "0"), ("SBUF_UPPER", "1"),
                          ("SBUF_LOWER", "4"),
                          ("mode != 0 && mode != 1 && mode != 4", "2")])
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

    def test_bytes_the_constructor_makes_its_struct_in_are_storage(self):
        # slab_new(uint8_t *mem, ...) indexes mem as its struct: zeroed
        # storage of the struct's size, not a string it would overrun
        u = json.loads(bcwalk("analyze", example("slab.bc"), "--format",
                              "json", check=0).stdout)["units"][0]
        params = {p["name"]: p for p in u["constructors"][0]["params"]}
        self.assertEqual(params["mem"]["kind"], "scratch")
        self.assertEqual(params["out"]["kind"], "unit_out")
        # a byte pointer read as characters stays a string
        m = json.loads(bcwalk("analyze", example("str.bc"), "--format",
                              "json", check=0).stdout)["units"][0]
        kinds = {p["kind"] for f in m["methods"] for p in f["params"]}
        self.assertIn("string", kinds)

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
        opt, plugin = common.ARGS.opt, common.ARGS.plugin
        if not plugin:
            self.skipTest("the plugin is not built with sanitizers")
        for bc in ("bstack.bc", "ringq.bc", "account.bc", "counter.bc",
                   "bstack-O2-nodebug.bc"):
            with tempfile.TemporaryDirectory() as d:
                out = os.path.join(d, "model.json")
                env = dict(os.environ, BCWALK_MODEL=out)
                p = subprocess.run([opt, "-load-pass-plugin=" + plugin,
                                    "-passes=bcwalk-analyze",
                                    "-disable-output", example(bc)],
                                   capture_output=True, text=True, env=env)
                self.assertEqual(p.returncode, 0, p.stderr)
                cmd = bcwalk("analyze", example(bc), "--format", "json",
                             check=0).stdout
                self.assertEqual(open(out).read(), cmd, bc)


if __name__ == "__main__":
    common.main()
