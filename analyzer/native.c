/* native.c - instruments a unit's bitcode for the worker runtime. */
#define _POSIX_C_SOURCE 200809L
#include "native.h"

#include <llvm-c/BitWriter.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bitcode.h"

/* libc functions whose calls from the unit go to the runtime instead. */
static const char *const redirected[][2] = {
    {"malloc", "bcw_rt_malloc"},
    {"calloc", "bcw_rt_calloc"},
    {"realloc", "bcw_rt_realloc"},
    {"reallocarray", "bcw_rt_reallocarray"},
    {"free", "bcw_rt_free"},
    {"strdup", "bcw_rt_strdup"},
    {"strndup", "bcw_rt_strndup"},
    {"abort", "bcw_rt_abort"},
    {"__assert_fail", "bcw_rt_assert_fail"},
    {"exit", "bcw_rt_exit"},
};

static void redirect_libc(LLVMModuleRef mod)
{
    for (size_t i = 0; i < sizeof redirected / sizeof redirected[0]; i++) {
        LLVMValueRef fn = LLVMGetNamedFunction(mod, redirected[i][0]);
        if (fn != NULL && LLVMIsDeclaration(fn))
            LLVMSetValueName2(fn, redirected[i][1], strlen(redirected[i][1]));
    }
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

static int add_symtab(const bcw_model *model, LLVMModuleRef mod)
{
    LLVMContextRef ctx = LLVMGetModuleContext(mod);
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(ctx), 0);
    LLVMValueRef *elems = bcw__calloc(model->nsyms ? model->nsyms : 1,
                                      sizeof *elems);
    if (elems == NULL)
        return BCW_ENOMEM;
    for (unsigned i = 0; i < model->nsyms; i++) {
        LLVMValueRef fn = LLVMGetNamedFunction(mod, model->syms[i]);
        if (fn == NULL) {
            free(elems);
            return bcw__error(BCW_EINPUT, "%s: function %s vanished",
                              model->path, model->syms[i]);
        }
        elems[i] = LLVMConstBitCast(fn, i8p);
    }
    LLVMTypeRef at = LLVMArrayType(i8p, model->nsyms);
    LLVMValueRef tab = LLVMAddGlobal(mod, at, "bcw_unit_symtab");
    LLVMSetInitializer(tab, LLVMConstArray(i8p, elems, model->nsyms));
    LLVMSetGlobalConstant(tab, 1);
    free(elems);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
    LLVMValueRef n = LLVMAddGlobal(mod, i32, "bcw_unit_nsyms");
    LLVMSetInitializer(n, LLVMConstInt(i32, model->nsyms, 0));
    LLVMSetGlobalConstant(n, 1);
    return 0;
}

int bcw__native_instrument(const bcw_model *model, const char *in,
                           const char *out)
{
    bcw_bitcode bc = {0};
    int err = bcw__bitcode_load(&bc, in);
    if (err < 0)
        return err;
    /* order matters: the symbol table names functions before `main` or
     * libc declarations are renamed */
    err = add_symtab(model, bc.mod);
    if (err == 0) {
        gather_globals(bc.mod);
        externalize(bc.mod);
        redirect_libc(bc.mod);
    }
    char *tmp = err == 0 ? bcw__sprintf("%s.tmp.%ld", out, (long)getpid())
                         : NULL;
    if (err == 0 && tmp == NULL)
        err = BCW_ENOMEM;
    if (err == 0 && LLVMWriteBitcodeToFile(bc.mod, tmp) != 0)
        err = bcw__error(BCW_ERROR, "writing %s failed", tmp);
    if (err == 0 && rename(tmp, out) != 0)
        err = bcw__error(BCW_ERROR, "rename %s to %s failed", tmp, out);
    if (err < 0 && tmp != NULL)
        unlink(tmp);
    free(tmp);
    bcw__bitcode_dispose(&bc);
    return err;
}
