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
    bool *reached;  /* by entry: the walk reached it */
    size_t capreached;
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

void bcw__judge_against(bcw_judge *jd)
{
    jd->accept = false;
    jd->reference = true;
    jd->known = bcw_oracle_count(jd->oracle);
    memset(jd->reached, 0, jd->capreached * sizeof *jd->reached);
    bcw__index_free(&jd->map);
    jd->nmap = 0;
}

static void path_gen_free(struct path_gen *g)
{
    bcw__index_free(&g->ix);
    free(g->after);
    memset(g, 0, sizeof *g);
}

/* The hash of sequence s's first n + 1 steps (the constructor, n
 * methods). */
static uint64_t path_hash(const bcw_seq *s, unsigned n)
{
    return bcw__hash(s->steps, (n + 1) * sizeof *s->steps, 0x9a7);
}

static int any_value(uint32_t i, const void *payload)
{
    (void)i;
    (void)payload;
    return 1;
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
    const struct path_gen *g = &jd->paths[0];
    if (s->len == 0 || g->n == 0)
        return 0;
    uint32_t i =
        bcw__index_get(&g->ix, path_hash(s, s->len - 1), any_value, NULL);
    return i == UINT32_MAX ? 0 : g->after[i];
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
        bcw__index_put(&g->ix, path_hash(s, s->len), (uint32_t)g->n) < 0)
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
           o->nout == 0;
}

/* A failed ENSURES or INVARIANT, or a failed assert: wrong whatever a
 * person would say (the JML way). */
static bool broken(const bcw_seq *s)
{
    return s->outcome == BCW_RUN_FAILURE ||
           (s->outcome == BCW_RUN_ABORT && s->cause != NULL &&
            s->cause->kind == BCW_CAUSE_ASSERT);
}

