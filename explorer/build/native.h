/* native.h - the bitcode bcwalk compiles into a worker executable. */
#ifndef BCW_NATIVE_H
#define BCW_NATIVE_H

#include <llvm-c/Core.h>
#include <stddef.h>

#include "coverage.h"
#include "model.h"

/* Reads `in` and writes to `out` the module the worker runtime links
 * with: every function external (so `static` API functions can be
 * called), the allocator, abort, assert and exit redirected to the
 * runtime's, the unit's `main` renamed away, mutable globals gathered in
 * one section the worker restores before each sequence, and a table
 * bcw_unit_symtab of the model's functions in symbol order, with
 * bcw_unit_stubs: a typed call stub for each, and bcw_unit_setup(),
 * which calls function `setup` of the module (or nothing, if NULL).  The
 * file appears atomically.  A `setup` the module does not define, or
 * one taking parameters, gives BCW_EINPUT with a message that begins
 * "setup function NAME: ".  `sanitize` (BCW_SANITIZE_* bits) adds the
 * checks of sanitize.h; *optimised is how many functions it checked
 * less because an optimiser changed them.  With `cov` (else NULL) the
 * module gets coverage flags, and *cov their map (cover_pass.h). */
BCW_INTERNAL int bcw__native_instrument(const bcw_model *model, const char *in,
                                        const char *setup, unsigned sanitize,
                                        unsigned *optimised, bcw_cov_map *cov,
                                        const char *out);

/* The library's bitcode `in` as a standalone program links it, into
 * `out`: unchanged but for its functions' linkage (a static one is
 * callable by name), its `main` renamed bcw_unit_main, and
 * AddressSanitizer's attribute on each function it defines (clang
 * -fsanitize=address then checks them), its calls of malloc, calloc,
 * realloc and free going to bcw_sa_* (the program's: a 0-byte block
 * AddressSanitizer sees past).  With `undefined`, bcwalk's checks of
 * undefined behaviour (sanitize.h) compiled in, calling the program's
 * bcw_sa_ub.  No bcwalk runtime. */
BCW_INTERNAL int bcw__native_standalone(const char *in, const char *out,
                                        bool undefined);

/* Renames the module's declarations pairs[i][0] to pairs[i][1]: its calls
 * of a libc function go to the runtime's. */
BCW_INTERNAL void bcw__native_rename(LLVMModuleRef mod,
                                     const char *const (*pairs)[2], size_t n);

/* Converts a value to the raw word the runtime reads (zero-extended
 * integers, float bits, pointer bits), built with `b`. */
BCW_INTERNAL LLVMValueRef bcw__native_word(LLVMBuilderRef b, LLVMValueRef v,
                                           LLVMTypeRef i64, LLVMContextRef ctx);

#endif
