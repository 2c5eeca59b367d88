/* native.c - instruments a unit's bitcode for the worker runtime. */
#define _POSIX_C_SOURCE 200809L
#include "native.h"

#include <llvm-c/BitWriter.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "bitcode.h"
#include "cover_pass.h"
#include "sanitize.h"

/* libc functions whose calls from the unit go to the runtime instead. */
static const char *const redirected[][2] = {
    {"malloc", "bcw_rt_malloc"},
    {"calloc", "bcw_rt_calloc"},
    {"realloc", "bcw_rt_realloc"},
    {"reallocarray", "bcw_rt_reallocarray"},
    {"free", "bcw_rt_free"},
    {"strdup", "bcw_rt_strdup"},
    {"strndup", "bcw_rt_strndup"},
    {"posix_memalign", "bcw_rt_posix_memalign"},
    {"aligned_alloc", "bcw_rt_aligned_alloc"},
    {"memalign", "bcw_rt_memalign"},
    {"valloc", "bcw_rt_valloc"},
    {"malloc_usable_size", "bcw_rt_malloc_usable_size"},
    {"abort", "bcw_rt_abort"},
    {"__assert_fail", "bcw_rt_assert_fail"},
    {"exit", "bcw_rt_exit"},
    /* rt_contain.c: ending, replacing, forking or changing the process */
    {"_exit", "bcw_rt_exit"},
    {"_Exit", "bcw_rt_exit"},
    {"quick_exit", "bcw_rt_exit"},
    {"execl", "bcw_rt_exec"},
    {"execle", "bcw_rt_exec"},
    {"execlp", "bcw_rt_exec"},
    {"execv", "bcw_rt_exec"},
    {"execve", "bcw_rt_exec"},
    {"execvp", "bcw_rt_exec"},
    {"execvpe", "bcw_rt_exec"},
    {"system", "bcw_rt_exec"},
    {"fork", "bcw_rt_fork"},
    {"kill", "bcw_rt_kill"},
    {"close", "bcw_rt_close"},
    {"dup2", "bcw_rt_dup2"},
    {"dup3", "bcw_rt_dup3"},
    {"vfork", "bcw_rt_fork"},
    {"signal", "bcw_rt_signal"},
    {"sigaction", "bcw_rt_sigaction"},
    {"sigprocmask", "bcw_rt_sigprocmask"},
    {"pthread_sigmask", "bcw_rt_pthread_sigmask"},
    {"alarm", "bcw_rt_alarm"},
    {"setitimer", "bcw_rt_setitimer"},
    {"timer_create", "bcw_rt_timer_create"},
    {"setrlimit", "bcw_rt_setrlimit"},
    {"prlimit", "bcw_rt_prlimit"},
    {"pthread_create", "bcw_rt_pthread_create"},
    {"chdir", "bcw_rt_chdir"},
    {"fchdir", "bcw_rt_fchdir"},
    {"umask", "bcw_rt_umask"},
    {"setenv", "bcw_rt_setenv"},
    {"unsetenv", "bcw_rt_unsetenv"},
    {"putenv", "bcw_rt_putenv"},
    /* rt_files.c: creating files, in the worker's own folder */
    {"fopen", "bcw_rt_fopen"},
    {"fclose", "bcw_rt_fclose"},
    {"fopen64", "bcw_rt_fopen"},
    {"freopen", "bcw_rt_freopen"},
    {"freopen64", "bcw_rt_freopen"},
    {"open", "bcw_rt_open"},
    {"open64", "bcw_rt_open"},
    {"openat", "bcw_rt_openat"},
    {"openat64", "bcw_rt_openat"},
    {"creat", "bcw_rt_creat"},
    {"creat64", "bcw_rt_creat"},
    {"mkdir", "bcw_rt_mkdir"},
    {"mkdirat", "bcw_rt_mkdirat"},
    {"mkstemp", "bcw_rt_mkstemp"},
    {"mkstemp64", "bcw_rt_mkstemp"},
    {"mkostemp", "bcw_rt_mkostemp"},
    {"mkstemps", "bcw_rt_mkstemps"},
    {"mkdtemp", "bcw_rt_mkdtemp"},
    {"link", "bcw_rt_link"},
    {"symlink", "bcw_rt_symlink"},
    {"mkfifo", "bcw_rt_mkfifo"},
    {"mknod", "bcw_rt_mknod"},
    /* rt_det.c: randomness and clocks, the sequence's own */
    {"arc4random", "bcw_rt_arc4random"},
    {"arc4random_uniform", "bcw_rt_arc4random_uniform"},
    {"arc4random_buf", "bcw_rt_arc4random_buf"},
    {"getrandom", "bcw_rt_getrandom"},
    {"getentropy", "bcw_rt_getentropy"},
    {"rand", "bcw_rt_rand"},
    {"random", "bcw_rt_random"},
    {"srand", "bcw_rt_srand"},
    {"srandom", "bcw_rt_srand"},
    {"drand48", "bcw_rt_drand48"},
    {"lrand48", "bcw_rt_lrand48"},
    {"srand48", "bcw_rt_srand48"},
    {"time", "bcw_rt_time"},
    {"clock_gettime", "bcw_rt_clock_gettime"},
    {"gettimeofday", "bcw_rt_gettimeofday"},
    {"clock", "bcw_rt_clock"},
};

