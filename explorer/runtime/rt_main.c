/* rt_main.c - the worker: main() of every worker executable bcwalk
 * builds, a fork server (AFL's) whose children run the batches, and the
 * worker's life as a state machine (proto.h):
 *
 *   SETUP    map the plan, check it, prepare the calls, catch fatal
 *            signals; a plan it cannot run: EXIT with BCW_EXIT_SETUP;
 *            then the library's setup function (explore --setup): a
 *            halt in it is EXIT with BCW_EXIT_UNIT_SETUP
 *   SERVE    the fork server: answer BCW_MSG_HELLO | version, then for
 *            each FORK fork a worker (-> READY in the child), answer its
 *            pid, wait for it and answer its wait status; EOF -> EXIT
 *   READY    wait for a command: RUN -> RUNNING; QUIT or EOF -> EXIT;
 *            anything else: EXIT with BCW_EXIT_SETUP
 *   RUNNING  copy the batch and check it, run sequences first..nseq-1,
 *            answer DONE, back to READY
 *   EXIT     return the status
 *
 * A fatal signal in the code under test ends the worker in RUNNING,
 * with BCW_EXIT_FAULT (rt_halt.c); so does any change of the process
 * the code under test makes (BCW_EXIT_RESTART).  The next worker is a
 * fresh fork of the server, set up once: a clean process costs a fork,
 * not an exec and a set-up. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rt_contain.h"
#include "rt_files.h"
#include "rt_halt.h"
#include "rt_plan.h"
#include "rt_sandbox.h"
#include "rt_sanitize.h"
#include "rt_seq.h"
#include "rt_worker.h"

enum worker_state { W_SETUP, W_SERVE, W_READY, W_RUNNING, W_EXIT };

/* The stack a worker's calls may grow to: what a program's main thread
 * gets on Windows, and what portable C libraries are written within,
 * whatever `ulimit -s` bcwalk was started under (so a report does not
 * depend on the shell).  A runaway recursion's crash costs the stack it
 * touches (benchmarks/bench_stack.c: 5.7 ms at Linux's usual 8 MiB,
 * 0.75 ms at 1 MiB).  Sanitized code's frames are larger: 4 MiB there. */
#if defined(BCW_RT_ASAN) || defined(BCW_SANITIZER_LOG)
#define WORKER_STACK ((rlim_t)4 << 20)
#else
#define WORKER_STACK ((rlim_t)1 << 20)
#endif

#ifdef BCW_SANITIZER_LOG
/* A sanitizer build (CMake's BCW_SANITIZE): the worker's stderr is
 * /dev/null, so ASan's, LSan's and UBSan's reports go to files
 * BCW_SANITIZER_LOG.<pid>, which the end-to-end tests check. */
const char *__asan_default_options(void);
const char *__ubsan_default_options(void);

const char *__asan_default_options(void)
{
    return "log_path=" BCW_SANITIZER_LOG;
}

const char *__ubsan_default_options(void)
{
    return "log_path=" BCW_SANITIZER_LOG ":print_stacktrace=1";
}
#endif

/* Every descriptor the worker inherited but its own (proto.h's
 * BCW_FD_*, and 0-2, which bcwalk points at /dev/null): the code under
 * test reaches nothing the shell or bcwalk's caller left open.  Before
 * the unit's own constructors run. */
__attribute__((constructor(101))) static void close_inherited(void)
{
    close_range(3, BCW_FD_BATCH - 1, 0);
    close_range(BCW_FD_STATUS + 1, ~0u, 0);
}

static void put32(int fd, uint32_t v)
{
    while (write(fd, &v, sizeof v) < 0 && errno == EINTR)
        ;
}

static int get32(int fd, uint32_t *v)
{
    ssize_t n;
    while ((n = read(fd, v, sizeof *v)) < 0 && errno == EINTR)
        ;
    return n == sizeof *v ? 0 : -1;
}

/* Drops what a dead worker left unread on its command pipe, so that the
 * next one starts from the parent's next command. */
static void drain_commands(void)
{
    struct pollfd p = {.fd = BCW_FD_CMD, .events = POLLIN};
    uint32_t stale;
    while (poll(&p, 1, 0) == 1 && (p.revents & POLLIN) &&
           get32(BCW_FD_CMD, &stale) == 0)
        ;
}

/* The worker the server waits for (0: none), and whether the server is
 * to end when it has: its end comes from a signal (on_end). */
static volatile pid_t serving;
static volatile sig_atomic_t ending;

/* The server's end, by bcwalk's death (its PDEATHSIG) or a signal to
 * bcwalk's process group (^C): the worker killed first, so that what it
 * left running comes to the server, which ends it before it ends
 * (serve); with no worker, nothing is left. */
static void on_end(int signo)
{
    (void)signo;
    pid_t pid = serving;
    if (pid == 0)
        _exit(0);
    ending = 1;
    kill(pid, SIGKILL);
}

/* SERVE: forks a worker per FORK command.  Returns W_READY in a new
 * worker, W_EXIT (with *status) in the server when the parent is done. */
