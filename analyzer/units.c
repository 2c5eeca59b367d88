/* units.c - unit discovery: struct types with their constructors,
 * methods and destructors, and each parameter's kind.
 *
 * A pointer slot (a parameter or the result) names a unit when debug
 * info or the function's use of it says which struct it points to
 * (pointee.c).  Where neither can tell — optimised bitcode without -g,
 * whose GEPs are plain byte offsets from LLVM 18 on — names decide: a
 * function `X_new` returning a pointer makes unit X, and `X_push(p, ...)`
 * is its method. */
#define _POSIX_C_SOURCE 200809L
#include "units.h"

#include <llvm-c/Target.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "bitcode.h"
#include "contracts.h"
#include "diinfo.h"
#include "effects.h"
#include "fields.h"
#include "hash.h"
#include "model.h"
#include "pointee.h"

/* Last '_'-separated word of a function name names its role. */
static const char *const init_words[] = {"init",  "initialize", "initialise",
                                         "setup", "construct",  NULL};
static const char *const ctor_words[] = {"new",  "create", "alloc", "make",
                                         "open", "from",   NULL};
static const char *const dtor_words[] = {
    "free",   "destroy",  "delete",   "release", "dispose", "fini",
    "deinit", "finalize", "finalise", "cleanup", NULL};

static bool last_word_in(const char *name, const char *const *words)
{
    const char *w = strrchr(name, '_');
    w = w ? w + 1 : name;
    for (; *words != NULL; words++)
        if (strcmp(w, *words) == 0)
            return true;
    return false;
}

/* A function as unit discovery sees it. */
typedef struct sig {
    LLVMValueRef fn;
    const char *name;
    bool is_static;
    unsigned n;
    LLVMTypeRef types[BCW_MAX_PARAMS + 1]; /* [0] result, [i] param i */
    bcw_di_type di[BCW_MAX_PARAMS + 1];
    bcw_pointee pt[BCW_MAX_PARAMS + 1]; /* for pointer slots */
} sig;

static bool is_pointer(const sig *s, unsigned i)
{
    return i <= s->n && LLVMGetTypeKind(s->types[i]) == LLVMPointerTypeKind;
}

/* The struct slot i points to, or NULL. */
static const char *slot_struct(const sig *s, unsigned i)
{
    return is_pointer(s, i) && s->pt[i].kind == BCW_PT_STRUCT ? s->pt[i].name
                                                              : NULL;
}

/* The struct E of a cell slot E ** (debug info names it), or NULL. */
static const char *slot_cell(const sig *s, unsigned i)
{
    return is_pointer(s, i) && s->pt[i].kind == BCW_PT_POINTER &&
                   s->pt[i].name[0]
               ? s->pt[i].name
               : NULL;
}

/* A pointer whose target neither debug info nor uses could name. */
static bool weak_pointer(const sig *s, unsigned i)
{
    return is_pointer(s, i) && s->pt[i].kind != BCW_PT_STRUCT &&
           !s->pt[i].from_debug_info;
}

/* API functions: external ones, and static ones a header defines
 * (static inline accessors); static helpers in the .c file are not. */
static bool is_api(LLVMModuleRef mod, LLVMValueRef fn, bool *is_static)
{
    const char *name = bcw__value_name(fn);
    if (LLVMIsDeclaration(fn) || strncmp(name, "llvm.", 5) == 0 ||
        strcmp(name, "main") == 0 ||
        LLVMIsFunctionVarArg(LLVMGlobalGetValueType(fn)))
        return false;
    LLVMLinkage l = LLVMGetLinkage(fn);
    *is_static = l == LLVMInternalLinkage || l == LLVMPrivateLinkage;
    if (!*is_static)
        return true;
    unsigned flen = 0;
    size_t slen = 0;
    const char *file = bcw__function_file(fn, &flen);
    const char *src = LLVMGetSourceFileName(mod, &slen);
    if (file == NULL || src == NULL)
        return false;
    /* debug info names the defining file; a header's name differs from
     * the translation unit's */
    return !(flen == slen && memcmp(file, src, slen) == 0) && flen > 2 &&
           file[flen - 2] == '.' && file[flen - 1] == 'h';
}

/* Reads fn's signature; false for functions that are not API or have
 * more parameters than bcwalk passes. */
static bool load_sig(LLVMModuleRef mod, LLVMValueRef fn, sig *s)
{
    memset(s, 0, sizeof *s);
    if (!is_api(mod, fn, &s->is_static))
        return false;
    LLVMTypeRef ft = LLVMGlobalGetValueType(fn);
    s->fn = fn;
    s->name = bcw__value_name(fn);
    s->n = LLVMCountParamTypes(ft);
    if (s->n > BCW_MAX_PARAMS)
        return false;
    s->types[0] = LLVMGetReturnType(ft);
    LLVMGetParamTypes(ft, &s->types[1]);
    bcw__di_signature(fn, s->di, BCW_MAX_PARAMS + 1);
    for (unsigned i = 0; i <= s->n; i++)
        if (LLVMGetTypeKind(s->types[i]) == LLVMPointerTypeKind)
            bcw__pointee(fn, i, &s->di[i], &s->pt[i]);
    return true;
}

typedef struct finder {
    bcw_model *model;
    LLVMModuleRef mod;
    LLVMTargetDataRef td;
    const bcw_effects *fx;
    size_t units_cap, skipped_cap, syms_cap, origins_cap;
    /* unit i was made from constructor origin_fn[i], slot origin_slot[i] */
    LLVMValueRef *origin_fn;
    unsigned *origin_slot;
    bcw_index unit_ix, sym_ix; /* names of units and symbols */
    sig *sigs;                 /* every API function's, read once */
    unsigned nsigs;
    bcw_index sig_ix; /* by function */
} finder;

