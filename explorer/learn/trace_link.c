/* trace_link.c - the traced program (trace_link.h): the test program
 * linked with the library, its test functions found (a table of them,
 * else their names), instrumented, verified and written. */
#include "trace_link.h"

#include <llvm-c/Analysis.h>
#include <string.h>

#include "alloc.h"
#include "bcwalk/error.h"
#include "bitcode.h"
#include "build.h"
#include "trace_inst.h"

/* The program's ends go to the tracer runtime. */
static const char *const redirected[][2] = {
    {"abort", "bcw_tr_abort"}, {"__assert_fail", "bcw_tr_assert_fail"},
    {"exit", "bcw_tr_exit"},   {"_exit", "bcw_tr__exit"},
    {"_Exit", "bcw_tr__exit"}, {"quick_exit", "bcw_tr_exit"},
};

/* Can `fn` be a test: test code returning nothing, taking nothing, one
 * pointer (cmocka's void **state) or one integer (Check's int _i)? */
static bool test_shaped(LLVMValueRef fn)
{
    if (!bcw__trace_inst_is_test_code(fn) ||
        strcmp(bcw__value_name(fn), "main") == 0)
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

static int add_test(bcw_trace_inst *in, LLVMValueRef fn)
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
static int table_tests(bcw_trace_inst *in, LLVMValueRef c, unsigned level)
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
static int find_tests(bcw_trace_inst *in)
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

int bcw__trace_link(bcw_trace *t, const bcw_model *model, const char *tests,
                    const char *lib, const char *out)
{
    bcw_bitcode prog = {0}, other = {0};
    bcw_trace_inst in = {.model = model, .t = t};
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
    if (lib == NULL) {
        /* the library built with its tests: one file */
        if ((err = bcw__trace_inst_mark_within(prog.mod, model)) < 0)
            goto done;
    } else {
        bcw__trace_inst_mark(prog.mod);
        if ((err = bcw__bitcode_load_in(&other, lib, prog.ctx)) < 0)
            goto done;
        LLVMValueRef lib_main = LLVMGetNamedFunction(other.mod, "main");
        if (lib_main != NULL && !LLVMIsDeclaration(lib_main))
            LLVMSetValueName2(lib_main, "bcw_library_main", 16);
        err = bcw__bitcode_link_into(prog.mod, other.mod, tests, lib);
        other.mod = NULL; /* the link took it */
        if (err == BCW_EINPUT) {
            /* a test program that is the library itself, tests and all */
            char *said = bcw__strdup(bcw_error_last());
            err = bcw__error(BCW_EINPUT,
                             "%s: both files define the library: if %s is "
                             "the library built with its tests, give it "
                             "alone (bcwalk learn %s --unit NAME)",
                             said ? said : lib, tests, tests);
            free(said);
        }
        if (err < 0)
            goto done;
    }
    in.mod = prog.mod;
    in.ctx = prog.ctx;
    in.b = LLVMCreateBuilderInContext(in.ctx);
    in.i8 = LLVMInt8TypeInContext(in.ctx);
    in.i32 = LLVMInt32TypeInContext(in.ctx);
    in.i64 = LLVMInt64TypeInContext(in.ctx);
    in.ptr = LLVMPointerType(in.i8, 0);
    in.words_t = LLVMArrayType(in.i64, TR_MAX_ARGS);
    bcw__trace_inst_hooks(&in);
    if ((err = find_tests(&in)) < 0 || (err = bcw__trace_inst_calls(&in)) < 0)
        goto done;
    for (unsigned i = 0; i < in.ntests; i++)
        bcw__trace_inst_wrap(&in, LLVMGetNamedFunction(in.mod, in.names[i]), i);
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
