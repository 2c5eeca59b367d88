/* explore.c - bcw_explore_run: native build, workers, the walk, and its
 * reports, wired together. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "alloc.h"
#include "build.h"
#include "combine.h"
#include "generator.h"
#include "permute.h"
#include "pool.h"
#include "report.h"
#include "results.h"
#include "states.h"
#include "text.h"
#include "walk.h"

#define MAX_DEPTH 255
/* enough for a capacity-10 stack to reach Full */
#define DEFAULT_PROBE_DEPTH 12

typedef struct sinks {
    bcw_reporter report;
    bcw_results *results;
} sinks;

static int emit(void *payload, const bcw_seq *seq)
{
    sinks *s = payload;
    int err = bcw__report_seq(&s->report, seq);
    if (err == 0 && s->results != NULL)
        err = bcw__results_seq(s->results, seq,
                               s->report.state ? s->report.state_index : -1);
    return err;
}

static int exec(void *payload, bcw_job *jobs, size_t njobs)
{
    return bcw__pool_run(payload, jobs, njobs);
}

static void wire_param(bcw_wire_param *w, const bcw_param *p)
{
    w->kind = (uint8_t)p->kind;
    w->abi = (uint8_t)p->abi;
    w->pointee = (uint8_t)p->pointee;
    w->size = p->kind == BCW_PK_BUFFER ? BCW_BUFFER_BYTES : p->pointee_size;
    w->pair = (int8_t)p->pair;
}

/* Parameters whose categories become steps: every kind the solver
 * partitions; the others take the master generator's values. */
static bool partitioned(const bcw_param *p)
{
    return p->nparts > 0;
}

/* "account_withdraw: 3 x 2 = 6 combinations of its categories (amount 3,
 * mode 2); the first 64 are walked" */
static int cap_warning(bcw_reporter *r, const bcw_func *f,
                       const unsigned *counts, uint64_t total, unsigned walked,
                       enum bcw_combine mode)
{
    bcw_buf b;
    bcw__buf_init(&b, 4096);
    int err = bcw__buf_printf(&b, "%s: %llu %s of its categories (", f->name,
                              (unsigned long long)total,
                              mode == BCW_COMBINE_PAIRS ? "all-pairs rows"
                                                        : "combinations");
    bool first = true;
    for (unsigned k = 0; k < f->nparams && err == 0; k++)
        if (counts[k] > 0) {
            err = bcw__buf_printf(&b, "%s%s %u", first ? "" : ", ",
                                  f->params[k].name, counts[k]);
            first = false;
        }
    if (err == 0)
        err = bcw__buf_printf(&b,
                              "), above the cap of %u: only the first %u "
                              "are walked%s",
                              walked, walked,
                              mode == BCW_COMBINE_ALL
                                  ? " (combining by all pairs makes fewer)"
                                  : "");
    if (err == 0)
        err = bcw__buf_put(&b, "", 1);
    if (err == 0 && bcw__grow(&r->warnings, &r->capwarnings, r->nwarnings + 1,
                              sizeof *r->warnings) < 0)
        err = BCW_ENOMEM;
    if (err < 0) {
        bcw__buf_free(&b);
        return err;
    }
    r->warnings[r->nwarnings++] = b.data;
    return 0;
}

/* --boundaries: each value a category has (its representative, minimum
 * and maximum) is a choice of its own; a category with one value, or
 * with no numbers (strings, callbacks, bounds on the object), is one. */
static unsigned choices(const bcw_param *p)
{
    unsigned n = 0;
    for (unsigned i = 0; i < p->nparts; i++)
        n += p->parts[i].nvalues > 1 && p->parts[i].str == NULL &&
                     p->parts[i].rel < 0
                 ? p->parts[i].nvalues
                 : 1;
    return n;
}

/* Choice c of p as its category *part and that category's value *vi. */
static void choice(const bcw_param *p, unsigned c, unsigned *part, unsigned *vi)
{
    for (unsigned i = 0; i < p->nparts; i++) {
        const bcw_part *t = &p->parts[i];
        unsigned n =
            t->nvalues > 1 && t->str == NULL && t->rel < 0 ? t->nvalues : 1;
        if (c < n) {
            *part = i;
            *vi = c;
            return;
        }
        c -= n;
    }
    *part = 0;
    *vi = 0;
}

