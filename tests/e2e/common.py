"""common.py - what every end-to-end test file shares: the command line
ctest passes (tests/CMakeLists.txt), running the real bcwalk, and the
readers of its JSON, jsonl and msgpack output.  Each tests/e2e/<area>.py
ends with `common.main()`."""
import argparse
import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

try:
    import msgpack  # Debian's python3-msgpack: independent of bcwalk's writer
    import xxhash  # Debian's python3-xxhash: the results file's checksum
except ImportError as e:
    sys.exit("e2e: no %s module in %s: the tests run with Debian's "
             "/usr/bin/python3, python3-msgpack and python3-xxhash (`make "
             "setup-check` installs them)" % (e.name, sys.executable))

# set by main(): bcwalk, examples, cache, opt, plugin, tmp
ARGS = None


def bcwalk(*args, check=None, raw=False):
    """Runs bcwalk with the tests' model and worker cache; `check` is the
    exit code required, if any.  With `raw` its output stays bytes (and
    arguments may be bytes)."""
    env = dict(os.environ, XDG_CACHE_HOME=ARGS.cache)
    p = subprocess.run([ARGS.bcwalk, *args], capture_output=True,
                       text=not raw, env=env, timeout=300)
    if check is not None and p.returncode != check:
        raise AssertionError("bcwalk %s: exit %d, expected %d\nstderr: %s"
                             % (" ".join(map(os.fsdecode, args)),
                                p.returncode, check, p.stderr))
    return p


def example(name):
    """A file CMake built from examples/ (bitcode, a shared object)."""
    return os.path.join(ARGS.examples, name)


def source(*path):
    """A file of the source tree (this file lives in tests/e2e/)."""
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.join(os.path.dirname(os.path.dirname(here)), *path)


def line_of(example_c, text):
    """The line of examples/`example_c` holding `text`."""
    with open(source("examples", example_c), encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if text in line:
                return n
    raise AssertionError("no %r in %s" % (text, example_c))


def explore_json(bc, unit, walk, depth, *extra):
    p = bcwalk("explore", example(bc), "--unit", unit, "--walk", walk,
               "--depth", str(depth), "--format", "json", *extra, check=0)
    return json.loads(p.stdout)


def jsonl(bc, unit, walk, depth, *extra):
    p = bcwalk("explore", example(bc), "--unit", unit, "--walk", walk,
               "--depth", str(depth), "--format", "jsonl", *extra, check=0)
    return [json.loads(line) for line in p.stdout.splitlines()]


def msgpack_stream(path):
    """Every object of a msgpack file (a results stream, or a model's one
    map), decoded by python3-msgpack, strings as str."""
    with open(path, "rb") as f:
        return list(msgpack.Unpacker(f, raw=False))


def bcw_hash(data, seed=0):
    """core/hash.c's bcw__hash of bytes `data`: the checksum of model
    files and worker cache entries."""
    m = (1 << 64) - 1
    p1, p2, p3 = 0x9E3779B185EBCA87, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9

    def rotl(x, r):
        return (x << r | x >> (64 - r)) & m
    h = seed ^ ((p3 + len(data)) & m)
    whole = len(data) - len(data) % 8
    for i in range(0, whole, 8):
        w = int.from_bytes(data[i:i + 8], "little")
        h ^= rotl(w * p2 & m, 31) * p1 & m
        h = (rotl(h, 27) * p1 + p3) & m
    for b in data[whole:]:
        h ^= b * p3 & m
        h = rotl(h, 11) * p1 & m
    h ^= h >> 33
    h = h * p2 & m
    h ^= h >> 29
    h = h * p3 & m
    return h ^ h >> 32


def bcw_checksum(data):
    """core/hash.c's bcw__checksum of bytes `data`: the checksum of
    results files, XXH3's 64-bit hash."""
    return xxhash.xxh3_64_intdigest(bytes(data))


def without_timing(lines):
    """jsonl lines without the summary's timing, which varies run to run."""
    for k in ("elapsed_s", "calls_per_s"):
        del lines[-1][k]
    return lines


def calls_of(lines, *fns):
    """The calls of the one sequence calling exactly `fns`."""
    [seq] = [s for s in lines[:-1] if tuple(c["fn"] for c in s["calls"]) == fns]
    return seq["calls"]


def by_calls(lines):
    """The sequences of jsonl `lines` by their calls: ((fn, args) ...)."""
    return {tuple((c["fn"], tuple(c["args"])) for c in s["calls"]): s
            for s in lines[:-1]}


def parse_args(argv=None, extra=None):
    """The command line every e2e file takes; `extra` adds options to the
    parser.  Returns (args, the arguments it did not know)."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--bcwalk", required=True)
    ap.add_argument("--examples", required=True)
    ap.add_argument("--cache", required=True,
                    help="the model and worker cache (content-hashed, "
                         "shared by every test)")
    ap.add_argument("--opt", default="")
    ap.add_argument("--plugin", default="")
    ap.add_argument("--clang", default="clang",
                    help="the clang bcwalk builds workers with, for tests "
                         "that compile a source of their own")
    ap.add_argument("--sanitized", action="store_true",
                    help="bcwalk and its workers' runtime are built with "
                         "ASan and UBSan: their reports go to files in the "
                         "temporary folder, and any such file fails the run")
    ap.add_argument("--tmp", default="",
                    help="this file's own temporary folder, emptied first "
                         "(default: a new one under $TMPDIR)")
    if extra:
        extra(ap)
    return ap.parse_known_args(argv)


def own_tmp(path, name):
    """Makes `path` (or a new folder) this process's temporary folder, for
    tempfile and for the programs it runs, so that test files run in
    parallel by ctest never share one.  Returns the folder."""
    if path:
        shutil.rmtree(path, ignore_errors=True)
        os.makedirs(path)
    else:
        path = tempfile.mkdtemp(prefix="bcwalk-e2e-%s-" % name)
    tempfile.tempdir = path
    os.environ["TMPDIR"] = path
    return path


def sanitizer_reports(folder):
    """Sends the sanitizers' reports of every process the tests start
    (bcwalk and its workers, whose stderr is /dev/null) to files
    folder/sanitizer.<pid>; the environment overrides the runtime's
    built-in log path, so that areas run in parallel keep their own.
    Returns a function listing the reports written."""
    prefix = os.path.join(folder, "sanitizer")
    os.environ["ASAN_OPTIONS"] = "log_path=" + prefix
    os.environ["UBSAN_OPTIONS"] = "log_path=%s:print_stacktrace=1" % prefix
    return lambda: sorted(os.path.join(folder, f) for f in os.listdir(folder)
                          if f.startswith("sanitizer."))


def main():
    """Parses the command line and runs the calling file's tests."""
    global ARGS
    ARGS, rest = parse_args()
    name = os.path.splitext(os.path.basename(sys.argv[0]))[0]
    made = own_tmp(ARGS.tmp, name)
    if not ARGS.tmp:
        atexit.register(shutil.rmtree, made, ignore_errors=True)
    reports = sanitizer_reports(made) if ARGS.sanitized else list
    result = unittest.main(module="__main__", argv=[sys.argv[0], *rest],
                           verbosity=2, exit=False).result
    for path in reports():
        with open(path, errors="replace") as f:
            print("sanitizer report, %s:\n%s" % (path, f.read()),
                  file=sys.stderr)
    sys.exit(0 if result.wasSuccessful() and not reports() else 1)
