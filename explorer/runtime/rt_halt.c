/* rt_halt.c - how a sequence ends early (rt_halt.h): the interposed
 * abort, assert, exit and contract failures jump back to the sequence
 * runner; a fatal signal is recorded in shared memory and ends the
 * worker.
 *
 * The interposed functions and the signal handler are called with no
 * context, so this file keeps the two pointers it needs: the sequence in
 * flight (part of the worker's state) and the batch. */
#define _GNU_SOURCE
#include "rt_halt.h"

#include <errno.h>
#include <execinfo.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

static bcw_rt_flight *flight;
static bcw_batch *batch;
static bcw_rt_placer placer; /* where a faulting address is */
static pid_t worker;         /* the process that records halts */
static uint32_t cpu_limit;   /* its RLIMIT_CPU, seconds */
/* where a cause goes when no sequence is in flight */
static bcw_wire_cause spare;
int bcw_rt_in_child;

/* The unit's code: its functions are in a section of their own
 * (explorer/build/native.c), apart from the runtime's, which is in the
 * same position-dependent executable (addresses are the same in the
 * parent's symbolizer).  Without that section (a unit whose functions
 * all have sections of their own), the executable's code. */
extern char __start_bcw_unit_text[] __attribute__((weak));
extern char __stop_bcw_unit_text[] __attribute__((weak));
extern char __executable_start[], etext[];

static int in_unit(uintptr_t pc)
{
    if (__start_bcw_unit_text == NULL)
        return pc >= (uintptr_t)__executable_start && pc < (uintptr_t)etext;
    return pc >= (uintptr_t)__start_bcw_unit_text &&
           pc < (uintptr_t)__stop_bcw_unit_text;
}

void bcw_rt_halt_worker(uint32_t cpu_s)
{
    worker = getpid();
    cpu_limit = cpu_s;
}

/* Is this process not the worker, but one the code under test made? */
static int not_worker(void)
{
    return bcw_rt_in_child || getpid() != worker;
}

bcw_wire_cause *bcw_rt_cause(enum bcw_cause_kind kind)
{
    bcw_wire_cause *c = &spare;
    /* a predicate or the invariant that halts says nothing of the
     * sequence (bcw_rt_halt goes back to them) */
    if (flight != NULL && flight->armed && !flight->in_pred &&
        !bcw_rt_in_child) {
        flight->result.flags |= BCW_RESULT_CAUSE;
        c = &flight->cause;
    }
    memset(c, 0, sizeof *c);
    c->kind = (uint8_t)kind;
    return c;
}

/* The flags cover_pass.c compiles into the unit, when it did. */
extern uint8_t bcw_cov_flags[] __attribute__((weak));
extern const uint32_t bcw_cov_count __attribute__((weak));

uint32_t bcw_rt_cov_count(void)
{
    return &bcw_cov_count != NULL ? bcw_cov_count : 0;
}

void bcw_rt_cov_flush(void)
{
    uint32_t n = bcw_rt_cov_count();
    if (batch == NULL || n == 0)
        return;
    uint8_t *out = bcw_batch_cov(batch);
    for (uint32_t i = 0; i < n; i++)
        out[i] |= bcw_cov_flags[i];
}

void bcw_rt_cov_clear(void)
{
    uint32_t n = bcw_rt_cov_count();
    if (n > 0)
        memset(bcw_cov_flags, 0, n);
}

/* bcw_wire_check hashes 8-byte words */
_Static_assert(offsetof(bcw_wire_result, flags) % 8 == 0 &&
                   offsetof(bcw_wire_result, out) % 8 == 0 &&
                   offsetof(bcw_wire_result, text_of) % 8 == 0 &&
                   sizeof(bcw_wire_result) % 8 == 0,
               "bcw_wire_result's blocks are 8-byte words");

