/* trace_inst.h - the traced program's instrumenter: the hooks into the
 * tracer runtime around every call the test code makes into the library,
 * and around each test function. */
#ifndef BCW_TRACE_INST_H
#define BCW_TRACE_INST_H

#include <llvm-c/Core.h>
#include <stdbool.h>
#include <stddef.h>

#include "trace.h"

/* The program being instrumented, the runtime's hooks in it, and what
 * is found of it: its sites into t, its test functions into names. */
typedef struct bcw_trace_inst {
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
} bcw_trace_inst;

/* Marks the functions `mod` defines: the test code, once the library is
 * linked in. */
BCW_INTERNAL void bcw__trace_inst_mark(LLVMModuleRef mod);

/* Marks the test code of `mod`, a library built with its tests (its
 * main, its test functions in its own source): every function it defines
 * but the model's and those they call, directly or not.  0 or
 * BCW_ENOMEM. */
BCW_INTERNAL int bcw__trace_inst_mark_within(LLVMModuleRef mod,
                                             const bcw_model *m);

/* Is `fn` the test code's (marked by bcw__trace_inst_mark)? */
BCW_INTERNAL bool bcw__trace_inst_is_test_code(LLVMValueRef fn);

/* Declares the tracer runtime's hooks in in->mod (in's types set). */
BCW_INTERNAL void bcw__trace_inst_hooks(bcw_trace_inst *in);

/* Records every call the test code makes into the library: a site for
 * each in in->t, its arguments before it, its result after.  0 or
 * BCW_ENOMEM; the sites added stay in->t's. */
BCW_INTERNAL int bcw__trace_inst_calls(bcw_trace_inst *in);

/* Test function `fn`, number `id`: tells the runtime where it begins
 * (and returns at once if the runtime says to skip it) and ends. */
BCW_INTERNAL void bcw__trace_inst_wrap(bcw_trace_inst *in, LLVMValueRef fn,
                                       unsigned id);

#endif
