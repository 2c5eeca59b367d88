"""outcomes.py - end-to-end tests of how calls end (crash, hang, abort,
rejected, failure) and what the walk passes them: buffers, enums,
callbacks, out-parameters, cells and globals. ctest runs this file as
test_e2e_outcomes."""
import unittest

import common
from common import bcwalk, example, explore_json, jsonl


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

    def test_every_halt_names_its_cause(self):
        # the signal with the address and the unit's function and line,
        # the assertion's text, where abort() was called, a contract's
        # text, a hang's limit: in jsonl and in the text report
        unmet = ("no value of an argument's category on the object as it "
                 "is: the call was not made")

        def causes(bc, unit, *extra):
            return {s["calls"][-1]["fn"]: s["calls"][-1].get("cause")
                    for s in jsonl(bc, unit, "protocol", 1, *extra)[:-1]
                    if s["calls"][-1]["outcome"] != "normal" and
                    s["calls"][-1].get("cause") != unmet}
        self.assertEqual(causes("faulty.bc", "faulty", "--timeout", "200"), {
            "faulty_crash": "SIGSEGV: write to address 0x0 in faulty_crash "
                            "(faulty.c:38)",
            "faulty_check": "assertion failed: f->n > 0 (faulty.c:53)",
            "faulty_hang": "no return within 200 ms",
            "faulty_with_capacity": "the constructor returned NULL"})
        self.assertEqual(causes("bstack.bc", "bstack"), {
            "bstack_pop": "abort() called in bstack_pop (bstack.c:50)",
            "bstack_top": "abort() called in bstack_top (bstack.c:57)"})
        self.assertEqual(
            causes("account.bc", "account")["account_withdraw"],
            "ENSURES(a->balance >= -a->limit)")
        # a category the fresh account allows no value of is not called
        # under its label: amount <= 0 and above balance + limit + 1 = 1
        # (its boundary and an ordinary value inside it alike)
        lines = jsonl("account.bc", "account", "protocol", 1)
        both = [s for s in lines[:-1] if s["calls"][-1]["labels"][1:] ==
                ["amount <= 0 && amount > ((balance + limit) + 1)"]]
        self.assertEqual(len(both), 2)
        for s in both:
            self.assertEqual((s["calls"][-1]["outcome"],
                              s["calls"][-1]["cause"],
                              s["calls"][-1]["args"][1]),
                             ("rejected", unmet, "(balance + limit) + 1 + 1"))
        self.assertEqual(lines[-1]["sequences"]["unmet"], 2)
        # a category bounded by the fields walks its boundary and an
        # ordinary value inside it: a deposit of all the room left below
        # LONG_MAX, and one of 100
        bank = jsonl("bank.bc", "bank", "protocol", 1)
        room = "amount > 0 && amount <= (9223372036854775807 - balance)"
        self.assertEqual(sorted(s["calls"][-1]["args"][1] for s in bank[:-1]
                                if s["calls"][-1]["labels"][1:] == [room]),
                         ["100", "9223372036854775807"])
        # a fault inside libc (memcpy from NULL) is the unit's call of it
        self.assertEqual(causes("memfault.bc", "mf"), {
            "mf_load": "SIGSEGV: read of address 0x0 in mf_load "
                       "(memfault.c:27)"})
        # a free of an address no allocation gave faults in bcwalk's
        # allocator, which reads before it: the halt is the unit's call
        # of free, never a place in bcwalk's runtime
        bad = causes("badfree.bc", "bf")
        self.assertEqual(sorted(bad), ["bf_forget", "bf_trim"])
        self.assertEqual(bad["bf_forget"], "SIGSEGV: read of address 0x8 in "
                         "bf_forget (badfree.c:35)")
        # (how libc's free fails on the middle of a block is libc's)
        self.assertTrue(bad["bf_trim"].endswith(" in bf_trim (badfree.c:28)"),
                        bad["bf_trim"])
        # an error report the call fills (or a placeholder when given
        # NULL) is its output, not an argument bcwalk made up: the abort
        # after it is the unit's, not suspect
        walk = jsonl("errout.bc", "eo", "protocol", 2)
        self.assertEqual(walk[-1]["sequences"]["suspect"], 0)
        after = [s["calls"] for s in walk[:-1]
                 if [c["fn"] for c in s["calls"]] ==
                 ["eo_new", "eo_parse", "eo_first"] and
                 s["calls"][1]["args"][1] == "-1"]
        self.assertEqual([(c[1]["args"][2], c[2]["outcome"], c[2]["cause"])
                          for c in after],
                         [("&err", "abort",
                           "abort() called in eo_first (errout.c:58)")])
        text = bcwalk("explore", example("faulty.bc"), "--unit", "faulty",
                      "--depth", "1", "--timeout", "200", check=0).stdout
        self.assertIn("faulty_check(target);\n==> *abort* assertion failed: "
                      "f->n > 0 (faulty.c:53)\n", text)

    def test_aligned_allocators_are_the_runtimes(self):
        # posix_memalign, aligned_alloc and malloc_usable_size: aligned
        # blocks of the asked size, guarded like malloc's
        calls = {s["calls"][-1]["fn"] + str(s["calls"][-1]["args"][1:]):
                 s["calls"][-1]
                 for s in jsonl("aligned.bc", "abuf", "protocol", 1,
                                "--boundaries")[:-1]}
        self.assertEqual(calls["abuf_aligned[]"]["result"], "1")
        self.assertEqual(calls["abuf_room[]"]["result"], "32")
        self.assertEqual(calls["abuf_fill['40']"]["cause"],
                         "heap overflow: a write past the end of a 32-byte "
                         "block allocated in abuf_new (aligned.c:22)")
        self.assertEqual(calls["abuf_fill['0']"]["outcome"], "normal")

    def test_a_compiler_crash_falls_back_to_an_unoptimised_worker(self):
        # LLVM 14's optimiser crashes on twig_adopt (-disable-O0-optnone
        # bitcode): the worker is built at -O0 and the walk runs; the
        # note comes back with the cached worker too; twig_adopt's `from`
        # is a new twig (never the target: it does not compare the two):
        # 3 steps, 1 + 3 + 9 sequences
        for _ in range(2):
            s = explore_json("twig.bc", "twig", "protocol", 2)
            self.assertEqual((s["sequences"]["normal"],
                              s["sequences"]["terminated"]), (13, 0))
            self.assertIn(s["warnings"], (
                [], ["native build: clang crashed in "
                     "LoopLoadEliminationPass at -O1; the worker is built "
                     "at -O0 (slower calls)"]))
        seqs = {tuple(c["fn"] for c in q["calls"]): q["calls"][-1]
                for q in jsonl("twig.bc", "twig", "protocol", 2)[:-1]}
        self.assertEqual(seqs[("twig_new", "twig_grow", "twig_height")]
                         ["result"], "1")

    def test_a_leak_is_reported_after_the_destructor(self):
        # faulty_add forgets a block: each sequence calling it leaks, the
        # first block named with the call that allocated it
        lines = jsonl("faulty.bc", "faulty", "protocol", 2)
        leaks = {tuple(c["fn"] for c in s["calls"][1:]): s.get("leak")
                 for s in lines[:-1] if s["calls"][0]["fn"] == "faulty_new"}
        self.assertEqual(leaks[("faulty_add",)],
                         "1 block, 4 bytes, allocated in faulty_add "
                         "(faulty.c:60), left by faulty_free")
        self.assertEqual(leaks[("faulty_add", "faulty_add")],
                         "2 blocks, 8 bytes, the first allocated in "
                         "faulty_add (faulty.c:60), left by faulty_free")
        self.assertIsNone(leaks[("faulty_check",)])
        self.assertEqual(lines[-1]["sequences"]["leaking"],
                         sum(1 for s in lines[:-1] if "leak" in s))
        text = bcwalk("explore", example("faulty.bc"), "--unit", "faulty",
                      "--depth", "1", check=0).stdout
        self.assertIn("==> *leak* 1 block, 4 bytes, allocated in faulty_add "
                      "(faulty.c:60), left by faulty_free\n", text)
        # memory handed to the caller (a copy, a cursor) is not a leak
        owner = explore_json("owner.bc", "tag", "protocol", 3)
        self.assertGreater(owner["sequences"]["normal"], 30)
        self.assertEqual(owner["sequences"]["leaking"], 0)

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


    def test_a_heap_overflow_is_caught_on_its_call_and_contained(self):
        # spill_put(s, 4, v) writes one int past its block: caught on
        # that call, the worker restarted, every other sequence normal
        lines = jsonl("spill.bc", "spill", "protocol", 3, "--boundaries")
        # (i < 0 && i > cap has no value: not made, rejected)
        halted = [s["calls"] for s in lines[:-1]
                  if s["calls"][-1]["outcome"] not in ("normal", "rejected")]
        self.assertTrue(halted)
        for calls in halted:
            self.assertEqual((calls[-1]["fn"], calls[-1]["args"][1],
                              calls[-1]["outcome"]),
                             ("spill_put", "4", "crash"))
        summary = lines[-1]
        # one restart per halt, and one more where its sequence ran again
        # alone to confirm it (it was not its worker's first)
        self.assertGreaterEqual(summary["worker_restarts"], len(halted))
        self.assertLessEqual(summary["worker_restarts"], 2 * len(halted))
        # the calls not made are no halts: counted apart
        self.assertEqual(summary["sequences"]["terminated"], len(halted))
        text = bcwalk("explore", example("spill.bc"), "--unit", "spill",
                      "--depth", "1", "--boundaries", check=0).stdout
        self.assertIn("spill_put(target, 4 /* i >= 0 && i <= cap */, 1);\n"
                      "==> *crash* heap overflow: a write past the end of a "
                      "16-byte block allocated in spill_new (spill.c:22)\n",
                      text)
        self.assertEqual({c["cause"] for c in (calls[-1] for calls in halted)},
                         {"heap overflow: a write past the end of a 16-byte "
                          "block allocated in spill_new (spill.c:22)"})

    def test_a_write_before_a_block_is_caught_on_its_call(self):
        # ub_put16's bounds check wraps for pos = UINT64_MAX - 1: the two
        # bytes go before the 1-byte buffer.  The halt is the call that
        # wrote, an underflow of that block, not ub_free meeting the
        # damage; ub_put16's other category (it does not fit) is normal
        lines = jsonl("under.bc", "ubuf", "protocol", 2)
        halted = [s["calls"] for s in lines[:-1]
                  if s["calls"][-1]["outcome"] not in ("normal", "rejected")]
        self.assertTrue(halted)
        said = ("heap underflow: a write before the start of a 1-byte "
                "block allocated in ub_new (under.c:22)")
        self.assertEqual({(c[-1]["fn"], c[-1]["args"][1], c[-1]["outcome"],
                           c[-1]["cause"]) for c in halted},
                         {("ub_put16", "18446744073709551614", "crash",
                           said)})
        self.assertFalse([s for s in lines[:-1]
                          if s["calls"][-1]["fn"] == "ub_free"])
        self.assertEqual(
            {s["calls"][-1]["outcome"] for s in lines[:-1]
             if s["calls"][-1]["fn"] == "ub_put16" and
             s["calls"][-1]["args"][1] != "18446744073709551614"},
            {"normal"})
        text = bcwalk("explore", example("under.bc"), "--unit", "ubuf",
                      "--depth", "1", check=0).stdout
        self.assertIn("ub_put16(target, 18446744073709551614 /* (pos + 2) "
                      "<= cap */, 1);\n==> *crash* " + said + "\n", text)

    def test_a_query_of_an_error_flag_is_a_state_not_an_invariant(self):
        # flagbuf_valid reads only err, which the library clears or
        # raises bits in (flagbuf_take from an empty buffer, flagbuf_seek
        # past the end): false exactly when the library refused a call
        # and said so.  No invariant, no failure; a state predicate the
        # state walk splits on.  account_invariant, which reads a
        # computed balance, stays one
        text = bcwalk("analyze", example("flagbuf.bc")).stdout
        self.assertNotIn("invariant", text)
        self.assertIn("predicate        valid   [interface: flagbuf_valid]",
                      text)
        self.assertIn("invariant        account_invariant",
                      bcwalk("analyze", example("account.bc")).stdout)
        lines = jsonl("flagbuf.bc", "flagbuf", "protocol", 3)
        self.assertEqual(lines[-1]["sequences"]["terminated"], 0)
        took = [s["calls"] for s in lines[:-1]
                if [c["fn"] for c in s["calls"]] ==
                ["flagbuf_new", "flagbuf_take"]]
        self.assertEqual([(c[-1]["outcome"], c[-1]["result"]) for c in took],
                         [("normal", "-1")])
        states = {s["state"] for s in
                  jsonl("flagbuf.bc", "flagbuf", "state", 2)[:-1]}
        self.assertIn("valid", states)
        self.assertIn("default", states)

    def test_no_length_is_longer_than_its_buffer(self):
        # lsum_add's category len >= 4 GiB: no buffer a walk makes is that
        # long (64 KiB at most), so the category is left out, with a
        # note, rather than passed a buffer shorter than it says (whose
        # read past the end was bcwalk's making); the lengths it backs
        # are walked, and nothing halts
        text = bcwalk("analyze", example("lenbuf.bc")).stdout
        self.assertIn("len in [len < 4294967296]: 1, 0", text)
        self.assertIn("len: 1 categories longer than any buffer a walk "
                      "makes (65536 bytes) left out", text)
        lines = jsonl("lenbuf.bc", "lsum", "protocol", 1)
        add = {c["args"][2]: c for c in (s["calls"][-1] for s in lines[:-1])
               if c["fn"] == "lsum_add"}
        self.assertEqual({k: (c["args"][1], c["outcome"])
                          for k, c in add.items()},
                         {"1": ("bytes[16]", "normal")})
        self.assertEqual(lines[-1]["sequences"]["terminated"], 0)

    def test_a_pointer_read_where_nothing_wrote_one_halts_its_reader(self):
        # reg_get(r, count) reads one slot past its array: the pointer it
        # returns is the runtime's guard bytes, and the halt is reg_get's
        # heap over-read, not a crash of entry_weight, which would be
        # given it; reg_cursor on a new registry returns a field nothing
        # set (the runtime's fill).  No sequence goes on past either, so
        # entry_weight never halts
        lines = jsonl("peek.bc", "reg", "protocol", 3)
        halts = {(s["calls"][-1]["fn"], s["calls"][-1]["outcome"],
                  s["calls"][-1]["cause"])
                 for s in lines[:-1]
                 if s["calls"][-1]["outcome"] not in ("normal", "rejected")}
        self.assertEqual(halts, {
            ("reg_get", "crash",
             "heap over-read: it returned 0xfbfbfbfbfbfbfbfb as a pointer, "
             "bytes read past the end of a heap block (the guard bytes "
             "bcwalk puts after every block)"),
            ("reg_cursor", "crash",
             "uninitialised read: it returned 0xa5a5a5a5a5a5a5a5 as a "
             "pointer, bytes of memory nothing wrote (bcwalk fills new "
             "blocks with them)")})
        got = [s["calls"] for s in lines[:-1]
               if s["calls"][-1]["fn"] == "reg_get" and
               s["calls"][-1]["outcome"] == "crash"]
        self.assertEqual(min(len(c) for c in got), 3)
        self.assertTrue(all(c[-1]["args"][1] == str(
            sum(x["fn"] == "reg_add" for x in c)) for c in got))
        # a lookup inside the array hands out the entry itself
        self.assertTrue([s for s in lines[:-1]
                         if [c["fn"] for c in s["calls"]][-2:] ==
                         ["reg_get", "entry_weight"] and
                         s["calls"][-1]["outcome"] == "normal"])

if __name__ == "__main__":
    common.main()
