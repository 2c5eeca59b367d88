/* plan.c - the walk's alphabet and the workers' plan: the steps (each
 * function once per combination of its parameters' categories, fitted
 * to what a walk takes), how each parameter is passed, and what the walk
 * needs to know of each step. */
#include "plan.h"

#include <stdlib.h>
#include <string.h>

#include "combine.h"
#include "permute.h"
#include "text.h"

static void wire_param(bcw_wire_param *w, const bcw_param *p)
{
    w->kind = (uint8_t)p->kind;
    w->abi = (uint8_t)p->abi;
    w->pointee = (uint8_t)p->pointee;
    w->size = p->kind == BCW_PK_BUFFER ? BCW_BUFFER_BYTES : p->pointee_size;
    w->pair = (int8_t)p->pair;
    w->filled = bcw__param_filled(p);
    w->elem_size = p->elem_size;
    w->taken = p->taken;
    if (p->kind == BCW_PK_STRUCT) { /* its elements' classes */
        w->nsig = p->nsig;
        memcpy(w->sig, p->sig, sizeof w->sig);
    }
}

/* Parameters whose categories become steps: every kind the solver
 * partitions; the others take the master generator's values. */
static bool partitioned(const bcw_param *p)
{
    return p->nparts > 0;
}

/* "account_withdraw: 3 x 2 = 6 combinations of its categories (amount 3,
 * mode 2); the first 64 are walked" */
static int cap_warning(bcw_strlist *warnings, const bcw_func *f,
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
    if (err < 0) {
        bcw__buf_free(&b);
        return err;
    }
    return bcw__strlist_add(warnings, b.data);
}

/* --boundaries: each value a category has (its representative, minimum
 * and maximum) is a choice of its own; a category with one value, or
 * with no numbers (strings, callbacks, bounds on the object), is one. */
/* Does category t bound the parameter by the object's fields (LOWER,
 * UPPER, EQUAL nodes), so that besides its boundary an ordinary value
 * inside it is walked (BCW_BOUNDS_ORDINARY)?  One solved on the live
 * object (HOLDS/FAILS) is walked once, at the value nearest 1. */
static bool has_ordinary(const bcw_param *p, const bcw_part *t)
{
    if (t->rel < 0 || (unsigned)t->rel >= p->nnodes)
        return false;
    uint8_t op = p->nodes[t->rel].op;
    return op == BCW_C_LOWER || op == BCW_C_UPPER;
}

/* How many values the walk passes for category t: its representative
 * and, with boundaries, its extremes; a relative one's boundary and an
 * ordinary value. */
static unsigned values_of(const bcw_param *p, const bcw_part *t,
                          bool boundaries)
{
    if (has_ordinary(p, t))
        return 2;
    return boundaries && t->nvalues > 1 && t->str == NULL && t->rel < 0
               ? t->nvalues
               : 1;
}

static unsigned choices(const bcw_param *p, bool boundaries)
{
    unsigned n = 0;
    for (unsigned i = 0; i < p->nparts; i++)
        n += values_of(p, &p->parts[i], boundaries);
    return n;
}

