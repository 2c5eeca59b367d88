/* trace.c - a library's test program, traced (trace.h): linked with the
 * library, instrumented around every call its test code makes into the
 * library, built with clang against the tracer runtime
 * (explorer/runtime/tr_trace.c), run until every test has run or halted,
 * and its records read back. */
#define _GNU_SOURCE
#include "trace.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <llvm-c/Analysis.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/Linker.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "alloc.h"
#include "bitcode.h"
#include "build.h"
#include "file.h"
#include "params.h"

#define TEST_CODE "bcwalk-test-code" /* attribute of the tests' functions */
#define MAX_RUNS 100000              /* restarts after halts, at most */
#define TRACE_LIMIT ((size_t)1 << 30)

/* The program's ends go to the tracer runtime. */
static const char *const redirected[][2] = {
    {"abort", "bcw_tr_abort"}, {"__assert_fail", "bcw_tr_assert_fail"},
    {"exit", "bcw_tr_exit"},   {"_exit", "bcw_tr__exit"},
    {"_Exit", "bcw_tr__exit"}, {"quick_exit", "bcw_tr_exit"},
};

typedef struct inst {
    LLVMModuleRef mod;
    LLVMContextRef ctx;
    LLVMBuilderRef b;
    LLVMTypeRef i8, i32, i64, ptr, words_t;
    LLVMTypeRef begin_t, end_t, enter_t, leave_t;
    LLVMValueRef begin, end, enter, leave, slot;
    const bcw_model *model;
    bcw_trace *t;
    size_t cap_sites;
    char **names; /* test functions' names, by id */
    unsigned ntests;
    size_t cap_tests;
} inst;

static bool is_test_code(LLVMValueRef fn)
{
    return LLVMGetStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                                         TEST_CODE, strlen(TEST_CODE)) != NULL;
}

/* Marks the functions `mod` defines: the test code, once the library is
 * linked in. */
static void mark_test_code(LLVMModuleRef mod)
{
    LLVMContextRef ctx = LLVMGetModuleContext(mod);
    LLVMAttributeRef a =
        LLVMCreateStringAttribute(ctx, TEST_CODE, strlen(TEST_CODE), "", 0);
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn != NULL;
         fn = LLVMGetNextFunction(fn))
        if (!LLVMIsDeclaration(fn))
            LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, a);
}

/* Can `fn` be a test: test code returning nothing, taking nothing, one
 * pointer (cmocka's void **state) or one integer (Check's int _i)? */
static bool test_shaped(LLVMValueRef fn)
{
    if (!is_test_code(fn) || strcmp(bcw__value_name(fn), "main") == 0)
        return false;
    LLVMTypeRef ft = LLVMGlobalGetValueType(fn);
    if (LLVMGetTypeKind(LLVMGetReturnType(ft)) != LLVMVoidTypeKind ||
        LLVMIsFunctionVarArg(ft) || LLVMCountParamTypes(ft) > 1)
        return false;
    LLVMTypeRef p;
    if (LLVMCountParamTypes(ft) == 1) {
        LLVMGetParamTypes(ft, &p);
        return LLVMGetTypeKind(p) == LLVMPointerTypeKind ||
               LLVMGetTypeKind(p) == LLVMIntegerTypeKind;
    }
    return true;
}

static int add_test(inst *in, LLVMValueRef fn)
{
    for (unsigned i = 0; i < in->ntests; i++)
        if (strcmp(in->names[i], bcw__value_name(fn)) == 0)
            return 0;
    if (bcw__grow(&in->names, &in->cap_tests, in->ntests + 1,
                  sizeof *in->names) < 0 ||
        (in->names[in->ntests] = bcw__strdup(bcw__value_name(fn))) == NULL)
        return BCW_ENOMEM;
    in->ntests++;
    return 0;
}

