"""oracle.py - end-to-end tests of the oracle file (docs/oracle.md):
`bcwalk oracle dump` prints a file written by another writer, with its
bytes as docs/oracle.md says, and refuses bad ones with one line and
exit 2.  ctest runs this file as test_e2e_oracle."""
import json
import os
import struct
import tempfile
import unittest

import msgpack

import common
from common import bcwalk, bcw_hash


def oracle_bytes(unit, entries, version=1):
    """An oracle file as docs/oracle.md lays it out, written here, not by
    bcwalk: its one map, the checksum last."""
    p = msgpack.Packer(use_bin_type=True)
    out = p.pack_map_header(5)
    for key, value in (("format", "bcwalk-oracle"), ("version", version),
                       ("unit", unit), ("entries", entries)):
        out += p.pack(key) + p.pack(value)
    out += b"\xa8checksum\xcf"
    return out + struct.pack(">Q", bcw_hash(out))


ENTRIES = [
    [0x9a3c0e1b55f0d2a7, ["bstack_new()", "bstack_push(target, 1 /* x > 0 */)"],
     "pass", 1795000000, ["normal", None, None, []]],
    [0, ["doc_new()", b"doc_put(target, \"caf\xe9\")"], "pending", 1795000060,
     ["crash", "SIGSEGV: read of address 0x8 in doc_put (doc.c:9)", None,
      ["visit", "16"]]],
]


class Dump(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def write(self, name, data):
        path = os.path.join(self.tmp.name, name)
        with open(path, "wb") as f:
            f.write(data)
        return path

    def test_dump_prints_each_entry(self):
        path = self.write("o.msgpack", oracle_bytes("bstack", ENTRIES))
        p = bcwalk("oracle", "dump", path, check=0)
        self.assertEqual(p.stderr, "")
        doc = json.loads(p.stdout)
        self.assertEqual((doc["format"], doc["version"], doc["unit"]),
                         ("bcwalk-oracle", 1, "bstack"))
        first, second = doc["entries"]
        self.assertEqual(first, {
            "state": "9a3c0e1b55f0d2a7",
            "sequence": ["bstack_new()",
                         "bstack_push(target, 1 /* x > 0 */)"],
            "verdict": "pass", "first_seen": "2026-11-18T11:06:40Z",
            "outcome": "normal", "cause": None, "result": None, "out": {}})
        # bytes that are not UTF-8 as lone surrogates (docs/results.md)
        self.assertEqual(second["sequence"][1], "doc_put(target, \"caf\udce9\")")
        self.assertEqual((second["state"], second["verdict"], second["out"]),
                         (None, "pending", {"visit": "16"}))
        # an entry per line
        self.assertEqual(p.stdout.count("\n"), 4)

    def test_bad_files_are_one_line_and_exit_2(self):
        good = oracle_bytes("bstack", ENTRIES)
        for what, data, says in (
                ("truncated", good[:-3], "corrupt oracle file"),
                ("a byte changed", good.replace(b"x > 0", b"x > 1"),
                 "corrupt oracle file (its checksum does not match its "
                 "bytes)"),
                ("another version", oracle_bytes("bstack", ENTRIES, 2),
                 "oracle version 2, this bcwalk reads 1"),
                ("an entry twice", oracle_bytes("bstack", ENTRIES[:1] * 2),
                 "two entries of one key"),
                ("not msgpack", b"BC\xc0\xde", "corrupt oracle file"),
                ("empty", b"", "corrupt oracle file")):
            with self.subTest(what):
                path = self.write("bad.msgpack", data)
                p = bcwalk("oracle", "dump", path, check=2)
                self.assertEqual(p.stdout, "")
                self.assertEqual(p.stderr.count("\n"), 1, p.stderr)
                self.assertTrue(p.stderr.startswith("bcwalk: %s: " % path))
                self.assertIn(says, p.stderr)
        # a model file is no oracle
        model = os.path.join(self.tmp.name, "m.msgpack")
        bcwalk("analyze", common.example("bstack.bc"), "-o", model, check=0)
        p = bcwalk("oracle", "dump", model, check=2)
        self.assertEqual(p.stderr, "bcwalk: %s: not a bcwalk oracle file\n"
                         % model)
        p = bcwalk("oracle", check=2)
        self.assertIn("dump FILE", p.stderr)


if __name__ == "__main__":
    common.main()
