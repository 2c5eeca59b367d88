#!/usr/bin/env python3
"""Learning benchmark: what tracing a test program costs (bcwalk learn).

benchmarks/learn_loop.c makes 4,000,000 calls into examples/fifo.c in one
test.  It is built three ways and timed, fastest of --repeat runs:
natively (clang -O1 -no-pie, as bcwalk builds the traced program), and
the program bcwalk learn builds (--keep), run with its records to
/dev/null, both with the same calls; then bcwalk learn end to end
(instrumenting, building, running, reading the records, learning).
Each call's cost is the run's time over the calls.

Then merging: test programs of 100, 400 and 1500 random tests of fifo
(5 to 30 calls each, seeded: the same programs every run), learned end
to end; the model's nodes traced and merged, and the time.

Used by `make bench`; standard library only.
"""
import argparse
import json
import os
import random
import subprocess
import tempfile
import time

from bench import fail, print_machine

CALLS = 4000000


def run(cmd, env=None, **kw):
    t = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, **kw)
    if p.returncode != 0:
        fail(f"{' '.join(cmd)}: exit {p.returncode}: {p.stderr[-500:]}")
    return time.monotonic() - t, p


def best(cmd, repeat, env=None):
    return min(run(cmd, env)[0] for _ in range(repeat))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bcwalk", required=True)
    ap.add_argument("--clang", default="clang")
    ap.add_argument("--source", required=True, help="the source tree")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    src = lambda *p: os.path.join(args.source, *p)
    print("## Learning: a traced test program against the native one\n")
    print_machine()
    print()
    with tempfile.TemporaryDirectory() as tmp:
        at = lambda name: os.path.join(tmp, name)
        native = at("native")
        run([args.clang, "-O1", "-no-pie", "-w", src("benchmarks",
             "learn_loop.c"), src("examples", "fifo.c"), "-o", native])
        for name, c in (("fifo", src("examples", "fifo.c")),
                        ("loop", src("benchmarks", "learn_loop.c"))):
            run([args.clang, "-g", "-c", "-emit-llvm", c, "-o",
                 at(name + ".bc")])
        keep = at("keep")
        cmd = [args.bcwalk, "learn", at("loop.bc"), at("fifo.bc"), "--unit",
               "fifo", "--format", "json", "--keep", keep, "--time-limit",
               "600"]
        learn_s = min(run(cmd)[0] for _ in range(args.repeat))
        doc = json.loads(run(cmd)[1].stdout)
        [test] = doc["tests"]
        made = test["library_calls"]
        if made != CALLS + 2:
            fail(f"learn counted {made} calls, not {CALLS + 2}")
        native_s = best([native], args.repeat)
        with open(os.devnull, "w") as null:
            env = dict(os.environ, BCW_TRACE_FD="3")
            traced_s = min(
                run([os.path.join(keep, "traced")], env, pass_fds=(3,),
                    preexec_fn=lambda: os.dup2(null.fileno(), 3))[0]
                for _ in range(args.repeat))
        print("| run | calls | seconds | ns per call | against native |")
        print("|---|---:|---:|---:|---:|")
        for label, s in (("native -O1", native_s),
                         ("traced (records to /dev/null)", traced_s),
                         ("bcwalk learn, end to end", learn_s)):
            print(f"| {label} | {made} | {s:.3f} | {s / made * 1e9:.1f} | "
                  f"{s / native_s:.1f}x |")
        print(f"\nRecorded {test['unit_calls']} of the {made} calls "
              f"(--per-site 64); the model: {doc['model']['traced']['nodes']}"
              f" nodes traced, {doc['model']['merged']['nodes']} merged.\n")
    merging(args)


PROTOS = """#include <stddef.h>
typedef struct fifo fifo;
fifo *fifo_new(void);
void fifo_free(fifo *q);
int fifo_push(fifo *q, void *item);
void *fifo_pop(fifo *q);
void *fifo_peek(const fifo *q);
unsigned fifo_length(const fifo *q);
unsigned fifo_drop(fifo *q, unsigned n);
static int items[8];
"""


def random_tests(n, seed=7):
    """A test program of n random tests of fifo, as C."""
    rng = random.Random(seed)
    calls = (lambda: "fifo_push(q, &items[%d]);" % rng.randint(0, 7),
             lambda: "fifo_pop(q);", lambda: "fifo_peek(q);",
             lambda: "fifo_length(q);",
             lambda: "fifo_drop(q, %d);" % rng.randint(0, 3))
    out = [PROTOS]
    for t in range(n):
        body = " ".join(rng.choice(calls)() for _ in range(rng.randint(5, 30)))
        out.append("static void test_%d(void) { fifo *q = fifo_new(); %s "
                   "fifo_free(q); }" % (t, body))
    out.append("static void (*const tests[])(void) = {%s, NULL};"
               % ", ".join("test_%d" % t for t in range(n)))
    out.append("int main(void) { for (size_t i = 0; tests[i]; i++) "
               "tests[i](); return 0; }")
    return "\n".join(out)


def merging(args):
    print("| tests | nodes traced | nodes merged | edges merged | "
          "learn seconds |")
    print("|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        fifo = os.path.join(tmp, "fifo.bc")
        run([args.clang, "-g", "-c", "-emit-llvm",
             os.path.join(args.source, "examples", "fifo.c"), "-o", fifo])
        for n in (100, 400, 1500):
            c = os.path.join(tmp, "t%d.c" % n)
            with open(c, "w") as f:
                f.write(random_tests(n))
            bc = c[:-2] + ".bc"
            run([args.clang, "-g", "-c", "-emit-llvm", c, "-o", bc])
            s, p = run([args.bcwalk, "learn", bc, fifo, "--unit", "fifo",
                        "--format", "json"])
            m = json.loads(p.stdout)["model"]
            print(f"| {n} | {m['traced']['nodes']} | {m['merged']['nodes']} "
                  f"| {m['merged']['edges']} | {s:.1f} |")
    print()


if __name__ == "__main__":
    main()
