/* report.h - walk reports: the JWalk-style text report in C syntax,
 * JSON and JSON lines (docs/results.md has the fields). */
#ifndef BCW_REPORT_H
#define BCW_REPORT_H

#include "alloc.h"
#include "model.h"
#include "step.h"
#include "values.h"
#include "walk.h"

typedef struct bcw_reporter {
    const bcw_model *model; /* for the units other units' arguments */
    const bcw_unit *unit;
    const bcw_step *steps; /* by plan index */
    unsigned nsteps;
    const uint16_t *dtors; /* the destructors sequences end with, in turn */
    unsigned ndtors;
    const struct bcw_usergen *gen; /* custom generator, or NULL */
    const char *worker; /* the worker executable, whose addresses causes
                           name (symbolize.h), or NULL */
    enum bcw_walk_kind walk;
    unsigned depth;
    unsigned timeout_ms;
    enum bcw_report_format format;
    FILE *f;
    unsigned last_len; /* length group being printed */
    bool started;
    const char *state;  /* the state walk: the state being walked */
    int state_index;    /* its index in the states */
    bool started_state; /* its first sequence is printed */
    const struct bcw_states *states; /* the state walk's, for the summary */
    bcw_strlist warnings; /* about the alphabet: capped combinations */
} bcw_reporter;

/* Prints one executed sequence (a bcw_walk_cfg emit callback). */
BCW_INTERNAL int bcw__report_seq(void *reporter, const bcw_seq *seq);

/* Starts the sequences of the state walk's state `name` (index `index`);
 * (NULL, -1) ends the state walk (a bcw_state_begin_cb). */
BCW_INTERNAL void bcw__report_begin_state(void *reporter, const char *name,
                                          int index);

/* Prints the summary: the text report's tail, the JSON document, or the
 * last JSON line. */
BCW_INTERNAL int bcw__report_summary(bcw_reporter *r, const bcw_summary *s);

/* The strings of call `k` of `seq`: arguments replayed from the master
 * generator or the step's categories into args[] (their category labels
 * into labels[], NULL for generated ones), the result into `result`
 * (empty for void).  `gen` carries the draws from call to call; `json`
 * names the unit "#0" instead of C's "target".  Returns the function. */
BCW_INTERNAL const bcw_func *bcw__report_call(const bcw_reporter *r,
                                              const bcw_seq *seq, unsigned k,
                                              bcw_gen *gen, char (*args)[64],
                                              const char **labels, char *result,
                                              size_t n, bool json);

#endif
