/* callbacks.c - what a callback parameter can be given: the module's
 * functions of the same C type, as conditions naming each, added to the
 * symbol table so workers can pass its address. */
#define _POSIX_C_SOURCE 200809L
#include "callbacks.h"

#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "bitcode.h"
#include "diinfo.h"

#define MAX_CALLBACKS 4 /* module functions tried per callback */

/* fn's type written as a callback's, "int (*)(const void *, const void
 * *)", into buf; false without debug info. */
static bool callback_spelling(LLVMValueRef fn, char *buf, size_t n)
{
    bcw_di_type di[BCW_MAX_PARAMS + 1];
    unsigned nparams = LLVMCountParams(fn);
    if (nparams > BCW_MAX_PARAMS ||
        bcw__di_signature(fn, di, BCW_MAX_PARAMS + 1) == 0 || !di[0].known)
        return false;
    int len = snprintf(buf, n, "%s (*)(%s", di[0].spelling,
                       nparams == 0 ? "void" : "");
    for (unsigned i = 1; i <= nparams && len > 0 && (size_t)len < n; i++)
        len += snprintf(buf + len, n - (size_t)len, "%s%s", i > 1 ? ", " : "",
                        di[i].spelling);
    if (len > 0 && (size_t)len + 1 < n) {
        buf[len++] = ')';
        buf[len] = '\0';
        return true;
    }
    return false;
}

/* The module's functions that fit callback parameter p (same C type),
 * in definition order: conditions whose value is the function's name,
 * each added to the symbol table so workers can pass its address. */
static int find_callbacks_of(bcw_finder *f, bcw_param *p)
{
    size_t cap = 0;
    char buf[256];
    for (LLVMValueRef fn = LLVMGetFirstFunction(f->mod);
         fn && p->nconds < MAX_CALLBACKS; fn = LLVMGetNextFunction(fn)) {
        if (LLVMIsDeclaration(fn) || !callback_spelling(fn, buf, sizeof buf) ||
            strcmp(buf, p->detail) != 0)
            continue;
        const char *name = bcw__value_name(fn);
        unsigned sym;
        int err = bcw__finder_sym(f, name, &sym);
        if (err == 0)
            err = bcw__grow(&p->conds, &cap, p->nconds + 1, sizeof *p->conds);
        if (err < 0)
            return err;
        bcw_cond *c = &p->conds[p->nconds++];
        *c = (bcw_cond){bcw__sprintf("%s == %s", p->name, name),
                        bcw__sprintf("%s != %s", p->name, name), UINT32_MAX,
                        bcw__strdup(name)};
        if (c->text == NULL || c->negated == NULL || c->value == NULL)
            return BCW_ENOMEM;
    }
    return 0;
}

int bcw__callbacks_find(bcw_finder *f)
{
    int err = 0;
    for (unsigned i = 0; i < f->model->nunits && err == 0; i++) {
        bcw_unit *u = &f->model->units[i];
        for (unsigned j = 0; j < u->nfuncs && err == 0; j++)
            for (unsigned k = 0; k < u->funcs[j].nparams && err == 0; k++)
                if (u->funcs[j].params[k].kind == BCW_PK_CALLBACK &&
                    u->funcs[j].params[k].detail != NULL)
                    err = find_callbacks_of(f, &u->funcs[j].params[k]);
    }
    return err;
}
