/* plan.h - the walk's alphabet (each function of the unit once per
 * combination of its parameters' categories) and the plan the workers
 * run it from, built from the model and the explore settings. */
#ifndef BCW_PLAN_H
#define BCW_PLAN_H

#include "alloc.h"
#include "bcwalk/explore.h"
#include "generator.h"
#include "model.h"
#include "step.h"
#include "walk.h"

typedef struct bcw_alphabet {
    bcw_step *steps; /* plan index i is step i */
    unsigned nsteps;
    bcw_walk_step *walk; /* by plan index: what the walk needs of a step */
    /* plan indices: the constructors the walk starts from, the methods
     * it appends, and of those the mutators the state walk probes with */
    uint16_t *ctors, *methods, *mutators;
    unsigned nctors, nmethods, nmutators;
    bcw_plan *plan;
    /* the buffer contents of the permutation setting: categories every
     * buffer parameter shares (steps point into them) */
    bcw_part *perms;
    unsigned nperms;
} bcw_alphabet;

/* Builds unit u's alphabet and plan for settings o; the parameters the
 * custom generator `gen` (or NULL) takes have no categories.  Functions
 * whose combinations were capped, and an alphabet fitted to what a walk
 * takes, are said in `warnings`.  An error leaves *a to
 * bcw__alphabet_free. */
BCW_INTERNAL int bcw__alphabet_make(bcw_alphabet *a, const bcw_model *m,
                                    const bcw_unit *u,
                                    const bcw_explore_opts *o,
                                    const bcw_usergen *gen,
                                    bcw_strlist *warnings);
BCW_INTERNAL void bcw__alphabet_free(bcw_alphabet *a);

#endif
