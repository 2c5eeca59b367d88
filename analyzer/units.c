/* units.c - unit discovery: struct types with their constructors,
 * methods and destructors, and each parameter's kind. */
#define _POSIX_C_SOURCE 200809L
#include <llvm-c/Target.h>
#include <stdlib.h>
#include <string.h>

#include "bitcode.h"
#include "diinfo.h"
#include "model.h"

/* Last '_'-separated word of a function name names its role. */
static const char *const init_words[] = {"init", "initialize", "initialise",
                                         "setup", "construct", NULL};
static const char *const dtor_words[] = {
    "free",  "destroy",  "delete",   "release", "dispose",
    "fini",  "deinit",   "finalize", "finalise", "cleanup", NULL};

static bool last_word_in(const char *name, const char *const *words)
{
    const char *w = strrchr(name, '_');
    w = w ? w + 1 : name;
    for (; *words != NULL; words++)
        if (strcmp(w, *words) == 0)
            return true;
    return false;
}

/* The named struct a pointer type points to (typed pointers), or NULL. */
static LLVMTypeRef pointee_struct(LLVMTypeRef t)
{
    if (LLVMGetTypeKind(t) != LLVMPointerTypeKind)
        return NULL;
    LLVMTypeRef e = LLVMGetElementType(t);
    if (LLVMGetTypeKind(e) != LLVMStructTypeKind || LLVMIsLiteralStruct(e))
        return NULL;
    const char *name = LLVMGetStructName(e);
    return name && strncmp(name, "struct.", 7) == 0 ? e : NULL;
}

/* API functions: external ones, and static ones a header defines
 * (static inline accessors); static helpers in the .c file are not. */
static bool is_api(LLVMModuleRef mod, LLVMValueRef fn, bool *is_static)
{
    const char *name = bcw__value_name(fn);
    if (LLVMIsDeclaration(fn) || strncmp(name, "llvm.", 5) == 0 ||
        strcmp(name, "main") == 0 || LLVMIsFunctionVarArg(LLVMGlobalGetValueType(fn)))
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
    return !(flen == slen && memcmp(file, src, slen) == 0) &&
           flen > 2 && file[flen - 2] == '.' && file[flen - 1] == 'h';
}

typedef struct finder {
    bcw_model *model;
    LLVMModuleRef mod;
    LLVMTargetDataRef td;
    const bcw_effects *fx;
    LLVMTypeRef *types; /* unit i's struct type */
    size_t ntypes_cap, units_cap, skipped_cap, syms_cap;
} finder;

static int find_unit(finder *f, LLVMTypeRef t)
{
    for (unsigned i = 0; i < f->model->nunits; i++)
        if (f->types[i] == t)
            return (int)i;
    return -1;
}

static enum bcw_abi int_abi(unsigned bits, bool is_unsigned)
{
    switch (bits) {
    case 1:
        return BCW_ABI_BOOL;
    case 8:
        return is_unsigned ? BCW_ABI_U8 : BCW_ABI_S8;
    case 16:
        return is_unsigned ? BCW_ABI_U16 : BCW_ABI_S16;
    case 32:
        return is_unsigned ? BCW_ABI_U32 : BCW_ABI_S32;
    case 64:
        return is_unsigned ? BCW_ABI_U64 : BCW_ABI_S64;
    default:
        return BCW_ABI_VOID;
    }
}

static const char *llvm_spelling(enum bcw_abi abi)
{
    static const char *const names[] = {
        "void",    "bool",     "signed char", "unsigned char", "short",
        "unsigned short", "int", "unsigned int", "long", "unsigned long",
        "float",   "double",   "void *"};
    return names[abi];
}

static void param_free(bcw_param *p)
{
    free(p->name);
    free(p->ctype);
}

/* classify's answer when an allocation failed: an error, not a skip */
static const char out_of_memory[] = "out of memory";

/* Classifies one parameter (or the result when `index` is 0) from its
 * LLVM type, attributes and debug info.  Returns a reason string if bcwalk
 * cannot pass or read it. */