/* Buffer contents from --permute: categories every buffer parameter
 * shares, labelled by their content. */
typedef struct buffer_perms {
    bcw_part *parts;
    unsigned n;
} buffer_perms;

static void buffer_perms_free(buffer_perms *bp)
{
    for (unsigned i = 0; i < bp->n; i++) {
        free(bp->parts[i].label);
        free(bp->parts[i].str);
    }
    free(bp->parts);
}

static int buffer_perms_make(buffer_perms *bp, const bcw_explore_opts *o,
                             bcw_reporter *r)
{
    memset(bp, 0, sizeof *bp);
    if (o->permute == NULL)
        return 0;
    char **contents = NULL;
    unsigned n = 0;
    uint64_t total = 0;
    unsigned cap = o->max_combos ? o->max_combos : 1;
    int err = bcw__permutations(&contents, &n, &total, o->permute, cap);
    if (err == 0 &&
        (bp->parts = bcw__calloc(n ? n : 1, sizeof *bp->parts)) == NULL)
        err = BCW_ENOMEM;
    for (unsigned i = 0; i < n; i++) {
        if (err == 0) {
            char *label =
                bcw__sprintf("%spermutation %u of %llu",
                             strchr(o->permute, '|') ? "stratified " : "",
                             i + 1, (unsigned long long)total);
            bp->parts[i] =
                (bcw_part){.label = label, .str = contents[i], .rel = -1};
            bp->n++;
            if (label == NULL)
                err = BCW_ENOMEM;
        } else {
            free(contents[i]);
        }
    }
    free(contents);
    if (err == 0 && total > n) {
        /* the seed's bytes as a C literal, as reports show strings */
        char *seed = bcw__c_quote(o->permute, '"');
        char *w = seed ? bcw__sprintf("buffer permutation seed %s: %llu "
                                      "contents, above the cap of %u: only "
                                      "the first %u are used",
                                      seed, (unsigned long long)total, cap, n)
                       : NULL;
        free(seed);
        if (w == NULL || bcw__grow(&r->warnings, &r->capwarnings,
                                   r->nwarnings + 1, sizeof *r->warnings) < 0) {
            free(w);
            return BCW_ENOMEM;
        }
        r->warnings[r->nwarnings++] = w;
    }
    return err;
}

/* The walk's alphabet: each function once per combination of its
 * parameters' categories (opts->combine, at most opts->max_combos), each
 * category by its representative; a function without categories is one
 * step.  A parameter the custom generator `gen` takes has no categories.
 * *out is the caller's; warnings about capped functions go to r. */