typedef struct probe {
    const bcw_model *m;
    const char *name;
    const finder *f;
    LLVMValueRef fn;
} probe;

static int unit_named(uint32_t i, const void *payload)
{
    const probe *p = payload;
    return strcmp(p->m->units[i].name, p->name) == 0;
}

static int sig_of_fn(uint32_t i, const void *payload)
{
    const probe *p = payload;
    return p->f->sigs[i].fn == p->fn;
}

/* The signature of API function `fn`, or NULL. */
static const sig *sig_of(const finder *f, LLVMValueRef fn)
{
    probe p = {NULL, NULL, f, fn};
    uint32_t i =
        fn ? bcw__index_get(&f->sig_ix, bcw__hash_ptr(fn), sig_of_fn, &p)
           : UINT32_MAX;
    return i == UINT32_MAX ? NULL : &f->sigs[i];
}

/* Reads every API function's signature once: the passes below go over
 * them several times, and reading debug info and pointees is the
 * analysis's dearest part. */
static int load_sigs(finder *f)
{
    size_t cap = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(f->mod); fn;
         fn = LLVMGetNextFunction(fn)) {
        if (bcw__grow(&f->sigs, &cap, f->nsigs + 1, sizeof *f->sigs) < 0)
            return BCW_ENOMEM;
        if (!load_sig(f->mod, fn, &f->sigs[f->nsigs]))
            continue;
        if (bcw__index_put(&f->sig_ix, bcw__hash_ptr(fn), f->nsigs) < 0)
            return BCW_ENOMEM;
        f->nsigs++;
    }
    return 0;
}

static int sym_named(uint32_t i, const void *payload)
{
    const probe *p = payload;
    return strcmp(p->m->syms[i], p->name) == 0;
}

static int find_unit(const finder *f, const char *name)
{
    if (name == NULL)
        return -1;
    probe p = {f->model, name, NULL, NULL};
    uint32_t i =
        bcw__index_get(&f->unit_ix, bcw__hash_str(name), unit_named, &p);
    return i == UINT32_MAX ? -1 : (int)i;
}

/* The unit whose name is the longest "X_" prefix of `fn`, or -1. */
static int unit_by_prefix(const finder *f, const char *fn)
{
    char prefix[128];
    size_t n = strlen(fn);
    if (n >= sizeof prefix)
        return -1;
    memcpy(prefix, fn, n + 1);
    for (char *us = strrchr(prefix, '_'); us != NULL;
         us = strrchr(prefix, '_')) {
        *us = '\0';
        int unit = find_unit(f, prefix);
        if (unit >= 0)
            return unit;
    }
    return -1;
}

static enum bcw_abi scalar_abi(LLVMTypeRef t, bool is_unsigned)
{
    switch (LLVMGetTypeKind(t)) {
    case LLVMIntegerTypeKind:
        return bcw_abi_int(LLVMGetIntTypeWidth(t), is_unsigned);
    case LLVMFloatTypeKind:
        return BCW_ABI_FLOAT;
    case LLVMDoubleTypeKind:
        return BCW_ABI_DOUBLE;
    case LLVMPointerTypeKind:
        return BCW_ABI_PTR;
    default:
        return BCW_ABI_VOID;
    }
}

static const char *abi_spelling(enum bcw_abi abi)
{
    static const char *const names[] = {
        "void",  "bool",           "signed char", "unsigned char",
        "short", "unsigned short", "int",         "unsigned int",
        "long",  "unsigned long",  "float",       "double",
        "void *"};
    return names[abi];
}

/* classify's answer when an allocation failed: an error, not a skip */
static const char out_of_memory[] = "out of memory";

/* Does the function test pointer `p` against NULL? */
static bool compared_with_null(LLVMValueRef p)
{
    for (LLVMUseRef u = LLVMGetFirstUse(p); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (LLVMIsAICmpInst(user) &&
            (LLVMIsAConstantPointerNull(LLVMGetOperand(user, 0)) ||
             LLVMIsAConstantPointerNull(LLVMGetOperand(user, 1))))
            return true;
    }
    return false;
}

/* Is pointer `p` only stored through, never read or passed on? */
static bool only_written(LLVMValueRef p)
{
    bool stored = false;
    for (LLVMUseRef u = LLVMGetFirstUse(p); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == p)
            stored = true;
        else if (!(LLVMIsAICmpInst(user) || LLVMIsADbgInfoIntrinsic(user)))
            return false;
    }
    return stored;
}

/* Is `v` an address inside the block `base` points to? */
static bool derived_from(LLVMValueRef v, LLVMValueRef base, int hops)
{
    if (v == base)
        return true;
    if (hops > 8 || v == NULL)
        return false;
    if (LLVMIsAGetElementPtrInst(v) || LLVMIsABitCastInst(v))
        return derived_from(LLVMGetOperand(v, 0), base, hops + 1);
    if (LLVMIsALoadInst(v)) /* through the unit's pointer fields */
        return derived_from(LLVMGetOperand(v, 0), base, hops + 1);
    if (LLVMIsASelectInst(v))
        return derived_from(LLVMGetOperand(v, 1), base, hops + 1) ||
               derived_from(LLVMGetOperand(v, 2), base, hops + 1);
    if (LLVMIsAPHINode(v)) {
        for (unsigned k = 0; k < LLVMCountIncoming(v); k++)
            if (derived_from(LLVMGetIncomingValue(v, k), base, hops + 1))
                return true;
    }
    return false;
}

