#!/usr/bin/env python3
"""bench_engine.py - bcwalk's walk engine on the bounded stack, side by side
in one run, printed as markdown tables ready for benchmarks/README.md.

usage: bench_engine.py --bcwalk BCWALK --native NATIVE_BSTACK
                       --bitcode build/examples/bstack.bc [--quick]
                       [--repeat N] [--jobs N] [--deep-seconds S]
                       [--cache DIR] [--workdir DIR]

Every figure is the median of --repeat runs (3); the runs of the commands
compared in one table alternate (run 1 of each, then run 2 of each, ...).
The worker is built once into a cache of the script's own ($XDG_CACHE_HOME,
a temporary folder unless --cache) by a depth-1 walk before anything is
timed.  `elapsed_s` is the walk's own time from bcwalk's JSON summary (the
analysis and worker start excluded); `wall` is the whole command, from
fork to exit, as this script sees it.

1. Throughput: `bcwalk explore bstack.bc --unit bstack --depth D --prune
   none --format json --jobs 1` against `native_bstack D` (the hand-written
   enumerator of benchmarks/native_bstack.c, run as bench.py runs it), at
   depths 3, 6, 9 and the deep depth 12.  Both must report the same normal,
   terminated and discarded counts.  The deep row is 12 only if its
   unpruned walk fits both in bcwalk's default --memory budget (half the
   machine's memory, computed as bcwalk does) and in --deep-seconds (150 s
   for the row's bcwalk and native runs together); otherwise the deepest
   depth below it that fits both, and the row's note says why the deeper
   ones were not run.  Sizes are exact (a model of bstack checked against
   every walk run); memory and time are extrapolated per sequence from the
   depth-9 runs.
2. `--jobs 2` against `--jobs 1`, depth 9, unpruned: speed-up by the
   walk's elapsed_s and by the command's wall time.
3. Per-sequence cost and peak memory: elapsed_s / (normal + terminated)
   in ns, for the unpruned walks of table 1 and a pruned depth-12 walk
   (the default --prune, state from depth 6).  Peak RSS is measured two
   ways.  `wait4`: ru_maxrss of the rusage wait4() returns for the bcwalk
   process, the number GNU time's %M prints (it calls wait4 too); Linux
   folds in the largest peak of the descendants bcwalk reaped (its fork
   servers, which fold in their workers'), so it is the largest of bcwalk
   and its workers.  `parent VmHWM`: the high-water mark of bcwalk's own
   address space, read from /proc/PID/status every 5 ms while it runs (the
   mark only grows, so the last reading is the peak unless it was reached
   in the last 5 ms).  When the two agree the peak is the parent's.
4. The same depth-9 walk with `--checkpoint FILE` (removed before every
   run) and with `-o FILE` (the results file, with its replay section of
   every result) against neither: ratios, file sizes, bytes per sequence.
5. Shards: `--shard 0/2 -o s0.msgpack` then `--shard 1/2 -o s1.msgpack`
   (one after the other, --jobs 1) and `bcwalk merge s0.msgpack s1.msgpack
   -o m.msgpack`, wall times, against one unsharded run with `-o` at
   --jobs 1 (the -o row of table 4); the merged file must be byte for
   byte the unsharded one (`cmp`): OK, or DIFFERENT and exit status 1.

A command that fails (a non-zero exit, a signal, no JSON summary, a walk
that stopped or is partial) prints its command line and stderr and the
script exits with status 1.

--quick shrinks the depths for a trial: 3, 5, 6 for table 1, 6 for the
depth-9 tables, 7 for the deep row and the pruned row.  A quiet 2-core
machine runs the full script in about two minutes; the deep row is most
of it.  About 1 GB of files is written to --workdir (a temporary
folder in $TMPDIR unless given).  Standard library only.
"""
import argparse
import datetime
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import cpu_model  # noqa: E402

import json  # noqa: E402


def progress(msg):
    print(f"bench_engine: {msg}", file=sys.stderr, flush=True)


def fail(msg):
    print(f"bench_engine: error: {msg}", file=sys.stderr)
    sys.exit(1)


