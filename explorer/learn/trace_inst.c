/* trace_inst.c - the traced program instrumented (trace_inst.h): its
 * test code marked, the tracer runtime's hooks, a site for every call the
 * test code makes into the library with its arguments and result
 * recorded, and each test function's begin and end. */
#include "trace_inst.h"

#include <llvm-c/DebugInfo.h>
#include <string.h>

#include "alloc.h"
#include "bitcode.h"
#include "build.h"
#include "params.h"

#define TEST_CODE "bcwalk-test-code" /* attribute of the tests' functions */

bool bcw__trace_inst_is_test_code(LLVMValueRef fn)
{
    return LLVMGetStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                                         TEST_CODE, strlen(TEST_CODE)) != NULL;
}

void bcw__trace_inst_mark(LLVMModuleRef mod)
{
    LLVMContextRef ctx = LLVMGetModuleContext(mod);
    LLVMAttributeRef a =
        LLVMCreateStringAttribute(ctx, TEST_CODE, strlen(TEST_CODE), "", 0);
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn != NULL;
         fn = LLVMGetNextFunction(fn))
        if (!LLVMIsDeclaration(fn))
            LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, a);
}

static void find_func(const bcw_model *m, const char *name, int *unit,
                      int *func);

int bcw__trace_inst_mark_within(LLVMModuleRef mod, const bcw_model *m)
{
    /* the library's code: the model's functions, then what they call */
    LLVMValueRef *lib = NULL;
    size_t n = 0, cap = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn != NULL;
         fn = LLVMGetNextFunction(fn)) {
        int unit, func;
        find_func(m, bcw__value_name(fn), &unit, &func);
        if (unit < 0 || LLVMIsDeclaration(fn))
            continue;
        if (bcw__grow(&lib, &cap, n + 1, sizeof *lib) < 0)
            return BCW_ENOMEM;
        lib[n++] = fn;
    }
    for (size_t k = 0; k < n; k++)
        for (LLVMValueRef i = bcw__first_instruction(lib[k]); i != NULL;
             i = bcw__next_instruction(i)) {
            LLVMValueRef callee =
                LLVMIsACallInst(i) ? bcw__called_function(i) : NULL;
            bool known = callee == NULL || LLVMIsDeclaration(callee);
            for (size_t j = 0; j < n && !known; j++)
                known = lib[j] == callee;
            if (known)
                continue;
            if (bcw__grow(&lib, &cap, n + 1, sizeof *lib) < 0) {
                free(lib);
                return BCW_ENOMEM;
            }
            lib[n++] = callee;
        }
    LLVMContextRef ctx = LLVMGetModuleContext(mod);
    LLVMAttributeRef a =
        LLVMCreateStringAttribute(ctx, TEST_CODE, strlen(TEST_CODE), "", 0);
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn != NULL;
         fn = LLVMGetNextFunction(fn)) {
        bool library = LLVMIsDeclaration(fn);
        for (size_t j = 0; j < n && !library; j++)
            library = lib[j] == fn;
        if (!library)
            LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, a);
    }
    free(lib);
    return 0;
}

static LLVMValueRef hook(bcw_trace_inst *in, const char *name, LLVMTypeRef *t,
                         LLVMTypeRef ret, LLVMTypeRef *params, unsigned n)
{
    *t = LLVMFunctionType(ret, params, n, 0);
    return LLVMAddFunction(in->mod, name, *t);
}

void bcw__trace_inst_hooks(bcw_trace_inst *in)
{
    LLVMTypeRef vt = LLVMVoidTypeInContext(in->ctx);
    LLVMTypeRef begin[] = {in->i32, in->ptr};
    LLVMTypeRef enter[] = {in->i32, in->i32, in->ptr, in->ptr};
    LLVMTypeRef leave[] = {in->i32, in->i64};
    in->begin = hook(in, "bcw_tr_begin", &in->begin_t, in->i32, begin, 2);
    in->end = hook(in, "bcw_tr_end", &in->end_t, vt, begin, 1);
    in->enter = hook(in, "bcw_tr_enter", &in->enter_t, vt, enter, 4);
    in->leave = hook(in, "bcw_tr_leave", &in->leave_t, vt, leave, 2);
    unsigned id = LLVMLookupIntrinsicID("llvm.addressofreturnaddress", 27);
    in->slot = LLVMGetIntrinsicDeclaration(in->mod, id, &in->ptr, 1);
}

static bool scalar(LLVMTypeRef t)
{
    LLVMTypeKind k = LLVMGetTypeKind(t);
    return k == LLVMIntegerTypeKind || k == LLVMFloatTypeKind ||
           k == LLVMDoubleTypeKind || k == LLVMPointerTypeKind;
}

/* The function or global variable an argument names, through casts. */
static char *named(LLVMValueRef v)
{
    while (v != NULL && LLVMIsAConstantExpr(v) &&
           LLVMGetConstOpcode(v) == LLVMBitCast)
        v = LLVMGetOperand(v, 0);
    if (v != NULL && LLVMIsAFunction(v))
        return bcw__strdup(bcw__value_name(v));
    if (v != NULL && LLVMIsAGlobalVariable(v))
        return bcw__sprintf("&%s", bcw__value_name(v));
    return NULL;
}

