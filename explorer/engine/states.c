/* states.c - design states, their covers, the state walk and its graph.
 *
 * Probing is a protocol walk over the constructors and mutators only:
 * breadth-first, so the first sequence to reach a combination of
 * predicate values is a shortest one, its cover.  Predicates that agree
 * (or are each other's negation) on every probed state are one: the
 * interface's names it, a bitcode predicate adds only what the
 * interface lacks.  The state walk then runs the protocol walk TP_k
 * after each cover; its sequences of one method are the transitions of
 * the state graph. */
#define _POSIX_C_SOURCE 200809L
#include "states.h"

#include "alloc.h"
#include "file.h"
#include "stateset.h"
#include "text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_VECTORS 4096
#define PROBE_BUDGET 200000 /* sequences probing may run */

/* A distinct combination of the candidates' values met while probing,
 * with the first (shortest) sequence that met it. */
typedef struct vector {
    uint32_t preds, known;
    uint16_t *seq; /* constructor, then methods */
    unsigned len;
    const char *origin; /* the test it came from, or NULL */
} vector;

typedef struct prober {
    vector *v;
    unsigned n;
    size_t cap;
    bool full;      /* more than MAX_VECTORS: later ones are not kept */
    bcw_tseq *test; /* the test sequence being probed, or NULL */
} prober;

int bcw__states_plan(bcw_states *st, bcw_plan *plan, const bcw_unit *u,
                     const bcw_step *steps, unsigned nsteps, const char *names)
{
    memset(st, 0, sizeof *st);
    st->explicit_choice = names != NULL;
    if (names != NULL && names[0] == '\0')
        return bcw__error(BCW_EINPUT,
                          "design-state predicates: no predicate named");
    if (names != NULL) {
        for (const char *n = names; *n;) {
            size_t item = strcspn(n, ","), len = strcspn(n, ",:");
            unsigned i = 0;
            while (i < u->npreds && (strlen(u->preds[i].name) != len ||
                                     strncmp(u->preds[i].name, n, len) != 0))
                i++;
            if (i == u->npreds || len == 0) {
                bcw_buf b;
                bcw__buf_init(&b, 4096);
                for (unsigned k = 0; k < u->npreds; k++)
                    bcw__buf_printf(&b, "%s\"%s\"", k ? ", " : "",
                                    u->preds[k].name);
                int err = bcw__error(
                    BCW_EINPUT,
                    "design-state predicates: unit %s has no predicate "
                    "\"%.*s\"; "
                    "its predicates are %s",
                    u->name, (int)len, n,
                    b.err   ? "(out of memory)"
                    : b.len ? b.data
                            : "none");
                bcw__buf_free(&b);
                return err;
            }
            if (st->ncand == BCW_MAX_PREDS)
                return bcw__error(BCW_EINPUT,
                                  "design-state predicates: more than %d named",
                                  BCW_MAX_PREDS);
            /* name:label renames it in the states' names */
            if (len + 1 == item)
                return bcw__error(BCW_EINPUT,
                                  "design-state predicates: an empty name "
                                  "after \"%.*s:\"",
                                  (int)len, n);
            if (len < item && (st->label[st->ncand] = bcw__strndup(
                                   n + len + 1, item - len - 1)) == NULL)
                return BCW_ENOMEM;
            st->cand[st->ncand++] = i;
            n += item + (n[item] == ',');
        }
    } else {
        /* the interface's first, then the bitcode's */
        for (int pass = 0; pass < 2; pass++)
            for (unsigned i = 0; i < u->npreds && st->ncand < BCW_MAX_PREDS;
                 i++)
                if (u->preds[i].interface == (pass == 0))
                    st->cand[st->ncand++] = i;
    }
    for (unsigned i = 0; i < st->ncand; i++) {
        const bcw_pred *p = &u->preds[st->cand[i]];
        bcw_wire_pred *w = &plan->preds[i];
        memset(w, 0, sizeof *w);
        w->interface = p->interface;
        w->op = (uint8_t)p->op;
        if (p->interface) {
            unsigned k = 0;
            while (k < nsteps && steps[k].func != (unsigned)p->func)
                k++;
            if (k == nsteps)
                return bcw__error(BCW_EINPUT,
                                  "predicate %s: its observer %s is not walked",
                                  p->name, u->funcs[p->func].name);
            w->func = (uint16_t)k;
        }
        const bcw_term *t[2] = {&p->l, &p->r};
        bcw_wire_term *wt[2] = {&w->l, &w->r};
        for (int j = 0; j < 2; j++)
            *wt[j] = (bcw_wire_term){.kind = (uint8_t)t[j]->kind,
                                     .bits = (uint8_t)t[j]->bits,
                                     .via = t[j]->via,
                                     .offset = t[j]->offset,
                                     .value = t[j]->value};
    }
    plan->npreds = st->ncand;
    plan->state_flags |= BCW_STATE_PREDS;
    return 0;
}

