"""hostile.py - end-to-end tests of code under test that attacks the
process it runs in (examples/hostile.c): each behaviour gets its outcome
and cause, the other sequences' results stay right, bcwalk exits
normally and nothing it started is left running, even when bcwalk itself
is killed.  ctest runs this file as test_e2e_hostile."""
import ctypes
import json
import os
import resource
import signal
import socket
import subprocess
import tempfile
import time
import unittest

import common
from common import bcwalk, example, jsonl, without_timing


def line_of(text):
    """The line of examples/hostile.c holding `text`."""
    return common.line_of("hostile.c", text)


def running():
    """Processes running an executable from the tests' cache: workers
    and what they forked."""
    found = []
    for pid in os.listdir("/proc"):
        try:
            exe = os.readlink("/proc/%s/exe" % pid)
        except OSError:
            continue
        if exe.startswith(common.ARGS.cache):
            found.append((pid, exe))
    return found


def landlock_abi():
    """The running kernel's Landlock ABI, 0 without it."""
    libc = ctypes.CDLL(None, use_errno=True)
    # landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION)
    return max(libc.syscall(444, None, 0, 1), 0)


def own_network():
    """Can an unprivileged process have a network namespace of its own
    here (a user namespace with it)?"""
    return subprocess.run(["unshare", "-Urn", "true"],
                          capture_output=True).returncode == 0


def settle(seconds=5):
    """Waits a little (on a loaded machine, a while) for killed processes
    to go."""
    for _ in range(int(seconds * 10)):
        if not running():
            return
        time.sleep(0.1)


def setUpModule():
    # a cache of its own: running() looks for processes of its
    # executables, which the other test files' walks, side by side under
    # ctest -j, would otherwise be
    common.ARGS.cache = os.path.join(common.ARGS.tmp, "cache")
    os.makedirs(common.ARGS.cache, exist_ok=True)