static const char *classify(finder *f, LLVMValueRef fn, unsigned index,
                            LLVMTypeRef t, const bcw_di_type *di, int unit,
                            bcw_param *out)
{
    memset(out, 0, sizeof *out);
    out->kind = BCW_PK_INT;
    switch (LLVMGetTypeKind(t)) {
    case LLVMVoidTypeKind:
        out->kind = BCW_PK_NONE;
        out->abi = BCW_ABI_VOID;
        break;
    case LLVMIntegerTypeKind: {
        unsigned bits = LLVMGetIntTypeWidth(t);
        unsigned zext = LLVMGetEnumAttributeKindForName("zeroext", 7);
        bool is_unsigned = di->known
                               ? di->is_unsigned
                               : LLVMGetEnumAttributeAtIndex(fn, index, zext) !=
                                     NULL;
        out->abi = int_abi(bits, is_unsigned);
        if (out->abi == BCW_ABI_VOID)
            return "integer width not supported";
        if (bits == 1 || (di->known && di->is_bool)) {
            out->kind = BCW_PK_BOOL;
            out->abi = bits == 1 ? BCW_ABI_BOOL : out->abi;
        } else if (bits == 8 && (!di->known || di->is_char)) {
            out->kind = BCW_PK_CHAR;
        }
        break;
    }
    case LLVMFloatTypeKind:
    case LLVMDoubleTypeKind:
        out->kind = BCW_PK_FLOAT;
        out->abi = LLVMGetTypeKind(t) == LLVMFloatTypeKind ? BCW_ABI_FLOAT
                                                           : BCW_ABI_DOUBLE;
        break;
    case LLVMPointerTypeKind: {
        out->abi = BCW_ABI_PTR;
        LLVMTypeRef e = LLVMGetElementType(t);
        LLVMTypeRef s = pointee_struct(t);
        if (s != NULL && find_unit(f, s) == unit && unit >= 0) {
            out->kind = BCW_PK_UNIT;
        } else if (index == 0) {
            out->kind = BCW_PK_ELEMENT; /* returned pointers are symbolic */
        } else if (LLVMGetTypeKind(e) == LLVMFunctionTypeKind ||
                   (di->known && di->is_funcptr)) {
            return "callback parameters are not generated yet";
        } else if (LLVMGetTypeKind(e) == LLVMIntegerTypeKind &&
                   LLVMGetIntTypeWidth(e) == 8 &&
                   !(di->known && (di->pointee_char == 0))) {
            out->kind = BCW_PK_STRING;
        } else if (LLVMGetTypeKind(e) == LLVMIntegerTypeKind &&
                   LLVMGetIntTypeWidth(e) == 8 && di->pointee_void) {
            out->kind = BCW_PK_ELEMENT;
        } else if (LLVMGetTypeKind(e) == LLVMIntegerTypeKind ||
                   LLVMGetTypeKind(e) == LLVMFloatTypeKind ||
                   LLVMGetTypeKind(e) == LLVMDoubleTypeKind) {
            bcw_param inner;
            bcw_di_type none = {0};
            const char *why = classify(f, fn, 1, e, &none, -1, &inner);
            param_free(&inner);
            if (why != NULL)
                return why == out_of_memory ? why
                                            : "pointer to an unsupported scalar";
            out->kind = BCW_PK_OUT;
            out->pointee = inner.abi;
            out->pointee_size = (uint32_t)LLVMABISizeOfType(f->td, e);
        } else {
            out->kind = BCW_PK_SCRATCH;
            uint64_t size = LLVMTypeIsSized(e) ? LLVMABISizeOfType(f->td, e)
                                               : 0;
            out->pointee_size = (uint32_t)(size ? (size > 4096 ? 4096 : size)
                                                : 64);
        }
        break;
    }
    default:
        return "aggregate passed by value is not supported yet";
    }
    const char *spelled =
        di->known ? di->spelling
        : out->kind == BCW_PK_UNIT
            ? NULL
            : (out->kind == BCW_PK_STRING ? "char *" : llvm_spelling(out->abi));
    if (out->kind == BCW_PK_UNIT && !di->known) {
        const char *sn = LLVMGetStructName(LLVMGetElementType(t)) + 7;
        out->ctype = bcw__sprintf("struct %s *", sn);
    } else {
        out->ctype = bcw__strdup(spelled);
    }
    out->name = di->known && di->name[0]
                    ? bcw__strdup(di->name)
                    : (index == 0 ? bcw__strdup("result")
                                  : bcw__sprintf("p%u", index));
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
    for (unsigned i = 0; i < m->nsyms; i++) {
        if (strcmp(m->syms[i], name) == 0) {
            *out = i;
            return 0;
        }
    }
    if (bcw__grow(&m->syms, &f->syms_cap, m->nsyms + 1, sizeof *m->syms) < 0)
        return BCW_ENOMEM;
    if ((m->syms[m->nsyms] = bcw__strdup(name)) == NULL)
        return BCW_ENOMEM;
    *out = m->nsyms++;
    return 0;
}

