/* fields.h - the unit's fields, which fields each method reads and
 * writes, and the unit's state predicates. */
#ifndef BCW_FIELDS_H
#define BCW_FIELDS_H

#include <llvm-c/Core.h>

#include "model.h"

/* Fills u->fields (from debug info of `ctor`, whose slot `slot` is the
 * unit), every method's reads and writes, and u->preds: Boolean
 * observers taking only the unit, and the comparisons of fields the
 * methods branch on.  `mod` is the simplified module the functions of
 * `u` live in.  0 or BCW_ENOMEM. */
BCW_INTERNAL int bcw__fields_analyze(bcw_unit *u, LLVMModuleRef mod,
                                     LLVMValueRef ctor, unsigned slot);

#endif
