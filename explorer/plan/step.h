/* step.h - the walk's alphabet: a function of the unit with the category
 * values some of its parameters get, and how reports name it. */
#ifndef BCW_STEP_H
#define BCW_STEP_H

#include <stdbool.h>
#include <stdint.h>

#include "alloc.h"
#include "model.h"

/* A step of the walk's alphabet: a function of the unit, with the
 * category values some of its parameters get (others are generated). */
typedef struct bcw_step {
    unsigned func; /* index in unit->funcs */
    bool fixed[BCW_MAX_PARAMS];
    int64_t value[BCW_MAX_PARAMS];
    const char *label[BCW_MAX_PARAMS]; /* the category, or NULL */
    /* a category bounded by the object's fields: its bounds, read at call
     * time, and how the value is shown ("balance + limit + 1") */
    const bcw_part *relative[BCW_MAX_PARAMS];
    const bcw_part *part[BCW_MAX_PARAMS]; /* the category, or NULL */
    bool custom[BCW_MAX_PARAMS];          /* drawn from the custom generator */
    /* a handle parameter: which of those given out earlier it takes, 0
     * the one given out last (proto.h's BCW_HANDLE_AGES) */
    uint8_t age[BCW_MAX_PARAMS];
} bcw_step;

/* Is p a buffer the call may fill (not const): its content after the
 * call is part of what the call did? */
BCW_INTERNAL bool bcw__param_filled(const bcw_param *p);

/* Does a call of f put something in words the worker reports (a C
 * string it returns, a buffer it fills: proto.h's text)? */
BCW_INTERNAL bool bcw__func_has_text(const bcw_func *f);

/* How reports and the graph name a step: the function, then its
 * categories' labels in brackets: "cfg_set [key == \"width\"; value > 0]".
 * The caller's, NULL when out of memory. */
BCW_INTERNAL char *bcw__step_text(const bcw_unit *u, const bcw_step *st);

/* What the runtime saw a step do over a walk, where the analysis may
 * have said otherwise. */
typedef struct bcw_step_seen {
    uint64_t changed;  /* runs in which it, an observer, changed the
                          concrete state */
    uint64_t ended;    /* runs in which it freed the object and returned
                          no other (BCW_RESULT_ENDED): a destructor */
    uint64_t replaced; /* runs in which it freed the object's block and
                          returned it moved (BCW_RESULT_REPLACED) */
} bcw_step_seen;

/* "bstack_peek was classified an observer but changed the concrete
 * state in 3 runs", "str_drop freed the object in 2 runs ...": one
 * warning in `warnings` per function whose steps' seen[i] contradict
 * the analysis: an observer that changed the state, a function not
 * taken for a destructor that ended the object, one not taken to move
 * it that replaced it. */
BCW_INTERNAL int bcw__observer_warnings(bcw_strlist *warnings,
                                        const bcw_unit *u,
                                        const bcw_step *steps, unsigned nsteps,
                                        const bcw_step_seen *seen);

/* "tally_dump returns nothing and was classified an observer ...": one
 * warning per void observer of the steps that is given nothing it could
 * write to. */
BCW_INTERNAL int bcw__void_observer_warnings(bcw_strlist *warnings,
                                             const bcw_unit *u,
                                             const bcw_step *steps,
                                             unsigned nsteps);

#endif
