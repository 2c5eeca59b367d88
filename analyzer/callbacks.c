/* callbacks.c - what a callback parameter can be given: its kind (an
 * equality, a comparison, a hash, a predicate, a free function or a
 * visitor) from its shape and the words of its name and typedef, and
 * the module's functions of the same C type (typedefs resolved) whose
 * names do not tell another kind, as conditions naming each, added to
 * the symbol table so workers can pass its address. */
#define _POSIX_C_SOURCE 200809L
#include "callbacks.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "alloc.h"
#include "bitcode.h"
#include "diinfo.h"

#define MAX_CALLBACKS 4 /* module functions tried per callback */
#define MAX_WORDS 16    /* of an identifier, the first ones */

/* Words that tell a callback's kind, matched in any case as a whole
 * word or, for words of four letters and more, a word's beginning
 * (compar: compare, comparator); `suffix` ones end words too (strcmp,
 * strhash). */
static const struct {
    const char *word;
    enum bcw_callback kind;
    bool suffix;
} kind_words[] = {
    {"eq", BCW_CB_EQUAL, false},        {"equal", BCW_CB_EQUAL, false},
    {"equiv", BCW_CB_EQUAL, false},     {"same", BCW_CB_EQUAL, false},
    {"match", BCW_CB_EQUAL, false},     {"identical", BCW_CB_EQUAL, false},
    {"cmp", BCW_CB_COMPARE, true},      {"compar", BCW_CB_COMPARE, false},
    {"less", BCW_CB_COMPARE, false},    {"order", BCW_CB_COMPARE, false},
    {"collate", BCW_CB_COMPARE, false}, {"hash", BCW_CB_HASH, true},
    {"pred", BCW_CB_PREDICATE, false},  {"filter", BCW_CB_PREDICATE, false},
    {"test", BCW_CB_PREDICATE, false},  {"accept", BCW_CB_PREDICATE, false},
    {"keep", BCW_CB_PREDICATE, false},  {"select", BCW_CB_PREDICATE, false},
    {"is", BCW_CB_PREDICATE, false},    {"has", BCW_CB_PREDICATE, false},
    {"free", BCW_CB_FREE, true},        {"dealloc", BCW_CB_FREE, false},
    {"delete", BCW_CB_FREE, false},     {"destr", BCW_CB_FREE, false},
    {"dtor", BCW_CB_FREE, false},       {"release", BCW_CB_FREE, false},
    {"dispose", BCW_CB_FREE, false},    {"drop", BCW_CB_FREE, false},
    {"cleanup", BCW_CB_FREE, false},    {"final", BCW_CB_FREE, false},
    {"unref", BCW_CB_FREE, false},      {"visit", BCW_CB_VISIT, false},
    {"each", BCW_CB_VISIT, false},      {"foreach", BCW_CB_VISIT, false},
    {"iter", BCW_CB_VISIT, false},      {"walk", BCW_CB_VISIT, false},
    {"apply", BCW_CB_VISIT, false},
};

/* What a callback's signature allows: its result's ABI class and how
 * many of its arguments are pointers (elements or user data). */
typedef struct shape {
    enum bcw_abi ret;
    unsigned ptrs;
    bool known; /* a signature at all */
} shape;

static shape shape_of(const bcw_param *p)
{
    shape sh = {BCW_ABI_VOID, 0, p->nsig > 0};
    if (sh.known)
        sh.ret = (enum bcw_abi)p->sig[0];
    for (unsigned i = 1; i < p->nsig; i++)
        sh.ptrs += p->sig[i] == BCW_ABI_PTR;
    return sh;
}

static bool integer(enum bcw_abi abi)
{
    return abi != BCW_ABI_VOID && abi != BCW_ABI_PTR && abi != BCW_ABI_FLOAT &&
           abi != BCW_ABI_DOUBLE;
}

/* Kind k as a callback of shape sh can have it, or 0: a void callback
 * frees or visits; an integer one over one element hashes or tests it
 * (matching or comparing one element is a test), over two or more also
 * matches or compares the first two. */
static enum bcw_callback fit(enum bcw_callback k, shape sh)
{
    if (!sh.known)
        return 0;
    if (sh.ret == BCW_ABI_VOID)
        return k == BCW_CB_FREE || k == BCW_CB_VISIT ? k : 0;
    if (!integer(sh.ret) || sh.ptrs == 0 || k == BCW_CB_FREE ||
        k == BCW_CB_VISIT)
        return 0;
    if (sh.ptrs == 1 && (k == BCW_CB_EQUAL || k == BCW_CB_COMPARE))
        return BCW_CB_PREDICATE;
    return k;
}

/* A word of an identifier: n bytes at s. */
typedef struct word {
    const char *s;
    size_t n;
} word;

/* Splits identifier s into words at other characters and where case
 * changes: "HashTableEqualFunc" is Hash, Table, Equal, Func and
 * "HTTPHeader" HTTP, Header.  Returns how many, at most MAX_WORDS (the
 * first ones). */
static unsigned split(const char *s, word *out)
{
    unsigned n = 0;
    for (size_t i = 0; s != NULL && s[i] != '\0' && n < MAX_WORDS;) {
        if (!isalnum((unsigned char)s[i])) {
            i++;
            continue;
        }
        size_t j = i + 1;
        while (isalnum((unsigned char)s[j]) &&
               !(isupper((unsigned char)s[j]) &&
                 (!isupper((unsigned char)s[j - 1]) ||
                  islower((unsigned char)s[j + 1]))))
            j++;
        out[n++] = (word){s + i, j - i};
        i = j;
    }
    return n;
}

