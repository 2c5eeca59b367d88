/* funcs.c - a unit's functions: each API function's slots classified
 * (params.c), the unit among them, its role refined by the effects
 * analysis (an observer that may write the unit is a mutator; s =
 * str_cat(s, t) rebinds the unit's handle), what keeps it from being
 * walked, or why it is skipped. */
#define _POSIX_C_SOURCE 200809L
#include "funcs.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "params.h"
#include "status.h"
#include "text.h"

/* Is slot i of `s` (1 on) the unit: its `self`, or any parameter of the
 * unit's type (or, for a cell unit, its cell)? */
static bool is_unit_slot(const bcw_unit *u, const bcw_sig *s, unsigned i,
                         int self)
{
    return (int)i - 1 == self ||
           (bcw__sig_struct(s, i) &&
            strcmp(bcw__sig_struct(s, i), u->name) == 0) ||
           (u->cell && bcw__sig_cell(s, i) &&
            strcmp(bcw__sig_cell(s, i), u->name) == 0);
}

/* Classifies every slot of `s` into *fun; *why is the first reason the
 * function cannot be called. */
static int classify_slots(const bcw_finder *f, const bcw_unit *u,
                          const bcw_sig *s, int self, int out, bcw_func *fun,
                          const char **why)
{
    /* the unit is a heap constructor's result, a method's `self`, or any
     * parameter of the unit's type; an entry a cell unit's method returns
     * is not the cell (handles.c) */
    const char *ret_struct = bcw__sig_struct(s, 0);
    int err = bcw__params_classify(
        f, s, 0, u->name,
        (fun->role == BCW_ROLE_CONSTRUCTOR && out < 0) ||
            (!u->cell && ret_struct && strcmp(ret_struct, u->name) == 0),
        &fun->ret, why);
    for (unsigned i = 1; err == 0 && *why == NULL && i <= s->n; i++) {
        bool is_unit = is_unit_slot(u, s, i, self);
        bcw_param *p = &fun->params[i - 1];
        err = bcw__params_classify(f, s, i, u->name, is_unit, p, why);
        if (err < 0 || *why != NULL)
            break;
        /* a cell unit's E * argument is the cell's current value: NULL
         * for an empty list, which only a function checking it takes */
        if (u->cell && is_unit && bcw__sig_struct(s, i) != NULL) {
            p->kind = BCW_PK_UNIT_DEREF;
            p->nullable = bcw__params_null_checked(LLVMGetParam(s->fn, i - 1));
        }
        /* json_pointer_set(json_object **obj, ...): the handle by its
         * address, which the call may replace */
        if (!u->cell && is_unit && p->kind == BCW_PK_UNIT &&
            bcw__sig_struct(s, i) == NULL && bcw__sig_cell(s, i) != NULL &&
            strcmp(bcw__sig_cell(s, i), u->name) == 0)
            p->kind = BCW_PK_UNIT_CELL;
        /* the target passed again is a case of its own only where the
         * code tells the two apart */
        if (is_unit && p->kind == BCW_PK_UNIT && self >= 0 &&
            (int)i - 1 != self)
            p->alias_checked = bcw__params_compared(
                LLVMGetParam(s->fn, i - 1), LLVMGetParam(s->fn, (unsigned)self));
        if ((int)i - 1 == out) {
            p->kind = BCW_PK_UNIT_OUT;
            if (!s->di[i].known) {
                free(p->ctype);
                if ((p->ctype = bcw__sprintf("struct %s **", u->name)) == NULL)
                    err = BCW_ENOMEM;
            }
        }
    }
    return err;
}

/* The first parameter of `fun` a walk cannot make, in
 * fun->unwalkable. */
static int find_unwalkable(const bcw_sig *s, bcw_func *fun)
{
    for (unsigned i = 0; i < s->n; i++) {
        const bcw_param *p = &fun->params[i];
        const char *what = NULL;
        if (p->kind == BCW_PK_CALLBACK && p->nsig == 0)
            what = "is a callback whose signature bcwalk cannot call "
                   "(no debug info, variadic or an aggregate)";
        else if (strstr(p->ctype, "va_list") != NULL ||
                 strcmp(s->pt[i + 1].name, "__va_list_tag") == 0)
            what = "is a va_list; bcwalk cannot make one";
        if (what != NULL && fun->unwalkable == NULL &&
            (fun->unwalkable = bcw__sprintf("%s %s", p->name, what)) == NULL)
            return BCW_ENOMEM;
    }
    return 0;
}