void bcw__native_rename(LLVMModuleRef mod, const char *const (*pairs)[2],
                        size_t n)
{
    for (size_t i = 0; i < n; i++) {
        LLVMValueRef fn = LLVMGetNamedFunction(mod, pairs[i][0]);
        if (fn != NULL && LLVMIsDeclaration(fn))
            LLVMSetValueName2(fn, pairs[i][1], strlen(pairs[i][1]));
    }
}

/* contract.h defines a weak bcw_contract_fail in every file that uses
 * it; calls go to the runtime's instead, which records the outcome. */
static void redirect_contracts(LLVMModuleRef mod)
{
    LLVMValueRef fn = LLVMGetNamedFunction(mod, "bcw_contract_fail");
    if (fn == NULL)
        return;
    LLVMValueRef rt = LLVMAddFunction(mod, "bcw_rt_contract_fail",
                                      LLVMGlobalGetValueType(fn));
    LLVMReplaceAllUsesWith(fn, rt);
    LLVMDeleteFunction(fn);
}

static void externalize(LLVMModuleRef mod)
{
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn != NULL;
         fn = LLVMGetNextFunction(fn)) {
        if (LLVMIsDeclaration(fn))
            continue;
        LLVMLinkage l = LLVMGetLinkage(fn);
        if (l == LLVMInternalLinkage || l == LLVMPrivateLinkage) {
            LLVMSetLinkage(fn, LLVMExternalLinkage);
            LLVMSetVisibility(fn, LLVMDefaultVisibility);
        }
    }
    LLVMValueRef main_fn = LLVMGetNamedFunction(mod, "main");
    if (main_fn != NULL && !LLVMIsDeclaration(main_fn))
        LLVMSetValueName2(main_fn, "bcw_unit_main", 13);
}

/* The unit's own functions in a section of their own, so that the
 * runtime tells their code from its own (rt_halt.c: a halt's site is
 * always the unit's); what is added after (stubs, the setup's call) is
 * bcwalk's.  A function the source put in a section keeps it. */
static void mark_unit_code(LLVMModuleRef mod)
{
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn != NULL;
         fn = LLVMGetNextFunction(fn)) {
        const char *section = LLVMGetSection(fn);
        if (!LLVMIsDeclaration(fn) && (section == NULL || section[0] == '\0'))
            LLVMSetSection(fn, "bcw_unit_text");
    }
}

