"""roles.py - end-to-end tests of roles decided by what functions do, not
by their names: observers that hand the unit's memory to callbacks,
destructors that free the unit through a function-pointer field or under
a camelCase name, a `_delete` that only removes an element, a push giving back the node it
was handed a method and no constructor; external
functions the header beside their source leaves out are internal, not
API; one file of a library walked with the files it calls (--link).  ctest runs this file as test_e2e_roles."""
import json
import os
import shutil
import subprocess
import tempfile
import unittest

import common
from common import bcwalk, example, explore_json, jsonl, source


def roles_of(bc):
    m = json.loads(bcwalk("analyze", example(bc), "--format", "json",
                          check=0).stdout)
    [u] = m["units"]
    roles = {f["name"]: f["role"] for f in u["methods"]}
    roles.update((f["name"], "destructor") for f in u["destructors"])
    return u, roles


class Roles(unittest.TestCase):
    def test_constructors_named_in_camel_case(self):
        # zlib's deflateInit_(&strm, ...) and lz4's
        # LZ4F_createCompressionContext(&ctx, version): the name's last
        # word is its last '_'-separated word's last camelCase part, or
        # for a verb that makes or ends an object its first; so
        # czInit_ fills a caller's stream (czEnd releases it) and
        # CZ_createContext makes a context through its out parameter
        m = json.loads(bcwalk("analyze", example("camel.bc"), "--format",
                              "json").stdout)
        roles = {u["name"]: sorted((f["name"], f.get("role", "destructor"))
                                   for k in ("constructors", "destructors",
                                             "methods")
                                   for f in u.get(k, []))
                 for u in m["units"]}
        self.assertEqual(roles, {
            "cz_stream": [("czEnd", "destructor"), ("czFeed", "mutator"),
                          ("czInit_", "init-constructor"),
                          ("czTotal", "observer")],
            "cz_ctx": [("CZ_createContext", "constructor"),
                       ("CZ_frame", "mutator"),
                       ("CZ_freeContext", "destructor")]})
        for unit in ("cz_stream", "cz_ctx"):
            lines = jsonl("camel.bc", unit, "protocol", 2)
            s = lines[-1]["sequences"]
            self.assertGreater(s["normal"], 2, unit)
            self.assertEqual(s["leaking"], 0, unit)
            # the only halts: a failing status (a level or version out of
            # range), no object made
            self.assertEqual({q["calls"][-1]["cause"] for q in lines[:-1]
                              if q["calls"][-1]["outcome"] != "normal"},
                             {"the init function returned its failure "
                              "status: no object"} if unit == "cz_stream"
                             else {"the constructor returned NULL"}, unit)

    def test_a_stream_in_zlibs_shape(self):
        # examples/zstream.c: init functions returning another's status
        # (zsPackInit_ -> zsPackInit2_ -> zsPackReset), testing zalloc
        # for NULL (zeroed storage), checking version[0] against a
        # constant string and stream_size against sizeof (no length of
        # the string); a packer and an unpacker behind one state field
        m = json.loads(bcwalk("analyze", example("zstream.bc"), "--format",
                              "json").stdout)
        [u] = m["units"]
        fns = {f["name"]: f for k in ("constructors", "destructors",
                                      "methods") for f in u.get(k, [])}
        init = fns["zsPackInit_"]
        self.assertEqual((init["role"], init.get("succeeds_with"),
                          init.get("defaults")),
                         ("init-constructor", "zero", True))
        version, size = init["params"][2], init["params"][3]
        self.assertEqual((version["kind"], size["kind"]), ("string", "int"))
        self.assertIn("version[0] == '1'",
                      [c["label"] for c in version["partitions"]])
        self.assertEqual({n: f.get("family") for n, f in fns.items()}, {
            "zsPackInit_": "zs_internal", "zsPackInit2_": "zs_internal",
            "zsPackReset": "zs_internal", "zsPack": "zs_internal",
            "zsPackEnd": "zs_internal", "zsUnpackInit_": "zs_unpack",
            "zsUnpackBackInit_": "zs_unpack", "zsUnpack": "zs_unpack",
            "zsUnpackEnd": "zs_unpack", "zsUnpackBackEnd": None,
            "zsTotal": None})
        for depth in (1, 2):
            lines = jsonl("zstream.bc", "zs_stream", "protocol", depth)
            s = lines[-1]["sequences"]
            self.assertEqual((s["leaking"], s["suspect"]), (0, 0))
            causes = {q["calls"][-1]["cause"] for q in lines[:-1]
                      if q["calls"][-1]["outcome"] != "normal"}
            self.assertEqual(causes, {
                "the init function returned its failure status: no object",
                "it works on objects of another family than the "
                "constructor's (what a field of the unit points to): not "
                "this object"}, depth)
            made = {q["calls"][0]["fn"] for q in lines[:-1]
                    if q["calls"][-1]["outcome"] == "normal"}
            self.assertEqual(made, {"zsPackInit_", "zsPackInit2_",
                                    "zsUnpackInit_", "zsUnpackBackInit_"})
        # a back-mode stream: zsUnpackEnd refuses it (-2, nothing freed)
        # and zsUnpackBackEnd, of no family, ends it
        with tempfile.TemporaryDirectory() as folder:
            c = os.path.join(folder, "zstream.c")
            bcwalk("explore", example("zstream.bc"), "--unit", "zs_stream",
                   "--depth", "1", "--emit-c", c, "--emit-c-all")
            with open(c) as f:
                runs = f.read().split("static void seq_")[1:]
        back = [t for t in runs if "L_zsUnpackBackInit_(target" in t]
        self.assertTrue(back)
        for t in back:
            self.assertIn("L_zsUnpackBackEnd(target);", t)

    def test_a_push_giving_back_the_node_it_was_given_is_a_method(self):
        # nl_push(list, node) returns node: it makes nothing, so it is
        # no constructor of nodes (taking its own unit, it was skipped)
        # but a mutator of the list, given a node made by nl_node_new;
        # the list then holds two nodes, and nothing halts
        m = json.loads(bcwalk("analyze", example("nlist.bc"), "--format",
                              "json").stdout)
        lst = next(u for u in m["units"] if u["name"] == "nlist")
        push = next(f for f in lst["methods"] if f["name"] == "nl_push")
        self.assertEqual(push["role"], "mutator")
        self.assertEqual((push["params"][1]["kind"],
                          push["params"][1]["made_by"]),
                         ("unit_ref", "nl_node_new"))
        self.assertEqual(m["skipped"], [])
        walk = jsonl("nlist.bc", "nlist", "protocol", 3)
        self.assertEqual({s["calls"][-1]["outcome"] for s in walk[:-1]},
                         {"normal", "rejected"})
        lens = [s["calls"][-1]["result"] for s in walk[:-1]
                if [c["fn"] for c in s["calls"]] ==
                ["nl_new", "nl_push", "nl_push", "nl_len"]]
        self.assertEqual(lens, ["2"])

    def test_a_node_removed_is_one_the_list_holds(self):
        # nl_remove unlinks its node (stores it nowhere): it takes a node
        # the list gave out, never a new one, and none nl_pop took off
        m = json.loads(bcwalk("analyze", example("nlist.bc"), "--format",
                              "json").stdout)
        lst = next(u for u in m["units"] if u["name"] == "nlist")
        remove = next(f for f in lst["methods"] if f["name"] == "nl_remove")
        self.assertEqual((remove["params"][1]["kind"],
                          remove["params"][1]["handle"]),
                         ("handle", "nl_node"))
        outcome = {}
        for s in jsonl("nlist.bc", "nlist", "protocol", 3)[:-1]:
            fns = tuple(c["fn"] for c in s["calls"])
            if fns[-1] == "nl_remove":
                outcome.setdefault(fns, set()).add(s["calls"][-1]["outcome"])
        # (the node given out before the last: none yet, not made)
        self.assertEqual(outcome[("nl_new", "nl_push", "nl_remove")],
                         {"normal", "rejected"})
        self.assertEqual(outcome[("nl_new", "nl_push", "nl_pop",
                                  "nl_remove")], {"rejected"})
        self.assertEqual(outcome[("nl_new", "nl_remove")], {"rejected"})

    def test_a_lookup_through_its_own_iterator_is_an_observer(self):
        # nl_find(l, v) makes an iterator, walks it, frees it and returns
        # a node the list holds: no constructor of nodes but an observer
        # of the list (the iterator it writes and frees is no memory of
        # the list's) whose result is a node handle nl_remove takes
        m = json.loads(bcwalk("analyze", example("nlist.bc"), "--format",
                              "json").stdout)
        units = {u["name"]: u for u in m["units"] + m["parts"]}
        find = next(f for f in units["nlist"]["methods"]
                    if f["name"] == "nl_find")
        self.assertEqual(find["role"], "observer")
        [node] = [h for h in units["nlist"]["handles"]
                  if h["type"] == "nl_node"]
        self.assertIn("nl_find", node["from"])
        self.assertEqual(node["invalidated_by"], ["nl_free"])
        self.assertEqual([f["name"] for f in units["nl_node"]["constructors"]],
                         ["nl_node_new"])

    def test_each_member_of_a_macro_family_is_a_unit(self):
        # VEC_DECLARE(int) and VEC_DECLARE(double): two anonymous structs
        # named by their typedefs, each with its own functions
        m = json.loads(bcwalk("analyze", example("vecfam.bc"), "--format",
                              "json").stdout)
        got = {u["name"]: sorted(f["name"] for f in u["constructors"] +
                                 u["destructors"] + u["methods"])
               for u in m["units"]}
        self.assertEqual(got, {
            t: sorted("vec_%s_%s" % (t[4:], f)
                      for f in ("new", "free", "push", "pop", "len"))
            for t in ("vec_int", "vec_double")})
        self.assertEqual(m["skipped"], [])
        # a double pushed is the double popped
        popped = [c["out"]["out"]
                  for q in jsonl("vecfam.bc", "vec_double", "protocol", 2)[:-1]
                  for c in q["calls"][2:]
                  if [x["fn"] for x in q["calls"]] ==
                  ["vec_double_new", "vec_double_push", "vec_double_pop"]]
        self.assertEqual(popped, ["1.5"])

    def test_an_accessor_of_a_held_unit_is_no_constructor(self):
        # box_table(b) returns the table the box holds (through a cast
        # helper): an observer of the box; tables come from tab_new only
        m = json.loads(bcwalk("analyze", example("holder.bc"), "--format",
                              "json").stdout)
        units = {u["name"]: u for u in m["units"]}
        self.assertEqual([f["name"] for f in units["tab"]["constructors"]],
                         ["tab_new"])
        roles = {f["name"]: f["role"] for f in units["box"]["methods"]}
        self.assertEqual(roles, {"box_table": "observer"})

    def test_a_void_observer_is_a_warning(self):
        # examples/beep.c: beep_log only prints; beep_inc, void too, is a
        # mutator and no warning
        doc = explore_json("beep.bc", "beep", "protocol", 1)
        said = [w for w in doc["warnings"] if "returns nothing" in w]
        self.assertEqual(said, [
            "beep_log returns nothing and was classified an observer: it "
            "changes nothing of the unit a walk can see (its effect, if "
            "any, is elsewhere)"])

    def test_a_destructor_checking_for_null_is_given_null(self):
        # examples/late.c: late_free tests its argument only after
        # freeing through it; bstack_free is NULL-safe
        lines = jsonl("late.bc", "late", "protocol", 1)
        [s] = [s for s in lines[:-1] if s["length"] == 0]
        self.assertEqual([(c["fn"], c["args"]) for c in s["calls"]],
                         [("late_new", []), ("late_free", ["NULL"])])
        self.assertEqual(s["calls"][-1]["outcome"], "crash")
        self.assertTrue(s["calls"][-1]["cause"].startswith(
            "SIGSEGV: read of address 0x0 in late_free (late.c:"))
        # the sequence's methods still run after it
        self.assertEqual(lines[-1]["sequences"]["normal"], 2)
        text = bcwalk("explore", example("late.bc"), "--unit", "late",
                      "--depth", "1", check=0).stdout
        self.assertIn("late *target = late_new();\nlate_free(NULL);\n"
                      "==> *crash* SIGSEGV", text)
        doc = explore_json("bstack.bc", "bstack", "protocol", 1)
        self.assertEqual(doc["sequences"]["terminated"], 2)

    def test_lookups_calling_callbacks_are_observers(self):
        _, roles = roles_of("bag.bc")
        for fn in ("bag_contains", "bag_index_of", "bag_each", "bag_size"):
            self.assertEqual(roles[fn], "observer", fn)

    def test_destructors_by_behaviour(self):
        u, roles = roles_of("bag.bc")
        self.assertEqual([d["name"] for d in u["destructors"]],
                         ["bag_destroy", "bag_destroy_cb", "bagRelease"])
        # named like a destructor, but frees nothing of the bag
        self.assertEqual(roles["bag_delete"], "mutator")
        self.assertEqual(roles["bag_add"], "mutator")

    def test_functions_bcwalk_cannot_call_are_listed(self):
        m = json.loads(bcwalk("analyze", example("bag.bc"), "--format",
                              "json", check=0).stdout)
        self.assertEqual(m["skipped"], [
            "bag_add8: has more than 8 parameters; bcwalk cannot call it",
            "bag_trace: is variadic; bcwalk cannot call it"])

    def test_each_destructor_ends_sequences_in_turn(self):
        # box_destroy_all frees its item twice: sequences it ends after
        # box_fill abort in it, named; box_free ends the others, and a
        # sequence whose destructor halted is still extended
        lines = jsonl("twofree.bc", "box", "protocol", 3)
        ends = {}
        for s in lines[:-1]:
            last = s["calls"][-1]
            if last["outcome"] != "normal":
                ends.setdefault(last["fn"], set()).add(last["outcome"])
        self.assertEqual(ends, {"box_destroy_all": {"abort"}})
        fills = [s for s in lines[:-1]
                 if [c["fn"] for c in s["calls"][:2]] == ["box_new",
                                                           "box_fill"]]
        # new; fill ended by box_destroy_all aborts, and is extended
        self.assertEqual([c["fn"] for c in fills[0]["calls"]],
                         ["box_new", "box_fill", "box_destroy_all"])
        self.assertEqual({len(s["calls"]) for s in fills if
                          s["calls"][-1]["outcome"] == "normal"}, {3, 4})
        self.assertEqual(lines[-1]["sequences"]["discarded"], 0)

    def test_a_list_in_the_callers_cell_is_freed_by_its_free_only(self):
        # list_pop frees the head node as list_free frees them all; the
        # name decides between them
        _, roles = roles_of("slist.bc")
        self.assertEqual(roles["list_free"], "destructor")
        self.assertEqual(roles["list_pop"], "mutator")

    def test_walks_call_delete_and_never_halt(self):
        for walk, depth in (("protocol", 2), ("algebra", 3)):
            lines = jsonl("bag.bc", "bag", walk, depth)
            summary = lines[-1]
            self.assertEqual(summary["sequences"]["terminated"], 0, walk)
            self.assertEqual(summary["warnings"], [], walk)
            called = {c["fn"] for s in lines[:-1] for c in s["calls"]}
            self.assertIn("bag_delete", called, walk)
            self.assertNotIn("bag_destroy_cb", called, walk)
            self.assertNotIn("bagRelease", called, walk)
        # the same element added, deleted once, then no longer there
        lines = jsonl("bag.bc", "bag", "protocol", 3)
        [seq] = [s["calls"] for s in lines[:-1]
                 if [(c["fn"], c["args"][1:]) for c in s["calls"][1:]] ==
                 [("bag_add", ["Obj#0"]), ("bag_delete", ["Obj#0"]),
                  ("bag_contains", ["Obj#0"])]]
        self.assertEqual([c["result"] for c in seq[1:]], ["0", "1", "0"])

    def test_initialisers_by_any_word_and_in_any_position(self):
        # ks_setup(key, n, ks) fills the storage given last;
        # tags_init_sized has a word after "init".  Both are init
        # constructors; of the two calls freeing what the table reaches,
        # tags_forget keeps the array, tags_destroy frees it: only the
        # second is the destructor.  Neither unit halts
        m = json.loads(bcwalk("analyze", example("ksched.bc"), "--format",
                              "json").stdout)
        units = {u["name"]: u for u in m["units"]}
        self.assertEqual(
            [(c["name"], c["role"]) for c in units["keysched"]["constructors"]],
            [("ks_setup", "init-constructor")])
        tags = units["tags"]
        self.assertEqual([c["name"] for c in tags["constructors"]],
                         ["tags_init_sized"])
        self.assertEqual([d["name"] for d in tags["destructors"]],
                         ["tags_destroy"])
        roles = {f["name"]: f["role"] for f in tags["methods"]}
        self.assertEqual(roles["tags_forget"], "mutator")
        self.assertIn(roles["tags_init_widths"], ("observer", "mutator"))
        for unit in ("keysched", "tags"):
            s = explore_json("ksched.bc", unit, "protocol", 3)
            self.assertEqual(s["sequences"]["terminated"], 0, unit)
            self.assertGreater(s["sequences"]["normal"], 100, unit)
        rounds = [c["calls"] for c in jsonl("ksched.bc", "keysched",
                                            "protocol", 1)[:-1]
                  if c["calls"][-1]["fn"] == "ks_rounds"]
        self.assertEqual({(c[0]["args"][1], c[-1]["result"]) for c in rounds},
                         {("0", "0"), ("1", "0"), ("16", "4")})


