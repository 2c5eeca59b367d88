"""encoding.py - end-to-end tests of bytes that are not UTF-8 (issue 9):
every text, JSON and JSON-lines output is valid UTF-8 and keeps each
byte of examples/enc.c's literals and names, as docs/results.md
("Strings") says.  ctest runs this file as test_e2e_encoding."""
import json
import os
import string
import tempfile
import unittest

import common
from common import bcwalk, example, msgpack_stream

# enc_set's literals, in its order: Latin-1, Latin-1 before a hex digit,
# valid UTF-8, a lone continuation byte, an overlong '/', the surrogate
# U+D800 encoded, a lead byte above F4, control characters, a sequence
# cut at the end
LITERALS = [b"caf\xe9", b"d\xe9cor", b"na\xc3\xafve", b"\x80lone",
            b"\xc0\xafover", b"\xed\xa0\x80sur", b"\xf5\x80\x80\x80high",
            b"tab\there\x01\x1f\x7f", b"cut\xe2\x82"]


def utf8(data):
    """bcwalk's output as text: it must be strict UTF-8."""
    return data.decode("utf-8", errors="strict")


def c_bytes(lit):
    """The bytes of a C string literal as the reports write them,
    adjacent literals joined; `\\x` takes every hex digit after it, as in
    C, so a literal not split after one fails here."""
    out, i = bytearray(), 0
    while i < len(lit):
        if lit[i] != '"':
            raise ValueError("not a C literal: %r" % lit)
        i += 1
        while lit[i] != '"':
            if lit[i] != "\\":
                out += lit[i].encode("ascii")
                i += 1
            elif lit[i + 1] == "x":
                j = i + 2
                while j < len(lit) and lit[j] in string.hexdigits:
                    j += 1
                v = int(lit[i + 2:j], 16)
                if v > 0xff:
                    raise ValueError("\\x escape out of range in %r" % lit)
                out.append(v)
                i = j
            else:
                out += {"n": b"\n", "\\": b"\\", '"': b'"'}[lit[i + 1]]
                i += 2
        i += 1
    return bytes(out)


def char_out(byte):
    """How the reports show a char result: 'c' when printable ASCII,
    else its signed value."""
    if 32 <= byte < 127 and chr(byte) not in "'\\":
        return "'%c'" % byte
    return str(byte - 256 if byte >= 128 else byte)


