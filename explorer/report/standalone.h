/* standalone.h - each distinct halt of a walk as a standalone C
 * program, built with the library's bitcode by clang (no bcwalk
 * runtime, AddressSanitizer on) and run, to tell a halt the library
 * makes from one bcwalk's worker made (docs/reports.md, --reproduce). */
#ifndef BCW_STANDALONE_H
#define BCW_STANDALONE_H

#include "report.h"

typedef struct bcw_standalone bcw_standalone;

/* What a halt's program did. */
enum bcw_standalone_kind {
    BCW_STANDALONE_REPRODUCED, /* it halted as the walk saw it halt */
    BCW_STANDALONE_DIFFERED,   /* it did not: bcwalk's own halt */
    BCW_STANDALONE_UNWRITTEN,  /* no program: what a native run cannot show
                                  (a leak, a runaway allocation), or an
                                  argument C cannot spell */
    BCW_STANDALONE_UNBUILT     /* clang could not build it, or it could not
                                  be run */
};

typedef struct bcw_standalone_verdict {
    enum bcw_standalone_kind verdict;
    char what[448]; /* what the program did, or why there is none */
    /* where AddressSanitizer's report puts it: the first frame of the
     * library's code (file, line; "" and 0 when it said nothing) */
    char site[256];
    unsigned site_line;
} bcw_standalone_verdict;

/* Programs written into folder `dir` (made if missing).  0 or
 * BCW_ENOMEM. */
BCW_INTERNAL int bcw__standalone_new(bcw_standalone **out, const char *dir);

/* Halt number `id`'s function: sequence s's calls (replacing an earlier,
 * longer sequence of it). */
BCW_INTERNAL int bcw__standalone_halt(bcw_standalone *p, const bcw_reporter *r,
                                      const bcw_seq *s, unsigned id);

/* Writes dir/halts.c, builds dir/halts with `bitcode` (prepared as
 * dir/lib.bc) calling function `setup` (or none) first, runs each halt
 * and puts what it did in v[id] (one per id given to
 * bcw__standalone_halt).  0, or an error writing or preparing. */
BCW_INTERNAL int bcw__standalone_run(bcw_standalone *p, const bcw_reporter *r,
                                     const char *bitcode, const char *setup,
                                     bcw_standalone_verdict *v);

BCW_INTERNAL void bcw__standalone_free(bcw_standalone *p);

#endif
