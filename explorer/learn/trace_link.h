/* trace_link.h - the traced program: the test program's bitcode linked
 * with the library's, its test functions found, instrumented. */
#ifndef BCW_TRACE_LINK_H
#define BCW_TRACE_LINK_H

#include "trace.h"

/* Links test program `tests` (bitcode with a main) with library `lib`
 * (analysed as `model`; NULL: `tests` is the library built with its
 * tests, and was analysed), finds its test functions and instruments it
 * (trace_inst.h); its bitcode into file `out`.  The sites, the test
 * functions found (by number) and how they were found go into t, t's
 * whatever the outcome.  0, BCW_EINPUT naming the file and the problem
 * (not bitcode, no main, not linkable), BCW_ENOMEM or BCW_ERROR. */
BCW_INTERNAL int bcw__trace_link(bcw_trace *t, const bcw_model *model,
                                 const char *tests, const char *lib,
                                 const char *out);

#endif