static int make_steps(bcw_step **out, unsigned *nout, const bcw_unit *u,
                      const bcw_explore_opts *o, const bcw_usergen *gen,
                      const buffer_perms *bp, bcw_reporter *r)
{
    size_t cap = 0;
    *out = NULL;
    *nout = 0;
    for (unsigned i = 0; i < u->nfuncs; i++) {
        const bcw_func *f = &u->funcs[i];
        unsigned counts[BCW_MAX_PARAMS] = {0};
        bool cat[BCW_MAX_PARAMS];
        for (unsigned k = 0; k < f->nparams; k++) {
            bool permuted = f->params[k].kind == BCW_PK_BUFFER && bp->n > 0;
            cat[k] = (partitioned(&f->params[k]) || permuted) &&
                     !bcw__generator_takes(gen, i, k);
            counts[k] = !cat[k]         ? 0
                        : permuted      ? bp->n
                        : o->boundaries ? choices(&f->params[k])
                                        : f->params[k].nparts;
        }
        /* a permuted buffer's length is its content's */
        for (unsigned k = 0; k < f->nparams; k++)
            if (f->params[k].kind == BCW_PK_BUFFER && cat[k] &&
                f->params[k].pair >= 0)
                cat[f->params[k].pair] = false, counts[f->params[k].pair] = 0;
        bcw_combo *rows = NULL;
        unsigned nrows = 0;
        uint64_t total = 0;
        int err = bcw__combine(&rows, &nrows, &total, counts, f->nparams,
                               o->combine, o->max_combos ? o->max_combos : 1);
        if (err == 0 && total > nrows && f->unwalkable == NULL)
            err = cap_warning(r, f, counts, total, nrows, o->combine);
        for (unsigned c = 0; c < nrows && err == 0; c++) {
            if (bcw__grow(out, &cap, *nout + 1, sizeof **out) < 0) {
                err = BCW_ENOMEM;
                break;
            }
            bcw_step *st = &(*out)[(*nout)++];
            memset(st, 0, sizeof *st);
            st->func = i;
            for (unsigned k = 0; k < f->nparams; k++) {
                const bcw_param *p = &f->params[k];
                st->custom[k] = bcw__generator_takes(gen, i, k);
                if (!cat[k])
                    continue;
                unsigned vi = 0, pi = rows[c].cat[k];
                if (o->boundaries && p->kind != BCW_PK_BUFFER)
                    choice(p, rows[c].cat[k], &pi, &vi);
                const bcw_part *part =
                    p->kind == BCW_PK_BUFFER ? &bp->parts[pi] : &p->parts[pi];
                st->part[k] = part;
                st->fixed[k] =
                    part->nvalues > 0 || part->str != NULL || part->rel >= 0;
                st->value[k] = part->nvalues ? part->values[vi] : 0;
                st->label[k] = part->label;
                st->relative[k] = part->rel >= 0 ? part : NULL;
            }
            for (unsigned k = 0; k < f->nparams; k++) {
                int pair = f->params[k].pair;
                if (f->params[k].kind == BCW_PK_BUFFER && st->part[k] &&
                    pair >= 0 && !st->fixed[pair] && !st->custom[pair]) {
                    st->fixed[pair] = true;
                    st->value[pair] = (int64_t)strlen(st->part[k]->str);
                }
            }
        }
        free(rows);
        if (err < 0)
            return err;
    }
    if (*nout > BCW_MAX_FUNCS)
        return bcw__error(BCW_EINPUT,
                          "unit %s has %u steps (functions times "
                          "categories); at most %d can be walked",
                          u->name, *nout, BCW_MAX_FUNCS);
    return 0;
}

/* The steps, fitted to what a walk takes: when the categories' combinations
 * make more than BCW_MAX_FUNCS steps, all pairs instead of all
 * combinations, then fewer combinations per function, saying so in the
 * report.  *out is the caller's. */
static int fit_steps(bcw_step **out, unsigned *nout, const bcw_unit *u,
                     const bcw_explore_opts *o, const bcw_usergen *gen,
                     const buffer_perms *bp, bcw_reporter *r)
{
    bcw_explore_opts fit = *o;
    unsigned first = 0;
    for (;;) {
        unsigned keep = r->nwarnings;
        int err = make_steps(out, nout, u, &fit, gen, bp, r);
        if (err == 0 && *nout <= BCW_MAX_FUNCS) {
            if (first == 0)
                return 0;
            char *w = bcw__sprintf(
                "%s: %u steps with %s combinations (at most %d are walked): "
                "walked with %s, at most %u combinations per function, %u "
                "steps",
                u->name, first,
                o->combine == BCW_COMBINE_PAIRS ? "all-pairs" : "all",
                BCW_MAX_FUNCS,
                fit.combine == BCW_COMBINE_PAIRS ? "all pairs"
                                                 : "all combinations",
                fit.max_combos, *nout);
            if (w == NULL ||
                bcw__grow(&r->warnings, &r->capwarnings, r->nwarnings + 1,
                          sizeof *r->warnings) < 0) {
                free(w);
                return BCW_ENOMEM;
            }
            r->warnings[r->nwarnings++] = w;
            return 0;
        }
        if (err < 0 && *nout <= BCW_MAX_FUNCS) {
            free(*out); /* a failure, not too many steps */
            *out = NULL;
            return err;
        }
        if (first == 0)
            first = *nout;
        free(*out);
        *out = NULL;
        /* this attempt's cap warnings go: the next one says its own */
        while (r->nwarnings > keep)
            free(r->warnings[--r->nwarnings]);
        if (fit.combine == BCW_COMBINE_ALL)
            fit.combine = BCW_COMBINE_PAIRS;
        else if (fit.max_combos > 1)
            fit.max_combos = (fit.max_combos ? fit.max_combos : 1) / 2;
        else
            return bcw__error(BCW_EINPUT,
                              "unit %s has %u functions with one step each; "
                              "at most %d can be walked",
                              u->name, *nout, BCW_MAX_FUNCS);
    }
}

