/* finder.c - unit discovery's shared state: every API function's
 * signature read once, and the units and symbols found so far, looked up
 * by name through hash indexes. */
#define _POSIX_C_SOURCE 200809L
#include "finder.h"

#include <llvm-c/DebugInfo.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

/* What the index lookups below confirm candidates against. */
typedef struct probe {
    const bcw_finder *f;
    const char *name;
    LLVMValueRef fn;
} probe;

static int unit_named(uint32_t i, const void *payload)
{
    const probe *p = payload;
    return strcmp(p->f->model->units[i].name, p->name) == 0;
}

static int sym_named(uint32_t i, const void *payload)
{
    const probe *p = payload;
    return strcmp(p->f->model->syms[i], p->name) == 0;
}

static int own_named(uint32_t i, const void *payload)
{
    const probe *p = payload;
    return strcmp(p->f->own[i], p->name) == 0;
}

static int sig_of_fn(uint32_t i, const void *payload)
{
    const probe *p = payload;
    return p->f->sigs[i].fn == p->fn;
}

const bcw_sig *bcw__finder_sig(const bcw_finder *f, LLVMValueRef fn)
{
    probe p = {f, NULL, fn};
    uint32_t i =
        fn ? bcw__index_get(&f->sig_ix, bcw__hash_ptr(fn), sig_of_fn, &p)
           : UINT32_MAX;
    return i == UINT32_MAX ? NULL : &f->sigs[i];
}

int bcw__finder_skip(bcw_finder *f, const char *fn, const char *why)
{
    bcw_model *m = f->model;
    if (bcw__grow(&m->skipped, &f->skipped_cap, m->nskipped + 1,
                  sizeof *m->skipped) < 0)
        return BCW_ENOMEM;
    m->skipped[m->nskipped] = bcw__sprintf("%s: %s", fn, why);
    return m->skipped[m->nskipped++] ? 0 : BCW_ENOMEM;
}

/* With other files linked in, the names of the functions the library's
 * own file defines, into f->own.  0 or BCW_ENOMEM. */
static int load_own(bcw_finder *f)
{
    unsigned n = LLVMGetNamedMetadataNumOperands(f->mod, BCW_OWN_MD);
    if (n == 0)
        return 0;
    LLVMValueRef *nodes = bcw__calloc(n, sizeof *nodes);
    if (nodes == NULL || (f->own = bcw__calloc(n, sizeof *f->own)) == NULL) {
        free(nodes);
        return BCW_ENOMEM;
    }
    LLVMGetNamedMetadataOperands(f->mod, BCW_OWN_MD, nodes);
    int err = 0;
    for (unsigned i = 0; i < n && err == 0; i++) {
        LLVMValueRef str = NULL;
        unsigned len = 0;
        if (LLVMGetMDNodeNumOperands(nodes[i]) == 1)
            LLVMGetMDNodeOperands(nodes[i], &str);
        const char *name = str ? LLVMGetMDString(str, &len) : NULL;
        if (name == NULL)
            continue;
        f->own[f->nown] = name;
        err = bcw__index_put(&f->own_ix, bcw__hash_str(name), f->nown++);
    }
    free(nodes);
    return err;
}

/* Is fn the library's own (always, unless files were linked in)? */
static bool is_own(const bcw_finder *f, LLVMValueRef fn)
{
    probe p = {f, bcw__value_name(fn), NULL};
    return f->own == NULL || bcw__index_get(&f->own_ix, bcw__hash_str(p.name),
                                            own_named, &p) != UINT32_MAX;
}

/* The static functions met so far, by where their debug info says they
 * are defined: a header's static (inline) function is emitted by every
 * file using it, and llvm-link renames the copies (lh_table_head.3). */
typedef struct copies {
    LLVMValueRef *fns;
    size_t n, cap;
    bcw_index ix; /* by definition() */
} copies;

/* The hash of fn's definition: its file and line; 0 without debug info
 * or when it is not static. */