/* The test-shaped functions a constant initializer names, in order. */
static int table_tests(inst *in, LLVMValueRef c, unsigned level)
{
    if (c == NULL || level > 8)
        return 0;
    if (LLVMIsAFunction(c))
        return test_shaped(c) ? add_test(in, c) : 0;
    if (!LLVMIsAConstantArray(c) && !LLVMIsAConstantStruct(c) &&
        !LLVMIsAConstantExpr(c))
        return 0;
    int n = LLVMGetNumOperands(c);
    for (int i = 0; i < n; i++) {
        int err = table_tests(in, LLVMGetOperand(c, (unsigned)i), level + 1);
        if (err < 0)
            return err;
    }
    return 0;
}

static bool test_named(const char *name)
{
    size_t n = strlen(name);
    return strncmp(name, "test", 4) == 0 ||
           (n > 5 && strcmp(name + n - 5, "_test") == 0);
}

/* The test functions: a table's, else those named like tests. */
static int find_tests(inst *in)
{
    int err = 0;
    for (LLVMValueRef g = LLVMGetFirstGlobal(in->mod); g != NULL && err == 0;
         g = LLVMGetNextGlobal(g))
        if (!LLVMIsDeclaration(g))
            err = table_tests(in, LLVMGetInitializer(g), 0);
    if (err == 0 && in->ntests > 0) {
        in->t->how = bcw__strdup("test functions from a table of them");
        return in->t->how ? 0 : BCW_ENOMEM;
    }
    for (LLVMValueRef fn = LLVMGetFirstFunction(in->mod);
         fn != NULL && err == 0; fn = LLVMGetNextFunction(fn))
        if (test_shaped(fn) && test_named(bcw__value_name(fn)))
            err = add_test(in, fn);
    if (err < 0)
        return err;
    in->t->how = bcw__strdup(
        in->ntests > 0 ? "test functions by their names (test*, *_test)"
                       : "no test functions: main is the one test");
    return in->t->how ? 0 : BCW_ENOMEM;
}

static LLVMValueRef hook(inst *in, const char *name, LLVMTypeRef *t,
                         LLVMTypeRef ret, LLVMTypeRef *params, unsigned n)
{
    *t = LLVMFunctionType(ret, params, n, 0);
    return LLVMAddFunction(in->mod, name, *t);
}