static int probe_emit(void *payload, const bcw_seq *s)
{
    prober *pr = payload;
    bcw_tseq *t = pr->test;
    if (t != NULL) {
        t->preds[t->nobs] = s->preds;
        t->known[t->nobs] = s->known;
        t->outcome[t->nobs++] = s->outcome;
    }
    if (s->outcome != BCW_RUN_NORMAL)
        return 0;
    for (unsigned i = 0; i < pr->n; i++)
        if (pr->v[i].preds == s->preds && pr->v[i].known == s->known)
            return 0;
    if (pr->n == MAX_VECTORS) {
        pr->full = true;
        return 0;
    }
    if (bcw__grow(&pr->v, &pr->cap, pr->n + 1, sizeof *pr->v) < 0)
        return BCW_ENOMEM;
    vector *v = &pr->v[pr->n];
    v->seq = bcw__calloc(s->len + 1, sizeof *v->seq);
    if (v->seq == NULL)
        return BCW_ENOMEM;
    memcpy(v->seq, s->steps, (s->len + 1) * sizeof *v->seq);
    v->len = s->len;
    v->preds = s->preds;
    v->known = s->known;
    v->origin = t != NULL ? t->test : NULL;
    pr->n++;
    return 0;
}

static bool bit(uint32_t v, unsigned i)
{
    return (v >> i) & 1u;
}

/* How candidates a and b relate on the probed vectors where both are
 * known: 1 always equal, -1 always opposite, 0 otherwise or never both
 * known. */
static int relation(const prober *pr, unsigned a, unsigned b)
{
    bool same = true, opposite = true, any = false;
    for (unsigned i = 0; i < pr->n; i++) {
        const vector *v = &pr->v[i];
        if (!bit(v->known, a) || !bit(v->known, b))
            continue;
        any = true;
        same = same && bit(v->preds, a) == bit(v->preds, b);
        opposite = opposite && bit(v->preds, a) != bit(v->preds, b);
    }
    return !any ? 0 : same ? 1 : opposite ? -1 : 0;
}

static bool same_term(const bcw_term *a, const bcw_term *b)
{
    return a->kind == b->kind && a->via == b->via && a->offset == b->offset &&
           a->bits == b->bits && a->value == b->value;
}

/* How predicates a and b relate by their forms: 1 the same comparison,
 * -1 its negation (an interface predicate whose observer returns it, or
 * its negation), 0 not known from the bitcode. */
static int formal_relation(const bcw_pred *a, const bcw_pred *b)
{
    bool fa = !a->interface || a->formal, fb = !b->interface || b->formal;
    if (!fa || !fb || a->op != b->op || !same_term(&a->l, &b->l) ||
        !same_term(&a->r, &b->r))
        return 0;
    bool na = a->interface && a->negated, nb = b->interface && b->negated;
    return na == nb ? 1 : -1;
}

/* 1 never false, -1 never true, 0 both seen (or never known). */
static int constant(const prober *pr, unsigned a)
{
    bool t = false, f = false;
    for (unsigned i = 0; i < pr->n; i++)
        if (bit(pr->v[i].known, a)) {
            t = t || bit(pr->v[i].preds, a);
            f = f || !bit(pr->v[i].preds, a);
        }
    return t && !f ? 1 : f && !t ? -1 : 0;
}

/* "empty", "on_loan & reserved", "default": the chosen predicates that
 * hold, without their "is_". */
static char *state_name(const bcw_states *st, const bcw_unit *u, uint32_t value)
{
    bcw_buf b;
    bcw__buf_init(&b, 4096);
    int err = 0;
    for (unsigned i = 0; i < st->nchosen && err == 0; i++) {
        if (!bit(value, i))
            continue;
        const char *n = u->preds[st->cand[st->chosen[i]]].name;
        if (st->label[st->chosen[i]] != NULL)
            n = st->label[st->chosen[i]];
        else if (strncmp(n, "is_", 3) == 0 && n[3] != '\0')
            n += 3;
        err = bcw__buf_printf(&b, "%s%s", b.len ? " & " : "", n);
    }
    if (err == 0 && b.len == 0)
        err = bcw__buf_printf(&b, "default");
    if (err < 0)
        bcw__buf_free(&b);
    return b.data;
}

/* The chosen predicates' values in a vector of the candidates'; false if
 * one of them is not known. */
