/* sig.c - reading an API function's signature: which functions are API,
 * their LLVM types, debug info and pointees, and which struct each
 * pointer slot names. */
#define _POSIX_C_SOURCE 200809L
#include "sig.h"

#include <string.h>

#include "bitcode.h"

bool bcw__sig_pointer(const bcw_sig *s, unsigned i)
{
    return i <= s->n && LLVMGetTypeKind(s->types[i]) == LLVMPointerTypeKind;
}

const char *bcw__sig_struct(const bcw_sig *s, unsigned i)
{
    return bcw__sig_pointer(s, i) && (s->pt[i].kind == BCW_PT_STRUCT ||
                                      s->pt[i].kind == BCW_PT_HANDLE)
               ? s->pt[i].name
               : NULL;
}

const char *bcw__sig_cell(const bcw_sig *s, unsigned i)
{
    return bcw__sig_pointer(s, i) && s->pt[i].kind == BCW_PT_POINTER &&
                   s->pt[i].name[0]
               ? s->pt[i].name
               : NULL;
}

bool bcw__sig_weak(const bcw_sig *s, unsigned i)
{
    return bcw__sig_pointer(s, i) && s->pt[i].kind != BCW_PT_STRUCT &&
           !s->pt[i].from_debug_info;
}

#define STR_(x) #x
#define STR(x) STR_(x)

/* Does the module define an external function in `file` (flen bytes)?
 * Then that header is a header-only library's implementation (jsmn.h),
 * not one of static inline accessors. */
static bool defines_externals(LLVMModuleRef mod, const char *file,
                              unsigned flen)
{
    for (LLVMValueRef g = LLVMGetFirstFunction(mod); g != NULL;
         g = LLVMGetNextFunction(g)) {
        unsigned n = 0;
        const char *f =
            bcw__external_definition(g) ? bcw__function_file(g, &n) : NULL;
        if (f != NULL && n == flen && memcmp(f, file, n) == 0)
            return true;
    }
    return false;
}

/* Does the module define an external function of default visibility?
 * Then one of hidden visibility (zlib's ZLIB_INTERNAL, a library built
 * with -fvisibility=hidden exporting its API) is internal; in a module
 * that hides every function, visibility tells nothing. */
static bool exports_some(LLVMModuleRef mod)
{
    for (LLVMValueRef g = LLVMGetFirstFunction(mod); g != NULL;
         g = LLVMGetNextFunction(g))
        if (bcw__external_definition(g) &&
            LLVMGetVisibility(g) == LLVMDefaultVisibility)
            return true;
    return false;
}

/* API functions: external ones (not hidden where others are not), and
 * static ones a header defines
 * (static inline accessors); static helpers in the .c file are not, nor
 * those of a header that defines external functions too (a header-only
 * library's implementation: its API is the external ones). */
static bool is_api(LLVMModuleRef mod, LLVMValueRef fn, bool *is_static)
{
    const char *name = bcw__value_name(fn);
    if (LLVMIsDeclaration(fn) || strncmp(name, "llvm.", 5) == 0 ||
        strcmp(name, "main") == 0)
        return false;
    LLVMLinkage l = LLVMGetLinkage(fn);
    *is_static = l == LLVMInternalLinkage || l == LLVMPrivateLinkage;
    if (!*is_static)
        return LLVMGetVisibility(fn) != LLVMHiddenVisibility ||
               !exports_some(mod);
    unsigned flen = 0;
    size_t slen = 0;
    const char *file = bcw__function_file(fn, &flen);
    const char *src = LLVMGetSourceFileName(mod, &slen);
    if (file == NULL || src == NULL)
        return false;
    /* debug info names the defining file; a header's name differs from
     * the translation unit's */
    return !(flen == slen && memcmp(file, src, slen) == 0) && flen > 2 &&
           file[flen - 2] == '.' && file[flen - 1] == 'h' &&
           !defines_externals(mod, file, flen);
}

LLVMValueRef bcw__sig_slow_path_of(LLVMModuleRef mod, LLVMValueRef fn)
{
    LLVMValueRef by = NULL;
    if (!bcw__external_definition(fn))
        return NULL;
    for (LLVMUseRef u = LLVMGetFirstUse(fn); u != NULL; u = LLVMGetNextUse(u)) {
        LLVMValueRef call = LLVMGetUser(u);
        bool is_static = false;
        /* only called, never taken by address, and only from inside
         * static functions of a header that are API themselves, past
         * a branch of theirs (a wrapper calling it unconditionally,
         * count-min-sketch's cms_get_hashes, leaves it API) */
        if (!LLVMIsACallInst(call) || bcw__called_function(call) != fn)
            return NULL;
        LLVMBasicBlockRef at = LLVMGetInstructionParent(call);
        LLVMValueRef g = LLVMGetBasicBlockParent(at);
        if (at == LLVMGetEntryBasicBlock(g))
            return NULL;
        if (!is_api(mod, g, &is_static) || !is_static)
            return NULL;
        by = by != NULL ? by : g;
    }
    return by;
}

bool bcw__sig_load(LLVMModuleRef mod, LLVMValueRef fn, bcw_sig *s,
                   const char **why)
{
    memset(s, 0, sizeof *s);
    *why = NULL;
    if (!is_api(mod, fn, &s->is_static))
        return false;
    LLVMTypeRef ft = LLVMGlobalGetValueType(fn);
    s->fn = fn;
    s->name = bcw__value_name(fn);
    s->n = LLVMCountParamTypes(ft);
    if (LLVMIsFunctionVarArg(ft)) {
        *why = "is variadic; bcwalk cannot call it";
        return false;
    }
    if (s->n > BCW_MAX_PARAMS) {
        *why = "has more than " STR(
            BCW_MAX_PARAMS) " parameters; bcwalk cannot call it";
        return false;
    }
    s->types[0] = LLVMGetReturnType(ft);
    LLVMGetParamTypes(ft, &s->types[1]);
    bcw__di_signature(fn, s->di, BCW_MAX_PARAMS + 1);
    for (unsigned i = 0; i <= s->n; i++)
        if (LLVMGetTypeKind(s->types[i]) == LLVMPointerTypeKind)
            bcw__pointee(fn, i, &s->di[i], &s->pt[i]);
    return true;
}