def halts(bc, unit, depth):
    """(function, outcome) of every call of a protocol walk that halted
    for the code's own reasons (not a call bcwalk declined to make)."""
    return {(c["fn"], c["outcome"])
            for s in jsonl(bc, unit, "protocol", depth)[:-1]
            for c in s["calls"]
            if c["outcome"] not in ("normal", "rejected")}


class InternalFunctions(unittest.TestCase):
    """kin.c defines kin_node_grandparent, not static, which kin.h leaves
    out: an internal helper whose precondition (a node with a
    grandparent) only kin.c keeps.  The header beside the source decides
    what is API, as it does for c-algorithms's rb_tree_node_uncle."""

    def build(self, folder, header):
        """kin.c compiled in `folder`, with kin.h beside it when `header`
        (its text), else only on the include path."""
        shutil.copy(source("examples", "kin.c"), folder)
        if header is not None:
            with open(os.path.join(folder, "kin.h"), "w") as f:
                f.write(header)
        bc = os.path.join(folder, "kin.bc")
        subprocess.run([common.ARGS.clang, "-g", "-c", "-emit-llvm",
                        "-I", source("examples"), "kin.c", "-o", bc],
                       cwd=folder, check=True)
        return bc

    def test_left_out_by_the_header_is_skipped(self):
        text = bcwalk("analyze", example("kin.bc"), check=0).stdout
        self.assertIn("skipped kin_node_grandparent: is not declared in %s, "
                      "the header beside its source: an internal function\n"
                      % source("examples", "kin.h"), text)
        self.assertIn("mutator          kin_node *kin_insert(kin *t, int key)",
                      text)
        self.assertEqual(halts(example("kin.bc"), "kin", 3), set())

    def test_without_its_header_it_is_walked_and_crashes(self):
        with tempfile.TemporaryDirectory() as folder:
            bc = self.build(folder, None)
            text = bcwalk("analyze", bc, check=0).stdout
            self.assertNotIn("skipped kin_node_grandparent", text)
            self.assertIn(("kin_node_grandparent", "crash"),
                          halts(bc, "kin", 2))

    def test_a_changed_header_is_read_again(self):
        with open(source("examples", "kin.h")) as f:
            header = f.read()
        with tempfile.TemporaryDirectory() as folder:
            bc = self.build(folder, header)
            self.assertEqual(halts(bc, "kin", 2), set())
            with open(os.path.join(folder, "kin.h"), "w") as f:
                f.write(header.replace(
                    "void kin_free(kin *t);",
                    "void kin_free(kin *t);\n"
                    "kin_node *kin_node_grandparent(kin_node *n);"))
            # the same bitcode, its model cached: the header decides anew
            self.assertIn(("kin_node_grandparent", "crash"),
                          halts(bc, "kin", 2))
            os.remove(os.path.join(folder, "kin.h"))
            self.assertIn(("kin_node_grandparent", "crash"),
                          halts(bc, "kin", 2))