static uint64_t definition(LLVMValueRef fn)
{
    LLVMLinkage l = LLVMGetLinkage(fn);
    LLVMMetadataRef sp = LLVMGetSubprogram(fn);
    if ((l != LLVMInternalLinkage && l != LLVMPrivateLinkage) || sp == NULL)
        return 0;
    unsigned len = 0;
    const char *file = bcw__function_file(fn, &len);
    unsigned line = LLVMDISubprogramGetLine(sp);
    return file == NULL
               ? 0
               : bcw__hash(&line, sizeof line, bcw__hash(file, len, 1));
}

static unsigned instructions(LLVMValueRef fn)
{
    unsigned n = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
         bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
             i = LLVMGetNextInstruction(i))
            n++;
    return n;
}

typedef struct same_probe {
    const copies *c;
    LLVMValueRef fn;
} same_probe;

/* Is copy i the same definition as p->fn: the same file and line, the
 * same type, as many instructions? */
static int same_definition(uint32_t i, const void *payload)
{
    const same_probe *p = payload;
    LLVMValueRef a = p->c->fns[i], b = p->fn;
    unsigned la = 0, lb = 0;
    const char *fa = bcw__function_file(a, &la);
    const char *fb = bcw__function_file(b, &lb);
    return la == lb && memcmp(fa, fb, la) == 0 &&
           LLVMDISubprogramGetLine(LLVMGetSubprogram(a)) ==
               LLVMDISubprogramGetLine(LLVMGetSubprogram(b)) &&
           LLVMGlobalGetValueType(a) == LLVMGlobalGetValueType(b) &&
           instructions(a) == instructions(b);
}

/* The function fn is a copy of (the first static function of the same
 * definition), or NULL, fn then kept among the copies.  *err on
 * BCW_ENOMEM. */
static LLVMValueRef copy_of(copies *c, LLVMValueRef fn, int *err)
{
    uint64_t h = definition(fn);
    if (h == 0 || LLVMIsDeclaration(fn))
        return NULL;
    same_probe p = {c, fn};
    uint32_t i = bcw__index_get(&c->ix, h, same_definition, &p);
    if (i != UINT32_MAX)
        return c->fns[i];
    if (bcw__grow(&c->fns, &c->cap, c->n + 1, sizeof *c->fns) < 0 ||
        bcw__index_put(&c->ix, h, (uint32_t)c->n) < 0)
        *err = BCW_ENOMEM;
    else
        c->fns[c->n++] = fn;
    return NULL;
}

/* fn skipped, `text` (taken; NULL: out of memory) saying why. */
static int skip_saying(bcw_finder *f, LLVMValueRef fn, char *text)
{
    int err =
        text ? bcw__finder_skip(f, bcw__value_name(fn), text) : BCW_ENOMEM;
    free(text);
    return err;
}

/* "is a copy of lh_table_head (linkhash.h:362) ...": fn skipped. */
static int skip_copy(bcw_finder *f, LLVMValueRef fn, LLVMValueRef of)
{
    unsigned len = 0;
    const char *file = bcw__function_file(of, &len);
    return skip_saying(
        f, fn,
        bcw__sprintf("is a copy of %s (%.*s:%u), the same static function "
                     "emitted again by another file: walked once",
                     bcw__value_name(of), (int)len, file,
                     LLVMDISubprogramGetLine(LLVMGetSubprogram(of))));
}

/* Fn's signature among f's, or fn skipped with why it cannot be
 * walked: a function its header leaves out, or one whose signature a
 * walk cannot call.  0 or BCW_ENOMEM. */
static int load_sig(bcw_finder *f, LLVMValueRef fn)
{
    const char *why;
    bool left;
    char *internal = bcw__api_left_out(f->api, fn, &left);
    if (left)
        return skip_saying(f, fn, internal);
    /* the slow path of a header's static inline API function */
    LLVMValueRef inline_api = bcw__sig_slow_path_of(f->mod, fn);
    if (inline_api != NULL) {
        unsigned len = 0;
        const char *file = bcw__function_file(inline_api, &len);
        return skip_saying(
            f, fn,
            bcw__sprintf("is called only by %s, a static function of %.*s: "
                         "walked through it, never alone",
                         bcw__value_name(inline_api), (int)len, file));
    }
    if (!bcw__sig_load(f->mod, fn, &f->sigs[f->nsigs], &why))
        return why != NULL ? bcw__finder_skip(f, bcw__value_name(fn), why) : 0;
    if (bcw__index_put(&f->sig_ix, bcw__hash_ptr(fn), f->nsigs) < 0)
        return BCW_ENOMEM;
    f->nsigs++;
    return 0;
}

