/* judge.h - a walk judged against its oracle (bcwalk test,
 * docs/oracle.md): each executed sequence's last call is looked up by
 * the concrete state it started from and its text, and passes, fails,
 * is new or changed, or is still pending; what the oracle does not have
 * is added to it. */
#ifndef BCW_JUDGE_H
#define BCW_JUDGE_H

#include <stdbool.h>

#include "bcwalk/explore.h"
#include "bcwalk/oracle.h"
#include "report.h"

typedef struct bcw_judge bcw_judge;

/* What judging takes of the walk's settings (bcw_explore_opts'). */
typedef struct bcw_judge_opts {
    const char *oracle_path; /* the oracle file (bcwalk test), or NULL */
    const char *reference;   /* a reference build's bitcode, or NULL */
    bool accept;             /* pending sequences recorded as passing */
    bool replan;             /* the plan is this build's, not the oracle's */
    /* a person's answer for a sequence the report printed, or NULL */
    enum bcw_answer (*ask)(void *payload);
    void *ask_payload;
} bcw_judge_opts;

/* Opens the oracle at `path` for unit `unit` (a new one if there is no
 * file; with `path` NULL a new one in memory only, never saved);
 * `accept` records pending observations as passing.  A file of another
 * unit, or not an oracle, is BCW_EINPUT. */
BCW_INTERNAL int bcw__judge_open(bcw_judge **out, const char *path,
                                 const char *unit, bool accept);

/* The walk judged: its kind's name ("protocol") and depth, which the
 * entries it makes record and the entries it misses are told by. */
BCW_INTERNAL void bcw__judge_walk(bcw_judge *jd, const char *walk,
                                  unsigned depth);

/* What the walks so far observed becomes a reference (--reference): the
 * next walk's observations are compared with it, another one is a
 * failure (BCW_JUDGED_DIFFERS), nothing is accepted, and what it reaches
 * and how its states map onto the oracle's start afresh. */
BCW_INTERNAL void bcw__judge_against(bcw_judge *jd);

/* Judges sequence s (its texts made by reporter r) into *v, counting it
 * into `counts`; valid until the next call. */
BCW_INTERNAL int bcw__judge_seq(bcw_judge *jd, const bcw_reporter *r,
                                const bcw_seq *s, struct bcw_judged *counts,
                                bcw_verdict_of *v);

/* The walk's bcw_walk_cfg.pin: the values the oracle recorded for the
 * last call of steps[0..len] (the constructor first; steps of r's
 * plan), whose prefix left this build's state `before`, into vals; the
 * parameters pinned (bits), 0 when the oracle has none (an entry of
 * that step from the state the oracle has after that prefix, as the
 * walk met it, recorded in this plan). */
BCW_INTERNAL uint32_t bcw__judge_pin(bcw_judge *jd, const bcw_reporter *r,
                                     const uint16_t *steps, unsigned len,
                                     uint64_t before, uint64_t *vals);

/* bcwalk test: the plan comes from the model of the build the oracle
 * was made from, whatever this build's analysis says (a fault changes
 * roles and categories), when this build (`model`, its unit u) defines
 * every function it calls: *kept is that model, the caller's.  An
 * oracle with no model, or o->replan, takes this build's.  What this
 * build has that the oracle's plan does not walk is a warning. */
BCW_INTERNAL int bcw__judge_plan(bcw_judge *jd, const bcw_model *model,
                                 const bcw_unit *u, const bcw_judge_opts *o,
                                 bcw_model **kept, bcw_strlist *warnings);

/* The oracle being judged against (its model, say), and that the caller
 * changed it: it is saved. */
BCW_INTERNAL bcw_oracle *bcw__judge_oracle(bcw_judge *jd);
BCW_INTERNAL void bcw__judge_changed(bcw_judge *jd);

/* Does the sequence just judged wait for a person (new, changed or not
 * judged yet)? */
BCW_INTERNAL bool bcw__judge_asks(const bcw_judge *jd);

/* A person's answer for the sequence just judged (bcwalk test
 * --interactive): pass or fail settles its entry (a changed observation
 * becoming the entry's) and moves it in `counts`; pending leaves it. */
BCW_INTERNAL int bcw__judge_answer(bcw_judge *jd, enum bcw_verdict verdict,
                                   struct bcw_judged *counts);

/* Counts the oracle's entries the walk did not reach and, when `save`
 * and the walk changed the oracle, writes it back; frees jd (NULL is
 * accepted).  0 or the error of the save. */
BCW_INTERNAL int bcw__judge_close(bcw_judge *jd, struct bcw_judged *counts,
                                  bool save);

#endif