/* Adds `fn` to unit `unit` with `role`, classifying its signature. */
static int add_func(finder *f, int unit, LLVMValueRef fn, enum bcw_role role,
                    bool is_static)
{
    bcw_unit *u = &f->model->units[unit];
    const char *name = bcw__value_name(fn);
    LLVMTypeRef ft = LLVMGlobalGetValueType(fn);
    unsigned n = LLVMCountParamTypes(ft);
    if (n > BCW_MAX_PARAMS)
        return skip(f, name, "more than 8 parameters");
    LLVMTypeRef types[BCW_MAX_PARAMS];
    LLVMGetParamTypes(ft, types);
    bcw_di_type di[BCW_MAX_PARAMS + 1];
    bcw__di_signature(fn, di, BCW_MAX_PARAMS + 1);

    bcw_func fun = {0};
    fun.role = role;
    fun.is_static = is_static;
    fun.nparams = n;
    const char *why =
        classify(f, fn, 0, LLVMGetReturnType(ft), &di[0], unit, &fun.ret);
    for (unsigned i = 0; why == NULL && i < n; i++)
        why = classify(f, fn, i + 1, types[i], &di[i + 1], unit,
                       &fun.params[i]);
    if (why == NULL && role == BCW_ROLE_CONSTRUCTOR)
        for (unsigned i = 0; why == NULL && i < n; i++)
            if (fun.params[i].kind == BCW_PK_UNIT)
                why = "constructor taking its own unit";
    int err = 0;
    if (why == out_of_memory) {
        err = BCW_ENOMEM;
        goto done;
    }
    if (why != NULL) {
        err = skip(f, name, why);
        goto done;
    }
    if (role == BCW_ROLE_OBSERVER) {
        const char *reason = NULL;
        if (bcw__effects_writes(f->fx, name, 0, &reason)) {
            fun.role = BCW_ROLE_MUTATOR;
            fun.writes = bcw__strdup(reason ? reason : "may write");
            if (fun.writes == NULL) {
                err = BCW_ENOMEM;
                goto done;
            }
        }
    }
    if ((fun.name = bcw__strdup(name)) == NULL ||
        add_sym(f, name, &fun.sym) < 0) {
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
    param_free(&fun.ret);
    for (unsigned i = 0; i < n; i++)
        param_free(&fun.params[i]);
    free(fun.name);
    free(fun.writes);
    return err;
}

static int new_unit(finder *f, LLVMTypeRef st, LLVMValueRef ctor)
{
    bcw_model *m = f->model;
    if (bcw__grow(&m->units, &f->units_cap, m->nunits + 1, sizeof *m->units) <
            0 ||
        bcw__grow(&f->types, &f->ntypes_cap, m->nunits + 1, sizeof *f->types) <
            0)
        return BCW_ENOMEM;
    bcw_unit *u = &m->units[m->nunits];
    memset(u, 0, sizeof *u);
    f->types[m->nunits] = st;
    m->nunits++; /* counted first: bcw_model_free frees what follows */
    const char *sname = LLVMGetStructName(st) + 7;
    u->name = bcw__strdup(sname);
    bcw_di_type di[2];
    bcw__di_signature(ctor, di, 2);
    /* the constructor's result (or init argument) spells the type as the
     * library's users write it: a typedef if there is one */
    const bcw_di_type *t = di[0].is_pointer ? &di[0] : &di[1];
    if (t->known && t->is_pointer) {
        size_t len = strlen(t->spelling);
        u->ctype = bcw__strndup(t->spelling, len >= 2 ? len - 2 : len);
    } else {
        u->ctype = bcw__sprintf("struct %s", sname);
    }
    u->size = LLVMTypeIsSized(st) ? LLVMABISizeOfType(f->td, st) : 0;
    if (u->name == NULL || u->ctype == NULL)
        return BCW_ENOMEM;
    return (int)m->nunits - 1;
}

static int no_unit_error(finder *f)
{
    bcw_buf b;
    bcw__buf_init(&b, 4096);
    bcw__buf_printf(&b, "%s: no unit found (a unit is a struct with a "
                        "constructor returning T * or an init function "
                        "T_init(T *)); structs:",
                    f->model->path);
    int nstructs = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(f->mod); fn != NULL;
         fn = LLVMGetNextFunction(fn)) {
        LLVMTypeRef ft = LLVMGlobalGetValueType(fn);
        LLVMTypeRef params[BCW_MAX_PARAMS];
        if (LLVMIsDeclaration(fn) || LLVMCountParamTypes(ft) == 0 ||
            LLVMCountParamTypes(ft) > BCW_MAX_PARAMS)
            continue;
        LLVMGetParamTypes(ft, params);
        LLVMTypeRef s = pointee_struct(params[0]);
        if (s != NULL && !strstr(b.data, LLVMGetStructName(s) + 7)) {
            bcw__buf_printf(&b, " %s", LLVMGetStructName(s) + 7);
            nstructs++;
        }
    }
    bcw__buf_printf(&b, "%s; functions:", nstructs ? "" : " none");
    int nfuncs = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(f->mod); fn != NULL;
         fn = LLVMGetNextFunction(fn)) {
        if (!LLVMIsDeclaration(fn)) {
            bcw__buf_printf(&b, " %s", bcw__value_name(fn));
            nfuncs++;
        }
    }
    if (nfuncs == 0)
        bcw__buf_printf(&b, " none");
    int err = bcw__error(BCW_EINPUT, "%s", b.data ? b.data : "no unit found");
    bcw__buf_free(&b);
    return err;
}

