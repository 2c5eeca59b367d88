/* tr_trace.c - the tracer runtime `bcwalk learn` links into a library's
 * own test program (explorer/learn/trace_inst.c instruments it): every call the
 * test code makes into the library is recorded, with its arguments, its
 * result and what it wrote through its out-parameters, test by test, into
 * a file bcwalk reads when the program ends.
 *
 * The program's abort, assert and exit come here (the calls are renamed
 * in its bitcode), and its fatal signals and the per-test alarm: each
 * ends the process with a record saying how, so the test in flight and
 * the call in flight are known.  bcwalk then runs the program again,
 * skipping the tests done (BCW_TRACE_FROM).  Only the thread that started
 * the program is traced; a child the program forks (a runner running
 * each test in one) is, and counts the test runs with its parent.
 *
 * The records (all host order, the reader runs on the same machine):
 *   'B' u32 run u32 test               a test function begins
 *   'E' u32 run u64 calls u8 left      it ended; calls: all it made; left:
 *                                      1 if a jump left it (a framework's
 *                                      failed check), not its return
 *   'C' u32 site u8 n {0 u64 word | 0xff u16 len bytes}[n]   a call
 *   'R' u32 site u64 result u8 n {u8 arg u64 word}[n]        it returned
 *   'H' u8 kind i32 code u64 calls u16 len bytes           the process ends
 *   'M' u64 calls                      the program ended; calls: all the
 *                                      calls made outside any test
 * A string argument is its bytes (at most TR_STRING; TR_STRING_CUT set
 * in len when it went on), not its address; kind is a TR_HALT_* and code
 * the signal, exit status or 0.  A record is never split across writes:
 * a halt in the middle of one drops it. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <unistd.h>

#include "tracer.h"

#define TR_BUF 65536
#define TR_RECORD (16 + TR_MAX_ARGS * (3 + TR_STRING)) /* the longest */
#define TR_NEST                                                                \
    64 /* calls in flight: the library calling the tests' code                 \
          calling the library ... */

static int out_fd = -1;
static unsigned char buf[TR_BUF];
static size_t used;
static size_t rec_start;     /* where the record being written begins */
static int writing;          /* a record is being written */
static pthread_t owner;      /* the traced thread */
static uint32_t *runs;       /* test runs begun so far, shared with children */
static uint32_t from;        /* test runs before this one are skipped */
static uint32_t cur;         /* the one in flight */
static uint32_t depth;       /* test functions in flight (nested) */
static char *frame;          /* its return address's slot: the stack's top
                                when it was called */
static uint32_t limit;       /* calls recorded per test at most */
static uint32_t per_site;    /* ... and per call site: a loop's first ones */
static uint32_t *site_calls; /* calls made at each site in the test */
static uint64_t calls;       /* calls made in the test in flight */
static uint64_t outside_calls; /* ... and outside any test */
static uint64_t kept[2];       /* of them, recorded: in the test, outside */
static unsigned alarm_s;       /* a test's time limit */
static int recording;          /* calls go to the file */
static int outside;            /* record calls made outside any test */
static int halted;             /* a halt record is written: nothing after it */

/* The calls in flight: their out-parameters, read when they return. */
static struct {
    uint32_t site;
    int recorded;
    char *frame; /* the enter hook's: a jump out of the call leaves it */
    unsigned nouts;
    uint8_t arg[TR_MAX_ARGS], size[TR_MAX_ARGS];
    uint64_t addr[TR_MAX_ARGS];
} nest[TR_NEST];
static uint32_t nested;

static void flush(void)
{
    size_t done = 0;
    while (done < used) {
        ssize_t n = write(out_fd, buf + done, used - done);
        if (n <= 0)
            break;
        done += (size_t)n;
    }
    used = 0;
}

/* Starts a record of at most TR_RECORD bytes: it goes out whole. */
static void record(void)
{
    if (used + TR_RECORD > TR_BUF)
        flush();
    rec_start = used;
    writing = 1;
}

static void put(const void *p, size_t n)
{
    memcpy(buf + used, p, n);
    used += n;
}

static void put8(uint8_t v)
{
    put(&v, 1);
}
static void put16(uint16_t v)
{
    put(&v, 2);
}
static void put32(uint32_t v)
{
    put(&v, 4);
}
static void put64(uint64_t v)
{
    put(&v, 8);
}

static int mine(void)
{
    return out_fd >= 0 && pthread_equal(pthread_self(), owner);
}

/* The record that ends the process, then its end: _exit, which runs no
 * handler of the program's. */
