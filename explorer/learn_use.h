/* learn_use.h - a learned model in a walk (explore --from-tests): the
 * values the tests pass as categories, the tests' calls on each instance
 * as sequences of the walk's steps (covers for the state walk, the
 * gaps between tests and walk), and the learned walk, which extends a
 * sequence only along the model's control edges. */
#ifndef BCW_LEARN_USE_H
#define BCW_LEARN_USE_H

#include "learn.h"
#include "states.h"
#include "step.h"

/* Adds to unit `unit`'s parameters a category for each value the tests
 * pass that no category has as its value: integers, strings, and the
 * library's functions as callbacks, labelled "from tests: V", at most
 * BCW_TEST_VALUES per parameter, in the order the tests first pass
 * them.  A parameter the walk generated values for keeps a category
 * for them ("generated").  *added counts the categories.  0 or
 * BCW_ENOMEM. */
#define BCW_TEST_VALUES 8
BCW_INTERNAL int bcw__learned_categories(bcw_model *m, unsigned unit,
                                         const bcw_learned *l, unsigned *added);

/* Does step st of unit u pass a value of a category the tests' values
 * added? */
BCW_INTERNAL bool bcw__learned_step(const bcw_unit *u, const bcw_step *st);

#define BCW_TEST_SEQ_MAX 64 /* methods of a test sequence, at most */

/* The tests' sequences: for each test and each instance of the unit it
 * makes with a walked constructor, its calls on it as long as each has a
 * step passing the same values (generated elements for its objects),
 * BCW_TEST_SEQ_MAX at most; identical ones once. */
BCW_INTERNAL int bcw__learned_seqs(bcw_tseqs *out, const bcw_learned *l,
                                   const bcw_unit *u, const bcw_step *steps,
                                   unsigned nsteps, const uint16_t *ctors,
                                   unsigned nctors, const uint16_t *methods,
                                   unsigned nmethods);
BCW_INTERNAL void bcw__tseqs_free(bcw_tseqs *s);

/* The learned walk's guide: which of the model's nodes take which step,
 * and the control edges between them. */
typedef struct bcw_lwalk {
    unsigned nnodes, nsteps;
    bool *takes;     /* [node * nsteps + step] */
    bool *root;      /* no control edge into it: a test's first call */
    bool *empty;     /* [step]: a cell unit's "(empty)" constructor */
    unsigned *start; /* node i's control successors: next[start[i] ..
                        start[i + 1]) */
    unsigned *next;
    bool *at; /* scratch: two sets of nodes */
} bcw_lwalk;

BCW_INTERNAL int bcw__lwalk_new(bcw_lwalk *w, const bcw_learned *l,
                                const bcw_unit *u, const bcw_step *steps,
                                unsigned nsteps);
BCW_INTERNAL void bcw__lwalk_free(bcw_lwalk *w);

/* Does the learned model have a path of calls of the unit along its
 * control edges that the steps seq[0..len] (constructor first) then
 * `next` take, each call passing values the model's node saw? */
BCW_INTERNAL bool bcw__lwalk_extends(bcw_lwalk *w, const uint16_t *seq,
                                     unsigned len, uint16_t next);

/* What the tests and the walk each reach that the other does not. */
typedef struct bcw_gaps {
    unsigned categories;     /* categories the tests' values added */
    unsigned sequences;      /* the tests' sequences on the unit */
    unsigned longer;         /* of them, longer than the walk's depth */
    unsigned depth;          /* the walk's */
    bcw_strlist cut;         /* "test: why its sequence stops early" */
    bcw_strlist only_tests;  /* states only the tests' calls reach:
                                "name (test)" */
    bcw_strlist states;      /* design states no test reaches */
    bcw_strlist transitions; /* transitions no test makes */
    bcw_strlist methods;     /* walked functions no test calls */
    bcw_strlist unwalked;    /* the unit's functions the tests call that
                                the walk does not */
} bcw_gaps;

/* The gaps between the tests' sequences `ts` (probed, for the state
 * walk) and a walk of `depth` whose methods are `methods` and whose
 * states are `st` (NULL for the other walks). */
BCW_INTERNAL int bcw__learned_gaps(bcw_gaps *g, const bcw_learned *l,
                                   const bcw_tseqs *ts, const bcw_states *st,
                                   const bcw_unit *u, const bcw_step *steps,
                                   const uint16_t *ctors, unsigned nctors,
                                   const uint16_t *methods, unsigned nmethods,
                                   unsigned depth);
BCW_INTERNAL void bcw__gaps_free(bcw_gaps *g);

#endif