/* The unit struct types a function's first parameter and result point
 * to, NULL where they are not unit-like. */
static void unit_types(LLVMValueRef fn, LLVMTypeRef *first, LLVMTypeRef *ret)
{
    LLVMTypeRef ft = LLVMGlobalGetValueType(fn);
    LLVMTypeRef params[BCW_MAX_PARAMS];
    unsigned n = LLVMCountParamTypes(ft);
    *first = NULL;
    if (n > 0 && n <= BCW_MAX_PARAMS) {
        LLVMGetParamTypes(ft, params);
        *first = pointee_struct(params[0]);
    }
    *ret = pointee_struct(LLVMGetReturnType(ft));
}

int bcw__units_find(bcw_model *model, struct bcw_bitcode *bc,
                    const bcw_effects *fx)
{
    finder f = {0};
    f.model = model;
    f.mod = bc->mod;
    f.fx = fx;
    f.td = LLVMCreateTargetData(LLVMGetDataLayoutStr(bc->mod));
    int err = 0;

    /* Pass 1: constructors make units, in definition order. */
    for (LLVMValueRef fn = LLVMGetFirstFunction(bc->mod); fn && err >= 0;
         fn = LLVMGetNextFunction(fn)) {
        bool is_static = false;
        if (!is_api(bc->mod, fn, &is_static))
            continue;
        LLVMTypeRef first, ret;
        unit_types(fn, &first, &ret);
        const char *name = bcw__value_name(fn);
        LLVMTypeRef st = NULL;
        if (ret != NULL && first != ret)
            st = ret;
        else if (first != NULL && last_word_in(name, init_words))
            st = first;
        if (st != NULL && find_unit(&f, st) < 0)
            err = new_unit(&f, st, fn);
    }
    /* Pass 2: every API function of a unit gets its role. */
    for (LLVMValueRef fn = LLVMGetFirstFunction(bc->mod); fn && err >= 0;
         fn = LLVMGetNextFunction(fn)) {
        bool is_static = false;
        if (!is_api(bc->mod, fn, &is_static))
            continue;
        LLVMTypeRef first, ret;
        unit_types(fn, &first, &ret);
        const char *name = bcw__value_name(fn);
        int unit;
        enum bcw_role role;
        if (ret != NULL && first != ret && (unit = find_unit(&f, ret)) >= 0) {
            role = BCW_ROLE_CONSTRUCTOR;
        } else if (first != NULL && (unit = find_unit(&f, first)) >= 0) {
            if (last_word_in(name, init_words))
                role = BCW_ROLE_INIT_CONSTRUCTOR;
            else if (last_word_in(name, dtor_words) ||
                     bcw__effects_frees(fx, name, 0))
                role = BCW_ROLE_DESTRUCTOR;
            else
                role = BCW_ROLE_OBSERVER; /* add_func refines it */
        } else {
            continue;
        }
        err = add_func(&f, unit, fn, role, is_static);
    }
    if (err >= 0 && model->nunits == 0)
        err = no_unit_error(&f);
    free(f.types);
    LLVMDisposeTargetData(f.td);
    return err;
}

int bcw__unit_destructor(const bcw_unit *u)
{
    for (unsigned i = 0; i < u->nfuncs; i++)
        if (u->funcs[i].role == BCW_ROLE_DESTRUCTOR &&
            u->funcs[i].nparams == 1)
            return (int)i;
    return -1;
}
