/* trace_exec.h - the traced program run test by test. */
#ifndef BCW_TRACE_EXEC_H
#define BCW_TRACE_EXEC_H

#include "trace.h"

/* Runs the built program `prog` until every test has run or halted,
 * again from the test after the one a halt ended it in; its records in
 * folder `dir`, read into t (whose sites and test functions are the
 * program's).  0, BCW_ENOMEM or BCW_ERROR (a run failed); what was read
 * stays t's. */
BCW_INTERNAL int bcw__trace_exec(bcw_trace *t, const char *prog,
                                 const char *dir, const bcw_trace_opts *o);

#endif
