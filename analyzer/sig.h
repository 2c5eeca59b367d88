/* sig.h - an API function's signature as unit discovery reads it: LLVM
 * types, debug info and what each pointer slot points to. */
#ifndef BCW_SIG_H
#define BCW_SIG_H

#include <llvm-c/Core.h>
#include <stdbool.h>

#include "diinfo.h"
#include "model.h"
#include "pointee.h"

/* One function's slots: [0] the result, [i] parameter i. */
typedef struct bcw_sig {
    LLVMValueRef fn;
    const char *name; /* borrowed from LLVM */
    bool is_static;
    unsigned n; /* parameters */
    LLVMTypeRef types[BCW_MAX_PARAMS + 1];
    bcw_di_type di[BCW_MAX_PARAMS + 1];
    bcw_pointee pt[BCW_MAX_PARAMS + 1]; /* for pointer slots */
} bcw_sig;

/* Reads fn's signature into *s; false for functions that are not API
 * (declarations, intrinsics, main, static helpers of the .c file), and
 * for API functions bcwalk cannot call (variadic, more parameters than
 * it passes), which get the reason in *why (NULL otherwise). */
BCW_INTERNAL bool bcw__sig_load(LLVMModuleRef mod, LLVMValueRef fn, bcw_sig *s,
                                const char **why);

/* The static inline function of a header fn is the slow path of (a
 * function every call of fn is in, past a branch, all of them static
 * functions of a header that are API: msgpack-c's
 * msgpack_zone_push_finalizer calling msgpack_zone_push_finalizer_expand
 * once its array is full), the first of them; NULL when fn is called
 * elsewhere or unconditionally, its address taken, or never called. */
BCW_INTERNAL LLVMValueRef bcw__sig_slow_path_of(LLVMModuleRef mod,
                                                LLVMValueRef fn);

/* Is slot i a pointer? */
BCW_INTERNAL bool bcw__sig_pointer(const bcw_sig *s, unsigned i);
/* The struct slot i points to, or the string handle typedef it is
 * (typedef char *sds), or NULL.  Borrowed from s. */
BCW_INTERNAL const char *bcw__sig_struct(const bcw_sig *s, unsigned i);
/* The struct E of a cell slot E ** (debug info names it), or NULL. */
BCW_INTERNAL const char *bcw__sig_cell(const bcw_sig *s, unsigned i);
/* Is slot i a pointer whose target neither debug info nor uses could
 * name?  Then names decide (roles.c). */
BCW_INTERNAL bool bcw__sig_weak(const bcw_sig *s, unsigned i);

#endif
