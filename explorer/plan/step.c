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
int bcw__observer_warnings(bcw_strlist *warnings, const bcw_unit *u,
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
        int err = bcw__strlist_add(
            warnings,
            bcw__sprintf("%s was classified an observer but changed the "
                         "concrete state in %llu run%s (a side effect the "
                         "analysis missed)",
                         u->funcs[steps[i].func].name, (unsigned long long)n,
                         n == 1 ? "" : "s"));
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