void bcw_rt_publish(int exit_status)
{
    if (batch == NULL || flight->seq >= BCW_MAX_BATCH)
        return;
    if (exit_status != 0)
        bcw_rt_cov_flush();
    uint32_t i = flight->seq;
    bcw_wire_result *r = &flight->result;
    bool cause = r->flags & (BCW_RESULT_CAUSE | BCW_RESULT_LEAK);
    uint64_t out = 0;
    for (unsigned k = 0; k < BCW_MAX_PARAMS; k++)
        out |= r->out[k];
    if (out != 0)
        r->flags |= BCW_RESULT_OUT;
    r->check = bcw_wire_check(r, &flight->cause, i, flight->nonce);
    if (exit_status != 0) {
        bcw_wire_last m = {.msg = BCW_MSG_LAST,
                           .seq = i,
                           .exit = (uint32_t)exit_status,
                           .result = *r};
        if (cause)
            m.cause = flight->cause;
        while (write(BCW_FD_STATUS, &m, sizeof m) < 0 && errno == EINTR)
            ;
    }
    if (cause)
        batch->causes[flight->slot][i] = flight->cause;
    bcw_wire_result_copy(&batch->results[flight->slot][i], r, 0);
    __atomic_store_n(&batch->cur_call, flight->call, __ATOMIC_RELAXED);
    __atomic_store_n(&batch->cur, i, __ATOMIC_RELEASE);
}

uint32_t bcw_rt_halt_call(void)
{
    return flight != NULL ? flight->call : 0;
}

/* The call site in the unit's code of an interposed function: its
 * return address, one byte back so that it names the call. */
static uint64_t call_site(void *ret)
{
    uintptr_t pc = (uintptr_t)ret;
    return in_unit(pc) ? (uint64_t)(pc - 1) : 0;
}

void bcw_rt_halt(enum bcw_outcome outcome, int signo)
{
    if (bcw_rt_in_child)
        _exit(0);
    if (flight == NULL) /* before set-up: the unit's static constructors */
        _exit(BCW_EXIT_SETUP);
    if (flight->in_pred) {
        flight->in_pred = 0;
        siglongjmp(flight->pred_env, 1);
    }
    if (!flight->armed)
        _exit(BCW_EXIT_SETUP);
    flight->armed = 0;
    flight->outcome = outcome;
    flight->signo = signo;
    siglongjmp(flight->env, 1);
}

void bcw_rt_abort(void)
{
    bcw_rt_cause(BCW_CAUSE_ABORT)->pc = call_site(__builtin_return_address(0));
    bcw_rt_halt(BCW_RUN_ABORT, SIGABRT);
}

void bcw_rt_assert_fail(const char *expr, const char *file, unsigned line,
                        const char *fn)
{
    (void)fn;
    bcw_wire_cause *c = bcw_rt_cause(BCW_CAUSE_ASSERT);
    c->pc = call_site(__builtin_return_address(0));
    /* the file's last part: the text is short */
    const char *base = file ? strrchr(file, '/') : NULL;
    snprintf(c->text, sizeof c->text, "%s\t%s\t%u", expr ? expr : "",
             base   ? base + 1
             : file ? file
                    : "",
             line);
    bcw_rt_halt(BCW_RUN_ABORT, SIGABRT);
}

/* contract.h's bcw_contract_fail, renamed in the unit's bitcode */
void bcw_rt_contract_fail(int kind, const char *expr, const char *file,
                          int line)
{
    (void)expr, (void)file, (void)line;
    bcw_rt_halt(kind == 1 ? BCW_RUN_REJECTED : BCW_RUN_FAILURE, kind);
}

void bcw_rt_exit(int status)
{
    bcw_wire_cause *c = bcw_rt_cause(BCW_CAUSE_EXIT);
    c->pc = call_site(__builtin_return_address(0));
    c->size = (uint32_t)status;
    bcw_rt_halt(BCW_RUN_ABORT, 0);
}

void bcw_rt_halt_fatal(enum bcw_outcome outcome, int signo)
{
    if (bcw_rt_in_child)
        _exit(0);
    if (flight == NULL || !flight->armed)
        _exit(BCW_EXIT_SETUP);
    bcw_wire_result *r = &flight->result;
    r->outcome = (uint8_t)outcome;
    r->signo = (uint8_t)signo;
    r->halted_at = (uint16_t)flight->call;
    r->calls = flight->calls;
    bcw_rt_publish(BCW_EXIT_FAULT);
    _exit(BCW_EXIT_FAULT);
}

