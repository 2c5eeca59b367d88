/* plan.h - the walk's alphabet (each function of the unit once per
 * combination of its parameters' categories) and the plan the workers
 * run it from, built from the model and the explore settings. */
#ifndef BCW_PLAN_H
#define BCW_PLAN_H

#include "alloc.h"
#include "bcwalk/explore.h"
#include "generator.h"
#include "model.h"
#include "proto.h"
#include "step.h"

/* The plan every worker gets: the shm header's plan part. */
typedef struct bcw_plan {
    uint32_t nfuncs;
    uint32_t unit_size;
    uint32_t ndestructors;
    uint16_t destructors[BCW_MAX_DESTRUCTORS];
    uint8_t dtor_forms[BCW_MAX_DESTRUCTORS];
    uint32_t use_ffi;
    uint32_t memory_mb;
    uint32_t cpu_s;
    bcw_wire_func funcs[BCW_MAX_FUNCS];
    uint32_t npool, nstrings;
    bcw_cnode pool[BCW_MAX_PLAN_NODES];
    char strings[BCW_MAX_PLAN_STRINGS];
    uint32_t npreds, state_flags;
    bcw_wire_pred preds[BCW_MAX_PREDS];
    uint32_t invariant; /* plan index + 1 of the invariant function */
    uint32_t nfills;
    bcw_wire_fill fills[BCW_MAX_FILLS];
    bcw_wire_gen gen; /* explorer/generator.c */
    /* The parent's alone: entry i passes an argument bcwalk made up,
     * zeroed storage the call reads (another unit's instance no
     * constructor a walk can call makes, a struct no unit's), itself or
     * through the constructors making its arguments. */
    bool fabricates[BCW_MAX_FUNCS];
    /* The parent's alone: the parameters whose expression nodes are in
     * the pool already, and where, so that every step of a parameter's
     * categories shares one copy. */
    const void *pooled[BCW_MAX_FUNCS];
    uint32_t pooled_at[BCW_MAX_FUNCS];
    unsigned npooled;
    /* The worker's coverage flags (bcw_shm.ncov), 0: none. */
    uint32_t ncov;
} bcw_plan;

/* What the walk needs to know of a step (by plan index). */
typedef struct bcw_walk_step {
    bool mutator;      /* the algebra walk extends sequences ending in it */
    bool returns_void; /* the algebra walk predicts its result */
    bool observer;     /* the worker checks it leaves the state as found */
    uint8_t nout;      /* values it reports besides its result */
    bool text;         /* it returns a C string or fills a buffer: its out
                          block carries the text (BCW_SEQ_TEXT_WORDS) */
    bool fabricates;   /* an argument is zeroed storage: another unit's
                          instance no constructor a walk can call makes */
    uint8_t relative;  /* bit k: parameter k's value is computed from the
                          object's fields alone (BCW_FIXED_BOUNDS, reading no
                          earlier argument), reported in outs[k] */
    uint8_t aliases;   /* the target is passed again as another argument of
                          its own type (an array added to itself): 1 to an
                          observer (it changes nothing, so only its own
                          halt is aliasing), 2 to a call that may change
                          the target */
} bcw_walk_step;

/* What the plan takes of the walk's settings (bcw_explore_opts'). */
typedef struct bcw_plan_opts {
    unsigned depth; /* the walk's: how far back a handle parameter takes */
    enum bcw_combine combine; /* categories of a call's parameters */
    unsigned max_combos;      /* most steps per function, 0: 1 */
    int boundaries;           /* 1: every category's minimum and maximum */
    const char *permute;      /* buffer contents, or NULL */
    /* the workers' limits (0: their defaults) */
    int use_ffi;
    unsigned memory_mb, cpu_s, timeout_ms;
} bcw_plan_opts;

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

/* Builds unit u's alphabet and plan for settings o, with the workers'
 * limits; the parameters the custom generator `gen` (or NULL) takes
 * have no categories, and the generator's part of the plan is written.
 * Functions whose combinations were capped, and an alphabet fitted to
 * what a walk takes, are said in `warnings`.  An error leaves *a to
 * bcw__alphabet_free. */
BCW_INTERNAL int bcw__alphabet_make(bcw_alphabet *a, const bcw_model *m,
                                    const bcw_unit *u, const bcw_plan_opts *o,
                                    const bcw_usergen *gen,
                                    bcw_strlist *warnings);
BCW_INTERNAL void bcw__alphabet_free(bcw_alphabet *a);

/* wire.c: fills *plan for unit u of m, plan index i step i, the
 * constructors of other units the steps take after them.  0, or a
 * BCW_E* error (too many strings, handles or constructor entries for the
 * plan). */
BCW_INTERNAL int bcw__plan_wire(bcw_plan *plan, const bcw_model *m,
                                const bcw_unit *u, const bcw_step *steps,
                                unsigned nsteps);
/* Does `f` give out a handle later calls take: a result passed on, or
 * storage it fills? */
BCW_INTERNAL bool bcw__plan_gives(const bcw_unit *u, const bcw_func *f);

#endif
