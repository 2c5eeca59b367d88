#!/usr/bin/env python3
"""install.py - `make install` gives a bcwalk that works on its own: staged
into a temporary prefix, with the build tree's runtime and headers moved
away, it builds a worker from the staged runtime, walks an example, builds
a custom generator against the staged headers, and pkg-config finds them.
The installed binary names no build-tree or source-tree path.

The build tree's runtime is moved away and back, so ctest runs this test
alone (RUN_SERIAL).

usage: install.py --build BUILD --source SOURCE --examples EXAMPLES"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile


def run(*args, env=None, check=True):
    p = subprocess.run(args, capture_output=True, text=True, env=env)
    if check and p.returncode != 0:
        sys.exit("install.py: %s failed (%d):\n%s%s"
                 % (" ".join(args), p.returncode, p.stdout, p.stderr))
    return p


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--examples", required=True)
    a = ap.parse_args()
    build, source = os.path.realpath(a.build), os.path.realpath(a.source)
    with tempfile.TemporaryDirectory() as tmp:
        stage = os.path.join(tmp, "stage")
        run("cmake", "--install", build, "--prefix", stage)
        bcwalk = os.path.join(stage, "bin", "bcwalk")
        for rel in ("bin/bcwalk", "lib/bcwalk/libbcwalk_rt.a",
                    "include/bcwalk/generator.h", "include/bcwalk/contract.h",
                    "lib/pkgconfig/bcwalk.pc", "share/man/man1/bcwalk.1"):
            if not os.path.exists(os.path.join(stage, rel)):
                sys.exit("install.py: %s was not installed" % rel)

        # what the binary holds besides debug info names no build path;
        # a sanitizer build labels its instrumented globals with the
        # source file declaring them, which is no path bcwalk opens
        stripped = os.path.join(tmp, "bcwalk.stripped")
        run("objcopy", "--strip-debug", bcwalk, stripped)
        with open(stripped, "rb") as f:
            data = f.read()
        for path in (build, source):
            for m in re.finditer(re.escape(path.encode()) + rb"[^\0]*", data):
                named = m.group().decode(errors="replace")
                unit = os.path.relpath(named, source)
                if not (path == source and named.endswith((".c", ".cpp", ".h")) and
                        os.path.isfile(os.path.join(source, unit))):
                    sys.exit("install.py: the installed bcwalk names %s"
                             % named)

        env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, "cache"))
        env.pop("BCWALK_PREFIX", None)
        hidden = [os.path.join(build, "lib", "bcwalk"),
                  os.path.join(build, "include")]
        moved = []
        try:
            for h in hidden:
                if os.path.exists(h):
                    os.rename(h, h + ".hidden")
                    moved.append(h)
            bc = os.path.join(a.examples, "bstack.bc")
            out = run(bcwalk, "explore", bc, "--unit", "bstack", "--depth",
                      "3", "--format", "json", env=env).stdout
            s = json.loads(out)["sequences"]
            if (s["normal"], s["terminated"], s["discarded"]) != (111, 28, 120):
                sys.exit("install.py: the staged walk gave %s" % s)
            out = run(bcwalk, "explore", bc, "--unit", "bstack", "--depth",
                      "1", "--format", "jsonl", "--generator",
                      os.path.join(source, "examples", "gen_index.c"),
                      env=env).stdout
            seqs = [json.loads(line) for line in out.splitlines()]
            pushes = [c["args"][1] for s in seqs
                      if isinstance(s.get("calls"), list)
                      for c in s["calls"] if c["fn"] == "bstack_push"]
            if pushes != ["0"]:
                sys.exit("install.py: the staged generator gave %s" % pushes)
            cflags = run("pkg-config", "--cflags", "bcwalk", env=dict(
                env, PKG_CONFIG_PATH=os.path.join(stage, "lib",
                                                  "pkgconfig"))).stdout.split()
            run("cc", "-c", *cflags, os.path.join(source, "examples",
                                                   "account.c"),
                "-o", os.path.join(tmp, "account.o"))
            if run(bcwalk, "--version").stdout.split()[-1] != \
                    run(os.path.join(build, "bin", "bcwalk"),
                        "--version").stdout.split()[-1]:
                sys.exit("install.py: the staged bcwalk has another version")
        finally:
            for h in moved:
                os.rename(h + ".hidden", h)
    print("install.py: a staged install works without the build tree")


if __name__ == "__main__":
    main()