/* Copies p's expression nodes into the plan's pool for a category with
 * bounds on the object; operands are re-based on the pool. */
static int pool_bounds(bcw_plan *plan, const bcw_param *p, const bcw_part *c,
                       bcw_wire_param *w)
{
    if (plan->npool + p->nnodes > BCW_MAX_PLAN_NODES)
        return bcw__error(BCW_EINPUT,
                          "%s: its categories need more than %d expression "
                          "nodes",
                          p->name, BCW_MAX_PLAN_NODES);
    uint32_t base = plan->npool;
    for (unsigned i = 0; i < p->nnodes; i++) {
        bcw_cnode n = p->nodes[i];
        n.a += base;
        n.b += base;
        plan->pool[plan->npool++] = n;
    }
    w->fixed = BCW_FIXED_BOUNDS;
    w->bounds = (uint16_t)(base + (uint32_t)c->rel);
    w->nbounds = (uint16_t)c->nrel;
    return 0;
}

/* Adds string s to the plan's string table; *off gets its offset. */
static int plan_string(bcw_plan *plan, const char *s, int64_t *off)
{
    size_t n = strlen(s) + 1;
    for (uint32_t i = 0; i < plan->nstrings;
         i += (uint32_t)strlen(plan->strings + i) + 1)
        if (strcmp(plan->strings + i, s) == 0) {
            *off = i;
            return 0;
        }
    if (plan->nstrings + n > BCW_MAX_PLAN_STRINGS)
        return bcw__error(BCW_EINPUT,
                          "the unit's string categories need "
                          "more than %d bytes",
                          BCW_MAX_PLAN_STRINGS);
    memcpy(plan->strings + plan->nstrings, s, n);
    *off = plan->nstrings;
    plan->nstrings += (uint32_t)n;
    return 0;
}

/* How step parameter k is passed: its category's value, string,
 * function or closure, or the master generator's draw (fixed 0). */
static int wire_fixed(bcw_plan *plan, const bcw_param *p, const bcw_step *st,
                      unsigned k, bcw_wire_param *w)
{
    const bcw_part *part = st->part[k];
    if (!st->fixed[k])
        return 0;
    if (part == NULL) { /* a permuted buffer's length */
        w->fixed = BCW_FIXED_VALUE;
        w->value = st->value[k];
        return 0;
    }
    if (st->relative[k])
        return pool_bounds(plan, p, part, w);
    w->fixed = BCW_FIXED_VALUE;
    w->value = st->value[k];
    if ((p->kind == BCW_PK_STRING || p->kind == BCW_PK_BUFFER) &&
        part->str != NULL) {
        w->fixed = BCW_FIXED_STRING;
        return plan_string(plan, part->str, &w->value);
    }
    if (p->kind == BCW_PK_CALLBACK) {
        w->fixed = w->value >= 0 ? BCW_FIXED_SYMBOL : BCW_FIXED_CLOSURE;
        w->value = w->value >= 0 ? w->value : -w->value;
        w->nsig = p->nsig;
        memcpy(w->sig, p->sig, sizeof w->sig);
    }
    return 0;
}

/* Does the worker report something of this parameter in its call's out
 * slot: an out-parameter's value, a closure's calls, a value computed
 * from the object, a buffer's length? */
static bool reports(const bcw_wire_param *w)
{
    return w->kind == BCW_PK_OUT || w->kind == BCW_PK_BUFFER ||
           w->fixed == BCW_FIXED_CLOSURE || w->fixed == BCW_FIXED_BOUNDS;
}

/* Plan index of the entry calling constructor `ctor` of unit `other`,
 * appended after the `nsteps` steps the first time. */
static int plan_ctor(bcw_plan *plan, const bcw_model *m, unsigned nsteps,
                     unsigned other, unsigned ctor, unsigned *index)
{
    const bcw_func *f = &m->units[other].funcs[ctor];
    for (unsigned i = nsteps; i < plan->nfuncs; i++)
        if (plan->funcs[i].sym == f->sym) {
            *index = i;
            return 0;
        }
    if (plan->nfuncs >= BCW_MAX_FUNCS)
        return bcw__error(BCW_EINPUT,
                          "the unit's steps and the constructors of the "
                          "units it takes are more than %d",
                          BCW_MAX_FUNCS);
    bcw_wire_func *w = &plan->funcs[plan->nfuncs];
    w->sym = f->sym;
    w->role = BCW_ROLE_CONSTRUCTOR;
    w->nparams = (uint8_t)f->nparams;
    wire_param(&w->ret, &f->ret);
    for (unsigned k = 0; k < f->nparams; k++)
        wire_param(&w->params[k], &f->params[k]);
    *index = plan->nfuncs++;
    return 0;
}

