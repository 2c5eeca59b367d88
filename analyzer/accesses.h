/* accesses.h - which fields of its unit, and which module globals, a
 * method reads and writes. */
#ifndef BCW_ACCESSES_H
#define BCW_ACCESSES_H

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>

#include "model.h"

/* Fills f->reads and f->wrote for method f of unit u, defined as `fn`
 * whose parameter `unit` is the unit: the fields it (and the module
 * functions it passes the unit to) loads from and stores to, in layout
 * order, then "global NAME" for module globals.  0 or BCW_ENOMEM; what
 * was filled belongs to f either way. */
BCW_INTERNAL int bcw__accesses_find(const bcw_unit *u, LLVMTargetDataRef td,
                                    LLVMValueRef fn, LLVMValueRef unit,
                                    bcw_func *f);

#endif
