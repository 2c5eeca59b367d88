/* rt_halt.c - how a sequence ends early (rt_halt.h): the interposed
 * abort, assert, exit and contract failures jump back to the sequence
 * runner; a fatal signal is recorded in shared memory and ends the
 * worker.
 *
 * The interposed functions and the signal handler are called with no
 * context, so this file keeps the two pointers it needs: the sequence in
 * flight (part of the worker's state) and the shared memory. */
#define _GNU_SOURCE
#include "rt_halt.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

static bcw_rt_flight *flight;
static bcw_shm *shm;

void bcw_rt_halt(enum bcw_outcome outcome, int signo)
{
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
    bcw_rt_halt(BCW_RUN_ABORT, SIGABRT);
}

void bcw_rt_assert_fail(const char *expr, const char *file, unsigned line,
                        const char *fn)
{
    (void)expr, (void)file, (void)line, (void)fn;
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
    (void)status;
    bcw_rt_halt(BCW_RUN_ABORT, 0);
}

void bcw_rt_halt_fatal(enum bcw_outcome outcome, int signo)
{
    if (flight == NULL || !flight->armed)
        _exit(BCW_EXIT_SETUP);
    bcw_wire_result *r = &shm->results[shm->cur];
    r->outcome = (uint8_t)outcome;
    r->signo = (uint8_t)signo;
    r->halted_at = (uint16_t)flight->call;
    r->calls = flight->calls;
    _exit(BCW_EXIT_FAULT);
}

/* A fatal signal: record it for the sequence in flight and leave. */
static void on_fatal(int signo)
{
    if (flight->armed)
        bcw_rt_halt_fatal(signo == SIGABRT ? BCW_RUN_ABORT : BCW_RUN_CRASH,
                          signo);
    signal(signo, SIG_DFL);
    raise(signo);
}

void bcw_rt_halt_setup(bcw_rt_flight *f, bcw_shm *s)
{
    flight = f;
    shm = s;
    /* fatal signals run on their own stack: a stack overflow in the code
     * under test must still be recorded */
    static char altstack[1 << 16];
    stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack};
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal;
    sa.sa_flags = SA_ONSTACK | SA_NODEFER;
    int fatal[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT, SIGSYS};
    for (size_t k = 0; k < sizeof fatal / sizeof fatal[0]; k++)
        sigaction(fatal[k], &sa, NULL);
}
