/* skipped.c - the "no unit found" error listing the structs and
 * functions of the module, and saying when it looks like C++. */
#define _POSIX_C_SOURCE 200809L
#include "skipped.h"

#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "bitcode.h"
#include "diinfo.h"

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

/* Is name a word of buf's listing from `from` on (words after a space,
 * up to a space or the end)? */
static bool listed(const bcw_buf *buf, size_t from, const char *name)
{
    size_t n = strlen(name);
    for (size_t i = from; i + 1 + n <= buf->len; i++)
        if (buf->data[i] == ' ' && memcmp(buf->data + i + 1, name, n) == 0 &&
            (i + 1 + n == buf->len || buf->data[i + 1 + n] == ' '))
            return true;
    return false;
}

/* Whether module mod is C++, and why into why (n bytes): by its
 * compile units' language, or without debug information by a defined
 * function's mangled name (_Z...). */
static bool looks_cxx(LLVMModuleRef mod, char *why, size_t n)
{
    int cxx = bcw__di_cxx(mod);
    if (cxx >= 0) {
        snprintf(why, n, "its debug information's language is C++");
        return cxx == 1;
    }
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn != NULL;
         fn = LLVMGetNextFunction(fn)) {
        const char *name = bcw__value_name(fn);
        if (!LLVMIsDeclaration(fn) && strncmp(name, "_Z", 2) == 0) {
            snprintf(why, n, "%.100s is a mangled name", name);
            return true;
        }
    }
    return false;
}

int bcw__skipped_no_unit(const bcw_finder *f)
{
    bcw_buf b, funcs;
    bcw__buf_init(&b, 4096);
    bcw__buf_init(&funcs, 4096);
    char lang[160];
    bool cxx = looks_cxx(f->mod, lang, sizeof lang);
    int err = listing_put(&b, f->model->path,
                          ": no unit found (a unit is a struct with a "
                          "constructor returning T * or an init function "
                          "T_init(T *))",
                          "");
    /* before the listing, which the message may cut */
    if (err == 0 && cxx)
        err = listing_put(&b, "; this looks like C++ (", lang,
                          "): bcwalk walks C interfaces, so give each class "
                          "extern \"C\" wrappers (T *T_new(...), "
                          "T_free(T *), T_method(T *, ...))");
    if (err == 0)
        err = listing_put(&b, "; structs:", "", "");
    size_t structs_at = b.len;
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
            if (st != NULL && !listed(&b, structs_at, st)) {
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