static void halt(uint8_t kind, int32_t code, const char *msg)
{
    if (!halted && out_fd >= 0) {
        halted = 1;
        if (writing) /* a record cut short by the halt */
            used = rec_start;
        size_t len = msg != NULL ? strlen(msg) : 0;
        if (len > 512)
            len = 512;
        if (used + 32 + len > TR_BUF)
            flush();
        put8('H');
        put8(kind);
        put(&code, 4);
        put64(depth > 0 ? calls : outside_calls);
        put16((uint16_t)len);
        put(msg, len);
        flush();
    }
    _exit(TR_EXIT_HALT);
}

static void on_signal(int sig)
{
    halt(sig == SIGALRM ? TR_HALT_HANG : TR_HALT_SIGNAL, sig, NULL);
}

static void arm(unsigned s)
{
    struct itimerval t = {.it_value = {.tv_sec = s}};
    setitimer(ITIMER_REAL, &t, NULL);
}

static void end_test(uint8_t left)
{
    arm(0);
    record();
    put8('E');
    put32(cur);
    put64(calls);
    put8(left);
    writing = 0;
    recording = outside;
    depth = 0;
    nested = 0;
}

/* The program's end: the calls it made outside tests, and what is left
 * to write. */
static void finish(void)
{
    if (outside) {
        record();
        put8('M');
        put64(outside_calls);
        writing = 0;
    }
    flush();
}

static void at_exit(void)
{
    if (halted || !mine())
        return;
    if (depth > 0)
        end_test(1);
    finish();
}

static unsigned env_u(const char *name, unsigned dflt)
{
    const char *s = getenv(name);
    return s != NULL && *s ? (unsigned)strtoul(s, NULL, 10) : dflt;
}

__attribute__((constructor)) static void tr_start(void)
{
    const char *fd = getenv("BCW_TRACE_FD");
    if (fd == NULL)
        return;
    runs = mmap(NULL, sizeof *runs, PROT_READ | PROT_WRITE,
                MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (runs == MAP_FAILED)
        return; /* traced nothing: bcwalk says the program ran no test */
    out_fd = (int)strtol(fd, NULL, 10);
    owner = pthread_self();
    from = env_u("BCW_TRACE_FROM", 0);
    limit = env_u("BCW_TRACE_LIMIT", 10000);
    per_site = env_u("BCW_TRACE_PER_SITE", 64);
    site_calls = calloc(bcw_tr_nsites + 1, sizeof *site_calls);
    if (site_calls == NULL)
        per_site = UINT32_MAX; /* then no site is cut short */
    alarm_s = env_u("BCW_TRACE_ALARM", 10);
    outside = from == 0;
    recording = outside;
    static char stack[1 << 16];
    stack_t ss = {.ss_sp = stack, .ss_size = sizeof stack};
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_ONSTACK | SA_RESETHAND;
    static const int fatal[] = {SIGSEGV, SIGBUS,  SIGFPE, SIGILL,
                                SIGABRT, SIGTRAP, SIGSYS, SIGALRM};
    for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++)
        sigaction(fatal[i], &sa, NULL);
    atexit(at_exit);
    /* a child the program forks starts with an empty buffer, not a copy
     * of records its parent writes too */
    pthread_atfork(flush, NULL, NULL);
}

int bcw_tr_begin(uint32_t test, void *slot)
{
    if (!mine())
        return 0;
    char *here = slot;
    if (depth > 0) {
        /* a test called from a test is part of it; one called no deeper
         * than the test in flight was means a jump left that one (a
         * framework's failed check longjmps back to its runner) */
        if (here < frame) {
            depth++;
            return 0;
        }
        end_test(1);
    }
    uint32_t run = __atomic_fetch_add(runs, 1, __ATOMIC_RELAXED);
    if (run < from)
        return 1;
    depth = 1;
    frame = here;
    cur = run;
    calls = 0;
    kept[0] = 0;
    nested = 0;
    if (site_calls != NULL)
        memset(site_calls, 0, (bcw_tr_nsites + 1) * sizeof *site_calls);
    recording = 1;
    record();
    put8('B');
    put32(run);
    put32(test);
    writing = 0;
    flush(); /* the test in flight is known, whatever happens next */
    arm(alarm_s);
    return 0;
}

void bcw_tr_end(uint32_t test)
{
    (void)test;
    if (!mine() || depth == 0 || --depth > 0)
        return;
    end_test(0);
}