/* Where fn is defined, from its debug information, into fun->file and
 * fun->line; nothing without it.  0 or BCW_ENOMEM. */
static int source_of(LLVMValueRef fn, bcw_func *fun)
{
    unsigned line = LLVMGetDebugLocLine(fn);
    if (line == 0)
        return 0;
    int err = bcw__debug_path(fn, &fun->file);
    if (fun->file != NULL) {
        bcw__utf8_clean(fun->file);
        fun->line = line;
    }
    return err;
}

int bcw__funcs_add(bcw_finder *f, int unit, const bcw_sig *s,
                   enum bcw_role role, int self, int out)
{
    bcw_unit *u = &f->model->units[unit];
    bcw_func fun = {0};
    fun.role = role;
    fun.self = self;
    fun.is_static = s->is_static;
    fun.nparams = s->n;
    const char *why = NULL;
    int err = classify_slots(f, u, s, self, out, &fun, &why);
    /* s = str_cat(s, t): a new handle for the unit, the old one gone */
    fun.rebinds = self >= 0 && fun.ret.kind == BCW_PK_UNIT &&
                  (bcw__effects_moves(f->fx, s->name, (unsigned)self) ||
                   bcw__effects_frees(f->fx, s->name, (unsigned)self));
    /* int t_init(t *s, ...): what its status says */
    if (role == BCW_ROLE_INIT_CONSTRUCTOR && self >= 0 &&
        (fun.ret.kind == BCW_PK_INT || fun.ret.kind == BCW_PK_BOOL ||
         fun.ret.kind == BCW_PK_ENUM))
        fun.ok = bcw__status_of(s->fn, (unsigned)self);
    if (role == BCW_ROLE_INIT_CONSTRUCTOR && self >= 0)
        fun.defaults = bcw__params_fields_tested(s->fn, (unsigned)self);
    if (err == 0 && why == NULL && role == BCW_ROLE_CONSTRUCTOR)
        for (unsigned i = 0; why == NULL && i < s->n; i++)
            if (fun.params[i].kind == BCW_PK_UNIT)
                why = "constructor taking its own unit";
    if (err == 0 && why == NULL) {
        bcw__params_pair_buffers(&fun, s->fn);
        err = find_unwalkable(s, &fun);
    }
    if (err < 0)
        goto done;
    if (why != NULL) {
        err = bcw__finder_skip(f, s->name, why);
        goto done;
    }
    if (role == BCW_ROLE_OBSERVER) {
        const char *reason = NULL;
        if (bcw__effects_writes(f->fx, s->name, (unsigned)self, &reason)) {
            fun.role = BCW_ROLE_MUTATOR;
            fun.why = bcw__strdup(reason ? reason : "may write");
            if (fun.why == NULL) {
                err = BCW_ENOMEM;
                goto done;
            }
        }
    }
    if ((fun.name = bcw__strdup(s->name)) == NULL ||
        bcw__finder_sym(f, s->name, &fun.sym) < 0 ||
        source_of(s->fn, &fun) < 0) {
        err = BCW_ENOMEM;
        goto done;
    }
    size_t cap = u->nfuncs; /* grown one at a time: units are small */
    if (bcw__grow(&u->funcs, &cap, u->nfuncs + 1, sizeof *u->funcs) < 0) {
        err = BCW_ENOMEM;
        goto done;
    }
    u->funcs[u->nfuncs++] = fun;
    return 0;
done:
    bcw__param_free(&fun.ret);
    for (unsigned i = 0; i < s->n; i++)
        bcw__param_free(&fun.params[i]);
    free(fun.name);
    free(fun.why);
    free(fun.file);
    free(fun.unwalkable);
    return err;
}