/* Choice c of p as its category *part and that category's value *vi. */
static void choice(const bcw_param *p, bool boundaries, unsigned c,
                   unsigned *part, unsigned *vi)
{
    for (unsigned i = 0; i < p->nparts; i++) {
        unsigned n = values_of(p, &p->parts[i], boundaries);
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

/* The buffer contents of the permutation setting, labelled by their
 * content: a->perms. */
static int buffer_perms_make(bcw_alphabet *a, const bcw_plan_opts *o,
                             bcw_strlist *warnings)
{
    if (o->permute == NULL)
        return 0;
    char **contents = NULL;
    unsigned n = 0;
    uint64_t total = 0;
    unsigned cap = o->max_combos ? o->max_combos : 1;
    int err = bcw__permutations(&contents, &n, &total, o->permute, cap);
    if (err == 0 &&
        (a->perms = bcw__calloc(n ? n : 1, sizeof *a->perms)) == NULL)
        err = BCW_ENOMEM;
    for (unsigned i = 0; i < n; i++) {
        if (err == 0) {
            char *label =
                bcw__sprintf("%spermutation %u of %llu",
                             strchr(o->permute, '|') ? "stratified " : "",
                             i + 1, (unsigned long long)total);
            a->perms[i] =
                (bcw_part){.label = label, .str = contents[i], .rel = -1};
            a->nperms++;
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
        err = bcw__strlist_add(
            warnings,
            seed ? bcw__sprintf("buffer permutation seed %s: %llu "
                                "contents, above the cap of %u: "
                                "only the first %u are used",
                                seed, (unsigned long long)total, cap, n)
                 : NULL);
        free(seed);
    }
    return err;
}

/* The categories of a handle parameter by age (bcw_step's age), but the
 * handle given out last's, which reports do not name. */
static const char *const age_labels[BCW_HANDLE_AGES] = {
    NULL, "the one given out before the last",
    "the one given out before those two"};

/* The walk's alphabet: each function once per combination of its
 * parameters' categories (opts->combine, at most opts->max_combos), each
 * category by its representative; a function without categories is one
 * step.  A parameter the custom generator `gen` takes has no categories.
 * a->steps is the caller's even on failure. */
static int make_steps(bcw_alphabet *a, const bcw_unit *u,
                      const bcw_plan_opts *o, const bcw_usergen *gen,
                      bcw_strlist *warnings)
{
    size_t cap = 0;
    a->steps = NULL;
    a->nsteps = 0;
    /* a handle parameter takes each handle a sequence can have given out
     * before the call: up to depth - 1 of them */
    unsigned ages = o->depth < 2                     ? 1
                    : o->depth - 1 > BCW_HANDLE_AGES ? BCW_HANDLE_AGES
                                                     : o->depth - 1;
    for (unsigned i = 0; i < u->nfuncs; i++) {
        const bcw_func *f = &u->funcs[i];
        unsigned counts[BCW_MAX_PARAMS] = {0};
        bool cat[BCW_MAX_PARAMS], aged[BCW_MAX_PARAMS];
        for (unsigned k = 0; k < f->nparams; k++) {
            bool permuted = f->params[k].kind == BCW_PK_BUFFER && a->nperms;
            aged[k] = f->params[k].kind == BCW_PK_HANDLE && ages > 1;
            cat[k] = (partitioned(&f->params[k]) || permuted) &&
                     !bcw__generator_takes(gen, i, k);
            counts[k] = aged[k]    ? ages
                        : !cat[k]  ? 0
                        : permuted ? a->nperms
                                   : choices(&f->params[k], o->boundaries != 0);
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
            err = cap_warning(warnings, f, counts, total, nrows, o->combine);
        for (unsigned c = 0; c < nrows && err == 0; c++) {
            if (bcw__grow(&a->steps, &cap, a->nsteps + 1, sizeof *a->steps) <
                0) {
                err = BCW_ENOMEM;
                break;
            }
            bcw_step *st = &a->steps[a->nsteps++];
            memset(st, 0, sizeof *st);
            st->func = i;
            for (unsigned k = 0; k < f->nparams; k++) {
                const bcw_param *p = &f->params[k];
                st->custom[k] = bcw__generator_takes(gen, i, k);
                if (aged[k]) {
                    st->age[k] = (uint8_t)rows[c].cat[k];
                    st->label[k] = age_labels[st->age[k]];
                }
                if (!cat[k])
                    continue;
                unsigned vi = 0, pi = rows[c].cat[k];
                if (p->kind != BCW_PK_BUFFER)
                    choice(p, o->boundaries != 0, rows[c].cat[k], &pi, &vi);
                const bcw_part *part =
                    p->kind == BCW_PK_BUFFER ? &a->perms[pi] : &p->parts[pi];
                st->part[k] = part;
                st->fixed[k] =
                    part->nvalues > 0 || part->str != NULL || part->rel >= 0;
                /* a relative category's: 0 its boundary, 1 an ordinary
                 * value inside it */
                st->value[k] = part->rel >= 0  ? (int64_t)vi
                               : part->nvalues ? part->values[vi]
                                               : 0;
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
    if (a->nsteps > BCW_MAX_FUNCS)
        return bcw__error(BCW_EINPUT,
                          "unit %s has %u steps (functions times "
                          "categories); at most %d can be walked",
                          u->name, a->nsteps, BCW_MAX_FUNCS);
    return 0;
}

/* The steps, fitted to what a walk takes: when the categories' combinations
 * make more than BCW_MAX_FUNCS steps, all pairs instead of all
 * combinations, then fewer combinations per function, saying so in the
 * warnings. */
static int fit_steps(bcw_alphabet *a, const bcw_unit *u, const bcw_plan_opts *o,
                     const bcw_usergen *gen, bcw_strlist *warnings)
{
    bcw_plan_opts fit = *o;
    unsigned first = 0;
    for (;;) {
        unsigned keep = warnings->n;
        int err = make_steps(a, u, &fit, gen, warnings);
        if (err == 0 && a->nsteps <= BCW_MAX_FUNCS) {
            if (first == 0)
                return 0;
            return bcw__strlist_add(
                warnings,
                bcw__sprintf(
                    "%s: %u steps with %s combinations (at most %d are "
                    "walked): walked with %s, at most %u combinations per "
                    "function, %u steps",
                    u->name, first,
                    o->combine == BCW_COMBINE_PAIRS ? "all-pairs" : "all",
                    BCW_MAX_FUNCS,
                    fit.combine == BCW_COMBINE_PAIRS ? "all pairs"
                                                     : "all combinations",
                    fit.max_combos, a->nsteps));
        }
        if (err < 0 && a->nsteps <= BCW_MAX_FUNCS)
            return err; /* a failure, not too many steps */
        if (first == 0)
            first = a->nsteps;
        free(a->steps);
        a->steps = NULL;
        /* this attempt's cap warnings go: the next one says its own */
        bcw__strlist_truncate(warnings, keep);
        if (fit.combine == BCW_COMBINE_ALL)
            fit.combine = BCW_COMBINE_PAIRS;
        else if (fit.max_combos > 1)
            fit.max_combos = (fit.max_combos ? fit.max_combos : 1) / 2;
        else
            return bcw__error(BCW_EINPUT,
                              "unit %s has %u functions with one step each; "
                              "at most %d can be walked",
                              u->name, a->nsteps, BCW_MAX_FUNCS);
    }
}

/* Copies p's expression nodes into the plan's pool for a category with
 * bounds on the object; operands are re-based on the pool. */
static int pool_bounds(bcw_plan *plan, const bcw_param *p, const bcw_part *c,
                       bcw_wire_param *w)
{
    unsigned k = 0;
    while (k < plan->npooled && plan->pooled[k] != p)
        k++;
    if (k == plan->npooled && (plan->npool + p->nnodes > BCW_MAX_PLAN_NODES ||
                               plan->npooled == BCW_MAX_FUNCS))
        return bcw__error(BCW_EINPUT,
                          "%s: its categories need more than %d expression "
                          "nodes",
                          p->name, BCW_MAX_PLAN_NODES);
    if (k == plan->npooled) {
        /* the parameter's first step: its nodes, re-based */
        plan->pooled[plan->npooled] = p;
        plan->pooled_at[plan->npooled++] = plan->npool;
        uint32_t base = plan->npool;
        for (unsigned i = 0; i < p->nnodes; i++) {
            bcw_cnode n = p->nodes[i];
            n.a += base;
            n.b += base;
            plan->pool[plan->npool++] = n;
        }
    }
    uint32_t base = plan->pooled_at[k];
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

/* A callback argument of category value v: the module's function of
 * symbol index v, or bcwalk's built-in closure -v. */
static void wire_callback(const bcw_param *p, int64_t v, bcw_wire_param *w)
{
    if (v == BCW_CB_NULL_VALUE) { /* NULL, passed as it is */
        w->fixed = BCW_FIXED_VALUE;
        w->value = 0;
        return;
    }
    w->fixed = v >= 0 ? BCW_FIXED_SYMBOL : BCW_FIXED_CLOSURE;
    w->value = v >= 0 ? v : -v;
    w->nsig = p->nsig;
    memcpy(w->sig, p->sig, sizeof w->sig);
}

/* How step parameter k is passed: its category's value, string,
 * function or closure, or the master generator's draw (fixed 0). */
static int wire_fixed(bcw_plan *plan, const bcw_param *p, const bcw_step *st,
                      unsigned k, bcw_wire_param *w)
{
    const bcw_part *part = st->part[k];
    if (!st->fixed[k] || p->kind == BCW_PK_UNIT) /* the target itself */
        return 0;
    if (part == NULL) { /* a permuted buffer's length */
        w->fixed = BCW_FIXED_VALUE;
        w->value = st->value[k];
        return 0;
    }
    if (st->relative[k]) {
        w->value = st->value[k]; /* BCW_BOUNDS_ORDINARY or not */
        return pool_bounds(plan, p, part, w);
    }
    w->fixed = BCW_FIXED_VALUE;
    w->value = st->value[k];
    if ((p->kind == BCW_PK_STRING || p->kind == BCW_PK_BUFFER) &&
        part->str != NULL) {
        w->fixed = BCW_FIXED_STRING;
        return plan_string(plan, part->str, &w->value);
    }
    if (p->kind == BCW_PK_CALLBACK)
        wire_callback(p, st->value[k], w);
    if (p->kind == BCW_PK_SCRATCH && st->value[k] == BCW_CB_NULL_VALUE)
        w->value = 0; /* NULL for the storage (rt_args.c) */
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

static int too_many_handles(const bcw_unit *u, const char *type)
{
    return bcw__error(BCW_EINPUT,
                      "unit %s: %s handles cannot be walked (at most %d "
                      "handle types)",
                      u->name, type, BCW_MAX_HANDLES);
}

/* The wire flags of an init function's status (BCW_WIRE_OK_*). */
static uint8_t status_flags(const bcw_func *f)
{
    return f->ok == BCW_STATUS_ZERO      ? BCW_WIRE_OK_ZERO
           : f->ok == BCW_STATUS_NONZERO ? BCW_WIRE_OK_NONZERO
                                         : 0;
}

/* A built-in for callback `f` at its offset of what plan entry fi makes
 * (param 0) or is given as its parameter param - 1. */
static int add_fill(bcw_plan *plan, unsigned fi, unsigned param,
                    const bcw_field *f)
{
    if (plan->nfills >= BCW_MAX_FILLS)
        return bcw__error(BCW_EINPUT,
                          "the unit's steps take more than %d callbacks in "
                          "instances' fields and tables of callbacks",
                          BCW_MAX_FILLS);
    bcw_wire_fill *w = &plan->fills[plan->nfills++];
    *w = (bcw_wire_fill){
        .func = (uint16_t)fi, .param = (uint16_t)param, .offset = f->offset};
    w->cb.kind = BCW_PK_CALLBACK;
    w->cb.abi = BCW_ABI_PTR;
    w->cb.fixed = BCW_FIXED_CLOSURE;
    w->cb.value = f->callback;
    w->cb.nsig = f->nsig;
    memcpy(w->cb.sig, f->sig, sizeof w->cb.sig);
    return 0;
}

/* The callback fields of unit `u`'s instances plan entry `fi` makes:
 * each gets a built-in where the constructor left it NULL. */
static int plan_fills(bcw_plan *plan, const bcw_unit *u, unsigned fi)
{
    int err = 0;
    for (unsigned i = 0; i < u->nfields && err == 0; i++) {
        const bcw_field *f = &u->fields[i];
        if (f->callback != 0 && f->bits == 64 && f->offset % 8 == 0 &&
            f->offset + 8 <= u->size)
            err = add_fill(plan, fi, 0, f);
    }
    return err;
}

/* The members of the tables of callbacks function f, plan entry fi, is
 * given as zeroed storage: each a built-in. */
static int plan_members(bcw_plan *plan, const bcw_func *f, unsigned fi)
{
    int err = 0;
    for (unsigned k = 0; k < f->nparams && err == 0; k++)
        for (unsigned i = 0; f->params[k].kind == BCW_PK_SCRATCH &&
                             i < f->params[k].nmembers && err == 0;
             i++)
            if (f->params[k].members[i].offset + 8 <= f->params[k].pointee_size)
                err = add_fill(plan, fi, k + 1, &f->params[k].members[i]);
    return err;
}

/* Does function f, plan entry fi, pass zeroed storage it reads, or
 * another unit's instance made so (bcw_plan's fabricates)? */
static bool fabricates(const bcw_plan *plan, const bcw_func *f, unsigned fi)
{
    const bcw_wire_func *w = &plan->funcs[fi];
    for (unsigned k = 0; k < f->nparams; k++) {
        const bcw_wire_param *p = &w->params[k];
        if (p->fixed == BCW_FIXED_UNIT_CTOR
                ? plan->fabricates[p->value]
                : (p->kind == BCW_PK_UNIT_REF ||
                   (p->kind == BCW_PK_SCRATCH && !f->params[k].filled &&
                    !f->params[k].members_all &&
                    p->fixed != BCW_FIXED_HANDLE_OUT &&
                    p->fixed != BCW_FIXED_VALUE) ||
                   /* a scalar read first, zeroed (analyzer/inout.c) */
                   (p->kind == BCW_PK_OUT && f->params[k].nparts > 0 &&
                    p->fixed != BCW_FIXED_VALUE)))
            return true;
    }
    return false;
}

/* Plan index of the entry calling constructor `ctor` of unit `other`,
 * appended after the `nsteps` steps (the first time, for a step's
 * argument), with the callbacks and other units' instances it takes,
 * made by entries after it, those constructors `depth` levels down at
 * most. */
static int plan_ctor(bcw_plan *plan, const bcw_model *m, unsigned nsteps,
                     unsigned other, unsigned ctor, int depth, unsigned *index)
{
    const bcw_func *f = &m->units[other].funcs[ctor];
    for (unsigned i = nsteps; depth == BCW_REF_DEPTH && i < plan->nfuncs; i++)
        if (plan->funcs[i].sym == f->sym) {
            *index = i;
            return 0;
        }
    if (plan->nfuncs >= BCW_MAX_FUNCS)
        return bcw__error(BCW_EINPUT,
                          "the unit's steps and the constructors of the "
                          "units it takes are more than %d",
                          BCW_MAX_FUNCS);
    unsigned me = plan->nfuncs++;
    bcw_wire_func *w = &plan->funcs[me];
    w->sym = f->sym;
    w->role = (uint8_t)f->role;
    w->flags = status_flags(f);
    w->nparams = (uint8_t)f->nparams;
    wire_param(&w->ret, &f->ret);
    for (unsigned k = 0; k < f->nparams; k++) {
        const bcw_param *p = &f->params[k];
        bcw_wire_param *wp = &plan->funcs[me].params[k];
        wire_param(wp, p);
        unsigned sub = 0, at = 0;
        int c;
        if (p->kind == BCW_PK_CALLBACK) {
            /* a constructor's callback: its first category */
            wire_callback(p, p->parts[0].values[0], wp);
        } else if ((c = bcw__unit_ref_ctor_within(m, p, &sub, depth - 1)) >=
                   0) {
            int err =
                plan_ctor(plan, m, nsteps, sub, (unsigned)c, depth - 1, &at);
            if (err < 0)
                return err;
            wp->fixed = BCW_FIXED_UNIT_CTOR;
            wp->value = at;
        }
    }
    *index = me;
    plan->fabricates[me] = fabricates(plan, f, me);
    int err = plan_members(plan, f, me);
    return err < 0 ? err : plan_fills(plan, &m->units[other], me);
}

/* How a handle or another instance is made: the handle of age `age`
 * given out, an instance from that unit's constructor (else zeroed
 * storage, fixed 0), or for a parameter of u's own type whose category
 * is "a new u", an instance of u's own (else the target, fixed 0). */
static int wire_made(bcw_plan *plan, const bcw_model *m, const bcw_unit *u,
                     unsigned nsteps, const bcw_param *p, const bcw_step *st,
                     unsigned k, bcw_wire_param *w)
{
    unsigned age = st->age[k];
    if (p->kind == BCW_PK_UNIT && st->part[k] != NULL && !st->fixed[k]) {
        int own = bcw__unit_own_ctor(m, u);
        if (own < 0)
            return 0;
        unsigned index = 0;
        int err = plan_ctor(plan, m, nsteps, (unsigned)(u - m->units),
                            (unsigned)own, BCW_REF_DEPTH, &index);
        w->fixed = BCW_FIXED_UNIT_CTOR;
        w->value = index;
        w->size = (uint32_t)u->size; /* for an init constructor */
        return err;
    }
    if (p->kind == BCW_PK_HANDLE) {
        int h = bcw__handle_index(u, p->detail);
        if (h < 0 || h >= BCW_MAX_HANDLES)
            return too_many_handles(u, p->detail);
        w->fixed = p->nullable ? BCW_FIXED_HANDLE_OR_NULL : BCW_FIXED_HANDLE;
        w->value = h + BCW_MAX_HANDLES * (int64_t)age;
        w->needs = p->needs_set;
        /* another unit's struct held as the unit's entry: a list's node */
        for (unsigned i = 0; i < m->nunits; i++)
            w->entry = w->entry || strcmp(m->units[i].name, p->detail) == 0;
        return 0;
    }
    unsigned other = 0, index = 0;
    int ctor = bcw__unit_ref_ctor(m, p, &other);
    if (ctor < 0)
        return 0;
    int err = plan_ctor(plan, m, nsteps, other, (unsigned)ctor, BCW_REF_DEPTH,
                        &index);
    if (err < 0)
        return err;
    w->fixed = BCW_FIXED_UNIT_CTOR;
    w->value = index;
    return 0;
}

/* The handle `f` gives out that some function takes, or -1: a list in
 * the caller's cell gives out its entries, but its functions take the
 * head, and a handle no call takes changes neither later calls nor the
 * state. */
static int handle_passed_on(const bcw_unit *u, const bcw_func *f)
{
    int h = bcw__handle_given(u, f);
    return h >= 0 && u->handles[h].nusers > 0 ? h : -1;
}

/* Does `f` give out a handle later calls take: a result passed on, or
 * storage it fills? */
static bool gives(const bcw_unit *u, const bcw_func *f)
{
    for (unsigned k = 0; k < f->nparams; k++)
        if (bcw__handle_given_in(u, f, k) >= 0)
            return true;
    return handle_passed_on(u, f) >= 0;
}

/* The plan: plan index i is step i; the constructors of other units the
 * steps take follow them. */
static int make_plan(bcw_plan *plan, const bcw_model *m, const bcw_unit *u,
                     const bcw_step *steps, unsigned nsteps)
{
    memset(plan, 0, sizeof *plan);
    plan->nfuncs = nsteps;
    plan->unit_size = (uint32_t)u->size;
    plan->ndestructors = 0;
    for (unsigned i = 0; i < nsteps; i++) {
        const bcw_func *f = &u->funcs[steps[i].func];
        bcw_wire_func *w = &plan->funcs[i];
        /* every destructor a walk can call ends sequences in turn */
        if (f->role == BCW_ROLE_DESTRUCTOR && f->unwalkable == NULL &&
            f->self == 0 && plan->ndestructors < BCW_MAX_DESTRUCTORS) {
            plan->dtor_forms[plan->ndestructors] = (uint8_t)(
                (f->teardown == BCW_TEARDOWN_BLOCK      ? BCW_FORM_HEAP
                 : f->teardown == BCW_TEARDOWN_RELEASES ? BCW_FORM_STORAGE
                                   : BCW_FORM_HEAP | BCW_FORM_STORAGE) |
                bcw_wire_family_form(bcw__func_family(u, f)));
            plan->destructors[plan->ndestructors++] = (uint16_t)i;
        }
        w->sym = f->sym;
        w->role = (uint8_t)f->role;
        w->nparams = (uint8_t)f->nparams;
        w->family = (uint8_t)bcw__func_family(u, f);
        w->flags =
            (uint8_t)((f->rebinds ? BCW_WIRE_REBINDS : 0) |
                      (f->retains ? BCW_WIRE_RETAINS : 0) |
                      (f->defaults ? BCW_WIRE_DEFAULTS : 0) | status_flags(f));
        if (f->role == BCW_ROLE_DESTRUCTOR && f->self == 0 &&
            f->params[0].kind == BCW_PK_UNIT && f->params[0].nullable)
            w->flags |= BCW_WIRE_NULLABLE_SELF;
        wire_param(&w->ret, &f->ret);
        int h = handle_passed_on(u, f);
        if (h >= 0 && h < BCW_MAX_HANDLES) {
            w->ret.fixed = BCW_FIXED_HANDLE;
            w->ret.value = h;
            /* a one-word struct by value: a copy's address */
            w->ret.size = f->ret.by_value ? sizeof(uint64_t) : 0;
        }
        for (unsigned k = 0; k < f->nparams; k++) {
            wire_param(&w->params[k], &f->params[k]);
            int given = bcw__handle_given_in(u, f, k);
            if (given >= BCW_MAX_HANDLES)
                return too_many_handles(u, f->params[k].detail);
            if (given >= 0) {
                w->params[k].fixed = BCW_FIXED_HANDLE_OUT;
                w->params[k].value = given;
                continue;
            }
            if (f->params[k].kind == BCW_PK_UNIT_DEREF &&
                !f->params[k].nullable)
                w->params[k].fixed = BCW_FIXED_NONNULL;
            int err =
                wire_fixed(plan, &f->params[k], &steps[i], k, &w->params[k]);
            if (err == 0)
                err = wire_made(plan, m, u, nsteps, &f->params[k], &steps[i], k,
                                &w->params[k]);
            if (err < 0)
                return err;
        }
        plan->fabricates[i] = fabricates(plan, f, i);
        int err = plan_members(plan, f, i);
        if (err < 0)
            return err;
        /* the invariant as walked: one step, the object its only
         * parameter, a bool its answer (an int's 0 may say "no error") */
        if (u->invariant >= 0 && steps[i].func == (unsigned)u->invariant &&
            f->nparams == 1 && f->ret.kind == BCW_PK_BOOL &&
            plan->invariant == 0)
            plan->invariant = i + 1;
    }
    return 0;
}

/* Does node i of the plan's pool read an earlier argument of the call
 * (BCW_C_ARG)? */
static bool reads_args(const bcw_plan *plan, uint32_t i, int depth)
{
    if (depth > 64 || i >= plan->npool)
        return false;
    const bcw_cnode *n = &plan->pool[i];
    if (n->op <= BCW_C_ARG)
        return n->op == BCW_C_ARG;
    bool two =
        (n->op >= BCW_C_ADD && n->op <= BCW_C_ASHR) || n->op == BCW_C_ICMP;
    return reads_args(plan, n->a, depth + 1) ||
           (two && reads_args(plan, n->b, depth + 1));
}

/* Is w a value computed from the object's fields alone, which a state
 * and a step decide (bcw_walk_step.relative)?  One computed from the
 * call's earlier arguments too depends on the values generated for
 * them, which the state does not tell. */
static bool pinnable(const bcw_plan *plan, const bcw_wire_param *w)
{
    if (w->fixed != BCW_FIXED_BOUNDS)
        return false;
    for (uint32_t i = 0; i < w->nbounds; i++)
        if (reads_args(plan, (uint32_t)w->bounds + i, 0))
            return false;
    return true;
}

/* What the walk needs of each step, the constructors and methods it
 * walks, and the flags the workers see. */
static int classify(bcw_alphabet *a, const bcw_unit *u)
{
    for (unsigned i = 0; i < a->nsteps; i++) {
        const bcw_func *f = &u->funcs[a->steps[i].func];
        bcw_walk_step *w = &a->walk[i];
        bool gives_handle = gives(u, f);
        /* a call giving out a handle changes what later calls are
         * passed, so the algebra walk extends it as it does mutators */
        w->mutator = f->role == BCW_ROLE_MUTATOR || gives_handle;
        w->returns_void = f->ret.kind == BCW_PK_NONE;
        /* one giving out a handle changes the handles, not the object */
        w->observer = f->role == BCW_ROLE_OBSERVER && !gives_handle;
        w->fabricates = a->plan->fabricates[i];
        for (unsigned k = 0; k < f->nparams; k++)
            if (f->params[k].kind == BCW_PK_UNIT &&
                a->steps[i].part[k] != NULL && a->steps[i].fixed[k])
                w->aliases = f->role == BCW_ROLE_OBSERVER ? 1 : 2;
        if (w->observer)
            a->plan->funcs[i].flags |= BCW_WIRE_OBSERVER;
        for (unsigned k = 0; k < f->nparams; k++) {
            w->nout =
                (uint8_t)(w->nout + reports(&a->plan->funcs[i].params[k]));
            if (pinnable(a->plan, &a->plan->funcs[i].params[k]))
                w->relative |= (uint8_t)(1u << k);
        }
        w->text = bcw__func_has_text(f);
        /* a struct result's elements after the first */
        if (f->ret.kind == BCW_PK_STRUCT)
            w->nout = (uint8_t)(w->nout + f->ret.nsig - 1);
        if (f->unwalkable != NULL)
            continue;
        if (f->role == BCW_ROLE_CONSTRUCTOR ||
            f->role == BCW_ROLE_INIT_CONSTRUCTOR || f->role == BCW_ROLE_EMPTY)
            a->ctors[a->nctors++] = (uint16_t)i;
        else if (f->role != BCW_ROLE_DESTRUCTOR) {
            a->methods[a->nmethods++] = (uint16_t)i;
            if (w->mutator)
                a->mutators[a->nmutators++] = (uint16_t)i;
        }
    }
    if (a->nctors == 0)
        return bcw__error(
            BCW_EINPUT, "unit %s has no constructor bcwalk can call", u->name);
    return 0;
}

/* A unit an init function makes (or an empty cell) lives in the
 * worker's storage for it: one larger than that cannot be walked. */
static int storage_fits(const bcw_alphabet *a, const bcw_unit *u)
{
    for (unsigned i = 0; i < a->nsteps; i++) {
        enum bcw_role role = u->funcs[a->steps[i].func].role;
        if ((role == BCW_ROLE_INIT_CONSTRUCTOR || role == BCW_ROLE_EMPTY) &&
            u->size > BCW_MAX_UNIT_STORAGE)
            return bcw__error(BCW_EINPUT,
                              "unit %s: bcwalk cannot build a worker for a "
                              "struct of %llu bytes that %s makes in the "
                              "caller's storage (at most %u bytes)",
                              u->name, (unsigned long long)u->size,
                              u->funcs[a->steps[i].func].name,
                              BCW_MAX_UNIT_STORAGE);
    }
    return 0;
}

/* The workers' limits, and the state hashed after every call: states
 * are counted, and observers checked, with or without pruning. */
static void limits(bcw_plan *plan, const bcw_plan_opts *o)
{
    plan->use_ffi = o->use_ffi != 0;
    plan->memory_mb = o->memory_mb ? o->memory_mb : 1024;
    if ((plan->cpu_s = o->cpu_s) == 0) {
        uint64_t twice = 2 * ((uint64_t)o->depth + 2) *
                         (o->timeout_ms ? o->timeout_ms : 1000);
        plan->cpu_s = (uint32_t)(twice / 1000 > 60 ? twice / 1000 : 60);
    }
    plan->state_flags |= BCW_STATE_HASH;
}

int bcw__alphabet_make(bcw_alphabet *a, const bcw_model *m, const bcw_unit *u,
                       const bcw_plan_opts *o, const bcw_usergen *gen,
                       bcw_strlist *warnings)
{
    memset(a, 0, sizeof *a);
    int err = buffer_perms_make(a, o, warnings);
    if (err == 0)
        err = fit_steps(a, u, o, gen, warnings);
    if (err < 0)
        return err;
    size_t n = a->nsteps ? a->nsteps : 1;
    a->plan = bcw__calloc(1, sizeof *a->plan);
    a->walk = bcw__calloc(n, sizeof *a->walk);
    a->ctors = bcw__calloc(n, sizeof *a->ctors);
    a->methods = bcw__calloc(n, sizeof *a->methods);
    a->mutators = bcw__calloc(n, sizeof *a->mutators);
    if (!a->plan || !a->walk || !a->ctors || !a->methods || !a->mutators)
        return BCW_ENOMEM;
    if ((err = make_plan(a->plan, m, u, a->steps, a->nsteps)) < 0 ||
        (err = storage_fits(a, u)) < 0 || (err = classify(a, u)) < 0 ||
        (err = bcw__generator_plan(gen, &a->plan->gen, a->plan->funcs, u,
                                   a->steps, a->nsteps)) < 0)
        return err;
    limits(a->plan, o);
    return 0;
}

void bcw__alphabet_free(bcw_alphabet *a)
{
    for (unsigned i = 0; i < a->nperms; i++) {
        free(a->perms[i].label);
        free(a->perms[i].str);
    }
    free(a->perms);
    free(a->steps);
    free(a->walk);
    free(a->ctors);
    free(a->methods);
    free(a->mutators);
    free(a->plan);
    memset(a, 0, sizeof *a);
}
