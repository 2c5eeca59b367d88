/* trace.h - running a library's own test program with every call its
 * test code makes into the library recorded (bcwalk learn): the program
 * built from its bitcode linked with the library's, instrumented, run
 * crash-isolated test by test, and its records read back. */
#ifndef BCW_TRACE_H
#define BCW_TRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "model.h"
#include "tracer.h" /* core/wire: the tracer runtime's side */

/* A place the test code calls a library function. */
typedef struct bcw_trace_site {
    char *fn; /* the function called */
    int unit; /* the model's unit it belongs to, or -1 (another function
                 of the library) */
    int func; /* its index in that unit's funcs, or -1 */
    unsigned nargs;
    uint8_t kinds[TR_MAX_ARGS]; /* enum tr_arg | size << 4 */
    uint8_t abi[TR_MAX_ARGS];   /* enum bcw_abi of each argument */
    uint8_t ret;                /* ... and of the result */
    char *named[TR_MAX_ARGS];   /* a function or global variable the
                                   code names as the argument, or NULL */
    char *caller;               /* the test code's function */
    char *file;                 /* where (debug information), or NULL */
    unsigned line;
} bcw_trace_site;

/* One recorded call. */
typedef struct bcw_trace_call {
    unsigned site;
    unsigned nargs;
    uint64_t words[TR_MAX_ARGS];
    char *strs[TR_MAX_ARGS]; /* a string argument's bytes, else NULL */
    uint16_t cut;            /* bit i: string i went on past them */
    bool returned;           /* false: the process ended in it */
    uint64_t result;
    unsigned nouts;
    uint8_t out_arg[TR_MAX_ARGS];
    uint64_t out_word[TR_MAX_ARGS]; /* what the call left in *out */
} bcw_trace_call;

/* How a test ended. */
enum bcw_trace_end {
    BCW_TRACE_PASSED, /* it returned */
    BCW_TRACE_LEFT,   /* a jump left it (a test framework's failed check) */
    BCW_TRACE_HALTED, /* enum tr_halt `halt`, with code and message */
    BCW_TRACE_KILLED  /* the process died of signal `code` the tracer did
                         not see (SIGKILL: out of memory, the time limit) */
};

/* One test: a test function's run, or "main": the calls made outside
 * any test function (the whole program when it has none). */
typedef struct bcw_trace_test {
    char *name;
    enum bcw_trace_end end;
    uint8_t halt; /* enum tr_halt */
    int32_t code;
    char *message; /* an assertion's, else NULL */
    uint64_t made; /* calls into the library, recorded or not */
    unsigned ncalls;
    bcw_trace_call *calls; /* the first ones (bcw_trace_opts.limit) */
} bcw_trace_test;

typedef struct bcw_trace {
    unsigned nsites, ntests, nfound;
    bcw_trace_site *sites;
    char **found;          /* the test functions found, by number */
    bcw_trace_test *tests; /* in the order they ran */
    char *how;             /* how tests were found: "a table of test
                              functions", "names test_*", "main only" */
    int status;            /* the program's exit status, its last run */
    unsigned runs;         /* how many times it ran */
} bcw_trace;

typedef struct bcw_trace_opts {
    const char *libs;   /* -l libraries to link, comma-separated, or NULL */
    unsigned limit;     /* calls recorded per test */
    unsigned per_site;  /* ... and per call site in a test: a loop's first
                           iterations */
    unsigned time_s;    /* a test's time limit */
    unsigned memory_mb; /* the program's address space */
    const char *keep;   /* a folder to keep the built program in, or NULL */
} bcw_trace_opts;

/* Builds the test program `tests` (bitcode with a main) linked with the
 * library `lib` (analysed as `model`; NULL: `tests` is the library built
 * with its tests, analysed as `model`) and runs it traced.  Test
 * functions are found by a table of them (a constant array of function
 * pointers, cmocka's CMUnitTest included), else by their names (test_*,
 * *_test), else the program is one test, "main".  0, BCW_EINPUT naming
 * the file and the problem (not bitcode, no main, not linkable), or
 * BCW_ERROR (the build or a run failed).  *out is the caller's
 * (bcw__trace_free). */
BCW_INTERNAL int bcw__trace_run(bcw_trace *out, const bcw_model *model,
                                const char *tests, const char *lib,
                                const bcw_trace_opts *opts);

BCW_INTERNAL void bcw__trace_free(bcw_trace *t);

#endif