class Run:
    """One finished command: its JSON document (or None), wall seconds,
    wait4's ru_maxrss and the polled VmHWM (KiB), output."""

    def __init__(self, cmd, doc, wall, maxrss_kib, hwm_kib, out, err):
        self.cmd, self.doc, self.wall = cmd, doc, wall
        self.maxrss_kib, self.hwm_kib = maxrss_kib, hwm_kib
        self.out, self.err = out, err


def _poll_hwm(pid, name, stop, box):
    """Keeps the highest VmHWM of process `pid` seen while it runs `name`
    (before its exec the child is a copy of this Python)."""
    path = f"/proc/{pid}/status"
    while not stop.is_set():
        try:
            with open(path) as f:
                text = f.read()
        except OSError:
            return
        fields = dict(line.split(":", 1) for line in text.splitlines()
                      if ":" in line)
        hwm = fields.get("VmHWM")
        if fields.get("Name", "").strip() == name[:15] and hwm:
            box[0] = max(box[0], int(hwm.split()[0]))
        stop.wait(0.005)


def run(cmd, env, want_json=True):
    """Runs cmd to its end; fails the benchmark on a non-zero exit, a
    signal, or (want_json) no usable JSON summary on stdout."""
    with tempfile.TemporaryFile() as fo, tempfile.TemporaryFile() as fe:
        t0 = time.monotonic()
        try:
            p = subprocess.Popen(cmd, stdout=fo, stderr=fe, env=env)
        except OSError as e:
            fail(f"cannot run {cmd[0]}: {e}")
        stop, box = threading.Event(), [0]
        poller = threading.Thread(
            target=_poll_hwm,
            args=(p.pid, os.path.basename(cmd[0]), stop, box), daemon=True)
        poller.start()
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.monotonic() - t0
        stop.set()
        poller.join()
        p.returncode = os.waitstatus_to_exitcode(status)
        fo.seek(0)
        fe.seek(0)
        out = fo.read().decode(errors="replace")
        err = fe.read().decode(errors="replace")
    line = " ".join(cmd)
    if p.returncode != 0:
        how = (f"killed by signal {-p.returncode}" if p.returncode < 0
               else f"exit status {p.returncode}")
        fail(f"{line}: {how}\n--- stderr ---\n{err.rstrip()}")
    doc = None
    if want_json:
        try:
            doc = json.loads(out)
            for key in ("sequences", "calls", "elapsed_s", "calls_per_s"):
                if key not in doc:
                    raise ValueError(f"no field {key!r}")
        except ValueError as e:
            fail(f"{line}: no usable JSON summary ({e})\n--- stdout ---\n"
                 f"{out[-2000:].rstrip()}\n--- stderr ---\n{err.rstrip()}")
        if doc.get("partial") or doc.get("stopped_at"):
            fail(f"{line}: the walk did not finish (partial or stopped_at)"
                 f"\n--- stderr ---\n{err.rstrip()}")
    return Run(cmd, doc, wall, ru.ru_maxrss, box[0], out, err)


def counts(doc):
    s = doc["sequences"]
    return (s["normal"], s["terminated"], s["discarded"])


def seqs(doc):
    s = doc["sequences"]
    return s["normal"] + s["terminated"]


def same_counts(runs):
    """Every repeat of a command must walk the same sequences."""
    for r in runs[1:]:
        if counts(r.doc) != counts(runs[0].doc) or \
                r.doc["calls"] != runs[0].doc["calls"]:
            fail(f"{' '.join(r.cmd)}: counts differ between repeated runs")
    return runs


def med(runs, f):
    return statistics.median(f(r) for r in runs)


def bstack_walk(depth, capacity=10):
    """(normal, terminated) of bstack's unpruned protocol walk: one
    constructor; push (ignored when full), pop and top (abort when empty),
    size, is_empty, is_full.  Checked against every walk the script runs."""
    sizes, normal, terminated = {0: 1}, 1, 0
    for _ in range(depth):
        nxt = {}
        for s, n in sizes.items():
            for t, k in ((min(s + 1, capacity), 1), (s, 3)):
                nxt[t] = nxt.get(t, 0) + n * k
            if s == 0:
                terminated += 2 * n
            else:
                nxt[s - 1] = nxt.get(s - 1, 0) + n
                nxt[s] = nxt.get(s, 0) + n
        sizes = nxt
        normal += sum(nxt.values())
    return normal, terminated