void bcw_tr_enter(uint32_t site, uint32_t n, const uint64_t *words,
                  const uint8_t *kinds)
{
    if (!mine())
        return;
    /* calls a jump left (out of the library, or out of the tests' code it
     * called back) are no longer in flight */
    char *here = __builtin_frame_address(0);
    while (nested > 0 && nest[nested - 1].frame <= here)
        nested--;
    if (nested >= TR_NEST)
        halt(TR_HALT_NEST, 0, NULL);
    uint64_t *made = depth > 0 ? &calls : &outside_calls;
    uint64_t *rkept = &kept[depth == 0];
    int rec = recording && *rkept < limit;
    if (rec && site_calls != NULL && site < bcw_tr_nsites)
        rec = site_calls[site]++ < per_site;
    *made += recording;
    *rkept += rec;
    nest[nested].site = site;
    nest[nested].recorded = rec;
    nest[nested].frame = here;
    nest[nested].nouts = 0;
    /* the strings' lengths first: a bad pointer faults before the
     * record begins */
    uint16_t len[TR_MAX_ARGS] = {0};
    for (uint32_t i = 0; rec && i < n && i < TR_MAX_ARGS; i++) {
        const char *s = (const char *)(uintptr_t)words[i];
        if ((kinds[i] & 0xf) == TR_ARG_STRING && s != NULL) {
            size_t l = strnlen(s, TR_STRING + 1);
            len[i] = l > TR_STRING ? TR_STRING | TR_STRING_CUT : (uint16_t)l;
        }
    }
    if (rec) {
        record();
        put8('C');
        put32(site);
        put8((uint8_t)n);
    }
    for (uint32_t i = 0; i < n && i < TR_MAX_ARGS; i++) {
        uint8_t k = kinds[i];
        const char *s = (const char *)(uintptr_t)words[i];
        if ((k & 0xf) == TR_ARG_STRING && s != NULL && rec) {
            put8(0xff);
            put16(len[i]);
            put(s, len[i] & ~TR_STRING_CUT);
            continue;
        }
        if ((k & 0xf) == TR_ARG_OUT && s != NULL) {
            unsigned j = nest[nested].nouts++;
            nest[nested].arg[j] = (uint8_t)i;
            nest[nested].size[j] = (uint8_t)(k >> 4);
            nest[nested].addr[j] = words[i];
        }
        if (rec) {
            /* 0xff begins a string: a word never does (bytes in
             * order; the reader knows which are strings) */
            put8(0);
            put64(words[i]);
        }
    }
    writing = 0;
    nested++;
}

void bcw_tr_leave(uint32_t site, uint64_t result)
{
    if (!mine())
        return;
    /* calls a jump left inside this one are over */
    while (nested > 0 && nest[nested - 1].site != site)
        nested--;
    if (nested == 0)
        return;
    nested--;
    if (!nest[nested].recorded)
        return;
    uint64_t v[TR_MAX_ARGS] = {0};
    for (unsigned j = 0; j < nest[nested].nouts; j++)
        memcpy(&v[j], (const void *)(uintptr_t)nest[nested].addr[j],
               nest[nested].size[j] <= 8 ? nest[nested].size[j] : 8);
    record();
    put8('R');
    put32(site);
    put64(result);
    put8((uint8_t)nest[nested].nouts);
    for (unsigned j = 0; j < nest[nested].nouts; j++) {
        put8(nest[nested].arg[j]);
        put64(v[j]);
    }
    writing = 0;
}

void bcw_tr_abort(void)
{
    halt(TR_HALT_ABORT, SIGABRT, NULL);
}

void bcw_tr_assert_fail(const char *expr, const char *file, unsigned line,
                        const char *fn)
{
    char msg[600];
    snprintf(msg, sizeof msg, "%s:%u: %s: Assertion `%s' failed.",
             file ? file : "?", line, fn ? fn : "?", expr ? expr : "?");
    halt(TR_HALT_ASSERT, SIGABRT, msg);
}

void bcw_tr_exit(int status)
{
    /* the end of the program (at_exit writes what is left), or of a test
     * that ended it */
    if (mine() && (depth > 0 || nested > 0))
        halt(TR_HALT_EXIT, status, NULL);
    exit(status);
}

void bcw_tr__exit(int status)
{
    /* _exit: no handler of the program's runs, and neither does at_exit */
    if (mine() && (depth > 0 || nested > 0))
        halt(TR_HALT_EXIT, status, NULL);
    if (mine() && !halted)
        finish();
    _exit(status);
}
