/* fields.h - the unit's fields, which fields each method reads and
 * writes, and the unit's state predicates. */
#ifndef BCW_FIELDS_H
#define BCW_FIELDS_H

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <stdbool.h>

#include "model.h"

/* Fills u->fields (from debug info of `ctor`, whose slot `slot` is the
 * unit), every method's reads and writes, and u->preds: Boolean
 * observers taking only the unit, and the comparisons of fields the
 * methods branch on.  `mod` is the simplified module the functions of
 * `u` live in.  0 or BCW_ENOMEM. */
BCW_INTERNAL int bcw__fields_analyze(bcw_unit *u, LLVMModuleRef mod,
                                     LLVMValueRef ctor, unsigned slot);

/* The condition `cond` of `fn` (method f of unit u) in C, over the
 * unit's fields, f's parameters and constants: "amount > 0", "size ==
 * 0"; negated if `negate`.  NULL if it cannot be written so, or on
 * allocation failure.  The string is the caller's (free()). */
BCW_INTERNAL char *bcw__cond_text(const bcw_unit *u, const bcw_func *f,
                                  LLVMValueRef fn, LLVMValueRef cond,
                                  bool negate);

/* Is `ptr` the address of a field of the unit `unit` points to (a
 * constant offset from it)?  Then *off is that offset. */
BCW_INTERNAL bool bcw__field_offset(LLVMTargetDataRef td, LLVMValueRef ptr,
                                    LLVMValueRef unit, uint32_t *off);

/* Finds each method's contracts and the unit's invariant function. */
BCW_INTERNAL int bcw__contracts_analyze(bcw_unit *u, LLVMModuleRef mod);

#endif