static void gather_globals(LLVMModuleRef mod)
{
    for (LLVMValueRef g = LLVMGetFirstGlobal(mod); g != NULL;
         g = LLVMGetNextGlobal(g)) {
        const char *section = LLVMGetSection(g);
        if (LLVMIsDeclaration(g) || LLVMIsGlobalConstant(g) ||
            LLVMIsThreadLocal(g) || (section != NULL && section[0] != '\0'))
            continue;
        const char *name = bcw__value_name(g);
        if (strncmp(name, "llvm.", 5) == 0)
            continue;
        LLVMSetSection(g, "bcw_globals");
    }
}

/* Converts a raw 64-bit argument word to the parameter's type. */
static LLVMValueRef from_word(LLVMBuilderRef b, LLVMValueRef word,
                              LLVMTypeRef t, LLVMContextRef ctx)
{
    switch (LLVMGetTypeKind(t)) {
    case LLVMIntegerTypeKind:
        return LLVMGetIntTypeWidth(t) < 64 ? LLVMBuildTrunc(b, word, t, "")
                                           : word;
    case LLVMFloatTypeKind:
        return LLVMBuildBitCast(
            b, LLVMBuildTrunc(b, word, LLVMInt32TypeInContext(ctx), ""), t, "");
    case LLVMDoubleTypeKind:
        return LLVMBuildBitCast(b, word, t, "");
    default:
        return LLVMBuildIntToPtr(b, word, t, "");
    }
}

LLVMValueRef bcw__native_word(LLVMBuilderRef b, LLVMValueRef v, LLVMTypeRef i64,
                              LLVMContextRef ctx)
{
    LLVMTypeRef t = LLVMTypeOf(v);
    switch (LLVMGetTypeKind(t)) {
    case LLVMIntegerTypeKind:
        return LLVMGetIntTypeWidth(t) < 64 ? LLVMBuildZExt(b, v, i64, "") : v;
    case LLVMFloatTypeKind:
        return LLVMBuildZExt(
            b, LLVMBuildBitCast(b, v, LLVMInt32TypeInContext(ctx), ""), i64,
            "");
    case LLVMDoubleTypeKind:
        return LLVMBuildBitCast(b, v, i64, "");
    default:
        return LLVMBuildPtrToInt(b, v, i64, "");
    }
}

/* A typed call stub `void bcw_stub(uint64_t *args, uint64_t *ret)` for
 * `fn` (a struct result: its elements in ret[0], ret[1] ...), never
 * inlined into it: a direct call, ~10x cheaper than ffi_call, which re-examines
 * its arguments on every call (benchmarks/README.md).  Argument extension
 * attributes are copied to the call, as the ABI needs them for narrow
 * integers. */