/* Does `fn` return a pointer into its first argument's memory (an
 * element, a node, an iterator)?  The argument itself does not count. */
static bool points_into(LLVMValueRef fn, LLVMValueRef base)
{
    if (base == NULL ||
        LLVMGetTypeKind(LLVMTypeOf(base)) != LLVMPointerTypeKind)
        return false;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
         bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
        if (t == NULL || !LLVMIsAReturnInst(t) || LLVMGetNumOperands(t) != 1)
            continue;
        LLVMValueRef v = LLVMGetOperand(t, 0);
        if (v != base && derived_from(v, base, 0))
            return true;
    }
    return false;
}

/* Classifies a pointer slot that is not the unit itself. */
static const char *classify_pointer(const finder *f, const sig *s, unsigned i,
                                    bcw_param *out)
{
    const bcw_pointee *pt = &s->pt[i];
    out->abi = BCW_ABI_PTR;
    if (i == 0) {
        out->kind = BCW_PK_ELEMENT; /* returned pointers are symbolic */
        return NULL;
    }
    /* a char or byte pointer only ever stored through is an out-parameter
     * (`char *out`), not a string */
    if (pt->kind == BCW_PT_CHAR && only_written(LLVMGetParam(s->fn, i - 1))) {
        out->kind = BCW_PK_OUT;
        out->pointee = pt->is_unsigned ? BCW_ABI_U8 : BCW_ABI_S8;
        out->pointee_size = 1;
        return NULL;
    }
    switch (pt->kind) {
    case BCW_PT_FUNCTION:
        out->kind = BCW_PK_CALLBACK;
        out->detail =
            bcw__strdup(s->di[i].known && s->di[i].detail[0] ? s->di[i].detail
                                                             : "void (*)()");
        out->nsig = (uint8_t)s->di[i].nsig;
        memcpy(out->sig, s->di[i].sig, s->di[i].nsig);
        return out->detail ? NULL : out_of_memory;
    case BCW_PT_CHAR:
        out->kind = BCW_PK_STRING;
        break;
    case BCW_PT_SCALAR:
        out->kind = BCW_PK_OUT;
        out->pointee = scalar_abi(pt->type, pt->is_unsigned);
        out->pointee_size = (uint32_t)LLVMABISizeOfType(f->td, pt->type);
        if (out->pointee == BCW_ABI_VOID)
            return "pointer to an unsupported scalar";
        break;
    case BCW_PT_POINTER:
        out->kind = BCW_PK_OUT; /* a handle written back: T **out */
        out->pointee = BCW_ABI_PTR;
        out->pointee_size = 8;
        break;
    case BCW_PT_STRUCT: {
        uint64_t size = pt->bits / 8;
        int other = find_unit(f, pt->name);
        if (size == 0 && pt->type != NULL && LLVMTypeIsSized(pt->type))
            size = LLVMABISizeOfType(f->td, pt->type);
        if (size == 0 && other >= 0)
            size = f->model->units[other].size;
        out->kind = BCW_PK_SCRATCH;
        if (other >= 0) {
            out->kind = BCW_PK_UNIT_REF;
            if ((out->detail = bcw__strdup(pt->name)) == NULL)
                return out_of_memory;
        }
        out->pointee_size = (uint32_t)(size == 0     ? 64
                                       : size > 4096 ? 4096
                                                     : size);
        break;
    }
    default:
        out->kind = BCW_PK_ELEMENT;
        break;
    }
    return NULL;
}

/* Classifies slot i of `s` (0 the result) from its LLVM type, its
 * attributes and debug info.  `is_unit` says the slot is the unit.
 * Returns a reason if bcwalk cannot pass or read it. */
static const char *classify(const finder *f, const sig *s, unsigned i,
                            const char *unit, bool is_unit, bcw_param *out)
{
    memset(out, 0, sizeof *out);
    out->pair = -1;
    const bcw_di_type *di = &s->di[i];
    LLVMTypeRef t = s->types[i];
    out->kind = BCW_PK_INT;
    const char *why = NULL;
    switch (LLVMGetTypeKind(t)) {
    case LLVMVoidTypeKind:
        out->kind = BCW_PK_NONE;
        out->abi = BCW_ABI_VOID;
        break;
    case LLVMIntegerTypeKind: {
        unsigned bits = LLVMGetIntTypeWidth(t);
        unsigned zext = LLVMGetEnumAttributeKindForName("zeroext", 7);
        bool is_unsigned =
            di->known ? di->is_unsigned
                      : LLVMGetEnumAttributeAtIndex(s->fn, i, zext) != NULL;
        out->abi = bcw_abi_int(bits, is_unsigned);
        if (out->abi == BCW_ABI_VOID)
            return "integer width not supported";
        if (bits == 1 || (di->known && di->is_bool)) {
            out->kind = BCW_PK_BOOL;
        } else if (bits == 8 && (!di->known || di->is_char)) {
            out->kind = BCW_PK_CHAR;
        } else if (di->known && di->is_enum) {
            out->kind = BCW_PK_ENUM;
            if ((out->detail = bcw__strdup(di->detail)) == NULL)
                return out_of_memory;
        }
        break;
    }
    case LLVMFloatTypeKind:
    case LLVMDoubleTypeKind:
        out->kind = BCW_PK_FLOAT;
        out->abi = scalar_abi(t, false);
        break;
    case LLVMPointerTypeKind:
        if (is_unit) {
            out->kind = BCW_PK_UNIT;
            out->abi = BCW_ABI_PTR;
        } else if ((why = classify_pointer(f, s, i, out)) != NULL) {
            return why;
        }
        out->nullable = i > 0 && compared_with_null(LLVMGetParam(s->fn, i - 1));
        out->into_unit = i == 0 && points_into(s->fn, LLVMGetParam(s->fn, 0));
        break;
    default:
        return "aggregate passed by value is not supported yet";
    }
    if (out->kind == BCW_PK_CALLBACK)
        out->ctype = bcw__strdup(out->detail);
    else if (di->known)
        out->ctype = bcw__strdup(di->spelling);
    else if (out->kind == BCW_PK_UNIT)
        out->ctype = bcw__sprintf("struct %s *", unit);
    else if (out->kind == BCW_PK_STRING)
        out->ctype = bcw__strdup("char *");
    else if (out->kind == BCW_PK_OUT && out->pointee == BCW_ABI_PTR)
        out->ctype = bcw__strdup("void **");
    else if (out->kind == BCW_PK_OUT)
        out->ctype = bcw__sprintf("%s *", abi_spelling(out->pointee));
    else
        out->ctype = bcw__strdup(abi_spelling(out->abi));
    out->name = di->known && di->name[0] ? bcw__strdup(di->name)
                : i == 0                 ? bcw__strdup("result")
                                         : bcw__sprintf("p%u", i);
    if (out->ctype == NULL || out->name == NULL)
        return out_of_memory;
    return NULL;
}

