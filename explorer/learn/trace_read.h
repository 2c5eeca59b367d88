/* trace_read.h - the tracer runtime's records read back into a trace,
 * run after run of the program. */
#ifndef BCW_TRACE_READ_H
#define BCW_TRACE_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace.h"

/* Reading the records: the trace they go into, and where the runs so far
 * left it. */
typedef struct bcw_trace_parse {
    bcw_trace *t;
    size_t cap_tests;
    int cur;             /* the test in flight, -1 */
    int outside;         /* "main": the calls outside tests, -1 */
    uint32_t last_run;   /* the run of the test in flight, UINT32_MAX: none */
    uint32_t halted_run; /* the last 'H' record's test's run, UINT32_MAX:
                            it was outside any test */
    bool halted;         /* an 'H' record was read */
    /* the calls in flight: test, call number (UINT_MAX: not kept) and
     * site */
    unsigned nflight;
    unsigned flight[64][3];
} bcw_trace_parse;

/* The test a call or a halt outside any test belongs to: "main", added
 * to ps->t the first time.  Its number, or BCW_ENOMEM. */
BCW_INTERNAL int bcw__trace_read_target(bcw_trace_parse *ps);

/* Reads one run's records (data[0 .. len)) into ps->t, `limit` calls per
 * test kept.  A record cut short ends the reading (the process died
 * writing it).  0 or BCW_ENOMEM; what was read stays ps->t's. */
BCW_INTERNAL int bcw__trace_read_run(bcw_trace_parse *ps,
                                     const unsigned char *data, size_t len,
                                     unsigned limit);

#endif
