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

/* Does the worker report something of this parameter in its call's out
 * slot: an out-parameter's value, a closure's calls, a value computed
 * from the object, a buffer's length? */
static bool reports(const bcw_wire_param *w)
{
    return w->kind == BCW_PK_OUT || w->kind == BCW_PK_BUFFER ||
           w->fixed == BCW_FIXED_CLOSURE || w->fixed == BCW_FIXED_BOUNDS;
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
        bool gives_handle = bcw__plan_gives(u, f);
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
    if ((err = bcw__plan_wire(a->plan, m, u, a->steps, a->nsteps)) < 0 ||
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