static bool names(word w, const char *stem, bool suffix)
{
    size_t len = strlen(stem);
    if (w.n < len)
        return false;
    if (strncasecmp(w.s, stem, len) == 0)
        return w.n == len || len >= 4;
    return suffix && strncasecmp(w.s + w.n - len, stem, len) == 0;
}

/* The kind identifier s tells for a callback of shape sh, or 0: its
 * last word that names one the shape allows ("HashTableKeyFreeFunc" of
 * a void callback: free). */
static enum bcw_callback told(const char *s, shape sh)
{
    word words[MAX_WORDS];
    for (unsigned i = split(s, words); i-- > 0;)
        for (size_t k = 0; k < sizeof kind_words / sizeof *kind_words; k++)
            if (names(words[i], kind_words[k].word, kind_words[k].suffix) &&
                fit(kind_words[k].kind, sh) != 0)
                return fit(kind_words[k].kind, sh);
    return 0;
}

enum bcw_callback bcw__callbacks_kind(const bcw_param *p, const char *fn)
{
    shape sh = shape_of(p);
    enum bcw_callback k = told(p->name, sh);
    if (k == 0)
        k = told(p->ctype, sh);
    if (k == 0 && fn != NULL)
        k = told(fn, sh);
    if (k != 0)
        return k;
    if (sh.known && sh.ret == BCW_ABI_VOID)
        return BCW_CB_VISIT;
    if (!sh.known || !integer(sh.ret) || sh.ptrs == 0)
        return BCW_CB_ZERO;
    bool is_signed = bcw_abi_signed(sh.ret);
    if (sh.ptrs >= 2)
        return is_signed ? BCW_CB_COMPARE : BCW_CB_EQUAL;
    return !is_signed && sh.ret != BCW_ABI_BOOL && bcw_abi_bits(sh.ret) >= 32
               ? BCW_CB_HASH
               : BCW_CB_PREDICATE;
}

/* Can callback parameter p, of kind `kind`, be given module function
 * fn of its type?  Unless fn's name tells another kind, or that it
 * frees: the elements a walk passes are the worker's cells, never the
 * heap's. */
static bool fits(LLVMValueRef fn, const bcw_param *p, enum bcw_callback kind)
{
    enum bcw_callback k = told(bcw__value_name(fn), shape_of(p));
    return k == 0 || (k == kind && k != BCW_CB_FREE);
}

/* Can a caller of the library name fn: is it external?  A static
 * function (json-c's object serializer, installed by the library itself
 * on objects only) is no argument any caller can pass. */
static bool nameable(LLVMValueRef fn)
{
    LLVMLinkage l = LLVMGetLinkage(fn);
    return l != LLVMInternalLinkage && l != LLVMPrivateLinkage;
}

/* Does fn call through a pointer to a function of its own type?  Such a
 * function dispatches to the callback it would be stored as (val_print
 * calling v->fmt): given as that callback, it calls itself forever. */
static bool dispatches(LLVMValueRef fn)
{
    LLVMTypeRef own = LLVMGlobalGetValueType(fn);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
         bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
             i = LLVMGetNextInstruction(i))
            if (LLVMIsACallInst(i) && !LLVMIsAFunction(LLVMGetCalledValue(i)) &&
                !LLVMIsAInlineAsm(LLVMGetCalledValue(i)) &&
                LLVMGetCalledFunctionType(i) == own)
                return true;
    return false;
}

/* The module's external functions that fit callback parameter p, slot
 * `slot` of `fn` (of the same C type, typedefs resolved, and of its
 * kind), dispatchers aside, in definition order: conditions whose value is the
 * function's name, each added to the symbol table so workers can pass its
 * address. */
static int find_callbacks_of(bcw_finder *f, LLVMValueRef fn, unsigned slot,
                             bcw_param *p)
{
    size_t cap = 0;
    char want[256], buf[256];
    if (!bcw__di_canonical(fn, slot, want, sizeof want))
        return 0;
    enum bcw_callback kind = bcw__callbacks_kind(p, bcw__value_name(fn));
    for (LLVMValueRef cb = LLVMGetFirstFunction(f->mod);
         cb && p->nconds < MAX_CALLBACKS; cb = LLVMGetNextFunction(cb)) {
        if (LLVMIsDeclaration(cb) || !nameable(cb) ||
            !bcw__di_canonical(cb, 0, buf, sizeof buf) ||
            strcmp(buf, want) != 0 || !fits(cb, p, kind) || dispatches(cb))
            continue;
        const char *name = bcw__value_name(cb);
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
        for (unsigned j = 0; j < u->nfuncs && err == 0; j++) {
            bcw_func *fun = &u->funcs[j];
            LLVMValueRef fn = LLVMGetNamedFunction(f->mod, fun->name);
            for (unsigned k = 0; k < fun->nparams && err == 0; k++)
                if (fn != NULL && fun->params[k].kind == BCW_PK_CALLBACK)
                    err = find_callbacks_of(f, fn, k + 1, &fun->params[k]);
        }
    }
    return err;
}