/* Where the code under test faulted: the faulting instruction if it is
 * the unit's, else (a libc function such as memcpy, or bcwalk's own
 * allocator given an address no allocation gave) the first return
 * address of the unit's code above it on the stack; 0 if none is found.
 * The unwinder runs in the handler: the worker exits right after, and a
 * fault inside it ends the worker all the same (SA_NODEFER, `faulting`). */
static uint64_t fault_site(uintptr_t pc)
{
    if (in_unit(pc))
        return pc;
    void *frames[32];
    int n = backtrace(frames, 32), k = 0;
    while (k < n && (uintptr_t)frames[k] != pc)
        k++;
    for (k++; k < n; k++)
        if (in_unit((uintptr_t)frames[k]))
            return (uint64_t)(uintptr_t)frames[k] - 1;
    return 0;
}

/* A fatal signal: record it and its cause for the sequence in flight and
 * leave. */
static void on_fatal(int signo, siginfo_t *si, void *uc_)
{
    static volatile sig_atomic_t faulting;
    if (not_worker())
        _exit(0);
    if (flight->armed && !faulting) {
        faulting = 1;
        bcw_wire_cause *c = bcw_rt_cause(BCW_CAUSE_SIGNAL);
        c->addr = (uint64_t)(uintptr_t)si->si_addr;
        if (placer != NULL)
            placer((uintptr_t)si->si_addr, c);
#if defined(__x86_64__)
        const ucontext_t *uc = uc_;
        uintptr_t pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
        if (signo == SIGSEGV || signo == SIGBUS)
            c->access = uc->uc_mcontext.gregs[REG_ERR] & 2 ? BCW_ACCESS_WRITE
                                                           : BCW_ACCESS_READ;
        /* a fault within a page or two of the stack pointer, outside the
         * heap: the stack ran into its guard */
        uintptr_t sp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
        uintptr_t a = (uintptr_t)si->si_addr;
        if (c->where == BCW_WHERE_WILD && a + 8192 > sp && a < sp + 8192)
            c->where = BCW_WHERE_STACK;
        c->pc = fault_site(pc);
#else
        (void)uc_;
#endif
    }
    if (flight->armed)
        bcw_rt_halt_fatal(signo == SIGABRT ? BCW_RUN_ABORT : BCW_RUN_CRASH,
                          signo);
    signal(signo, SIG_DFL);
    raise(signo);
}

/* The call in flight hung: the parent's word (from tgkill), a hang on it
 * with no cause; or the kernel's, the CPU time limit (RLIMIT_CPU) passed
 * (BCW_CAUSE_CPU).  The worker exits; outside a sequence (a worker
 * between sequences) the process just exits, as does one the code under
 * test forked. */
static void on_hang(int signo, siginfo_t *si, void *uc)
{
    (void)signo, (void)uc;
    if (not_worker() || flight == NULL || !flight->armed)
        _exit(BCW_EXIT_SETUP);
    if (si->si_code == SI_KERNEL)
        bcw_rt_cause(BCW_CAUSE_CPU)->size = cpu_limit;
    else
        flight->result.flags &= ~(uint32_t)BCW_RESULT_CAUSE;
    bcw_rt_halt_fatal(BCW_RUN_HANG, SIGKILL);
}

void bcw_rt_halt_setup(bcw_rt_flight *f, bcw_batch *b, bcw_rt_placer place)
{
    flight = f;
    batch = b;
    placer = place;
    worker = getpid(); /* the server, until it forks workers */
    /* fatal signals run on their own stack: a stack overflow in the code
     * under test must still be recorded */
    /* the unwinder loads libgcc_s on first use: not in a handler */
    void *warm[1];
    backtrace(warm, 1);
    static char altstack[1 << 16];
    stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack};
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fatal;
    sa.sa_flags = SA_ONSTACK | SA_NODEFER | SA_SIGINFO;
    int fatal[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT, SIGSYS};
    for (size_t k = 0; k < sizeof fatal / sizeof fatal[0]; k++)
        sigaction(fatal[k], &sa, NULL);
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_hang;
    sa.sa_flags = SA_ONSTACK | SA_SIGINFO;
    sigaction(BCW_HANG_SIGNAL, &sa, NULL);
}
