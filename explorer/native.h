/* native.h - the bitcode bcwalk compiles into a worker executable. */
#ifndef BCW_NATIVE_H
#define BCW_NATIVE_H

#include "model.h"

/* Reads `in` and writes to `out` the module the worker runtime links
 * with: every function external (so `static` API functions can be
 * called), the allocator, abort, assert and exit redirected to the
 * runtime's, the unit's `main` renamed away, mutable globals gathered in
 * one section the worker restores before each sequence, and a table
 * bcw_unit_symtab of the model's functions in symbol order, with
 * bcw_unit_stubs: a typed call stub for each.  The file
 * appears atomically. */
BCW_INTERNAL int bcw__native_instrument(const bcw_model *model, const char *in,
                                        const char *out);

#endif
