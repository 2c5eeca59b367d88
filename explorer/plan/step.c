/* step.c - how reports and the state graph name a step of the walk, and
 * the warnings about the observers among the steps. */
#define _POSIX_C_SOURCE 200809L
#include "step.h"

#include <stdio.h>
#include <string.h>

#include "alloc.h"

char *bcw__step_text(const bcw_unit *u, const bcw_step *st)
{
    const bcw_func *f = &u->funcs[st->func];
    bcw_buf b;
    bcw__buf_init(&b, 4096);
    bcw__buf_printf(&b, "%s", f->name);
    bool any = false;
    for (unsigned k = 0; k < f->nparams; k++)
        if (st->label[k] != NULL) {
            bcw__buf_printf(&b, "%s%s", any ? "; " : " [", st->label[k]);
            any = true;
        }
    if (any)
        bcw__buf_printf(&b, "]");
    return b.data;
}

bool bcw__param_filled(const bcw_param *p)
{
    if (p->kind != BCW_PK_BUFFER)
        return false;
    /* const before the pointer's star: the call only reads it */
    const char *star = p->ctype ? strrchr(p->ctype, '*') : NULL;
    const char *c = p->ctype ? strstr(p->ctype, "const") : NULL;
    return c == NULL || (star != NULL && c > star);
}

bool bcw__func_has_text(const bcw_func *f)
{
    if (f->ret.kind == BCW_PK_STRING)
        return true;
    for (unsigned k = 0; k < f->nparams; k++)
        if (bcw__param_filled(&f->params[k]))
            return true;
    return false;
}

/* "bstack_peek was classified an observer but changed the concrete
 * state in 3 runs": one warning per observer the walk caught. */
/* The warning of what function f's steps were seen doing over n (their
 * seen records summed) that the analysis did not say, or NULL
 * (*none). */
static char *seen_warning(const bcw_func *f, const bcw_step_seen *n,
                          bool *none)
{
    *none = false;
    if (n->changed > 0)
        return bcw__sprintf("%s was classified an observer but changed the "
                            "concrete state in %llu run%s (a side effect the "
                            "analysis missed)",
                            f->name, (unsigned long long)n->changed,
                            n->changed == 1 ? "" : "s");
    if (n->ended > 0 && f->role != BCW_ROLE_DESTRUCTOR)
        return bcw__sprintf(
            "%s freed the object in %llu run%s, returning no other: the "
            "walk took it for a destructor, with no call after it (the "
            "analysis said %s)",
            f->name, (unsigned long long)n->ended, n->ended == 1 ? "" : "s",
            bcw__role_name(f->role));
    if (n->replaced > 0 && !f->rebinds)
        return bcw__sprintf(
            "%s freed the object's block in %llu run%s and returned it moved: "
            "the walk went on with what it returned (the analysis missed it)",
            f->name, (unsigned long long)n->replaced,
            n->replaced == 1 ? "" : "s");
    *none = true;
    return NULL;
}

int bcw__observer_warnings(bcw_strlist *warnings, const bcw_unit *u,
                           const bcw_step *steps, unsigned nsteps,
                           const bcw_step_seen *seen)
{
    for (unsigned i = 0, j; i < nsteps; i = j) {
        /* a function walked in several categories (consecutive steps) is
         * one warning */
        bcw_step_seen n = {0};
        for (j = i; j < nsteps && steps[j].func == steps[i].func; j++) {
            n.changed += seen[j].changed;
            n.ended += seen[j].ended;
            n.replaced += seen[j].replaced;
        }
        bool none;
        char *text = seen_warning(&u->funcs[steps[i].func], &n, &none);
        if (none)
            continue;
        int err = bcw__strlist_add(warnings, text);
        if (err < 0)
            return err;
    }
    return 0;
}

/* "tally_dump returns nothing and was classified an observer ...": a
 * void function that writes nothing of the unit does nothing a walk can
 * see (its effect, if any, is elsewhere: a global, a file, output). */
int bcw__void_observer_warnings(bcw_strlist *warnings, const bcw_unit *u,
                                const bcw_step *steps, unsigned nsteps)
{
    for (unsigned i = 0; i < nsteps; i++) {
        const bcw_func *f = &u->funcs[steps[i].func];
        if (f->role != BCW_ROLE_OBSERVER || f->ret.kind != BCW_PK_NONE ||
            (i > 0 && steps[i - 1].func == steps[i].func))
            continue;
        /* one given memory it may write (an iterator to set up, an out
         * cell, a callback's) has its effect there */
        bool out = false;
        for (unsigned k = 0; k < f->nparams; k++) {
            enum bcw_pkind kind = f->params[k].kind;
            out = out || !(kind == BCW_PK_UNIT || kind == BCW_PK_INT ||
                           kind == BCW_PK_BOOL || kind == BCW_PK_CHAR ||
                           kind == BCW_PK_FLOAT || kind == BCW_PK_ENUM ||
                           kind == BCW_PK_STRING || kind == BCW_PK_LENGTH ||
                           kind == BCW_PK_ELEMENT);
        }
        if (out)
            continue;
        int err = bcw__strlist_add(
            warnings,
            bcw__sprintf("%s returns nothing and was classified an observer: "
                         "it changes nothing of the unit a walk can see (its "
                         "effect, if any, is elsewhere)",
                         f->name));
        if (err < 0)
            return err;
    }
    return 0;
}