static void declare_hooks(inst *in)
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
static int add_site(inst *in, LLVMValueRef call, LLVMValueRef callee,
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
static LLVMValueRef words_of(inst *in, LLVMValueRef fn)
{
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
    LLVMValueRef first = LLVMGetFirstInstruction(entry);
    LLVMPositionBuilderBefore(in->b, first);
    LLVMSetCurrentDebugLocation2(in->b, NULL);
    return LLVMBuildAlloca(in->b, in->words_t, "bcw.words");
}

/* Records call `call` (a call of library function `callee`): its
 * arguments before, its result after. */
static int trace_call(inst *in, LLVMValueRef fn, LLVMValueRef *words,
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

static bool traced_callee(inst *in, LLVMValueRef callee)
{
    if (callee == NULL || LLVMIsDeclaration(callee) || is_test_code(callee) ||
        callee == in->begin || callee == in->end || callee == in->enter ||
        callee == in->leave)
        return false;
    return !LLVMIsFunctionVarArg(LLVMGlobalGetValueType(callee)) &&
           strncmp(bcw__value_name(callee), "llvm.", 5) != 0;
}

/* Every call the test code makes into the library. */
static int trace_calls(inst *in)
{
    for (LLVMValueRef fn = LLVMGetFirstFunction(in->mod); fn != NULL;
         fn = LLVMGetNextFunction(fn)) {
        if (LLVMIsDeclaration(fn) || !is_test_code(fn))
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

/* Test function `fn`, number `id`: tells the runtime where it begins
 * (and returns at once if the runtime says to skip it) and ends. */
static void wrap_test(inst *in, LLVMValueRef fn, unsigned id)
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

/* The linked, instrumented program's bitcode, into `out`. */
static int instrument(bcw_trace *t, const bcw_model *model, const char *tests,
                      const char *lib, const char *out)
{
    bcw_bitcode prog = {0}, other = {0};
    inst in = {.model = model, .t = t};
    int err = bcw__bitcode_load(&prog, tests);
    if (err < 0)
        return err;
    LLVMValueRef main_fn = LLVMGetNamedFunction(prog.mod, "main");
    if (main_fn == NULL || LLVMIsDeclaration(main_fn)) {
        err = bcw__error(BCW_EINPUT,
                         "%s: no main function: bcwalk learn runs a test "
                         "program (its bitcode, main included)",
                         tests);
        goto done;
    }
    mark_test_code(prog.mod);
    if ((err = bcw__bitcode_load_in(&other, lib, prog.ctx)) < 0)
        goto done;
    LLVMValueRef lib_main = LLVMGetNamedFunction(other.mod, "main");
    if (lib_main != NULL && !LLVMIsDeclaration(lib_main))
        LLVMSetValueName2(lib_main, "bcw_library_main", 16);
    err = bcw__bitcode_link_into(prog.mod, other.mod, tests, lib);
    other.mod = NULL; /* the link took it */
    if (err < 0)
        goto done;
    in.mod = prog.mod;
    in.ctx = prog.ctx;
    in.b = LLVMCreateBuilderInContext(in.ctx);
    in.i8 = LLVMInt8TypeInContext(in.ctx);
    in.i32 = LLVMInt32TypeInContext(in.ctx);
    in.i64 = LLVMInt64TypeInContext(in.ctx);
    in.ptr = LLVMPointerType(in.i8, 0);
    in.words_t = LLVMArrayType(in.i64, TR_MAX_ARGS);
    declare_hooks(&in);
    if ((err = find_tests(&in)) < 0 || (err = trace_calls(&in)) < 0)
        goto done;
    for (unsigned i = 0; i < in.ntests; i++)
        wrap_test(&in, LLVMGetNamedFunction(in.mod, in.names[i]), i);
    LLVMValueRef nsites = LLVMAddGlobal(in.mod, in.i32, "bcw_tr_nsites");
    LLVMSetInitializer(nsites, LLVMConstInt(in.i32, t->nsites, 0));
    LLVMSetGlobalConstant(nsites, 1);
    bcw__native_rename(in.mod, redirected,
                       sizeof redirected / sizeof redirected[0]);
    char *msg = NULL;
    if (LLVMVerifyModule(in.mod, LLVMReturnStatusAction, &msg)) {
        err = bcw__error(BCW_ERROR, "%s: instrumented program is invalid: %s",
                         tests, msg ? msg : "?");
        LLVMDisposeMessage(msg);
        goto done;
    }
    LLVMDisposeMessage(msg);
    err = bcw__bitcode_write(in.mod, out);
done:
    if (in.b != NULL)
        LLVMDisposeBuilder(in.b);
    t->found = in.names;
    t->nfound = in.ntests;
    bcw__bitcode_dispose(&other);
    bcw__bitcode_dispose(&prog);
    return err;
}

/* Reading the records. */
typedef struct reader {
    const unsigned char *p, *end;
} reader;

static bool get(reader *r, void *dst, size_t n)
{
    if ((size_t)(r->end - r->p) < n)
        return false;
    memcpy(dst, r->p, n);
    r->p += n;
    return true;
}

typedef struct parse {
    bcw_trace *t;
    size_t cap_tests;
    int cur;             /* the test in flight, -1 */
    int outside;         /* "main": the calls outside tests, -1 */
    uint32_t last_run;   /* the run of the test in flight, UINT32_MAX: none */
    uint32_t halted_run; /* the last 'H' record's test's run, UINT32_MAX:
                            it was outside any test */
    bool halted;         /* an 'H' record was read */
    /* the calls in flight: test, call number (UINT_MAX: not kept) and
     * site */
    unsigned nflight;
    unsigned flight[64][3];
} parse;

static int new_test(parse *ps, const char *name)
{
    bcw_trace *t = ps->t;
    if (bcw__grow(&t->tests, &ps->cap_tests, t->ntests + 1, sizeof *t->tests) <
        0)
        return BCW_ENOMEM;
    bcw_trace_test *x = &t->tests[t->ntests];
    memset(x, 0, sizeof *x);
    if ((x->name = bcw__strdup(name)) == NULL)
        return BCW_ENOMEM;
    return (int)t->ntests++;
}

/* The test a call or a halt outside any test belongs to: "main". */
static int target(parse *ps)
{
    if (ps->cur >= 0)
        return ps->cur;
    if (ps->outside < 0)
        ps->outside = new_test(ps, "main");
    return ps->outside;
}

static int read_call(parse *ps, reader *r, unsigned limit)
{
    uint32_t site;
    uint8_t n;
    if (!get(r, &site, 4) || !get(r, &n, 1) || site >= ps->t->nsites ||
        n > TR_MAX_ARGS)
        return 1;
    bcw_trace_call c = {.site = site, .nargs = n};
    int err = 0;
    for (unsigned i = 0; i < n && err == 0; i++) {
        uint8_t tag;
        if (!get(r, &tag, 1))
            err = 1;
        else if (tag == 0xff) {
            uint16_t len;
            if (!get(r, &len, 2))
                err = 1;
            if (err == 0 && (len & TR_STRING_CUT))
                c.cut |= 1u << i;
            len &= (uint16_t)~TR_STRING_CUT;
            if (err == 0 && (size_t)(r->end - r->p) < len)
                err = 1;
            else if (err == 0 && (c.strs[i] = bcw__strndup((const char *)r->p,
                                                           len)) == NULL)
                err = BCW_ENOMEM;
            else if (err == 0)
                r->p += len;
        } else if (!get(r, &c.words[i], 8))
            err = 1;
    }
    int ti = err == 0 ? target(ps) : -1;
    if (err == 0 && ti < 0)
        err = ti;
    bcw_trace_test *x = err == 0 ? &ps->t->tests[ti] : NULL;
    if (err == 0 && ps->nflight < 64) {
        /* its return pairs with it, kept or not */
        ps->flight[ps->nflight][0] = (unsigned)ti;
        ps->flight[ps->nflight][1] = x->ncalls < limit ? x->ncalls : UINT_MAX;
        ps->flight[ps->nflight++][2] = site;
    }
    if (err == 0 && x->ncalls < limit) {
        size_t cap = x->ncalls; /* grows in powers of two */
        if (cap == 0 || (cap & (cap - 1)) == 0) {
            void *p = bcw__realloc(x->calls, (cap ? 2 * cap : 16) * sizeof c);
            if (p == NULL)
                err = BCW_ENOMEM;
            else
                x->calls = p;
        }
        if (err == 0) {
            x->calls[x->ncalls++] = c;
            return 0;
        }
    }
    for (unsigned i = 0; i < TR_MAX_ARGS; i++)
        free(c.strs[i]);
    return err;
}

static int read_return(parse *ps, reader *r)
{
    uint32_t site;
    uint64_t result;
    uint8_t n;
    if (!get(r, &site, 4) || !get(r, &result, 8) || !get(r, &n, 1) ||
        n > TR_MAX_ARGS)
        return 1;
    bcw_trace_call *c = NULL;
    /* calls a jump left are over: the return is the innermost call's of
     * its site */
    while (ps->nflight > 0 && ps->flight[ps->nflight - 1][2] != site)
        ps->nflight--;
    if (ps->nflight > 0) {
        ps->nflight--;
        bcw_trace_test *x = &ps->t->tests[ps->flight[ps->nflight][0]];
        unsigned k = ps->flight[ps->nflight][1];
        c = k < x->ncalls ? &x->calls[k] : NULL;
    }
    if (c != NULL) {
        c->returned = true;
        c->result = result;
    }
    for (unsigned j = 0; j < n; j++) {
        uint8_t arg;
        uint64_t w;
        if (!get(r, &arg, 1) || !get(r, &w, 8))
            return 1;
        if (c != NULL && c->nouts < TR_MAX_ARGS && arg < c->nargs) {
            c->out_arg[c->nouts] = arg;
            c->out_word[c->nouts++] = w;
        }
    }
    return 0;
}

/* Reads one run's records into ps->t.  A record cut short ends the
 * reading (the process died writing it). */
static int read_run(parse *ps, const unsigned char *data, size_t len,
                    unsigned limit)
{
    reader r = {data, data + len};
    uint8_t tag;
    int err = 0;
    while (err == 0 && get(&r, &tag, 1)) {
        uint32_t run, id;
        uint64_t calls;
        uint8_t left;
        switch (tag) {
        case 'B':
            if (!get(&r, &run, 4) || !get(&r, &id, 4))
                return 0;
            ps->nflight = 0;
            ps->last_run = run;
            ps->cur = new_test(ps, id < ps->t->nfound ? ps->t->found[id] : "?");
            err = ps->cur < 0 ? ps->cur : 0;
            break;
        case 'E':
            if (!get(&r, &run, 4) || !get(&r, &calls, 8) || !get(&r, &left, 1))
                return 0;
            if (ps->cur >= 0) {
                ps->t->tests[ps->cur].made = calls;
                ps->t->tests[ps->cur].end =
                    left ? BCW_TRACE_LEFT : BCW_TRACE_PASSED;
            }
            ps->cur = -1;
            ps->nflight = 0;
            break;
        case 'C':
            err = read_call(ps, &r, limit);
            break;
        case 'M':
            if (!get(&r, &calls, 8))
                return 0;
            if (ps->outside >= 0)
                ps->t->tests[ps->outside].made = calls;
            break;
        case 'R':
            err = read_return(ps, &r);
            break;
        case 'H': {
            uint8_t kind;
            int32_t code;
            uint16_t mlen;
            if (!get(&r, &kind, 1) || !get(&r, &code, 4) ||
                !get(&r, &calls, 8) || !get(&r, &mlen, 2) ||
                (size_t)(r.end - r.p) < mlen)
                return 0;
            int ti = target(ps);
            if (ti < 0)
                return ti;
            bcw_trace_test *x = &ps->t->tests[ti];
            x->end = BCW_TRACE_HALTED;
            x->made = calls > x->ncalls ? calls : x->ncalls;
            ps->halted_run = ps->cur >= 0 ? ps->last_run : UINT32_MAX;
            x->halt = kind;
            x->code = code;
            if (mlen > 0 &&
                (x->message = bcw__strndup((const char *)r.p, mlen)) == NULL)
                return BCW_ENOMEM;
            r.p += mlen;
            ps->halted = true;
            /* the test ended there; what follows is another process's (a
             * framework running each test in a child of its own) */
            ps->cur = -1;
            ps->nflight = 0;
            break;
        }
        default:
            return 0;
        }
        if (err > 0) /* cut short */
            return 0;
    }
    return err;
}

static const char *const env_names[] = {"BCW_TRACE_FD", "BCW_TRACE_FROM",
                                        "BCW_TRACE_LIMIT", "BCW_TRACE_ALARM",
                                        "BCW_TRACE_PER_SITE"};

/* Runs the program once, from test run `from` on, its records into
 * `file`; *status is its wait status.  0, or BCW_ERROR. */
static int run_once(const char *prog, const char *file, unsigned from,
                    const bcw_trace_opts *o, unsigned ntests, int *status)
{
    int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return bcw__error(BCW_ERROR, "cannot create %s: %s", file,
                          strerror(errno));
    pid_t pid = fork();
    if (pid < 0) {
        close(fd);
        return bcw__error(BCW_ERROR, "fork: %s", strerror(errno));
    }
    if (pid == 0) {
        setpgid(0, 0);
        int null = open("/dev/null", O_RDWR);
        dup2(null, 0);
        dup2(null, 1);
        dup2(null, 2);
        if (fd == 3)
            fcntl(fd, F_SETFD, 0); /* kept across exec */
        else
            dup2(fd, 3);
        char v[5][24];
        snprintf(v[0], sizeof v[0], "3");
        snprintf(v[1], sizeof v[1], "%u", from);
        snprintf(v[2], sizeof v[2], "%u", o->limit);
        snprintf(v[3], sizeof v[3], "%u", o->time_s);
        snprintf(v[4], sizeof v[4], "%u", o->per_site);
        for (int i = 0; i < 5; i++)
            setenv(env_names[i], v[i], 1);
        if (o->memory_mb > 0) {
            struct rlimit rl;
            rl.rlim_cur = rl.rlim_max = (rlim_t)o->memory_mb << 20;
            setrlimit(RLIMIT_AS, &rl);
        }
        execl(prog, prog, (char *)NULL);
        _exit(127);
    }
    close(fd);
    /* the runtime's alarm ends a test over its time; this ends a
     * program that blocks it */
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    double limit = (double)o->time_s * (ntests + 2) + 5;
    for (;;) {
        pid_t w = waitpid(pid, status, WNOHANG);
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR)
            return bcw__error(BCW_ERROR, "waitpid: %s", strerror(errno));
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if ((double)(now.tv_sec - t0.tv_sec) +
                (double)(now.tv_nsec - t0.tv_nsec) / 1e9 >
            limit)
            kill(-pid, SIGKILL), kill(pid, SIGKILL);
        struct timespec nap = {0, 5000000};
        nanosleep(&nap, NULL);
    }
    kill(-pid, SIGKILL); /* what the tests started */
    return 0;
}

/* Runs the program until every test has run or halted. */
static int run_all(bcw_trace *t, const char *prog, const char *dir,
                   const bcw_trace_opts *o)
{
    char *file = bcw__sprintf("%s/records", dir);
    if (file == NULL)
        return BCW_ENOMEM;
    parse ps = {.t = t, .cur = -1, .outside = -1};
    unsigned from = 0;
    int err = 0;
    for (t->runs = 0; err == 0 && t->runs < MAX_RUNS;) {
        int status = 0;
        if ((err = run_once(prog, file, from, o, t->nfound, &status)) < 0)
            break;
        t->runs++;
        char *data = NULL;
        size_t len = 0;
        if ((err = bcw__read_file(&data, &len, file, TRACE_LIMIT)) < 0)
            break;
        ps.cur = -1;
        ps.halted = false;
        ps.last_run = ps.halted_run = UINT32_MAX;
        ps.nflight = 0;
        err = read_run(&ps, (const unsigned char *)data, len, o->limit);
        free(data);
        if (err < 0)
            break;
        if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && t->runs == 1) {
            err = bcw__error(BCW_ERROR, "%s: could not be run", prog);
            break;
        }
        /* the program itself ended in a halt (not one of its children):
         * it runs again from the test after the one it halted in */
        uint32_t halted_in = UINT32_MAX;
        if (WIFEXITED(status) && WEXITSTATUS(status) == TR_EXIT_HALT &&
            ps.halted)
            halted_in = ps.halted_run;
        if (WIFEXITED(status) && WEXITSTATUS(status) == TR_EXIT_HALT &&
            !ps.halted && ps.cur >= 0) {
            /* its record of how was lost: the test halted all the same */
            bcw_trace_test *x = &t->tests[ps.cur];
            x->end = BCW_TRACE_HALTED;
            x->halt = TR_HALT_UNKNOWN;
            if (x->made < x->ncalls)
                x->made = x->ncalls;
            halted_in = ps.last_run;
        }
        if (WIFSIGNALED(status) && ps.cur >= 0) {
            /* a death the tracer did not see: the limit's SIGKILL, the
             * kernel's out-of-memory killer */
            int ti = target(&ps);
            if (ti < 0) {
                err = ti;
                break;
            }
            t->tests[ti].end = BCW_TRACE_KILLED;
            t->tests[ti].made = t->tests[ti].ncalls; /* at least */
            t->tests[ti].code = WTERMSIG(status);
            halted_in = ps.last_run;
        } else if (WIFSIGNALED(status)) {
            /* killed outside any test */
            int ti = target(&ps);
            if (ti < 0) {
                err = ti;
                break;
            }
            t->tests[ti].end = BCW_TRACE_KILLED;
            t->tests[ti].code = WTERMSIG(status);
        }
        t->status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        /* a halt outside a test ends the program for good */
        if (halted_in == UINT32_MAX)
            break;
        from = halted_in + 1;
    }
    free(file);
    return err;
}

int bcw__trace_run(bcw_trace *out, const bcw_model *model, const char *tests,
                   const char *lib, const bcw_trace_opts *opts)
{
    memset(out, 0, sizeof *out);
    char *runtime = NULL, *dir = NULL, *bc = NULL, *prog = NULL, *log = NULL;
    bool failed_build = false; /* its folder stays: the message names
                                  the log */
    int err = bcw__install_path(&runtime, BCW_TRACE_RT_REL);
    if (err < 0)
        return err;
    char tmpl[4096];
    if (opts->keep != NULL) {
        if ((err = bcw__mkdir_p(opts->keep)) < 0)
            goto done;
        dir = bcw__strdup(opts->keep);
    } else {
        snprintf(tmpl, sizeof tmpl, "%s/bcwalk-learn.XXXXXX", bcw__tmp_dir());
        if (mkdtemp(tmpl) == NULL) {
            err =
                bcw__error(BCW_ERROR, "mkdtemp %s: %s", tmpl, strerror(errno));
            goto done;
        }
        dir = bcw__strdup(tmpl);
    }
    if (dir == NULL || (bc = bcw__sprintf("%s/traced.bc", dir)) == NULL ||
        (prog = bcw__sprintf("%s/traced", dir)) == NULL ||
        (log = bcw__sprintf("%s/clang.log", dir)) == NULL) {
        err = BCW_ENOMEM;
        goto done;
    }
    if ((err = instrument(out, model, tests, lib, bc)) < 0)
        goto done;
    const char *argv[64];
    size_t k = 0;
    argv[k++] = BCW_CLANG;
    argv[k++] = "-O1";
    argv[k++] = "-no-pie";
    argv[k++] = "-w";
#if BCW_LLVM_MAJOR < 15
    argv[k++] = "-mllvm";
    argv[k++] = "-opaque-pointers";
#endif
#ifdef BCW_SANITIZE_WORKERS
    argv[k++] = "-fsanitize=address,undefined"; /* the runtime's */
#endif
    argv[k++] = bc;
    argv[k++] = runtime;
    char libs[1024] = "", *save = NULL;
    if (opts->libs != NULL)
        snprintf(libs, sizeof libs, "%s", opts->libs);
    char flags[24][64];
    unsigned nf = 0;
    for (char *l = strtok_r(libs, ",", &save); l != NULL && nf < 24;
         l = strtok_r(NULL, ",", &save)) {
        snprintf(flags[nf], sizeof flags[nf], "-l%s", l);
        argv[k++] = flags[nf++];
    }
    argv[k++] = "-lm";
    argv[k++] = "-o";
    argv[k++] = prog;
    argv[k] = NULL;
    int rc = bcw__build_clang(argv, log);
    if (rc < 0) {
        err = rc;
        goto done;
    }
    if (rc > 0) {
        err = bcw__build_failed_hint(
            tests, "building the traced test program",
            "link the test program's own files into TESTS.bc with llvm-link, "
            "and name the libraries it uses with --lib (cmocka)",
            log);
        failed_build = true;
        goto done;
    }
    err = run_all(out, prog, dir, opts);
done:
    if (dir != NULL && opts->keep == NULL && !failed_build) {
        unlink(bc);
        unlink(prog);
        char *rec = bcw__sprintf("%s/records", dir);
        if (rec != NULL)
            unlink(rec);
        free(rec);
        unlink(log);
        rmdir(dir);
    }
    free(runtime);
    free(dir);
    free(bc);
    free(prog);
    free(log);
    if (err < 0)
        bcw__trace_free(out);
    return err;
}

void bcw__trace_free(bcw_trace *t)
{
    for (unsigned i = 0; i < t->nsites; i++) {
        bcw_trace_site *s = &t->sites[i];
        free(s->fn);
        free(s->caller);
        free(s->file);
        for (unsigned j = 0; j < TR_MAX_ARGS; j++)
            free(s->named[j]);
    }
    free(t->sites);
    for (unsigned i = 0; i < t->ntests; i++) {
        bcw_trace_test *x = &t->tests[i];
        free(x->name);
        free(x->message);
        for (unsigned j = 0; j < x->ncalls; j++)
            for (unsigned a = 0; a < TR_MAX_ARGS; a++)
                free(x->calls[j].strs[a]);
        free(x->calls);
    }
    free(t->tests);
    bcw__strv_free(t->found, t->nfound);
    free(t->how);
    memset(t, 0, sizeof *t);
}