static bool project(const bcw_states *st, uint32_t preds, uint32_t known,
                    uint32_t *out)
{
    *out = 0;
    for (unsigned i = 0; i < st->nchosen; i++) {
        if (!bit(known, st->chosen[i]))
            return false;
        *out |= (uint32_t)bit(preds, st->chosen[i]) << i;
    }
    return true;
}

static int find_state(const bcw_states *st, uint32_t value)
{
    for (unsigned i = 0; i < st->nstates; i++)
        if (st->states[i].value == value)
            return (int)i;
    return -1;
}

/* Adds a state of `value`, with the cover `seq` (NULL: none, reached
 * only in the walk); its index. */
static int add_state(bcw_states *st, const bcw_unit *u, uint32_t value,
                     const uint16_t *seq, unsigned len, const char *origin)
{
    if (bcw__grow(&st->states, &st->capstates, st->nstates + 1,
                  sizeof *st->states) < 0)
        return BCW_ENOMEM;
    bcw_dstate *d = &st->states[st->nstates];
    memset(d, 0, sizeof *d);
    d->value = value;
    d->name = state_name(st, u, value);
    if (d->name == NULL)
        return BCW_ENOMEM;
    if (seq != NULL) {
        if ((d->seq = bcw__calloc(len + 1, sizeof *d->seq)) == NULL) {
            free(d->name);
            return BCW_ENOMEM;
        }
        memcpy(d->seq, seq, (len + 1) * sizeof *d->seq);
        d->ncover = len;
        d->walked = true;
    }
    if (origin != NULL && (d->origin = bcw__strdup(origin)) == NULL) {
        free(d->name);
        free(d->seq);
        return BCW_ENOMEM;
    }
    return (int)st->nstates++;
}

/* Chooses the predicates that make the states and says why of the
 * others: constant ones, and those agreeing with one already chosen. */
static int choose(bcw_states *st, const prober *pr, const bcw_unit *u)
{
    int err = 0;
    for (unsigned a = 0; a < st->ncand && err == 0; a++) {
        const bcw_pred *pa = &u->preds[st->cand[a]];
        int c = constant(pr, a);
        if (c != 0)
            err = bcw__strlist_add(
                &st->notes, bcw__sprintf("predicate %s is never %s in the "
                                         "probed states",
                                         pa->name, c > 0 ? "false" : "true"));
        if (err < 0 || st->explicit_choice) {
            if (err == 0)
                st->chosen[st->nchosen++] = a;
            continue;
        }
        if (c != 0)
            continue; /* a constant names no state */
        int same = -1, rel = 0;
        /* the bitcode's word first: an observer returning the comparison */
        for (unsigned k = 0; k < st->nchosen && same < 0; k++)
            if ((rel = formal_relation(&u->preds[st->cand[st->chosen[k]]],
                                       pa)) != 0)
                same = (int)st->chosen[k];
        if (same >= 0) {
            const bcw_pred *q = &u->preds[st->cand[same]];
            const bcw_pred *obs = q->interface ? q : pa;
            err = bcw__strlist_add(
                &st->notes,
                bcw__sprintf("predicate %s merged into %s: %s returns %s",
                             pa->name, q->name, u->funcs[obs->func].name,
                             rel > 0 ? "that comparison"
                                     : "that comparison's negation"));
            continue;
        }
        for (unsigned k = 0; k < st->nchosen && same < 0; k++)
            if ((rel = relation(pr, st->chosen[k], a)) != 0)
                same = (int)st->chosen[k];
        if (same >= 0) {
            err = bcw__strlist_add(
                &st->notes,
                bcw__sprintf("predicate %s merged into %s: %s on every "
                             "probed state",
                             pa->name, u->preds[st->cand[same]].name,
                             rel > 0 ? "the same" : "its negation"));
            continue;
        }
        st->chosen[st->nchosen++] = a;
    }
    return err;
}

/* Runs each prefix of each test sequence (a walk of depth 0 from the
 * constructor with the prefix), keeping what it saw in the sequence and
 * the vectors it met in pr, after probing's. */
static int probe_tests(prober *pr, const bcw_walk_cfg *probe, bcw_tseqs *tests)
{
    int err = 0;
    for (unsigned i = 0; tests != NULL && i < tests->n && err == 0; i++) {
        bcw_tseq *t = &tests->v[i];
        t->nobs = 0;
        free(t->preds);
        free(t->known);
        free(t->outcome);
        t->preds = bcw__calloc(t->len + 1, sizeof *t->preds);
        t->known = bcw__calloc(t->len + 1, sizeof *t->known);
        t->outcome = bcw__calloc(t->len + 1, sizeof *t->outcome);
        if (t->preds == NULL || t->known == NULL || t->outcome == NULL)
            return BCW_ENOMEM;
        pr->test = t;
        for (unsigned len = 0; len <= t->len && err == 0; len++) {
            bcw_walk_cfg cfg = *probe;
            cfg.depth = 0;
            cfg.nctors = 1;
            cfg.ctors = &t->steps[0];
            cfg.nprefix = len;
            cfg.prefix = &t->steps[1];
            cfg.prune_state = false;
            cfg.budget = 0;
            bcw_summary sum;
            unsigned before = t->nobs;
            err = bcw__walk_run(&sum, &cfg);
            if (err == 0 && (t->nobs == before ||
                             t->outcome[t->nobs - 1] != BCW_RUN_NORMAL))
                break; /* halted: nothing after it runs */
        }
        pr->test = NULL;
    }
    return err;
}

