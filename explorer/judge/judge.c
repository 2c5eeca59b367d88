/* judge.c - a walk judged against its oracle (judge.h). */
#define _POSIX_C_SOURCE 200809L
#include "judge.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "alloc.h"
#include "engine.h"
#include "hash.h"

struct bcw_judge {
    bcw_oracle *oracle;
    char *path;
    bool accept;
    bool reference; /* the oracle is a reference build's walk: another
                       observation is a failure (bcw__judge_against) */
    bool dirty;     /* the oracle changed: save it */
    size_t known;   /* entries the oracle had before this walk */
    /* by entry: the outcome this walk saw when it reached it (a static
     * string), NULL: not reached */
    const char **now;
    size_t capnow;
    bool *asked; /* by entry: put to a person in this walk */
    size_t capasked;
    /* This walk's concrete states as the oracle has them: a sequence
     * that made an entry's observation left the state its `after` names,
     * whatever this build's hash of it (from[i] -> to[i]). */
    bcw_index map;
    uint64_t *from, *to;
    size_t nmap, capfrom, capto;
    /* The oracle's state after each sequence of the last two lengths the
     * walk emitted (paths[1] the longer), by the hash of its steps: an
     * extension is looked up in the state the oracle has after its own
     * prefix, whatever state this build reached (a faulty call may leave
     * the object as another path leaves it).  Walks emit by length. */
    struct path_gen {
        bcw_index ix;
        uint64_t *after;
        size_t n, cap;
    } paths[2];
    unsigned path_len;         /* the length paths[1] holds */
    bcw_stateset seen_after;   /* the oracle's states this walk's paths met */
    bcw_oracle_entry seen;     /* the sequence being judged, its texts ours */
    long last;                 /* its entry, -1: none */
    enum bcw_judgement judged; /* and how it was judged */
    const char *walk;          /* the walk judged (bcw__judge_walk) */
    unsigned depth;
    /* The fingerprint of the walk's plan, whose steps the entries'
     * recorded arguments name (bcw_oracle_args); 0: not taken yet. */
    uint64_t plan;
    /* The entries with recorded arguments of this plan by their state
     * and last step (bcw__judge_pin), the first `pinning` entries,
     * indexed once. */
    bcw_index by_step;
    size_t pinning;
    bool indexed;
    uint16_t seen_step; /* the step of jd->seen's last call */
    bool replan;        /* the plan is made again (--replan) */
};

int bcw__judge_open(bcw_judge **out, const char *path, const char *unit,
                    bool accept)
{
    *out = NULL;
    bcw_judge *jd = bcw__calloc(1, sizeof *jd);
    if (jd == NULL ||
        (path != NULL && (jd->path = bcw__strdup(path)) == NULL)) {
        free(jd);
        return BCW_ENOMEM;
    }
    jd->accept = accept;
    jd->last = -1;
    int err = path != NULL && access(path, F_OK) == 0
                  ? bcw_oracle_load(&jd->oracle, path)
                  : bcw_oracle_new(&jd->oracle, unit);
    if (err == 0 && path != NULL &&
        strcmp(bcw_oracle_unit(jd->oracle), unit) != 0)
        err = bcw__error(BCW_EINPUT, "oracle %s: it judges unit %s, not %s",
                         path, bcw_oracle_unit(jd->oracle), unit);
    if (err < 0) {
        bcw__judge_close(jd, NULL, false);
        return err;
    }
    jd->known = bcw_oracle_count(jd->oracle);
    *out = jd;
    return 0;
}

void bcw__judge_walk(bcw_judge *jd, const char *walk, unsigned depth)
{
    jd->walk = walk;
    jd->depth = depth;
}

void bcw__judge_against(bcw_judge *jd)
{
    jd->accept = false;
    jd->reference = true;
    jd->known = bcw_oracle_count(jd->oracle);
    memset(jd->now, 0, jd->capnow * sizeof *jd->now);
    bcw__index_free(&jd->map);
    jd->nmap = 0;
    bcw__index_free(&jd->by_step);
    jd->indexed = false;
}

static void path_gen_free(struct path_gen *g)
{
    bcw__index_free(&g->ix);
    free(g->after);
    memset(g, 0, sizeof *g);
}

/* The hash of the first n + 1 steps of a sequence (the constructor, n
 * methods). */
static uint64_t path_hash(const uint16_t *steps, unsigned n)
{
    return bcw__hash(steps, (n + 1) * sizeof *steps, 0x9a7);
}

/* The oracle's state after a sequence's first len + 1 steps, where the
 * walk's sequences of that length met it (paths[1] holds the longest
 * judged, paths[0] those one shorter), 0 when it did not record it. */