static LLVMValueRef make_stub(LLVMModuleRef mod, LLVMValueRef fn, unsigned i)
{
    LLVMContextRef ctx = LLVMGetModuleContext(mod);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx);
    LLVMTypeRef i64p = LLVMPointerType(LLVMInt8TypeInContext(ctx), 0);
    LLVMTypeRef sparams[2] = {i64p, i64p};
    LLVMTypeRef sty =
        LLVMFunctionType(LLVMVoidTypeInContext(ctx), sparams, 2, 0);
    char name[32];
    snprintf(name, sizeof name, "bcw_stub_%u", i);
    LLVMValueRef stub = LLVMAddFunction(mod, name, sty);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, stub, ""));
    LLVMTypeRef ft = LLVMGlobalGetValueType(fn);
    unsigned n = LLVMCountParamTypes(ft);
    LLVMTypeRef types[BCW_MAX_PARAMS];
    LLVMValueRef args[BCW_MAX_PARAMS];
    LLVMGetParamTypes(ft, types);
    for (unsigned k = 0; k < n; k++) {
        LLVMValueRef idx = LLVMConstInt(i64, k, 0);
        LLVMValueRef slot =
            LLVMBuildGEP2(b, i64, LLVMGetParam(stub, 0), &idx, 1, "");
        args[k] = from_word(b, LLVMBuildLoad2(b, i64, slot, ""), types[k], ctx);
    }
    LLVMValueRef call = LLVMBuildCall2(b, ft, fn, args, n, "");
    LLVMSetInstructionCallConv(call, LLVMGetFunctionCallConv(fn));
    /* the function stays a frame of its own: a halt's cause names it,
     * with or without debug info */
    unsigned noinline = LLVMGetEnumAttributeKindForName("noinline", 8);
    LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex,
                             LLVMCreateEnumAttribute(ctx, noinline, 0));
    static const char *const ext[] = {"zeroext", "signext"};
    for (unsigned k = 0; k < n; k++)
        for (size_t e = 0; e < 2; e++) {
            unsigned kind =
                LLVMGetEnumAttributeKindForName(ext[e], strlen(ext[e]));
            if (LLVMGetEnumAttributeAtIndex(fn, k + 1, kind) != NULL)
                LLVMAddCallSiteAttribute(call, k + 1,
                                         LLVMCreateEnumAttribute(ctx, kind, 0));
        }
    LLVMTypeRef rt = LLVMGetReturnType(ft);
    if (LLVMGetTypeKind(rt) == LLVMStructTypeKind) {
        /* a struct returned in registers: one word per element */
        for (unsigned k = 0; k < LLVMCountStructElementTypes(rt); k++) {
            LLVMValueRef idx = LLVMConstInt(i64, k, 0);
            LLVMValueRef slot =
                LLVMBuildGEP2(b, i64, LLVMGetParam(stub, 1), &idx, 1, "");
            LLVMValueRef e = LLVMBuildExtractValue(b, call, k, "");
            LLVMBuildStore(b, bcw__native_word(b, e, i64, ctx), slot);
        }
    } else if (LLVMGetTypeKind(rt) != LLVMVoidTypeKind) {
        LLVMBuildStore(b, bcw__native_word(b, call, i64, ctx),
                       LLVMGetParam(stub, 1));
    }
    LLVMBuildRetVoid(b);
    LLVMDisposeBuilder(b);
    return stub;
}

/* Does LLVM type t hold ABI class `abi` (signedness aside: the bitcode
 * does not say it)?  A struct passed or returned by value is not
 * compared. */
static bool same_class(LLVMTypeRef t, uint8_t abi)
{
    LLVMTypeKind k = LLVMGetTypeKind(t);
    unsigned w = k == LLVMIntegerTypeKind ? LLVMGetIntTypeWidth(t) : 0;
    switch ((enum bcw_abi)abi) {
    case BCW_ABI_VOID:
        return k == LLVMVoidTypeKind;
    case BCW_ABI_BOOL:
        return w == 1 || w == 8;
    case BCW_ABI_S8:
    case BCW_ABI_U8:
        return w == 8;
    case BCW_ABI_S16:
    case BCW_ABI_U16:
        return w == 16;
    case BCW_ABI_S32:
    case BCW_ABI_U32:
        return w == 32;
    case BCW_ABI_S64:
    case BCW_ABI_U64:
        return w == 64;
    case BCW_ABI_FLOAT:
        return k == LLVMFloatTypeKind;
    case BCW_ABI_DOUBLE:
        return k == LLVMDoubleTypeKind;
    case BCW_ABI_PTR:
        return k == LLVMPointerTypeKind;
    default:
        return true;
    }
}

/* Does fn, a reference build's, take and return what the model's
 * function f does?  Otherwise an error naming the first difference. */