int bcw__states_of(const bcw_states *st, uint32_t preds, uint32_t known)
{
    uint32_t value;
    return project(st, preds, known, &value) ? find_state(st, value) : -1;
}

bool bcw__states_cover_reached(const bcw_states *st, unsigned i,
                               const bcw_seq *s, const char **got)
{
    *got = NULL;
    /* the cover's calls returned (a teardown that halts after them is
     * the state's own observation, not a lost state) */
    int k = bcw_seq_returned(s) ? bcw__states_of(st, s->preds, s->known) : -1;
    if (k >= 0)
        *got = st->states[k].name;
    return k >= 0 && (unsigned)k == i;
}

int bcw__states_probe(bcw_states *st, const bcw_walk_cfg *base,
                      const uint16_t *mutators, unsigned nmut, unsigned depth,
                      bool prune, const bcw_unit *u, bcw_tseqs *tests)
{
    prober pr = {0};
    bcw_walk_cfg cfg = *base;
    cfg.kind = BCW_WALK_PROTOCOL;
    cfg.depth = depth;
    cfg.nprefix = 0;
    cfg.methods = mutators;
    cfg.nmethods = nmut;
    cfg.emit = probe_emit;
    cfg.emit_payload = &pr;
    cfg.progress = NULL;
    cfg.shard_n = 0; /* every shard finds the same states */
    /* a sequence reaching a concrete state met before has nothing new
     * ahead: probing goes deep without the walk's whole tree */
    cfg.prune_state = prune;
    cfg.seen = NULL;
    cfg.pin = NULL; /* probing is not judged */
    unsigned stopped = 0;
    cfg.budget = PROBE_BUDGET;
    cfg.stopped = &stopped;
    bcw_summary sum;
    int err = bcw__walk_run(&sum, &cfg);
    st->probed = sum.normal + sum.terminated + sum.unmet;
    if (err == 0 && stopped > 0)
        err = bcw__strlist_add(
            &st->notes, bcw__sprintf("probing stopped before length %u of "
                                     "%u: longer sequences would pass %d "
                                     "runs; states reached only by longer "
                                     "covers are missed",
                                     stopped, depth, PROBE_BUDGET));
    if (err == 0)
        err = probe_tests(&pr, &cfg, tests);
    if (err == 0)
        err = choose(st, &pr, u);
    /* states in the order probing met them: shortest covers first, then
     * those only the tests' calls reach */
    for (unsigned i = 0; i < pr.n && err == 0; i++) {
        uint32_t value;
        if (!project(st, pr.v[i].preds, pr.v[i].known, &value) ||
            find_state(st, value) >= 0)
            continue;
        int k =
            add_state(st, u, value, pr.v[i].seq, pr.v[i].len, pr.v[i].origin);
        err = k < 0 ? k : 0;
    }
    if (err == 0 && pr.full)
        err = bcw__strlist_add(
            &st->notes, bcw__sprintf("probing met more than %d combinations "
                                     "of predicate values; later ones were "
                                     "not kept",
                                     MAX_VECTORS));
    if (err == 0 && st->nstates == 0)
        err = bcw__strlist_add(
            &st->notes, bcw__sprintf("probing found no design state of unit "
                                     "%s (no constructor sequence ended "
                                     "normally with its predicates known): "
                                     "the protocol walk from the "
                                     "constructors was run instead",
                                     u->name));
    for (unsigned i = 0; i < pr.n; i++)
        free(pr.v[i].seq);
    free(pr.v);
    return err;
}

typedef struct walk_sink {
    bcw_states *st;
    const bcw_unit *u;
    unsigned state;
    const bcw_walk_cfg *base;
    bcw_stateset seen; /* concrete states of all the states' walks */
} walk_sink;

static int add_transition(bcw_states *st, unsigned from, uint16_t step,
                          uint8_t outcome, int to)
{
    for (unsigned i = 0; i < st->ntrans; i++) {
        const bcw_transition *t = &st->trans[i];
        if (t->from == from && t->step == step && t->outcome == outcome &&
            t->to == to)
            return 0;
    }
    if (bcw__grow(&st->trans, &st->captrans, st->ntrans + 1,
                  sizeof *st->trans) < 0)
        return BCW_ENOMEM;
    st->trans[st->ntrans++] = (bcw_transition){from, to, step, outcome};
    return 0;
}