static uint64_t path_state(const bcw_judge *jd, const uint16_t *steps,
                           unsigned len)
{
    const struct path_gen *g = len == jd->path_len       ? &jd->paths[1]
                               : len + 1 == jd->path_len ? &jd->paths[0]
                                                         : NULL;
    if (g == NULL || g->n == 0)
        return 0;
    uint32_t i = bcw__index_get(&g->ix, path_hash(steps, len), NULL, NULL);
    return i == UINT32_MAX ? 0 : g->after[i];
}

/* The oracle's state after the prefix of s (its first len - 1 methods),
 * 0 when the walk did not record it; the generations moved on to s's
 * length first. */
static uint64_t path_before(bcw_judge *jd, const bcw_seq *s)
{
    if (s->len == jd->path_len + 1) {
        path_gen_free(&jd->paths[0]);
        jd->paths[0] = jd->paths[1];
        memset(&jd->paths[1], 0, sizeof jd->paths[1]);
        jd->path_len = s->len;
    } else if (s->len != jd->path_len) {
        /* another walk (a state's), or lengths skipped */
        path_gen_free(&jd->paths[0]);
        path_gen_free(&jd->paths[1]);
        bcw__stateset_clear(&jd->seen_after);
        jd->path_len = s->len;
    }
    return s->len > 0 ? path_state(jd, s->steps, s->len - 1) : 0;
}

/* The oracle's state after all of s, for its extensions (none at the
 * walk's depth: nothing is kept of the longest); *extend when s was
 * pruned by this build's state but the oracle's is new to the walk.  0
 * or BCW_ENOMEM. */
static int path_after(bcw_judge *jd, const bcw_reporter *r, const bcw_seq *s,
                      uint64_t after, bool *extend)
{
    struct path_gen *g = &jd->paths[1];
    if (after == 0 || s->len - s->nprefix >= r->depth)
        return 0;
    bool added;
    if (bcw__stateset_add(&jd->seen_after, after, &added) < 0)
        return BCW_ENOMEM;
    *extend = s->pruned && added;
    if (bcw__grow(&g->after, &g->cap, g->n + 1, sizeof *g->after) < 0 ||
        bcw__index_put(&g->ix, path_hash(s->steps, s->len), (uint32_t)g->n) < 0)
        return BCW_ENOMEM;
    g->after[g->n++] = after;
    return 0;
}

typedef struct lookup {
    const bcw_judge *jd;
    uint64_t state;
} lookup;

static int same_from(uint32_t i, const void *payload)
{
    const lookup *l = payload;
    return l->jd->from[i] == l->state;
}

/* This walk's state as the oracle has it (itself when not mapped). */
static uint64_t translate(const bcw_judge *jd, uint64_t state)
{
    lookup l = {jd, state};
    uint32_t i = state != 0 ? bcw__index_get(&jd->map, state, same_from, &l)
                            : UINT32_MAX;
    return i == UINT32_MAX ? state : jd->to[i];
}

/* This walk's state `run` is the oracle's `known`; the first word
 * stands.  0 or BCW_ENOMEM. */
static int remember(bcw_judge *jd, uint64_t run, uint64_t known)
{
    if (run == 0 || known == 0 || run == known || translate(jd, run) != run)
        return 0;
    if (bcw__grow(&jd->from, &jd->capfrom, jd->nmap + 1, sizeof *jd->from) <
            0 ||
        bcw__grow(&jd->to, &jd->capto, jd->nmap + 1, sizeof *jd->to) < 0 ||
        bcw__index_put(&jd->map, run, (uint32_t)jd->nmap) < 0)
        return BCW_ENOMEM;
    jd->from[jd->nmap] = run;
    jd->to[jd->nmap++] = known;
    return 0;
}