/* How a handle or another unit's argument is made: the handle given out
 * last, or an instance from that unit's constructor (else zeroed
 * storage, fixed 0). */
static int wire_made(bcw_plan *plan, const bcw_model *m, const bcw_unit *u,
                     unsigned nsteps, const bcw_param *p, bcw_wire_param *w)
{
    if (p->kind == BCW_PK_HANDLE) {
        int h = bcw__handle_index(u, p->detail);
        if (h < 0 || h >= BCW_MAX_HANDLES)
            return bcw__error(BCW_EINPUT,
                              "unit %s: %s handles cannot be walked (at "
                              "most %d handle types)",
                              u->name, p->detail, BCW_MAX_HANDLES);
        w->fixed = p->nullable ? BCW_FIXED_HANDLE_OR_NULL : BCW_FIXED_HANDLE;
        w->value = h;
        return 0;
    }
    unsigned other = 0, index = 0;
    int ctor = bcw__unit_ref_ctor(m, p, &other);
    if (ctor < 0)
        return 0;
    int err = plan_ctor(plan, m, nsteps, other, (unsigned)ctor, &index);
    if (err < 0)
        return err;
    w->fixed = BCW_FIXED_UNIT_CTOR;
    w->value = index;
    return 0;
}

/* The plan: plan index i is step i; the constructors of other units the
 * steps take follow them. */
static int make_plan(bcw_plan *plan, const bcw_model *m, const bcw_unit *u,
                     const bcw_step *steps, unsigned nsteps)
{
    memset(plan, 0, sizeof *plan);
    plan->nfuncs = nsteps;
    plan->unit_size = (uint32_t)u->size;
    plan->destructor = -1;
    int dtor = bcw__unit_destructor(u);
    for (unsigned i = 0; i < nsteps; i++) {
        const bcw_func *f = &u->funcs[steps[i].func];
        bcw_wire_func *w = &plan->funcs[i];
        if ((int)steps[i].func == dtor && plan->destructor < 0)
            plan->destructor = (int32_t)i;
        w->sym = f->sym;
        w->role = (uint8_t)f->role;
        w->nparams = (uint8_t)f->nparams;
        w->flags = f->rebinds ? BCW_WIRE_REBINDS : 0;
        wire_param(&w->ret, &f->ret);
        int h = bcw__handle_given(u, f);
        if (h >= 0 && h < BCW_MAX_HANDLES) {
            w->ret.fixed = BCW_FIXED_HANDLE;
            w->ret.value = h;
        }
        for (unsigned k = 0; k < f->nparams; k++) {
            wire_param(&w->params[k], &f->params[k]);
            int err =
                wire_fixed(plan, &f->params[k], &steps[i], k, &w->params[k]);
            if (err == 0)
                err =
                    wire_made(plan, m, u, nsteps, &f->params[k], &w->params[k]);
            if (err < 0)
                return err;
        }
    }
    return 0;
}

/* Walks prune by concrete state from this depth on, unless told. */
#define PRUNE_FROM_DEPTH 6

static bool prunes(const bcw_explore_opts *o)
{
    switch (o->prune) {
    case BCW_PRUNE_STATE:
        return true;
    case BCW_PRUNE_NONE:
        return false;
    default:
        /* a custom generator's values may depend on how often it was
         * asked, which the state's key cannot see */
        return o->depth >= PRUNE_FROM_DEPTH && o->generator == NULL;
    }
}

/* "bstack_peek was classified an observer but changed the concrete
 * state in 3 runs": one warning per observer the walk caught. */