static int walk_emit(void *payload, const bcw_seq *s)
{
    walk_sink *ws = payload;
    bcw_states *st = ws->st;
    bool added;
    if (s->state != 0 && bcw__stateset_add(&ws->seen, s->state, &added) < 0)
        return BCW_ENOMEM;
    bool unmade = s->outcome == BCW_RUN_REJECTED && s->signo == BCW_SIG_UNMET;
    if (s->len == s->nprefix + 1 && !unmade) {
        /* one method after the cover: a transition of the graph (a call
         * not made, its argument's category empty on the object, none) */
        int to = -1;
        uint32_t value;
        if (s->outcome == BCW_RUN_NORMAL &&
            project(st, s->preds, s->known, &value) &&
            (to = find_state(st, value)) < 0) {
            /* beyond the probe depth: a state with no cover */
            to = add_state(st, ws->u, value, NULL, 0, NULL);
            if (to < 0)
                return to;
        }
        int err =
            add_transition(st, ws->state, s->steps[s->len], s->outcome, to);
        if (err < 0)
            return err;
    }
    return ws->base->emit ? ws->base->emit(ws->base->emit_payload, s) : 0;
}

static void add_sum(bcw_summary *a, const bcw_summary *b)
{
    a->normal += b->normal;
    a->terminated += b->terminated;
    a->suspect += b->suspect;
    a->aliasing += b->aliasing;
    a->unmet += b->unmet;
    a->leaking += b->leaking;
    a->discarded += b->discarded;
    a->pruned_observer += b->pruned_observer;
    a->predicted_void += b->predicted_void;
    a->pruned_state += b->pruned_state;
    a->prune_state = a->prune_state || b->prune_state;
    a->calls += b->calls;
}

int bcw__states_walk(bcw_states *st, const bcw_walk_cfg *base,
                     const bcw_unit *u, bcw_state_begin_cb begin, void *payload,
                     bcw_summary *out)
{
    memset(out, 0, sizeof *out);
    walk_sink ws = {.st = st, .u = u, .base = base};
    int err = 0;
    /* states found during the walk (no cover) are not walked */
    unsigned nwalk = st->nstates;
    for (unsigned i = 0; i < nwalk && err == 0; i++) {
        bcw_dstate *d = &st->states[i];
        bcw_walk_cfg cfg = *base;
        cfg.kind = BCW_WALK_PROTOCOL;
        cfg.nctors = 1;
        cfg.ctors = &d->seq[0];
        cfg.nprefix = d->ncover;
        cfg.prefix = &d->seq[1];
        cfg.emit = walk_emit;
        cfg.emit_payload = &ws;
        ws.state = i;
        begin(payload, d->name, (int)i);
        err = bcw__walk_run(&d->sum, &cfg);
        d = &st->states[i]; /* the walk may have added states */
        add_sum(out, &d->sum);
    }
    begin(payload, NULL, -1);
    /* distinct across the states' walks, not their sum: walks from two
     * covers reach many of the same states */
    out->concrete_states = ws.seen.len;
    bcw__stateset_clear(&ws.seen);
    /* JWalk's warnings: a state never left, predicates that overlap */
    for (unsigned i = 0; i < st->nstates && err == 0; i++) {
        /* left: a transition to another state, or to one whose
         * predicates were not known (it may be another): only a state
         * every call keeps, or halts in, is never left */
        bool left = false, entered = false;
        for (unsigned k = 0; k < st->ntrans; k++) {
            const bcw_transition *t = &st->trans[k];
            left = left ||
                   (t->from == i && t->to >= 0 && (unsigned)t->to != i) ||
                   (t->from == i && t->to < 0 && t->outcome == BCW_RUN_NORMAL);
            entered = entered || t->from == i;
        }
        if (entered && !left)
            err = bcw__strlist_add(
                &st->notes,
                bcw__sprintf("state %s is never left", st->states[i].name));
        if (!st->states[i].walked && err == 0)
            err = bcw__strlist_add(
                &st->notes, bcw__sprintf("state %s was reached only in the "
                                         "walk, beyond the probe depth: it "
                                         "has no cover and was not walked",
                                         st->states[i].name));
        /* interface predicates holding together */
        bcw_buf b;
        bcw__buf_init(&b, 4096);
        unsigned holds = 0;
        for (unsigned k = 0; k < st->nchosen; k++)
            if (bit(st->states[i].value, k) &&
                u->preds[st->cand[st->chosen[k]]].interface)
                bcw__buf_printf(&b, "%s%s", holds++ ? " and " : "",
                                u->preds[st->cand[st->chosen[k]]].name);
        if (err == 0 && b.err != 0)
            err = b.err;
        else if (holds > 1 && err == 0)
            err = bcw__strlist_add(
                &st->notes, bcw__sprintf("predicates %s overlap: they hold "
                                         "together in state %s",
                                         b.data, st->states[i].name));
        bcw__buf_free(&b);
    }
    return err;
}

