/* shapes.h - the verdicts of every combination of a parameter's
 * conditions, each shape of conditions decided once (shapes.c). */
#ifndef BCW_SOLVER_SHAPES_H
#define BCW_SOLVER_SHAPES_H

#include <stdbool.h>
#include <stdint.h>
#include <z3.h>

#include "hash.h"
#include "model.h"
#include "session.h"

/* A parameter's first conditions combined into categories: 64
 * combinations at most. */
#define BCW_MAX_COMBO_CONDS 6

/* What Z3 decided about one combination of a parameter's conditions. */
typedef struct bcw_verdict {
    bool feasible;  /* Z3 found it satisfiable */
    bool undecided; /* Z3 answered unknown: neither feasible nor not */
    bool bounded;   /* lo, hi and rep were found */
    uint8_t shown;  /* the literals its label shows (bcw__query_shown) */
    int64_t lo, hi, rep;
} bcw_verdict;

struct bcw_shape;

/* The decided shapes, found by a hash of the conditions' nodes and
 * confirmed on the whole node array, never on the hash alone.  A zeroed
 * struct is an empty cache. */
typedef struct bcw_shapes {
    struct bcw_shape *v;
    unsigned n;
    size_t cap;
    bcw_index ix;
    unsigned hits; /* parameters decided from the cache */
} bcw_shapes;

/* Fills out[0 .. 2^n) with the verdicts of the combinations of p's first
 * n (at most BCW_MAX_COMBO_CONDS) conditions, whose Z3 formulas over x
 * are conds[0 .. n): from the cache when a parameter of the same shape
 * (nodes, roots, signedness, `constant`) was decided, else from Z3 —
 * feasibility, the label's implied literals and, for `constant`
 * categories, minimum, maximum and representative — and then cached.
 * Real code checks the same shapes again and again (`k < 0 || k >=
 * s->count` in every getter), and the shape decides everything but the
 * names.
 *
 * Returns 0, or the session's failure (BCW_ENOMEM, BCW_ERROR) or
 * BCW_ENOMEM, with `out` undefined and nothing cached. */
BCW_INTERNAL int bcw__shapes_decide(bcw_verdict *out, bcw_shapes *c,
                                    bcw_session *s, const bcw_param *p,
                                    unsigned n, Z3_ast x, const Z3_ast *conds,
                                    bool is_signed, bool constant);

/* Frees the cache's memory; a zeroed cache is fine. */
BCW_INTERNAL void bcw__shapes_free(bcw_shapes *c);

#endif