static int observer_warnings(bcw_reporter *r, const bcw_unit *u,
                             const bcw_step *steps, unsigned nsteps,
                             const uint64_t *changed)
{
    for (unsigned i = 0, j; i < nsteps; i = j) {
        /* a function walked in several categories (consecutive steps) is
         * one warning */
        uint64_t n = 0;
        for (j = i; j < nsteps && steps[j].func == steps[i].func; j++)
            n += changed[j];
        if (n == 0)
            continue;
        char *w = bcw__sprintf(
            "%s was classified an observer but changed the concrete state "
            "in %llu run%s (a side effect the analysis missed)",
            u->funcs[steps[i].func].name, (unsigned long long)n,
            n == 1 ? "" : "s");
        if (w == NULL || bcw__grow(&r->warnings, &r->capwarnings,
                                   r->nwarnings + 1, sizeof *r->warnings) < 0) {
            free(w);
            return BCW_ENOMEM;
        }
        r->warnings[r->nwarnings++] = w;
    }
    return 0;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int bcw_explore_run(bcw_summary *out, const bcw_model *model,
                    const bcw_explore_opts *o)
{
    memset(out, 0, sizeof *out);
    bcw__error_clear();
    if (o->unit < 0 || (unsigned)o->unit >= model->nunits)
        return bcw__error(BCW_EINPUT, "no unit number %d", o->unit);
    if (o->depth > MAX_DEPTH)
        return bcw__error(BCW_EINPUT, "depth %u is above the limit of %d",
                          o->depth, MAX_DEPTH);
    if (o->walk != BCW_WALK_STATE &&
        (o->predicates != NULL || o->graph_path != NULL || o->probe_depth))
        return bcw__error(BCW_EINPUT,
                          "design-state predicates, probe depth and state "
                          "graph apply to the state walk only");
    const bcw_unit *u = &model->units[o->unit];
    bcw_step *steps = NULL;
    unsigned nsteps = 0;
    sinks sk = {0};
    bcw_usergen *gen = NULL;
    int err = o->generator
                  ? bcw__generator_open(&gen, o->generator, u, o->cache_dir)
                  : 0;
    buffer_perms bp = {0};
    if (err == 0)
        err = buffer_perms_make(&bp, o, &sk.report);
    if (err == 0)
        err = fit_steps(&steps, &nsteps, u, o, gen, &bp, &sk.report);
    bcw_plan *plan = bcw__calloc(1, sizeof *plan);
    uint16_t *ctors = bcw__calloc(nsteps, sizeof *ctors);
    uint16_t *methods = bcw__calloc(nsteps, sizeof *methods);
    bool *mutator = bcw__calloc(nsteps, sizeof *mutator);
    bool *is_void = bcw__calloc(nsteps, sizeof *is_void);
    uint8_t *nout = bcw__calloc(nsteps, sizeof *nout);
    uint16_t *mutators = bcw__calloc(nsteps, sizeof *mutators);
    bcw_states states = {0};
    uint64_t *changed = bcw__calloc(nsteps, sizeof *changed);
    bool *observer = bcw__calloc(nsteps, sizeof *observer);
    char *worker = NULL;
    bcw_pool *pool = NULL;
    if (err < 0)
        goto done;
    if (!plan || !ctors || !methods || !mutator || !is_void || !nout ||
        !mutators || !changed || !observer) {
        err = BCW_ENOMEM;
        goto done;
    }
    if ((err = make_plan(plan, model, u, steps, nsteps)) < 0 ||
        (err = bcw__generator_plan(gen, plan, u, steps, nsteps)) < 0)
        goto done;
    if (o->walk == BCW_WALK_STATE &&
        (err = bcw__states_plan(&states, plan, u, steps, nsteps,
                                o->predicates)) < 0)
        goto done;
    plan->use_ffi = o->use_ffi != 0;
    /* states are hashed in every walk: they are counted, and observers
     * are checked, with or without pruning */
    plan->state_flags |= BCW_STATE_HASH;
    bcw_walk_cfg cfg = {.kind = o->walk,
                        .depth = o->depth,
                        .ctors = ctors,
                        .methods = methods,
                        .mutator = mutator,
                        .returns_void = is_void,
                        .nout = nout,
                        .prune_state = prunes(o),
                        .observer_changed = changed,
                        .observer = observer,
                        .exec = exec,
                        .emit = emit,
                        .emit_payload = &sk,
                        .progress = o->progress,
                        .progress_payload = o->payload};
    for (unsigned i = 0; i < nsteps; i++) {
        const bcw_func *f = &u->funcs[steps[i].func];
        /* a call giving out a handle changes what later calls are
         * passed, so the algebra walk extends it as it does mutators */
        mutator[i] =
            f->role == BCW_ROLE_MUTATOR || bcw__handle_given(u, f) >= 0;
        is_void[i] = f->ret.kind == BCW_PK_NONE;
        /* one giving out a handle changes the handles, not the object */
        observer[i] =
            f->role == BCW_ROLE_OBSERVER && bcw__handle_given(u, f) < 0;
        if (observer[i])
            plan->funcs[i].flags |= BCW_WIRE_OBSERVER;
        for (unsigned k = 0; k < f->nparams; k++)
            nout[i] = (uint8_t)(nout[i] + reports(&plan->funcs[i].params[k]));
        if (f->unwalkable != NULL)
            continue;
        if (f->role == BCW_ROLE_CONSTRUCTOR ||
            f->role == BCW_ROLE_INIT_CONSTRUCTOR || f->role == BCW_ROLE_EMPTY)
            ctors[cfg.nctors++] = (uint16_t)i;
        else if (f->role != BCW_ROLE_DESTRUCTOR)
            methods[cfg.nmethods++] = (uint16_t)i;
    }
    if (cfg.nctors == 0) {
        err = bcw__error(BCW_EINPUT,
                         "unit %s has no constructor bcwalk can "
                         "call",
                         u->name);
        goto done;
    }
    double t0 = now_s();
    if ((err = bcw__build_worker(&worker, model, o->bitcode, o->cache_dir)) < 0)
        goto done;
    if ((err = bcw__pool_new(&pool, worker, plan, o->jobs, o->timeout_ms)) < 0)
        goto done;
    sk.report.model = model;
    sk.report.unit = u;
    sk.report.steps = steps;
    sk.report.walk = o->walk;
    sk.report.depth = o->depth;
    sk.report.timeout_ms = o->timeout_ms;
    sk.report.format = o->format;
    sk.report.f = o->report;
    sk.report.gen = gen;
    if (o->results_path != NULL &&
        (err = bcw__results_open(&sk.results, o->results_path, u, steps, nsteps,
                                 o->walk, o->depth)) < 0)
        goto done;
    cfg.exec_payload = pool;
    /* a JSON summary with no results file reads no sequence: the walk
     * only counts them */
    if (o->format == BCW_REPORT_JSON && sk.results == NULL &&
        o->walk != BCW_WALK_STATE)
        cfg.emit = NULL;
    /* the walk's clock starts when workers are up: build time is not
     * throughput */
    t0 = now_s();
    if (o->walk == BCW_WALK_STATE) {
        /* probe with the constructors and mutators, then walk from
         * every state's cover */
        unsigned nmut = 0;
        for (unsigned i = 0; i < cfg.nmethods; i++)
            if (mutator[cfg.methods[i]])
                mutators[nmut++] = cfg.methods[i];
        err = bcw__states_probe(
            &states, &cfg, mutators, nmut,
            o->probe_depth ? o->probe_depth : DEFAULT_PROBE_DEPTH,
            o->prune != BCW_PRUNE_NONE && o->generator == NULL, u);
        sk.report.states = &states;
        if (err == 0)
            err = bcw__states_walk(&states, &cfg, u, bcw__report_begin_state,
                                   &sk.report, out);
        if (err == 0 && o->graph_path != NULL)
            err = bcw__states_dot(&states, u, steps, o->graph_path);
        if (err == 0)
            err = bcw__results_states(sk.results, &states);
    } else {
        err = bcw__walk_run(out, &cfg);
    }
    out->elapsed_s = now_s() - t0;
    out->worker_restarts = bcw__pool_restarts(pool);
    if (err == 0)
        err = observer_warnings(&sk.report, u, steps, nsteps, changed);
    if (err == 0)
        err = bcw__report_summary(&sk.report, out);
done:
    if (sk.results != NULL) {
        int cerr = bcw__results_close(sk.results, err == 0 ? out : NULL);
        if (err == 0)
            err = cerr;
    }
    bcw__pool_free(pool);
    bcw__strv_free(sk.report.warnings, sk.report.nwarnings);
    buffer_perms_free(&bp);
    bcw__generator_free(gen);
    free(worker);
    free(steps);
    free(plan);
    free(ctors);
    free(methods);
    free(mutator);
    free(is_void);
    free(nout);
    free(mutators);
    bcw__states_free(&states);
    free(changed);
    free(observer);
    return err;
}