/* A DOT identifier or label: double-quoted, escaped, valid UTF-8 as
 * Graphviz wants it: a byte that is not part of valid UTF-8 (a state
 * named in Latin-1 on the command line) is shown as the text \xNN, as
 * the C literals in the labels show bytes. */
static void dot_str(bcw_buf *b, const char *s)
{
    size_t n = strlen(s);
    bcw__buf_put(b, "\"", 1);
    while (n > 0) {
        size_t k = bcw__utf8_seq(s, n);
        if (k == 0) {
            bcw__buf_printf(b, "\\\\x%02x", (unsigned char)*s);
            k = 1;
        } else if (*s == '"' || *s == '\\') {
            bcw__buf_printf(b, "\\%c", *s);
        } else if (*s == '\n') {
            bcw__buf_put(b, "\\n", 2); /* a line break in a label */
        } else {
            bcw__buf_put(b, s, k);
        }
        s += k;
        n -= k;
    }
    bcw__buf_put(b, "\"", 1);
}

/* The node a transition ends in: "s<state>", a halt's node (its
 * outcome's name), or "unknown" (it ended normally in a state whose
 * predicates could not be told). */
static const char *target(const bcw_transition *t, char *buf, size_t n)
{
    if (t->to >= 0)
        snprintf(buf, n, "s%d", t->to);
    else
        snprintf(buf, n, "%s",
                 t->outcome == BCW_RUN_NORMAL ? "unknown"
                                              : bcw__outcome_name(t->outcome));
    return buf;
}

/* A halt's node: its fill colour. */
static const char *halt_colour(const char *node)
{
    return strcmp(node, "crash") == 0 || strcmp(node, "failure") == 0
               ? "#f4c7c3"
           : strcmp(node, "abort") == 0 || strcmp(node, "hang") == 0
               ? "#fce8b2"
               : "#e8eaed";
}

/* Most method names an edge's label lists before "+N". */
#define EDGE_NAMES 4

/* The label of the edge from state `from` to `node`, whose first
 * transition is st->trans[i]: its methods and how many of the state's
 * calls took it, into l. */
static void edge_label(const bcw_states *st, const bcw_unit *u,
                       const bcw_step *steps, unsigned from, unsigned i,
                       const char *node, bcw_buf *l)
{
    unsigned calls = 0, taken = 0, names = 0, more = 0;
    char other[32];
    for (unsigned k = 0; k < st->ntrans; k++)
        calls += st->trans[k].from == from;
    for (unsigned k = i; k < st->ntrans; k++) {
        const bcw_transition *e = &st->trans[k];
        if (e->from != from ||
            strcmp(target(e, other, sizeof other), node) != 0)
            continue;
        taken++;
        const char *name = u->funcs[steps[e->step].func].name;
        bool seen = false;
        for (unsigned j = i; j < k && !seen; j++)
            seen =
                st->trans[j].from == from &&
                strcmp(target(&st->trans[j], other, sizeof other), node) == 0 &&
                strcmp(u->funcs[steps[st->trans[j].step].func].name, name) == 0;
        if (seen)
            continue;
        if (names++ < EDGE_NAMES)
            bcw__buf_printf(l, "%s%s", names > 1 ? ", " : "", name);
        else
            more++;
    }
    if (more > 0)
        bcw__buf_printf(l, " +%u", more);
    bcw__buf_printf(l, "\n%u of %u", taken, calls);
}

/* The first transition from state `from` to `node`: its index, or
 * st->ntrans when there is none. */
static unsigned first_edge(const bcw_states *st, unsigned from,
                           const char *node)
{
    char other[32];
    unsigned i = 0;
    while (i < st->ntrans &&
           !(st->trans[i].from == from &&
             strcmp(target(&st->trans[i], other, sizeof other), node) == 0))
        i++;
    return i;
}

/* The edges out of state `from`, parallel ones collapsed: one edge per
 * node reached, labelled with its methods and how many of the calls
 * from the state took it.  A loop back to the state has its label in
 * the state's node (state_node): Graphviz sets loops' labels over the
 * other edges'. */