class Encoding(unittest.TestCase):
    def explore(self, fmt, *extra):
        p = bcwalk("explore", example("enc.bc"), "--unit", "enc", "--depth",
                   "2", "--format", fmt, *extra, check=0, raw=True)
        return utf8(p.stdout)

    def test_text_report_is_utf8_and_keeps_every_byte(self):
        text = self.explore("text")
        args = set()
        for line in text.splitlines():
            if line.startswith("enc_set(target, "):
                arg, label = line[len("enc_set(target, "):-len(" */);")] \
                    .split(" /* ")
                if label.startswith("name == "):
                    self.assertEqual(label, "name == " + arg)
                    args.add(c_bytes(arg))
        self.assertEqual(args, set(LITERALS + [b""]))
        # the literal is split where a hex digit follows \xe9
        self.assertIn('enc_set(target, "d\\xe9""cor"', text)
        # a name in UTF-8 as it is
        self.assertIn("enc_größe(target);", text)

    def test_jsonl_is_utf8_and_keeps_every_byte(self):
        lines = [json.loads(line) for line in
                 self.explore("jsonl").splitlines()]
        seqs = lines[:-1]
        sets = [s["calls"][1] for s in seqs
                if len(s["calls"]) > 1 and s["calls"][1]["fn"] == "enc_set"]
        by_literal = {}
        for call in sets:
            if call["labels"][1].startswith("name == "):
                self.assertEqual(call["labels"][1], "name == " + call["args"][1])
                by_literal[c_bytes(call["args"][1])] = call["result"]
        # each literal reached its own branch: the bytes passed are exact
        self.assertEqual({k: by_literal[k] for k in LITERALS},
                         {k: str(i + 1) for i, k in enumerate(LITERALS)})
        # what the unit returns: a string by its bytes, as a C literal
        # (ASCII, so UTF-8 whatever the bytes); a char out-parameter by
        # its value; a buffer it fills by its content
        firsts, names, copies = set(), {}, {}
        for s in seqs:
            fns = [c["fn"] for c in s["calls"]]
            if fns[1:] == ["enc_set", "enc_first"] and \
                    s["calls"][1]["labels"][1].startswith("name == "):
                lit = c_bytes(s["calls"][1]["args"][1])
                if lit in LITERALS:
                    firsts.add((lit, s["calls"][2]["out"]["out"]))
            if fns[1:] == ["enc_set", "enc_name"]:
                names[s["calls"][1]["args"][1]] = s["calls"][2]["result"]
            if fns[1:] == ["enc_set", "enc_copy"] and \
                    s["calls"][2]["args"][2] == "1":
                copies[s["calls"][1]["args"][1]] = s["calls"][2]["out"]["buf"]
        self.assertEqual(firsts, {(k, char_out(k[0])) for k in LITERALS})
        # every literal the unit matched comes back whole, every byte
        matched = {a: r for a, r in names.items() if r != '""'}
        self.assertEqual(len(matched), len(LITERALS))
        for arg, result in matched.items():
            self.assertEqual(c_bytes(result), c_bytes(arg))
        # copied into a 1-byte room: the NUL alone
        self.assertTrue(copies)
        self.assertEqual(set(copies.values()), {'""'})
        self.assertIn("enc_größe", {c["fn"] for s in seqs for c in s["calls"]})

    def test_json_summary_is_utf8(self):
        summary = json.loads(self.explore("json"))
        self.assertEqual(summary["unit"], "enc")
        self.assertEqual(summary["states"][0]["cover"], ["enc_new()"])

    def test_analyze_json_keeps_bytes_as_surrogates(self):
        p = bcwalk("analyze", example("enc.bc"), "--format", "json", check=0,
                   raw=True)
        raw = utf8(p.stdout)
        # the rule, literally: an invalid byte is \udcXX, valid UTF-8 as it is
        self.assertIn('"string": "caf\\udce9"', raw)
        self.assertIn('"string": "na\u00efve"', raw)
        self.assertIn('"string": "cut\\udce2\\udc82"', raw)
        self.assertIn('"string": "tab\\there\\u0001\\u001f\x7f"', raw)
        [unit] = json.loads(raw)["units"]
        fns = {f["name"]: f for f in unit["methods"]}
        [name] = [p for p in fns["enc_set"]["params"] if p["name"] == "name"]
        parts = [c for c in name["partitions"]
                 if c["label"].startswith("name == ")]
        self.assertEqual(
            [c["string"].encode("utf-8", "surrogateescape") for c in parts],
            LITERALS + [b""])
        self.assertEqual([c_bytes(c["label"][len("name == "):])
                          for c in parts], LITERALS + [b""])
        self.assertIn("enc_größe", fns)
        self.assertIn("größe", [f["name"] for f in unit["fields"]])

    def test_model_file_strings_not_utf8_are_bin(self):
        path = os.path.join(tempfile.gettempdir(), "enc.model.msgpack")
        bcwalk("analyze", example("enc.bc"), "-o", path, check=0)
        [model] = msgpack_stream(path)
        [unit] = model["units"]
        [fn] = [f for f in unit[6] if f[0] == "enc_set"]
        [name] = [p for p in fn[9] if p[0] == "name"]
        strs = [part[5] for part in name[10]][:len(LITERALS)]
        # UTF-8 as str, anything else as bin: the same bytes either way
        self.assertEqual([s if isinstance(s, bytes) else s.encode()
                          for s in strs], LITERALS)
        self.assertEqual([isinstance(s, str) for s in strs],
                         [lit in (b"na\xc3\xafve", b"tab\there\x01\x1f\x7f")
                          for lit in LITERALS])

    def test_warning_quotes_a_latin1_seed_as_a_c_literal(self):
        # 120 permutations of the seed, above the cap of 64: a warning
        seed = b"\xe9abcd"
        text = self.explore("text", "--permute", seed)
        [warning] = [line for line in text.splitlines()
                     if line.startswith("Warning: buffer permutation")]
        literal = warning.split("seed ")[1].split(":")[0]
        self.assertEqual(literal, '"\\xe9""abcd"')
        self.assertEqual(c_bytes(literal), seed)
        summary = json.loads(self.explore("json", "--permute", seed))
        self.assertEqual(summary["warnings"], [warning[len("Warning: "):]])

    def test_state_named_in_latin1_on_the_command_line(self):
        tmp = tempfile.gettempdir()
        dot = os.path.join(tmp, "latin1.dot")
        results = os.path.join(tmp, "latin1.results.msgpack")
        p = bcwalk("explore", example("bstack.bc"), "--unit", "bstack",
                   "--walk", "state", "--depth", "1", "--predicates",
                   b"is_empty:Leer\xe9,is_full:Voll\xc3\xa9", "--graph", dot,
                   "-o", results, "--format", "json", check=0, raw=True)
        names = [s["name"] for s in json.loads(utf8(p.stdout))["states"]]
        self.assertEqual([n.encode("utf-8", "surrogateescape") for n in names],
                         [b"Leer\xe9", b"default", b"Voll\xc3\xa9"])
        with open(dot, "rb") as f:
            graph = utf8(f.read())
        self.assertIn('[label="Leer\\\\xe9\\n', graph)
        self.assertIn('[label="Voll\u00e9\\n', graph)
        graph = msgpack_stream(results)[-3]
        self.assertEqual([s[0] for s in graph["states"]],
                         [b"Leer\xe9", "default", "Voll\u00e9"])


if __name__ == "__main__":
    common.main()