static enum worker_state serve(const bcw_rt_worker *w, int *status)
{
    pid_t server = getpid();
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_end;
    static const int ends[] = {SIGTERM, SIGINT, SIGHUP};
    for (size_t k = 0; k < sizeof ends / sizeof *ends; k++)
        sigaction(ends[k], &sa, NULL);
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    /* what the workers leave running comes to the server, which ends it
     * when they end; and their code cannot open the server's
     * descriptors (its pipes to bcwalk) through /proc/<pid>/fd: a
     * process that is not dumpable lets only those privileged over it
     * (the user namespace workers are in is not) */
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    prctl(PR_SET_DUMPABLE, 0);
    /* what the library's setup function covered */
    bcw_rt_cov_flush();
    put32(BCW_FD_SRV_STATUS, BCW_MSG_HELLO | BCW_PROTO_VERSION);
    for (;;) {
        uint32_t cmd;
        if (get32(BCW_FD_SRV_CMD, &cmd) < 0 || cmd == BCW_CMD_QUIT) {
            *status = 0;
            return W_EXIT;
        }
        pid_t pid = cmd == BCW_CMD_FORK ? fork() : -1;
        if (pid < 0) {
            *status = BCW_EXIT_SETUP;
            return W_EXIT;
        }
        if (pid == 0) {
            /* the worker: its own process group (what the code under
             * test signals as its group never reaches the server), dies
             * with the server, never holds the server's pipes */
            close(BCW_FD_SRV_CMD);
            close(BCW_FD_SRV_STATUS);
            for (size_t k = 0; k < sizeof ends / sizeof *ends; k++)
                signal(ends[k], SIG_DFL);
            setpgid(0, 0);
            /* what its code leaves running comes to it: ended with
             * the batch */
            prctl(PR_SET_CHILD_SUBREAPER, 1);
            if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != server)
                _exit(BCW_EXIT_SETUP);
            /* its CPU time, and that of each process it starts, from 0:
             * at the limit the kernel's SIGXCPU is a hang of the call in
             * flight, a second later SIGKILL; the worker is replaced
             * long before it could reach it between calls (worn_out) */
            uint32_t cpu = w->shm->cpu_s;
            struct rlimit lim = {cpu ? cpu : RLIM_INFINITY,
                                 cpu ? cpu + 1 : RLIM_INFINITY};
            setrlimit(RLIMIT_CPU, &lim);
            /* the stack its calls may grow to (WORKER_STACK), whatever
             * `ulimit -s` bcwalk was started under */
            struct rlimit st;
            if (getrlimit(RLIMIT_STACK, &st) == 0) {
                st.rlim_cur =
                    st.rlim_max < WORKER_STACK ? st.rlim_max : WORKER_STACK;
                setrlimit(RLIMIT_STACK, &st);
            }
            bcw_rt_halt_worker(cpu);
            bcw_rt_files_enter(w->shm->scratch);
            return W_READY;
        }
        serving = pid;
        put32(BCW_FD_SRV_STATUS, (uint32_t)pid);
        int st = 0;
        while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
            ;
        serving = 0;
        /* what outlived it, and the files it made */
        bcw_rt_reap_strays();
        bcw_rt_files_gone(w->shm->scratch, pid);
        if (ending)
            _exit(0);
        drain_commands();
        put32(BCW_FD_SRV_STATUS, (uint32_t)st);
    }
}

/* Has this worker used half its CPU time limit?  Asked after each
 * sequence, answered from the CPU clock at most every 1/16 of the limit
 * (and every second) by the coarse wall clock: what it uses between two
 * answers cannot take it to the limit.  A worker that has is replaced
 * (BCW_EXIT_RESTART), so that the limit stops only what the code under
 * test does in one call, or what it left running. */
static bool worn_out(const bcw_rt_worker *w)
{
    static struct timespec next;
    uint32_t cpu = w->shm->cpu_s;
    struct timespec now;
    if (cpu == 0 || clock_gettime(CLOCK_MONOTONIC_COARSE, &now) != 0 ||
        now.tv_sec < next.tv_sec ||
        (now.tv_sec == next.tv_sec && now.tv_nsec < next.tv_nsec))
        return false;
    long step_ms = cpu * 1000L / 16 < 1000 ? cpu * 1000L / 16 : 1000;
    next.tv_sec = now.tv_sec + step_ms / 1000;
    next.tv_nsec = now.tv_nsec + step_ms % 1000 * 1000000L;
    if (next.tv_nsec >= 1000000000L) {
        next.tv_sec++;
        next.tv_nsec -= 1000000000L;
    }
    struct timespec used;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &used) != 0)
        return false;
    uint64_t used_ns =
        (uint64_t)used.tv_sec * 1000000000u + (uint64_t)used.tv_nsec;
    return used_ns * 2 >= (uint64_t)cpu * 1000000000u;
}

/* The batch the parent wrote, copied into the worker's own memory and
 * checked: every sequence's words inside the batch, its steps plan
 * entries.  Each length is read once, from the copy, so that what else
 * writes shared memory meanwhile changes nothing.  false for a batch the
 * worker cannot run. */