int bcw__judge_seq(bcw_judge *jd, const bcw_reporter *r, const bcw_seq *s,
                   struct bcw_judged *counts, bcw_verdict_of *v)
{
    *v = (bcw_verdict_of){.judgement = BCW_JUDGED_NOT};
    jd->last = -1;
    bcw__report_observed_free(&jd->seen);
    if (s->outcome == BCW_RUN_REJECTED)
        return 0;
    /* the last call in words first: a state's entry needs no more */
    bcw_oracle_entry *e = &jd->seen;
    uint64_t path = path_before(jd, s);
    uint64_t state = path != 0 ? path : translate(jd, s->before);
    int err = state != 0 ? bcw__report_observe(r, s, false, e) : 0;
    if (err < 0)
        return err;
    e->state = state;
    long i = state != 0
                 ? bcw_oracle_find(jd->oracle, state, e->calls, e->ncalls)
                 : -1;
    if (s->predicted && state == 0)
        return 0;
    if (i < 0) {
        /* a whole-sequence key, a new entry, or states the oracle does
         * not know (a build that changed the unit's layout), where the
         * same sequence still meets its observation */
        bcw__report_observed_free(e);
        if ((err = bcw__report_observe(r, s, true, e)) < 0)
            return err;
        e->state = state;
        i = bcw_oracle_find(jd->oracle, state, e->calls, e->ncalls);
        if (i < 0)
            i = bcw_oracle_find_sequence(jd->oracle, e->calls, e->ncalls);
    }
    if (s->predicted) {
        /* not judged (its void result is predicted: the weak rule), but
         * kept: where it left the object is the oracle's state its
         * extensions start from, so that a faulty call that leaves the
         * object as it found it does not pass for the call the oracle
         * knows (a reference's walk that did not make it has none) */
        if (i < 0 && jd->reference)
            return 0;
        if (i < 0) {
            e->verdict = BCW_VERDICT_PASS;
            e->first_seen = (int64_t)time(NULL);
            if ((i = bcw_oracle_add(jd->oracle, e)) < 0)
                return (int)i;
            jd->dirty = true;
        }
        uint64_t after = bcw_oracle_entry_at(jd->oracle, (size_t)i)->after;
        if (set_flag(&jd->reached, &jd->capreached, (size_t)i) < 0 ||
            remember(jd, s->state, after) < 0 ||
            path_after(jd, r, s, after, &v->extend) < 0)
            return BCW_ENOMEM;
        return 0;
    }
    const bcw_oracle_entry *had =
        i >= 0 ? bcw_oracle_entry_at(jd->oracle, (size_t)i) : NULL;
    bool wrong = broken(s);
    /* JWalk's weak rule: a void call that returns normally is right
     * (only a change from it is put to a person) */
    bool rule = !wrong && !jd->reference && void_normal(&e->obs);
    bool accepted = false;
    if (had == NULL) {
        e->verdict = wrong                ? BCW_VERDICT_FAIL
                     : jd->accept || rule ? BCW_VERDICT_PASS
                                          : BCW_VERDICT_PENDING;
        e->first_seen = (int64_t)time(NULL);
        if ((i = bcw_oracle_add(jd->oracle, e)) < 0)
            return (int)i;
        jd->dirty = true;
        v->judgement = wrong        ? BCW_JUDGED_BROKEN
                       : rule       ? BCW_JUDGED_RULE
                       : jd->accept ? BCW_JUDGED_PASS
                                    : BCW_JUDGED_NEW;
        accepted = jd->accept && !wrong && !rule;
        counts->weak += rule;
    } else if (!same_obs(&had->obs, &e->obs) && jd->reference) {
        v->judgement = BCW_JUDGED_DIFFERS;
        v->was = &had->obs;
    } else if (!same_obs(&had->obs, &e->obs) && jd->accept && !wrong &&
               !((size_t)i < jd->capreached && jd->reached[i])) {
        /* accepted in its place, unless this walk met the entry with
         * its old observation already: then the state does not decide
         * what the call does (unit globals), and it stays pending */
        if ((err = bcw_oracle_propose(jd->oracle, (size_t)i, &e->obs)) < 0 ||
            (err = bcw_oracle_settle(jd->oracle, (size_t)i, BCW_VERDICT_PASS)) <
                0)
            return err;
        jd->dirty = true;
        v->judgement = BCW_JUDGED_PASS;
        accepted = true;
    } else if (!same_obs(&had->obs, &e->obs)) {
        v->judgement = wrong ? BCW_JUDGED_BROKEN : BCW_JUDGED_CHANGED;
        v->was = &had->obs;
        /* kept for bcwalk review, once */
        if (!wrong && (had->proposed.outcome == NULL ||
                       !same_obs(&had->proposed, &e->obs))) {
            if ((err = bcw_oracle_propose(jd->oracle, (size_t)i, &e->obs)) < 0)
                return err;
            jd->dirty = true;
        }
    } else if (wrong || had->verdict == BCW_VERDICT_FAIL) {
        v->judgement = wrong ? BCW_JUDGED_BROKEN : BCW_JUDGED_FAIL;
    } else if (had->verdict == BCW_VERDICT_PASS) {
        v->judgement = BCW_JUDGED_PASS;
    } else if (jd->accept) {
        bcw_oracle_judge(jd->oracle, (size_t)i, BCW_VERDICT_PASS);
        jd->dirty = true;
        v->judgement = BCW_JUDGED_PASS;
        accepted = true;
    } else {
        /* an entry this walk added is as new to a person as its first */
        v->judgement =
            (size_t)i >= jd->known ? BCW_JUDGED_NEW : BCW_JUDGED_PENDING;
    }
    /* the call does what the oracle has again: no change to review */
    if (had != NULL && had->proposed.outcome != NULL &&
        same_obs(&had->obs, &e->obs)) {
        if ((err = bcw_oracle_propose(jd->oracle, (size_t)i, NULL)) < 0)
            return err;
        jd->dirty = true;
    }
    jd->last = i;
    jd->judged = v->judgement;
    uint64_t after = bcw_oracle_entry_at(jd->oracle, (size_t)i)->after;
    if (set_flag(&jd->reached, &jd->capreached, (size_t)i) < 0 ||
        remember(jd, s->state, after) < 0 ||
        path_after(jd, r, s, after, &v->extend) < 0)
        return BCW_ENOMEM;
    counts->accepted += accepted;
    /* a person confirms an entry once, however many sequences share it */
    if (accepted || jd->judged == BCW_JUDGED_NEW ||
        jd->judged == BCW_JUDGED_CHANGED || jd->judged == BCW_JUDGED_PENDING) {
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

int bcw__judge_close(bcw_judge *jd, struct bcw_judged *counts, bool save)
{
    if (jd == NULL)
        return 0;
    int err = 0;
    if (counts != NULL) {
        size_t n = bcw_oracle_count(jd->oracle);
        for (size_t i = 0; i < n; i++)
            counts->unreached += i >= jd->capreached || !jd->reached[i];
    }
    if (save && jd->dirty && jd->path != NULL)
        err = bcw_oracle_save(jd->oracle, jd->path);
    bcw__report_observed_free(&jd->seen);
    bcw_oracle_free(jd->oracle);
    bcw__index_free(&jd->map);
    path_gen_free(&jd->paths[0]);
    path_gen_free(&jd->paths[1]);
    bcw__stateset_clear(&jd->seen_after);
    free(jd->from);
    free(jd->to);
    free(jd->reached);
    free(jd->asked);
    free(jd->path);
    free(jd);
    return err;
}