static void find_func(const bcw_model *m, const char *name, int *unit,
                      int *func)
{
    *unit = *func = -1;
    for (unsigned u = 0; u < m->nunits; u++)
        for (unsigned i = 0; i < m->units[u].nfuncs; i++)
            if (strcmp(m->units[u].funcs[i].name, name) == 0) {
                *unit = (int)u;
                *func = (int)i;
                return;
            }
}

/* How the runtime records argument i of a call of model function f. */
static uint8_t kind_of(const bcw_func *f, unsigned i)
{
    const bcw_param *p = &f->params[i];
    switch (p->kind) {
    case BCW_PK_STRING:
        return TR_ARG_STRING;
    case BCW_PK_OUT:
        return (uint8_t)(TR_ARG_OUT |
                         ((p->pointee_size > 0 && p->pointee_size <= 8
                               ? p->pointee_size
                               : 8)
                          << 4));
    case BCW_PK_UNIT_OUT:
        return (uint8_t)(TR_ARG_OUT | 8 << 4);
    default:
        return TR_ARG_WORD;
    }
}

/* A site for call `call` of library function `callee`: its number. */
static int add_site(bcw_trace_inst *in, LLVMValueRef call, LLVMValueRef callee,
                    LLVMValueRef caller, unsigned nargs)
{
    bcw_trace *t = in->t;
    if (bcw__grow(&t->sites, &in->cap_sites, t->nsites + 1, sizeof *t->sites) <
        0)
        return BCW_ENOMEM;
    bcw_trace_site *s = &t->sites[t->nsites];
    memset(s, 0, sizeof *s);
    s->fn = bcw__strdup(bcw__value_name(callee));
    s->caller = bcw__strdup(bcw__value_name(caller));
    if (s->fn == NULL || s->caller == NULL)
        return BCW_ENOMEM;
    t->nsites++;
    s->nargs = nargs;
    find_func(in->model, s->fn, &s->unit, &s->func);
    const bcw_func *f =
        s->unit >= 0 ? &in->model->units[s->unit].funcs[s->func] : NULL;
    if (f != NULL && f->nparams != nargs)
        f = NULL; /* the model's parameters are not the call's */
    for (unsigned i = 0; i < nargs; i++) {
        LLVMValueRef a = LLVMGetOperand(call, i);
        s->abi[i] = f != NULL ? (uint8_t)f->params[i].abi
                              : (uint8_t)bcw__scalar_abi(LLVMTypeOf(a), false);
        s->kinds[i] = f != NULL ? kind_of(f, i) : TR_ARG_WORD;
        if ((s->named[i] = named(a)) == NULL && LLVMIsAFunction(a))
            return BCW_ENOMEM;
    }
    LLVMTypeRef rt = LLVMTypeOf(call);
    s->ret =
        f != NULL ? (uint8_t)f->ret.abi : (uint8_t)bcw__scalar_abi(rt, false);
    s->line = LLVMGetDebugLocLine(call);
    char *file = NULL;
    int err = bcw__debug_path(call, &file);
    s->file = file;
    return err < 0 ? err : (int)t->nsites - 1;
}

/* The caller's words array, in its entry block. */
static LLVMValueRef words_of(bcw_trace_inst *in, LLVMValueRef fn)
{
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
    LLVMValueRef first = LLVMGetFirstInstruction(entry);
    LLVMPositionBuilderBefore(in->b, first);
    LLVMSetCurrentDebugLocation2(in->b, NULL);
    return LLVMBuildAlloca(in->b, in->words_t, "bcw.words");
}

/* Records call `call` (a call of library function `callee`): its
 * arguments before, its result after. */