static bool take_batch(bcw_rt_worker *w)
{
    const bcw_batch *b = w->batch;
    w->flight.nonce = b->nonce;
    w->flight.slot = b->slot;
    w->first = b->first;
    w->nseq = b->nseq;
    if (w->nseq > BCW_MAX_BATCH || w->first > w->nseq || w->flight.slot > 1 ||
        b->tail != w->flight.nonce)
        return false;
    for (uint32_t i = w->first; i < w->nseq; i++) {
        uint32_t off = b->off[i];
        if (off >= BCW_MAX_SEQ_WORDS)
            return false;
        w->seqs[off] = b->seqs[off];
        uint32_t len = w->seqs[off] & BCW_SEQ_LEN_MASK, n = len + 2u;
        bool pinned = (w->seqs[off] & BCW_SEQ_PINNED) != 0;
        if (n + pinned > BCW_MAX_SEQ_WORDS - off)
            return false;
        memcpy(&w->seqs[off + 1], &b->seqs[off + 1],
               (n - 1 + pinned) * sizeof *w->seqs);
        for (uint32_t k = 1; k < n; k++)
            if (w->seqs[off + k] >= w->shm->nfuncs)
                return false;
        if (pinned) {
            uint32_t pins = w->seqs[off + n] * BCW_PIN_WORDS;
            uint16_t *pin = &w->seqs[off + n + 1];
            if (pins > BCW_MAX_SEQ_WORDS - off - n - 1)
                return false;
            memcpy(pin, &b->seqs[off + n + 1], pins * sizeof *pin);
            for (uint32_t k = 0; k < pins; k += BCW_PIN_WORDS)
                if (pin[k] > len || pin[k + 1] >= BCW_MAX_PARAMS)
                    return false;
        }
        w->off[i] = off;
    }
    return true;
}

/* READY: the next command, or the state it leads to with *status. */
static enum worker_state next_command(bcw_rt_worker *w, int *status)
{
    uint32_t cmd;
    if (get32(BCW_FD_CMD, &cmd) < 0 || cmd == BCW_CMD_QUIT) {
        *status = 0;
        return W_EXIT;
    }
    if (cmd != BCW_CMD_RUN) {
        /* stderr is /dev/null under bcwalk: this is for a worker run by
         * hand */
        dprintf(2,
                "bcwalk worker: unexpected command 0x%08x, expected RUN "
                "(0x%08x) or QUIT (0x%08x)\n",
                (unsigned)cmd, BCW_CMD_RUN, BCW_CMD_QUIT);
        *status = BCW_EXIT_SETUP;
        return W_EXIT;
    }
    bcw_rt_cov_clear();
    if (!take_batch(w)) {
        dprintf(2,
                "bcwalk worker: a batch it cannot run (%u sequences from "
                "%u, words or plan entries out of range)\n",
                (unsigned)w->nseq, (unsigned)w->first);
        *status = BCW_EXIT_SETUP;
        return W_EXIT;
    }
    return W_RUNNING;
}

int main(void)
{
    static bcw_rt_worker worker;
    bcw_rt_worker *w = &worker;
    enum worker_state state = W_SETUP;
    int status = 0;
    /* dies with bcwalk, whatever kills it; bcwalk may be gone already */
    pid_t parent = getppid();
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent ||
        parent == 1)
        return BCW_EXIT_SETUP;
    for (;;) {
        switch (state) {
        case W_SETUP:
            if (bcw_rt_plan_setup(w) < 0) {
                status = BCW_EXIT_SETUP;
                state = W_EXIT;
                break;
            }
            bcw_rt_halt_setup(&w->flight, w->batch, bcw_rt_alloc_where);
            bcw_rt_sanitize_setup(w->arena, sizeof w->arena,
                                  bcw_rt_alloc_where);
            w->batch->sandbox =
                bcw_rt_sandbox(w->shm->scratch, sizeof w->shm->scratch);
            if (!bcw_rt_asan())
                bcw_rt_limit_memory(w->shm->memory_mb ? w->shm->memory_mb
                                                      : 1024);
            if (bcw_rt_seq_setup(w) < 0) {
                status = BCW_EXIT_UNIT_SETUP;
                state = W_EXIT;
                break;
            }
            state = W_SERVE;
            break;
        case W_SERVE:
            state = serve(w, &status);
            break;
        case W_READY:
            state = next_command(w, &status);
            break;
        case W_RUNNING:
            for (uint32_t i = w->first; i < w->nseq; i++) {
                bcw_rt_seq_run(w, i);
                /* the process it left is not the one sequences start
                 * from: a fresh worker runs the next */
                if (bcw_rt_tainted || worn_out(w)) {
                    bcw_rt_publish(BCW_EXIT_RESTART);
                    _exit(BCW_EXIT_RESTART);
                }
            }
            /* what the batch's code started past bcwalk's fork: ended
             * with the batch (a system call per batch; one per sequence
             * would cost a third of a short walk's speed) */
            bcw_rt_reap_strays();
            bcw_rt_cov_flush();
            put32(BCW_FD_STATUS, BCW_MSG_DONE);
            state = W_READY;
            break;
        case W_EXIT:
            return status;
        }
    }
}
