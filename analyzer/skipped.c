/* skipped.c - what unit discovery leaves out: the skipped API functions
 * with their reasons, and the "no unit found" error listing the structs
 * and functions of the module. */
#define _POSIX_C_SOURCE 200809L
#include "skipped.h"

#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "bitcode.h"

int bcw__skipped_add(bcw_finder *f, const char *fn, const char *why)
{
    bcw_model *m = f->model;
    if (bcw__grow(&m->skipped, &f->skipped_cap, m->nskipped + 1,
                  sizeof *m->skipped) < 0)
        return BCW_ENOMEM;
    m->skipped[m->nskipped] = bcw__sprintf("%s: %s", fn, why);
    return m->skipped[m->nskipped++] ? 0 : BCW_ENOMEM;
}

int bcw__skipped_no_unit(const bcw_finder *f)
{
    bcw_buf b;
    bcw__buf_init(&b, 4096);
    bcw__buf_printf(&b,
                    "%s: no unit found (a unit is a struct with a "
                    "constructor returning T * or an init function "
                    "T_init(T *)); structs:",
                    f->model->path);
    bcw_buf funcs;
    bcw__buf_init(&funcs, 4096);
    int nstructs = 0, nfuncs = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(f->mod); fn != NULL;
         fn = LLVMGetNextFunction(fn)) {
        bcw_sig s;
        if (LLVMIsDeclaration(fn))
            continue;
        bcw__buf_printf(&funcs, " %s", bcw__value_name(fn));
        nfuncs++;
        if (!bcw__sig_load(f->mod, fn, &s))
            continue;
        for (unsigned i = 0; i <= s.n; i++) {
            const char *st = bcw__sig_struct(&s, i);
            char word[72];
            snprintf(word, sizeof word, " %s ", st ? st : "");
            if (st != NULL && (b.data == NULL || !strstr(b.data, word))) {
                bcw__buf_printf(&b, " %s", st);
                nstructs++;
            }
        }
    }
    bcw__buf_printf(&b, "%s; functions:%s", nstructs ? "" : " none",
                    nfuncs ? funcs.data : " none");
    int err = bcw__error(BCW_EINPUT, "%s", b.data ? b.data : "no unit found");
    bcw__buf_free(&b);
    bcw__buf_free(&funcs);
    return err;
}
