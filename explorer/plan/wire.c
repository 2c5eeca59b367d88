/* wire.c - the workers' plan from the walk's steps: how each parameter
 * of each step is passed (a category's value, string, function or
 * closure, bounds on the object, another unit's instance made by a
 * constructor entry, a handle), the functions' flags, the tables of
 * callbacks filled with built-ins, and which steps pass an argument
 * bcwalk made up. */
#include "plan.h"

#include <stdlib.h>
#include <string.h>

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

bool bcw__plan_gives(const bcw_unit *u, const bcw_func *f)
{
    for (unsigned k = 0; k < f->nparams; k++)
        if (bcw__handle_given_in(u, f, k) >= 0)
            return true;
    return handle_passed_on(u, f) >= 0;
}

/* The plan: plan index i is step i; the constructors of other units the
 * steps take follow them. */
int bcw__plan_wire(bcw_plan *plan, const bcw_model *m, const bcw_unit *u,
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