static int skip(finder *f, const char *fn, const char *why)
{
    bcw_model *m = f->model;
    if (bcw__grow(&m->skipped, &f->skipped_cap, m->nskipped + 1,
                  sizeof *m->skipped) < 0)
        return BCW_ENOMEM;
    m->skipped[m->nskipped] = bcw__sprintf("%s: %s", fn, why);
    return m->skipped[m->nskipped++] ? 0 : BCW_ENOMEM;
}

static int add_sym(finder *f, const char *name, unsigned *out)
{
    bcw_model *m = f->model;
    probe p = {m, name, NULL, NULL};
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

/* A length parameter by its name or its type: len, size, n, count, cap,
 * nbytes, or a size_t. */
static bool is_length(const bcw_param *p)
{
    static const char *const words[] = {"len",    "length",   "size",
                                        "n",      "count",    "cap",
                                        "nbytes", "capacity", NULL};
    if (p->kind != BCW_PK_INT || p->abi == BCW_ABI_BOOL)
        return false;
    if (strstr(p->ctype, "size_t") != NULL)
        return true;
    for (const char *const *w = words; *w; w++)
        if (strcmp(p->name, *w) == 0 ||
            (strlen(*w) > 2 && strstr(p->name, *w) != NULL))
            return true;
    return false;
}

/* A byte pointer followed by its length is one buffer argument. */
static void pair_buffers(bcw_func *f)
{
    for (unsigned i = 0; i + 1 < f->nparams; i++) {
        bcw_param *p = &f->params[i], *n = &f->params[i + 1];
        if ((p->kind == BCW_PK_STRING || p->kind == BCW_PK_ELEMENT) &&
            is_length(n)) {
            p->kind = BCW_PK_BUFFER;
            n->kind = BCW_PK_LENGTH;
            p->pointee_size = BCW_BUFFER_BYTES;
            p->pair = (int)i + 1;
            n->pair = (int)i;
        }
    }
}

/* Adds `s` to unit `unit` with `role`, classifying its signature. */
static int add_func(finder *f, int unit, const sig *s, enum bcw_role role,
                    int self, int out)
{
    bcw_unit *u = &f->model->units[unit];
    bcw_func fun = {0};
    fun.role = role;
    fun.self = self;
    fun.is_static = s->is_static;
    fun.nparams = s->n;
    /* the unit is a heap constructor's result, a method's `self`, or any
     * parameter of the unit's type */
    const char *ret_struct = slot_struct(s, 0);
    const char *why =
        classify(f, s, 0, u->name,
                 (role == BCW_ROLE_CONSTRUCTOR && out < 0) ||
                     (ret_struct && strcmp(ret_struct, u->name) == 0),
                 &fun.ret);
    for (unsigned i = 1; why == NULL && i <= s->n; i++) {
        bool is_unit =
            (int)i - 1 == self ||
            (slot_struct(s, i) && strcmp(slot_struct(s, i), u->name) == 0) ||
            (u->cell && slot_cell(s, i) &&
             strcmp(slot_cell(s, i), u->name) == 0);
        why = classify(f, s, i, u->name, is_unit, &fun.params[i - 1]);
        /* a cell unit's E * argument is the cell's current value */
        if (why == NULL && u->cell && is_unit && slot_struct(s, i) != NULL)
            fun.params[i - 1].kind = BCW_PK_UNIT_DEREF;
        if (why == NULL && (int)i - 1 == out) {
            bcw_param *p = &fun.params[i - 1];
            p->kind = BCW_PK_UNIT_OUT;
            if (!s->di[i].known) {
                free(p->ctype);
                if ((p->ctype = bcw__sprintf("struct %s **", u->name)) == NULL)
                    why = out_of_memory;
            }
        }
    }
    /* s = str_cat(s, t): a new handle for the unit, the old one gone */
    fun.rebinds = self >= 0 && fun.ret.kind == BCW_PK_UNIT &&
                  (bcw__effects_moves(f->fx, s->name, (unsigned)self) ||
                   bcw__effects_frees(f->fx, s->name, (unsigned)self));
    if (why == NULL && role == BCW_ROLE_CONSTRUCTOR)
        for (unsigned i = 0; why == NULL && i < s->n; i++)
            if (fun.params[i].kind == BCW_PK_UNIT)
                why = "constructor taking its own unit";
    if (why == NULL)
        pair_buffers(&fun);
    for (unsigned i = 0; why == NULL && i < s->n; i++) {
        const bcw_param *p = &fun.params[i];
        const char *what = NULL;
        if (p->kind == BCW_PK_CALLBACK && p->nsig == 0)
            what = "is a callback whose signature bcwalk cannot call "
                   "(no debug info, variadic or an aggregate)";
        else if (strstr(p->ctype, "va_list") != NULL ||
                 strcmp(s->pt[i + 1].name, "__va_list_tag") == 0)
            what = "is a va_list; bcwalk cannot make one";
        if (what != NULL && fun.unwalkable == NULL &&
            (fun.unwalkable = bcw__sprintf("%s %s", p->name, what)) == NULL)
            why = out_of_memory;
    }
    int err = 0;
    if (why == out_of_memory) {
        err = BCW_ENOMEM;
        goto done;
    }
    if (why != NULL) {
        err = skip(f, s->name, why);
        goto done;
    }
    if (role == BCW_ROLE_OBSERVER) {
        const char *reason = NULL;
        if (bcw__effects_writes(f->fx, s->name, (unsigned)self, &reason)) {
            fun.role = BCW_ROLE_MUTATOR;
            fun.why = bcw__strdup(reason ? reason : "may write");
            if (fun.why == NULL) {
                err = BCW_ENOMEM;
                goto done;
            }
        }
    }
    if ((fun.name = bcw__strdup(s->name)) == NULL ||
        add_sym(f, s->name, &fun.sym) < 0) {
        err = BCW_ENOMEM;
        goto done;
    }
    size_t cap = u->nfuncs; /* grown one at a time: units are small */
    if (bcw__grow(&u->funcs, &cap, u->nfuncs + 1, sizeof *u->funcs) < 0) {
        err = BCW_ENOMEM;
        goto done;
    }
    u->funcs[u->nfuncs++] = fun;
    return 0;
done:
    bcw__param_free(&fun.ret);
    for (unsigned i = 0; i < s->n; i++)
        bcw__param_free(&fun.params[i]);
    free(fun.name);
    free(fun.why);
    free(fun.unwalkable);
    return err;
}

/* Makes unit `name` from constructor `s` whose slot `slot` is the unit. */
static int new_unit(finder *f, const char *name, const sig *s, unsigned slot)
{
    bcw_model *m = f->model;
    if (bcw__grow(&m->units, &f->units_cap, m->nunits + 1, sizeof *m->units) <
        0)
        return BCW_ENOMEM;
    size_t ocap = f->origins_cap;
    if (bcw__grow(&f->origin_fn, &f->origins_cap, m->nunits + 1,
                  sizeof *f->origin_fn) < 0 ||
        bcw__grow(&f->origin_slot, &ocap, m->nunits + 1,
                  sizeof *f->origin_slot) < 0)
        return BCW_ENOMEM;
    f->origin_fn[m->nunits] = s->fn;
    f->origin_slot[m->nunits] = slot;
    bcw_unit *u = &m->units[m->nunits];
    memset(u, 0, sizeof *u);
    m->nunits++; /* counted first: bcw_model_free frees what follows */
    u->name = bcw__strdup(name);
    /* the constructor's result (or init argument) spells the type as the
     * library's users write it: a typedef if there is one */
    const bcw_di_type *t = &s->di[slot];
    if (t->known && t->is_pointer) {
        size_t len = strlen(t->spelling);
        u->ctype = bcw__strndup(t->spelling, len >= 2 ? len - 2 : len);
    } else {
        u->ctype = bcw__sprintf("struct %s", name);
    }
    const bcw_pointee *pt = &s->pt[slot];
    if (pt->kind == BCW_PT_STRUCT) {
        u->size = pt->bits / 8;
        if (u->size == 0 && pt->type != NULL && LLVMTypeIsSized(pt->type))
            u->size = LLVMABISizeOfType(f->td, pt->type);
    } else {
        u->size = pt->alloc_bytes; /* what its constructor allocates */
    }
    if (u->name == NULL || u->ctype == NULL ||
        bcw__index_put(&f->unit_ix, bcw__hash_str(name), m->nunits - 1) < 0)
        return BCW_ENOMEM;
    return (int)m->nunits - 1;
}

/* A unit living in its callers' cells, seen first in `s` (whose first
 * parameter is the cell): its constructor is the empty cell. */
static int new_cell_unit(finder *f, const char *name, const sig *s)
{
    int unit = new_unit(f, name, s, 1);
    if (unit < 0)
        return unit;
    bcw_unit *u = &f->model->units[unit];
    u->cell = true;
    u->size = sizeof(void *); /* the cell */
    free(u->ctype);
    const bcw_di_type *t = &s->di[1];
    size_t len = t->known ? strlen(t->spelling) : 0;
    u->ctype = len > 3 ? bcw__strndup(t->spelling, len - 1)
                       : bcw__sprintf("struct %s *", name);
    u->funcs = bcw__calloc(1, sizeof *u->funcs);
    if (u->ctype == NULL || u->funcs == NULL)
        return BCW_ENOMEM;
    bcw_func *e = &u->funcs[0];
    e->role = BCW_ROLE_EMPTY;
    e->self = -1;
    e->sym = UINT32_MAX;
    e->ret.kind = BCW_PK_UNIT;
    e->ret.abi = BCW_ABI_PTR;
    e->ret.pair = -1;
    e->name = bcw__strdup("(empty)");
    e->ret.name = bcw__strdup("result");
    e->ret.ctype = bcw__strdup(u->ctype);
    if (e->name == NULL || e->ret.name == NULL || e->ret.ctype == NULL)
        return BCW_ENOMEM;
    u->nfuncs = 1;
    return unit;
}

static int no_unit_error(finder *f)
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
        sig s;
        if (LLVMIsDeclaration(fn))
            continue;
        bcw__buf_printf(&funcs, " %s", bcw__value_name(fn));
        nfuncs++;
        if (!load_sig(f->mod, fn, &s))
            continue;
        for (unsigned i = 0; i <= s.n; i++) {
            const char *st = slot_struct(&s, i);
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

/* The T **out slot of a constructor `t_open(..., T **out)` that debug
 * info does not describe: a pointer the function stores a pointer into,
 * in a function named as a constructor.  0 if none. */
static unsigned out_slot(const sig *s)
{
    if (!last_word_in(s->name, ctor_words))
        return 0;
    for (unsigned i = 1; i <= s->n; i++)
        if (weak_pointer(s, i) && s->pt[i].kind == BCW_PT_POINTER)
            return i;
    return 0;
}

/* Does `s` take a pointer to a struct (other than a T **out)? */
static int takes_struct(const sig *s)
{
    for (unsigned i = 1; i <= s->n; i++)
        if (slot_struct(s, i) != NULL)
            return 1;
    return 0;
}

/* Pass 1: does `s` construct a unit?  Returns its name and the slot that
 * holds it, or NULL. */
static const char *constructs(const sig *s, unsigned *slot, char *buf, size_t n)
{
    const char *ret = slot_struct(s, 0);
    const char *first = s->n > 0 ? slot_struct(s, 1) : NULL;
    *slot = 0;
    if (ret != NULL && (first == NULL || strcmp(first, ret) != 0))
        return ret;
    *slot = 1;
    if (first != NULL && last_word_in(s->name, init_words))
        return first;
    /* int t_open(..., T **out): debug info names T */
    if (last_word_in(s->name, ctor_words))
        for (unsigned i = 1; i <= s->n; i++)
            if (is_pointer(s, i) && s->pt[i].kind == BCW_PT_POINTER &&
                s->pt[i].name[0]) {
                *slot = i;
                return s->pt[i].name;
            }
    /* no struct information: the name's prefix names the unit */
    const char *us = strrchr(s->name, '_');
    if (us == NULL || us == s->name || (size_t)(us - s->name) >= n)
        return NULL;
    bool by_result = weak_pointer(s, 0) && last_word_in(s->name, ctor_words);
    bool by_init =
        s->n > 0 && weak_pointer(s, 1) && last_word_in(s->name, init_words);
    unsigned by_out = by_result || by_init ? 0 : out_slot(s);
    if (!by_result && !by_init && !by_out)
        return NULL;
    *slot = by_result ? 0 : by_out ? by_out : 1;
    memcpy(buf, s->name, (size_t)(us - s->name));
    buf[us - s->name] = '\0';
    return buf;
}

/* Pass 2: the unit and role of `s`, or -1; *self is the parameter that
 * is the unit (-1 for constructors), *out a constructor's T **out. */
static int role_of(const finder *f, const sig *s, enum bcw_role *role,
                   int *self, int *out)
{
    const char *ret = slot_struct(s, 0);
    const char *first = s->n > 0 ? slot_struct(s, 1) : NULL;
    int unit;
    *self = -1;
    *out = -1;
    if (ret != NULL && (first == NULL || strcmp(first, ret) != 0) &&
        (unit = find_unit(f, ret)) >= 0) {
        *role = BCW_ROLE_CONSTRUCTOR;
        return unit;
    }
    if (weak_pointer(s, 0) && last_word_in(s->name, ctor_words) &&
        !(s->n > 0 && (first != NULL || weak_pointer(s, 1))) &&
        (unit = unit_by_prefix(f, s->name)) >= 0) {
        *role = BCW_ROLE_CONSTRUCTOR;
        return unit;
    }
    /* t_with_capacity(int): returns a fresh block of the unit's size */
    if (weak_pointer(s, 0) && s->pt[0].alloc_bytes > 0 &&
        !(s->n > 0 && (first != NULL || weak_pointer(s, 1))) &&
        (unit = unit_by_prefix(f, s->name)) >= 0 &&
        f->model->units[unit].size == s->pt[0].alloc_bytes) {
        *role = BCW_ROLE_CONSTRUCTOR;
        return unit;
    }
    /* int t_open(..., T **out) */
    if (last_word_in(s->name, ctor_words)) {
        for (unsigned i = 1; i <= s->n; i++) {
            unit = -1;
            if (is_pointer(s, i) && s->pt[i].kind == BCW_PT_POINTER)
                unit = s->pt[i].name[0]     ? find_unit(f, s->pt[i].name)
                       : weak_pointer(s, i) ? unit_by_prefix(f, s->name)
                                            : -1;
            if (unit >= 0) {
                *role = BCW_ROLE_CONSTRUCTOR;
                *out = (int)i - 1;
                return unit;
            }
        }
    }
    /* the unit is the first parameter (or the cell holding it), or
     * failing that the first one of a unit's type: map_put(int k, map *m) */
    unit = find_unit(f, first);
    if (unit < 0 && s->n > 0)
        unit = find_unit(f, slot_cell(s, 1));
    *self = 0;
    for (unsigned i = 2; unit < 0 && i <= s->n; i++) {
        unit = find_unit(f, slot_struct(s, i));
        *self = (int)i - 1;
    }
    if (unit < 0 && s->n > 0 && weak_pointer(s, 1)) {
        unit = unit_by_prefix(f, s->name);
        *self = 0;
    }
    if (unit < 0)
        return -1;
    if (last_word_in(s->name, init_words) && *self == 0 && ret == NULL)
        *role = BCW_ROLE_INIT_CONSTRUCTOR;
    else if ((last_word_in(s->name, dtor_words) ||
              bcw__effects_frees(f->fx, s->name, (unsigned)*self)) &&
             !(ret != NULL && find_unit(f, ret) == unit))
        *role = BCW_ROLE_DESTRUCTOR;
    else
        *role = BCW_ROLE_OBSERVER; /* add_func refines it */
    return unit;
}

/* Appends a copy of `name` to a string array unless it is there. */
static int strv_add(char ***v, unsigned *n, const char *name)
{
    for (unsigned i = 0; i < *n; i++)
        if (strcmp((*v)[i], name) == 0)
            return 0;
    size_t cap = *n;
    if (bcw__grow(v, &cap, *n + 1, sizeof **v) < 0 ||
        ((*v)[*n] = bcw__strdup(name)) == NULL)
        return BCW_ENOMEM;
    (*n)++;
    return 0;
}

static bcw_handle *handle_of(bcw_unit *u, const char *type, int *err)
{
    for (unsigned i = 0; i < u->nhandles; i++)
        if (strcmp(u->handles[i].type, type) == 0)
            return &u->handles[i];
    size_t cap = u->nhandles;
    if (bcw__grow(&u->handles, &cap, u->nhandles + 1, sizeof *u->handles) < 0) {
        *err = BCW_ENOMEM;
        return NULL;
    }
    bcw_handle *h = &u->handles[u->nhandles];
    memset(h, 0, sizeof *h);
    if ((h->type = bcw__strdup(type)) == NULL) {
        *err = BCW_ENOMEM;
        return NULL;
    }
    u->nhandles++;
    return h;
}

/* Derived handles: structs (not units) that a unit's methods return and
 * other functions take, like list_first's node for node_next and
 * node_value; the unit's mutators that free memory it reaches may leave
 * them dangling. */
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
static int find_callbacks_of(finder *f, bcw_param *p)
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
        int err = add_sym(f, name, &sym);
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

static int find_callbacks(finder *f)
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

/* Makes parameter k of `fn` take a `type` handle. */
static int mark_handle_param(bcw_func *fn, unsigned k, const char *type)
{
    if (k >= fn->nparams || fn->params[k].kind == BCW_PK_HANDLE)
        return 0;
    bcw_param *p = &fn->params[k];
    free(p->detail);
    p->kind = BCW_PK_HANDLE;
    p->pointee_size = 0;
    if ((p->detail = bcw__strdup(type)) == NULL)
        return BCW_ENOMEM;
    if (strstr(p->ctype, type) == NULL) {
        free(p->ctype); /* no debug info: classify named the unit */
        if ((p->ctype = bcw__sprintf("struct %s *", type)) == NULL)
            return BCW_ENOMEM;
    }
    return 0;
}

/* Makes the users of handle `h` functions of unit `unit`, so walks can
 * call them: with no unit parameter (`self` -1) and the handle first
 * (BCW_PK_HANDLE), an observer or a mutator as their writes through it
 * say.  Users that are already the unit's methods get the kind only. */
static int add_handle_users(finder *f, unsigned unit, const bcw_handle *h)
{
    for (unsigned i = 0; i < h->nusers; i++) {
        bcw_unit *u = &f->model->units[unit];
        const sig *s = sig_of(f, LLVMGetNamedFunction(f->mod, h->users[i]));
        unsigned j = 0;
        while (j < u->nfuncs && strcmp(u->funcs[j].name, h->users[i]) != 0)
            j++;
        if (j == u->nfuncs) {
            if (s == NULL)
                continue;
            unsigned before = u->nfuncs;
            /* self 0 for the effects analysis: writes through the handle
             * change the unit's state */
            int err = add_func(f, (int)unit, s, BCW_ROLE_OBSERVER, 0, -1);
            if (err < 0)
                return err;
            u = &f->model->units[unit];
            if (u->nfuncs == before)
                continue; /* skipped: its reason is listed */
            u->funcs[j].self = -1;
        }
        int err = mark_handle_param(&u->funcs[j], 0, h->type);
        if (err < 0)
            return err;
    }
    return 0;
}

static int find_handles(finder *f)
{
    int err = 0;
    for (unsigned k = 0; k < f->model->nunits && err == 0; k++) {
        bcw_unit *u = &f->model->units[k];
        for (unsigned i = 0; i < u->nfuncs && err == 0; i++) {
            const bcw_func *fn = &u->funcs[i];
            const sig *s = sig_of(f, LLVMGetNamedFunction(f->mod, fn->name));
            const char *d;
            bcw_handle *h;
            if (fn->self < 0 || s == NULL || (d = slot_struct(s, 0)) == NULL ||
                find_unit(f, d) >= 0 || (h = handle_of(u, d, &err)) == NULL)
                continue;
            err = strv_add(&h->from, &h->nfrom, fn->name);
        }
        for (unsigned j = 0; j < u->nhandles && err == 0; j++) {
            bcw_handle *h = &u->handles[j];
            for (unsigned g = 0; g < f->nsigs && !err; g++) {
                const sig *s = &f->sigs[g];
                if (s->n == 0 || !slot_struct(s, 1) ||
                    strcmp(slot_struct(s, 1), h->type))
                    continue;
                err = strv_add(&h->users, &h->nusers, s->name);
                if (err == 0 && slot_struct(s, 0) &&
                    strcmp(slot_struct(s, 0), h->type) == 0)
                    err = strv_add(&h->from, &h->nfrom, s->name);
            }
            for (unsigned i = 0; i < u->nfuncs && err == 0; i++) {
                const bcw_func *fn = &u->funcs[i];
                if ((fn->role == BCW_ROLE_MUTATOR ||
                     fn->role == BCW_ROLE_DESTRUCTOR) &&
                    fn->self >= 0 &&
                    bcw__effects_releases(f->fx, fn->name, (unsigned)fn->self))
                    err =
                        strv_add(&h->invalidators, &h->ninvalidators, fn->name);
            }
        }
        for (unsigned j = 0; j < f->model->units[k].nhandles && err == 0; j++)
            err = add_handle_users(f, k, &f->model->units[k].handles[j]);
        /* the unit's own methods taking a handle in another position
         * (dlist_insert_after(l, n, v)) get the handle given out last */
        u = &f->model->units[k];
        for (unsigned i = 0; i < u->nfuncs && err == 0; i++) {
            bcw_func *fn = &u->funcs[i];
            const sig *s = sig_of(f, LLVMGetNamedFunction(f->mod, fn->name));
            for (unsigned p = 0; s != NULL && fn->self >= 0 && err == 0 &&
                                 p < fn->nparams && p < s->n;
                 p++) {
                const char *d = slot_struct(s, p + 1);
                if ((int)p == fn->self || d == NULL ||
                    fn->params[p].kind == BCW_PK_HANDLE)
                    continue;
                for (unsigned j = 0; j < u->nhandles && err == 0; j++)
                    if (strcmp(d, u->handles[j].type) == 0 &&
                        (err = mark_handle_param(fn, p, d)) == 0)
                        err = strv_add(&u->handles[j].users,
                                       &u->handles[j].nusers, fn->name);
            }
        }
    }
    return err;
}

int bcw__units_find(bcw_model *model, struct bcw_bitcode *bc,
                    const bcw_effects *fx)
{
    finder f = {0};
    f.model = model;
    f.mod = bc->mod;
    f.fx = fx;
    f.td = LLVMCreateTargetData(LLVMGetDataLayoutStr(bc->mod));
    int err = load_sigs(&f);
    /* Pass 1: constructors make units, in definition order: first those
     * that take no unit-like pointer, then the rest, unless they take an
     * existing unit — list_first(list *) gives a derived handle, not a
     * new unit. */
    for (int round = 0; round < 2 && err >= 0; round++) {
        for (unsigned g = 0; g < f.nsigs && err >= 0; g++) {
            const sig *s = &f.sigs[g];
            char buf[64];
            unsigned slot;
            const char *name;
            if ((name = constructs(s, &slot, buf, sizeof buf)) == NULL ||
                find_unit(&f, name) >= 0)
                continue;
            /* a pointer into a unit it takes is a derived handle */
            int takes = takes_struct(s), derived = 0;
            for (unsigned i = 1; i <= s->n; i++)
                derived |= find_unit(&f, slot_struct(s, i)) >= 0 &&
                           points_into(s->fn, LLVMGetParam(s->fn, i - 1));
            if ((round == 0 && !takes) || (round == 1 && !derived))
                err = new_unit(&f, name, s, slot);
        }
    }
    /* Pass 1b: structs with no constructor whose functions take a cell
     * E ** first live in their callers' cells: list_push(&head, v). */
    for (unsigned g = 0; g < f.nsigs && err >= 0; g++) {
        const sig *s = &f.sigs[g];
        const char *cell;
        if (s->n > 0 && (cell = slot_cell(s, 1)) != NULL &&
            find_unit(&f, cell) < 0)
            err = new_cell_unit(&f, cell, s);
    }
    /* Pass 2: every API function of a unit gets its role. */
    for (unsigned g = 0; g < f.nsigs && err >= 0; g++) {
        const sig *s = &f.sigs[g];
        enum bcw_role role;
        int unit, self, out;
        if ((unit = role_of(&f, s, &role, &self, &out)) >= 0)
            err = add_func(&f, unit, s, role, self, out);
    }
    if (err >= 0)
        err = find_handles(&f);
    if (err >= 0)
        err = find_callbacks(&f);
    for (unsigned i = 0; i < model->nunits && err >= 0; i++)
        if ((err = bcw__fields_analyze(&model->units[i], bc->mod,
                                       f.origin_fn[i], f.origin_slot[i])) == 0)
            err = bcw__contracts_analyze(&model->units[i], bc->mod);
    if (err >= 0 && model->nunits == 0)
        err = no_unit_error(&f);
    free(f.sigs);
    bcw__index_free(&f.sig_ix);
    free(f.origin_fn);
    free(f.origin_slot);
    bcw__index_free(&f.unit_ix);
    bcw__index_free(&f.sym_ix);
    LLVMDisposeTargetData(f.td);
    return err;
}