static void state_edges(const bcw_states *st, const bcw_unit *u,
                        const bcw_step *steps, unsigned from, bcw_buf *b)
{
    for (unsigned i = 0; i < st->ntrans; i++) {
        const bcw_transition *t = &st->trans[i];
        char node[32];
        if (t->from != from)
            continue;
        target(t, node, sizeof node);
        if (first_edge(st, from, node) != i)
            continue; /* its edge is written */
        if (t->to == (int)from) {
            bcw__buf_printf(b, "  s%u -> s%u;\n", from, from);
            continue;
        }
        bcw_buf l;
        bcw__buf_init(&l, 4096);
        edge_label(st, u, steps, from, i, node, &l);
        bcw__buf_printf(b, "  s%u -> %s [label=", from, node);
        dot_str(b, l.data != NULL ? l.data : "");
        if (l.data == NULL)
            b->err = l.err ? l.err : BCW_ENOMEM;
        bcw__buf_printf(b, "%s];\n", t->to >= 0 ? "" : ", color=\"#b3261e\"");
        bcw__buf_free(&l);
    }
}

/* State i's node: its name, and under it the loop back to it, its
 * methods and share of the state's calls after a loop sign. */
static void state_node(const bcw_states *st, const bcw_unit *u,
                       const bcw_step *steps, unsigned i, bcw_buf *b)
{
    char node[32];
    snprintf(node, sizeof node, "s%u", i);
    bcw_buf l;
    bcw__buf_init(&l, 4096);
    bcw__buf_printf(&l, "%s", st->states[i].name);
    unsigned loop = first_edge(st, i, node);
    if (loop < st->ntrans) {
        bcw__buf_printf(&l, "\n\xe2\x86\xba "); /* a loop sign */
        edge_label(st, u, steps, i, loop, node, &l);
    }
    bcw__buf_printf(b, "  s%u [label=", i);
    dot_str(b, l.data != NULL ? l.data : "");
    if (l.data == NULL)
        b->err = l.err ? l.err : BCW_ENOMEM;
    bcw__buf_printf(b, "%s];\n", st->states[i].walked ? "" : ", style=dashed");
    bcw__buf_free(&l);
}

int bcw__states_dot_buf(const bcw_states *st, const bcw_unit *u,
                        const bcw_step *steps, bcw_buf *b)
{
    bcw__buf_printf(b, "digraph ");
    dot_str(b, u->name);
    bcw__buf_printf(b, " {\n  rankdir=LR;\n  node [shape=ellipse, "
                       "fontname=\"Helvetica\"];\n  edge [fontname="
                       "\"Helvetica\", fontsize=10];\n");
    for (unsigned i = 0; i < st->nstates; i++)
        state_node(st, u, steps, i, b);
    /* each halt's node once, in the order first reached */
    for (unsigned i = 0; i < st->ntrans; i++) {
        char node[32], other[32];
        if (st->trans[i].to >= 0)
            continue;
        target(&st->trans[i], node, sizeof node);
        bool first = true;
        for (unsigned k = 0; k < i && first; k++)
            first =
                st->trans[k].to >= 0 ||
                strcmp(target(&st->trans[k], other, sizeof other), node) != 0;
        if (first)
            bcw__buf_printf(b,
                            "  %s [shape=box, style=\"rounded,filled\", "
                            "fillcolor=\"%s\"];\n",
                            node, halt_colour(node));
    }
    for (unsigned i = 0; i < st->nstates; i++)
        state_edges(st, u, steps, i, b);
    bcw__buf_printf(b, "}\n");
    return b->err;
}

int bcw__states_dot(const bcw_states *st, const bcw_unit *u,
                    const bcw_step *steps, const char *path)
{
    bcw_buf b;
    bcw__buf_init(&b, 64u << 20);
    int err = bcw__states_dot_buf(st, u, steps, &b);
    if (err == 0)
        err = bcw__write_file_atomic(path, b.data, b.len);
    bcw__buf_free(&b);
    return err;
}

int bcw__states_keep(const bcw_states *st, const bcw_unit *u,
                     const bcw_step *steps, unsigned nsteps,
                     bcw_oracle_states *out)
{
    memset(out, 0, sizeof *out);
    out->plan_steps = nsteps;
    const char **preds = bcw__calloc(st->nchosen + 1, sizeof *preds);
    bcw_oracle_state *v = bcw__calloc(st->nstates + 1, sizeof *v);
    out->preds = preds;
    out->v = v;
    if (preds == NULL || v == NULL) {
        bcw__states_kept_free(out);
        return BCW_ENOMEM;
    }
    /* the strings are the states' and the unit's: borrowed */
    for (unsigned i = 0; i < st->nchosen; i++)
        preds[out->npreds++] = u->preds[st->cand[st->chosen[i]]].name;
    for (unsigned i = 0; i < st->nstates; i++) {
        const bcw_dstate *d = &st->states[i];
        if (!d->walked)
            continue;
        const char **fns = bcw__calloc(d->ncover + 1, sizeof *fns);
        if (fns == NULL) {
            bcw__states_kept_free(out);
            return BCW_ENOMEM;
        }
        for (unsigned k = 0; k <= d->ncover; k++)
            fns[k] = u->funcs[steps[d->seq[k]].func].name;
        v[out->n++] =
            (bcw_oracle_state){d->name, d->value, d->ncover, d->seq, fns};
    }
    return 0;
}