def default_budget():
    """bcwalk's default --memory: half the machine's physical memory."""
    return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2


def choose_deep(deep, mid, base_bytes, per_seq_bytes, per_seq_s, repeat,
                seconds, budget):
    """The deepest depth from `deep` down to mid + 1 whose unpruned walk's
    estimated peak memory fits `budget` and whose `repeat` runs of bcwalk
    and native fit `seconds`, or None; and why each deeper one was not."""
    skipped = []
    for d in range(deep, mid, -1):
        n = sum(bstack_walk(d))
        need = base_bytes + n * per_seq_bytes
        secs = n * per_seq_s * repeat
        if need > budget:
            skipped.append(f"{d} not run: its {n:,} sequences would take about"
                           f" {gib(need)} (at depth {mid}'s "
                           f"{per_seq_bytes:.0f} B a sequence), past the "
                           f"default --memory budget, {gib(budget)}")
        elif secs > seconds:
            skipped.append(f"{d} not run: its {n:,} sequences would take "
                           f"about {secs:.3g} s for {repeat} runs of bcwalk "
                           f"and native, past --deep-seconds {seconds:g}")
        else:
            return d, skipped
    return None, skipped


def gib(b):
    return f"{b / 2**30:.1f} GiB"


def mib(kib):
    return f"{kib / 1024:.0f} MiB"


def short(cmd, names):
    """cmd with the long paths replaced by their short names."""
    return " ".join(names.get(a, a) for a in cmd)


def print_machine(args):
    try:
        ncpu = len(os.sched_getaffinity(0))
    except AttributeError:
        ncpu = os.cpu_count()
    mem = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    now = datetime.datetime.now(datetime.timezone.utc)
    print("## bench_engine.py: the walk engine on bstack\n")
    print(f"Machine: {cpu_model()}, nproc {ncpu} (os.cpu_count "
          f"{os.cpu_count()}), {gib(mem)}; load average at start {load}")
    print(f"Date: {now.strftime('%Y-%m-%d %H:%M UTC')}")
    print(f"bcwalk = {os.path.abspath(args.bcwalk)}, bstack.bc = "
          f"{os.path.abspath(args.bitcode)}, native_bstack = "
          f"{os.path.abspath(args.native)}")
    print(f"Median of {args.repeat} runs each (alternating); elapsed_s: the "
          f"walk's time from the JSON summary; wall: the whole command."
          + (" QUICK RUN (--quick): small depths." if args.quick else ""))


def main():
    ap = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bcwalk", required=True, help="the bcwalk binary")
    ap.add_argument("--native", required=True, help="the native_bstack binary")
    ap.add_argument("--bitcode", required=True,
                    help="bstack's bitcode (build/examples/bstack.bc)")
    ap.add_argument("--quick", action="store_true",
                    help="small depths, for a trial: 3,5,6; 6 for the "
                         "depth-9 tables; 7 for the deep and pruned rows")
    ap.add_argument("--repeat", type=int, default=3,
                    help="runs of each command; the median is reported")
    ap.add_argument("--jobs", type=int, default=2,
                    help="workers of the parallel run of table 2")
    ap.add_argument("--deep-seconds", type=float, default=150.0,
                    help="most seconds the deep row's runs (bcwalk and "
                         "native, all repeats) may be estimated to take")
    ap.add_argument("--cache", help="XDG_CACHE_HOME for bcwalk (default: a "
                                    "temporary folder)")
    ap.add_argument("--workdir", help="where the checkpoint and results "
                                      "files go (default: a temporary folder)")
    args = ap.parse_args()
    if args.repeat < 1:
        fail("--repeat must be at least 1")
    if args.quick:
        depths, mid, deep, pruned_depth = [3, 5, 6], 6, 7, 7
    else:
        depths, mid, deep, pruned_depth = [3, 6, 9], 9, 12, 12
    for path in (args.bcwalk, args.native, args.bitcode):
        if not os.path.exists(path):
            fail(f"{path}: no such file")

    with tempfile.TemporaryDirectory(prefix="bench_engine.") as tmp:
        cache = args.cache or os.path.join(tmp, "cache")
        work = args.workdir or os.path.join(tmp, "work")
        os.makedirs(work, exist_ok=True)
        env = dict(os.environ, XDG_CACHE_HOME=cache)
        measure(args, env, work, depths, mid, deep, pruned_depth)