class PrivateHeaders(unittest.TestCase):
    """examples/privhdr: a text queue whose public header is api/tq.h, in
    a folder of its own, made of a byte buffer whose header, tq_buf.h,
    is beside its source.  tq_buf_put trusts its caller to have made
    room: called alone it writes past the block, which no user of the
    library can do."""

    def test_a_header_beside_its_source_is_the_librarys_own(self):
        m = json.loads(bcwalk("analyze", example("privhdr.bc"), "--format",
                              "json").stdout)
        self.assertEqual([u["name"] for u in m["units"]], ["tq"])
        skipped = {s.split(":")[0]: s for s in m["skipped"]}
        for fn in ("tq_buf_new", "tq_buf_reserve", "tq_buf_put",
                   "tq_buf_len", "tq_buf_free"):
            self.assertEqual(
                skipped[fn], "%s: is declared only in %s, a header beside its "
                "source, while the library's public headers are in %s: an "
                "internal function" % (fn, source("examples", "privhdr",
                                                  "tq_buf.h"),
                                       source("examples", "privhdr", "api")))
        self.assertEqual(halts("privhdr.bc", "tq", 3), set())

    def test_without_a_public_folder_every_header_is_public(self):
        # the same library with api/tq.h moved beside tq.c: tq_buf.h is
        # a header like the others, tq_buf a unit, and a walk calls
        # tq_buf_put where no room was made
        with tempfile.TemporaryDirectory() as folder:
            for name in ("all.c", "tq.c", "tq_buf.c", "tq_buf.h"):
                shutil.copy(source("examples", "privhdr", name), folder)
            shutil.copy(source("examples", "privhdr", "api", "tq.h"), folder)
            with open(os.path.join(folder, "tq.c")) as f:
                text = f.read()
            with open(os.path.join(folder, "tq.c"), "w") as f:
                f.write(text.replace('#include "api/tq.h"',
                                     '#include "tq.h"'))
            bc = os.path.join(folder, "privhdr.bc")
            subprocess.run([common.ARGS.clang, "-g", "-c", "-emit-llvm",
                            "all.c", "-o", bc], cwd=folder, check=True)
            m = json.loads(bcwalk("analyze", bc, "--format", "json").stdout)
            self.assertEqual(sorted(u["name"] for u in m["units"]),
                             ["tq", "tq_buf"])
            self.assertIn("tq_buf_put", {fn for fn, _ in halts(bc, "tq_buf",
                                                                2)})


