/* preds.h - the unit's state predicates: interface observers and the
 * field comparisons its methods branch on. */
#ifndef BCW_PREDS_H
#define BCW_PREDS_H

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>

#include "model.h"

/* Appends to u->preds each Boolean observer of u taking only the unit
 * (an int observer returning only 0 or 1 counts), named without the
 * unit's prefix, with its formal form when it returns one comparison of
 * fields.  `mod` holds u's functions.  0 or BCW_ENOMEM. */
BCW_INTERNAL int bcw__preds_interface(bcw_unit *u, LLVMTargetDataRef td,
                                      LLVMModuleRef mod);

/* Appends to u->preds the comparisons of u's fields that `fn` (whose
 * parameter `unit` is the unit) decides, or adds `user`, the method's
 * name, to the users of one already there.  0 or BCW_ENOMEM. */
BCW_INTERNAL int bcw__preds_branches(bcw_unit *u, LLVMTargetDataRef td,
                                     LLVMValueRef fn, LLVMValueRef unit,
                                     const char *user);

#endif