static bool same_str(const char *a, const char *b)
{
    return a == b || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* Where a site " (FILE:LINE)" starting at p ends, or NULL when p holds
 * none. */
static const char *past_site(const char *p)
{
    if (p[0] != ' ' || p[1] != '(')
        return NULL;
    const char *close = strchr(p + 2, ')');
    const char *colon = close != NULL ? close : p;
    while (colon > p + 2 && colon[-1] >= '0' && colon[-1] <= '9')
        colon--;
    return close != NULL && colon < close && colon[-1] == ':' &&
                   memchr(p + 2, '(', (size_t)(close - p - 2)) == NULL
               ? close + 1
               : NULL;
}

/* Two causes alike but for their source sites: a line that moved, or
 * the same source built in another directory, changes no observation;
 * the oracle keeps the site it saw first for people to read. */
static bool same_cause(const char *a, const char *b)
{
    if (a == NULL || b == NULL)
        return a == b;
    for (;;) {
        const char *ea = past_site(a), *eb = past_site(b);
        if (ea != NULL && eb != NULL) {
            a = ea, b = eb;
            continue;
        }
        if (*a != *b)
            return false;
        if (*a == '\0')
            return true;
        a++, b++;
    }
}

static bool same_obs(const bcw_observation *a, const bcw_observation *b)
{
    if (!same_str(a->outcome, b->outcome) || !same_cause(a->cause, b->cause) ||
        !same_str(a->result, b->result) || a->nout != b->nout)
        return false;
    for (unsigned i = 0; i < 2 * a->nout; i++)
        if (!same_str(a->out[i], b->out[i]))
            return false;
    return true;
}

/* Sets flag i of (*flags, *cap, grown as needed): 1 when it was set
 * already, 0 when not, or BCW_ENOMEM. */
static int set_flag(bool **flags, size_t *cap, size_t i)
{
    size_t had = *cap;
    if (bcw__grow(flags, cap, i + 1, sizeof **flags) < 0)
        return BCW_ENOMEM;
    memset(*flags + had, 0, (*cap - had) * sizeof **flags);
    bool was = (*flags)[i];
    (*flags)[i] = true;
    return was;
}

/* An observation of a void call that returned normally. */
static bool void_normal(const bcw_observation *o)
{
    return strcmp(o->outcome, "normal") == 0 && o->result == NULL &&
           o->nout == 0 && o->cause == NULL;
}

/* Is sequence s the cover of the state being walked (the first sequence
 * of its walk), run on its own, and does it no longer reach that state
 * (a fault made it unreachable)?  The state it reached instead, if any,
 * into v. */
static void lost_state(const bcw_reporter *r, const bcw_seq *s,
                       bcw_verdict_of *v)
{
    if (r->states != NULL && r->state != NULL && r->state_index >= 0 &&
        s->len == s->nprefix)
        v->lost = !bcw__states_cover_reached(
            r->states, (unsigned)r->state_index, s, &v->lost_to);
}

/* A failed ENSURES or INVARIANT (the unit's invariant function's too),
 * or a state's cover that no longer reaches it: wrong whatever a person
 * would say (the JML way).  A failed assert() is an observation like a
 * crash: a library's assert is often its precondition check (json-c
 * asserts its argument's type), which a person judges once. */
static bool broken(const bcw_seq *s, const bcw_verdict_of *v)
{
    return s->outcome == BCW_RUN_FAILURE || v->lost;
}

/* The oracle's entry for sequence s into *at (-1: the oracle has none),
 * its observation made into jd->seen, *state the oracle's state s's
 * last call started from (0: none known): keyed by that state and the
 * last call, or else by the whole sequence.  0 or an error. */
static int find_entry(bcw_judge *jd, const bcw_reporter *r, const bcw_seq *s,
                      long *at, uint64_t *state)
{
    /* the last call in words first: a state's entry needs no more */
    bcw_oracle_entry *e = &jd->seen;
    uint64_t path = path_before(jd, s);
    *state = path != 0 ? path : translate(jd, s->before);
    *at = -1;
    int err = *state != 0 ? bcw__report_observe(r, s, false, e) : 0;
    if (err < 0)
        return err;
    e->state = *state;
    if (*state != 0)
        *at = bcw_oracle_find(jd->oracle, *state, e->calls, e->ncalls);
    if (*at >= 0 || (s->predicted && *state == 0))
        return 0;
    /* a whole-sequence key, a new entry, or states the oracle does not
     * know (a build that changed the unit's layout), where the same
     * sequence still meets its observation */
    bcw__report_observed_free(e);
    if ((err = bcw__report_observe(r, s, true, e)) < 0)
        return err;
    e->state = *state;
    *at = bcw_oracle_find(jd->oracle, *state, e->calls, e->ncalls);
    if (*at < 0)
        *at = bcw_oracle_find_sequence(jd->oracle, e->calls, e->ncalls);
    return 0;
}

/* The fingerprint of the walk's plan (r's steps): what makes each
 * step's call, so that a plan of other options (--boundaries), of
 * another model or taught other values, is another plan. */
static uint64_t plan_of(bcw_judge *jd, const bcw_reporter *r)
{
    if (jd->plan != 0)
        return jd->plan;
    uint64_t h = bcw__hash(&r->nsteps, sizeof r->nsteps, 0x91a);
    for (unsigned i = 0; i < r->nsteps; i++) {
        const bcw_step *st = &r->steps[i];
        const bcw_func *f = &r->unit->funcs[st->func];
        h = bcw__hash(f->name, strlen(f->name) + 1, h);
        for (unsigned k = 0; k < f->nparams; k++) {
            const bcw_part *part = st->part[k];
            int64_t words[] = {st->fixed[k], st->value[k], st->custom[k],
                               st->age[k], st->relative[k] != NULL};
            h = bcw__hash(words, sizeof words, h);
            const char *texts[] = {st->label[k], part ? part->str : NULL,
                                   part ? part->rel_text : NULL};
            for (unsigned t = 0; t < 3; t++)
                h = texts[t] != NULL
                        ? bcw__hash(texts[t], strlen(texts[t]) + 1, h)
                        : bcw__hash("", 1, h ^ t);
        }
    }
    return jd->plan = h | 1;
}

/* The values computed from the object that s's last call was passed,
 * which the oracle records (none when the call was not made), into
 * jd->seen.args. */
static void seen_args(bcw_judge *jd, const bcw_reporter *r, const bcw_seq *s)
{
    bcw_oracle_args *a = &jd->seen.args;
    *a = (bcw_oracle_args){.plan = plan_of(jd, r)};
    const bcw_step *st = &r->steps[s->steps[s->len]];
    const uint64_t *outs = s->outs[s->len];
    bool made = !(s->outcome == BCW_RUN_REJECTED && s->halted_at == s->len);
    jd->seen_step = s->steps[s->len];
    a->nsteps = 1;
    a->steps = &jd->seen_step;
    for (unsigned k = 0; outs != NULL && made && k < BCW_MAX_PARAMS; k++)
        if (st->relative[k] != NULL) {
            a->pinned |= 1u << k;
            a->args[k] = outs[k];
        }
}

static bool same_values(const bcw_oracle_args *a, const bcw_oracle_args *b)
{
    if (a->pinned != b->pinned)
        return false;
    for (unsigned k = 0; k < BCW_ORACLE_MAX_ARGS; k++)
        if ((a->pinned >> k & 1) && a->args[k] != b->args[k])
            return false;
    return true;
}

static bool has_step(const bcw_oracle_args *a, uint16_t step)
{
    for (unsigned i = 0; i < a->nsteps; i++)
        if (a->steps[i] == step)
            return true;
    return false;
}

static uint64_t step_key(uint64_t state, uint16_t step)
{
    return bcw__hash(&step, sizeof step, state ^ 0x5e9);
}

typedef struct step_lookup {
    const bcw_judge *jd;
    uint64_t state;
    uint16_t step;
} step_lookup;

static int same_step(uint32_t i, const void *payload)
{
    const step_lookup *l = payload;
    const bcw_oracle_entry *e = bcw_oracle_entry_at(l->jd->oracle, i);
    return e->state == l->state && e->args.plan == l->jd->plan &&
           has_step(&e->args, l->step);
}

/* Entry i under its state and each of its steps, if it pins a value in
 * this walk's plan.  0 or BCW_ENOMEM. */
static int index_entry(bcw_judge *jd, size_t i)
{
    const bcw_oracle_entry *e = bcw_oracle_entry_at(jd->oracle, i);
    for (unsigned k = 0; e->state != 0 && e->args.pinned != 0 &&
                         e->args.plan == jd->plan && k < e->args.nsteps;
         k++)
        if (bcw__index_put(&jd->by_step, step_key(e->state, e->args.steps[k]),
                           (uint32_t)i) < 0)
            return BCW_ENOMEM;
    return 0;
}

/* The entries recorded so far, by state and last step: 0 or
 * BCW_ENOMEM. */
static int index_steps(bcw_judge *jd)
{
    jd->indexed = true;
    jd->pinning = bcw_oracle_count(jd->oracle);
    int err = 0;
    for (size_t i = 0; i < jd->pinning && err == 0; i++)
        err = index_entry(jd, i);
    return err;
}

uint32_t bcw__judge_pin(bcw_judge *jd, const bcw_reporter *r,
                        const uint16_t *steps, unsigned len, uint64_t before,
                        uint64_t *vals)
{
    plan_of(jd, r);
    if (len == 0 || (!jd->indexed && index_steps(jd) < 0))
        return 0;
    uint64_t state = path_state(jd, steps, len - 1);
    if (state == 0)
        state = translate(jd, before);
    step_lookup l = {jd, state, steps[len]};
    uint32_t i = state != 0
                     ? bcw__index_get(&jd->by_step, step_key(state, steps[len]),
                                      same_step, &l)
                     : UINT32_MAX;
    if (i == UINT32_MAX)
        return 0;
    const bcw_oracle_args *a = &bcw_oracle_entry_at(jd->oracle, i)->args;
    memcpy(vals, a->args, sizeof a->args);
    return a->pinned;
}

static bool was_reached(const bcw_judge *jd, size_t i)
{
    return i < jd->capnow && jd->now[i] != NULL;
}

/* Entry i reached by s: this walk's state after s is the oracle's
 * after the entry, which s's extensions start from.  0 or
 * BCW_ENOMEM. */
static int reached(bcw_judge *jd, const bcw_reporter *r, const bcw_seq *s,
                   long i, bcw_verdict_of *v)
{
    uint64_t after = bcw_oracle_entry_at(jd->oracle, (size_t)i)->after;
    size_t had = jd->capnow;
    if (bcw__grow(&jd->now, &jd->capnow, (size_t)i + 1, sizeof *jd->now) < 0)
        return BCW_ENOMEM;
    memset(jd->now + had, 0, (jd->capnow - had) * sizeof *jd->now);
    jd->now[i] = jd->seen.obs.outcome ? jd->seen.obs.outcome : "";
    if (remember(jd, s->state, after) < 0 ||
        path_after(jd, r, s, after, &v->extend) < 0)
        return BCW_ENOMEM;
    return 0;
}

/* A sequence not judged (its void result is predicted: the weak rule),
 * but kept: where it left the object is the oracle's state its
 * extensions start from, so that a faulty call that leaves the object as
 * it found it does not pass for the call the oracle knows (a reference's
 * walk that did not make it has none). */
static int keep_predicted(bcw_judge *jd, const bcw_reporter *r,
                          const bcw_seq *s, long i, bcw_verdict_of *v)
{
    if (i < 0 && jd->reference)
        return 0;
    if (i < 0) {
        jd->seen.verdict = BCW_VERDICT_PASS;
        jd->seen.first_seen = (int64_t)time(NULL);
        jd->seen.walk = jd->walk;
        jd->seen.depth = jd->depth;
        if ((i = bcw_oracle_add(jd->oracle, &jd->seen)) < 0)
            return (int)i;
        jd->dirty = true;
    }
    return reached(jd, r, s, i, v);
}

/* A sequence the oracle has no entry for becomes one: failed when it
 * broke a contract, passed by the weak rule or --accept, else pending.
 * Its index, or an error. */
static long judge_new(bcw_judge *jd, const bcw_seq *s, bcw_verdict_of *v,
                      struct bcw_judged *counts, bool *accepted)
{
    bcw_oracle_entry *e = &jd->seen;
    bool wrong = broken(s, v);
    /* JWalk's weak rule: a void call that returns normally is right
     * (only a change from it is put to a person) */
    bool rule = !wrong && !jd->reference && void_normal(&e->obs);
    /* a lost cover is the state's failure, not the call's: the entry
     * keeps what the call did, judged as any other */
    e->verdict = s->outcome == BCW_RUN_FAILURE ? BCW_VERDICT_FAIL
                 : jd->accept || rule          ? BCW_VERDICT_PASS
                                               : BCW_VERDICT_PENDING;
    e->first_seen = (int64_t)time(NULL);
    e->walk = jd->walk;
    e->depth = jd->depth;
    long i = bcw_oracle_add(jd->oracle, e);
    if (i < 0)
        return i;
    jd->dirty = true;
    v->judgement = wrong        ? BCW_JUDGED_BROKEN
                   : rule       ? BCW_JUDGED_RULE
                   : jd->accept ? BCW_JUDGED_PASS
                                : BCW_JUDGED_NEW;
    *accepted = jd->accept && !wrong && !rule;
    counts->weak += rule;
    return i;
}

/* A sequence whose observation is not entry i's: a failure against a
 * reference, accepted in its place, or a change kept for review. */
static int judge_changed(bcw_judge *jd, const bcw_seq *s, size_t i,
                         bcw_verdict_of *v, bool *accepted)
{
    const bcw_oracle_entry *had = bcw_oracle_entry_at(jd->oracle, i);
    bool wrong = broken(s, v);
    int err;
    if (jd->reference) {
        v->judgement = BCW_JUDGED_DIFFERS;
        v->was = &had->obs;
    } else if (jd->accept && !wrong && !was_reached(jd, i)) {
        /* accepted in its place, unless this walk met the entry with
         * its old observation already: then the state does not decide
         * what the call does (unit globals), and it stays pending */
        if ((err = bcw_oracle_propose(jd->oracle, i, &jd->seen.obs)) < 0 ||
            (err = bcw_oracle_settle(jd->oracle, i, BCW_VERDICT_PASS)) < 0)
            return err;
        jd->dirty = true;
        v->judgement = BCW_JUDGED_PASS;
        *accepted = true;
    } else {
        v->judgement = wrong ? BCW_JUDGED_BROKEN : BCW_JUDGED_CHANGED;
        v->was = &had->obs;
        /* kept for bcwalk review, once */
        if (!wrong && (had->proposed.outcome == NULL ||
                       !same_obs(&had->proposed, &jd->seen.obs))) {
            if ((err = bcw_oracle_propose(jd->oracle, i, &jd->seen.obs)) < 0)
                return err;
            jd->dirty = true;
        }
    }
    return 0;
}

/* A sequence that observed what entry i has: its verdict stands (a
 * broken contract fails whatever it says), --accept passes a pending
 * one; a change proposed for it earlier is withdrawn. */
static int judge_same(bcw_judge *jd, const bcw_seq *s, size_t i,
                      bcw_verdict_of *v, bool *accepted)
{
    const bcw_oracle_entry *had = bcw_oracle_entry_at(jd->oracle, i);
    bool wrong = broken(s, v);
    if (wrong || had->verdict == BCW_VERDICT_FAIL) {
        v->judgement = wrong ? BCW_JUDGED_BROKEN : BCW_JUDGED_FAIL;
    } else if (had->verdict == BCW_VERDICT_PASS) {
        v->judgement = BCW_JUDGED_PASS;
    } else if (jd->accept) {
        bcw_oracle_judge(jd->oracle, i, BCW_VERDICT_PASS);
        jd->dirty = true;
        v->judgement = BCW_JUDGED_PASS;
        *accepted = true;
    } else {
        /* an entry this walk added is as new to a person as its first */
        v->judgement = i >= jd->known ? BCW_JUDGED_NEW : BCW_JUDGED_PENDING;
    }
    /* the call does what the oracle has again: no change to review */
    if (had->proposed.outcome == NULL)
        return 0;
    int err = bcw_oracle_propose(jd->oracle, i, NULL);
    if (err < 0)
        return err;
    jd->dirty = true;
    return 0;
}

/* The judged sequence in the walk's counts: a person confirms entry i
 * once, however many sequences share it. */
static int count(bcw_judge *jd, const bcw_verdict_of *v, long i, bool accepted,
                 struct bcw_judged *counts)
{
    counts->accepted += accepted;
    if (accepted || v->judgement == BCW_JUDGED_NEW ||
        v->judgement == BCW_JUDGED_CHANGED ||
        v->judgement == BCW_JUDGED_PENDING) {
        int was = set_flag(&jd->asked, &jd->capasked, (size_t)i);
        if (was < 0)
            return was;
        counts->manual += !was;
    }
    switch (v->judgement) {
    case BCW_JUDGED_PASS:
    case BCW_JUDGED_RULE:
        counts->passed++;
        break;
    case BCW_JUDGED_DIFFERS:
        counts->differs++;
        counts->failed++;
        break;
    case BCW_JUDGED_FAIL:
    case BCW_JUDGED_BROKEN:
        counts->failed++;
        break;
    case BCW_JUDGED_NEW:
        counts->fresh++;
        break;
    case BCW_JUDGED_CHANGED:
        counts->changed++;
        break;
    default:
        counts->unjudged++;
        break;
    }
    return 0;
}

/* Entry i, met again, records the arguments this walk passed its call:
 * another step making the same call, values where it has none, or
 * (--replan) this plan's in place of another's.  0 or an error. */
static int record_args(bcw_judge *jd, size_t i)
{
    const bcw_oracle_args *had = &bcw_oracle_entry_at(jd->oracle, i)->args;
    const bcw_oracle_args *seen = &jd->seen.args;
    bool same = had->plan == seen->plan && same_values(had, seen);
    if (jd->reference || (same && has_step(had, jd->seen_step)) ||
        (!same && had->nsteps > 0 && !jd->replan))
        return 0;
    bcw_oracle_args now = *seen;
    uint16_t *steps = NULL;
    if (same && had->nsteps > 0) {
        /* one more step making that call */
        if ((steps = bcw__calloc(had->nsteps + 1, sizeof *steps)) == NULL)
            return BCW_ENOMEM;
        memcpy(steps, had->steps, had->nsteps * sizeof *steps);
        steps[had->nsteps] = jd->seen_step;
        now.steps = steps;
        now.nsteps = had->nsteps + 1;
    }
    int err = bcw_oracle_record_args(jd->oracle, i, &now);
    free(steps);
    jd->dirty = true;
    /* a pin for the step from here on too */
    return err == 0 && jd->indexed && i < jd->pinning ? index_entry(jd, i)
                                                      : err;
}

int bcw__judge_seq(bcw_judge *jd, const bcw_reporter *r, const bcw_seq *s,
                   struct bcw_judged *counts, bcw_verdict_of *v)
{
    *v = (bcw_verdict_of){.judgement = BCW_JUDGED_NOT};
    lost_state(r, s, v);
    jd->last = -1;
    bcw__report_observed_free(&jd->seen);
    uint64_t state;
    long i;
    int err = find_entry(jd, r, s, &i, &state);
    seen_args(jd, r, s);
    if (err == 0 && i >= 0)
        err = record_args(jd, (size_t)i);
    if (err < 0 || s->predicted)
        return err < 0 || state == 0 ? err : keep_predicted(jd, r, s, i, v);
    bool accepted = false;
    if (i < 0)
        err = (i = judge_new(jd, s, v, counts, &accepted)) < 0 ? (int)i : 0;
    else if (!same_obs(&bcw_oracle_entry_at(jd->oracle, (size_t)i)->obs,
                       &jd->seen.obs))
        err = judge_changed(jd, s, (size_t)i, v, &accepted);
    else
        err = judge_same(jd, s, (size_t)i, v, &accepted);
    if (err < 0)
        return err;
    jd->last = i;
    jd->judged = v->judgement;
    if ((err = reached(jd, r, s, i, v)) < 0)
        return err;
    return count(jd, v, i, accepted, counts);
}

/* Is `name` a function of unit u? */
static bool has_func(const bcw_unit *u, const char *name)
{
    for (unsigned i = 0; i < u->nfuncs; i++)
        if (strcmp(u->funcs[i].name, name) == 0)
            return true;
    return false;
}

/* Does the build whose model is `model` define function `name`: one
 * it walks, or one its analysis skipped (a constructor a fault made
 * return NULL always is no constructor to that build's analysis, and
 * still the oracle's to call)? */
static bool defines(const bcw_model *model, const char *name)
{
    size_t n = strlen(name);
    for (unsigned j = 0; j < model->nsyms; j++)
        if (strcmp(model->syms[j], name) == 0)
            return true;
    for (unsigned j = 0; j < model->nskipped; j++)
        if (strncmp(model->skipped[j], name, n) == 0 &&
            model->skipped[j][n] == ':')
            return true;
    return false;
}

/* bcwalk test's plan (judge.h). */
int bcw__judge_plan(bcw_judge *jd, const bcw_model *model, const bcw_unit *u,
                    const bcw_judge_opts *o, bcw_model **kept,
                    bcw_strlist *warnings)
{
    *kept = NULL;
    jd->replan = o->replan;
    bcw_oracle *oracle = bcw__judge_oracle(jd);
    size_t len = 0;
    const void *bytes = bcw_oracle_model(oracle, &len);
    if (bytes == NULL || o->replan) {
        char *data = NULL;
        size_t n = 0;
        int err = bcw__model_to_bytes(model, false, &data, &n);
        if (err == 0)
            err = bcw_oracle_set_model(oracle, data, n);
        free(data);
        bcw__judge_changed(jd);
        return err;
    }
    bcw_model *m = NULL;
    int err = bcw__model_from_bytes(&m, bytes, len, o->oracle_path);
    if (err < 0)
        return err;
    int k = bcw_model_find_unit(m, u->name);
    const char *missing = k < 0 ? u->name : NULL;
    for (unsigned i = 0; missing == NULL && i < m->nsyms; i++)
        if (!defines(model, m->syms[i]))
            missing = m->syms[i];
    if (missing != NULL) {
        err = bcw__strlist_add(
            warnings,
            bcw__sprintf("the oracle's plan (the build it was made from) "
                         "walks %s, which this build does not: the walk is "
                         "planned from this build, whose roles and "
                         "categories may differ (--replan makes its plan "
                         "the oracle's)",
                         missing));
        bcw_model_free(m);
        return err;
    }
    for (unsigned i = 0; i < u->nfuncs && err == 0; i++)
        if (!has_func(&m->units[k], u->funcs[i].name))
            err = bcw__strlist_add(
                warnings, bcw__sprintf("%s is not in the oracle's plan (the "
                                       "build it was made from): not walked "
                                       "(--replan walks it, and makes this "
                                       "build's plan the oracle's)",
                                       u->funcs[i].name));
    if (err < 0) {
        bcw_model_free(m);
        return err;
    }
    *kept = m;
    return 0;
}

bcw_oracle *bcw__judge_oracle(bcw_judge *jd)
{
    return jd->oracle;
}

void bcw__judge_changed(bcw_judge *jd)
{
    jd->dirty = true;
}

bool bcw__judge_asks(const bcw_judge *jd)
{
    return jd->last >= 0 &&
           (jd->judged == BCW_JUDGED_NEW || jd->judged == BCW_JUDGED_CHANGED ||
            jd->judged == BCW_JUDGED_PENDING);
}

int bcw__judge_answer(bcw_judge *jd, enum bcw_verdict verdict,
                      struct bcw_judged *counts)
{
    if (!bcw__judge_asks(jd) || verdict == BCW_VERDICT_PENDING)
        return 0;
    int err = bcw_oracle_settle(jd->oracle, (size_t)jd->last, verdict);
    if (err < 0)
        return err;
    jd->dirty = true;
    switch (jd->judged) {
    case BCW_JUDGED_NEW:
        counts->fresh--;
        break;
    case BCW_JUDGED_CHANGED:
        counts->changed--;
        break;
    default:
        counts->unjudged--;
        break;
    }
    if (verdict == BCW_VERDICT_PASS) {
        counts->passed++;
        counts->accepted++;
    } else {
        counts->failed++;
        counts->rejected++;
    }
    jd->judged =
        verdict == BCW_VERDICT_PASS ? BCW_JUDGED_PASS : BCW_JUDGED_FAIL;
    return 0;
}

/* Why entry e was not reached, into buf: the longest prefix of it that
 * the oracle has and this walk reached, after which its next call was
 * not made, or none. */
static void why_missing(const bcw_judge *jd, const bcw_oracle_entry *e,
                        char *buf, size_t n)
{
    for (unsigned k = e->ncalls - 1; k > 0; k--) {
        long p = bcw_oracle_find_sequence(jd->oracle, e->calls, k);
        if (p < 0 || !was_reached(jd, (size_t)p))
            continue;
        const bcw_observation *o = &bcw_oracle_entry_at(jd->oracle, p)->obs;
        const char *now = jd->now[p];
        const char *whose =
            jd->reference ? "the reference build" : "the oracle";
        if (strcmp(now, o->outcome) != 0)
            snprintf(buf, n,
                     "its prefix of %u calls ended %s in this walk (%s has "
                     "it %s), so %s was not made",
                     k, now, whose, o->outcome, e->calls[k]);
        else
            snprintf(buf, n,
                     "its prefix of %u calls was reached as %s has it, then "
                     "%s was not made",
                     k, whose, e->calls[k]);
        return;
    }
    snprintf(buf, n, "not even its first call %s was reached", e->calls[0]);
}

/* An entry this walk did not reach: missing (counted, the first listed;
 * true) when a walk of this kind no deeper made it, else beyond this
 * walk. */
static bool unreached(const bcw_judge *jd, const bcw_oracle_entry *e,
                      struct bcw_judged *counts)
{
    counts->unreached++;
    if (jd->walk == NULL || e->walk == NULL || strcmp(e->walk, jd->walk) ||
        e->depth > jd->depth) {
        counts->beyond++;
        return false;
    }
    counts->missing++;
    if (counts->nlisted == sizeof counts->listed / sizeof *counts->listed)
        return true;
    struct bcw_missing *m = &counts->listed[counts->nlisted++];
    size_t len = 0;
    m->sequence[0] = '\0';
    for (unsigned k = 0; k < e->ncalls && len < sizeof m->sequence; k++)
        len += (size_t)snprintf(m->sequence + len, sizeof m->sequence - len,
                                "%s%s", k ? "; " : "", e->calls[k]);
    why_missing(jd, e, m->why, sizeof m->why);
    return true;
}

/* --accept takes what the walk no longer reaches as gone: the oracle
 * becomes itself without the entries `gone` flags.  0 or an error (the
 * oracle unchanged). */
static int drop_entries(bcw_judge *jd, const bool *gone)
{
    const bcw_oracle *old = jd->oracle;
    bcw_oracle *o;
    size_t len;
    const void *model = bcw_oracle_model(old, &len);
    int err = bcw_oracle_new(&o, bcw_oracle_unit(old));
    if (err == 0 && model != NULL)
        err = bcw_oracle_set_model(o, model, len);
    if (err == 0)
        err = bcw_oracle_set_states(o, bcw_oracle_get_states(old));
    for (size_t i = 0; i < bcw_oracle_count(old) && err == 0; i++) {
        long k = gone[i] ? 0 : bcw_oracle_add(o, bcw_oracle_entry_at(old, i));
        err = k < 0 ? (int)k : 0;
    }
    if (err < 0) {
        bcw_oracle_free(o);
        return err;
    }
    bcw_oracle_free(jd->oracle);
    jd->oracle = o;
    jd->dirty = true;
    return 0;
}

int bcw__judge_close(bcw_judge *jd, struct bcw_judged *counts, bool save)
{
    if (jd == NULL)
        return 0;
    int err = 0;
    if (counts != NULL) {
        size_t n = bcw_oracle_count(jd->oracle);
        bool drop = jd->accept && !jd->reference;
        bool *gone = drop ? bcw__calloc(n + 1, sizeof *gone) : NULL;
        if (drop && gone == NULL)
            err = BCW_ENOMEM;
        for (size_t i = 0; i < n && err == 0; i++)
            if (!was_reached(jd, i) &&
                unreached(jd, bcw_oracle_entry_at(jd->oracle, i), counts) &&
                drop) {
                gone[i] = true;
                counts->dropped++;
            }
        if (err == 0 && counts->dropped > 0)
            err = drop_entries(jd, gone);
        free(gone);
    }
    if (err == 0 && save && jd->dirty && jd->path != NULL)
        err = bcw_oracle_save(jd->oracle, jd->path);
    bcw__report_observed_free(&jd->seen);
    bcw_oracle_free(jd->oracle);
    bcw__index_free(&jd->map);
    bcw__index_free(&jd->by_step);
    path_gen_free(&jd->paths[0]);
    path_gen_free(&jd->paths[1]);
    bcw__stateset_clear(&jd->seen_after);
    free(jd->from);
    free(jd->to);
    free(jd->now);
    free(jd->asked);
    free(jd->path);
    free(jd);
    return err;
}