static int same_signature(const bcw_model *model, const bcw_func *f,
                          LLVMValueRef fn, const char *in)
{
    bool structs = f->ret.abi == BCW_ABI_STRUCT;
    for (unsigned k = 0; k < f->nparams; k++)
        structs |= f->params[k].abi == BCW_ABI_STRUCT;
    if (structs) /* lowered by the ABI: not told slot by slot */
        return 0;
    LLVMTypeRef ft = LLVMGlobalGetValueType(fn);
    if (LLVMCountParamTypes(ft) != f->nparams)
        return bcw__error(BCW_EINPUT,
                          "%s's %s takes %u parameters, the walk of %s calls "
                          "it with %u: not the same interface",
                          in, f->name, LLVMCountParamTypes(ft), model->path,
                          f->nparams);
    if (!same_class(LLVMGetReturnType(ft), f->ret.abi))
        return bcw__error(BCW_EINPUT,
                          "%s's %s returns another type than the one the "
                          "walk of %s reads (%s): not the same interface",
                          in, f->name, model->path,
                          f->ret.ctype ? f->ret.ctype : "its result");
    LLVMTypeRef *pt = bcw__calloc(f->nparams ? f->nparams : 1, sizeof *pt);
    if (pt == NULL)
        return BCW_ENOMEM;
    LLVMGetParamTypes(ft, pt);
    int err = 0;
    for (unsigned k = 0; k < f->nparams && err == 0; k++)
        if (!same_class(pt[k], f->params[k].abi))
            err = bcw__error(BCW_EINPUT,
                             "%s's %s takes another type as parameter %u "
                             "(%s) than the walk of %s passes (%s): not the "
                             "same interface",
                             in, f->name, k + 1, f->params[k].name, model->path,
                             f->params[k].ctype ? f->params[k].ctype : "?");
    free(pt);
    return err;
}

/* The model's function of symbol i (its first), or NULL. */
static const bcw_func *func_of_sym(const bcw_model *model, unsigned i)
{
    for (unsigned u = 0; u < model->nunits; u++)
        for (unsigned j = 0; j < model->units[u].nfuncs; j++)
            if (model->units[u].funcs[j].sym == i)
                return &model->units[u].funcs[j];
    return NULL;
}

/* The table of the walked functions `model` names, found in module mod
 * (of file `in`: the model's own, or another implementation of its
 * units, --reference). */
static int add_symtab(const bcw_model *model, LLVMModuleRef mod, const char *in)
{
    LLVMContextRef ctx = LLVMGetModuleContext(mod);
    /* opaque pointers: one `ptr` type serves every entry */
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(ctx), 0);
    LLVMValueRef *elems =
        bcw__calloc(model->nsyms ? model->nsyms : 1, sizeof *elems);
    LLVMValueRef *stubs =
        bcw__calloc(model->nsyms ? model->nsyms : 1, sizeof *stubs);
    if (elems == NULL || stubs == NULL) {
        free(elems);
        free(stubs);
        return BCW_ENOMEM;
    }
    for (unsigned i = 0; i < model->nsyms; i++) {
        LLVMValueRef fn = LLVMGetNamedFunction(mod, model->syms[i]);
        if (fn == NULL || LLVMIsDeclaration(fn)) {
            free(elems);
            free(stubs);
            if (strcmp(in, model->path) == 0)
                return bcw__error(BCW_EINPUT, "%s: function %s vanished", in,
                                  model->syms[i]);
            return bcw__error(BCW_EINPUT,
                              "%s does not define %s, which the walk of %s "
                              "calls: not an implementation of the same "
                              "interface",
                              in, model->syms[i], model->path);
        }
        const bcw_func *f = func_of_sym(model, i);
        int err = strcmp(in, model->path) != 0 && f != NULL
                      ? same_signature(model, f, fn, in)
                      : 0;
        if (err < 0) {
            free(elems);
            free(stubs);
            return err;
        }
        elems[i] = fn;
        stubs[i] = make_stub(mod, fn, i);
    }
    LLVMTypeRef at = LLVMArrayType(i8p, model->nsyms);
    LLVMValueRef tab = LLVMAddGlobal(mod, at, "bcw_unit_symtab");
    LLVMSetInitializer(tab, LLVMConstArray(i8p, elems, model->nsyms));
    LLVMSetGlobalConstant(tab, 1);
    LLVMValueRef stab = LLVMAddGlobal(mod, at, "bcw_unit_stubs");
    LLVMSetInitializer(stab, LLVMConstArray(i8p, stubs, model->nsyms));
    LLVMSetGlobalConstant(stab, 1);
    free(elems);
    free(stubs);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
    LLVMValueRef n = LLVMAddGlobal(mod, i32, "bcw_unit_nsyms");
    LLVMSetInitializer(n, LLVMConstInt(i32, model->nsyms, 0));
    LLVMSetGlobalConstant(n, 1);
    return 0;
}

