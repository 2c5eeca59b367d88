/* oracle.h - the oracle: what a walk's calls were seen to do, each
 * observation judged once (by a person, or by a rule) and checked by
 * every later run (docs/oracle.md).
 *
 * An entry is keyed by the concrete state its last call starts from and
 * that call's text: every sequence reaching that state and making that
 * call shares it, so an oracle grows with the unit's states, not with
 * its sequences.  Where no state was computed, the whole sequence keys
 * the entry. */
#ifndef BCWALK_ORACLE_H
#define BCWALK_ORACLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct bcw_oracle bcw_oracle;

enum bcw_verdict {
    BCW_VERDICT_PENDING, /* seen, not judged yet */
    BCW_VERDICT_PASS,    /* judged right */
    BCW_VERDICT_FAIL     /* judged wrong: a known failure */
};

/* A call as it was seen, in the texts the reports print
 * (docs/results.md). */
typedef struct bcw_observation {
    const char *outcome; /* "normal", "crash", "abort", "hang", ... */
    const char *cause;   /* why it halted, or NULL */
    const char *result;  /* its result ("1", "#0", "ptr#2"), or NULL */
    unsigned nout;
    const char *const *out; /* 2 * nout strings: a name, then its value */
} bcw_observation;

/* The most parameters a call has (an entry's recorded arguments). */
#define BCW_ORACLE_MAX_ARGS 8

/* The arguments of an entry's last call that were computed from the
 * object (a category bounded by its fields, `balance + 1`), as that call
 * was passed them: bcwalk test passes them again rather than computing
 * them on the build under test, so that a fault cannot move such a
 * value along with itself (--replan computes them again).  `steps` are
 * the steps making that call (a category's boundary and its ordinary
 * value may be one value) of the plan `plan` fingerprints, none when
 * nothing is recorded; bit k of `pinned`: args[k] is parameter k's
 * value (its raw 64-bit word). */
typedef struct bcw_oracle_args {
    uint64_t plan;
    unsigned nsteps;
    const uint16_t *steps;
    uint32_t pinned;
    uint64_t args[BCW_ORACLE_MAX_ARGS];
} bcw_oracle_args;

typedef struct bcw_oracle_entry {
    /* The concrete state the last call starts from (the key its prefix's
     * result carries); 0: none was computed, the whole sequence is the
     * key. */
    uint64_t state;
    /* The concrete state the call left the object in, 0: none (it
     * halted, or no state was computed): where the next call's entry is
     * keyed, so that a run whose states hash otherwise (another build)
     * follows the oracle's from call to call. */
    uint64_t after;
    /* The first sequence seen to make the observation: its calls as the
     * report prints them, the constructor first and the observed call
     * last. */
    unsigned ncalls;
    const char *const *calls;
    bcw_observation obs;
    enum bcw_verdict verdict;
    int64_t first_seen; /* when, in seconds since the Epoch */
    /* The walk that made it: its kind ("protocol", "algebra", "state",
     * ...) and depth.  A walk of that kind at least that deep reaches
     * the entry again, or the entry is missing (bcwalk test fails). */
    const char *walk;
    unsigned depth;
    bcw_oracle_args args;
    /* Another observation a later run made of the same call, waiting for
     * a person to judge it (bcwalk review); outcome NULL: none. */
    bcw_observation proposed;
} bcw_oracle_entry;

/* A design state of the state walk: its name, its predicates' values
 * (bit i: predicate i of its bcw_oracle_states holds) and its cover, the
 * calls reaching it, as the plan's steps (the constructor's, then
 * ncover methods') with each step's function. */
typedef struct bcw_oracle_state {
    const char *name;
    uint32_t value;
    unsigned ncover;
    const uint16_t *steps;  /* ncover + 1 */
    const char *const *fns; /* ncover + 1 */
} bcw_oracle_state;

/* The design states the oracle's state walks were made from: bcwalk
 * test reaches them again by their covers, and a cover that no longer
 * reaches its state fails (docs/oracle.md). */
typedef struct bcw_oracle_states {
    unsigned plan_steps; /* steps of the plan the covers index */
    unsigned npreds;
    const char *const *preds; /* the predicates the values are of, by name */
    unsigned n;
    const bcw_oracle_state *v;
} bcw_oracle_states;

/* A new, empty oracle of unit `unit`; *out is the caller's, freed with
 * bcw_oracle_free().  0 or BCW_ENOMEM. */
int bcw_oracle_new(bcw_oracle **out, const char *unit);

