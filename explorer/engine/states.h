/* states.h - design states (JWalk): the Boolean product of the unit's
 * predicates, discovered by probing constructor + mutator sequences
 * breadth-first, each with the shortest sequence reaching it (its
 * cover); the state walk from every cover; the state graph of the
 * transitions fired. */
#ifndef BCW_STATES_H
#define BCW_STATES_H

#include "alloc.h"
#include "bcwalk/oracle.h"
#include "plan.h"
#include "pool.h"
#include "walk.h"

/* A test's calls on one instance of the unit, as the walk's steps
 * (learn_use.h makes them): probing runs each prefix of it, and the
 * states they reach become covers where probing found none. */
typedef struct bcw_tseq {
    const char *test; /* borrowed from the learned model */
    uint16_t *steps;  /* the constructor's plan index, then methods' */
    unsigned len;     /* methods */
    unsigned calls;   /* the test's calls on the instance */
    char *cut;        /* why the sequence stops before them, or NULL */
    /* what probing saw after the constructor and each method: nobs of
     * them (fewer than len + 1 when one halted) */
    unsigned nobs;
    uint32_t *preds, *known;
    uint8_t *outcome;
} bcw_tseq;

typedef struct bcw_tseqs {
    bcw_tseq *v;
    unsigned n;
    size_t cap;
    bcw_strlist none; /* "test: why it gave no sequence" */
} bcw_tseqs;

typedef struct bcw_dstate {
    char *name;      /* "empty", "default", "on_loan & reserved" */
    char *origin;    /* the test whose calls are its cover, or NULL */
    uint32_t value;  /* bit i: chosen predicate i holds */
    uint16_t *seq;   /* cover: constructor plan index, then methods */
    unsigned ncover; /* methods in the cover */
    bool walked;     /* found by probing: it has a cover */
    bcw_summary sum; /* of its walk */
} bcw_dstate;

/* A transition fired in the state walk: `step` (a plan index) called in
 * state `from` ended with `outcome` in state `to` (-1: it halted or the
 * state is not known). */
typedef struct bcw_transition {
    unsigned from;
    int to;
    uint16_t step;
    uint8_t outcome;
} bcw_transition;

typedef struct bcw_states {
    /* plan predicate i is the unit's predicate cand[i] */
    unsigned ncand;
    unsigned cand[BCW_MAX_PREDS];
    bool explicit_choice;       /* --predicates */
    char *label[BCW_MAX_PREDS]; /* --predicates name:label: the name the
                                   states use instead, or NULL */
    /* the chosen ones, as plan predicate indices */
    unsigned nchosen;
    unsigned chosen[BCW_MAX_PREDS];
    bcw_dstate *states;
    unsigned nstates;
    size_t capstates;
    bcw_transition *trans;
    unsigned ntrans;
    size_t captrans;
    bcw_strlist notes; /* merged predicates and warnings, for the report */
    uint64_t probed;   /* sequences probing ran */
    bool restored;     /* the states are an oracle's, not probed */
} bcw_states;

/* Chooses the candidate predicates (`names`, comma-separated, or every
 * interface predicate then every bitcode one, at most BCW_MAX_PREDS) and
 * puts them in the plan for the workers to evaluate.  `steps` are the
 * plan's first entries. */
BCW_INTERNAL int bcw__states_plan(bcw_states *st, bcw_plan *plan,
                                  const bcw_unit *u, const bcw_step *steps,
                                  unsigned nsteps, const char *names);

/* Probes: a protocol walk over the constructors and `nmut` mutators of
 * `base` to `depth` (pruned by concrete state if `prune`), and each
 * prefix of each of the tests' sequences (or NULL; their observations
 * are kept in them), then picks the
 * predicates (merging those that agree on every probed state) and lists
 * the states with their covers.  Finding none is no error: st has no
 * state, and a note says the protocol walk runs instead. */
BCW_INTERNAL int bcw__states_probe(bcw_states *st, const bcw_walk_cfg *base,
                                   const uint16_t *mutators, unsigned nmut,
                                   unsigned depth, bool prune,
                                   const bcw_unit *u, bcw_tseqs *tests);

/* The state the predicates `preds` (of which `known` are known) make,
 * or -1 (none of the states, or not all known). */
BCW_INTERNAL int bcw__states_of(const bcw_states *st, uint32_t preds,
                                uint32_t known);

/* Did sequence s, a run of state i's cover alone (its walk's first
 * sequence), reach state i: end normally with the predicates' values of
 * i?  Else *got is the name of the state it reached, or NULL (it halted,
 * a predicate was not known, or the values are no state's). */
BCW_INTERNAL bool bcw__states_cover_reached(const bcw_states *st, unsigned i,
                                            const bcw_seq *s, const char **got);

/* Told before each state's walk which state it is (name, index), and
 * (NULL, -1) after the last. */
typedef void (*bcw_state_begin_cb)(void *payload, const char *name, int index);

/* The state walk: base's walk from every state's cover, its sequences
 * emitted through base's callback after begin() names their state, with
 * its summary in the state; the transitions of length one become the
 * graph.  *out gets the totals. */
BCW_INTERNAL int bcw__states_walk(bcw_states *st, const bcw_walk_cfg *base,
                                  const bcw_unit *u, bcw_state_begin_cb begin,
                                  void *payload, bcw_summary *out);

/* The states with covers as an oracle keeps them (bcwalk test), into
 * *out, whose arrays are the caller's (bcw__states_kept_free): the
 * plan's `nsteps` steps, the chosen predicates by name.  0 or
 * BCW_ENOMEM. */
BCW_INTERNAL int bcw__states_keep(const bcw_states *st, const bcw_unit *u,
                                  const bcw_step *steps, unsigned nsteps,
                                  bcw_oracle_states *out);
BCW_INTERNAL void bcw__states_kept_free(bcw_oracle_states *s);

/* The states an oracle kept, in place of probing: 1 when they fit this
 * plan (as many steps, each cover step calling the function it did, the
 * predicates all candidates), 0 when not (st unchanged but for a note
 * saying why: probe instead), or BCW_ENOMEM. */
BCW_INTERNAL int bcw__states_restore(bcw_states *st, const bcw_unit *u,
                                     const bcw_step *steps, unsigned nsteps,
                                     const bcw_oracle_states *kept);

/* Undoes a state walk, keeping what probing found (the states with
 * covers, and the first `nnotes` notes), so that the same states can be
 * walked again on another build (--reference). */
BCW_INTERNAL void bcw__states_rewind(bcw_states *st, unsigned nnotes);

/* The state graph as DOT into b: the states named by their predicates
 * (dashed: reached beyond the probe depth, not walked), each halt's
 * outcome a node of its own, and per state one edge to each node its
 * one-method sequences reached, labelled with their methods and how many
 * of the state's calls took it ("bstack_pop (1 of 7)").  b's error. */
BCW_INTERNAL int bcw__states_dot_buf(const bcw_states *st, const bcw_unit *u,
                                     const bcw_step *steps, bcw_buf *b);

/* The state graph as DOT, written atomically to `path`. */
BCW_INTERNAL int bcw__states_dot(const bcw_states *st, const bcw_unit *u,
                                 const bcw_step *steps, const char *path);

BCW_INTERNAL void bcw__states_free(bcw_states *st);

#endif