class OneFileLinked(unittest.TestCase):
    """lonely.c calls lonely_tick and lonely_read, which lonely_peer.c
    defines: `--link lonely_peer.bc` builds and analyses it with them,
    its units still its own."""

    def test_linked_files_give_code_not_units(self):
        link = ("--link", example("lonely_peer.bc"))
        alone = json.loads(bcwalk("analyze", example("lonely.bc"), "--format",
                                  "json", check=0).stdout)
        linked = json.loads(bcwalk("analyze", example("lonely.bc"), *link,
                                   "--format", "json", check=0).stdout)
        self.assertEqual([u["name"] for u in linked["units"]], ["lonely"])
        self.assertEqual(linked["file"], example("lonely.bc"))
        self.assertFalse(any("peer" in s for s in linked["skipped"]))
        role = {m["name"]: m["role"] for m in alone["units"][0]["methods"]}
        self.assertEqual(role["lonely_peek"], "mutator")  # it cannot see
        role = {m["name"]: m["role"] for m in linked["units"][0]["methods"]}
        self.assertEqual(role["lonely_peek"], "observer")
        s = explore_json("lonely.bc", "lonely", "protocol", 3, *link)
        self.assertEqual((s["sequences"]["normal"],
                          s["sequences"]["terminated"]), (15, 0))
        seqs = jsonl("lonely.bc", "lonely", "protocol", 3, *link)[:-1]
        bumps = [s for s in seqs if [c["fn"] for c in s["calls"]] ==
                 ["lonely_new", "lonely_bump", "lonely_bump", "lonely_peek"]]
        self.assertEqual(bumps[0]["calls"][-1]["result"], "2")

    def test_files_that_do_not_link_are_named(self):
        p = bcwalk("explore", example("lonely.bc"), "--unit", "lonely",
                   "--link", "%s,%s" % (example("lonely_peer.bc"),
                                        example("lonely_peer.bc")),
                   check=2)
        self.assertIn("lonely_peer.bc: cannot be linked with", p.stderr)
        p = bcwalk("explore", example("lonely.bc"), "--unit", "lonely",
                   "--link", example("no-such.bc"), check=2)
        self.assertIn("no-such.bc", p.stderr)
        p = bcwalk("analyze", example("lonely.bc"), "--link", __file__,
                   check=2)
        self.assertIn("not LLVM bitcode", p.stderr)


if __name__ == "__main__":
    common.main()