/* void bcw_unit_setup(void), the worker's call of the library's own
 * initialisation `setup` before any sequence; empty without one. */
static int add_setup(LLVMModuleRef mod, const char *path, const char *setup)
{
    LLVMValueRef fn = setup ? LLVMGetNamedFunction(mod, setup) : NULL;
    if (setup != NULL && (fn == NULL || LLVMIsDeclaration(fn)))
        return bcw__error(BCW_EINPUT,
                          "setup function %s: %s defines no function of "
                          "that name",
                          setup, path);
    if (fn != NULL && LLVMCountParams(fn) > 0)
        return bcw__error(BCW_EINPUT,
                          "setup function %s: it takes %u parameters; a "
                          "setup function takes none",
                          setup, LLVMCountParams(fn));
    LLVMContextRef ctx = LLVMGetModuleContext(mod);
    LLVMTypeRef vt = LLVMFunctionType(LLVMVoidTypeInContext(ctx), NULL, 0, 0);
    LLVMValueRef f = LLVMAddFunction(mod, "bcw_unit_setup", vt);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, f, "entry"));
    if (fn != NULL) {
        LLVMValueRef call =
            LLVMBuildCall2(b, LLVMGlobalGetValueType(fn), fn, NULL, 0, "");
        LLVMSetInstructionCallConv(call, LLVMGetFunctionCallConv(fn));
    }
    LLVMBuildRetVoid(b);
    LLVMDisposeBuilder(b);
    return 0;
}

int bcw__native_instrument(const bcw_model *model, const char *in,
                           const char *setup, unsigned sanitize,
                           unsigned *optimised, bcw_cov_map *cov,
                           const char *out)
{
    bcw_bitcode bc = {0};
    int err = bcw__bitcode_load(&bc, in);
    if (err < 0)
        return err;
    /* contract.h's failure function is bcwalk's, never the library's
     * code: gone before coverage counts functions */
    redirect_contracts(bc.mod);
    /* the unit's own functions only, before the stubs join them; the
     * flags first, so that no block a check adds has one */
    if (cov != NULL && (err = bcw__cov_instrument(bc.mod, cov)) < 0) {
        bcw__bitcode_dispose(&bc);
        return err;
    }
    *optimised = bcw__sanitize_module(bc.mod, sanitize);
    /* order matters: the symbol table names functions before `main` or
     * libc declarations are renamed */
    mark_unit_code(bc.mod);
    err = add_symtab(model, bc.mod, in);
    if (err == 0)
        err = add_setup(bc.mod, in, setup);
    if (err == 0) {
        gather_globals(bc.mod);
        externalize(bc.mod);
        bcw__native_rename(bc.mod, redirected,
                           sizeof redirected / sizeof redirected[0]);
    }
    if (err == 0)
        err = bcw__bitcode_write(bc.mod, out);
    bcw__bitcode_dispose(&bc);
    return err;
}

int bcw__native_standalone(const char *in, const char *out, bool undefined)
{
    bcw_bitcode bc = {0};
    int err = bcw__bitcode_load(&bc, in);
    if (err < 0)
        return err;
    /* the program's allocator makes a 0-byte block one AddressSanitizer
     * sees past (it gives malloc(0) a byte) */
    static const char *const zero[][2] = {{"malloc", "bcw_sa_malloc"},
                                          {"calloc", "bcw_sa_calloc"},
                                          {"realloc", "bcw_sa_realloc"},
                                          {"free", "bcw_sa_free"},
                                          {"bcw_rt_ub", "bcw_sa_ub"}};
    bcw__sanitize_module(bc.mod, BCW_SANITIZE_ADDRESS |
                                     (undefined ? BCW_SANITIZE_UNDEFINED : 0));
    externalize(bc.mod);
    bcw__native_rename(bc.mod, zero, sizeof zero / sizeof zero[0]);
    err = bcw__bitcode_write(bc.mod, out);
    bcw__bitcode_dispose(&bc);
    return err;
}
