/* walk.h - enumeration of a walk's sequences, level by level (JWalk's
 * Listing 1), with pruning of halted and observer prefixes and JWalk's
 * summary counts.  Execution and output are callbacks, so the
 * enumeration can be tested without workers. */
#ifndef BCW_WALK_H
#define BCW_WALK_H

#include <stdbool.h>

#include "bcwalk/explore.h"
#include "plan.h"
#include "pool.h"

/* One executed sequence as the sink sees it: the constructor then `len`
 * methods (plan indices), every call's raw result and out values, and
 * how the sequence ended. */
typedef struct bcw_seq {
    unsigned len;
    const uint16_t *steps;       /* len + 1 entries */
    const uint64_t *rets;        /* len + 1 entries */
    const uint64_t *const *outs; /* len + 1 entries, NULL: none */
    uint8_t outcome;             /* enum bcw_outcome */
    uint8_t signo;
    uint16_t halted_at;
    bool predicted;        /* void result withheld (algebra) */
    unsigned nprefix;      /* the first calls are the walk's prefix (a state's
                              cover): calls 0 .. nprefix - 1 were not observed,
                              their rets and outs are 0 and NULL */
    uint32_t preds, known; /* design-state predicates after the sequence
                              (bcw_wire_result) */
    bool pruned;           /* not extended: its state was reached before */
    bool observer_changed; /* its last call, walked as an observer, left
                              another concrete state than its prefix */
    bool ended;            /* its last call ended the object (freed it,
                              returning no other): it has no teardown */
    uint8_t dtor_tries;    /* destructors that refused its object before
                              the one that tore it down */
    bool suspect;          /* halted after a step that fabricates (its
                              outcome is reported as "suspect") */
    bool aliasing;         /* halted after a step given the target as another
                              argument of its own type (reported as
                              "aliasing" unless suspect) */
    const bcw_wire_cause *cause; /* what the worker saw of the halt, or
                                    NULL */
    const bcw_wire_cause *leak;  /* a normal sequence's leak
                                    (BCW_CAUSE_LEAK), or NULL */
    uint64_t state;  /* the concrete state's hash, 0: not computed */
    uint64_t before; /* the state its last call started from (its
                        prefix's), 0: not computed or no prefix */
    /* A shard's (bcw_walk_cfg.shard_n > 1): the subtree of the walk's
     * share-out the sequence is in, the index of the sequence it extends
     * at the length before that share-out (the same in every shard);
     * BCW_SEQ_EVERY_SHARD for a length every shard runs alike. */
    uint64_t part;
} bcw_seq;

#define BCW_SEQ_EVERY_SHARD UINT64_MAX

/* A call's out block (bcw_seq.outs[k]) holds BCW_MAX_PARAMS words, and
 * for a step with text (bcw_walk_step.text) BCW_SEQ_TEXT_WORDS more:
 * what the call put in words (proto.h's text_of, ntext, text_cut,
 * text). */
#define BCW_SEQ_TEXT_WORDS (1 + BCW_TEXT_MAX / 8)

typedef struct bcw_seq_text {
    bool there;     /* the worker sent one */
    unsigned of;    /* 0 the result, k + 1 buffer parameter k */
    unsigned n;     /* bytes */
    bool cut;       /* the string went on past them */
    const char *at; /* the bytes, not NUL-terminated */
} bcw_seq_text;

/* The text in out block `outs` of a call whose step has text. */
static inline bcw_seq_text bcw_seq_text_of(const uint64_t *outs)
{
    uint64_t meta = outs[BCW_MAX_PARAMS];
    return (bcw_seq_text){.there = (meta & 1) != 0,
                          .of = (unsigned)(meta >> 8 & 0xff),
                          .n = (unsigned)(meta >> 16 & 0xff),
                          .cut = (meta >> 24 & 1) != 0,
                          .at = (const char *)&outs[BCW_MAX_PARAMS + 1]};
}

/* Did every call of s return: it ran normally, or only the teardown
 * after its last call (the destructor the walk ends it with) halted? */
static inline bool bcw_seq_returned(const bcw_seq *s)
{
    return s->outcome == BCW_RUN_NORMAL || s->halted_at > s->len;
}

#define BCW_EMIT_EXTEND 1

/* Bytes the walk holds per sequence it runs, at most (its tree's node,
 * the arrays' growth, a call's out block): how a memory budget becomes
 * bcw_walk_cfg.budget. */
BCW_INTERNAL size_t bcw__walk_bytes_per_sequence(void);

