/* inout.h - a scalar a function reads through its pointer before it
 * writes it (inout.c). */
#ifndef BCW_INOUT_H
#define BCW_INOUT_H

#include <llvm-c/Core.h>

#include "model.h"

/* Gives out-parameter p, parameter `arg` of its function, its
 * categories when the function reads it first: the caller's value, not
 * storage to fill.  0 or BCW_ENOMEM. */
BCW_INTERNAL int bcw__inout_categories(LLVMValueRef arg, bcw_param *p);

#endif
