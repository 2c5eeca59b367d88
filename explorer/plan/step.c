/* step.c - how reports and the state graph name a step of the walk. */
#define _POSIX_C_SOURCE 200809L
#include "step.h"

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