def measure(args, env, work, depths, mid, deep, pruned_depth):
    R = args.repeat
    names = {args.bcwalk: "bcwalk", args.bitcode: "bstack.bc",
             args.native: "native_bstack"}

    def explore(depth, *extra, prune=("--prune", "none"), jobs=1):
        return [args.bcwalk, "explore", args.bitcode, "--unit", "bstack",
                "--depth", str(depth), *prune, "--format", "json",
                "--jobs", str(jobs), *extra]

    def check_model(run_):
        d = run_.doc["depth"]
        if run_.doc.get("prune") == "none" and \
                (run_.doc["sequences"]["normal"],
                 run_.doc["sequences"]["terminated"]) != bstack_walk(d):
            fail(f"{' '.join(run_.cmd)}: the script's model of bstack "
                 f"expects (normal, terminated) {bstack_walk(d)}, the walk "
                 f"gave {counts(run_.doc)[:2]}: fix bstack_walk()")

    def path(name):
        return os.path.join(work, name)

    def rm(*files):
        for f in files:
            if os.path.exists(f):
                os.unlink(f)

    print_machine(args)
    sys.stdout.flush()
    # the worker is built and cached before anything is timed
    progress("building the worker (a depth-1 walk)")
    run(explore(1), env)

    # -- 1 and 3: throughput against native, per-sequence cost, memory --
    rows = {}  # depth -> (bcwalk runs, native runs)

    def throughput(d):
        progress(f"depth {d}: bcwalk and native, {R} runs each")
        b, n = [], []
        for _ in range(R):
            n.append(run([args.native, str(d)], env))
            b.append(run(explore(d), env))
        same_counts(b)
        same_counts(n)
        check_model(b[0])
        if counts(b[0].doc) != counts(n[0].doc):
            fail(f"depth {d}: native and bcwalk walked different sequences"
                 f" (normal, terminated, discarded): native "
                 f"{counts(n[0].doc)}, bcwalk {counts(b[0].doc)}")
        rows[d] = (b, n)

    for d in depths:
        throughput(d)

    # the deep row: the deepest depth <= deep whose unpruned walk fits the
    # default memory budget and the time budget, by depth `mid`'s runs
    b_mid, n_mid = rows[mid]
    small = min(depths)
    b_small = rows[small][0]
    per_seq_bytes = max(
        (med(b_mid, lambda r: r.hwm_kib) - med(b_small, lambda r: r.hwm_kib))
        * 1024 / (seqs(b_mid[0].doc) - seqs(b_small[0].doc)), 1.0)
    base_bytes = med(b_small, lambda r: r.hwm_kib) * 1024
    per_seq_s = (med(b_mid, lambda r: r.wall)
                 + med(n_mid, lambda r: r.doc["elapsed_s"])) / seqs(b_mid[0].doc)
    chosen, skipped = choose_deep(deep, mid, base_bytes, per_seq_bytes,
                                  per_seq_s, R, args.deep_seconds,
                                  default_budget())
    if chosen is not None:
        throughput(chosen)
    notes = {}
    if chosen is not None:
        sp = [r.doc.get("spilled_at") for r in rows[chosen][0]
              if r.doc.get("spilled_at")]
        notes[chosen] = "; ".join(
            ([f"deepest depth ≤ {deep} run unpruned"] if chosen != deep
             else []) + skipped
            + ([f"its tree passed the memory budget and spilled to disk from "
                f"length {sp[0]}"] if sp else []))

    print(f"\n### Throughput: unpruned protocol walk, 1 job, against the "
          f"native enumerator\n")
    print("| depth | sequences run | calls bcwalk / native | native calls/s "
          "| bcwalk calls/s | bcwalk/native | bcwalk command | note |")
    print("|---:|---:|---:|---:|---:|---:|---|---|")
    calls_differ = set()
    for d, (b, n) in rows.items():
        nr = med(n, lambda r: r.doc["calls_per_s"])
        br = med(b, lambda r: r.doc["calls_per_s"])
        if b[0].doc["calls"] != n[0].doc["calls"]:
            calls_differ.add(b[0].doc["calls"] - n[0].doc["calls"])
        print(f"| {d} | {seqs(b[0].doc):,} | {b[0].doc['calls']:,} / "
              f"{n[0].doc['calls']:,} | {nr / 1e6:.2f} M | {br / 1e6:.2f} M "
              f"| {br / nr:.2f} | `{short(b[0].cmd, names)}` "
              f"| {notes.get(d, '')} |")
    if chosen is None:
        print(f"| {deep} | not run | | | | | | "
              f"{'; '.join(skipped)}; no depth from {mid + 1} to {deep} fits |")
    print(f"\nnative command: `native_bstack D`. Both walk the same normal, "
          f"terminated and discarded sequences at every depth (checked).")
    if calls_differ:
        print(f"The call counts differ: bcwalk counts "
              f"{' or '.join(f'{x:+d}' for x in sorted(calls_differ))} "
              f"call(s) against native_bstack; each calls/s is the tool's own "
              f"calls / elapsed_s.")

    # -- 2, 4, 5: at depth `mid`: jobs, checkpoint, results file, shards --
    ckpt, one = path("walk.ckpt"), path("one.msgpack")
    s0, s1, merged = path("s0.msgpack"), path("s1.msgpack"), path("m.msgpack")
    plain, par, withck, witho, sh0, sh1, mrg = [], [], [], [], [], [], []
    ck_size = o_size = s0_size = s1_size = m_size = 0
    progress(f"depth {mid}: --jobs {args.jobs}, --checkpoint, -o, shards and "
             f"merge, {R} runs each")
    for _ in range(R):
        plain.append(run(explore(mid), env))
        par.append(run(explore(mid, jobs=args.jobs), env))
        rm(ckpt)
        withck.append(run(explore(mid, "--checkpoint", ckpt), env))
        ck_size = os.path.getsize(ckpt)
        rm(ckpt)
        rm(one)
        witho.append(run(explore(mid, "-o", one), env))
        o_size = os.path.getsize(one)
        rm(s0, s1, merged)
        sh0.append(run(explore(mid, "--shard", "0/2", "-o", s0), env))
        sh1.append(run(explore(mid, "--shard", "1/2", "-o", s1), env))
        mrg.append(run([args.bcwalk, "merge", s0, s1, "-o", merged], env,
                       want_json=False))
        s0_size, s1_size = os.path.getsize(s0), os.path.getsize(s1)
        m_size = os.path.getsize(merged)
    for runs in (plain, par, withck, witho, sh0, sh1):
        same_counts(runs)
    for runs in (par, withck, witho):
        if counts(runs[0].doc) != counts(plain[0].doc):
            fail(f"{' '.join(runs[0].cmd)}: counts differ from the plain walk")
    if seqs(sh0[0].doc) + seqs(sh1[0].doc) < seqs(plain[0].doc):
        fail("the two shards ran fewer sequences than the whole walk")
    if shutil.which("cmp"):
        same = subprocess.run(["cmp", "-s", merged, one]).returncode == 0
    else:
        import filecmp
        same = filecmp.cmp(merged, one, shallow=False)
    rm(ckpt, one, s0, s1, merged)

    def el(runs):
        return med(runs, lambda r: r.doc["elapsed_s"])

    def wl(runs):
        return med(runs, lambda r: r.wall)

    n_mid_seqs = seqs(plain[0].doc)
    print(f"\n### {args.jobs} jobs against 1, depth {mid}, unpruned "
          f"({n_mid_seqs:,} sequences)\n")
    print("| jobs | elapsed_s | wall s | speed-up by elapsed_s "
          "| speed-up by wall | command |")
    print("|---:|---:|---:|---:|---:|---|")
    for j, runs in ((1, plain), (args.jobs, par)):
        print(f"| {j} | {el(runs):.3f} | {wl(runs):.3f} "
              f"| {el(plain) / el(runs):.2f} | {wl(plain) / wl(runs):.2f} "
              f"| `{short(runs[0].cmd, names)}` |")

    print(f"\n### Per-sequence cost and peak memory, 1 job\n")
    pr = []
    progress(f"depth {pruned_depth}, pruned: {R} runs")
    for _ in range(R):
        pr.append(run(explore(pruned_depth, prune=()), env))
    same_counts(pr)
    print("| depth | prune | sequences run | elapsed_s | ns per sequence "
          "| peak RSS (wait4) | parent VmHWM | command |")
    print("|---:|---|---:|---:|---:|---:|---:|---|")
    for d, runs in [(d, b) for d, (b, _) in rows.items()] + \
            [(pruned_depth, pr)]:
        print(f"| {d} | {runs[0].doc['prune']} | {seqs(runs[0].doc):,} "
              f"| {el(runs):.4f} "
              f"| {el(runs) / seqs(runs[0].doc) * 1e9:,.0f} "
              f"| {mib(med(runs, lambda r: r.maxrss_kib))} "
              f"| {mib(med(runs, lambda r: r.hwm_kib))} "
              f"| `{short(runs[0].cmd, names)}` |")
    print("\npeak RSS (wait4): ru_maxrss of bcwalk's rusage from wait4 (what "
          "`/usr/bin/time -f %M` prints), the largest of bcwalk and the "
          "processes it reaped; parent VmHWM: bcwalk's own peak, polled "
          "from /proc every 5 ms.")

    print(f"\n### What the walk writes: checkpoint and results file, depth "
          f"{mid}, unpruned, 1 job\n")
    print("| run | elapsed_s | wall s | elapsed ratio | wall ratio "
          "| file bytes | bytes per sequence | command |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    nm = {**names, ckpt: "FILE", one: "FILE"}
    for what, runs, size in (("plain", plain, None),
                             ("--checkpoint", withck, ck_size),
                             ("-o (results file)", witho, o_size)):
        sz = "" if size is None else f"{size:,}"
        per = "" if size is None else f"{size / n_mid_seqs:.1f}"
        print(f"| {what} | {el(runs):.3f} | {wl(runs):.3f} "
              f"| {el(runs) / el(plain):.2f} | {wl(runs) / wl(plain):.2f} "
              f"| {sz} | {per} | `{short(runs[0].cmd, nm)}` |")
    print("\nThe checkpoint file is removed before every run, and so is the "
          "results file.")

    print(f"\n### Shards: depth {mid}, unpruned, 2 shards one after the "
          f"other, 1 job each, then merge\n")
    nm = {**names, s0: "s0.msgpack", s1: "s1.msgpack", merged: "m.msgpack",
          one: "one.msgpack"}
    print("| step | sequences run | elapsed_s | wall s | file bytes "
          "| command |")
    print("|---|---:|---:|---:|---:|---|")
    shard_wall = wl(sh0) + wl(sh1)
    print(f"| shard 0/2 | {seqs(sh0[0].doc):,} | {el(sh0):.3f} "
          f"| {wl(sh0):.3f} | {s0_size:,} | `{short(sh0[0].cmd, nm)}` |")
    print(f"| shard 1/2 | {seqs(sh1[0].doc):,} | {el(sh1):.3f} "
          f"| {wl(sh1):.3f} | {s1_size:,} | `{short(sh1[0].cmd, nm)}` |")
    print(f"| shards, sum | {seqs(sh0[0].doc) + seqs(sh1[0].doc):,} "
          f"| {el(sh0) + el(sh1):.3f} | {shard_wall:.3f} "
          f"| {s0_size + s1_size:,} | |")
    print(f"| merge | | | {wl(mrg):.3f} | {m_size:,} "
          f"| `{short(mrg[0].cmd, nm)}` |")
    print(f"| shards + merge | | | {shard_wall + wl(mrg):.3f} | | |")
    print(f"| one run, -o | {n_mid_seqs:,} | {el(witho):.3f} "
          f"| {wl(witho):.3f} | {o_size:,} "
          f"| `{short(witho[0].cmd, {**nm, one: 'one.msgpack'})}` |")
    print(f"\n(shards + merge) / one run, wall: "
          f"{(shard_wall + wl(mrg)) / wl(witho):.2f}; shards alone: "
          f"{shard_wall / wl(witho):.2f}. The shards run the lengths before "
          f"the split each (sequences run, summed, include them twice).")
    print(f"Merged file against the one-run file (cmp): "
          f"{'OK' if same else 'DIFFERENT'}")
    if not same:
        sys.exit(1)


if __name__ == "__main__":
    main()
