/* samepointer.h - whether a value is the block a parameter points into
 * (samepointer.c). */
#ifndef BCW_SAMEPOINTER_H
#define BCW_SAMEPOINTER_H

#include <llvm-c/Core.h>
#include <stdbool.h>

#include "errors.h"

/* Is `v` the block `param` points into (loads 0), or the block the
 * pointer it holds points to (loads 1, `*head` of a list in the caller's
 * cell): through casts, at a constant offset (a string handle's header
 * before it, s - sizeof(struct hdr)), as a module function given it
 * returns it (hdr(s)), up to `helpers` calls deep, or as a phi or
 * select that may be it (a loop freeing a list from its head)? */
BCW_INTERNAL bool bcw__same_pointer(LLVMValueRef v, LLVMValueRef param,
                                    unsigned loads, int helpers);

#endif