class Hostile(unittest.TestCase):
    def test_each_behaviour_is_an_outcome_and_the_walk_goes_on(self):
        lines = jsonl("hostile.bc", "hostile", "protocol", 2,
                      "--timeout", "2000", "--worker-memory", "16")
        last = {}
        for s in lines[:-1]:
            c = s["calls"][-1]
            if len(s["calls"]) == 2:
                last[c["fn"]] = (c["outcome"], c.get("cause", c.get("result")))
        self.assertEqual(last["hostile_exit"],
                         ("abort", "exit(3) called in hostile_exit "
                                   "(hostile.c:%d)" % line_of("_exit(3)")))
        self.assertEqual(last["hostile_exec"],
                         ("abort", 'exec of "/bin/true" called (not run) in '
                                   "hostile_exec (hostile.c:%d)"
                                   % line_of("execl(")))
        self.assertEqual(last["hostile_fork_spin"], ("normal", None))
        self.assertEqual(last["hostile_fork_return"], ("normal", "0"))
        self.assertEqual(last["hostile_kill_parent"], ("normal", "-1"))
        self.assertEqual(last["hostile_kill_group"],
                         ("crash", "SIGTERM"))
        self.assertEqual(last["hostile_limit"], ("normal", "0"))
        # the address space holds the allocator's limit twice and some
        # room: not 64 GiB
        self.assertEqual(last["hostile_map"][0], "normal")
        self.assertLess(int(last["hostile_map"][1]), 16)
        self.assertEqual(last["hostile_thread"], ("normal", "0"))
        self.assertEqual(last["hostile_close_fds"], ("normal", None))
        self.assertEqual(last["hostile_fds"], ("normal", "0"))
        self.assertEqual(last["hostile_hog"],
                         ("abort", "runaway allocation: 1048576 more bytes "
                                   "would pass the sequence's limit "
                                   "(--worker-memory) in hostile_hog "
                                   "(hostile.c:%d)" % line_of("malloc(1 << 20)")))
        self.assertEqual(last["hostile_recurse"],
                         ("crash", "SIGSEGV: stack overflow in "
                                   "hostile_recurse"))
        # neither the fork server's pipes nor bcwalk's descriptors open
        # through /proc/<pid>/fd
        self.assertEqual(last["hostile_proc_fd"], ("normal", "0"))
        # a child forked past bcwalk's fork that sleeps, using no CPU
        # time, ends with its batch (below: nothing left running)
        self.assertEqual(last["hostile_fork_sleep"], ("normal", "1"))
        # it cannot make the fork server its tracer: its crash is a crash
        self.assertEqual(last["hostile_traceme"],
                         ("crash", "SIGSEGV: write to address 0x0 in "
                                   "hostile_traceme (hostile.c:%d)"
                                   % line_of("(traced + 1) = 1")))
        # after a method that changed the process, the next sequence
        # starts in a fresh one: the SIGSEGV handler hostile_handlers
        # asked for never replaces bcwalk's, and the counter a sequence
        # reads is its own
        seqs = {tuple(c["fn"] for c in s["calls"]): s["calls"]
                for s in lines[:-1]}
        after = seqs[("hostile_new", "hostile_handlers", "hostile_recurse")]
        self.assertEqual(after[-1]["outcome"], "crash")
        for fn in ("hostile_alarm", "hostile_limit", "hostile_thread",
                   "hostile_fork_spin", "hostile_close_fds"):
            calls = seqs[("hostile_new", fn, "hostile_calls")]
            self.assertEqual(calls[-1]["result"], "1", fn)
        self.assertGreater(lines[-1]["worker_restarts"], 0)
        settle()
        self.assertEqual(running(), [])

    def test_no_descriptor_of_bcwalk_reaches_the_code(self):
        # the results file (-o) is open while workers run: close-on-exec
        with tempfile.TemporaryDirectory() as d:
            lines = jsonl("hostile.bc", "hostile", "protocol", 1,
                          "--timeout", "2000", "--worker-memory", "16",
                          "-o", os.path.join(d, "r.msgpack"))
        fds = [s["calls"][-1].get("result") for s in lines[:-1]
               if s["calls"][-1]["fn"] == "hostile_fds"]
        self.assertEqual(fds, ["0"])

    def test_nothing_bcwalk_inherited_reaches_the_code(self):
        # a descriptor the caller left open (a log, say) is closed in
        # every worker: the code neither counts nor writes it
        with tempfile.TemporaryDirectory() as d:
            log = os.path.join(d, "log")
            with open(log, "w") as f:
                fd = os.dup(f.fileno())
                os.set_inheritable(fd, True)
                try:
                    p = subprocess.run(
                        [common.ARGS.bcwalk, "explore", example("hostile.bc"),
                         "--unit", "hostile", "--depth", "1", "--format",
                         "jsonl", "--timeout", "2000", "--worker-memory",
                         "16"], capture_output=True, text=True,
                        pass_fds=(fd,),
                        env=dict(os.environ, XDG_CACHE_HOME=common.ARGS.cache),
                        timeout=300)
                finally:
                    os.close(fd)
            lines = [json.loads(line) for line in p.stdout.splitlines()]
            fds = [s["calls"][-1].get("result") for s in lines[:-1]
                   if s["calls"][-1]["fn"] == "hostile_fds"]
            self.assertEqual(fds, ["0"])
            self.assertEqual(os.path.getsize(log), 0)

    def test_no_unix_socket_reaches_outside(self):
        # a listener of the test's own on a path socket: a worker's
        # network namespace and Landlock leave path sockets reachable,
        # seccomp refuses the worker any unix socket
        with tempfile.TemporaryDirectory() as d, \
                socket.socket(socket.AF_UNIX) as srv:
            path = os.path.join(d, "listener.sock")
            srv.bind(path)
            srv.listen(4)
            srv.setblocking(False)
            saved = dict(os.environ)
            os.environ.update(BCW_HOSTILE_SOCKET=path)
            try:
                lines = jsonl("hostile.bc", "hostile", "protocol", 1,
                              "--timeout", "2000", "--worker-memory", "16")
            finally:
                os.environ.clear()
                os.environ.update(saved)
            last = {s["calls"][-1]["fn"]: s["calls"][-1].get("result")
                    for s in lines[:-1]}
            self.assertEqual(last["hostile_unix"], "0")
            with self.assertRaises(BlockingIOError):
                srv.accept()

    def test_the_code_writes_only_in_its_scratch_folder(self):
        if landlock_abi() < 1:
            self.skipTest("no Landlock in this kernel: nothing confines "
                          "the code under test's files (README)")
        with tempfile.TemporaryDirectory() as d, socket.socket() as srv, \
                socket.socket(type=socket.SOCK_DGRAM) as udp:
            srv.bind(("127.0.0.1", 0))
            srv.listen(4)
            udp.bind(("127.0.0.1", srv.getsockname()[1]))
            udp.setblocking(False)
            away = os.path.join(d, "away.txt")
            scratch = os.path.join(d, "tmp")
            os.mkdir(scratch)
            saved = dict(os.environ)
            os.environ.update(BCW_HOSTILE_FILE=away, TMPDIR=scratch,
                              BCW_HOSTILE_PORT=str(srv.getsockname()[1]))
            try:
                lines = jsonl("hostile.bc", "hostile", "protocol", 1)
            finally:
                os.environ.clear()
                os.environ.update(saved)
            last = {s["calls"][-1]["fn"]: s["calls"][-1].get("result")
                    for s in lines[:-1]}
            # its working folder is the scratch folder, writable
            self.assertEqual(last["hostile_write_here"], "1")
            # anywhere else is not, and nothing was written there
            self.assertEqual(last["hostile_write_away"], "0")
            self.assertFalse(os.path.exists(away))
            # the scratch folder is gone with the walk
            self.assertEqual(os.listdir(scratch), [])
            if landlock_abi() >= 4 or own_network():
                self.assertEqual(last["hostile_connect"], "0")
            if own_network():
                self.assertEqual(last["hostile_udp"], "0")
                with self.assertRaises(BlockingIOError):
                    udp.recv(16)

    def test_jobs_one_and_two_give_the_same_results(self):
        # every line, concrete states included: hostile_map keeps the
        # addresses mmap gave it, the same in every worker since workers
        # are laid out without randomisation
        def walk(jobs):
            return without_timing(jsonl("hostile.bc", "hostile", "protocol",
                                        2, "--timeout", "2000",
                                        "--worker-memory", "16", "--jobs",
                                        jobs))
        self.assertEqual(walk("1"), walk("2"))

    def test_writing_over_shared_memory_is_the_calls_own_outcome(self):
        # examples/scribble.c: each sequence halts on its first call that
        # writes over the process's memory, with that call's outcome;
        # every other sequence's results are right, whatever the results
        # written over in the same worker, and the same with one worker
        # or two
        scribblers = {"scribble_shared": ("crash", "wrote over bcwalk's "
                                                   "shared memory"),
                      "scribble_forge": ("hang", "no return within 1000 ms"),
                      "scribble_all": ("crash", "wrote over bcwalk's "
                                                "shared memory")}

        def walk(jobs):
            lines = jsonl("scribble.bc", "scribble", "protocol", 2,
                          "--timeout", "1000", "--jobs", jobs)
            self.assertEqual(lines[-1]["sequences"]["normal"], 7)
            self.assertEqual(lines[-1]["sequences"]["terminated"], 9)
            seen = []
            for s in lines[:-1]:
                calls = s["calls"]
                fns = [c["fn"] for c in calls]
                first = next((k for k, f in enumerate(fns)
                              if f in scribblers), None)
                last = calls[-1]
                if first is None:
                    self.assertEqual(last["outcome"], "normal", fns)
                    if fns[-1] == "scribble_count":
                        self.assertEqual(last["result"],
                                         str(fns.count("scribble_add")))
                    seen.append([(c["fn"], c.get("result"))
                                 for c in calls])
                    continue
                self.assertEqual(len(calls), first + 1, fns)
                expect = scribblers[fns[first]]
                # the whole process written over too (scribble_all): it
                # dies some way, and the call's outcome is the same
                self.assertEqual((last["outcome"], last["cause"]), expect)
                seen.append([(c["fn"], c["outcome"], c.get("cause"))
                             for c in calls])
            return seen
        self.assertEqual(walk("1"), walk("2"))
        settle()
        self.assertEqual(running(), [])

    def test_results_written_over_while_the_next_batch_runs(self):
        # examples/smudge.c: one call writes over the results its worker
        # wrote before it and returns; with one worker the next batch is
        # already running when the parent finds them out: that worker is
        # replaced, the batch sent again, the lost results run again
        # alone; the report is two workers' (which never met the race)
        def walk(jobs):
            lines = jsonl("smudge.bc", "smudge", "protocol", 13,
                          "--prune", "none", "--jobs", jobs)
            summary = lines[-1]
            self.assertEqual(summary["sequences"]["normal"], 2 ** 14 - 1)
            self.assertEqual(summary["sequences"]["terminated"], 0)
            # the worker that held the lost results, replaced
            self.assertGreaterEqual(summary.pop("worker_restarts"), 1)
            for key in ("elapsed_s", "calls_per_s"):
                summary.pop(key)
            return lines
        self.assertEqual(walk("1"), walk("2"))

    def test_a_cpu_limit_ends_what_the_clock_of_a_call_misses(self):
        # examples/escape.c: threads that burn CPU time faster than the
        # clock runs, and a child forked past bcwalk's fork that leaves
        # the worker's session and spins on after bcwalk has exited
        lines = jsonl("escape.bc", "escape", "protocol", 1,
                      "--worker-cpu", "1", "--timeout", "20000")
        last = {}
        for s in lines[:-1]:
            c = s["calls"][-1]
            last[c["fn"]] = (c["outcome"], c.get("cause", c.get("result")))
        self.assertEqual(last["escape_burn"],
                         ("hang", "its worker passed its CPU time limit, "
                                  "1 s (--worker-cpu)"))
        self.assertEqual(last["escape_fork"], ("normal", "1"))
        self.assertEqual(last["escape_count"], ("normal", "0"))
        # the child needs its second of CPU time, which a loaded machine
        # gives it slowly
        settle(30)
        self.assertEqual(running(), [])

    def test_a_workers_stack_is_one_mib_whatever_the_shell_allows(self):
        # examples/deep.c: deep_descend needs 2 MiB of stack, deep_shallow
        # a few KiB.  The worker's calls have 1 MiB, under the shell's
        # usual 8 MiB and under `ulimit -s unlimited` (as high as it may
        # go here) alike: the same report
        def walk():
            lines = without_timing(jsonl("deep.bc", "deep", "protocol", 1))
            lines[-1].pop("worker_restarts")
            return lines
        usual = walk()
        last = {s["calls"][-1]["fn"]: s["calls"][-1] for s in usual[:-1]}
        self.assertEqual((last["deep_descend"]["outcome"],
                          last["deep_descend"]["cause"]),
                         ("crash", "SIGSEGV: stack overflow in descend"))
        self.assertEqual((last["deep_shallow"]["outcome"],
                          last["deep_shallow"]["result"]), ("normal", "10"))
        soft, hard = resource.getrlimit(resource.RLIMIT_STACK)
        resource.setrlimit(resource.RLIMIT_STACK, (hard, hard))
        try:
            self.assertEqual(walk(), usual)
        finally:
            resource.setrlimit(resource.RLIMIT_STACK, (soft, hard))

    def test_a_worker_near_its_cpu_limit_is_replaced_between_sequences(self):
        # the depth-9 walk of the bounded stack, through libffi, takes
        # more than a second of one worker's CPU time: replaced, never
        # stopped by the limit in a call, the walk is the same
        p = bcwalk("explore", example("bstack.bc"), "--unit", "bstack",
                   "--depth", "9", "--prune", "none", "--format", "json",
                   "--worker-cpu", "1", "--calls", "ffi", "--jobs", "1")
        summary = json.loads(p.stdout)
        self.assertGreater(summary["worker_restarts"], 0)
        self.assertEqual((summary["sequences"]["normal"],
                          summary["sequences"]["terminated"],
                          summary["concrete_states"]),
                         (2827055, 179420, 226))

    def test_an_interrupted_walk_leaves_no_temporary_file(self):
        env = dict(os.environ, XDG_CACHE_HOME=common.ARGS.cache)
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "r.msgpack")
            p = subprocess.Popen(
                [common.ARGS.bcwalk, "explore", example("faulty.bc"),
                 "--unit", "faulty", "--depth", "2", "--timeout", "60000",
                 "-o", out],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                env=env)
            for _ in range(100):
                if os.listdir(d) and running():
                    break
                time.sleep(0.1)
            self.assertEqual(len(os.listdir(d)), 1)  # r.msgpack.tmp.PID
            p.send_signal(signal.SIGINT)
            # it ends by the signal, as the shell expects (README)
            self.assertEqual(p.wait(), -signal.SIGINT)
            self.assertEqual(os.listdir(d), [])
        settle()
        self.assertEqual(running(), [])

    def kill_in_a_hang(self, unit, least):
        """A depth-2 walk of examples/UNIT.c killed outright once at least
        `least` of its processes run (a call hangs then): nothing is left
        running after."""
        env = dict(os.environ, XDG_CACHE_HOME=common.ARGS.cache)
        # the worker built first, so that the walk below is running it
        # when it is killed, however slowly a loaded machine builds
        bcwalk("explore", example(unit + ".bc"), "--unit", unit, "--depth",
               "1", "--timeout", "300", check=0)
        p = subprocess.Popen(
            [common.ARGS.bcwalk, "explore", example(unit + ".bc"), "--unit",
             unit, "--depth", "2", "--timeout", "60000"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        self.addCleanup(p.kill)
        for _ in range(300):
            if len(running()) >= least:
                break
            time.sleep(0.1)
        time.sleep(0.5)
        self.assertGreaterEqual(len(running()), least)
        p.send_signal(signal.SIGKILL)
        p.wait()
        settle()
        self.assertEqual(running(), [])

    def test_nothing_is_left_running_when_bcwalk_is_killed(self):
        # a hang in flight, then bcwalk killed outright: its workers and
        # what they forked die with it
        self.kill_in_a_hang("faulty", 1)

    def test_a_sleeping_stray_is_gone_when_bcwalk_is_killed(self):
        # examples/stray.c: a process forked past bcwalk's fork sleeps,
        # then the call after hangs (the fork server, the worker and the
        # stray run); bcwalk killed outright then: the fork server ends
        # the worker, then what it left, then itself
        self.kill_in_a_hang("stray", 3)


if __name__ == "__main__":
    common.main()
