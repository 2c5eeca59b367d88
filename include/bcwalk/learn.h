/* learn.h - a unit's model learned from the library's own test program
 * (James): its calls into the unit traced, test by test, then merged
 * into a graph of control and data dependencies. */
#ifndef BCWALK_LEARN_H
#define BCWALK_LEARN_H

#include <stdio.h>

#include "bcwalk/model.h"

/* How `bcwalk learn` prints what it learned. */
enum bcw_learn_format { BCW_LEARN_TEXT, BCW_LEARN_JSON };

typedef struct bcw_learn_opts {
    const char *tests;     /* the test program's bitcode (with its main) */
    const char *bitcode;   /* the library's, the one `model` was made from;
                              the same file: the library built with its
                              tests (their main in its own source) */
    unsigned unit;         /* the unit learned */
    const char *libs;      /* libraries the program links with ("cmocka,m"),
                              comma-separated, or NULL */
    unsigned max_calls;    /* calls recorded per test */
    unsigned per_site;     /* ... and per call site in a test (a loop's first
                              iterations; the rest are counted) */
    unsigned time_limit_s; /* a test's time limit */
    unsigned memory_mb;    /* the program's address space, 0: no limit */
    unsigned k_strict, k_loose; /* the merging thresholds (James: 4, 1) */
    const char *out_path;       /* the learned model's file, or NULL */
    const char *dot_path;       /* the merged graph in DOT, or NULL */
    const char *svg_path;       /* ... drawn by Graphviz's dot, or NULL */
    const char *keep_dir;       /* keep the traced program in this folder */
    enum bcw_learn_format format;
    FILE *report; /* where the text or JSON goes, or NULL */
} bcw_learn_opts;

/* Builds the test program linked with the library, runs it traced
 * (crash-isolated: after a test crashes, aborts or hangs the program
 * runs again from the next test), learns the unit's model and writes
 * what `opts` asks for, each file atomically.  0, BCW_EINPUT for bad
 * input (not bitcode, no main, not linkable, a corrupt model), or
 * BCW_ERROR (the build failed, a file could not be written). */
int bcw_learn_run(const bcw_model *model, const bcw_learn_opts *opts);

#endif