static int trace_call(bcw_trace_inst *in, LLVMValueRef fn, LLVMValueRef *words,
                      LLVMValueRef call, LLVMValueRef callee)
{
    unsigned nargs = (unsigned)LLVMGetNumArgOperands(call);
    if (nargs > TR_MAX_ARGS)
        nargs = TR_MAX_ARGS;
    int site = add_site(in, call, callee, fn, nargs);
    if (site < 0)
        return site;
    if (*words == NULL)
        *words = words_of(in, fn);
    const bcw_trace_site *s = &in->t->sites[site];
    LLVMPositionBuilderBefore(in->b, call);
    LLVMSetCurrentDebugLocation2(in->b, LLVMInstructionGetDebugLoc(call));
    LLVMValueRef zero = LLVMConstInt(in->i64, 0, 0);
    for (unsigned i = 0; i < nargs; i++) {
        LLVMValueRef a = LLVMGetOperand(call, i);
        LLVMValueRef idx[2] = {zero, LLVMConstInt(in->i64, i, 0)};
        LLVMValueRef slot =
            LLVMBuildGEP2(in->b, in->words_t, *words, idx, 2, "");
        LLVMBuildStore(in->b,
                       scalar(LLVMTypeOf(a))
                           ? bcw__native_word(in->b, a, in->i64, in->ctx)
                           : zero,
                       slot);
    }
    LLVMValueRef kinds = LLVMConstStringInContext(
        in->ctx, (const char *)s->kinds, nargs > 0 ? nargs : 1, 1);
    LLVMValueRef kg = LLVMAddGlobal(in->mod, LLVMTypeOf(kinds), "bcw.kinds");
    LLVMSetInitializer(kg, kinds);
    LLVMSetGlobalConstant(kg, 1);
    LLVMSetLinkage(kg, LLVMPrivateLinkage);
    LLVMValueRef eargs[4] = {LLVMConstInt(in->i32, (unsigned)site, 0),
                             LLVMConstInt(in->i32, nargs, 0), *words, kg};
    LLVMBuildCall2(in->b, in->enter_t, in->enter, eargs, 4, "");
    LLVMPositionBuilderBefore(in->b, LLVMGetNextInstruction(call));
    LLVMValueRef result = scalar(LLVMTypeOf(call))
                              ? bcw__native_word(in->b, call, in->i64, in->ctx)
                              : zero;
    LLVMValueRef largs[2] = {LLVMConstInt(in->i32, (unsigned)site, 0), result};
    LLVMBuildCall2(in->b, in->leave_t, in->leave, largs, 2, "");
    return 0;
}

static bool traced_callee(bcw_trace_inst *in, LLVMValueRef callee)
{
    if (callee == NULL || LLVMIsDeclaration(callee) ||
        bcw__trace_inst_is_test_code(callee) || callee == in->begin ||
        callee == in->end || callee == in->enter || callee == in->leave)
        return false;
    return !LLVMIsFunctionVarArg(LLVMGlobalGetValueType(callee)) &&
           strncmp(bcw__value_name(callee), "llvm.", 5) != 0;
}

int bcw__trace_inst_calls(bcw_trace_inst *in)
{
    for (LLVMValueRef fn = LLVMGetFirstFunction(in->mod); fn != NULL;
         fn = LLVMGetNextFunction(fn)) {
        if (LLVMIsDeclaration(fn) || !bcw__trace_inst_is_test_code(fn))
            continue;
        LLVMValueRef words = NULL;
        for (LLVMValueRef i = bcw__first_instruction(fn); i != NULL;
             i = bcw__next_instruction(i)) {
            if (!LLVMIsACallInst(i))
                continue;
            LLVMValueRef callee = bcw__called_function(i);
            if (!traced_callee(in, callee))
                continue;
            int err = trace_call(in, fn, &words, i, callee);
            if (err < 0)
                return err;
            i = LLVMGetNextInstruction(i); /* the leave hook */
        }
    }
    return 0;
}

void bcw__trace_inst_wrap(bcw_trace_inst *in, LLVMValueRef fn, unsigned id)
{
    LLVMBasicBlockRef old = LLVMGetEntryBasicBlock(fn);
    LLVMBasicBlockRef entry =
        LLVMInsertBasicBlockInContext(in->ctx, old, "bcw.begin");
    LLVMBasicBlockRef skip =
        LLVMAppendBasicBlockInContext(in->ctx, fn, "bcw.skip");
    LLVMPositionBuilderAtEnd(in->b, entry);
    LLVMSetCurrentDebugLocation2(in->b, NULL);
    /* the allocas stay in the entry block, static */
    for (LLVMValueRef i = LLVMGetFirstInstruction(old);
         i != NULL && LLVMIsAAllocaInst(i);) {
        LLVMValueRef next = LLVMGetNextInstruction(i);
        LLVMInstructionRemoveFromParent(i);
        LLVMInsertIntoBuilder(in->b, i);
        i = next;
    }
    LLVMValueRef tid = LLVMConstInt(in->i32, id, 0);
    LLVMValueRef slot = LLVMBuildCall2(in->b, LLVMGlobalGetValueType(in->slot),
                                       in->slot, NULL, 0, "");
    LLVMValueRef bargs[2] = {tid, slot};
    LLVMValueRef r =
        LLVMBuildCall2(in->b, in->begin_t, in->begin, bargs, 2, "");
    LLVMBuildCondBr(
        in->b,
        LLVMBuildICmp(in->b, LLVMIntNE, r, LLVMConstInt(in->i32, 0, 0), ""),
        skip, old);
    LLVMPositionBuilderAtEnd(in->b, skip);
    LLVMBuildRetVoid(in->b);
    for (LLVMBasicBlockRef bb = old; bb != NULL && bb != skip;
         bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
        if (term == NULL || !LLVMIsAReturnInst(term))
            continue;
        LLVMPositionBuilderBefore(in->b, term);
        LLVMSetCurrentDebugLocation2(in->b, LLVMInstructionGetDebugLoc(term));
        LLVMBuildCall2(in->b, in->end_t, in->end, &tid, 1, "");
    }
}