/* Reads every API function's signature once: discovery goes over them
 * several times, and reading debug info and pointees is the analysis's
 * dearest part. */
static int load_sigs(bcw_finder *f)
{
    size_t cap = 0;
    copies c = {0};
    int err = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(f->mod); fn && err == 0;
         fn = LLVMGetNextFunction(fn)) {
        if (bcw__grow(&f->sigs, &cap, f->nsigs + 1, sizeof *f->sigs) < 0)
            err = BCW_ENOMEM;
        if (err < 0 || !is_own(f, fn))
            continue; /* a linked file's: there for its callers */
        LLVMValueRef of = copy_of(&c, fn, &err);
        if (err == 0 && of != NULL)
            err = skip_copy(f, fn, of);
        if (err < 0 || of != NULL)
            continue;
        err = load_sig(f, fn);
    }
    free(c.fns);
    bcw__index_free(&c.ix);
    return err;
}

int bcw__finder_init(bcw_finder *f, bcw_model *model, bcw_bitcode *bc,
                     const bcw_effects *fx)
{
    memset(f, 0, sizeof *f);
    f->model = model;
    f->mod = bc->mod;
    f->fx = fx;
    f->td = LLVMCreateTargetData(LLVMGetDataLayoutStr(bc->mod));
    int err = bcw__api_open(&f->api, f->mod);
    if (err == 0)
        bcw__api_record(f->api, model);
    if (err == 0)
        err = load_own(f);
    return err < 0 ? err : load_sigs(f);
}

void bcw__finder_dispose(bcw_finder *f)
{
    free(f->sigs);
    bcw__api_free(f->api);
    free(f->own);
    bcw__index_free(&f->own_ix);
    bcw__index_free(&f->sig_ix);
    free(f->origins);
    bcw__index_free(&f->unit_ix);
    bcw__index_free(&f->sym_ix);
    if (f->td != NULL)
        LLVMDisposeTargetData(f->td);
    memset(f, 0, sizeof *f);
}

int bcw__finder_unit(const bcw_finder *f, const char *name)
{
    if (name == NULL)
        return -1;
    probe p = {f, name, NULL};
    uint32_t i =
        bcw__index_get(&f->unit_ix, bcw__hash_str(name), unit_named, &p);
    return i == UINT32_MAX ? -1 : (int)i;
}

int bcw__finder_unit_by_prefix(const bcw_finder *f, const char *fn)
{
    char prefix[128];
    size_t n = strlen(fn);
    if (n >= sizeof prefix)
        return -1;
    memcpy(prefix, fn, n + 1);
    for (char *us = strrchr(prefix, '_'); us != NULL;
         us = strrchr(prefix, '_')) {
        *us = '\0';
        int unit = bcw__finder_unit(f, prefix);
        if (unit >= 0)
            return unit;
    }
    return -1;
}

int bcw__finder_add_unit(bcw_finder *f, unsigned i)
{
    return bcw__index_put(&f->unit_ix, bcw__hash_str(f->model->units[i].name),
                          i);
}

int bcw__finder_sym(bcw_finder *f, const char *name, unsigned *out)
{
    bcw_model *m = f->model;
    probe p = {f, name, NULL};
    uint64_t h = bcw__hash_str(name);
    uint32_t i = bcw__index_get(&f->sym_ix, h, sym_named, &p);
    if (i != UINT32_MAX) {
        *out = i;
        return 0;
    }
    if (bcw__grow(&m->syms, &f->syms_cap, m->nsyms + 1, sizeof *m->syms) < 0)
        return BCW_ENOMEM;
    if ((m->syms[m->nsyms] = bcw__strdup(name)) == NULL)
        return BCW_ENOMEM;
    *out = m->nsyms++;
    return bcw__index_put(&f->sym_ix, h, *out);
}