void bcw__states_kept_free(bcw_oracle_states *s)
{
    for (unsigned i = 0; i < s->n; i++)
        free((char **)s->v[i].fns);
    free((char **)s->preds);
    free((bcw_oracle_state *)s->v);
    memset(s, 0, sizeof *s);
}

/* Why the kept states do not fit this plan, or NULL: they do, and
 * chosen[i] is the candidate of their predicate i. */
static char *misfit(const bcw_states *st, const bcw_unit *u,
                    const bcw_step *steps, unsigned nsteps,
                    const bcw_oracle_states *kept, unsigned *chosen)
{
    if (kept->plan_steps != nsteps)
        return bcw__sprintf("the oracle's covers are of a plan of %u steps, "
                            "this walk's has %u (other options)",
                            kept->plan_steps, nsteps);
    for (unsigned i = 0; i < kept->npreds; i++) {
        unsigned k = 0;
        while (k < st->ncand &&
               strcmp(u->preds[st->cand[k]].name, kept->preds[i]) != 0)
            k++;
        if (k == st->ncand)
            return bcw__sprintf("the oracle's states are of predicate %s, "
                                "which this walk does not choose from",
                                kept->preds[i]);
        chosen[i] = k;
    }
    for (unsigned i = 0; i < kept->n; i++)
        for (unsigned k = 0; k <= kept->v[i].ncover; k++) {
            unsigned s = kept->v[i].steps[k];
            if (s >= nsteps ||
                strcmp(u->funcs[steps[s].func].name, kept->v[i].fns[k]) != 0)
                return bcw__sprintf("the cover of the oracle's state %s "
                                    "calls %s, this plan's step %u does not",
                                    kept->v[i].name, kept->v[i].fns[k], s);
        }
    return NULL;
}

int bcw__states_restore(bcw_states *st, const bcw_unit *u,
                        const bcw_step *steps, unsigned nsteps,
                        const bcw_oracle_states *kept)
{
    unsigned chosen[BCW_MAX_PREDS];
    char *why = kept->npreds <= BCW_MAX_PREDS
                    ? misfit(st, u, steps, nsteps, kept, chosen)
                    : bcw__sprintf("the oracle's states are of %u predicates",
                                   kept->npreds);
    if (why != NULL) {
        char *note = bcw__sprintf("%s: the design states were probed again, "
                                  "not reached by the oracle's covers",
                                  why);
        free(why);
        return note != NULL ? bcw__strlist_add(&st->notes, note) : BCW_ENOMEM;
    }
    st->restored = true;
    st->nchosen = kept->npreds;
    memcpy(st->chosen, chosen, kept->npreds * sizeof *chosen);
    for (unsigned i = 0; i < kept->n; i++) {
        const bcw_oracle_state *d = &kept->v[i];
        int k = add_state(st, u, d->value, d->steps, d->ncover, NULL);
        if (k < 0)
            return k;
        /* the oracle's name: its --predicates labels */
        char *name = bcw__strdup(d->name);
        if (name == NULL)
            return BCW_ENOMEM;
        free(st->states[k].name);
        st->states[k].name = name;
    }
    return 1;
}

void bcw__states_rewind(bcw_states *st, unsigned nnotes)
{
    unsigned k = 0;
    while (k < st->nstates && st->states[k].walked)
        memset(&st->states[k++].sum, 0, sizeof st->states[0].sum);
    for (unsigned i = k; i < st->nstates; i++) {
        free(st->states[i].name);
        free(st->states[i].seq);
        free(st->states[i].origin);
    }
    st->nstates = k;
    st->ntrans = 0;
    while (st->notes.n > nnotes)
        free(st->notes.v[--st->notes.n]);
}

void bcw__states_free(bcw_states *st)
{
    for (unsigned i = 0; i < st->nstates; i++) {
        free(st->states[i].name);
        free(st->states[i].seq);
        free(st->states[i].origin);
    }
    free(st->states);
    free(st->trans);
    bcw__strlist_free(&st->notes);
    for (unsigned i = 0; i < BCW_MAX_PREDS; i++)
        free(st->label[i]);
    memset(st, 0, sizeof *st);
}
