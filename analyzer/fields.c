/* fields.c - the unit at field level: its fields from debug info, then
 * for each method the fields it reads and writes (accesses.c) and the
 * comparisons of fields it branches on (preds.c), after the interface's
 * Boolean observers. */
#define _POSIX_C_SOURCE 200809L
#include "fields.h"

#include <llvm-c/Target.h>
#include <stdlib.h>
#include <string.h>

#include "accesses.h"
#include "alloc.h"
#include "callbacks.h"
#include "diinfo.h"
#include "preds.h"

#define MAX_FIELDS 256

/* A function pointer field's built-in kind and ABI, told by its name and
 * type as a callback parameter's; none for a shape only a built-in
 * returning 0 fits (an allocator's would fail every call). */
void bcw__fields_callback(bcw_field *f, const bcw_di_field *di)
{
    if (!di->type.is_funcptr || di->type.nsig == 0 ||
        di->type.nsig > BCW_MAX_PARAMS + 1)
        return;
    bcw_param p = {.name = f->name,
                   .ctype = (char *)di->type.spelling,
                   .kind = BCW_PK_CALLBACK,
                   .nsig = (uint8_t)di->type.nsig};
    memcpy(p.sig, di->type.sig, di->type.nsig);
    enum bcw_callback k = bcw__callbacks_kind(&p, NULL);
    if (k == BCW_CB_ZERO)
        return;
    f->callback = (uint8_t)k;
    f->nsig = p.nsig;
    memcpy(f->sig, p.sig, sizeof f->sig);
}

/* u->fields: the top-level members of the struct slot `slot` of `ctor`
 * points to, by debug info; none without. */
static int layout(bcw_unit *u, LLVMValueRef ctor, unsigned slot)
{
    bcw_di_field *di = bcw__calloc(MAX_FIELDS, sizeof *di);
    if (di == NULL)
        return BCW_ENOMEM;
    int n = bcw__di_fields(ctor, slot, di, MAX_FIELDS);
    int err = 0;
    if (n > 0 &&
        (u->fields = bcw__calloc((size_t)n, sizeof *u->fields)) == NULL)
        err = BCW_ENOMEM;
    for (int i = 0; i < n && err == 0; i++) {
        bcw_field *f = &u->fields[u->nfields];
        if ((f->name = bcw__strdup(di[i].name)) == NULL)
            err = BCW_ENOMEM;
        f->offset = di[i].offset_bits / 8;
        f->bits = di[i].size_bits;
        bcw__fields_callback(f, &di[i]);
        u->nfields += err == 0;
    }
    free(di);
    return err;
}

int bcw__fields_analyze(bcw_unit *u, LLVMModuleRef mod, LLVMValueRef ctor,
                        unsigned slot)
{
    /* a cell unit's pointer is the cell, not the struct: no field is at
     * an offset from it */
    int err = u->cell ? 0 : layout(u, ctor, slot);
    LLVMTargetDataRef td = LLVMCreateTargetData(LLVMGetDataLayoutStr(mod));
    if (err == 0)
        err = bcw__preds_interface(u, td, mod);
    for (unsigned i = 0; i < u->nfuncs && err == 0; i++) {
        bcw_func *f = &u->funcs[i];
        LLVMValueRef fn = LLVMGetNamedFunction(mod, f->name);
        /* a cell unit's E ** methods reach its fields through the cell:
         * not followed yet */
        if (fn == NULL || f->self < 0 ||
            (u->cell && f->params[f->self].kind == BCW_PK_UNIT))
            continue;
        LLVMValueRef unit = LLVMGetParam(fn, (unsigned)f->self);
        err = bcw__accesses_find(u, td, fn, unit, f);
        if (err == 0 &&
            (f->role == BCW_ROLE_OBSERVER || f->role == BCW_ROLE_MUTATOR))
            err = bcw__preds_branches(u, td, fn, unit, f->name);
    }
    LLVMDisposeTargetData(td);
    return err;
}
