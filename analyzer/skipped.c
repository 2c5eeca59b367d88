/* skipped.c - the "no unit found" error listing the structs and
 * functions of the module. */
#define _POSIX_C_SOURCE 200809L
#include "skipped.h"

#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "bitcode.h"

/* Appends a, b and c to a listing, or nothing if they would pass its
 * limit: a long listing is cut, and only an allocation failure is an
 * error. */
static int listing_put(bcw_buf *buf, const char *a, const char *b,
                       const char *c)
{
    size_t na = strlen(a), nb = strlen(b), nc = strlen(c);
    if (buf->len + na + nb + nc + 1 > buf->limit)
        return 0;
    int err = bcw__buf_put(buf, a, na);
    if (err == 0)
        err = bcw__buf_put(buf, b, nb);
    return err == 0 ? bcw__buf_put(buf, c, nc) : err;
}

int bcw__skipped_no_unit(const bcw_finder *f)
{
    bcw_buf b, funcs;
    bcw__buf_init(&b, 4096);
    bcw__buf_init(&funcs, 4096);
    int err = listing_put(&b, f->model->path,
                          ": no unit found (a unit is a struct with a "
                          "constructor returning T * or an init function "
                          "T_init(T *)); structs:",
                          "");
    int nstructs = 0, nfuncs = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(f->mod); fn != NULL && !err;
         fn = LLVMGetNextFunction(fn)) {
        bcw_sig s;
        if (LLVMIsDeclaration(fn))
            continue;
        err = listing_put(&funcs, " ", bcw__value_name(fn), "");
        nfuncs++;
        const char *why;
        if (!bcw__sig_load(f->mod, fn, &s, &why))
            continue;
        for (unsigned i = 0; i <= s.n && !err; i++) {
            const char *st = bcw__sig_struct(&s, i);
            char word[72];
            snprintf(word, sizeof word, " %s ", st ? st : "");
            if (st != NULL && (b.data == NULL || !strstr(b.data, word))) {
                err = listing_put(&b, " ", st, "");
                nstructs++;
            }
        }
    }
    if (err == 0)
        err = listing_put(&b, nstructs ? "" : " none", "; functions:",
                          nfuncs && funcs.data ? funcs.data : " none");
    if (err == 0)
        err = bcw__error(BCW_EINPUT, "%s", b.data ? b.data : "no unit found");
    bcw__buf_free(&b);
    bcw__buf_free(&funcs);
    return err;
}