/* Reads an oracle file.  A file that is not an oracle, is truncated or
 * corrupt (its checksum), or has another format version gives
 * BCW_EINPUT with a one-line message; *out is NULL then. */
int bcw_oracle_load(bcw_oracle **out, const char *path);

/* Writes the oracle to `path` atomically (a temporary file renamed into
 * place), entries in the order they were added.  0 or an error. */
int bcw_oracle_save(const bcw_oracle *oracle, const char *path);

/* Frees an oracle; NULL is accepted. */
void bcw_oracle_free(bcw_oracle *oracle);

/* The unit it judges, borrowed. */
const char *bcw_oracle_unit(const bcw_oracle *oracle);

/* The model file's bytes (docs/model.md) of the build the oracle was
 * first made from, whose plan its later walks follow (bcwalk test):
 * set a copy (0 or BCW_ENOMEM), or get them (NULL, *len 0: none). */
int bcw_oracle_set_model(bcw_oracle *oracle, const void *bytes, size_t len);
const void *bcw_oracle_model(const bcw_oracle *oracle, size_t *len);

/* The design states: replaced by a copy of `states` (NULL or none:
 * cleared; 0, BCW_EINPUT for a state whose cover has no steps or more
 * than 32 predicates, or BCW_ENOMEM), or got (NULL: none; borrowed,
 * valid until the next set). */
int bcw_oracle_set_states(bcw_oracle *oracle, const bcw_oracle_states *states);
const bcw_oracle_states *bcw_oracle_get_states(const bcw_oracle *oracle);

/* Its entries, and entry i (borrowed, valid until the next add). */
size_t bcw_oracle_count(const bcw_oracle *oracle);
const bcw_oracle_entry *bcw_oracle_entry_at(const bcw_oracle *oracle, size_t i);

/* The index of the entry for a call: the entry of (state, the last of
 * `calls`) when state is not 0, else of the whole sequence; -1 when
 * there is none. */
long bcw_oracle_find(const bcw_oracle *oracle, uint64_t state,
                     const char *const *calls, unsigned ncalls);

/* The index of the entry whose sequence is `calls`, whatever its state
 * (an entry keeps the first sequence seen to make it): how a run whose
 * states differ from the oracle's, a build that changed the unit's
 * layout, still meets the observations it has; -1 when there is none. */
long bcw_oracle_find_sequence(const bcw_oracle *oracle,
                              const char *const *calls, unsigned ncalls);

/* Adds a copy of `entry` (whose key must not be there: BCW_EINPUT) and
 * returns its index, or an error. */
long bcw_oracle_add(bcw_oracle *oracle, const bcw_oracle_entry *entry);

/* Entry i's observation becomes a copy of `obs`: 0 or BCW_ENOMEM (the
 * entry unchanged). */
int bcw_oracle_observe(bcw_oracle *oracle, size_t i,
                       const bcw_observation *obs);

/* Entry i's recorded arguments become a copy of `args` (bcwalk test
 * --replan records them again); arguments with no step, or past
 * BCW_ORACLE_MAX_ARGS, are BCW_EINPUT.  0 or the error
 * (BCW_ENOMEM: the entry unchanged). */
int bcw_oracle_record_args(bcw_oracle *oracle, size_t i,
                           const bcw_oracle_args *args);

/* Sets entry i's verdict. */
void bcw_oracle_judge(bcw_oracle *oracle, size_t i, enum bcw_verdict verdict);

/* Entry i's proposed observation becomes a copy of `obs`, or none when
 * `obs` is NULL: 0 or BCW_ENOMEM (the entry unchanged). */
int bcw_oracle_propose(bcw_oracle *oracle, size_t i,
                       const bcw_observation *obs);

/* A person's judgement of entry i: its proposed observation, if it has
 * one, becomes its observation, and `verdict` its verdict (pass: right;
 * fail: a known failure).  0 or an error. */
int bcw_oracle_settle(bcw_oracle *oracle, size_t i, enum bcw_verdict verdict);

/* An observation as the text report's `==>` line words it, into buf (n
 * bytes, cut to fit): "1, *len = 3", "void", "*abort* abort() called in
 * f (f.c:3)". */
void bcw_observation_text(const bcw_observation *obs, char *buf, size_t n);

/* Does entry i wait for a person: pending, or with a proposed
 * observation? */
int bcw_oracle_waiting(const bcw_oracle *oracle, size_t i);

/* Prints the oracle as one JSON document, an entry per line
 * (bcwalk oracle dump).  0, or BCW_ERROR when `f` could not be
 * written. */
int bcw_oracle_dump(const bcw_oracle *oracle, FILE *f);

#endif