typedef struct bcw_walk_cfg {
    enum bcw_walk_kind kind;
    unsigned depth;
    unsigned nctors;
    const uint16_t *ctors; /* plan indices of constructors */
    /* A prefix every sequence starts with after its constructor (a
     * state's cover, for the state walk): depth counts the methods after
     * it; the constructor and the prefix make the level-0 sequence. */
    unsigned nprefix;
    const uint16_t *prefix;
    /* Most sequences to run (0: no limit): a level that would pass it is
     * not run, and *stopped (if not NULL) gets its length. */
    uint64_t budget;
    unsigned *stopped;
    /* Bytes the walk's tree may hold in memory (0: no limit); beyond
     * them it is kept in a file (spill.h) and the summary's spilled_at
     * says from which length.  A disk too full for it stops the walk
     * before the length that would not fit (*stopped, spill_full). */
    uint64_t memory;
    unsigned nmethods;
    const uint16_t *methods;   /* plan indices of walked methods */
    const bcw_walk_step *step; /* by plan index */
    /* Prune by concrete state: a normal sequence whose results' `key`
     * an earlier extended sequence had is not extended (its subtree is
     * counted as pruned_state).  The results must carry keys. */
    bool prune_state;
    /* By plan index, or NULL: what the runtime saw each step do as the
     * last call of a sequence (bcw_step_seen): an observer that left
     * another concrete state than its prefix did (both hashed), a call
     * that ended the object or replaced it */
    bcw_step_seen *seen;
    /* Every sequence ending in an observer has the worker check it, not
     * a sample of the long ones (bcwalk test: a change fails it) */
    bool check_observers;
    /* The workers the jobs run on (0: one): a group of jobs keeps each
     * busy with several. */
    unsigned workers;
    /* Shard shard_i of shard_n (0: the whole walk): the lengths up to
     * the first whose extendable sequences number SHARD_SUBTREES *
     * shard_n or more are run whole; of that length's extendable
     * sequences, the k-th is extended only by shard k mod shard_n. */
    unsigned shard_i, shard_n;
    /* Or NULL: the folder the shards of a walk pruning by state share
     * (docs/shards.md, "Pruning together"): after each length they run
     * apart, each writes there the keys its part met first at that
     * length, with their sequences, waits for every other shard's, and
     * prunes as the whole walk does.  All shards must run at once. */
    const char *shard_sync;
    /* Or NULL: a shard's counts as its walk was shared out, before the
     * first sequence of its own part (calls included); untouched when it
     * never was */
    bcw_summary *shared_from;
    /* Runs the jobs, handing each to done(ctx, job) once its results
     * are in, in the jobs' order (bcw__pool_run_each). */
    int (*exec)(void *payload, bcw_job *jobs, size_t njobs, bcw_job_done done,
                void *ctx);
    void *exec_payload;
    /* Or NULL: may the sequence seq[0..len] (constructor first) be
     * extended with method `next`?  Those it may not are discarded with
     * their subtrees, counted as pruned_model (the learned walk). */
    bool (*extends)(void *payload, const uint16_t *seq, unsigned len,
                    uint16_t next);
    void *extends_payload;
    /* Or NULL: the values computed from the object (bcw_walk_step's
     * `relative`) a sequence's last call is to be passed as they are,
     * not solved on the object (bcwalk test: the oracle's).  Of the
     * sequence steps[0..len], whose prefix left the state `before` (0:
     * not computed): the parameters pinned (bits) and their values in
     * vals.  The walk pins the earlier calls' values as they were
     * reported, so that a sequence passes what its prefix passed. */
    uint32_t (*pin)(void *payload, const uint16_t *steps, unsigned len,
                    uint64_t before, uint64_t *vals);
    void *pin_payload;
    /* Called for every executed sequence, in enumeration order: 0, an
     * error, or BCW_EMIT_EXTEND for a sequence pruned by its concrete
     * state that is to be extended all the same (its oracle's state is
     * new: prune by the union of the build's states and the oracle's). */
    int (*emit)(void *payload, const bcw_seq *seq);
    void *emit_payload;
    bcw_progress_cb progress;
    void *progress_payload;
} bcw_walk_cfg;

/* Runs the walk; fills the counts of *out (elapsed_s and restarts are
 * the caller's).  Returns 0 or the first error of exec or emit. */
BCW_INTERNAL int bcw__walk_run(bcw_summary *out, const bcw_walk_cfg *cfg);

/* Size of the whole sequence set: nctors * sum_{L=0..depth} m^L,
 * saturating at UINT64_MAX. */
BCW_INTERNAL uint64_t bcw__walk_set_size(unsigned nctors, unsigned m,
                                         unsigned depth);

/* Name of a walk kind ("protocol") and of an outcome ("abort"). */
BCW_INTERNAL const char *bcw__walk_name(enum bcw_walk_kind kind);
BCW_INTERNAL const char *bcw__outcome_name(unsigned outcome);

/* Does a walk of `depth` prune by concrete state, as `prune` asks
 * (BCW_PRUNE_AUTO: from depth 6 on, and not with a custom generator,
 * whose values may depend on how often it was asked, which the state's
 * key cannot see)? */
BCW_INTERNAL bool bcw__walk_prunes(enum bcw_prune prune, unsigned depth,
                                   bool generator);

/* The bytes a walk's tree may hold in memory: `mb` MiB, or with 0 half
 * the machine's memory. */
BCW_INTERNAL uint64_t bcw__walk_memory(unsigned mb);

/* An unpruned protocol or algebra walk of cfg (nctors constructors,
 * nmethods methods) whose tree cannot fit in its memory budget and the
 * free disk it spills to is refused before it starts, with the
 * estimate: BCW_EINPUT; else 0 (a pruned walk's size, or a state or
 * learned walk's, is not known ahead). */
BCW_INTERNAL int bcw__walk_fits(const bcw_walk_cfg *cfg, unsigned nctors,
                                unsigned nmethods);

/* The monotonic clock, in seconds: what walks and checkpoints time
 * themselves by. */
BCW_INTERNAL double bcw__now_s(void);

#endif
